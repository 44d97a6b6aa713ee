# mimic.retarget / smooth / check with the settings of a job (a dict through the strict job reader, or
# a YAML path), the motion as numpy arrays and the report as a dict.
import time

import numpy as np
import pytest

import mimic
from conftest import SOURCE_DIR


def test_retarget_from_a_dict_then_check(tmp_path, short_bvh, robot):
    output = tmp_path / "short.pos"
    start = time.perf_counter()
    result = mimic.retarget({"input": str(short_bvh),
                             "output": {"path": str(output), "report": str(tmp_path / "r.json")},
                             "objective": {"kind": "imitation", "sigma": 1.0}})
    seconds = time.perf_counter() - start
    print(f"retarget of a 1.5 s clip: {seconds:.1f} s")
    motion = result.motion
    n = motion["time"].shape[0]
    assert n == pytest.approx(200 * result.report["summary"]["duration_after_s"], abs=2)  # 200 Hz output
    assert motion["q"].shape == (n, robot.nj) and motion["joint_names"] == robot.joint_names
    assert motion["waist_position"].shape == (n, 3) and motion["zmp"].shape == (n, 3)
    assert np.all(np.diff(motion["time"]) > 0)
    assert result.files == [str(output), str(tmp_path / "short.waist"), str(tmp_path / "short.zmp"),
                            str(tmp_path / "r.json")]
    for path in result.files:
        assert (tmp_path / path).exists()
    assert "summary" in result.report and result.summary
    # The written .pos holds the returned angles (6 decimals, the file's precision).
    written = np.loadtxt(output)
    np.testing.assert_allclose(written[:, 0], motion["time"], atol=1e-6)
    np.testing.assert_allclose(written[:, 1:], motion["q"], atol=1e-6)

    checked = mimic.check(output)
    assert checked.motion is None
    assert checked.report["ok"] is True, checked.summary
    assert checked.report["summary"]["samples"] == n


def test_dict_and_yaml_path_read_alike(tmp_path, short_bvh):
    job = {"job": "retarget", "input": str(short_bvh), "output": str(tmp_path / "a.pos"),
           "retarget": {"kinematic_only": True, "velocity_limit_scale": 0.8}}
    yaml_path = tmp_path / "job.yaml"
    yaml_path.write_text(f"job: retarget\ninput: {short_bvh}\noutput: {tmp_path / 'b.pos'}\n"
                         "retarget:\n  kinematic_only: true\n  velocity_limit_scale: 0.8\n")
    from_dict, from_yaml = mimic.retarget(job), mimic.retarget(yaml_path)
    for key in from_dict.motion:
        if key != "joint_names":
            np.testing.assert_array_equal(from_dict.motion[key], from_yaml.motion[key])
    assert (tmp_path / "a.pos").exists() and (tmp_path / "b.pos").exists()


def test_nothing_written_without_an_output(tmp_path, short_bvh, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = mimic.retarget({"retarget": {"kinematic_only": True}}, input=short_bvh)
    assert result.files == [] and list(tmp_path.iterdir()) == []
    # The report says so: no output path (the job echo's path is null too).
    assert result.report["output"] is None and result.report["job"]["output"]["path"] is None
    assert result.motion["q"].shape[1] == 30


@pytest.mark.parametrize("job, key", [
    ({"retarget": {"velocity_limit_scale": 2.0}}, "retarget.velocity_limit_scale"),
    ({"retarget": {"kinematik_only": True}}, "retarget.kinematik_only"),
    ({"solver": {"max_iterations": "many"}}, "solver.max_iterations"),
    ({"trajectory": {"knot_spacing": float("nan")}}, "trajectory.knot_spacing"),
    ({"limits": {"torque_factor": [1, 2]}}, "limits.torque_factor"),
    ({"mocap": {"units": object()}}, "mocap.units"),
])
def test_bad_job_keys_raise_input_error_naming_the_key(short_bvh, job, key):
    with pytest.raises(mimic.InputError) as info:
        mimic.retarget(job, input=short_bvh)
    message = str(info.value)
    assert key in message and "\n" not in message
    assert isinstance(info.value, ValueError)


def test_wrong_kind_and_missing_files(tmp_path, short_bvh):
    with pytest.raises(mimic.InputError, match="job: expected smooth for mimic.smooth, found retarget"):
        mimic.smooth({"job": "retarget", "input": str(short_bvh), "output": str(tmp_path / "x.pos")})
    with pytest.raises(mimic.InputError) as info:
        mimic.retarget(input=tmp_path / "missing.bvh")
    assert "missing.bvh" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(mimic.InputError) as info:
        mimic.check(tmp_path / "missing.pos")
    assert "missing.pos" in str(info.value)
    with pytest.raises(mimic.UsageError, match="boxing_short.bvh"):  # a report that would overwrite the input
        mimic.retarget({"retarget": {"kinematic_only": True}}, input=short_bvh, output=tmp_path / "x.pos",
                       report=short_bvh)
    assert not (tmp_path / "x.pos").exists()


def test_smooth_refuses_a_plan_with_a_gap(tmp_path):
    # The planned walk with 0.1 .. 0.5 s cut out: a knot interval without a sample leaves the spline
    # undetermined, a bad input found when the plan is read (io/sample_spacing.hpp), with the file named.
    plan = SOURCE_DIR / "data" / "motions" / "walk_bar_planned"
    rows = list(range(0, 20)) + list(range(100, 140))
    for extension in (".pos", ".waist"):
        lines = (plan.parent / (plan.name + extension)).read_text().splitlines()
        (tmp_path / ("cut" + extension)).write_text("\n".join(lines[i] for i in rows) + "\n")
    with pytest.raises(mimic.InputError, match="trajectory.knot_spacing") as info:
        mimic.smooth({"input": str(tmp_path / "cut.pos")})
    assert "cut.pos" in str(info.value) and "\n" not in str(info.value)
