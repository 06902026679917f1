#!/usr/bin/env python3
"""Cross-check cvperft's Pink Panther generator against tools/pink-panther-reference.py, a
second generator written clean-room from RULES.md and the article (this project's code, sharing
none with cvperft).

usage: pink-panther-crosscheck.py [--cvperft PATH] [--games N] [--placements N] [--seed S]
                                  [--suite-depth D] [--start-depth D] [--final-only]
                                  [--reference PATH]

Four parts, all deterministic (fixed seeds):
  1. the start position: divide 1..3 and perft 4 (--start-depth raises the perft depth);
  2. every case of suites/pink-panther.yaml (read through `cvperft export --format jsonl`):
     divide at each perft depth the case lists, up to depth 3 (deeper ones are slow in Python),
     under the case's options, compared move by move with `cvperft divide`;
  3. random games (the reference picks random legal moves, 10-60 plies) from the start and from
     every distinct suite position (with its options) and from the start under each option
     set: at each final position the FEN (board and side) from
     `cvperft fen --moves` and the divide 2 from `cvperft divide 2 --moves` are compared, and
     the legal moves (`cvperft divide 1`) at every position along the game;
  4. random placements (--placements per option set: default, medinese=continue,
     game-end=movegen): both Generals, up to 7 more pieces a side anywhere they may stand, one
     PP, divide 2 compared. These reach states games rarely do (Pawns on their first rank,
     several Queens, Kings side by side, checks by jumps from odd angles).

Defaults take about 3 minutes on a 2-core machine. Deeper: --suite-depth 4 (every
suite depth-4 case too, ~12 minutes), --start-depth 5 (~5 minutes more).

Exit 0 when everything agrees, 1 at the first disagreement (printed with the position, the
moves played and the differing root moves), 2 on a usage or tool error.
"""
import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # no tools/__pycache__ from loading the reference generator
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VARIANT = "pink-panther"
START = "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1"


