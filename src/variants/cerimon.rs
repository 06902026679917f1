//! `cerimon`: Cerimon Chess (RULES.md CE-1 to CE-6).
//!
//! Data: the Terror `QN`, the Sergeant (`fWfF` plus initial two-square straight or diagonal
//! steps), captured pieces kept in their owner's hand. Hook: resurrection (CE-5), which turns
//! each move giving check by a Knight, Bishop, Rook or Sergeant into that move plus every
//! possible placement of a lost piece of a checking type on an empty beginning square.

use crate::geometry::Square;
use crate::position::{Move, Position};
use crate::variant::{Colour, HandKind, Hooks, HooksAt, OptionSpec, PieceSpec, VariantSpec, Width};

const SERGEANT: u8 = 0;
const KNIGHT: u8 = 1;
const BISHOP: u8 = 2;
const ROOK: u8 = 3;
const TERROR: u8 = 4;
const KING: u8 = 5;

/// Kinds whose check resurrects, with their beginning files and White's rank (0-based).
const RESURRECTING: [(u8, &[u8], u8); 4] = [
    (KNIGHT, &[0, 1, 6, 7], 1),
    (BISHOP, &[1, 2, 5, 6], 0),
    (ROOK, &[0, 7], 0),
    (SERGEANT, &[2, 3, 4, 5], 1),
];

/// Each kind's count in the start array (Sergeant, Knight, Bishop, Rook, Terror, King).
const START_COUNTS: [u32; 6] = [4, 4, 4, 2, 1, 1];

struct Cerimon;

impl<B: Width> HooksAt<B> for Cerimon {
    fn expands_here(&self, pos: &Position<B>) -> bool {
        // Only a side with a lost Knight, Bishop, Rook or Sergeant can resurrect.
        RESURRECTING
            .iter()
            .any(|(kind, _, _)| pos.hand_count(pos.side(), *kind) > 0)
    }

    fn expand(&self, before: &Position<B>, after: &Position<B>, m: Move, out: &mut Vec<Move>) {
        out.push(m);
        let us = before.side();
        let Some(king) = after.pieces_of(KING, us.flip()).first() else {
            return;
        };
        let checkers = after.attackers(king, us);
        if checkers.is_empty() {
            return;
        }
        let moved_only = before.rules().is("resurrect-by", "moved-piece");
        for (kind, files, white_rank) in RESURRECTING {
            if before.hand_count(us, kind) == 0 {
                continue;
            }
            let gives_check = if moved_only {
                checkers.has(m.to) && after.piece_at(m.to).is_some_and(|p| p.kind == kind)
            } else {
                (checkers & after.pieces_of(kind, us)).count() > 0
            };
            if !gives_check {
                continue;
            }
            let rank = if us == Colour::White {
                white_rank
            } else {
                7 - white_rank
            };
            for &file in files {
                let sq = Square::new(file, rank);
                if after.piece_at(sq).is_none() {
                    let mut with = m;
                    with.add_placement(kind, sq);
                    out.push(with);
                }
            }
        }
    }
}

impl Hooks for Cerimon {
    fn expands(&self) -> bool {
        true
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        for c in Colour::BOTH {
            if pos.hand_count(c, KING) > 0 {
                return Err("a King cannot be in hand (CE-4)".into());
            }
            let total = |k: u8| pos.pieces_of(k, c).count() + pos.hand_count(c, k) as u32;
            let sergeants = total(SERGEANT);
            if sergeants > 4 {
                return Err(format!(
                    "{c:?} has {sergeants} Sergeants on the board and in hand (at most 4)"
                ));
            }
            let promoted: u32 = [KNIGHT, BISHOP, ROOK, TERROR]
                .iter()
                .map(|&k| total(k).saturating_sub(START_COUNTS[k as usize]))
                .sum();
            if promoted + sergeants > 4 {
                return Err(format!(
                    "{c:?} has more pieces on the board and in hand than its start array and promotions allow (CE-4)"
                ));
            }
        }
        Ok(())
    }
}

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "cerimon",
        name: "Cerimon Chess",
        files: 8,
        ranks: 8,
        pieces: vec![
            PieceSpec::new("S", "Sergeant", "fWfFifmnDifmnA").pawn(&["T", "R", "B", "N"]),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("T", "Terror", "QN"),
            PieceSpec::new("K", "King", "K").royal(),
        ],
        start_fen: "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[] w - - 0 1",
        castling: vec![],
        en_passant: false,
        hand: HandKind::LostPieces,
        jewel: false,
        options: vec![OptionSpec {
            name: "resurrect-by",
            values: &["any-checker", "moved-piece"],
            ruling: "CE-5",
            help: "which checks resurrect: any checking Knight, Bishop, Rook or Sergeant, or only the moved piece",
        }],
        rulings: &["GE-1", "CE-1", "CE-2", "CE-3", "CE-4", "CE-5", "CE-6"],
        hooks: &Cerimon,
    }
}
