#!/usr/bin/env python3
"""Checks mimic's #include "mimic/<module>/..." lines against the module graph declared in CMake.

The graph is read from the mimic_module(<name> DEPS ...) calls of the given CMake files (the mimic_*
entries of DEPS are the module's declared dependencies; other entries are third-party targets) and from
set(MIMIC_APP_MODULES ...), the modules apps/ may include. A file of module M may include M itself and
every module reachable from M through DEPS (CMake links them PUBLIC, so their headers are available);
apps/ may include only the modules of MIMIC_APP_MODULES (not their closure: the CLI calls pipeline/ and
names types, it holds no algorithm). tests/<M>/ follows M's rule (tests/cli and tests/support are exempt:
they link the whole toolkit; tests/install is a consumer project built against the installed mimic::mimic;
tests/data and tests/mutation hold fixtures and the mutation suite's list of expected failures, no code;
tests/python is the pytest suite of the Python package).

  check_module_graph.py --root . [--graph CMakeLists.txt cmake/MimicModules.cmake] [--no-tests]
                        [--joint-literals models/hrp2.urdf ...]
  check_module_graph.py --self-test

--joint-literals also fails on every string literal in src/ and apps/ that contains the name of a moving
joint of the given URDFs (or such a name without its trailing digits, e.g. "RARM_JOINT"): the robot is
data, its joint names come from the robot description.

Exit status: 0 clean, 1 violations found, 2 bad usage or an unreadable / inconsistent graph.
Standard library only (python3 is installed by scripts/setup.sh).
"""
import argparse
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

