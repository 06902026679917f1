#!/usr/bin/env python3
"""The Python counterpart of benches/perft.rs: the cost of calling cvperft through the binding.

The same positions and depths as the criterion bench (every variant's start position at its
depth in benches/depths.txt under its default options, and Kiwipete at depth 4), counted
through `cvperft.Position(...).perft(depth)` and by the `cvperft` binary (`cvperft perft`,
which adds a process start to the count). Every count is asserted against the one the suites
record (read from `cvperft export --format jsonl`, so expected numbers stay in suites/) before
anything is timed. Then the fixed cost of one call: `perft(1)` and `legal_moves()` on the
chess start position, many times.

    python python/bench/perft_bench.py [--cli target/release/cvperft] [--repeat 5]

Prints one row per position (best of --repeat wall times) and the per-call costs. Wall times
on a shared machine vary from run to run; docs/python.md gives the figures and callgrind
instruction counts, which do not.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import time

import cvperft

REPO = pathlib.Path(__file__).resolve().parents[2]


def bench_depths():
    """(variant, depth) from benches/depths.txt, depth 3 for a variant it does not list."""
    listed = {}
    for line in (REPO / "benches" / "depths.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            words = line.split()
            listed[words[0]] = int(words[1])
    return [(v["id"], listed.get(v["id"], 3)) for v in cvperft.variants()]


def suite_counts(cli):
    """Every perft check of the suites, as `cvperft export --format jsonl` writes it."""
    done = subprocess.run(
        [cli, "export", "--format", "jsonl", "--slow"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    items = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return [i for i in items if i["kind"] == "perft" and i["status"] in ("normal", "disputed")]


def defaults(variant):
    (v,) = [v for v in cvperft.variants() if v["id"] == variant]
    return v, {o["name"]: o["default"] for o in v["options"] if o["name"] != "game-end"}


def plan(cli):
    """(name, variant, fen, options, depth, expected) as benches/perft.rs plans them."""
    items = suite_counts(cli)
    out = []
    for variant, depth in bench_depths():
        v, options = defaults(variant)
        matches = [
            i
            for i in items
            if i["variant"] == variant
            and i["depth"] == depth
            and i["options"] == options
            and i["game_end"] == "rules"
            and not i["moves"]
            and i["fen"] == v["start_fen"]
        ]
        if not matches:
            sys.exit(f"bench {variant} d{depth}: no suite case counts the start position that deep")
        out.append(
            (
                f"{variant}::start::d{depth}",
                variant,
                v["start_fen"],
                options,
                depth,
                matches[0]["expected"],
            )
        )
    (kiwipete,) = [
        i for i in items if i["variant"] == "chess" and i["case"] == "kiwipete" and i["depth"] == 4
    ]
    out.append(
        (
            "chess::kiwipete::d4",
            "chess",
            kiwipete["fen_after"],
            kiwipete["options"],
            4,
            kiwipete["expected"],
        )
    )
    return out


def best_of(repeat, run):
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(REPO / "target" / "release" / "cvperft"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=100_000)
    args = parser.parse_args()

    print(f"{'bench':28} {'leaves':>11} {'python':>10} {'cli':>10} {'python/cli':>10}")
    for name, variant, fen, options, depth, expected in plan(args.cli):
        pos = cvperft.Position(variant, fen=fen, options=options)
        assert pos.perft(depth) == expected, f"{name}: perft {depth} != {expected} (suites)"
        py_time, nodes = best_of(args.repeat, lambda: pos.perft(depth))
        assert nodes == expected
        command = [args.cli, "perft", str(depth), "-v", variant, "--fen", fen]
        for option, value in options.items():
            command += ["-o", f"{option}={value}"]

        def run_cli():
            return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)

        cli_time, cli_nodes = best_of(args.repeat, run_cli)
        assert cli_nodes == expected, f"{name}: the CLI counts {cli_nodes}"
        print(
            f"{name:28} {expected:>11,} {py_time * 1e3:>8.1f}ms {cli_time * 1e3:>8.1f}ms {py_time / cli_time:>10.2f}"
        )

    start = cvperft.Position("chess")
    per_call, _ = best_of(args.repeat, lambda: [start.perft(1) for _ in range(args.calls)])
    print(f"perft(1) on the chess start position: {per_call / args.calls * 1e6:.2f} us a call")
    per_call, _ = best_of(
        args.repeat, lambda: [start.legal_moves() for _ in range(args.calls // 10)]
    )
    print(
        f"legal_moves() on the chess start position: {per_call / (args.calls // 10) * 1e6:.2f} us a call"
    )
    per_call, _ = best_of(
        args.repeat, lambda: [cvperft.Position("chess") for _ in range(args.calls // 10)]
    )
    print(f"Position('chess'): {per_call / (args.calls // 10) * 1e6:.2f} us a call")


if __name__ == "__main__":
    main()
