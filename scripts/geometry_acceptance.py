#!/usr/bin/env python3
"""Issue 13's acceptance table: every shipped sample clip and every real clip of ../shared/mocap, retargeted
by a baseline mimic (before the geometry constraints) and by this tree's mimic, the output of the latter
certified by the new `mimic check` (self-collision and sole corners).

Per clip: exit codes of `mimic retarget` before / after (0 written; 3 bad input: a lower-body marker set, a
clip too short to optimise; 4 infeasible, nothing written), joint RMSE and head/hand error
(RMS and max) before / after from the --report JSON, the exit code of `mimic check` on the new output and
its minimum pair distance and minimum sole-corner height (from `mimic check --report`), the wall time of
the new retarget, the CPU time (user + system) of both, and the clip's duration (as captured, and after
re-timing): on a loaded machine the CPU time is the one to compare. A clip that retargets before
must retarget after and pass the check; anything else is listed as a FAILURE and the script exits 1.

Optionally (--smooth) also the smoothed bar walk, config/jobs/walk_bar_smooth.yaml, before and after: its
torque integral against the plan's and the check of the new output.

Python 3 standard library only. The clips are run one at a time (the wall times are meant to be read).
Usage: scripts/geometry_acceptance.py [--after build/bin/mimic] [--before OLD/bin/mimic]
                                      [--shared ../shared/mocap] [--only SUBSTRING] [--smooth] [--json F]
"""

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent


def clips(shared):
    found = sorted((REPO / "data" / "mocap").glob("*.bvh")) + sorted((REPO / "data" / "mocap").glob("*.c3d"))
    for sub in ("bvh", "c3d"):
        found += sorted((shared / sub).glob("*." + sub))
    return found


