#!/usr/bin/env python3
"""Input mutation suite (issue 17): seeded, deterministic mutants of the shipped and shared inputs run
through the cheap `mimic` commands, each judged by the promises of the README's "Exit codes":

  * no exit code 1 (an internal error) and no signal;
  * no run longer than --run-timeout seconds (10);
  * a failing run leaves no output behind (its output folder is empty);
  * a failing run's stderr has one error line, on one line, naming the file (or a companion file) or a
    job key, and every stderr line is a log line (no multi-line message, no raw control bytes).

Seeds: BVH and C3D clips (data/mocap, ../shared/mocap), the planned walk (data/motions: .pos, .waist,
.zmp, cut to its first second) and the job YAMLs (config/jobs, paths made absolute). Text seeds are cut
short (a BVH keeps its hierarchy and first frames) so that each run takes a fraction of a second.

Mutators are general (they must find the next bug, not replay known ones): bit flips, number
replacement (NaN, inf, huge, tiny, negative, zero, malformed), line and token deletion / duplication /
swaps, truncation, byte-order marks, control bytes, CRLF, huge lines, deep nesting, YAML key deletion; for
binary C3D files float32 / int16 replacement, byte runs, block deletion and duplication.

Each mutant i has its own random generator seeded by "<seed>:<i>", so a run is reproducible and one
mutant can be replayed (--only I --keep). Failures listed in --expected (one per line:
`<check> <TAB> <regex on the mutant's description and stderr> <TAB> <why>`) are reported as expected;
any other failure fails the suite (exit 1).
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

# --------------------------------------------------------------------------------------------- seeds


def cut_bvh(text, frames):
    """The hierarchy and the first `frames` frames, with the Frames: count adjusted."""
    lines = text.splitlines(keepends=True)
    out, in_motion, kept = [], False, 0
    for line in lines:
        stripped = line.strip()
        if not in_motion:
            if stripped.startswith("Frames:"):
                total = int(stripped.split(":")[1])
                out.append("Frames: %d\n" % min(total, frames))
                continue
            out.append(line)
            if stripped.startswith("Frame Time:"):
                in_motion = True
        elif stripped and kept < frames:
            out.append(line)
            kept += 1
    return "".join(out)


def cut_lines(text, count):
    return "".join(text.splitlines(keepends=True)[:count])


def absolute_job(text, folder):
    """A job YAML whose relative paths (input, output, robot files) point where they did from `folder`."""

    def repl(match):
        key, value = match.group(1), match.group(2)
        if value.startswith("../") or value.startswith("./"):
            value = os.path.normpath(os.path.join(folder, value))
        return "%s%s" % (key, value)

    return re.sub(r"^(\s*(?:input|path|report|model|config):\s*)(\S+)", repl, text, flags=re.M)


class Seed:
    def __init__(self, kind, name, data, companions=None):
        self.kind = kind  # bvh, c3d, pos, waist, zmp, job
        self.name = name  # file name of the mutant (its basename is what messages must name)
        self.data = data  # bytes
        self.companions = companions or {}  # name -> bytes written beside it, unmutated


def load_seeds(root, shared, require_shared):
    seeds = []
    read = lambda p: open(p, "rb").read()
    mocap = [os.path.join(root, "data/mocap", f) for f in ("boxing.bvh", "boxing.c3d")]
    shared_mocap = os.path.join(shared, "mocap")
    if os.path.isdir(shared_mocap):
        for sub in ("bvh", "c3d"):
            folder = os.path.join(shared_mocap, sub)
            mocap += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith("." + sub)]
    elif require_shared:
        sys.exit("shared data missing (MIMIC_REQUIRE_SHARED_DATA=1): " + shared_mocap)
    else:
        print("shared data not found, skipping: %s (the shipped clips only)" % shared_mocap, flush=True)
    for path in mocap:
        base = os.path.basename(path)
        if path.endswith(".bvh"):
            text = read(path).decode("utf-8", "replace")
            seeds.append(Seed("bvh", base, cut_bvh(text, 60).encode()))
        else:
            seeds.append(Seed("c3d", base, read(path)))

    motion = os.path.join(root, "data/motions/walk_bar_planned")
    parts = {ext: cut_lines(read(motion + "." + ext).decode(), 201).encode() for ext in ("pos", "waist", "zmp")}
    for ext in ("pos", "waist", "zmp"):
        companions = {"walk." + e: parts[e] for e in parts if e != ext}
        seeds.append(Seed(ext, "walk." + ext, parts[ext], companions))

    jobs = os.path.join(root, "config/jobs")
    for f in sorted(os.listdir(jobs)):
        if f.endswith(".yaml"):
            text = absolute_job(read(os.path.join(jobs, f)).decode(), jobs)
            seeds.append(Seed("job", f, text.encode()))
    return seeds, parts, mocap


# ------------------------------------------------------------------------------------------ mutators

NUMBERS = [b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"Infinity", b"1e308", b"-1e308", b"1e309", b"1e-308",
           b"4.9e-324", b"0", b"-0", b"-1", b"-1e9", b"1e9", b"1e-9", b"2147483648", b"-2147483649",
           b"18446744073709551616", b"99999999999999999999999", b"1e", b"0x1p3", b"1..2", b"+-1", b"", b"1,5"]
CONTROL = [b"\x00", b"\x01", b"\x07", b"\x08", b"\x1b", b"\x7f", b"\r", b"\t", b"\x0c", b"\xff", b"\xc3"]
NUMBER_RE = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def lines_of(data):
    return data.splitlines(keepends=True) or [b""]


def m_bit_flip(rng, data, kind):
    buf = bytearray(data)
    if not buf:
        return b"\x00", "bit flip of an empty file"
    spots = []
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
        spots.append(i)
    return bytes(buf), "bit flips at bytes %s" % spots


def m_number(rng, data, kind):
    matches = list(NUMBER_RE.finditer(data))
    if not matches:
        return m_bit_flip(rng, data, kind)
    count = rng.choice([1, 1, 1, 3, 50])
    chosen = sorted(rng.sample(matches, min(count, len(matches))), key=lambda m: m.start(), reverse=True)
    value = rng.choice(NUMBERS)
    buf = bytearray(data)
    for m in chosen:
        buf[m.start():m.end()] = value
    return bytes(buf), "%d number(s) from byte %d replaced by '%s'" % (len(chosen), chosen[-1].start(),
                                                                     value.decode())


def m_line_delete(rng, data, kind):
    lines = lines_of(data)
    i = rng.randrange(len(lines))
    n = rng.choice([1, 1, 2, 5])
    del lines[i:i + n]
    return b"".join(lines), "lines %d..%d deleted" % (i + 1, i + n)


def m_line_duplicate(rng, data, kind):
    lines = lines_of(data)
    i = rng.randrange(len(lines))
    times = rng.choice([1, 1, 3, 1000])
    lines[i:i + 1] = [lines[i]] * (times + 1)
    return b"".join(lines), "line %d repeated %d times" % (i + 1, times)


def m_line_swap(rng, data, kind):
    lines = lines_of(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines), "lines %d and %d swapped" % (i + 1, j + 1)


def m_token(rng, data, kind):
    tokens = list(re.finditer(rb"[^\s]+", data))
    if not tokens:
        return m_bit_flip(rng, data, kind)
    t = rng.choice(tokens)
    if rng.random() < 0.5:
        return data[:t.start()] + data[t.end():], "token at byte %d deleted" % t.start()
    return data[:t.end()] + b" " + t.group(0) + data[t.end():], "token at byte %d doubled" % t.start()


def m_truncate(rng, data, kind):
    n = rng.randrange(len(data) + 1) if data else 0
    if rng.random() < 0.2:
        n = rng.choice([0, 1, 2, 3, 10, 100, 512, 513])
    return data[:n], "truncated to %d bytes" % n


def m_bom(rng, data, kind):
    bom = rng.choice([b"\xef\xbb\xbf", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
    return bom + data, "byte-order mark %s prepended" % bom.hex()


def m_control(rng, data, kind):
    buf = bytearray(data)
    spots = []
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(buf) + 1)
        buf[i:i] = rng.choice(CONTROL) * rng.choice([1, 1, 4])
        spots.append(i)
    return bytes(buf), "control bytes inserted at %s" % spots


def m_crlf(rng, data, kind):
    if rng.random() < 0.5:
        return data.replace(b"\n", b"\r\n"), "CRLF line ends"
    return data.replace(b"\n", b"\r"), "CR line ends"


def m_huge_line(rng, data, kind):
    lines = lines_of(data)
    i = rng.randrange(len(lines) + 1)
    filler = rng.choice([b"1 ", b"x", b"-", b"{", b"9"]) * rng.choice([100000, 400000])
    lines.insert(i, filler + b"\n")
    return b"".join(lines), "a %d-byte line inserted before line %d" % (len(filler), i + 1)


def m_nesting(rng, data, kind):
    depth = rng.choice([1000, 20000, 100000])
    lines = lines_of(data)
    if kind == "bvh":
        i = next((k for k, l in enumerate(lines) if l.strip().startswith(b"JOINT")), 1)
        nested = b"".join(b"JOINT j%d\n{\nOFFSET 0 0 1\nCHANNELS 1 Zrotation\n" % k for k in range(depth))
        nested += b"End Site\n{\nOFFSET 0 0 1\n}\n" + b"}\n" * depth
        lines.insert(i, nested)
        return b"".join(lines), "%d nested JOINTs inserted before line %d" % (depth, i + 1)
    i = rng.randrange(len(lines) + 1)
    if rng.random() < 0.5:
        nested = b"deep: " + b"[" * depth + b"1" + b"]" * depth + b"\n"
    else:
        nested = b"deep: " + b"{a: " * depth + b"1" + b"}" * depth + b"\n"
    lines.insert(i, nested)
    return b"".join(lines), "nesting of depth %d inserted before line %d" % (depth, i + 1)


def m_key_delete(rng, data, kind):
    lines = lines_of(data)
    keyed = [k for k, l in enumerate(lines) if re.match(rb"^\s*[A-Za-z_]+:", l)]
    if not keyed:
        return m_line_delete(rng, data, kind)
    i = rng.choice(keyed)
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
    key = lines[i].strip().split(b":")[0].decode()
    del lines[i:j]
    return b"".join(lines), "key '%s' (line %d) and its block deleted" % (key, i + 1)


def m_yaml_value(rng, data, kind):
    lines = lines_of(data)
    keyed = [k for k, l in enumerate(lines) if re.match(rb"^\s*[A-Za-z_]+:\s*\S", l)]
    if not keyed:
        return m_number(rng, data, kind)
    i = rng.choice(keyed)
    value = rng.choice([b"~", b"''", b"[]", b"{}", b"[1, 2]", b"yes", b"-1", b"nan", b".inf", b"1e300", b"0",
                        b"\"\\x00\"", b"&a 1", b"*a", b"!!binary AAAA", b"<<: *b", b"|\n  text"])
    head = lines[i].split(b":")[0]
    lines[i] = head + b": " + value + b"\n"
    return b"".join(lines), "value of '%s' (line %d) set to '%s'" % (head.strip().decode(), i + 1,
                                                                     value.decode("utf-8", "replace"))


# Binary (C3D): a header of 512-byte blocks, parameters, then float32 or int16 frames.
def m_float(rng, data, kind):
    if len(data) < 8:
        return m_truncate(rng, data, kind)
    values = [float("nan"), float("inf"), -float("inf"), 3.0e38, -3.0e38, 1e-38, 0.0, -1.0, 1e9]
    buf = bytearray(data)
    count = rng.choice([1, 1, 10, 1000])
    value = rng.choice(values)
    start = rng.choice([rng.randrange(0, min(len(buf), 4096)), rng.randrange(len(buf))]) & ~3
    stride = rng.choice([4, 16, 64])
    for k in range(count):
        at = start + k * stride
        if at + 4 > len(buf):
            break
        buf[at:at + 4] = struct.pack("<f", value)
    return bytes(buf), "%d float32 from byte %d (stride %d) set to %r" % (count, start, stride, value)


def m_int16(rng, data, kind):
    if len(data) < 4:
        return m_truncate(rng, data, kind)
    buf = bytearray(data)
    value = rng.choice([0, 1, -1, 32767, -32768, 255, 256])
    at = rng.choice([rng.randrange(0, min(len(buf) - 2, 1024)), rng.randrange(len(buf) - 2)]) & ~1
    buf[at:at + 2] = struct.pack("<h", value)
    return bytes(buf), "int16 at byte %d set to %d" % (at, value)


def m_bytes(rng, data, kind):
    buf = bytearray(data)
    at = rng.randrange(max(1, min(len(buf), 8192)))
    n = rng.choice([1, 4, 32, 512])
    fill = rng.choice([b"\x00", b"\xff", b"\x80", b"\x7f"])
    buf[at:at + n] = fill * n
    return bytes(buf), "%d bytes from %d set to %s" % (n, at, fill.hex())


def m_block(rng, data, kind):
    block = 512
    blocks = max(1, len(data) // block)
    i = rng.randrange(blocks)
    if rng.random() < 0.5:
        return data[:i * block] + data[(i + 1) * block:], "512-byte block %d deleted" % i
    return data[:(i + 1) * block] + data[i * block:], "512-byte block %d doubled" % i


TEXT_MUTATORS = [(m_bit_flip, 3), (m_number, 8), (m_line_delete, 3), (m_line_duplicate, 2), (m_line_swap, 1),
                 (m_token, 2), (m_truncate, 2), (m_bom, 1), (m_control, 2), (m_crlf, 1), (m_huge_line, 1),
                 (m_nesting, 1)]
YAML_MUTATORS = TEXT_MUTATORS + [(m_key_delete, 4), (m_yaml_value, 6)]
BINARY_MUTATORS = [(m_bit_flip, 4), (m_float, 5), (m_int16, 4), (m_bytes, 2), (m_block, 2), (m_truncate, 2),
                   (m_bom, 1), (m_control, 1)]


def mutate(rng, seed):
    table = BINARY_MUTATORS if seed.kind == "c3d" else YAML_MUTATORS if seed.kind == "job" else TEXT_MUTATORS
    functions, weights = zip(*table)
    mutator = rng.choices(functions, weights)[0]
    data, what = mutator(rng, seed.data, seed.kind)
    return data, mutator.__name__[2:] + ": " + what


# -------------------------------------------------------------------------------------------- runs

Mutant = collections.namedtuple("Mutant", "index seed command description")

# Per seed kind: the commands a mutant goes through and their weights (the slower ones rarer).
COMMANDS = {
    "bvh": [("info", 6), ("retarget", 1)],
    "c3d": [("info", 8), ("retarget", 1)],
    "pos": [("check", 6), ("smooth", 1)],
    "waist": [("check", 1)],
    "zmp": [("check", 1)],
    "job": [("check", 2), ("job", 1)],
}


def plan(seeds, count, seed_value):
    """`count` mutants spread over the seeds: per kind a share, then round robin over that kind's seeds."""
    share = {"bvh": 0.32, "c3d": 0.28, "pos": 0.18, "waist": 0.06, "zmp": 0.04, "job": 0.12}
    by_kind = collections.defaultdict(list)
    for s in seeds:
        by_kind[s.kind].append(s)
    mutants = []
    for kind in sorted(share):
        n = int(round(count * share[kind]))
        rng = random.Random("%s:plan:%s" % (seed_value, kind))
        names, weights = zip(*COMMANDS[kind])
        for k in range(n):
            s = by_kind[kind][k % len(by_kind[kind])]
            mutants.append((s, rng.choices(names, weights)[0]))
    return [Mutant(i, s, c, None) for i, (s, c) in enumerate(mutants)]


