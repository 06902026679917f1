#!/usr/bin/env python3
"""Compare every perft and divide check of suites/cerimon.yaml with tools/cerimon-reference.py,
the second Cerimon generator written from RULES.md CE-1..CE-6 with the suite (our project's
code, sharing none with cvperft; not a public source).

usage: cerimon-crosscheck.py [--cvperft PATH] [--max-leaves N] [--reference PATH]

The checks are read as `cvperft export --format jsonl --slow suites/cerimon.yaml` lists them
(each with its position, moves played first and resurrect-by value); a check whose expected
count is above --max-leaves (default 200,000; the reference counts in Python, a few thousand
positions a second) is left out and counted as such. Exit 0 when every check compared agrees,
1 on any disagreement (each printed), 2 on a usage or tool error. --reference takes another
copy of cerimon-reference.py (to show that this script catches a generator broken on purpose).
"""
import argparse
import json
import os
import runpy
import subprocess
import sys
import types

sys.dont_write_bytecode = True  # no tools/__pycache__ from loading the reference generator
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUITE = os.path.join(ROOT, "suites", "cerimon.yaml")


def load_reference(path=os.path.join(HERE, "cerimon-reference.py")):
    """The generator's functions and classes (its command line is not run)."""
    return types.SimpleNamespace(**runpy.run_path(path, run_name="cerimon_reference"))


ref = load_reference()


def position(check):
    """The reference's position after the check's moves, or None if it refuses one."""
    moved_piece = check["options"].get("resurrect-by") == "moved-piece"
    pos = ref.Pos(check["fen"])
    for text in check["moves"]:
        for played, after in ref.gen(pos, moved_piece):
            if played == ref.norm(text):
                pos = after
                break
        else:
            return None, moved_piece
    return pos, moved_piece


def compare(check):
    """None when the reference agrees with the check, else what differs."""
    pos, moved_piece = position(check)
    if pos is None:
        return "the reference finds a move of %s illegal" % " ".join(check["moves"])
    if check["kind"] == "perft":
        got = ref.perft(pos, check["depth"], moved_piece)
        return None if got == check["expected"] else "reference %d, suite %d" % (
            got, check["expected"])
    got = {ref.norm(text): ref.perft(after, check["depth"] - 1, moved_piece)
           for text, after in ref.gen(pos, moved_piece)}
    want = {ref.norm(text): n for text, n in check["divide"].items()}
    if got == want:
        return None
    lines = ["%s: reference %s, suite %s" % (m, got.get(m), want.get(m))
             for m in sorted(set(got) | set(want)) if got.get(m) != want.get(m)]
    return "divide differs: " + "; ".join(lines[:8])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cvperft", default=os.environ.get("CVPERFT", "cvperft"))
    parser.add_argument("--max-leaves", type=int, default=200_000)
    parser.add_argument("--reference", help="another copy of cerimon-reference.py")
    args = parser.parse_args()
    if args.reference:
        global ref
        ref = load_reference(args.reference)
    try:
        out = subprocess.run([args.cvperft, "export", "--format", "jsonl", "--slow", SUITE],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print("cerimon-crosscheck: cvperft export failed: %s" % e, file=sys.stderr)
        return 2
    agree, differ, over = 0, 0, 0
    for line in out.splitlines():
        check = json.loads(line)
        if check["kind"] not in ("perft", "divide"):
            continue
        if check["status"] != "normal" or check["expected"] > args.max_leaves:
            over += 1
            continue
        why = compare(check)
        if why is None:
            agree += 1
        else:
            differ += 1
            print("DISAGREEMENT %s: %s" % (check["name"], why), flush=True)
    print("%d perft and divide checks agree, %d differ, %d left out (over %d leaves)"
          % (agree, differ, over, args.max_leaves))
    if agree == 0:
        print("cerimon-crosscheck: no check was compared", file=sys.stderr)
        return 2
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
