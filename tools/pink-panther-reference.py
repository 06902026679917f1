#!/usr/bin/env python3
"""A second Pink Panther Chess move generator, written clean-room from RULES.md (PP-1..PP-10,
GE-1) and the Chess Variant Pages article (seed 000), not from cvperft's code or rule page.
It shares no code with cvperft, but it is this project's code and one more reading of the
rulings: its agreement is a cross-check, not a public source (docs/records.md).

usage: pink-panther-reference.py [-o medinese=win|continue] [-o game-end=rules|movegen]
                                 divide|perft|fen|moves DEPTH FEN [MOVES...]

  divide D FEN [MOVES...]   `move count` per root move (sorted), a blank line, the total
  perft  D FEN [MOVES...]   the leaf count alone
  fen    0 FEN [MOVES...]   the position after MOVES as FEN (board, side and the `- -` fields)
  moves  0 FEN [MOVES...]   the legal moves, one a line
  outcome 0 FEN [MOVES...]  white-wins, black-wins, draw or ongoing (GE-1)

FEN is the "Common ground" FEN of RULES.md with the PP-1 additions: `*` is the unclaimed Pink
Panther (PP) on an empty square, `+X` a piece X carrying it. Moves are coordinate notation
(`d2c3`, promotions `c6c7r` / `d6d7q`); the promotion letter is written in lower case for
either side and names the plain piece (PP-8: whether the result carries the PP follows from the
move, not from the letter).

Reading of the rules, in short (each part of the code cites the ruling it implements):
  * Ordinary moves (PP-2, PP-3) never enter the PP square (PP-4): not the `*` square, not a
    carrier's square (a carrier cannot be captured); sliders stop before it.
  * Jump moves (PP-5, PP-6) have the geometry of the *plain* piece's "move over the PP square":
    Rook/Bishop slide through one square, General (0,2), Knight (2,4), Pawn 2 forward to an
    empty square or 2 diagonally forward onto an enemy. A plain R/B/N/G/P jumps over the PP
    square (`*`, or a carrier of either side) and ends carrying the PP; the jumped carrier
    becomes plain. A carrier jumps over an allied plain piece (not Princess/Queen) and hands it
    the PP, ending plain itself. Landing square: empty or an enemy, which is captured.
  * Check (PP-7): a plain General is attacked when any enemy move, jumps included, could land
    on it. A move is legal when afterwards the mover's General is a King or not attacked.
  * Promotion (PP-8) compulsory; marriage (PP-9) ends the game; no castling, no en passant.
"""
import sys

N = 7                      # PP-1: 7x7 board, files a-g, ranks 1-7
FILES = "abcdefg"
PROMO_LETTERS = "rbn"      # PP-8: Pawn / Silvergeneral promotion choices

WAZIR = [(1, 0), (-1, 0), (0, 1), (0, -1)]
FERZ = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
CAMEL = [(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)]


def on_board(x, y):
    return 0 <= x < N and 0 <= y < N


