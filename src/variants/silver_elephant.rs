//! `silver-elephant`: Silver Elephant Chess (RULES.md SE-1 to SE-6).
//!
//! Data: chess on a 10×8 board with the Silver Elephant `FfWAfD` after the Knight, three-step
//! castling, pieces in hand for the set-up. Hooks: the Korean set-up phase (SE-5: while a side
//! has pieces in hand its only moves are the four arrangements of its Knight–Elephant pairs)
//! and the bare-King rule (SE-6, both readings).

use super::chess;
use crate::geometry::Square;
use crate::position::{Move, Position};
use crate::variant::hooks::RuleViolation;
use crate::variant::{
    Colour, HandKind, MoveKind, MoveRuling, OptionSpec, Outcome, PieceSpec, RuleHooksAt, SpecError,
    Variant, VariantHooks, VariantSpec, Width, corner_castling,
};

/// The Korean setup position of SE-5.
pub const SETUP_FEN: &str =
    "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1";

/// The files of the set-up squares (b, c, h, i), in pairs.
const SETUP_FILES: [[u8; 2]; 2] = [[1, 2], [7, 8]];

/// The hooks, with the piece kinds they name.
struct SilverElephant {
    knight: u8,
    elephant: u8,
    king: u8,
}

impl SilverElephant {
    fn build(v: &Variant) -> Result<VariantHooks, SpecError> {
        Ok(VariantHooks::with_rules(SilverElephant {
            knight: v.kind("N")?,
            elephant: v.kind("E")?,
            king: v.kind("K")?,
        }))
    }

    /// The back rank of `c`.
    fn home_rank<B: Width>(pos: &Position<B>, c: Colour) -> u8 {
        if c == Colour::White {
            0
        } else {
            pos.variant().spec.ranks - 1
        }
    }
}

/// Whether `c` has only its King on the board.
fn bare<B: Width>(pos: &Position<B>, c: Colour) -> bool {
    pos.colour_bb(c).count() == 1
}

impl<B: Width> RuleHooksAt<B> for SilverElephant {
    fn setup_moves(&self, pos: &Position<B>, out: &mut Vec<Move>) {
        let rank = Self::home_rank(pos, pos.side());
        let at = |file: u8| Square::new(file, rank);
        let orders = [(self.knight, self.elephant), (self.elephant, self.knight)];
        let [[b, c], [h, i]] = SETUP_FILES;
        for first in orders {
            for second in orders {
                out.push(Move::placements_only(&[
                    (first.0, at(b)),
                    (first.1, at(c)),
                    (second.0, at(h)),
                    (second.1, at(i)),
                ]));
            }
        }
    }

    fn decision_ruling(&self) -> Option<&'static str> {
        Some("SE-6")
    }

    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        let s = pos.side();
        let o = s.flip();
        let (s_bare, o_bare) = (bare(pos, s), bare(pos, o));
        // Asked at every counted position: the hands and the option (looked up by name) only
        // when a King is bare.
        if (!s_bare && !o_bare)
            || !pos.hand_is_empty(Colour::White)
            || !pos.hand_is_empty(Colour::Black)
        {
            return None;
        }
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
                let lone = (pos.colour_bb(o) & !pos.pieces_of(self.king, o))
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

    fn quiet_move_may_decide(&self, pos: &Position<B>) -> bool {
        // `decided` answers only when a King is bare, and a quiet move changes no side's
        // number of pieces.
        bare(pos, Colour::White) || bare(pos, Colour::Black)
    }

    fn any_move_may_decide(&self, pos: &Position<B>) -> bool {
        // A move gives its side no fewer pieces and takes at most one of the other side's:
        // with two pieces of the mover and three of the other, no King is bare after it.
        let s = pos.side();
        pos.colour_bb(s).count() < 2 || pos.colour_bb(s.flip()).count() < 3
    }

    fn validate(&self, pos: &Position<B>) -> Result<(), RuleViolation> {
        let full = |c: Colour| {
            (0..pos.variant().spec.pieces.len() as u8).all(|k| {
                let want = if k == self.knight || k == self.elephant {
                    2
                } else {
                    0
                };
                pos.hand_count(c, k) == want
            })
        };
        for c in Colour::BOTH {
            if pos.hand_is_empty(c) {
                continue;
            }
            if !full(c) {
                return Err(RuleViolation::SetupHand {
                    holds: "two Elephants and two Knights",
                    ruling: "SE-5",
                });
            }
            let rank = Self::home_rank(pos, c);
            for file in SETUP_FILES.into_iter().flatten() {
                if pos.piece_at(Square::new(file, rank)).is_some() {
                    return Err(RuleViolation::SetupSquareTaken {
                        square: Square::new(file, rank),
                        ruling: "SE-5",
                    });
                }
            }
        }
        let (w, b) = (
            !pos.hand_is_empty(Colour::White),
            !pos.hand_is_empty(Colour::Black),
        );
        if w && !b {
            return Err(RuleViolation::PlacedOutOfTurn {
                first: Colour::White,
                ruling: "SE-5",
            });
        }
        if w && pos.side() == Colour::Black {
            return Err(RuleViolation::MovesBeforePlacing {
                mover: Colour::Black,
                ruling: "SE-5",
            });
        }
        if b && !w && pos.side() == Colour::White {
            return Err(RuleViolation::MovesBeforePlacing {
                mover: Colour::White,
                ruling: "SE-5",
            });
        }
        Ok(())
    }
}