MODULE_CALL = re.compile(r"^\s*mimic_module\(\s*(\w+)(.*?)\)", re.S | re.M)
APP_SET = re.compile(r"^\s*set\(\s*MIMIC_APP_MODULES\b(.*?)\)", re.S | re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]mimic/([A-Za-z0-9_]+)/([^">]+)[">]')
SOURCE_SUFFIXES = {".hpp", ".hxx", ".h", ".cpp", ".cc"}
# data, mutation: fixtures and lists, no code; install: a consumer project of the installed package;
# python: pytest of the Python package (python/, no C++).
EXEMPT_TEST_DIRS = {"cli", "support", "data", "mutation", "install", "python"}


def strip_cmake_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def read_graph(files):
    deps, app = {}, None
    for f in files:
        text = strip_cmake_comments(f.read_text())
        if "function(mimic_module" in text:  # the definition, not a declaration
            text = re.sub(r"function\(mimic_module.*?endfunction\(\)", "", text, flags=re.S)
        for name, args in MODULE_CALL.findall(text):
            if name in deps:
                raise ValueError(f"{f}: module '{name}' declared twice")
            tokens = args.split()
            listed = tokens[tokens.index("DEPS") + 1:] if "DEPS" in tokens else []
            deps[name] = [t[len("mimic_"):] for t in listed if t.startswith("mimic_")]
        m = APP_SET.search(text)
        if m:
            app = [t[len("mimic_"):] if t.startswith("mimic_") else t for t in m.group(1).split()]
    for name, ds in deps.items():
        for d in ds:
            if d not in deps:
                raise ValueError(f"module '{name}' depends on undeclared module '{d}'")
    return deps, app


def closure(deps):
    """Module -> set of modules it may include; raises on a cycle."""
    result, state = {}, {}

    def visit(m, path):
        if state.get(m) == "done":
            return result[m]
        if state.get(m) == "active":
            raise ValueError("dependency cycle: " + " -> ".join(path + [m]))
        state[m] = "active"
        reach = {m}
        for d in deps[m]:
            reach |= visit(d, path + [m])
        state[m] = "done"
        result[m] = reach
        return reach

    for m in deps:
        visit(m, [])
    return result


def sources(directory):
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def check_includes(root, deps, app, with_tests):
    allowed = closure(deps)
    errors = []
    src = root / "src" / "mimic"
    scopes = []  # (owner label, allowed set, files)
    for d in sorted(p for p in src.iterdir() if p.is_dir()):
        if d.name not in deps:
            errors.append(f"{d.relative_to(root)}: module '{d.name}' is not declared with mimic_module()")
            continue
        scopes.append((d.name, allowed[d.name], sources(d)))
    # No MIMIC_APP_MODULES, or `mimic` (the whole toolkit) in it: apps may include every module.
    app_allowed = set(deps) if app is None or "mimic" in app else set(app)
    scopes.append(("apps", app_allowed, sources(root / "apps")))
    if with_tests:
        for d in sorted(p for p in (root / "tests").iterdir() if p.is_dir()):
            if d.name in EXEMPT_TEST_DIRS:
                continue
            if d.name not in deps:
                errors.append(f"{d.relative_to(root)}: tests of an undeclared module '{d.name}'")
                continue
            scopes.append((f"tests/{d.name}", allowed[d.name], sources(d)))
    for owner, ok, files in scopes:
        for f in files:
            for number, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"{f.relative_to(root)}:{number}"
                if target not in deps:
                    errors.append(f"{where}: includes mimic/{target}/{m.group(2)}: no module '{target}'")
                elif target not in ok:
                    errors.append(f"{where}: {owner} -> {target} (mimic/{target}/{m.group(2)}) is not in the "
                                  f"module graph; {owner} may include: {', '.join(sorted(ok))}")
    return errors


def code_string_literals(text):
    """(line, literal) of every string literal outside comments (raw strings not handled: none in mimic)."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j, start = i + 1, line
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            yield start, text[i + 1:j]
            i = j + 1
        else:
            i += 1


def check_joint_literals(root, urdfs):
    names = set()
    for u in urdfs:
        for joint in ET.parse(u).getroot().iter("joint"):
            if joint.get("type") != "fixed" and joint.get("name"):
                names.add(joint.get("name"))
    prefixes = {re.sub(r"\d+$", "", n) for n in names} - names - {""}
    errors = []
    for d in (root / "src", root / "apps"):
        for f in sources(d):
            for number, literal in code_string_literals(f.read_text(errors="replace")):
                found = [w for w in re.findall(r"[A-Za-z0-9_]+", literal) if w in names or w in prefixes]
                if found:
                    errors.append(f"{f.relative_to(root)}:{number}: robot joint name(s) {', '.join(found)} in a "
                                  "string literal (take them from the robot description)")
    return errors


def self_test():
    """Builds a small tree with one violation of each kind and checks that every one is reported."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        files = {
            "cmake/MimicModules.cmake": "mimic_module(low DEPS Eigen3::Eigen)\n"
                                        "mimic_module(high DEPS mimic_low)\n"
                                        "set(MIMIC_APP_MODULES mimic_high)\n",
            "src/mimic/low/a.hpp": '#include "mimic/high/b.hpp"\n',           # upward: forbidden
            "src/mimic/high/b.hpp": '#include "mimic/low/a.hpp"\n',           # downward: allowed
            "src/mimic/stray/c.hpp": "",                                       # undeclared module
            "apps/m/main.cpp": '#include "mimic/low/a.hpp"\n'                 # apps: not transitive
                               'const char* j = "ARM_JOINT3";  // "LEG_JOINT0" in a comment is fine\n',
            "tests/low/t.cpp": '#include "mimic/high/b.hpp"\n',               # tests follow their module
            "models/r.urdf": '<robot name="r"><joint name="ARM_JOINT3" type="revolute"/>'
                             '<joint name="LEG_JOINT0" type="revolute"/></robot>',
        }
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        deps, app = read_graph([root / "cmake/MimicModules.cmake"])
        errors = check_includes(root, deps, app, True) + check_joint_literals(root, [root / "models/r.urdf"])
        expected = ["src/mimic/low/a.hpp:1: low -> high", "src/mimic/stray: module 'stray'",
                    "apps/m/main.cpp:1: apps -> low", "tests/low/t.cpp:1: tests/low -> high",
                    "apps/m/main.cpp:2: robot joint name(s) ARM_JOINT3 "]
        missing = [e for e in expected if not any(x.startswith(e) for x in errors)]
        if missing or len(errors) != len(expected):
            print("self-test failed; expected:", *expected, "reported:", *errors, sep="\n  ")
            return 1
        (root / "cmake/MimicModules.cmake").write_text("mimic_module(a DEPS mimic_b)\nmimic_module(b DEPS mimic_a)\n")
        try:
            closure(read_graph([root / "cmake/MimicModules.cmake"])[0])
            print("self-test failed: a cycle was not reported")
            return 1
        except ValueError:
            pass
    print("check_module_graph: self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path("."))
    parser.add_argument("--graph", type=pathlib.Path, nargs="+",
                        help="CMake files declaring the modules (default: CMakeLists.txt cmake/MimicModules.cmake)")
    parser.add_argument("--no-tests", action="store_true", help="do not check tests/<module>/")
    parser.add_argument("--joint-literals", type=pathlib.Path, nargs="*", default=[], metavar="URDF")
    parser.add_argument("--self-test", action="store_true", help="check the checker on a built-in bad tree")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = args.root.resolve()
    graph = args.graph or [root / "CMakeLists.txt", root / "cmake" / "MimicModules.cmake"]
    try:
        deps, app = read_graph([g if g.is_absolute() else root / g for g in graph])
        if not deps:
            raise ValueError("no mimic_module() declaration found in " + ", ".join(map(str, graph)))
        errors = check_includes(root, deps, app, not args.no_tests)
    except (OSError, ValueError) as e:
        print(f"check_module_graph: {e}", file=sys.stderr)
        return 2
    errors += check_joint_literals(root, [u if u.is_absolute() else root / u for u in args.joint_literals])
    for e in errors:
        print(e)
    print(f"check_module_graph: {len(deps)} modules, {len(errors)} violation(s)", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
