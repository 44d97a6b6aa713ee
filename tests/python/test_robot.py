# mimic.load_robot: sizes, names, limits, frames, masses and the nominal pose of the shipped HRP-2, and
# the zero-copy views of its arrays.
import numpy as np
import pytest

import mimic
from conftest import SOURCE_DIR


def test_sizes_and_names(robot):
    assert robot.nj == len(robot.joint_names) == 30  # HRP-2's OpenHRP joints (config/robots/hrp2.yaml)
    assert robot.nq == robot.nj + 7 and robot.nv == robot.nj + 6  # free-flyer: position + quaternion
    assert len(set(robot.joint_names)) == robot.nj
    for group in robot.groups.values():
        assert set(group) <= set(robot.joint_names)
    assert len(robot.groups["right_leg"]) == 6 and len(robot.groups["left_leg"]) == 6
    for frame in robot.operational_frames.values():
        assert frame in robot.frames
    assert len(robot.bodies) == robot.nj + 1


def test_limits(robot):
    for limits in (robot.lower_limit, robot.upper_limit, robot.velocity_limit, robot.torque_limit):
        assert limits.shape == (robot.nj,) and limits.dtype == np.float64
    assert np.all(robot.lower_limit < robot.upper_limit)
    assert np.all(robot.velocity_limit > 0) and np.all(robot.torque_limit > 0)


def test_masses_and_nominal_pose(robot):
    assert robot.masses.shape == (robot.nj + 1,)
    assert np.all(robot.masses >= 0)
    assert robot.total_mass == pytest.approx(robot.masses.sum(), rel=1e-12)
    assert 50.0 < robot.total_mass < 70.0  # HRP-2 weighs 58 kg
    q = robot.nominal_q
    assert q.shape == (robot.nq,)
    np.testing.assert_allclose(q[:3], [0.0, 0.0, 0.648702])  # half-sitting waist (hrp2.yaml)
    np.testing.assert_allclose(q[3:7], [0.0, 0.0, 0.0, 1.0])
    assert np.all(q[7:] >= robot.lower_limit) and np.all(q[7:] <= robot.upper_limit)
    np.testing.assert_array_equal(robot.gravity, [0.0, 0.0, -9.81])


def test_arrays_are_read_only_views(robot):
    # Two reads give views of the same C++ buffer: no copy, and numpy cannot write into the model.
    a, b = robot.lower_limit, robot.lower_limit
    assert np.shares_memory(a, b)
    assert a.base is not None and not a.flags.owndata
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0] = 0.0


def test_explicit_paths_give_the_same_robot(robot):
    other = mimic.load_robot(config=SOURCE_DIR / "config" / "robots" / "hrp2.yaml",
                             model=str(SOURCE_DIR / "models" / "hrp2.urdf"))
    assert other.joint_names == robot.joint_names
    np.testing.assert_array_equal(other.torque_limit, robot.torque_limit)


def test_missing_description_raises_input_error(tmp_path):
    missing = tmp_path / "nope.yaml"
    with pytest.raises(mimic.InputError) as info:
        mimic.load_robot(config=missing)
    assert isinstance(info.value, ValueError) and isinstance(info.value, mimic.Error)
    message = str(info.value)
    assert "nope.yaml" in message and "\n" not in message