/// The declaration: chess with the Silver Elephant after the Knight.
pub fn spec() -> VariantSpec {
    let mut spec = VariantSpec {
        id: "silver-elephant",
        name: "Silver Elephant Chess",
        files: 10,
        ranks: 8,
        start_fen: "rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNEBQKBENR w KQkq - 0 1",
        setup_fen: Some(SETUP_FEN),
        castling: corner_castling(10, 8, 'f', ('i', 'h'), ('c', 'd')),
        hand: HandKind::Setup,
        options: vec![OptionSpec::new(
            "bare-king",
            &["immediate", "one-reply"],
            "SE-6",
            "a bare King facing one piece: must capture it at once, or always gets one reply",
        )],
        rulings: &["GE-1", "SE-1", "SE-2", "SE-3", "SE-4", "SE-5", "SE-6"],
        move_rulings: vec![
            MoveRuling::new(MoveKind::EnPassant, "SE-3"),
            MoveRuling::new(MoveKind::Promotion, "SE-3"),
            MoveRuling::new(MoveKind::Castling, "SE-4"),
            MoveRuling::new(MoveKind::SetupPlacement, "SE-5").named("Korean set-up"),
        ],
        hooks: Some(SilverElephant::build),
        ..chess::spec()
    }
    .inserting_after(
        "N",
        PieceSpec::new("E", "Silver Elephant", "FfWAfD").ruling("SE-2"),
    );
    let pawn = spec.piece_mut("P");
    pawn.promotes_to = &["Q", "R", "E", "B", "N"];
    pawn.ruling = Some("SE-3");
    spec
}

#[cfg(test)]
mod tests {
    use super::SETUP_FEN;
    use crate::notation::{parse_move, parse_position};
    use crate::variant::classify::rulings_of;
    use crate::variant::{MoveKind, classify};
    use crate::variants;

    /// The classifier names the Elephant's moves, castling, the set-up and promotion by their
    /// SE rulings.
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("silver-elephant").expect("variant");
        let setup = parse_position(rules, SETUP_FEN).expect("setup");
        let m = parse_move(&setup, "N@b1,E@c1,E@h1,N@i1").expect("placement");
        let parts = classify(&setup, &m);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].kind, MoveKind::SetupPlacement);
        assert_eq!(
            (parts[0].name, parts[0].ruling),
            ("Korean set-up", Some("SE-5"))
        );
        let pos = parse_position(rules, "4k5/pP8/10/10/10/6E3/10/R4K3R w KQ - 0 1").expect("fen");
        let kinds = |text: &str| rulings_of(&pos, text);
        assert_eq!(kinds("g3g5"), [(MoveKind::Ordinary, Some("SE-2"))]);
        assert_eq!(kinds("f1i1"), [(MoveKind::Castling, Some("SE-4"))]);
        assert_eq!(kinds("f1c1"), [(MoveKind::Castling, Some("SE-4"))]);
        assert_eq!(
            kinds("b7b8e"),
            [
                (MoveKind::Ordinary, Some("SE-3")),
                (MoveKind::Promotion, Some("SE-3"))
            ]
        );
        assert_eq!(kinds("a1a5"), [(MoveKind::Ordinary, None)]);
    }
}
