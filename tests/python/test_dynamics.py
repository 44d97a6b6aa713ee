# Forward kinematics, centre of mass, RNEA and its derivatives through the Python API, against physics
# identities and finite differences (tolerances justified at each check).
import numpy as np
import pytest

import mimic

G = 9.81


def random_state(robot, seed):
    """A configuration near half-sitting (joints moved up to 0.3 rad, base turned) and v, a of order 1."""
    rng = np.random.default_rng(seed)
    dv = np.concatenate([rng.uniform(-0.3, 0.3, 6), rng.uniform(-0.3, 0.3, robot.nj)])
    q = mimic.integrate(robot, robot.nominal_q, dv)
    return q, rng.uniform(-1.0, 1.0, robot.nv), rng.uniform(-1.0, 1.0, robot.nv)


def base_rotation(q):
    x, y, z, w = q[3:7]
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def test_soles_on_the_floor_at_half_sitting(robot):
    # Known HRP-2 value: the half-sitting waist height 0.648702 m of hrp2.yaml puts both soles (frames
    # 0.105 m below the ankles) on the floor, level, 0.19 m apart. The description gives the height to
    # 1e-6 m, hence the tolerance.
    q = robot.nominal_q
    frames = robot.operational_frames
    right = mimic.frame_placement(robot, q, frames["right_sole"])
    left = mimic.frame_placement(robot, q, frames["left_sole"])
    for sole in (right, left):
        assert sole.shape == (4, 4)
        assert sole[2, 3] == pytest.approx(0.0, abs=1e-5)
        np.testing.assert_allclose(sole[:3, :3], np.eye(3), atol=1e-9)
        np.testing.assert_array_equal(sole[3], [0, 0, 0, 1])
    assert left[1, 3] - right[1, 3] == pytest.approx(0.19, abs=1e-3)


def test_frame_placements_agree_with_frame_placement_and_the_base(robot):
    q, _, _ = random_state(robot, 1)
    all_frames = mimic.frame_placements(robot, q)
    assert all_frames.shape == (len(robot.frames), 4, 4)
    for index, name in enumerate(robot.frames):
        np.testing.assert_array_equal(all_frames[index], mimic.frame_placement(robot, q, name))
        np.testing.assert_array_equal(all_frames[index], mimic.frame_placement(robot, q, index))
    # The root body's frame is the base pose of q (exact up to the quaternion -> matrix rounding).
    root = mimic.frame_placement(robot, q, robot.bodies[0])
    np.testing.assert_allclose(root[:3, 3], q[:3], atol=1e-15)
    np.testing.assert_allclose(root[:3, :3], base_rotation(q), atol=1e-15)


def test_translating_the_base_translates_frames_and_com(robot):
    q, _, _ = random_state(robot, 2)
    shift = np.array([0.3, -0.2, 0.1])
    moved = q.copy()
    moved[:3] += shift
    before, after = mimic.frame_placements(robot, q), mimic.frame_placements(robot, moved)
    np.testing.assert_allclose(after[:, :3, 3] - before[:, :3, 3],
                               np.broadcast_to(shift, (len(robot.frames), 3)), atol=1e-14)
    np.testing.assert_allclose(mimic.center_of_mass(robot, moved) - mimic.center_of_mass(robot, q), shift,
                               atol=1e-14)


def test_static_base_wrench_carries_the_weight(robot):
    # Holding the robot still takes the base wrench that balances gravity: force m g up and the moment of
    # the weight at the CoM about the base origin, both in base axes. Rounding only (1e-9 relative).
    q, _, _ = random_state(robot, 3)
    zero = np.zeros(robot.nv)
    tau = mimic.rnea(robot, q, zero, zero)
    R = base_rotation(q)
    lift = robot.total_mass * G * np.array([0.0, 0.0, 1.0])
    np.testing.assert_allclose(tau[:3], R.T @ lift, rtol=1e-9, atol=1e-9)
    arm = mimic.center_of_mass(robot, q) - q[:3]
    np.testing.assert_allclose(tau[3:6], R.T @ np.cross(arm, lift), rtol=1e-9, atol=1e-9)


def test_gravity_torque_is_the_gradient_of_the_potential_energy(robot):
    # tau(q, 0, 0) = dU/dq with U = m g z_com, the derivative taken along integrate() as rnea's tangent
    # space. Central differences with h = 1e-6: truncation h^2 |U'''| < 1e-10, rounding eps U / h ~ 1e-7 N m
    # (U ~ 600 J), so 1e-6 N m is a bound with a margin.
    q, _, _ = random_state(robot, 4)
    zero = np.zeros(robot.nv)
    tau = mimic.rnea(robot, q, zero, zero)

    def energy(config):
        return robot.total_mass * G * mimic.center_of_mass(robot, config)[2]

    h = 1e-6
    gradient = np.empty(robot.nv)
    for k in range(robot.nv):
        step = np.zeros(robot.nv)
        step[k] = h
        gradient[k] = (energy(mimic.integrate(robot, q, step))
                       - energy(mimic.integrate(robot, q, -step))) / (2 * h)
    np.testing.assert_allclose(tau, gradient, rtol=0, atol=1e-6)