def command_line(mimic, mutant, folder, parts):
    """The argv of one run, the inputs it reads (their basenames may be named by an error) and the folder
    its outputs go to."""
    inp, out = os.path.join(folder, "in"), os.path.join(folder, "out")
    path = os.path.join(inp, mutant.seed.name)
    kind, command = mutant.seed.kind, mutant.command
    names = [mutant.seed.name] + list(mutant.seed.companions)
    if kind in ("bvh", "c3d"):
        if command == "info":
            return [mimic, "info", path], names, out
        return [mimic, "retarget", path, "--kinematic-only", "-o", os.path.join(out, "r.pos")], names, out
    if kind in ("pos", "waist", "zmp"):
        motion = os.path.join(inp, "walk.pos")
        if command == "check":
            return [mimic, "check", motion], names, out
        return [mimic, "smooth", motion, "-o", os.path.join(out, "s.pos"), "--report",
                os.path.join(out, "s.json")], names, out
    # A job: `check` of the cut walk with the job's robot, payload, limits and contacts, or the job's own
    # command on a cut input (a retarget job stops after the kinematic retarget; a smooth job smooths the
    # cut walk).
    names += ["walk.pos", "walk.waist", "walk.zmp", "clip.bvh", "clip.c3d"]
    motion = os.path.join(inp, "walk.pos")
    if command == "check":
        return [mimic, "check", motion, "--config", path], names, out
    if b"job: retarget" in mutant.seed.data:
        clip = os.path.join(inp, "clip.c3d" if b".c3d" in mutant.seed.data else "clip.bvh")
        return [mimic, "retarget", clip, "--config", path, "--kinematic-only", "-o",
                os.path.join(out, "r.pos"), "--report", os.path.join(out, "r.json")], names, out
    return [mimic, "smooth", motion, "--config", path, "-o", os.path.join(out, "s.pos"), "--report",
            os.path.join(out, "s.json")], names, out


