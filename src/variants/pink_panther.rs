//! `pink-panther`: Pink Panther Chess (RULES.md PP-1 to PP-10).
//!
//! The jewel is position state: an unclaimed jewel is a neutral square (it blocks slides and
//! cannot be entered, PP-4); a carried jewel is a carrier kind on the board (`+G` King, `+R`
//! Chatelaine, `+B` Primate, `+N` Gnu, `+P` Silvergeneral), declared as ordinary uncapturable
//! pieces with their own movement (PP-3).
//!
//! Jewel jumps come from one mechanism: every plain piece's own movement "made over" a square.
//! For a leap (dx, dy) the jump is (2dx, 2dy) with the jumped square in the middle; for a slide it
//! is the slide through the jumped square to any square beyond. A plain piece jumping the jewel
//! square acquires the jewel (PP-5, robbing any carrier there); a carrier making its plain
//! piece's move over an allied plain piece hands the jewel on (PP-6). The landing square follows
//! the atom's own mode (a Pawn's straight step is move-only, its diagonal capture-only).

use super::marriage::{Marriage, marriage_decision};
use crate::geometry::{Bitboard, Square};
use crate::position::{Move, Piece, Position, flags};
use crate::variant::{Colour, HandKind, Hooks, OptionSpec, Outcome, PieceSpec, VariantSpec};

const GENERAL: u8 = 0;
const KING: u8 = 1;
const ROOK: u8 = 3;
const CHATELAINE: u8 = 4;
const BISHOP: u8 = 5;
const PRIMATE: u8 = 6;
const KNIGHT: u8 = 7;
const GNU: u8 = 8;
const PAWN: u8 = 9;
const SILVERGENERAL: u8 = 10;
const QUEEN: u8 = 11;

/// (plain, carrier) pairs.
const CARRIERS: [(u8, u8); 5] = [
    (GENERAL, KING),
    (ROOK, CHATELAINE),
    (BISHOP, PRIMATE),
    (KNIGHT, GNU),
    (PAWN, SILVERGENERAL),
];

fn carrier_of(plain: u8) -> Option<u8> {
    CARRIERS.iter().find(|(p, _)| *p == plain).map(|(_, c)| *c)
}

fn plain_of(carrier: u8) -> Option<u8> {
    CARRIERS
        .iter()
        .find(|(_, c)| *c == carrier)
        .map(|(p, _)| *p)
}

/// The jewel's square: the unclaimed `*` or the carrier's square.
pub fn jewel_square(pos: &Position) -> Option<Square> {
    pos.neutral().first().or_else(|| {
        CARRIERS
            .iter()
            .map(|(_, c)| pos.kind_bb(*c))
            .fold(Bitboard::EMPTY, |a, b| a | b)
            .first()
    })
}

