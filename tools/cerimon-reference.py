#!/usr/bin/env python3
"""Independent Cerimon move generator written from RULES.md CE-1..CE-6 (not from cvperft's code).
usage: cref.py [--moved-piece] divide|perft DEPTH FEN [MOVES...]"""
import sys
from collections import Counter

KN = [(1,2),(2,1),(-1,2),(-2,1),(1,-2),(2,-1),(-1,-2),(-2,-1)]
DI = [(1,1),(1,-1),(-1,1),(-1,-1)]
OR = [(1,0),(-1,0),(0,1),(0,-1)]
KG = DI + OR
BEGIN = {'N': [0,1,6,7], 'B': [1,2,5,6], 'R': [0,7], 'S': [2,3,4,5]}
BEGIN_RANK = {'N': 1, 'B': 0, 'R': 0, 'S': 1}   # White's rank index
def on(x, y): return 0 <= x < 8 and 0 <= y < 8
def sqname(x, y): return "abcdefgh"[x] + str(y + 1)
def parse_sq(s): return ("abcdefgh".index(s[0]), int(s[1:]) - 1)
def white(p): return p.isupper()
def colour(p): return 'w' if p.isupper() else 'b'

class Pos:
    def __init__(self, fen):
        parts = fen.split()
        board = parts[0]
        hand = ''
        if '[' in board:
            board, hand = board.split('[')
            hand = hand.rstrip(']')
        self.b = {}
        for i, row in enumerate(board.split('/')):
            y = 7 - i; x = 0
            num = ''
            for ch in row + ' ':
                if ch.isdigit(): num += ch; continue
                if num: x += int(num); num = ''
                if ch == ' ': break
                self.b[(x, y)] = ch; x += 1
        self.hand = {'w': Counter(), 'b': Counter()}
        for ch in hand:
            self.hand[colour(ch)][ch.upper()] += 1
        self.side = parts[1]
    def copy(self):
        p = Pos.__new__(Pos)
        p.b = dict(self.b); p.hand = {'w': Counter(self.hand['w']), 'b': Counter(self.hand['b'])}
        p.side = self.side
        return p

def attacks_from(b, sq, p):
    """squares attacked by piece p standing on sq"""
    x, y = sq; t = p.upper(); out = []
    if t in 'NT':
        out += [(x+dx, y+dy) for dx, dy in KN if on(x+dx, y+dy)]
    if t == 'K':
        out += [(x+dx, y+dy) for dx, dy in KG if on(x+dx, y+dy)]
    if t == 'S':
        f = 1 if white(p) else -1
        out += [(x+dx, y+f) for dx in (-1, 0, 1) if on(x+dx, y+f)]
    dirs = (DI if t == 'B' else []) + (OR if t == 'R' else []) + (KG if t == 'T' else [])
    for dx, dy in dirs:
        cx, cy = x+dx, y+dy
        while on(cx, cy):
            out.append((cx, cy))
            if (cx, cy) in b: break
            cx += dx; cy += dy
    return out

def attackers(b, target, col):
    return [sq for sq, p in b.items() if colour(p) == col and target in attacks_from(b, sq, p)]

def king(b, col):
    k = 'K' if col == 'w' else 'k'
    for sq, p in b.items():
        if p == k: return sq
    return None

def moving_parts(pos):
    """pseudo-legal moving parts: (from, to, promo)"""
    col = pos.side; b = pos.b; out = []
    for sq, p in list(b.items()):
        if colour(p) != col: continue
        t = p.upper(); x, y = sq
        if t == 'S':
            f = 1 if col == 'w' else -1
            last = 7 if col == 'w' else 0
            second = 1 if col == 'w' else 6
            cands = []
            for dx in (-1, 0, 1):
                to = (x+dx, y+f)
                if on(*to) and (to not in b or colour(b[to]) != col):
                    cands.append(to)
            if y == second:
                for dx in (-1, 0, 1):
                    mid = (x+dx, y+f); to = (x+2*dx, y+2*f)
                    if on(*to) and mid not in b and to not in b:
                        cands.append(to)
            for to in cands:
                if to[1] == last:
                    for pr in 'trbn': out.append((sq, to, pr))
                else:
                    out.append((sq, to, ''))
        else:
            for to in attacks_from(b, sq, p):
                if to not in b or colour(b[to]) != col:
                    out.append((sq, to, ''))
    return out

def gen(pos, moved_piece=False):
    """legal moves: list of (text, newpos)"""
    col = pos.side; opp = 'b' if col == 'w' else 'w'
    res = []
    for fr, to, pr in moving_parts(pos):
        n = pos.copy()
        p = n.b.pop(fr)
        if to in n.b:
            cap = n.b[to]
            assert cap.upper() != 'K', "King capture"
            n.hand[opp][cap.upper()] += 1
        if pr:
            p = pr.upper() if col == 'w' else pr
        n.b[to] = p
        text = sqname(*fr) + sqname(*to) + pr
        # CE-5: checks after the moving part
        ek = king(n.b, opp)
        chk = attackers(n.b, ek, col) if ek else []
        types = set()
        if moved_piece:
            if to in chk and p.upper() in 'NBRS': types.add(p.upper())
        else:
            types = {n.b[s].upper() for s in chk} & set('NBRS')
        variants = [(text, n)]
        for t in sorted(types):
            if pos.hand[col][t] == 0: continue
            rank = BEGIN_RANK[t] if col == 'w' else 7 - BEGIN_RANK[t]
            for fx in BEGIN[t]:
                if (fx, rank) in n.b: continue
                m = n.copy()
                m.b[(fx, rank)] = t if col == 'w' else t.lower()
                m.hand[col][t] -= 1
                variants.append((text + "," + t + "@" + sqname(fx, rank), m))
        for txt, m in variants:
            k = king(m.b, col)
            if attackers(m.b, k, opp): continue   # CE-6
            m.side = opp
            res.append((txt, m))
    return res

def perft(pos, d, mp):
    if d == 0: return 1
    ms = gen(pos, mp)
    if d == 1: return len(ms)
    return sum(perft(m, d-1, mp) for _, m in ms)

def norm(txt):
    parts = txt.split(',')
    mv = [q for q in parts if '@' not in q]; pl = sorted(q for q in parts if '@' in q)
    return ",".join(mv + pl)

if __name__ == "__main__":
    args = sys.argv[1:]
    mp = False
    if args[0] == '--moved-piece': mp = True; args = args[1:]
    cmd, d, fen = args[0], int(args[1]), args[2]
    pos = Pos(fen)
    for mv in args[3:]:
        for txt, m in gen(pos, mp):
            if txt == norm(mv): pos = m; break
        else: sys.exit("illegal move " + mv)
    if cmd == 'perft': print(perft(pos, d, mp))
    else:
        tot = 0
        for txt, m in sorted(gen(pos, mp)):
            c = perft(m, d-1, mp); tot += c; print(txt, c)
        print(); print(tot)
