#!/usr/bin/env python3
"""A second Plutonian Chess move generator, written clean-room from RULES.md PL-1..PL-4
(plus "Common ground" and GE-1) and the Chess Variant Pages article (seeds/004), never from
cvperft's code or rules page. It exists to cross-check cvperft's Plutonian perft counts; it
shares no code with cvperft, but it is this project's code and one more reading of the
rulings, so its agreement is not a public source (docs/records.md).

usage: plutonian-reference.py [-o black-array=text|diagram] divide|perft|fen|moves DEPTH FEN [MOVES...]

  divide DEPTH FEN [MOVES...]   `move count` per root move (sorted), a blank line, the total
  perft  DEPTH FEN [MOVES...]   the total alone
  fen    0     FEN [MOVES...]   the FEN after the moves
  moves  0     FEN [MOVES...]   the legal moves, one a line

FEN may be `start` for the start position of the chosen array. `-o game-end=rules|movegen` is
accepted and has no effect: Plutonian has no decisive rule beyond mate and stalemate (GE-1).
Standard library only.

Readings this file had to make (none taken from cvperft's code or rules page):
- Move spelling (`e7e8d` for the forced Dominator promotion, castling as the King's move) was
  taken from RULES.md "Common ground" and checked against `cvperft divide 1` output.
- PL-4 castling keeps every FIDE condition: all squares strictly between King and Rook empty;
  King not in check, not passing over, not landing on an attacked square. So under the text
  array Black's d8f8 needs e8, f8, g8 empty but only d8, e8, f8 safe; d8b8 needs b8, c8 empty
  and d8, c8, b8 safe; White's e1c1 does not care whether b1 is attacked.
- A castling right is usable only with that King and Rook on their PL-4 squares; rights are
  dropped when a move leaves or lands on either square (cvperft's FEN parser refuses rights
  without them, so such FENs never reach the comparison).
- PL-2: the Changeling's square colour is read before the move, for moves and for attacks
  (check, castling squares, pins): a Changeling on a dark square pins along ranks and files,
  one on a light square along diagonals.
"""
import sys

# ---------------------------------------------------------------------------------------------
# Geometry. Squares are numbered y*8 + x, x = file (a=0), y = rank (rank 1 = 0).
# Common ground: a1 is dark; (file f, rank r) counting from 1 is light when f+r is odd, i.e.
# with 0-based x, y: light when x+y is odd.
# ---------------------------------------------------------------------------------------------
FILES = "abcdefgh"
EMPTY = "."


def sq_of(x, y):
    return y * 8 + x


