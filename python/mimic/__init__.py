"""mimic from Python: HRP-2 motion retargeting, torque-minimal smoothing and checking (issue 18).

The C++ library does the work (the extension mimic._mimic); this package adds the job functions'
signatures and mimic.Result. Shapes and units are in each function's docstring; the conventions are those of
docs/CONTRACTS.md (q = [base position (3); base quaternion x y z w (4); joints], v = [base linear, base
angular in the base frame (6); joints], SI units, radians).

Errors raise mimic.Error subclasses carrying mimic's one-line message: InputError, UsageError and
BudgetError (also ValueError), ModelError, InfeasibleError, OutputError (also OSError).
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ._mimic import (  # noqa: F401  (re-exported)
    BudgetError,
    Clip,
    Error,
    InfeasibleError,
    InputError,
    ModelError,
    OutputError,
    Robot,
    UsageError,
    center_of_mass,
    difference,
    frame_placement,
    frame_placements,
    integrate,
    load_clip,
    load_robot,
    rnea,
    rnea_derivatives,
    set_log_level,
)
from . import _mimic
import json as _json


@dataclass
class Result:
    """What mimic.retarget, mimic.smooth and mimic.check return.

    motion: the motion as written (None for check): a dict of numpy arrays, N samples at the output rate:
        time (N,) s; q (N, nj) joint angles, rad, columns in the order of joint_names (the robot's joint
        order, the .pos columns); waist_position (N, 3) m and waist_rpy (N, 3) rad (roll, pitch, yaw) of
        the waist in the world; zmp (N, 3) m in the waist frame (the .zmp file).
    report: the command's JSON report as a dict (the same fields as `--report`, pipeline/reports.hpp);
        when nothing was written its output paths are None.
    summary: the text the command prints.
    files: the files written (empty when no output path was given).
    """

    motion: Optional[Dict[str, Any]]
    report: Dict[str, Any]
    summary: str
    files: List[str] = field(default_factory=list)


def _result(raw, written_motion):
    motion, report_json, summary, files = raw
    report = _json.loads(report_json)
    if written_motion and not files:
        # Nothing written: the report's output path (a placeholder the job's checks need) is null.
        if "output" in report:
            report["output"] = None
        if "job" in report:
            report["job"]["output"]["path"] = None
    return Result(motion, report, summary, [str(f) for f in files])


def retarget(job=None, input=None, output=None, report=None):
    """Runs `mimic retarget` with the settings of a job: clip -> HRP-2 motion.

    job: a dict with the keys of a job YAML (docs/job-yaml.md; `job: retarget` may be left out), a job
        YAML path, or None (the defaults). A dict is read by the same strict reader as `mimic batch`: an
        unknown key or a value out of range raises mimic.InputError naming the key path ("<dict>:line N:
        retarget.scale: ...", N the line of the key in the YAML the dict is written as).
    input: the .bvh / .c3d clip (overrides the job's `input`).
    output: X.pos to write, with X.waist and X.zmp beside it (overrides `output.path`). Without an output
        path in the call or the job nothing is written: the motion is only returned.
    report: JSON report to write as well (overrides `output.report`); written only with the motion.
    Returns mimic.Result. Raises mimic.InfeasibleError when the motion would break a limit (nothing written).
    """
    return _result(_mimic._retarget(job, input, output, report), True)


def smooth(job=None, input=None, output=None, report=None):
    """Runs `mimic smooth` with the settings of a job: planned X.pos (+ .waist) -> torque-minimal motion.

    job, output, report: as in mimic.retarget (`job: smooth` may be left out of a dict); input: the
    planned .pos. Without an output path nothing is written (no default X.smoothed.pos as the command has).
    Returns mimic.Result. Raises mimic.InfeasibleError when a limit cannot be met (nothing written).
    """
    return _result(_mimic._smooth(job, input, output, report), True)


def check(motion, job=None, report=None, slip=1.0e-3, slip_deg=0.1):
    """Runs `mimic check` on a written motion (X.pos, with X.waist / X.hip beside it when present).

    job: None, a dict or a job YAML path, as `mimic check --config`: the robot, payload, limit factors,
        contacts, stability.zmp_margin and geometry.safety_distance come from it (no job: ZMP margin 0).
    report: JSON file to write the report to. slip (m), slip_deg (degrees): largest support-foot drift
        and rotation accepted.
    Returns mimic.Result with motion None; result.report["ok"] is the verdict (exit code 0 or 4 of the
    command). A violation is reported, not raised.
    """
    return _result(_mimic._check(motion, job, report, slip, slip_deg), False)


__all__ = [
    "BudgetError", "Clip", "Error", "InfeasibleError", "InputError", "ModelError", "OutputError", "Result",
    "Robot", "UsageError", "center_of_mass", "check", "difference", "frame_placement", "frame_placements",
    "integrate", "load_clip", "load_robot", "retarget", "rnea", "rnea_derivatives", "set_log_level", "smooth",
]
