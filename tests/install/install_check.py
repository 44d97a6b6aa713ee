#!/usr/bin/env python3
"""The install tests of issue 18, one step per ctest test (tests/install/CMakeLists.txt, label `install`).

  install     --build B --prefix P       `cmake --install B --prefix P` into a fresh P (the ctest fixture)
  consumer    --prefix P --work W ...    configure, build and run tests/install/consumer against P
  acceptance  --prefix P                 the README's commands with P/bin/mimic in a fresh folder outside
                                         the source tree, MIMIC_DATA_DIR and MIMIC_CONFIG_DIR unset
  version     --prefix P                 `P/bin/mimic --version` names P/share/mimic (install prefix)

Standard library only. Each step prints what it runs and exits non-zero with the reason on failure.
"""
import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]

# The acceptance of issue 18, run in that order in one fresh folder; {mimic} is P/bin/mimic, {data} is
# P/share/mimic, {python} the Python that has numpy (Debian's). The full retarget takes 2 to 3 s of CPU
# on boxing.bvh, small enough to run as it is (no --kinematic-only, whose output `check` refuses).
# Then the viewer's page of that motion, and the installed Python module (not the build tree's: its file must
# be under the prefix) loading the robot from the prefix's data and checking the motion.
ACCEPTANCE = [
    ["{mimic}", "-q", "retarget", "{data}/data/mocap/boxing.bvh", "-o", "x.pos"],
    ["{mimic}", "check", "x.pos"],
    ["{mimic}", "-q", "view", "x.pos", "-o", "x.html"],
    ["{python}", "-c",
     "import sys, mimic; prefix = sys.argv[1]; "
     "assert mimic.__file__.startswith(prefix), mimic.__file__ + ' is not under ' + prefix; "
     "robot = mimic.load_robot(); print(robot); "
     "result = mimic.check('x.pos'); assert result.report['ok'], result.summary; print('python check ok')",
     "{prefix}"],
]


def fail(message):
    print(f"install_check: {message}", file=sys.stderr)
    sys.exit(1)


def run(cmd, **kwargs):
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    start = time.monotonic()
    result = subprocess.run([str(c) for c in cmd], text=True, capture_output=True, **kwargs)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    print(f"  exit {result.returncode} after {time.monotonic() - start:.2f} s", flush=True)
    if result.returncode != 0:
        fail(f"{cmd[0]} exited with {result.returncode}")
    return result