def sq_name(sq):
    return FILES[sq % N] + str(sq // N + 1)


def parse_sq(text):
    return (int(text[1:]) - 1) * N + FILES.index(text[0])


# A square holds None (empty), "*" (the unclaimed PP, PP-1), or a piece: its letter (upper case
# White, lower case Black), prefixed by "+" when it carries the PP.
def colour(p):
    """'w' or 'b' for a piece, None for an empty square or the unclaimed PP."""
    if p is None or p == "*":
        return None
    return "w" if p[-1].isupper() else "b"


def is_carrier(p):
    return p is not None and p[0] == "+"


def kind(p):
    """The plain piece's letter in upper case: G, I, R, B, N, P, Q."""
    return p[-1].upper()


def make_piece(letter, side, carrier):
    letter = letter.upper() if side == "w" else letter.lower()
    return "+" + letter if carrier else letter


def other(side):
    return "b" if side == "w" else "w"


class Position:
    def __init__(self, board, side):
        self.board = board     # list of N*N squares, index rank*N + file, rank 0 = rank 1
        self.side = side

    @staticmethod
    def from_fen(fen):
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != N:
            raise ValueError("expected %d ranks" % N)
        board = [None] * (N * N)
        for i, row in enumerate(rows):
            y = N - 1 - i
            x = 0
            j = 0
            while j < len(row):
                ch = row[j]
                if ch.isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    x += int(row[j:k])
                    j = k
                    continue
                if ch == "+":                       # PP-1: `+X` is X carrying the PP
                    board[y * N + x] = "+" + row[j + 1]
                    j += 2
                else:
                    board[y * N + x] = ch
                    j += 1
                x += 1
            if x != N:
                raise ValueError("rank %d has %d files" % (y + 1, x))
        side = fields[1] if len(fields) > 1 else "w"
        return Position(board, side)

    def fen_board(self):
        rows = []
        for y in range(N - 1, -1, -1):
            row = ""
            empty = 0
            for x in range(N):
                p = self.board[y * N + x]
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def fen(self):
        return "%s %s - -" % (self.fen_board(), self.side)


# ---------------------------------------------------------------------------------------------
# Pseudo-legal moves.  A move is (from, to, promotion letter or "", resulting board).
# ---------------------------------------------------------------------------------------------

def pp_square(board):
    """The PP square (PP-4): the `*` square or the carrier's square."""
    for sq, p in enumerate(board):
        if p is not None and (p == "*" or p[0] == "+"):
            return sq
    return None


def can_land(board, sq, side):
    """An ordinary move may end on an empty square or capture an enemy; never on the PP square
    (PP-4: neither the `*` nor a carrier, which cannot be captured, PP-3)."""
    p = board[sq]
    if p is None:
        return True
    if p == "*" or p[0] == "+":
        return False
    return colour(p) != side


def ordinary_targets(board, sq, p):
    """Destination squares of the ordinary (non-jump) moves of piece p on sq: PP-2, PP-3.
    Pawn forward steps are moves only, Pawn diagonal steps captures only; everything else moves
    and captures alike."""
    side = colour(p)
    fwd = 1 if side == "w" else -1
    x, y = sq % N, sq // N
    t = kind(p)
    carrier = is_carrier(p)
    steps = []
    rides = []
    out = []
    if t == "P" and not carrier:
        # PP-2 Pawn: one step forward to an empty square, captures one step diagonally forward.
        if on_board(x, y + fwd) and board[(y + fwd) * N + x] is None:
            out.append((y + fwd) * N + x)
        for dx in (-1, 1):
            if on_board(x + dx, y + fwd):
                q = board[(y + fwd) * N + x + dx]
                if q is not None and q != "*" and q[0] != "+" and colour(q) != side:
                    out.append((y + fwd) * N + x + dx)
        return out
    if t == "G":
        steps = WAZIR + FERZ if carrier else WAZIR      # PP-2 General / PP-3 King
    elif t == "I":
        rides = [(0, fwd), (1, fwd), (-1, fwd)]         # PP-2 Princess fRfB
    elif t == "Q":
        rides = WAZIR + FERZ                            # PP-2 Queen
    elif t == "R":
        rides = WAZIR
        if carrier:
            steps = FERZ                                # PP-3 Chatelaine = Rook + ferz step
    elif t == "B":
        rides = FERZ
        if carrier:
            steps = WAZIR                               # PP-3 Primate = Bishop + wazir step
    elif t == "N":
        steps = KNIGHT + CAMEL if carrier else KNIGHT   # PP-3 Gnu = Knight + Camel
    elif t == "P":                                      # carrier: PP-3 Silvergeneral
        steps = FERZ + [(0, fwd)]
    for dx, dy in steps:
        if on_board(x + dx, y + dy):
            to = (y + dy) * N + x + dx
            if can_land(board, to, side):
                out.append(to)
    for dx, dy in rides:
        cx, cy = x + dx, y + dy
        while on_board(cx, cy):
            to = cy * N + cx
            if board[to] is None:
                out.append(to)
            else:
                if can_land(board, to, side):           # PP-4: stop before the PP square
                    out.append(to)
                break
            cx += dx
            cy += dy
    return out


def can_be_jumped(board, mid, side, mover_is_carrier):
    """Whether the square jumped over qualifies.
    PP-5 (plain mover): the PP square, i.e. the `*` or a carrier of either side.
    PP-6 (carrier mover): an allied plain piece that is not a Princess or Queen."""
    q = board[mid]
    if q is None:
        return False
    if not mover_is_carrier:
        return q == "*" or q[0] == "+"
    return q != "*" and q[0] != "+" and colour(q) == side and kind(q) not in "IQ"


def jump_targets(board, sq, p):
    """PP-5 / PP-6 jump moves of piece p on sq: a list of (jumped square, landing square).
    The geometry is the plain piece's move 'over the PP square' (PP-5): Rook/Bishop an ordinary
    slide through it (every other square of the path empty), Knight (2,4) with the jumped square
    at the midpoint, General (0,2), Pawn two forward onto an empty square or two diagonally
    forward onto an enemy. Princess and Queen have none (PP-3, PP-6)."""
    side = colour(p)
    fwd = 1 if side == "w" else -1
    x, y = sq % N, sq // N
    t = kind(p)
    carrier = is_carrier(p)
    out = []

    def landing_ok(to):
        # PP-5/PP-6: the landing square is empty or holds an enemy, which is captured. (It cannot
        # hold the PP: the one PP is on the jumped square or on the mover.)
        q = board[to]
        return q is None or (q != "*" and q[0] != "+" and colour(q) != side)

    if t in "RB":
        for dx, dy in (WAZIR if t == "R" else FERZ):
            cx, cy = x + dx, y + dy
            while on_board(cx, cy) and board[cy * N + cx] is None:
                cx += dx
                cy += dy
            if not on_board(cx, cy):
                continue
            mid = cy * N + cx                          # the first occupied square of the path
            if not can_be_jumped(board, mid, side, carrier):
                continue        # PP-6: a carrier meeting an enemy captures it (ordinary move)
            cx += dx
            cy += dy
            while on_board(cx, cy):                    # beyond it: every empty square, or
                to = cy * N + cx                       # the first piece if it is an enemy
                if board[to] is None:
                    out.append((mid, to))
                else:
                    if landing_ok(to):
                        out.append((mid, to))
                    break
                cx += dx
                cy += dy
    elif t in "NG":
        for dx, dy in (KNIGHT if t == "N" else WAZIR):
            if not on_board(x + 2 * dx, y + 2 * dy):
                continue
            mid = (y + dy) * N + x + dx
            to = (y + 2 * dy) * N + x + 2 * dx
            if can_be_jumped(board, mid, side, carrier) and landing_ok(to):
                out.append((mid, to))
    elif t == "P":
        if on_board(x, y + 2 * fwd):                   # two straight forward, to an empty square
            mid = (y + fwd) * N + x
            to = (y + 2 * fwd) * N + x
            if can_be_jumped(board, mid, side, carrier) and board[to] is None:
                out.append((mid, to))
        for dx in (-1, 1):                             # two diagonally forward, onto an enemy
            if on_board(x + 2 * dx, y + 2 * fwd):
                mid = (y + fwd) * N + x + dx
                to = (y + 2 * fwd) * N + x + 2 * dx
                q = board[to]
                if (can_be_jumped(board, mid, side, carrier) and q is not None and q != "*"
                        and q[0] != "+" and colour(q) != side):
                    out.append((mid, to))
    return out


def pseudo_moves(board, side):
    """Every move of `side` ignoring PP-7, with the board after it."""
    last_rank = N - 1 if side == "w" else 0
    moves = []
    for sq in range(N * N):
        p = board[sq]
        if p is None or p == "*" or colour(p) != side:
            continue
        t = kind(p)
        carrier = is_carrier(p)
        # Ordinary moves: the piece keeps its state (PP-2, PP-3).
        for to in ordinary_targets(board, sq, p):
            nb = board[:]
            nb[sq] = None
            if to // N == last_rank and t in "PI":
                if t == "I":
                    # PP-8: Princess -> Queen.
                    nb[to] = make_piece("Q", side, False)
                    moves.append((sq, to, "q", nb))
                else:
                    # PP-8: Pawn -> plain R/B/N; Silvergeneral -> Chatelaine/Primate/Gnu.
                    for letter in PROMO_LETTERS:
                        nb2 = nb[:]
                        nb2[to] = make_piece(letter, side, carrier)
                        moves.append((sq, to, letter, nb2))
            else:
                nb[to] = p
                moves.append((sq, to, "", nb))
        # Jump moves: PP-5 (plain mover acquires) and PP-6 (carrier passes to the jumped ally).
        for mid, to in jump_targets(board, sq, p):
            nb = board[:]
            nb[sq] = None
            jumped = board[mid]
            if carrier:
                nb[mid] = "+" + jumped                 # PP-6: the ally becomes a carrier ...
                mover_carries = False                  # ... and the mover its plain piece
            else:
                nb[mid] = None if jumped == "*" else jumped[1:]   # PP-5: robbed, not captured
                mover_carries = True
            if to // N == last_rank and t == "P":
                # PP-8: a Pawn acquiring on the last rank promotes to a carrier form; a
                # Silvergeneral passing it on is a Pawn there and promotes to a plain piece.
                for letter in PROMO_LETTERS:
                    nb2 = nb[:]
                    nb2[to] = make_piece(letter, side, mover_carries)
                    moves.append((sq, to, letter, nb2))
            else:
                nb[to] = make_piece(t, side, mover_carries)
                moves.append((sq, to, "", nb))
    return moves


# ---------------------------------------------------------------------------------------------
# Check and legality: PP-7.
# ---------------------------------------------------------------------------------------------

def general_square(board, side):
    """The square of `side`'s General or King, and whether it is a King (carries the PP)."""
    g = "G" if side == "w" else "g"
    for sq, p in enumerate(board):
        if p == g:
            return sq, False
        if p == "+" + g:
            return sq, True
    return None, False


def attacked(board, target, by):
    """PP-7: could any move of side `by` (ordinary or jump, pins ignored) capture on `target`?
    Implemented literally: generate `by`'s pseudo moves and look for one landing there."""
    for sq in range(N * N):
        p = board[sq]
        if p is None or p == "*" or colour(p) != by:
            continue
        if target in ordinary_targets(board, sq, p):
            return True
        for _, to in jump_targets(board, sq, p):
            if to == target:
                return True
    return False


def in_check(board, side):
    sq, is_king = general_square(board, side)
    return sq is not None and not is_king and attacked(board, sq, other(side))


# ---------------------------------------------------------------------------------------------
# Game end: GE-1 and PP-9 (marriage); PP-10 mate / stalemate are simply "no legal move".
# ---------------------------------------------------------------------------------------------

def adjacent_queens(board, side):
    """Squares of `side`'s Queens next to (8 squares) `side`'s King; None if no King."""
    sq, is_king = general_square(board, side)
    if sq is None or not is_king:
        return None
    q = make_piece("Q", side, False)
    x, y = sq % N, sq // N
    return [(y + dy) * N + x + dx for dx, dy in WAZIR + FERZ
            if on_board(x + dx, y + dy) and board[(y + dy) * N + x + dx] == q]


def married(board, side):
    qs = adjacent_queens(board, side)
    return bool(qs)


class Options:
    def __init__(self):
        self.medinese = "win"
        self.game_end = "rules"


def legal_moves_raw(pos):
    """Moves obeying PP-7 only: [(text, Position)], text `from to [promotion]`."""
    out = []
    for fr, to, promo, nb in pseudo_moves(pos.board, pos.side):
        if in_check(nb, pos.side):
            continue
        out.append((sq_name(fr) + sq_name(to) + promo, Position(nb, other(pos.side))))
    return out


def game_over(pos, opts):
    """GE-1 `rules`: a decided position has no moves. PP-9 marriage decides:
    medinese=win: the side *not* to move is married (its last move ended with its King next to
    its Queen) -> over.  (A side to move that is married is not over: it cannot arise in play.)
    medinese=continue (BK-6 as amended by PP-9): the side to move being married is its win;
    the side not to move being married is over unless the side to move has a legal capture of
    the Queen (when exactly one is adjacent) or a legal move that robs the King."""
    if opts.game_end != "rules":
        return False
    me, them = pos.side, other(pos.side)
    if opts.medinese == "win":
        return married(pos.board, them)
    if married(pos.board, me):
        return True
    qs = adjacent_queens(pos.board, them)
    if not qs:
        return False
    king_sq, _ = general_square(pos.board, them)
    for text, after in legal_moves_raw(pos):
        to = parse_sq(text[2:4])
        if len(qs) == 1 and to == qs[0]:
            return False                               # the Queen can be captured
        if not is_carrier(after.board[king_sq]):
            return False                               # the King can be robbed
    return True


def outcome(pos, opts):
    """GE-1 outcome of a position: white-wins, black-wins, draw or ongoing (PP-9, PP-10)."""
    wins = {"w": "white-wins", "b": "black-wins"}
    me, them = pos.side, other(pos.side)
    if opts.game_end == "rules" and game_over(pos, opts):
        if opts.medinese == "continue" and married(pos.board, me):
            return wins[me]
        return wins[them]                              # PP-9: the married side has won
    if legal_moves_raw(pos):
        return "ongoing"
    return wins[them] if in_check(pos.board, me) else "draw"   # PP-10 mate / stalemate


def legal_moves(pos, opts):
    if game_over(pos, opts):
        return []
    return legal_moves_raw(pos)


def perft(pos, depth, opts):
    if depth == 0:
        return 1
    moves = legal_moves(pos, opts)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1, opts) for _, after in moves)


