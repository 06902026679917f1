//! `silver-elephant`: Silver Elephant Chess (RULES.md SE-1 to SE-6).
//!
//! Data: a 10×8 board, the Silver Elephant `FfWAfD`, three-step castling. Hooks: the Korean
//! setup phase (SE-5: while a side has pieces in hand its only moves are the four
//! arrangements of its Knight–Elephant pairs) and the bare-King rule (SE-6, both readings).

use super::corner_castling;
use crate::geometry::Square;
use crate::position::{Move, Position};
use crate::variant::{
    Colour, HandKind, Hooks, HooksAt, OptionSpec, Outcome, PieceSpec, VariantSpec, Width,
};

const KNIGHT: u8 = 1;
const ELEPHANT: u8 = 2;
const KING: u8 = 6;

struct SilverElephant;

/// Whether `c` has only its King on the board.
fn bare<B: Width>(pos: &Position<B>, c: Colour) -> bool {
    pos.colour_bb(c).count() == 1
}

impl<B: Width> HooksAt<B> for SilverElephant {
    fn replace_moves(&self, pos: &Position<B>, out: &mut Vec<Move>) -> bool {
        let us = pos.side();
        if pos.hand_is_empty(us) {
            return false;
        }
        let rank = if us == Colour::White { 0 } else { 7 };
        let at = |file: u8| Square::new(file, rank);
        for first in [(KNIGHT, ELEPHANT), (ELEPHANT, KNIGHT)] {
            for second in [(KNIGHT, ELEPHANT), (ELEPHANT, KNIGHT)] {
                out.push(Move::placements_only(&[
                    (first.0, at(1)),
                    (first.1, at(2)),
                    (second.0, at(7)),
                    (second.1, at(8)),
                ]));
            }
        }
        true
    }

    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        if !pos.hand_is_empty(Colour::White) || !pos.hand_is_empty(Colour::Black) {
            return None;
        }
        let s = pos.side();
        let o = s.flip();
        let (s_bare, o_bare) = (bare(pos, s), bare(pos, o));
        let immediate = pos.rules().is("bare-king", "immediate");
        match (s_bare, o_bare) {
            (false, false) => None,
            (false, true) => Some(Outcome::win(s)),
            (true, true) => immediate.then_some(Outcome::Draw),
            (true, false) => {
                let others = pos.colour_bb(o).count() - 1;
                if others >= 2 {
                    return Some(Outcome::win(o));
                }
                if !immediate {
                    return None;
                }
                let lone = (pos.colour_bb(o) & !pos.pieces_of(KING, o))
                    .first()
                    .expect("one other piece");
                let can_take = pos.legal_moves_unchecked().iter().any(|m| m.to == lone);
                if can_take {
                    None
                } else {
                    Some(Outcome::win(o))
                }
            }
        }
    }
}

impl Hooks for SilverElephant {
    fn replaces_moves(&self) -> bool {
        true
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        let full = |c: Colour| {
            (0..pos.variant().spec.pieces.len() as u8).all(|k| {
                let want = if k == KNIGHT || k == ELEPHANT { 2 } else { 0 };
                pos.hand_count(c, k) == want
            })
        };
        for c in Colour::BOTH {
            if pos.hand_is_empty(c) {
                continue;
            }
            if !full(c) {
                return Err(
                    "a hand must be empty or hold exactly two Elephants and two Knights (SE-5)"
                        .into(),
                );
            }
            let rank = if c == Colour::White { 0 } else { 7 };
            for file in [1, 2, 7, 8] {
                if pos.piece_at(Square::new(file, rank)).is_some() {
                    return Err(format!(
                        "{} is on a setup square while pieces are in hand (SE-5)",
                        Square::new(file, rank)
                    ));
                }
            }
        }
        let (w, b) = (
            !pos.hand_is_empty(Colour::White),
            !pos.hand_is_empty(Colour::Black),
        );
        if w && !b {
            return Err(
                "White still has pieces to place but Black has placed (White places first, SE-5)"
                    .into(),
            );
        }
        if w && pos.side() == Colour::Black {
            return Err("Black cannot move before White has placed its pieces (SE-5)".into());
        }
        if b && !w && pos.side() == Colour::White {
            return Err("White cannot move before Black has placed its pieces (SE-5)".into());
        }
        Ok(())
    }
}

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "silver-elephant",
        name: "Silver Elephant Chess",
        files: 10,
        ranks: 8,
        pieces: vec![
            PieceSpec::new("P", "Pawn", "fmWfcFifmnD").pawn(&["Q", "R", "E", "B", "N"]),
            PieceSpec::new("N", "Knight", "N"),
            PieceSpec::new("E", "Silver Elephant", "FfWAfD"),
            PieceSpec::new("B", "Bishop", "B"),
            PieceSpec::new("R", "Rook", "R"),
            PieceSpec::new("Q", "Queen", "Q"),
            PieceSpec::new("K", "King", "K").royal(),
        ],
        start_fen: "rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNEBQKBENR w KQkq - 0 1",
        castling: corner_castling(10, 8, 'f', ('i', 'h'), ('c', 'd')),
        en_passant: true,
        hand: HandKind::Setup,
        jewel: false,
        options: vec![OptionSpec {
            name: "bare-king",
            values: &["immediate", "one-reply"],
            ruling: "SE-6",
            help: "a bare King facing one piece: must capture it at once, or always gets one reply",
        }],
        rulings: &["GE-1", "SE-1", "SE-2", "SE-3", "SE-4", "SE-5", "SE-6"],
        hooks: &SilverElephant,
    }
}

/// The Korean setup position of SE-5.
pub const SETUP_FEN: &str =
    "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1";
