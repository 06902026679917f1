#!/usr/bin/env python3
"""Cross-check cvperft's Plutonian generator against tools/plutonian-reference.py, the clean-room
second generator written from RULES.md PL-1..PL-4 and the article. Reproducible (fixed seeds).

usage: plutonian-crosscheck.py [--cvperft PATH] [--games N] [--positions N] [--seed S] [--deep]
                               [--quick] [--suite-nodes N] [--suite-depth D] [--reference PATH]

Five parts, each comparing divides move by move:
  1. the start position under both black arrays: divide 1, 2, 3 and 4 (5 with --deep; only
     1 to 3 with --quick);
  2. every check of suites/plutonian.yaml (as `cvperft export --format jsonl --slow` lists them):
     perft counts (those of at most --suite-nodes leaves, default 2,000,000), divides, legal and
     illegal moves and outcomes against our generator, and the divide at depth min(D, the
     deepest listed but at least 2) of every case position against cvperft (D = --suite-depth,
     default 3);
  3. random games (biased toward captures, promotions, castling and en passant) from both start
     positions, from the probes and from suite positions, 10-80 plies; at several plies of each
     game, divide 2 (cvperft given the root FEN and the moves played, so it tracks castling
     rights and the en-passant square itself) and the FEN each side writes;
  4. probes: hand-made positions at the rulings' corners (PROBES below), divide 3;
  5. random positions (--positions, default 300) at divide 2 or 3.

Exit 0 when everything agrees, 1 on any disagreement (the first one is narrowed down to the
position and move where the two generators' move lists differ, and printed), 2 on a usage error
or when cvperft itself fails (the command and its error are printed).
Standard library only; cvperft is found at --cvperft, $CVPERFT, target/release/cvperft or on PATH.
"""
import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no tools/__pycache__ from loading the reference generator
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_reference(path):
    spec = importlib.util.spec_from_file_location("plref", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = load_reference(os.path.join(HERE, "plutonian-reference.py"))

MAX_SUITE_NODES = 2_000_000
SUITE = os.path.join(ROOT, "suites", "plutonian.yaml")


class Checker:
    def __init__(self, cvperft):
        self.cvperft = cvperft
        self.compared = 0
        self.failures = []
        self.last_total = 0

    # -- cvperft as a black box ----------------------------------------------------------------
    def run(self, args):
        out = subprocess.run([self.cvperft] + args, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("cvperft %s failed: %s" % (" ".join(args), out.stderr.strip()))
        return out.stdout

    @staticmethod
    def position_args(fen, moves, array):
        args = ["-v", "plutonian", "-o", "black-array=" + array, "--fen", fen]
        if moves:
            args += ["--moves", " ".join(moves)]
        return args

    def cv_divide(self, depth, fen, moves, array):
        text = self.run(["divide", str(depth)] + self.position_args(fen, moves, array))
        counts = {}
        lines = text.split("\n")
        for line in lines:
            if not line.strip():
                break
            move, count = line.split()
            counts[move] = int(count)
        return counts

    def cv_fen(self, fen, moves, array):
        args = ["fen", fen, "-v", "plutonian", "-o", "black-array=" + array]
        if moves:
            args += ["--moves", " ".join(moves)]
        return self.run(args).split("\n")[0].strip()

    # -- comparisons -----------------------------------------------------------------------------
    def fail(self, what):
        self.failures.append(what)
        print("DISAGREE: " + what, flush=True)

    def compare_divide(self, label, depth, fen, moves, array):
        """Divide DEPTH of the position after MOVES from FEN, ours against cvperft's; on a
        difference, walk down to the position where the move lists themselves differ."""
        self.compared += 1
        pos = play_all(ref.parse_fen(fen, array), moves)
        mine = ref.divide(pos, depth)
        theirs = self.cv_divide(depth, fen, moves, array)
        self.last_total = sum(mine.values())
        if mine == theirs:
            return True
        self.fail("%s: divide %d differs at %s (%s)" % (label, depth, ref.to_fen(pos), array))
        self.narrow(fen, list(moves), array, depth, mine, theirs)
        return False

    def narrow(self, fen, moves, array, depth, mine, theirs):
        while True:
            pos = play_all(ref.parse_fen(fen, array), moves)
            only_mine = sorted(set(mine) - set(theirs))
            only_theirs = sorted(set(theirs) - set(mine))
            if only_mine or only_theirs or depth == 1:
                print("  position: %s  (black-array=%s)" % (ref.to_fen(pos), array))
                print("  root FEN %s, moves: %s" % (fen, " ".join(moves) or "-"))
                print("  legal only for plutonian-reference.py: %s" % (" ".join(only_mine) or "-"))
                print("  legal only for cvperft: %s" % (" ".join(only_theirs) or "-"))
                for m in sorted(set(mine) & set(theirs)):
                    if mine[m] != theirs[m]:
                        print("  %s: reference %d, cvperft %d" % (m, mine[m], theirs[m]))
                return
            move = next(m for m in sorted(mine) if mine[m] != theirs[m])
            print("  after %s: reference %d, cvperft %d" % (move, mine[move], theirs[move]))
            moves.append(move)
            depth -= 1
            pos = play_all(ref.parse_fen(fen, array), moves)
            mine = ref.divide(pos, depth)
            theirs = self.cv_divide(depth, fen, moves, array)

    def expect(self, label, mine, expected):
        self.compared += 1
        if mine != expected:
            self.fail("%s: reference gives %s, suite expects %s" % (label, mine, expected))


def play_all(pos, moves):
    for m in moves:
        pos = ref.play(pos, m)
    return pos


def outcome(pos):
    """GE-1 with PL rules: no legal move is checkmate (the side to move loses) or stalemate."""
    if ref.legal_moves(pos):
        return "ongoing"
    k = ref.king_square(pos.board, pos.side)
    if k is not None and ref.attacked(pos.board, k, ref.other(pos.side)):
        return "black-wins" if pos.side == "w" else "white-wins"
    return "draw"


# -- part 1 -------------------------------------------------------------------------------------
def start_positions(ck, deep):
    print("== start positions", flush=True)
    for array in ("text", "diagram"):
        fen = ref.START[array]
        for depth in range(1, 6 if deep else 5):
            ok = ck.compare_divide("start %s" % array, depth, fen, [], array)
            print("  %s divide %d: %s (%d)" % (array, depth, "agree" if ok else "DIFFER",
                                               ck.last_total), flush=True)


# -- part 2 -------------------------------------------------------------------------------------
def suite_checks(ck, max_nodes=MAX_SUITE_NODES, max_depth=3):
    print("== suite checks (%s)" % os.path.relpath(SUITE, ROOT), flush=True)
    text = ck.run(["export", "--format", "jsonl", "--slow", SUITE])
    checks = [json.loads(line) for line in text.splitlines() if line.strip()]
    positions = {}
    skipped = 0
    for c in checks:
        if c.get("alternative") or c["status"] != "normal":
            # none in the suite today; such checks would need their own reading
            ck.fail("%s: status %s / alternative: not handled" % (c["name"], c["status"]))
            continue
        array = c["options"].get("black-array", "text")
        key = (c["fen"], tuple(c["moves"]), array)
        pos = play_all(ref.parse_fen(c["fen"], array), c["moves"])
        name = c["name"]
        depths = positions.setdefault(key, set())
        if c["kind"] == "perft":
            depths.add(c["depth"])
            if c["expected"] > max_nodes:
                skipped += 1
                continue
            ck.expect(name, ref.perft(pos, c["depth"]), c["expected"])
        elif c["kind"] == "divide":
            depths.add(c["depth"])
            ck.expect(name, ref.divide(pos, c["depth"]), c["divide"])
        elif c["kind"] == "legal":
            legal = {t for t, _ in ref.legal_moves(pos)}
            ck.expect(name, sorted(set(c["legal"]) - legal), [])
        elif c["kind"] == "illegal":
            legal = {t for t, _ in ref.legal_moves(pos)}
            ck.expect(name, sorted(set(c["illegal"]) & legal), [])
        elif c["kind"] == "outcome":
            ck.expect(name, outcome(pos), c["expected"])
        else:
            ck.fail("%s: unknown check kind %s" % (name, c["kind"]))
    print("  %d checks, %d positions; %d perft checks over %d nodes not counted here"
          % (len(checks), len(positions), skipped, max_nodes), flush=True)
    for (fen, moves, array), depths in sorted(positions.items()):
        depth = min(max_depth, max(depths | {2}))
        ck.compare_divide("suite position", depth, fen, list(moves), array)
    print("  divides against cvperft: done", flush=True)
    return sorted(positions)


# -- part 3 -------------------------------------------------------------------------------------
def pick(rng, moves):
    """Random legal move, weighted toward the rules we want to reach: castling, promotion,
    en passant, captures."""
    weights = []
    for text, before, after in moves:
        w = 1.0
        frm, to = ref.parse_sq(text[0:2]), ref.parse_sq(text[2:4])
        piece = before.board[frm]
        if piece in "Kk" and abs(frm - to) == 2:
            w = 30.0                       # castling
        elif len(text) == 5:
            w = 20.0                       # promotion
        elif piece in "Pp" and frm % 8 != to % 8 and before.board[to] == ref.EMPTY:
            w = 20.0                       # en passant
        elif before.board[to] != ref.EMPTY:
            w = 4.0                        # capture
        elif piece in "Pp":
            w = 2.0                        # pawns forward, toward promotion
        weights.append(w)
    return rng.choices(moves, weights)[0]


def random_games(ck, games, seed, roots):
    print("== random games: %d games, seed %d" % (games, seed), flush=True)
    rng = random.Random(seed)
    stats = dict(positions=0, castling=0, promotion=0, en_passant=0, dominators=0, in_check=0,
                 mate=0, stalemate=0, plies=0, ep_field=0)
    for game in range(games):
        # even games from the two start positions, odd ones from the other roots in turn
        if game % 2 == 0:
            fen, moves0, array = roots[(game // 2) % 2]
        else:
            fen, moves0, array = roots[2 + (game // 2) % (len(roots) - 2)]
        pos = play_all(ref.parse_fen(fen, array), moves0)
        moves = list(moves0)
        length = rng.randint(10, 80)
        samples = {length, rng.randint(1, length), rng.randint(1, length)}
        for ply in range(1, length + 1):
            legal = [(t, pos, n) for t, n in ref.legal_moves(pos)]
            if not legal:
                # the game is over (mate or stalemate): sample its last position, stop
                if ply - 1 not in samples:
                    check_sample(ck, game, fen, moves, array, pos, stats)
                break
            text, before, after = pick(rng, legal)
            frm, to = ref.parse_sq(text[0:2]), ref.parse_sq(text[2:4])
            piece = before.board[frm]
            if piece in "Kk" and abs(frm - to) == 2:
                stats["castling"] += 1
            if len(text) == 5:
                stats["promotion"] += 1
            if piece in "Pp" and frm % 8 != to % 8 and before.board[to] == ref.EMPTY:
                stats["en_passant"] += 1
            moves.append(text)
            pos = after
            stats["plies"] += 1
            if ply in samples:
                check_sample(ck, game, fen, moves, array, pos, stats)
        if ck.failures:
            break
    print("  " + ", ".join("%s %d" % kv for kv in stats.items()), flush=True)
    return stats


def check_sample(ck, game, fen, moves, array, pos, stats):
    stats["positions"] += 1
    mine_fen = ref.to_fen(pos)
    theirs_fen = ck.cv_fen(fen, moves, array)
    ck.compared += 1
    if mine_fen != theirs_fen:
        ck.fail("game %d after %d plies: FEN reference %s, cvperft %s"
                % (game, len(moves), mine_fen, theirs_fen))
    ck.compare_divide("game %d after %d plies" % (game, len(moves)), 2, fen, moves, array)
    if "D" in pos.board or "d" in pos.board:
        stats["dominators"] += 1
    if pos.ep is not None:
        stats["ep_field"] += 1
    k = ref.king_square(pos.board, pos.side)
    check = k is not None and ref.attacked(pos.board, k, ref.other(pos.side))
    stats["in_check"] += check
    if not ref.legal_moves(pos):
        stats["mate" if check else "stalemate"] += 1


# -- part 4 -------------------------------------------------------------------------------------
# Hand-made probes of the rulings' corners (my own positions, not suite cases), each compared at
# divide 3, and used as extra roots for random games.
PROBES = [
    # PL-4, text array: Black d8->b8 (R a8->c8) and d8->f8 (R h8->e8); White orthodox.
    ("r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "text"),
    ("r2k3r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "text"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "diagram"),
    # g8 attacked (R g1): the text-array King passes e8 and lands on f8, so d8f8 stays legal.
    ("r2k3r/8/8/8/8/8/8/4K1R1 b kq - 0 1", "text"),
    # b8 / c8 attacked: d8b8 illegal under the text array.
    ("r2k3r/8/8/8/8/8/8/1R2K3 b kq - 0 1", "text"),
    ("r2k3r/8/8/8/8/8/8/2R1K3 b kq - 0 1", "text"),
    # b1 attacked, White's e1c1 still legal; e8 attacked: text d8f8 passes it, illegal.
    ("1r1k3r/8/8/8/8/8/4R3/R3K3 w Q - 0 1", "text"),
    ("r2k3r/8/8/8/8/8/8/R3R1K1 b kq - 0 1", "text"),
    # PL-2 Changeling guarding castling squares: f8 is dark (Rook lines), f7 light (none on f1).
    ("4kc2/8/8/8/8/8/8/4K2R w K - 0 1", "diagram"),
    ("4k3/5c2/8/8/8/8/8/4K2R w K - 0 1", "diagram"),
    ("3k4/8/8/8/2c5/8/8/4K2R w K - 0 1", "text"),
    # PL-2 Changeling pinning along a rank: g5 dark (pins), h5 light (does not), after c7c5.
    ("4k3/2p5/8/KP4c1/8/8/8/8 b - - 0 1", "text"),
    ("4k3/2p5/8/KP5c/8/8/8/8 b - - 0 1", "text"),
    # ... and the same for Black's en-passant capture c4xb3 (King a4; Changeling h4 dark, g4 light).
    ("8/8/8/8/kPp4C/8/8/4K3 b - b3 0 1", "text"),
    ("8/8/8/8/kPp3C1/8/8/4K3 b - b3 0 1", "text"),
    # PL-3 Dominator: orthogonal King step gives check; promotion by capture.
    ("3k4/8/3D4/8/8/8/8/K7 b - - 0 1", "text"),      # stalemated by a Dominator
    ("3k4/3D4/8/8/8/8/8/K7 b - - 0 1", "text"),
    ("1n2k3/P1P5/8/8/8/8/5p1p/3K2N1 w - - 0 1", "text"),
    ("1n2k3/P1P5/8/8/8/8/5p1p/3K2N1 b - - 0 1", "diagram"),
    # Changelings and Dominators everywhere.
    ("c2k3c/8/D4d2/8/8/2C2c2/8/C2K3C w - - 0 1", "text"),
    ("r1ck1c1r/8/8/3C4/4c3/8/8/R1C1K1CR w KQkq - 0 1", "text"),
]


def probes(ck):
    print("== probes", flush=True)
    for fen, array in PROBES:
        ok = ck.compare_divide("probe", 3, fen, [], array)
        print("  %-48s %-7s divide 3: %s (%d)" % (fen, array, "agree" if ok else "DIFFER",
                                                  ck.last_total), flush=True)
    return [(fen, (), array) for fen, array in PROBES]


# -- part 5 -------------------------------------------------------------------------------------
def random_fen(rng):
    """A random legal-looking Plutonian position: both Kings, up to 7 other pieces a side
    (Changelings and Dominators weighted up), castling rights where King and Rook stand at home,
    sometimes an en-passant square behind a pawn that could just have double-stepped."""
    array = rng.choice(("text", "diagram"))
    while True:
        board = [ref.EMPTY] * 64
        free = list(range(64))
        rng.shuffle(free)
        board[free.pop()] = "K"
        board[free.pop()] = "k"
        for side in "wb":
            for _ in range(rng.randint(0, 7)):
                piece = rng.choice("QRRNCCCDDPPPP")
                sq = free.pop()
                if piece == "P" and sq // 8 in (0, 7):
                    continue
                board[sq] = piece if side == "w" else piece.lower()
        pos = ref.parse_fen("8/8/8/8/8/8/8/8 w - - 0 1", array)
        pos.board = board
        pos.side = rng.choice("wb")
        rights = ""
        for right, (k_from, _, r_from, _, _) in sorted(pos.castles.items()):
            k, r = ("K", "R") if right.isupper() else ("k", "r")
            if board[k_from] == k and board[r_from] == r and rng.random() < 0.8:
                rights += right
        pos.castling = "".join(sorted(rights, key="KQkq".index))
        mover_pawn, forward = ("p", -8) if pos.side == "w" else ("P", 8)
        fourth = 4 if pos.side == "w" else 3  # rank index where the last mover's pawn lands
        candidates = [sq for sq in range(64) if board[sq] == mover_pawn and sq // 8 == fourth
                      and board[sq - forward] == ref.EMPTY and board[sq - 2 * forward] == ref.EMPTY]
        if candidates and rng.random() < 0.7:
            pos.ep = rng.choice(candidates) - forward
        k = ref.king_square(board, ref.other(pos.side))
        if ref.attacked(board, k, pos.side):
            continue  # the side not to move may not be in check
        return ref.to_fen(pos), array


def random_positions(ck, count, seed):
    print("== random positions: %d, seed %d" % (count, seed), flush=True)
    rng = random.Random(seed)
    refused = 0
    done = 0
    while done < count:
        fen, array = random_fen(rng)
        try:
            ck.cv_fen(fen, [], array)
        except RuntimeError:
            refused += 1   # cvperft's FEN validation refuses it (e.g. an impossible check)
            continue
        done += 1
        pos = ref.parse_fen(fen, array)
        depth = 3 if len(ref.legal_moves(pos)) < 25 else 2
        if not ck.compare_divide("random position %d" % done, depth, fen, [], array):
            break
    print("  %d positions compared, %d refused by cvperft's FEN check" % (done, refused), flush=True)


def find_cvperft(given):
    if given:  # an explicit path is used or refused, never replaced by a fallback
        return given if os.path.isfile(given) and os.access(given, os.X_OK) else no_cvperft()
    for candidate in (os.environ.get("CVPERFT"),
                      os.path.join(ROOT, "target", "release", "cvperft"), shutil.which("cvperft")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return no_cvperft()


def no_cvperft():
    print("plutonian-crosscheck: no cvperft binary (give --cvperft PATH or set CVPERFT)",
          file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cvperft")
    parser.add_argument("--games", type=int, default=130)
    parser.add_argument("--positions", type=int, default=300, help="random FEN positions")
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--deep", action="store_true", help="also divide 5 of the start positions")
    parser.add_argument("--quick", action="store_true", help="start positions only to depth 3")
    parser.add_argument("--suite-nodes", type=int, default=MAX_SUITE_NODES,
                        help="largest suite perft count checked in Python (default 2,000,000)")
    parser.add_argument("--suite-depth", type=int, default=3,
                        help="deepest divide of each suite position against cvperft (default 3)")
    parser.add_argument("--reference", help="another copy of plutonian-reference.py (to test "
                        "that this script catches a deliberately broken generator)")
    args = parser.parse_args()
    if args.reference:
        global ref
        ref = load_reference(args.reference)
    ck = Checker(find_cvperft(args.cvperft))
    print("cvperft: " + ck.cvperft, flush=True)
    if args.quick:
        for array in ("text", "diagram"):
            for depth in (1, 2, 3):
                ck.compare_divide("start %s" % array, depth, ref.START[array], [], array)
    else:
        start_positions(ck, args.deep)
    suite_positions = [] if ck.failures else suite_checks(ck, args.suite_nodes, args.suite_depth)
    if not ck.failures:
        roots = [(ref.START["text"], (), "text"), (ref.START["diagram"], (), "diagram")]
        roots += probes(ck)
        # suite positions with at least 8 legal moves and both Kings make varied roots
        for fen, moves, array in suite_positions:
            pos = play_all(ref.parse_fen(fen, array), moves)
            if len(ref.legal_moves(pos)) >= 8 and (fen, moves, array) not in roots:
                roots.append((fen, moves, array))
        print("  %d roots for random games" % len(roots), flush=True)
        random_games(ck, args.games, args.seed, roots)
    if not ck.failures:
        random_positions(ck, args.positions, args.seed + 1)
    print("compared %d divides, FENs and suite checks; %d disagreements"
          % (ck.compared, len(ck.failures)))
    if ck.failures:
        print("first disagreement: " + ck.failures[0])
        return 1
    return 0


def run_main():
    try:
        return main()
    except RuntimeError as err:
        # cvperft itself failed (a crash, a refused FEN): not a disagreement, so exit 2, not 1
        print("plutonian-crosscheck: %s" % err, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(run_main())
