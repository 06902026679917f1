#!/usr/bin/env python3
"""Reads a chess export of `cvperft export` with python-chess and counts perft with it.

Run by tests/export.rs (`python_chess_reads_our_chess_export_and_counts_the_same`):

    python_chess_perft.py --epd FILE --perft FILE --max-nodes N --budget N

For the EPD file, every line goes through `chess.Board.set_epd`, as any python-chess user
would read it; for the `.perft` file, the lines are read as python-chess's own
`examples/perft/perft.py` reads its files (`#` comments and blank lines skipped, `id`, `epd`
through `set_epd`, `perft DEPTH COUNT`). Each count of at most --max-nodes leaves is counted
with python-chess's legal move generator while the leaves counted so far stay within --budget
(python-chess counts well under a million leaves a second). One JSON object per line on
stdout:

    {"format": "epd", "id": ..., "depth": D, "expected": N, "counted": N, "fen": ..., "ops": {...}}

with "counted": null for a count left out by the limits. Exit 0 when every line could be
read (the caller compares the numbers), 2 when python-chess refused a line.
"""

import argparse
import json
import sys

import chess


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


class Budget:
    def __init__(self, max_nodes, budget):
        self.max_nodes = max_nodes
        self.left = budget

    def count(self, board, depth, expected):
        if expected > self.max_nodes or expected > self.left:
            return None
        self.left -= expected
        return perft(board, depth)


def refuse(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def emit(**fields):
    print(json.dumps(fields, sort_keys=True))


def read_epd(path, budget):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            board = chess.Board()
            try:
                ops = board.set_epd(line)
            except ValueError as e:
                refuse(f"{path}:{number}: python-chess refused the line: {e}")
            depths = sorted(int(k[1:]) for k in ops if k[:1] == "D" and k[1:].isdigit())
            for depth in depths:
                expected = ops[f"D{depth}"]
                emit(
                    format="epd",
                    id=ops.get("id"),
                    depth=depth,
                    expected=expected,
                    counted=budget.count(board, depth, expected),
                    fen=board.fen(en_passant="fen"),
                    ops={k: v for k, v in ops.items() if not (k[:1] == "D" and k[1:].isdigit())},
                )


def read_perft(path, budget):
    board = chess.Board()
    current_id = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("%"):
                continue
            command, argument = line.split(None, 1)
            if command == "id":
                current_id = argument
            elif command == "epd":
                try:
                    board.set_epd(argument)
                except ValueError as e:
                    refuse(f"{path}:{number}: python-chess refused the position: {e}")
            elif command == "perft":
                depth, expected = map(int, argument.split(None, 1))
                emit(
                    format="perft",
                    id=current_id,
                    depth=depth,
                    expected=expected,
                    counted=budget.count(board, depth, expected),
                    fen=board.fen(en_passant="fen"),
                    ops={},
                )
            else:
                refuse(f"{path}:{number}: unknown command {command!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epd", required=True)
    parser.add_argument("--perft", required=True)
    parser.add_argument("--max-nodes", type=int, required=True)
    parser.add_argument("--budget", type=int, required=True)
    args = parser.parse_args()
    read_epd(args.epd, Budget(args.max_nodes, args.budget))
    read_perft(args.perft, Budget(args.max_nodes, args.budget))


if __name__ == "__main__":
    main()