def clean_environment(prefix):
    """The environment of a user who only has the prefix: no data-directory override, the prefix's
    Python module first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("MIMIC_DATA_DIR", "MIMIC_CONFIG_DIR")}
    python_dir = prefix / "lib" / "python3" / "dist-packages"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(python_dir), env.get("PYTHONPATH")]))
    return env


@contextlib.contextmanager
def fresh_folder(name):
    """A new empty folder outside the source tree (the user's working folder), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix=f"mimic-{name}-") as folder:
        if SOURCE_DIR in Path(folder).resolve().parents:
            fail(f"{folder} is inside the source tree {SOURCE_DIR}; set TMPDIR elsewhere")
        yield Path(folder)


def step_install(args):
    prefix = Path(args.prefix)
    shutil.rmtree(prefix, ignore_errors=True)
    run(["cmake", "--install", args.build, "--prefix", prefix])
    for rel in ["bin/mimic", "share/mimic/config/robots/hrp2.yaml", "share/mimic/models/hrp2.urdf",
                "share/mimic/data/mocap/boxing.bvh", "share/mimic/data/motions/walk_bar_planned.pos",
                "include/mimic/core/data_dir.hpp", "lib/cmake/mimic/mimicConfig.cmake",
                "lib/cmake/mimic/mimicConfigVersion.cmake"]:
        if not (prefix / rel).is_file():
            fail(f"{prefix / rel} was not installed")


def parse_info(text):
    """Mass and centre of mass from `mimic info URDF`, the numbers the consumer must reproduce."""
    mass = re.search(r"total mass: ([-0-9.]+) kg", text)
    com = re.search(r"centre of mass in [^:]*: \(([-0-9.]+), ([-0-9.]+), ([-0-9.]+)\) m", text)
    if not mass or not com:
        fail("no total mass / centre of mass in the output of mimic info")
    return float(mass.group(1)), [float(x) for x in com.groups()]


def step_consumer(args):
    prefix = Path(args.prefix).resolve()
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    configure = ["cmake", "-S", SOURCE_DIR / "tests" / "install" / "consumer", "-B", work,
                 f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"]
    if args.generator:
        configure += ["-G", args.generator]
    if args.cxx:
        configure.append(f"-DCMAKE_CXX_COMPILER={args.cxx}")
    if args.launcher:
        configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={args.launcher}")
    if args.flags:
        configure += [f"-DCMAKE_CXX_FLAGS={args.flags}", f"-DCMAKE_EXE_LINKER_FLAGS={args.flags}"]
    run(configure)
    run(["cmake", "--build", work])
    env = clean_environment(prefix)
    out = run([work / "consumer"], env=env).stdout
    if f"data directory: {prefix / 'share' / 'mimic'}" not in out:
        fail(f"the consumer did not read {prefix / 'share' / 'mimic'} (the package's mimic_DATA_DIR)")
    mass, com = parse_info(out)
    with fresh_folder("info") as folder:
        info = run([prefix / "bin" / "mimic", "info", prefix / "share" / "mimic" / "models" / "hrp2.urdf"],
                   env=env, cwd=folder).stdout
    info_mass, info_com = parse_info(info)
    # mimic info prints 4 and 5 decimals: the two programs must agree to that rounding.
    if abs(mass - info_mass) > 1e-4 or max(abs(a - b) for a, b in zip(com, info_com)) > 1e-5:
        fail(f"consumer mass {mass}, com {com} differ from mimic info {info_mass}, {info_com}")


def step_acceptance(args):
    prefix = Path(args.prefix).resolve()
    env = clean_environment(prefix)
    values = {"mimic": str(prefix / "bin" / "mimic"), "data": str(prefix / "share" / "mimic"),
              "python": args.python, "prefix": str(prefix)}
    with fresh_folder("acceptance") as folder:
        for cmd in ACCEPTANCE:
            run([part.format(**values) for part in cmd], cwd=folder, env=env)
        # The page is self-contained: three.js inlined (tests/view renders it in Chromium).
        html = folder / "x.html"
        if not html.is_file() or "THREE" not in html.read_text(errors="replace"):
            fail(f"{html}: mimic view wrote no page with three.js inlined")


def step_version(args):
    prefix = Path(args.prefix).resolve()
    with fresh_folder("version") as folder:
        out = run([prefix / "bin" / "mimic", "--version"], cwd=folder, env=clean_environment(prefix)).stdout
    expected = f"data directory: {prefix / 'share' / 'mimic'} (install prefix)"
    if not re.match(r"mimic \d+\.\d+\.\d+\n", out) or expected not in out:
        fail(f"`mimic --version` printed {out!r}, expected the version and {expected!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("install")
    p.add_argument("--build", required=True)
    p.add_argument("--prefix", required=True)
    p = sub.add_parser("consumer")
    p.add_argument("--prefix", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--generator")
    p.add_argument("--cxx")
    p.add_argument("--launcher")
    p.add_argument("--flags", help="compile and link flags of the installed libraries (sanitizers)")
    p = sub.add_parser("acceptance")
    p.add_argument("--prefix", required=True)
    p.add_argument("--python", default="/usr/bin/python3")
    p = sub.add_parser("version")
    p.add_argument("--prefix", required=True)
    args = parser.parse_args()
    {"install": step_install, "consumer": step_consumer, "acceptance": step_acceptance,
     "version": step_version}[args.step](args)


if __name__ == "__main__":
    main()