def load_reference(path=os.path.join(HERE, "pink-panther-reference.py")):
    spec = importlib.util.spec_from_file_location("pp_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = load_reference()


class Disagreement(Exception):
    pass


def run_cvperft(cvperft, args):
    proc = subprocess.run([cvperft] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write("cvperft %s failed: %s" % (" ".join(args), proc.stderr))
        sys.exit(2)
    return proc.stdout


def option_args(options):
    out = []
    for name, value in sorted(options.items()):
        out += ["-o", "%s=%s" % (name, value)]
    return out


def make_options(options):
    opts = ref.Options()
    for name, value in options.items():
        if name == "medinese":
            opts.medinese = value
        elif name == "game-end":
            opts.game_end = value
        else:
            raise SystemExit("option %s not supported by the reference" % name)
    return opts


def parse_divide(text):
    """cvperft's divide: `move count` lines, a blank line, the total."""
    moves = {}
    total = None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            moves[parts[0]] = int(parts[1])
        elif len(parts) == 1:
            total = int(parts[0])
    return moves, total


def reference_position(fen, moves, opts):
    pos = ref.Position.from_fen(fen)
    for mv in moves:
        pos = ref.play(pos, mv, opts)
    return pos


def reference_divide(pos, depth, opts):
    return {text: ref.perft(after, depth - 1, opts) for text, after in ref.legal_moves(pos, opts)}


def compare_divide(cvperft, label, fen, moves, depth, options):
    opts = make_options(options)
    pos = reference_position(fen, moves, opts)
    mine = reference_divide(pos, depth, opts)
    args = ["divide", str(depth), "-v", VARIANT, "--fen", fen] + option_args(options)
    if moves:
        args += ["--moves", " ".join(moves)]
    theirs, total = parse_divide(run_cvperft(cvperft, args))
    if mine != theirs or total != sum(mine.values()):
        lines = ["%s: divide %d differs" % (label, depth),
                 "  fen:   %s" % fen,
                 "  moves: %s" % " ".join(moves),
                 "  position (reference): %s" % pos.fen(),
                 "  options: %s" % (options or "{}"),
                 "  command: cvperft %s" % " ".join(repr(a) if " " in a else a for a in args)]
        for mv in sorted(set(mine) | set(theirs)):
            a, b = mine.get(mv), theirs.get(mv)
            if a != b:
                lines.append("  %-8s reference %-8s cvperft %s" % (mv, a, b))
        raise Disagreement("\n".join(lines))
    return sum(mine.values())


def compare_fen(cvperft, label, fen, moves, options):
    opts = make_options(options)
    pos = reference_position(fen, moves, opts)
    args = ["fen", fen, "-v", VARIANT] + option_args(options)
    if moves:
        args += ["--moves", " ".join(moves)]
    theirs = run_cvperft(cvperft, args).split()
    mine = pos.fen().split()
    if theirs[:2] != mine[:2]:
        raise Disagreement("%s: position differs after moves\n  fen: %s\n  moves: %s\n"
                           "  reference: %s\n  cvperft:   %s"
                           % (label, fen, " ".join(moves), " ".join(mine), " ".join(theirs)))


def check_start(cvperft, perft_depth):
    for depth in (1, 2, 3):
        total = compare_divide(cvperft, "start", START, [], depth, {})
        print("start divide %d: %d (agree)" % (depth, total))
    for depth in range(4, perft_depth + 1):
        mine = ref.perft(ref.Position.from_fen(START), depth, ref.Options())
        theirs = int(run_cvperft(cvperft, ["perft", str(depth), "-v", VARIANT]).split()[0])
        if mine != theirs:
            raise Disagreement("start perft %d: reference %d cvperft %d" % (depth, mine, theirs))
        print("start perft %d: %d (agree)" % (depth, mine))


def suite_checks(cvperft):
    """The checks of suites/pink-panther.yaml, through cvperft's own JSON Lines export (one
    object per check: case, fen, moves, options, game_end, kind, depth, expected, ...)."""
    out = run_cvperft(cvperft, ["export", "--format", "jsonl", "--slow", "--deep",
                                os.path.join(ROOT, "suites", "pink-panther.yaml")])
    checks = [json.loads(line) for line in out.splitlines()]
    for item in checks:
        item["all_options"] = dict(item.get("options") or {}, **{"game-end": item["game_end"]})
    return checks


def check_suite(cvperft, checks, max_depth):
    """For every case (and option set): the divide at each depth its perft/divide checks name,
    up to max_depth, against cvperft and against the suite; legal, illegal and outcome checks
    against the reference alone."""
    done = set()
    compared = 0
    for item in checks:
        fen, moves, options = item["fen"], list(item["moves"]), item["all_options"]
        label = "suite %s %s" % (item["case"], item["kind"])
        opts = make_options(options)
        if item["kind"] in ("perft", "divide"):
            depth = item["depth"]
            key = (item["case"], tuple(sorted(options.items())), depth)
            if depth > max_depth:
                print("%-58s d%d skipped (deeper than %d)" % (label, depth, max_depth))
                continue
            if key not in done:
                done.add(key)
                total = compare_divide(cvperft, label, fen, moves, depth, options)
                compared += 1
            pos = reference_position(fen, moves, opts)
            if item["kind"] == "perft":
                total = ref.perft(pos, depth, opts)
                ok = total == item["expected"]
            else:
                total = reference_divide(pos, depth, opts)
                ok = total == item["divide"]
            if not ok:
                raise Disagreement("%s d%d: the suite expects %s, the reference (and cvperft) "
                                   "give %s" % (label, depth, item["expected"] if
                                                item["kind"] == "perft" else item["divide"],
                                                total))
            print("%-58s d%d agree" % (label, depth))
        elif item["kind"] in ("legal", "illegal"):
            pos = reference_position(fen, moves, opts)
            legal = set(t for t, _ in ref.legal_moves(pos, opts))
            listed = set(ref.normalise(m) for m in item[item["kind"]])
            wrong = listed - legal if item["kind"] == "legal" else listed & legal
            if wrong:
                raise Disagreement("%s: the reference finds %s %s" % (
                    label, "illegal" if item["kind"] == "legal" else "legal", sorted(wrong)))
            print("%-58s agree" % label)
        elif item["kind"] == "outcome":
            pos = reference_position(fen, moves, opts)
            got = ref.outcome(pos, opts)
            if got != item["expected"]:
                raise Disagreement("%s: suite %s, reference %s" % (label, item["expected"], got))
            print("%-58s agree (%s)" % (label, got))
        else:
            raise SystemExit("unknown check kind " + item["kind"])
    return compared


def classify(pos, text, after):
    """Tags of one move, for the coverage tally and the biased random games."""
    tags = []
    board, nb = pos.board, after.board
    fr, to = ref.parse_sq(text[0:2]), ref.parse_sq(text[2:4])
    before_pp, after_pp = ref.pp_square(board), ref.pp_square(nb)
    mover = board[fr]
    if board[to] is not None:
        tags.append("capture")
    if len(text) == 5:
        tags.append("promotion-" + ("carrier" if ref.is_carrier(nb[to]) else "plain")
                    + "-" + ref.kind(mover).lower() + ("+" if ref.is_carrier(mover) else ""))
    if before_pp is not None and before_pp != fr and after_pp == to:
        jumped = board[before_pp]
        if jumped == "*":
            tags.append("acquire-unclaimed-" + ref.kind(mover).lower())
        elif ref.colour(jumped) == pos.side:
            tags.append("rob-ally-" + ref.kind(jumped).lower())
        else:
            tags.append("rob-enemy-" + ref.kind(jumped).lower())
    elif before_pp == fr and after_pp != to:
        tags.append("pass-" + ref.kind(mover).lower() + "-to-" + ref.kind(nb[after_pp]).lower())
    elif before_pp == fr:
        tags.append("carrier-move-" + ref.kind(mover).lower())
    if ref.in_check(nb, after.side):
        tags.append("check")
    if ref.married(nb, pos.side):
        tags.append("marriage")
    return tags


def compare_moves(cvperft, name, fen, moves, options, mine):
    """divide 1 of cvperft against the reference's legal move list."""
    args = ["divide", "1", "-v", VARIANT, "--fen", fen] + option_args(options)
    if moves:
        args += ["--moves", " ".join(moves)]
    proc = subprocess.run([cvperft] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Disagreement("%s: cvperft refuses the game the reference played:\n  %s\n"
                           "  fen: %s\n  moves: %s" % (name, proc.stderr.strip(), fen,
                                                      " ".join(moves)))
    theirs, _ = parse_divide(proc.stdout)
    if set(theirs) != set(mine):
        raise Disagreement("%s: legal moves differ\n  fen: %s\n  moves: %s\n"
                           "  only reference: %s\n  only cvperft: %s"
                           % (name, fen, " ".join(moves), sorted(set(mine) - set(theirs)),
                              sorted(set(theirs) - set(mine))))


def random_games(cvperft, starts, games, seed, every_ply, tally):
    """Random games from each start in turn; odd-numbered games prefer special moves (jumps,
    promotions, captures, checks) half of the time, to reach PP-5..PP-9 more often."""
    checked = 0
    plies_checked = 0
    for i in range(games):
        rng = random.Random(seed * 100003 + i)
        biased = i % 2 == 1
        label, fen, pre, options = starts[i % len(starts)]
        opts = make_options(options)
        pos = reference_position(fen, pre, opts)
        moves = list(pre)
        plies = rng.randint(10, 60)
        name = "random game %d (seed %d, from %s%s)" % (i, seed, label,
                                                        ", biased" if biased else "")
        for _ in range(plies):
            legal = sorted(ref.legal_moves(pos, opts), key=lambda m: m[0])
            if every_ply:
                compare_moves(cvperft, name, fen, moves, options, [t for t, _ in legal])
                plies_checked += 1
            if not legal:
                break
            tagged = [(t, a, classify(pos, t, a)) for t, a in legal]
            for _, _, tags in tagged:
                for tag in tags:
                    tally[tag] = tally.get(tag, 0) + 1
            special = [m for m in tagged if m[2]]
            if biased and special and rng.random() < 0.5:
                text, pos, _ = rng.choice(special)
            else:
                text, pos, _ = rng.choice(tagged)
            moves.append(text)
        compare_fen(cvperft, name, fen, moves, options)
        compare_divide(cvperft, name + " after %d plies" % (len(moves) - len(pre)), fen, moves,
                       2, options)
        checked += 1
    return checked, plies_checked


def random_placement(rng):
    """A random position: both Generals (either may be the King), a few pieces of each side
    anywhere they may stand, exactly one PP (`*` on an empty square or on a plain R, B, N, G
    or P), the side not to move not in check. Reaches states games rarely do: Pawns on their
    first rank, Kings next to each other, several Queens, carriers and checks everywhere."""
    while True:
        board = [None] * (ref.N * ref.N)
        empty = list(range(ref.N * ref.N))
        rng.shuffle(empty)
        board[empty.pop()] = "G"
        board[empty.pop()] = "g"
        for side in "wb":
            last_rank = ref.N - 1 if side == "w" else 0
            for _ in range(rng.randint(0, 7)):
                letter = rng.choice("PPPIRBNQ")
                sq = empty.pop()
                if letter in "PI" and sq // ref.N == last_rank:
                    letter = "R"
                board[sq] = ref.make_piece(letter, side, False)
        holders = [sq for sq, p in enumerate(board) if p is not None and ref.kind(p) in "GRBNP"]
        if rng.random() < 0.3:
            board[empty.pop()] = "*"
        else:
            sq = rng.choice(holders)
            board[sq] = "+" + board[sq]
        side = rng.choice("wb")
        if not ref.in_check(board, ref.other(side)):
            return ref.Position(board, side)


def random_placements(cvperft, count, seed, options):
    rng = random.Random(seed)
    refused = 0
    checked = 0
    for i in range(count):
        pos = random_placement(rng)
        fen = pos.fen() + " 0 1"
        proc = subprocess.run([cvperft, "fen", fen, "-v", VARIANT], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            refused += 1
            print("random placement %d: cvperft refuses %s: %s" % (i, fen,
                                                                    proc.stderr.strip()))
            continue
        compare_divide(cvperft, "random placement %d (seed %d)" % (i, seed), fen, [], 2,
                       options)
        checked += 1
    return checked, refused


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cvperft", default=os.environ.get("CVPERFT", "cvperft"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20050101)
    parser.add_argument("--suite-depth", type=int, default=3)
    parser.add_argument("--start-depth", type=int, default=4)
    parser.add_argument("--placements", type=int, default=300)
    parser.add_argument("--final-only", action="store_true",
                        help="compare only the final position of each random game")
    parser.add_argument("--reference", help="another copy of pink-panther-reference.py (to test "
                        "that this script catches a deliberately broken generator)")
    args = parser.parse_args()
    if args.reference:
        global ref
        ref = load_reference(args.reference)
    try:
        check_start(args.cvperft, args.start_depth)
        checks = suite_checks(args.cvperft)
        n = check_suite(args.cvperft, checks, args.suite_depth)
        print("suite: %d divides compared with cvperft, all agree" % n)
        starts = [("start", START, [], {}),
                  ("start, medinese=continue", START, [], {"medinese": "continue"}),
                  ("start, game-end=movegen", START, [], {"game-end": "movegen"})]
        seen = set()
        for item in checks:            # every distinct suite position (with its options)
            key = (item["fen"], tuple(item["moves"]), tuple(sorted(item["all_options"].items())))
            if key not in seen:
                seen.add(key)
                starts.append((item["case"], item["fen"], list(item["moves"]),
                               item["all_options"]))
        tally = {}
        n, plies = random_games(args.cvperft, starts, args.games, args.seed,
                                not args.final_only, tally)
        print("random games: %d final positions agree (FEN and divide 2); legal moves agree at "
              "%d positions along the games" % (n, plies))
        print("root moves seen along the games, by kind (coverage):")
        for tag in sorted(tally):
            print("  %-36s %d" % (tag, tally[tag]))
        for options in ({}, {"medinese": "continue"}, {"game-end": "movegen"}):
            n, refused = random_placements(args.cvperft, args.placements, args.seed, options)
            print("random placements %s: %d positions agree (divide 2), %d refused by cvperft"
                  % (options or "(default options)", n, refused))
    except Disagreement as d:
        print("DISAGREEMENT\n" + str(d))
        return 1
    print("all agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