def normalise(text):
    """Move text as this tool prints it: squares, then the promotion letter in lower case."""
    return text.strip().lower()


def play(pos, text, opts):
    text = normalise(text)
    for t, after in legal_moves(pos, opts):
        if t == text:
            return after
    raise SystemExit("illegal move %s in %s" % (text, pos.fen()))


def main(argv):
    opts = Options()
    args = list(argv)
    while args and args[0] == "-o":
        name, value = args[1].split("=", 1)
        if name == "medinese" and value in ("win", "continue"):
            opts.medinese = value
        elif name == "game-end" and value in ("rules", "movegen"):
            opts.game_end = value
        else:
            raise SystemExit("unknown option " + args[1])
        args = args[2:]
    if len(args) < 3:
        raise SystemExit(__doc__)
    cmd, depth, fen = args[0], int(args[1]), args[2]
    pos = Position.from_fen(fen)
    for mv in " ".join(args[3:]).split():
        pos = play(pos, mv, opts)
    if cmd == "perft":
        print(perft(pos, depth, opts))
    elif cmd == "divide":
        total = 0
        for text, after in sorted(legal_moves(pos, opts)):
            c = perft(after, depth - 1, opts)
            total += c
            print(text, c)
        print()
        print(total)
    elif cmd == "fen":
        print(pos.fen())
    elif cmd == "outcome":
        print(outcome(pos, opts))
    elif cmd == "moves":
        for text, _ in sorted(legal_moves(pos, opts)):
            print(text)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