def sq_name(sq):
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_sq(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError("bad square " + text)
    return sq_of(FILES.index(text[0]), int(text[1]) - 1)


def is_light(sq):
    return (sq % 8 + sq // 8) % 2 == 1


KNIGHT_OFFSETS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHOGONALS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def _leaps(offsets):
    table = []
    for sq in range(64):
        x, y = sq % 8, sq // 8
        table.append([sq_of(x + dx, y + dy) for dx, dy in offsets
                      if 0 <= x + dx < 8 and 0 <= y + dy < 8])
    return table


def _rays(directions):
    table = []
    for sq in range(64):
        x, y = sq % 8, sq // 8
        rays = []
        for dx, dy in directions:
            ray, cx, cy = [], x + dx, y + dy
            while 0 <= cx < 8 and 0 <= cy < 8:
                ray.append(sq_of(cx, cy))
                cx += dx
                cy += dy
            rays.append(ray)
        table.append(rays)
    return table


KNIGHT = _leaps(KNIGHT_OFFSETS)
KING = _leaps(DIAGONALS + ORTHOGONALS)
KING_ORTHOGONAL = _leaps(ORTHOGONALS)
DIAGONAL_RAYS = _rays(DIAGONALS)
ORTHOGONAL_RAYS = _rays(ORTHOGONALS)
LIGHT = [is_light(sq) for sq in range(64)]


def colour_of(piece):
    return "w" if piece.isupper() else "b"


def other(side):
    return "b" if side == "w" else "w"


# ---------------------------------------------------------------------------------------------
# PL-1 arrays and PL-4 castling geometry.
# ---------------------------------------------------------------------------------------------
START = {
    "text": "rcckqnnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1",
    "diagram": "rccqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKCCR w KQkq - 0 1",
}


def castling_table(array):
    """PL-4: right letter -> (king from, king to, rook from, rook to, squares between K and R).
    `K`/`k` name the Rook on the h side, `Q`/`q` the Rook on the a side (Common ground)."""
    s = parse_sq
    table = {
        "K": (s("e1"), s("g1"), s("h1"), s("f1"), [s("f1"), s("g1")]),
        "Q": (s("e1"), s("c1"), s("a1"), s("d1"), [s("b1"), s("c1"), s("d1")]),
    }
    if array == "text":
        # Black King d8: d8->f8 with R h8->e8, d8->b8 with R a8->c8.
        table["k"] = (s("d8"), s("f8"), s("h8"), s("e8"), [s("e8"), s("f8"), s("g8")])
        table["q"] = (s("d8"), s("b8"), s("a8"), s("c8"), [s("b8"), s("c8")])
    else:
        # diagram array: orthodox (King e8).
        table["k"] = (s("e8"), s("g8"), s("h8"), s("f8"), [s("f8"), s("g8")])
        table["q"] = (s("e8"), s("c8"), s("a8"), s("d8"), [s("b8"), s("c8"), s("d8")])
    return table


# ---------------------------------------------------------------------------------------------
# Position and FEN (Common ground).
# ---------------------------------------------------------------------------------------------
class Position:
    __slots__ = ("board", "side", "castling", "ep", "halfmove", "fullmove", "array", "castles")

    def copy(self):
        p = Position.__new__(Position)
        p.board = self.board[:]
        p.side, p.castling, p.ep = self.side, self.castling, self.ep
        p.halfmove, p.fullmove = self.halfmove, self.fullmove
        p.array, p.castles = self.array, self.castles
        return p


def parse_fen(fen, array="text"):
    if fen == "start":
        fen = START[array]
    fields = fen.split()
    placement = fields[0]
    if "[" in placement:  # pieces in hand: Plutonian has none, but accept an empty `[]`
        placement, hand = placement.split("[", 1)
        if hand.rstrip("]"):
            raise ValueError("Plutonian has no pieces in hand: " + hand)
    rows = placement.split("/")
    if len(rows) != 8:
        raise ValueError("need 8 ranks")
    board = [EMPTY] * 64
    for i, row in enumerate(rows):
        y, x, number = 7 - i, 0, ""
        for ch in row + " ":
            if ch.isdigit():
                number += ch
                continue
            if number:
                x += int(number)
                number = ""
            if ch == " ":
                break
            if ch.upper() not in "KQRBNPCD":
                raise ValueError("unknown piece " + ch)
            board[sq_of(x, y)] = ch
            x += 1
        if x != 8:
            raise ValueError("rank %d has %d files" % (8 - i, x))
    p = Position()
    p.board = board
    p.side = fields[1] if len(fields) > 1 else "w"
    p.castling = "" if len(fields) < 3 or fields[2] == "-" else fields[2]
    p.ep = None if len(fields) < 4 or fields[3] == "-" else parse_sq(fields[3])
    p.halfmove = int(fields[4]) if len(fields) > 4 else 0
    p.fullmove = int(fields[5]) if len(fields) > 5 else 1
    p.array = array
    p.castles = castling_table(array)
    return p


def to_fen(p):
    rows = []
    for y in range(7, -1, -1):
        row, run = "", 0
        for x in range(8):
            piece = p.board[sq_of(x, y)]
            if piece == EMPTY:
                run += 1
            else:
                if run:
                    row += str(run)
                    run = 0
                row += piece
        if run:
            row += str(run)
        rows.append(row)
    ep = "-" if p.ep is None else sq_name(p.ep)
    return "%s %s %s %s %d %d" % ("/".join(rows), p.side, p.castling or "-", ep,
                                  p.halfmove, p.fullmove)


# ---------------------------------------------------------------------------------------------
# Attacks. Orthodox pieces as FIDE; PL-2 Changeling (C): Bishop+Knight from a light square,
# Rook+Knight from a dark square, the square it stands on deciding; PL-3 Dominator (D):
# Bishop + Knight + King step.
# ---------------------------------------------------------------------------------------------
def attacked(board, target, by):
    """Is `target` attacked by a piece of colour `by`? Scans outward from the target."""
    if by == "w":
        knightish, kingish, pawn = "NCD", "KD", "P"
        diag, orth, changeling = "BQD", "RQ", "C"
        pawn_from = target - 8  # a White pawn attacks up: it stands one rank lower
    else:
        knightish, kingish, pawn = "ncd", "kd", "p"
        diag, orth, changeling = "bqd", "rq", "c"
        pawn_from = target + 8
    for s in KNIGHT[target]:
        if board[s] in knightish:
            return True
    for s in KING[target]:
        if board[s] in kingish:
            return True
    if 0 <= pawn_from < 64:
        x = target % 8
        if x > 0 and board[pawn_from - 1] == pawn:
            return True
        if x < 7 and board[pawn_from + 1] == pawn:
            return True
    for ray in DIAGONAL_RAYS[target]:
        for s in ray:
            piece = board[s]
            if piece != EMPTY:
                if piece in diag or (piece == changeling and LIGHT[s]):
                    return True
                break
    for ray in ORTHOGONAL_RAYS[target]:
        for s in ray:
            piece = board[s]
            if piece != EMPTY:
                if piece in orth or (piece == changeling and not LIGHT[s]):
                    return True
                break
    return False


def king_square(board, side):
    king = "K" if side == "w" else "k"
    try:
        return board.index(king)
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# Move generation. A move is (from, to, promotion letter or "", kind) with kind one of
# "normal", "double" (pawn double step), "ep" (en passant), or a castling right letter.
# ---------------------------------------------------------------------------------------------
def _slides(board, sq, rays, side, out):
    for ray in rays[sq]:
        for s in ray:
            piece = board[s]
            if piece == EMPTY:
                out.append(s)
            else:
                if colour_of(piece) != side:
                    out.append(s)
                break


def destinations(board, sq, piece, side):
    """Destination squares of a non-pawn, non-castling move (empty or enemy-occupied)."""
    kind = piece.upper()
    out = []
    if kind in "NCD":
        out += KNIGHT[sq]
    if kind == "K":
        out += KING[sq]
    if kind == "D":
        out += KING_ORTHOGONAL[sq]  # the diagonal King steps are already Bishop moves (PL-3)
    targets = [s for s in out if board[s] == EMPTY or colour_of(board[s]) != side]
    if kind in "BQD" or (kind == "C" and LIGHT[sq]):
        _slides(board, sq, DIAGONAL_RAYS, side, targets)
    if kind in "RQ" or (kind == "C" and not LIGHT[sq]):
        _slides(board, sq, ORTHOGONAL_RAYS, side, targets)
    return targets


def pseudo_moves(p):
    board, side = p.board, p.side
    moves = []
    forward = 8 if side == "w" else -8
    start_rank = 1 if side == "w" else 6
    last_rank = 7 if side == "w" else 0
    for sq in range(64):
        piece = board[sq]
        if piece == EMPTY or colour_of(piece) != side:
            continue
        if piece in "Pp":
            # Pawns as FIDE; PL-3: a pawn reaching the last rank always becomes a Dominator.
            x, y = sq % 8, sq // 8
            one = sq + forward
            targets = []
            if board[one] == EMPTY:
                targets.append((one, "normal"))
                two = one + forward
                if y == start_rank and board[two] == EMPTY:
                    targets.append((two, "double"))
            for dx in (-1, 1):
                if 0 <= x + dx < 8:
                    t = one + dx
                    if board[t] != EMPTY and colour_of(board[t]) != side:
                        targets.append((t, "normal"))
                    elif t == p.ep and board[t] == EMPTY:
                        victim = t - forward
                        if board[victim] == ("p" if side == "w" else "P"):
                            targets.append((t, "ep"))
            for t, kind in targets:
                promo = "d" if t // 8 == last_rank else ""
                moves.append((sq, t, promo, kind))
            continue
        for t in destinations(board, sq, piece, side):
            moves.append((sq, t, "", "normal"))
    moves += castling_moves(p)
    return moves


def castling_moves(p):
    """PL-4: King two squares toward the Rook, the Rook to the square passed. FIDE conditions:
    the right is held (King and that Rook unmoved), both stand on their squares, every square
    between them is empty, the King is not in check, does not pass over nor land on an attacked
    square."""
    out = []
    board, side = p.board, p.side
    enemy = other(side)
    for right in p.castling:
        if colour_of(right) != side or right not in p.castles:
            continue
        k_from, k_to, r_from, r_to, between = p.castles[right]
        if board[k_from] != ("K" if side == "w" else "k"):
            continue
        if board[r_from] != ("R" if side == "w" else "r"):
            continue
        if any(board[s] != EMPTY for s in between):
            continue
        step = 1 if k_to > k_from else -1
        path = [k_from, k_from + step, k_to]  # start, passed square, landing square
        if any(attacked(board, s, enemy) for s in path):
            continue
        out.append((k_from, k_to, "", right))
    return out


def make(p, move):
    """The position after a pseudo-legal move (copy-make)."""
    frm, to, promo, kind = move
    n = p.copy()
    board = n.board
    piece = board[frm]
    captured = board[to]
    board[frm] = EMPTY
    if kind == "ep":
        board[to - (8 if p.side == "w" else -8)] = EMPTY
        captured = "p"
    if promo:
        piece = promo.upper() if p.side == "w" else promo.lower()
    board[to] = piece
    if kind in p.castles and piece in "Kk":
        _, _, r_from, r_to, _ = p.castles[kind]
        board[r_to] = board[r_from]
        board[r_from] = EMPTY
    # Castling rights: lost when the King or that Rook leaves its square or a Rook is captured there.
    if n.castling:
        keep = ""
        for right in n.castling:
            entry = p.castles.get(right)
            if entry and (frm in (entry[0], entry[2]) or to in (entry[0], entry[2])):
                continue
            keep += right
        n.castling = keep
    # Common ground: the en-passant field is set after every double step.
    n.ep = (frm + to) // 2 if kind == "double" else None
    n.halfmove = 0 if piece in "Pp" or promo or captured != EMPTY else p.halfmove + 1
    if p.side == "b":
        n.fullmove += 1
    n.side = other(p.side)
    return n


def move_text(move):
    frm, to, promo, _ = move
    return sq_name(frm) + sq_name(to) + promo


def legal_moves(p):
    """[(text, position after)]: moves that do not leave the mover's King attacked (FIDE).
    GE-1: checkmate and stalemate have no moves; Plutonian has no other decisive rule, so
    `game-end=rules` and `movegen` coincide."""
    out = []
    side, enemy = p.side, other(p.side)
    for move in pseudo_moves(p):
        n = make(p, move)
        k = king_square(n.board, side)
        if k is not None and attacked(n.board, k, enemy):
            continue
        out.append((move_text(move), n))
    return out


def count_legal(p):
    side, enemy = p.side, other(p.side)
    total = 0
    for move in pseudo_moves(p):
        n = make(p, move)
        k = king_square(n.board, side)
        if k is None or not attacked(n.board, k, enemy):
            total += 1
    return total


def perft(p, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return count_legal(p)
    return sum(perft(n, depth - 1) for _, n in legal_moves(p))


def divide(p, depth):
    return {text: perft(n, depth - 1) for text, n in legal_moves(p)}


def play(p, text):
    for t, n in legal_moves(p):
        if t == text:
            return n
    raise ValueError("illegal move %s in %s" % (text, to_fen(p)))


def main(argv):
    array = "text"
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-o", "--option"):
            name, _, value = argv[i + 1].partition("=")
            i += 2
        elif a.startswith("--black-array="):
            name, value = "black-array", a.split("=", 1)[1]
            i += 1
        else:
            args.append(a)
            i += 1
            continue
        if name == "black-array":
            if value not in START:
                sys.exit("black-array must be text or diagram")
            array = value
        elif name != "game-end" or value not in ("rules", "movegen"):
            sys.exit("unknown option %s=%s" % (name, value))
    if len(args) < 3:
        sys.exit(__doc__)
    command, depth, fen = args[0], int(args[1]), args[2]
    p = parse_fen(fen, array)
    for text in args[3:]:
        for t in text.split():
            p = play(p, t)
    if command == "perft":
        print(perft(p, depth))
    elif command == "divide":
        counts = divide(p, depth)
        for text in sorted(counts):
            print(text, counts[text])
        print()
        print(sum(counts.values()))
    elif command == "fen":
        print(to_fen(p))
    elif command == "moves":
        for text, _ in sorted(legal_moves(p)):
            print(text)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