def job_keys(seeds):
    """Every key of the seed jobs, dotted and bare: an error naming one names a key."""
    keys = set()
    for s in seeds:
        if s.kind != "job":
            continue
        stack = []
        for line in s.data.decode().splitlines():
            m = re.match(r"^(\s*)(?:-\s*)?([A-Za-z_]+):", line)
            if not m:
                continue
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            stack.append((indent, m.group(2)))
            keys.add(".".join(k for _, k in stack))
            keys.add(m.group(2))
    return {k for k in keys if len(k) > 3}


LOG_LINE = re.compile(r"^\[(trace|debug|info|warning|error|critical)\] ")


def judge(result, mutant, names, keys, out_folder, seconds, run_timeout):
    """The failed checks of one run: a list of (check, detail)."""
    failures = []
    if result is None:
        return [("timeout", "still running after %.0f s" % run_timeout)]
    code = result.returncode
    if code < 0:
        failures.append(("signal", "killed by signal %d" % -code))
    elif code == 1:
        failures.append(("exit1", "internal error"))
    elif code not in (0, 2, 3, 4, 5):
        failures.append(("exit-code", "exit code %d" % code))
    if seconds > run_timeout:
        failures.append(("timeout", "took %.1f s" % seconds))
    # `check` answers 4 for a motion that breaks a limit: that is its verdict, not a failure to run.
    failed = code != 0 and not (mutant.command == "check" and code == 4)
    if failed and os.path.isdir(out_folder) and os.listdir(out_folder):
        failures.append(("output-left", "left %s" % sorted(os.listdir(out_folder))))
    err = result.stderr.decode("utf-8", "replace")
    lines = [l for l in err.split("\n") if l]  # str.splitlines() would also split at \x1c, \x85, U+2028
    if any(not LOG_LINE.match(l) for l in lines):
        failures.append(("multi-line", "stderr line not a log line: %r" % next(
            l for l in lines if not LOG_LINE.match(l))[:200]))
    if any(re.search(r"[\x00-\x08\x0b-\x1f\x7f]", l) for l in lines):
        failures.append(("control-bytes", "raw control bytes on stderr"))
    errors = [l for l in lines if l.startswith("[error]") or l.startswith("[critical]")]
    if failed and code in (3, 4, 5):
        if len(errors) != 1:
            failures.append(("error-lines", "%d error lines" % len(errors)))
        elif not any(n in errors[0] for n in names) and not any(re.search(r"\b%s\b" % re.escape(k), errors[0])
                                                                for k in keys):
            failures.append(("unnamed", "error names no file or key"))
    if len(result.stdout) > (4 << 20):
        failures.append(("stdout-size", "%d bytes on stdout" % len(result.stdout)))
    return failures


