#!/usr/bin/env python3
"""Cross-check a chess suite against Stockfish.

Usage: tools/stockfish-crosscheck.py [--slow] [--stockfish PATH] SUITE.yaml ...

For every case of a `variant: chess` suite this asks Stockfish (UCI `position fen ... moves ...`,
`go perft N`) for each expected perft depth and the divide, checks the `legal` and `illegal`
lists against Stockfish's perft 1 move list, and the `outcome` with `go depth 1` (`score mate 0`
is checkmate, no moves without it is stalemate). It prints one line per case and exits 1 if
Stockfish disagrees anywhere. Slow cases are skipped unless --slow is given.

This is how the `cross-check:` notes of `kind: reference` chess cases are produced. It needs
Python 3 with PyYAML and a Stockfish binary (Debian: `apt-get install stockfish`, which installs
/usr/games/stockfish).
"""

import argparse
import shutil
import subprocess
import sys

import yaml

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def ask(stockfish, fen, moves, command):
    """Runs one UCI command on a position; returns Stockfish's output lines."""
    position = "position fen " + fen + (" moves " + moves if moves else "")
    script = "uci\nisready\n" + position + "\n" + command + "\nisready\nquit\n"
    out = subprocess.run(
        [stockfish], input=script, capture_output=True, text=True, check=True, timeout=3600
    ).stdout
    return out.splitlines()


def divide(stockfish, fen, moves, depth):
    """Stockfish's `go perft` as ({move: count}, total)."""
    entries, total = {}, None
    for line in ask(stockfish, fen, moves, "go perft %d" % depth):
        if line.startswith("Nodes searched:"):
            total = int(line.split(":")[1])
        elif ": " in line:
            move, _, count = line.partition(": ")
            if count.strip().isdigit() and " " not in move:
                entries[move] = int(count)
    if total is None:
        raise RuntimeError("no 'Nodes searched' line from stockfish")
    return entries, total


def outcome(stockfish, fen, moves):
    entries, _ = divide(stockfish, fen, moves, 1)
    if entries:
        return "ongoing"
    side = (fen.split()[1] == "w") == (len(moves.split()) % 2 == 0)  # True: White to move
    for line in ask(stockfish, fen, moves, "go depth 1"):
        if " score mate 0" in line:
            return "black-wins" if side else "white-wins"
    return "draw"


def check_case(stockfish, case):
    fen = case.get("fen", START)
    moves = case.get("moves", "") or ""
    problems, done = [], []
    for depth, expected in sorted((case.get("perft") or {}).items()):
        _, total = divide(stockfish, fen, moves, int(depth))
        done.append("perft %s" % depth)
        if total != expected:
            problems.append("perft %s: suite %s, stockfish %s" % (depth, expected, total))
    if case.get("divide"):
        want = case["divide"]
        entries, _ = divide(stockfish, fen, moves, int(want["depth"]))
        done.append("divide %s" % want["depth"])
        if entries != want["moves"]:
            keys = sorted(set(entries) | set(want["moves"]))
            diff = [k for k in keys if entries.get(k) != want["moves"].get(k)]
            problems.append("divide %s differs on %s" % (want["depth"], " ".join(diff)))
    if case.get("legal") or case.get("illegal"):
        entries, _ = divide(stockfish, fen, moves, 1)
        done.append("legal/illegal")
        for m in case.get("legal") or []:
            if m not in entries:
                problems.append("%s is not legal for stockfish" % m)
        for m in case.get("illegal") or []:
            if m in entries:
                problems.append("%s is legal for stockfish" % m)
    if case.get("outcome"):
        got = outcome(stockfish, fen, moves)
        done.append("outcome")
        if got != case["outcome"]:
            problems.append("outcome: suite %s, stockfish %s" % (case["outcome"], got))
    return done, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="+")
    parser.add_argument("--slow", action="store_true", help="include slow cases")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    failed = False
    for path in args.suites:
        with open(path, encoding="utf-8") as f:
            suite = yaml.safe_load(f)
        if suite.get("variant") != "chess":
            print("%s: variant %s, skipped (Stockfish plays chess only)" % (path, suite.get("variant")))
            continue
        for case in suite["cases"]:
            name = "%s::%s" % (path, case["id"])
            if case.get("slow") and not args.slow:
                print("skip  %s (slow)" % name)
                continue
            extra = {k: v for k, v in (case.get("options") or {}).items() if k != "game-end"}
            if extra or case.get("alternatives"):
                print("skip  %s (options or alternatives Stockfish cannot express)" % name)
                continue
            done, problems = check_case(args.stockfish, case)
            if problems:
                failed = True
                print("DIFF  %s: %s" % (name, "; ".join(problems)))
            else:
                print("agree %s (%s)" % (name, ", ".join(done)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