def test_mass_matrix_symmetric_positive_definite_and_linear_in_a(robot):
    q, v, a = random_state(robot, 5)
    _, _, M = mimic.rnea_derivatives(robot, q, v, a)
    assert M.shape == (robot.nv, robot.nv)
    np.testing.assert_array_equal(M, M.T)  # exactly symmetric (rnea_derivatives.hpp)
    assert np.linalg.eigvalsh(M).min() > 0
    # rnea is affine in a: tau(a) - tau(0) = M a, to rounding (|tau| ~ 1e3 N m, 1e-9 relative).
    zero = np.zeros(robot.nv)
    difference = mimic.rnea(robot, q, v, a) - mimic.rnea(robot, q, v, zero)
    np.testing.assert_allclose(difference, M @ a, rtol=0, atol=1e-9 * max(1.0, np.abs(M @ a).max()))


def test_rnea_derivatives_match_finite_differences(robot):
    # Central differences of mimic.rnea with h = 1e-6: rounding eps |tau| / h ~ 2e-7 for |tau| ~ 1e3 N m,
    # truncation h^2 |tau'''| ~ 1e-9; compared at 1e-5 of the largest entry.
    q, v, a = random_state(robot, 6)
    dtau_dq, dtau_dv, M = mimic.rnea_derivatives(robot, q, v, a)
    np.testing.assert_allclose(mimic.rnea(robot, q, v, a), mimic.rnea(robot, q, v, a))
    h = 1e-6
    fd_q = np.empty((robot.nv, robot.nv))
    fd_v = np.empty((robot.nv, robot.nv))
    for k in range(robot.nv):
        step = np.zeros(robot.nv)
        step[k] = h
        fd_q[:, k] = (mimic.rnea(robot, mimic.integrate(robot, q, step), v, a)
                      - mimic.rnea(robot, mimic.integrate(robot, q, -step), v, a)) / (2 * h)
        fd_v[:, k] = (mimic.rnea(robot, q, v + step, a) - mimic.rnea(robot, q, v - step, a)) / (2 * h)
    np.testing.assert_allclose(dtau_dq, fd_q, rtol=0, atol=1e-5 * np.abs(fd_q).max())
    np.testing.assert_allclose(dtau_dv, fd_v, rtol=0, atol=1e-5 * np.abs(fd_v).max())


def test_results_are_fresh_arrays_without_copy(robot):
    q, v, a = random_state(robot, 7)
    tau1 = mimic.rnea(robot, q, v, a)
    tau2 = mimic.rnea(robot, q, v, a)
    # Each result wraps the buffer of the Eigen vector computed for it (owned through its base capsule,
    # not copied into numpy's own allocation) and a later call does not change it.
    assert tau1.base is not None and not tau1.flags.owndata
    assert not np.shares_memory(tau1, tau2)
    derivatives = mimic.rnea_derivatives(robot, q, v, a)
    for matrix in derivatives:
        assert matrix.base is not None and not matrix.flags.owndata
    tau1_copy = tau1.copy()
    mimic.rnea(robot, q, 2 * v, a)
    np.testing.assert_array_equal(tau1, tau1_copy)


def test_inputs_of_any_layout(robot):
    q, v, a = random_state(robot, 8)
    reference = mimic.rnea(robot, q, v, a)
    # A strided view and a list are converted once; a contiguous float64 array is read in place.
    padded = np.zeros((robot.nv, 2))
    padded[:, 0] = v
    np.testing.assert_array_equal(mimic.rnea(robot, q, padded[:, 0], a), reference)
    np.testing.assert_array_equal(mimic.rnea(robot, list(q), v, a), reference)


def test_bad_shapes_and_frames_raise(robot):
    q, v, a = random_state(robot, 9)
    with pytest.raises(mimic.InputError, match=r"^q: expected 37 values, found 36$"):
        mimic.rnea(robot, q[:-1], v, a)
    with pytest.raises(mimic.InputError, match=r"^a: expected 36 values, found 3$"):
        mimic.rnea(robot, q, v, a[:3])
    unnormalised = q.copy()
    unnormalised[3:7] *= 2
    with pytest.raises(mimic.InputError, match="base quaternion"):
        mimic.center_of_mass(robot, unnormalised)
    with pytest.raises(mimic.ModelError, match="no_such_frame"):
        mimic.frame_placement(robot, q, "no_such_frame")
