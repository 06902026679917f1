#!/usr/bin/env python3
"""Compare every perft and divide check of suites/cerimon.yaml with tools/cerimon-reference.py,
the second Cerimon generator written from RULES.md CE-1..CE-6 with the suite (our project's
code, sharing none with cvperft; not a public source).

usage: cerimon-crosscheck.py [--cvperft PATH] [--max-leaves N] [--games N] [--seed S]
                             [--reference PATH]

Two parts. First the suite: its checks are read as `cvperft export --format jsonl --slow
suites/cerimon.yaml` lists them (each with its position, moves played first and resurrect-by
value); a check whose expected count is above --max-leaves (default 200,000; the reference
counts in Python, a few thousand positions a second) is left out and counted as such
(--max-leaves 0 leaves the suite out). Then random games (--games, default 100, half of them
under each resurrect-by value; --seed, default 20261207): from the start position, 10 to 80
plies each, moves drawn with captures, promotions and resurrections weighted up; at every
position of a game the moves of both generators (divide 1) are compared before one is played,
and at four plies of each game and at its end the divide 2 of the reference and of cvperft
(given the start FEN and the moves played); a game ends at its first disagreement. Exit 0 when
everything compared agrees, 1 on any disagreement (each printed, with the position's moves), 2
on a usage or tool error (cvperft failing included).
--reference takes another copy of cerimon-reference.py (to show that this script catches a
generator broken on purpose).
"""
import argparse
import json
import os
import random
import runpy
import subprocess
import sys
import types

sys.dont_write_bytecode = True  # no tools/__pycache__ from loading the reference generator
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUITE = os.path.join(ROOT, "suites", "cerimon.yaml")
START = "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[] w - - 0 1"


class ToolError(Exception):
    """cvperft failed: not a disagreement between the generators."""


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
    got = ref_divide(pos, check["depth"], moved_piece)
    want = {ref.norm(text): n for text, n in check["divide"].items()}
    if got == want:
        return None
    return "divide differs: " + differences(got, want, "suite")


def ref_divide(pos, depth, moved_piece):
    """The reference's divide, keyed by its normal form of each move."""
    return {ref.norm(text): ref.perft(after, depth - 1, moved_piece)
            for text, after in ref.gen(pos, moved_piece)}


def differences(got, want, other):
    """The first eight moves whose counts differ, the reference's against `other`'s."""
    lines = ["%s: reference %s, %s %s" % (m, got.get(m), other, want.get(m))
             for m in sorted(set(got) | set(want)) if got.get(m) != want.get(m)]
    return "; ".join(lines[:8])


def cv_divide(cvperft, depth, fen, moves, moved_piece):
    """cvperft's divide, keyed by the reference's normal form of each move."""
    args = [cvperft, "divide", str(depth), "-v", "cerimon", "--fen", fen]
    if moved_piece:
        args += ["-o", "resurrect-by=moved-piece"]
    if moves:
        args += ["--moves", " ".join(moves)]
    try:
        proc = subprocess.run(args, capture_output=True, text=True)
    except OSError as e:
        raise ToolError("cannot run cvperft: %s" % e)
    if proc.returncode != 0:
        raise ToolError("cvperft %s failed: %s" % (" ".join(args[1:]), proc.stderr.strip()))
    counts = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            counts[ref.norm(parts[0])] = int(parts[1])
    return counts


def pick(rng, pos, moves):
    """A legal move drawn at random, resurrections, promotions and captures weighted up."""
    weights = []
    for text, _ in moves:
        if "@" in text:
            weights.append(8)
        elif ref.parse_sq(text[2:4]) in pos.b or len(text.split(",")[0]) > 4:
            weights.append(3)
        else:
            weights.append(1)
    return rng.choices(moves, weights)[0]


def random_games(cvperft, games, seed):
    """(compared, disagreements, resurrections played) over `games` random games."""
    rng = random.Random(seed)
    compared, differ, resurrections = 0, 0, 0
    for game in range(games):
        moved_piece = game % 2 == 1
        rule = "moved-piece" if moved_piece else "any-checker"
        pos, played = ref.Pos(START), []
        plies = rng.randint(10, 80)
        at = set(rng.sample(range(1, plies), 4))
        for ply in range(1, plies + 1):
            moves = ref.gen(pos, moved_piece)
            # Every position's moves (divide 1) before one is played: a game goes on only along
            # moves both generators find legal, and ends at its first disagreement.
            compared += 1
            if not same_divide(cvperft, 1, pos, played, moved_piece, game, rule):
                differ += 1
                break
            if not moves:
                break  # mate or stalemate
            text, pos = pick(rng, pos, moves)
            played.append(text)
            resurrections += "@" in text
            if ply in at or ply == plies:
                compared += 1
                if not same_divide(cvperft, 2, pos, played, moved_piece, game, rule):
                    differ += 1
                    break
    return compared, differ, resurrections


def same_divide(cvperft, depth, pos, played, moved_piece, game, rule):
    """Whether both generators give the same divide after `played`; prints the difference."""
    ours = ref_divide(pos, depth, moved_piece)
    theirs = cv_divide(cvperft, depth, START, played, moved_piece)
    if ours == theirs:
        return True
    print("DISAGREEMENT game %d (resurrect-by %s), divide %d after %s: %s"
          % (game + 1, rule, depth, " ".join(played) or "(the start)",
             differences(ours, theirs, "cvperft")), flush=True)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cvperft", default=os.environ.get("CVPERFT", "cvperft"))
    parser.add_argument("--max-leaves", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=100, help="random games (default 100)")
    parser.add_argument("--seed", type=int, default=20261207)
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
          % (agree, differ, over, args.max_leaves), flush=True)
    if agree == 0 and args.games == 0:
        print("cerimon-crosscheck: nothing was compared", file=sys.stderr)
        return 2
    if differ:
        return 1
    try:
        compared, game_differ, resurrections = random_games(args.cvperft, args.games, args.seed)
    except ToolError as e:
        print("cerimon-crosscheck: %s" % e, file=sys.stderr)
        return 2
    print("%d random games: %d divides compared, %d differ (%d resurrections played)"
          % (args.games, compared, game_differ, resurrections))
    return 1 if game_differ else 0


if __name__ == "__main__":
    sys.exit(main())