def run_one(args, mutant, parts, mocap, keys, work):
    rng = random.Random("%s:%d" % (args.seed, mutant.index))
    data, description = mutate(rng, mutant.seed)
    folder = os.path.join(work, "m%05d" % mutant.index)
    os.makedirs(os.path.join(folder, "in"))
    os.makedirs(os.path.join(folder, "out"))
    write = lambda name, content: open(os.path.join(folder, "in", name), "wb").write(content)
    for name, content in mutant.seed.companions.items():
        write(name, content)
    if mutant.seed.kind == "job":
        for ext in ("pos", "waist", "zmp"):
            write("walk." + ext, parts[ext])
        write("clip.bvh", mocap["bvh"])
        write("clip.c3d", mocap["c3d"])
        # The job reads the cut clip and writes into the run's output folder.
        data = re.sub(rb"^(input:\s*)\S+", lambda m: m.group(1) + os.path.join(
            folder, "in", "clip.c3d" if b".c3d" in m.group(0) else "clip.bvh").encode(), data, flags=re.M)
        data = re.sub(rb"^(\s*(?:path|report):\s*)\S+", lambda m: m.group(1) + os.path.join(
            folder, "out", "job" + (b".json" if b"report" in m.group(0) else b".pos").decode()).encode(),
            data, flags=re.M)
    write(mutant.seed.name, data)
    argv, names, out = command_line(args.mimic, mutant, folder, parts)
    start = time.monotonic()
    try:
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=args.run_timeout,
                                cwd=folder)
    except subprocess.TimeoutExpired:
        result = None
    seconds = time.monotonic() - start
    failures = judge(result, mutant, names, keys, out, seconds, args.run_timeout)
    code = "timeout" if result is None else (result.returncode if result.returncode >= 0 else "signal")
    err = "" if result is None else result.stderr.decode("utf-8", "replace")
    error_line = next((l for l in err.split("\n") if l.startswith("[error]")), "")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    label = "#%d %s %s (%s) %s" % (mutant.index, mutant.command, mutant.seed.name, mutant.seed.kind, description)
    return mutant, code, seconds, failures, label, error_line, " ".join(argv)


