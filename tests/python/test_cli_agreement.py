# A script and the command line run the same code: mimic.retarget and mimic.smooth write the same files,
# byte for byte, as `mimic retarget` and `mimic smooth` given the same settings (short inputs: seconds).
# MIMIC_EXECUTABLE (set by ctest) is the mimic built beside the package.
import os
import pathlib
import subprocess

import pytest

import mimic
from conftest import SOURCE_DIR

EXECUTABLE = os.environ.get("MIMIC_EXECUTABLE", "")
pytestmark = pytest.mark.skipif(not pathlib.Path(EXECUTABLE).is_file(),
                                reason="MIMIC_EXECUTABLE does not name the built mimic")


def run_cli(*arguments):
    subprocess.run([EXECUTABLE, "-q", *map(str, arguments)], check=True, capture_output=True)


def assert_same_files(python_base, cli_base, extensions):
    for extension in extensions:
        python_file = python_base.with_suffix(extension)
        cli_file = cli_base.with_suffix(extension)
        assert python_file.read_bytes() == cli_file.read_bytes(), extension


def test_retarget_writes_what_the_command_writes(tmp_path, short_bvh):
    result = mimic.retarget(input=short_bvh, output=tmp_path / "py.pos")
    run_cli("retarget", short_bvh, "-o", tmp_path / "cli.pos")
    assert_same_files(tmp_path / "py.pos", tmp_path / "cli.pos", [".pos", ".waist", ".zmp"])
    cli_angles = [line.split()[1:] for line in (tmp_path / "cli.pos").read_text().splitlines()]
    assert result.motion["q"].shape == (len(cli_angles), len(cli_angles[0]))


def test_smooth_writes_what_the_command_writes(tmp_path):
    # The first second of the planned walk (standing in double support): a 4 s solve.
    plan = SOURCE_DIR / "data" / "motions" / "walk_bar_planned"
    for extension in (".pos", ".waist"):
        lines = (plan.parent / (plan.name + extension)).read_text().splitlines()[:201]
        (tmp_path / ("plan" + extension)).write_text("\n".join(lines) + "\n")
    result = mimic.smooth(input=tmp_path / "plan.pos", output=tmp_path / "py.pos")
    run_cli("smooth", tmp_path / "plan.pos", "-o", tmp_path / "cli.pos")
    assert_same_files(tmp_path / "py.pos", tmp_path / "cli.pos", [".pos", ".waist", ".zmp"])
    summary = result.report["summary"]
    assert summary["torque_integral_after"] < summary["torque_integral_before"]
    assert mimic.check(tmp_path / "py.pos").report["ok"] is True