def run(cmd, cwd):
    """Runs cmd; returns the process, its wall time and its CPU time (user + system, s)."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def retarget(mimic, clip, out):
    """Runs `mimic retarget` on one clip into the folder out; returns (exit, wall s, CPU s, report or None,
    error line)."""
    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.json"
    proc, seconds, cpu = run([str(mimic), "-q", "retarget", str(clip), "-o", str(out / "motion.pos"),
                              "--report", str(report)], REPO)
    error = proc.stderr.strip().splitlines()[-1] if proc.returncode != 0 and proc.stderr.strip() else ""
    return proc.returncode, seconds, cpu, read_json(report) if proc.returncode == 0 else None, error


def check(mimic, pos, extra=()):
    report = pos.parent / "check.json"
    proc, _, _ = run([str(mimic), "check", str(pos), "--report", str(report), *extra], REPO)
    return proc.returncode, read_json(report) or {}, proc.stdout


def num(value, scale=1.0, digits=4):
    return "-" if value is None else f"{value * scale:.{digits}f}"


def clip_row(args, clip, work):
    row = {"clip": str(clip.relative_to(REPO) if clip.is_relative_to(REPO) else clip.relative_to(args.shared))}
    for side, mimic in (("before", args.before), ("after", args.after)):
        if mimic is None:
            continue
        code, seconds, cpu, report, error = retarget(mimic, clip, work / side)
        s = (report or {}).get("summary", {})
        row[side] = {"exit": code, "seconds": seconds, "cpu_seconds": cpu, "error": error,
                     "joint_rmse_rad": s.get("joint_rmse_rad"), "end_effector_rms_m": s.get("end_effector_rms_m"),
                     "end_effector_max_m": s.get("end_effector_max_m"),
                     "duration_before_s": s.get("duration_before_s"), "duration_after_s": s.get("duration_after_s"),
                     "stages_s": (report or {}).get("stages_s")}
        if side == "after" and code == 0:
            check_code, check_report, stdout = check(mimic, work / side / "motion.pos")
            cs = check_report.get("summary", {})
            row["check"] = {"exit": check_code, "min_pair_distance_m": cs.get("min_pair_distance_m"),
                            "closest_pair": cs.get("closest_pair"),
                            "min_sole_corner_height_m": cs.get("min_sole_corner_height_m"),
                            "first_lines": stdout.strip().splitlines()[:3] if check_code != 0 else []}
    return row


def failures_of(row):
    before, after, chk = row.get("before"), row.get("after", {}), row.get("check")
    found = []
    if after.get("exit") == 0 and chk and chk["exit"] != 0:
        found.append(f"check exits {chk['exit']}: {' | '.join(chk['first_lines'])}")
    if before is not None and before["exit"] == 0 and after.get("exit") != 0:
        found.append(f"retargeted before, not after (exit {after.get('exit')}): {after.get('error')}")
    if before is None and after.get("exit") not in (0, 3):
        found.append(f"exit {after.get('exit')}: {after.get('error')}")
    return found


def print_table(rows):
    print(f"{'clip':44} {'exit':>5} {'jRMSE rad':>15} {'head/hand RMS m':>15} {'max m':>15} "
          f"{'chk':>3} {'pair m':>7} {'sole m':>8} {'wall s':>6} {'cpu s':>11} {'dur s':>11}")
    for row in rows:
        b, a, c = row.get("before") or {}, row.get("after") or {}, row.get("check") or {}
        pair = lambda key: f"{num(b.get(key))}>{num(a.get(key))}"
        exits = f"{b.get('exit', '-')}>{a.get('exit', '-')}"
        duration = f"{num(a.get('duration_before_s') or b.get('duration_before_s'), digits=1)}/" \
                   f"{num(a.get('duration_after_s'), digits=1)}"
        print(f"{row['clip'][:44]:44} {exits:>5} {pair('joint_rmse_rad'):>15} {pair('end_effector_rms_m'):>15} "
              f"{pair('end_effector_max_m'):>15} {c.get('exit', '-'):>3} {num(c.get('min_pair_distance_m')):>7} "
              f"{num(c.get('min_sole_corner_height_m'), digits=5):>8} {num(a.get('seconds'), digits=1):>6} "
              f"{num(b.get('cpu_seconds'), digits=1) + '>' + num(a.get('cpu_seconds'), digits=1):>11} {duration:>11}")
        for failure in failures_of(row):
            print(f"  FAILURE: {failure}")


def smooth_row(args, work):
    """The bar walk smoothed by each mimic: torque integrals (plan, smoothed) and the check of the new output."""
    job = REPO / "config" / "jobs" / "walk_bar_smooth.yaml"
    row = {"clip": "smooth " + str(job.relative_to(REPO))}
    for side, mimic in (("before", args.before), ("after", args.after)):
        if mimic is None:
            continue
        out = work / ("smooth_" + side)
        out.mkdir(parents=True, exist_ok=True)
        proc, seconds, cpu = run([str(mimic), "-q", "smooth", "--config", str(job), "-o", str(out / "walk.pos"),
                                  "--report", str(out / "report.json")], REPO)
        report = read_json(out / "report.json") if proc.returncode == 0 else None
        row[side] = {"exit": proc.returncode, "seconds": seconds, "cpu_seconds": cpu,
                     "summary": (report or {}).get("summary")}
        if side == "after" and proc.returncode == 0:
            code, check_report, stdout = check(mimic, out / "walk.pos", ("--config", str(job)))
            cs = check_report.get("summary", {})
            row["check"] = {"exit": code, "min_pair_distance_m": cs.get("min_pair_distance_m"),
                            "min_sole_corner_height_m": cs.get("min_sole_corner_height_m"),
                            "first_lines": stdout.strip().splitlines()[:3] if code != 0 else []}
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=pathlib.Path, default=REPO / "build" / "bin" / "mimic")
    parser.add_argument("--before", type=pathlib.Path, help="baseline mimic (e.g. built at 6f41994)")
    parser.add_argument("--shared", type=pathlib.Path, default=REPO.parent / "shared" / "mocap")
    parser.add_argument("--only", help="run only the clips whose path contains this")
    parser.add_argument("--smooth", action="store_true", help="also the smoothed bar walk")
    parser.add_argument("--json", type=pathlib.Path, help="write every number to this file")
    args = parser.parse_args()
    args.after, args.shared = args.after.resolve(), args.shared.resolve()
    args.before = args.before.resolve() if args.before else None

    rows = []
    with tempfile.TemporaryDirectory(prefix="mimic-geometry-") as tmp:
        for i, clip in enumerate(c for c in clips(args.shared) if not args.only or args.only in str(c)):
            rows.append(clip_row(args, clip, pathlib.Path(tmp) / str(i)))
            print(f"[{rows[-1]['clip']}] done", file=sys.stderr)
        print_table(rows)
        if args.smooth:
            row = smooth_row(args, pathlib.Path(tmp))
            rows.append(row)
            for side in ("before", "after"):
                if side in row:
                    print(f"smooth {side}: exit {row[side]['exit']}, {row[side]['seconds']:.1f} s, "
                          f"summary {json.dumps(row[side]['summary'])}")
            if "check" in row:
                print(f"smooth check: {json.dumps(row['check'])}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    failures = sum(len(failures_of(r)) for r in rows)
    print(f"{len(rows)} rows, {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