def load_expected(path):
    entries = []
    if not path or not os.path.exists(path):
        return entries
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 3:
            sys.exit("%s:%d: expected '<check> TAB <regex> TAB <why>'" % (path, number))
        entries.append((parts[0].strip(), re.compile(parts[1].strip()), parts[2].strip(), number))
    return entries


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mimic", required=True, help="the mimic executable")
    parser.add_argument("--root", default=os.path.dirname(here), help="source tree (data/, config/)")
    parser.add_argument("--shared", default=None, help="third-party data (default: ROOT/../shared)")
    parser.add_argument("--count", type=int, default=3000, help="mutants (default 3000)")
    parser.add_argument("--seed", default="17", help="random seed (default 17)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel runs")
    parser.add_argument("--run-timeout", type=float, default=10.0, help="seconds a run may take (10)")
    parser.add_argument("--expected", default=os.path.join(os.path.dirname(here), "tests/mutation/expected_failures.txt"))
    parser.add_argument("--only", default="", help="comma-separated mutant numbers to run")
    parser.add_argument("--keep", action="store_true", help="keep each mutant's folder (with --only)")
    parser.add_argument("--work", default=None, help="folder for the mutants (default: a temporary one)")
    args = parser.parse_args()
    args.mimic = os.path.abspath(args.mimic)
    shared = args.shared or os.path.join(args.root, "..", "shared")
    require = os.environ.get("MIMIC_REQUIRE_SHARED_DATA", "") not in ("", "0")

    seeds, parts, mocap_paths = load_seeds(args.root, shared, require)
    boxing = lambda ext: open(os.path.join(args.root, "data/mocap/boxing." + ext), "rb").read()
    mocap = {"bvh": cut_bvh(boxing("bvh").decode(), 60).encode(), "c3d": boxing("c3d")}
    keys = job_keys(seeds)
    mutants = plan(seeds, args.count, args.seed)
    if args.only:
        wanted = {int(i) for i in args.only.split(",")}
        mutants = [m for m in mutants if m.index in wanted]
    expected = load_expected(args.expected)

    work = args.work or tempfile.mkdtemp(prefix="mimic-mutation-")
    os.makedirs(work, exist_ok=True)
    start = time.monotonic()
    codes = collections.Counter()
    by_command = collections.Counter()
    unexpected, expected_hits = [], collections.Counter()
    slowest = (0.0, "")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args, m, parts, mocap, keys, work) for m in mutants]
        for future in concurrent.futures.as_completed(futures):
            mutant, code, seconds, failures, label, error_line, argv = future.result()
            codes[code] += 1
            by_command[(mutant.command, code)] += 1
            slowest = max(slowest, (seconds, label))
            for check, detail in failures:
                text = label + " | " + error_line
                entry = next((e for e in expected if e[0] == check and e[1].search(text)), None)
                if entry:
                    expected_hits[entry[3]] += 1
                else:
                    unexpected.append("%s: %s\n    %s\n    %s\n    %s" % (check, detail, label, error_line, argv))
    if not args.work and not args.keep:
        shutil.rmtree(work, ignore_errors=True)

    elapsed = time.monotonic() - start
    print("mutation suite: %d mutants of %d seeds in %.1f s (seed %s, %d parallel runs)" %
          (len(mutants), len(seeds), elapsed, args.seed, args.jobs))
    print("exit codes: " + ", ".join("%s: %d" % (k, codes[k]) for k in sorted(codes, key=str)))
    print("per command: " + ", ".join("%s %s: %d" % (c, k, n) for (c, k), n in sorted(by_command.items(),
                                                                                          key=str)))
    print("slowest run: %.2f s, %s" % slowest)
    for _, _, why, number in expected:
        print("expected failure (line %d of %s): %d run(s): %s" % (number, os.path.basename(args.expected),
                                                                   expected_hits[number], why))
    if unexpected:
        print("%d unexpected failure(s):" % len(unexpected))
        for u in sorted(unexpected):
            print("  " + u)
        return 1
    print("no unexpected failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
