#!/usr/bin/env python3
"""Runs the same cvperft command lines through two binaries and diffs every output byte.

Usage: tools/compare-cli.py OLD_BINARY NEW_BINARY [WORK_DIR]

For a change that must not change behaviour (a restructuring): `variants`; `perft` and
`divide` at depths 1-4 from every variant's start under every combination of its options and
both game-end modes; `divide 2` and `fen` of every suite case (its FEN, moves and options);
`perftree`; `fen` of every start position; every bad input of fixtures/bad/cases.yaml; and
`check --format json` over suites/ (the `seconds` fields removed). Each run's stdout, stderr
and exit code are compared; the first differences are printed, and the exit code is 1 when
any run differs. Run from the repository root. Both binaries must be named `cvperft` (clap
prints the binary's name in usage errors): copy the old one into a directory of its own.
"""
import itertools
import os
import re
import subprocess
import sys

import yaml


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, timeout=900)
    out = p.stdout
    if args and args[0] == "check" and "json" in args:
        out = re.sub(rb'"seconds": [^,\n]*', b'"seconds": _', out)
    return out, p.stderr, p.returncode


def option_combos(binary):
    """(variant, [option args...]) for every variant and every option value combination."""
    text = subprocess.run([binary, "variants"], capture_output=True, check=True).stdout.decode()
    variants = []
    for line in text.splitlines():
        if not line.startswith(" "):
            variants.append((line.split()[0], []))
        elif line.strip().startswith("option "):
            m = re.match(r"\s*option (\S+) = (.*?) \(default", line)
            variants[-1][1].append((m.group(1), [v.strip() for v in m.group(2).split("|")]))
    for vid, options in variants:
        names = [n for n, _ in options]
        for values in itertools.product(*[vals for _, vals in options]):
            args = []
            for n, v in zip(names, values):
                args += ["-o", f"{n}={v}"]
            yield vid, args


def suite_cases():
    for name in sorted(os.listdir("suites")):
        if not name.endswith(".yaml"):
            continue
        doc = yaml.safe_load(open(os.path.join("suites", name)))
        base = ["-v", doc["variant"]]
        if "game-end" in doc:
            base += ["-o", f"game-end={doc['game-end']}"]
        file_options = doc.get("options") or {}
        for case in doc.get("cases", []):
            opts = dict(file_options)
            opts.update(case.get("options") or {})
            args = list(base)
            for k, v in opts.items():
                args += ["-o", f"{k}={v}"]
            if case.get("fen"):
                args += ["--fen", case["fen"]]
            if case.get("moves"):
                args += ["--moves", case["moves"]]
            yield case["id"], args, case.get("fen")


def commands(binary):
    yield ["variants"]
    for vid, opts in option_combos(binary):
        for depth in range(1, 5):
            yield ["perft", str(depth), "-v", vid] + opts
            yield ["divide", str(depth), "-v", vid] + opts
        yield ["fen", "-v", vid] + opts + [
            subprocess.run([binary, "variants"], capture_output=True).stdout.decode()
            .split(f"{vid} (")[1].split("start: ")[1].splitlines()[0]
        ]
    for _, args, fen in suite_cases():
        yield ["divide", "2"] + args
        if fen:
            vid = args[1]
            yield ["fen", "-v", vid, fen]
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    yield ["perftree", "3", kiwipete, "e1g1 a6e2"]
    yield ["perftree", "2", kiwipete]
    yield ["perftree", "2", "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1", "d2c3", "-v", "pink-panther"]
    bad = yaml.safe_load(open("fixtures/bad/cases.yaml"))
    for case in bad["cases"]:
        yield [str(a) for a in case["args"]]
    yield ["check", "--format", "json"]


def main():
    old, new = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else None
    differing = 0
    total = 0
    for args in commands(old):
        total += 1
        a, b = run(old, args), run(new, args)
        if a != b:
            differing += 1
            if differing <= 10:
                print(f"DIFFERS: {' '.join(args)}")
                for label, x, y in zip(("stdout", "stderr", "exit"), a, b):
                    if x != y:
                        # Exit codes are numbers; the streams are cut to 300 bytes.
                        x, y = (v[:300] if isinstance(v, bytes) else v for v in (x, y))
                        print(f"  {label}: old {x!r}\n  {label}: new {y!r}")
        if work:
            with open(os.path.join(work, "runs.txt"), "a") as f:
                f.write(f"{' '.join(args)}\t{len(a[0])}\t{len(a[1])}\t{a[2]}\n")
    print(f"{total} command lines, {differing} differing")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