/// Every jewel jump (acquiring and passing) of side `us`, pseudo-legal.
pub fn jewel_jumps(pos: &Position, us: Colour, out: &mut Vec<Move>) {
    let v = pos.variant();
    let g = &v.geometry;
    let Some(jewel) = jewel_square(pos) else {
        return;
    };
    let blockers = pos.occupied() | pos.neutral();
    let targets = pos.capturable(us.flip());
    let sign = if us == Colour::White { 1 } else { -1 };
    let last_rank = if us == Colour::White {
        v.spec.ranks - 1
    } else {
        0
    };
    let passable = |sq: Square| {
        pos.piece_at(sq)
            .is_some_and(|p| p.colour == us && carrier_of(p.kind).is_some())
    };
    for from in pos.colour_bb(us) {
        let piece = pos.piece_at(from).expect("occupied");
        // (plain movement used, flag, the mover's kind after the jump)
        let (plain, flag, lands_as) = if let Some(c) = carrier_of(piece.kind) {
            (piece.kind, flags::ACQUIRE, c)
        } else if let Some(p) = plain_of(piece.kind) {
            (p, flags::PASS, p)
        } else {
            continue;
        };
        let jumpable = |sq: Square| {
            if flag == flags::ACQUIRE {
                sq == jewel
            } else {
                passable(sq)
            }
        };
        let push = |to: Square, via: Square, out: &mut Vec<Move>| {
            let mut m = Move::new(from, to);
            m.flags = flag;
            m.via = via;
            let promotions = &v.promotion_kinds[lands_as as usize];
            if !promotions.is_empty() && to.rank() == last_rank {
                for &p in promotions {
                    m.promotion = p + 1;
                    out.push(m);
                }
            } else {
                out.push(m);
            }
        };
        for atom in &v.atoms[plain as usize] {
            let (dx, dy) = (atom.dx as i32 * sign, atom.dy as i32 * sign);
            if !atom.rider {
                let (Some(mid), Some(to)) =
                    (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy))
                else {
                    continue;
                };
                if jumpable(mid)
                    && ((atom.quiet && !blockers.has(to)) || (atom.capture && targets.has(to)))
                {
                    push(to, mid, out);
                }
                continue;
            }
            let mut cur = from;
            let mut via = None;
            while let Some(next) = g.offset(cur, dx, dy) {
                cur = next;
                match via {
                    None => {
                        if blockers.has(next) {
                            if jumpable(next) {
                                via = Some(next);
                            } else {
                                break;
                            }
                        }
                    }
                    Some(v_sq) => {
                        if !blockers.has(next) {
                            if atom.quiet {
                                push(next, v_sq, out);
                            }
                        } else {
                            if atom.capture && targets.has(next) {
                                push(next, v_sq, out);
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

struct PinkPanther;

const MARRIAGE: Marriage<'static> = Marriage {
    king: KING,
    partners: &[QUEEN],
    robbing_saves: true,
};

impl Hooks for PinkPanther {
    fn extra_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        jewel_jumps(pos, pos.side(), out);
    }

    fn table_attacks_only(&self) -> bool {
        false
    }

    fn extra_attacks(&self, pos: &Position, sq: Square, by: Colour) -> bool {
        let mut jumps = Vec::new();
        jewel_jumps(pos, by, &mut jumps);
        jumps.iter().any(|m| m.to == sq)
    }

    fn after_jump(&self, next: &mut Position, m: Move, piece: Piece) -> Piece {
        let mut mover = piece;
        if m.flags & flags::ACQUIRE != 0 {
            if next.neutral().is_empty() {
                if let Some(robbed) = next.take(m.via) {
                    let plain = plain_of(robbed.kind).unwrap_or(robbed.kind);
                    next.put(
                        m.via,
                        Piece {
                            kind: plain,
                            ..robbed
                        },
                    );
                }
            } else {
                next.set_neutral(Bitboard::EMPTY);
            }
            mover.kind = carrier_of(piece.kind).unwrap_or(piece.kind);
        } else if let Some(ally) = next.take(m.via) {
            let carrier = carrier_of(ally.kind).unwrap_or(ally.kind);
            next.put(
                m.via,
                Piece {
                    kind: carrier,
                    ..ally
                },
            );
            mover.kind = plain_of(piece.kind).unwrap_or(piece.kind);
        }
        mover
    }

    fn decided(&self, pos: &Position) -> Option<Outcome> {
        marriage_decision(pos, &MARRIAGE)
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        let carriers: u32 = CARRIERS.iter().map(|(_, c)| pos.kind_bb(*c).count()).sum();
        let jewels = carriers + pos.neutral().count();
        if jewels != 1 {
            return Err(format!(
                "{jewels} Pink Panthers on the board (exactly one `*` or `+X` expected, PP-1)"
            ));
        }
        Ok(())
    }
}

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "pink-panther",
        name: "Pink Panther Chess",
        files: 7,
        ranks: 7,
        pieces: vec![
            PieceSpec::new("G", "General", "W").royal(),
            PieceSpec::new("+G", "King", "K").sovereign().uncapturable(),
            PieceSpec::new("I", "Princess", "fRfB").promotes(&["Q"]),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("+R", "Chatelaine", "RF").uncapturable(),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("+B", "Primate", "BW").uncapturable(),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("+N", "Gnu", "NC").uncapturable(),
            PieceSpec::new("P", "Pawn", "fmWfcF").pawn(&["R", "B", "N"]),
            PieceSpec::new("+P", "Silvergeneral", "FfW")
                .promotes(&["+R", "+B", "+N"])
                .uncapturable(),
            PieceSpec::new("Q", "Queen", "Q"),
        ],
        start_fen: "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1",
        castling: vec![],
        en_passant: false,
        hand: HandKind::None,
        jewel: true,
        options: vec![OptionSpec {
            name: "medinese",
            values: &["win", "continue"],
            ruling: "PP-9",
            help: "a marriage wins at once, or only if it survives the reply (capture of the Queen or robbing the King)",
        }],
        rulings: &[
            "GE-1", "PP-1", "PP-2", "PP-3", "PP-4", "PP-5", "PP-6", "PP-7", "PP-8", "PP-9", "PP-10",
        ],
        hooks: &PinkPanther,
    }
}
