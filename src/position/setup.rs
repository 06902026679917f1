//! Setup validation: an unchecked [`Setup`] (what a FEN parser produces) becomes a
//! [`Position`] only through [`Position::from_setup`], which lists every reason it is refused.

use super::moves::Piece;
use super::{MAX_COUNTER, Position};
use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::variant::hooks::RuleViolation;
use crate::variant::{Colour, MAX_KINDS, Rules, Width, Wing};

/// Unchecked position data, as a FEN parser produces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces on the board.
    pub pieces: Vec<(Square, Piece)>,
    /// Squares that cannot be entered and block slides (the unclaimed Pink Panther jewel).
    pub neutral: Vec<Square>,
    /// Pieces in hand per colour, by kind.
    pub hand: [[u8; MAX_KINDS]; 2],
    /// Side to move.
    pub side: Colour,
    /// Castling rights as (colour, wing).
    pub castling: Vec<(Colour, Wing)>,
    /// En-passant square.
    pub ep: Option<Square>,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Fullmove number.
    pub fullmove: u32,
}

/// Why a setup is not a legal position: every reason found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal position: {}", join(.reasons))]
pub struct PositionError {
    /// Every reason, in the order found.
    pub reasons: Vec<PositionReason>,
}

fn join(reasons: &[PositionReason]) -> String {
    reasons
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// One reason a setup is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionReason {
    /// A counter above [`MAX_COUNTER`].
    #[error("move counters above {MAX_COUNTER}")]
    CountersTooLarge,
    /// A piece off the board (or of a kind the variant does not have).
    #[error("no square {0} on this board")]
    OffBoard(Square),
    /// Not exactly one sovereign piece.
    #[error("{} has {count} royal pieces (expected exactly one)", .colour.name())]
    SovereignCount {
        /// The side.
        colour: Colour,
        /// How many it has.
        count: u32,
    },
    /// A piece that must promote standing on its last rank.
    #[error("{piece} on {square} stands on its promotion rank")]
    OnPromotionRank {
        /// The piece's name.
        piece: &'static str,
        /// Where it stands.
        square: Square,
    },
    /// A pawn on its own first rank.
    #[error("{piece} on {square} stands on its own first rank")]
    OnFirstRank {
        /// The piece's name.
        piece: &'static str,
        /// Where it stands.
        square: Square,
    },
    /// A castling right the variant does not have.
    #[error("{} has no {} castling in this variant", .colour.name(), .wing.name())]
    NoSuchCastling {
        /// The side.
        colour: Colour,
        /// The wing.
        wing: Wing,
    },
    /// A castling right without its King or Rook in place.
    #[error("castling right {} needs the King on {king} and a Rook on {rook}", right_letter(.colour, .wing))]
    CastlingPiecesMissing {
        /// The side.
        colour: Colour,
        /// The wing.
        wing: Wing,
        /// The King's square.
        king: Square,
        /// The Rook's square.
        rook: Square,
    },
    /// An en-passant square in a variant without en passant.
    #[error("this variant has no en passant")]
    NoEnPassant,
    /// An en-passant square no double step can have left.
    #[error("en-passant square {square} does not follow a double step of {}", .mover.name())]
    EnPassantWithoutDoubleStep {
        /// The square.
        square: Square,
        /// The side that would have made the double step.
        mover: Colour,
    },
    /// The side not to move is in check.
    #[error("{} is in check with {} to move", .checked.name(), .checked.flip().name())]
    NotToMoveInCheck {
        /// The side in check.
        checked: Colour,
    },
    /// A reason of the variant's own rules ([`RuleHooksAt::validate`]).
    ///
    /// [`RuleHooksAt::validate`]: crate::variant::RuleHooksAt::validate
    #[error("{0}")]
    Rules(RuleViolation),
}

impl Position {
    /// Validates a setup.
    ///
    /// # Errors
    /// Every reason the setup is not a legal position for these rules.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Position, PositionError> {
        let mut reasons = Vec::new();
        let mut pos = Position::empty_for(rules, setup);
        if setup.halfmove > MAX_COUNTER || setup.fullmove > MAX_COUNTER {
            reasons.push(PositionReason::CountersTooLarge);
        }
        pos.place_pieces(setup, &mut reasons);
        pos.check_sovereigns_and_ranks(&mut reasons);
        pos.grant_castling(setup, &mut reasons);
        pos.set_en_passant(setup, &mut reasons);
        if reasons.is_empty() {
            pos.check_playable(&mut reasons);
        }
        if reasons.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { reasons })
        }
    }

    /// An empty board under `rules` with the setup's side, counters and hands.
    fn empty_for(rules: Rules, setup: &Setup) -> Position {
        Position {
            rules: rules.interned(),
            variant: rules.variant,
            game_end: rules.game_end,
            board: [0; SQUARE_COUNT],
            by_colour: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            side: setup.side,
            castling: 0,
            ep: None,
            ep_victim: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            hand: setup.hand,
            neutral: Bitboard::EMPTY,
            kinds: [0; 2],
        }
    }

    /// Puts the setup's pieces (refusing squares off the board and unknown kinds) and neutral
    /// markers on the board.
    fn place_pieces(&mut self, setup: &Setup, reasons: &mut Vec<PositionReason>) {
        let v = self.variant;
        for &(sq, piece) in &setup.pieces {
            if !v.geometry.mask.has(sq) || piece.kind as usize >= v.spec.pieces.len() {
                reasons.push(PositionReason::OffBoard(sq));
                continue;
            }
            self.put(sq, piece);
        }
        for &sq in &setup.neutral {
            self.neutral.set(sq);
        }
    }

    /// One sovereign per side, and every piece on a rank its kind may stand on.
    fn check_sovereigns_and_ranks(&self, reasons: &mut Vec<PositionReason>) {
        for colour in Colour::BOTH {
            let count = self.sovereign_count(colour);
            if count != 1 {
                reasons.push(PositionReason::SovereignCount { colour, count });
            }
            self.check_ranks(colour, reasons);
        }
    }

    /// The setup's castling rights, each only where the variant has that castling and its King
    /// and Rook stand on their squares.
    fn grant_castling(&mut self, setup: &Setup, reasons: &mut Vec<PositionReason>) {
        let v = self.variant;
        for &(colour, wing) in &setup.castling {
            match self.rules.castle(colour, wing) {
                None => reasons.push(PositionReason::NoSuchCastling { colour, wing }),
                Some(c) => {
                    let king_ok = self.piece_at(c.king_from).is_some_and(|p| {
                        p.colour == colour && v.spec.pieces[p.kind as usize].royal
                    });
                    let rook_ok = self.piece_at(c.rook_from).is_some_and(|p| {
                        p.colour == colour && v.spec.pieces[p.kind as usize].fen == "R"
                    });
                    if !king_ok || !rook_ok {
                        reasons.push(PositionReason::CastlingPiecesMissing {
                            colour,
                            wing,
                            king: c.king_from,
                            rook: c.rook_from,
                        });
                    } else {
                        self.castling |= 1 << (colour.index() * 2 + wing as usize);
                    }
                }
            }
        }
    }

    /// The setup's en-passant square, only in a variant with en passant and behind a pawn that
    /// has just made a double step.
    fn set_en_passant(&mut self, setup: &Setup, reasons: &mut Vec<PositionReason>) {
        let Some(ep) = setup.ep else {
            return;
        };
        if !self.variant.spec.en_passant {
            reasons.push(PositionReason::NoEnPassant);
        } else if let Some(victim) = self.double_step_victim(ep) {
            self.ep = Some(ep);
            self.ep_victim = Some(victim);
        } else {
            reasons.push(PositionReason::EnPassantWithoutDoubleStep {
                square: ep,
                mover: setup.side.flip(),
            });
        }
    }

    /// Once the board itself is sound: the side not to move is not in check, and the variant's
    /// own rules accept the position.
    fn check_playable(&self, reasons: &mut Vec<PositionReason>) {
        let checked = self.side.flip();
        if self.royal_attacked(checked) {
            reasons.push(PositionReason::NotToMoveInCheck { checked });
        }
        if let Some(hooks) = self.variant.rule_hooks()
            && let Err(e) = hooks.validate(self)
        {
            reasons.push(PositionReason::Rules(e));
        }
    }

    /// Refuses pieces that must promote standing on their last rank, and pawns on their own
    /// first rank where the variant does not allow them there.
    fn check_ranks(&self, colour: Colour, reasons: &mut Vec<PositionReason>) {
        let v = self.variant;
        let (first, last) = if colour == Colour::White {
            (0, v.spec.ranks - 1)
        } else {
            (v.spec.ranks - 1, 0)
        };
        for (kind, piece) in v.spec.pieces.iter().enumerate() {
            let promotes = !v.promotion_kinds[kind].is_empty();
            if !piece.pawn && !promotes {
                continue;
            }
            for square in self.pieces_of(kind as u8, colour) {
                if promotes && square.rank() == last {
                    reasons.push(PositionReason::OnPromotionRank {
                        piece: piece.name,
                        square,
                    });
                } else if piece.pawn && square.rank() == first && !v.spec.pawns_on_first_rank {
                    reasons.push(PositionReason::OnFirstRank {
                        piece: piece.name,
                        square,
                    });
                }
            }
        }
    }

    /// The pawn whose double step over `ep` the en-passant square records, if the board
    /// shows one (the side not to move's pawn just beyond `ep`, `ep` and the square behind
    /// it empty).
    fn double_step_victim(&self, ep: Square) -> Option<Square> {
        let v = self.variant;
        let mover = self.side.flip();
        let (ep_rank, dir) = if mover == Colour::White {
            (2u8, 1i32)
        } else {
            (v.spec.ranks - 3, -1)
        };
        let victim = v.geometry.offset(ep, 0, dir)?;
        let behind = v.geometry.offset(ep, 0, -dir)?;
        let pawn = self
            .piece_at(victim)
            .is_some_and(|p| p.colour == mover && v.spec.pieces[p.kind as usize].pawn);
        (ep.rank() == ep_rank
            && self.piece_at(ep).is_none()
            && self.piece_at(behind).is_none()
            && pawn)
            .then_some(victim)
    }

    /// The same position on 64-bit masks, for counting: only for boards whose squares all have
    /// an index below 64 ([`Variant::narrow`](crate::variant::Variant::narrow)), as every bit
    /// from 64 up is dropped.
    pub fn narrowed(&self) -> Position<u64> {
        debug_assert!(self.variant.narrow);
        Position {
            rules: self.rules,
            variant: self.variant,
            game_end: self.game_end,
            board: self.board,
            by_colour: self.by_colour.map(Bitboard::to),
            by_kind: self.by_kind.map(Bitboard::to),
            side: self.side,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hand: self.hand,
            neutral: self.neutral.to(),
            kinds: self.kinds,
        }
    }
}

impl<B: Width> Position<B> {
    /// The data of this position as an unchecked setup.
    pub fn to_setup(&self) -> Setup {
        let mut castling = Vec::new();
        for colour in Colour::BOTH {
            for wing in Wing::BOTH {
                if self.has_castling(colour, wing) {
                    castling.push((colour, wing));
                }
            }
        }
        Setup {
            pieces: self
                .occupied()
                .map(|sq| (sq, self.piece_at(sq).expect("occupied")))
                .collect(),
            neutral: self.neutral.collect(),
            hand: self.hand,
            side: self.side,
            castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    fn sovereign_count(&self, colour: Colour) -> u32 {
        let v = self.variant;
        v.spec
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.sovereign)
            .map(|(k, _)| self.pieces_of(k as u8, colour).count())
            .sum()
    }
}

/// "White" or "Black".
pub fn colour_name(c: Colour) -> &'static str {
    c.name()
}

fn right_letter(c: &Colour, w: &Wing) -> char {
    castle_letter(*c, *w)
}

/// FEN letter of a castling right.
pub fn castle_letter(c: Colour, w: Wing) -> char {
    match (c, w) {
        (Colour::White, Wing::King) => 'K',
        (Colour::White, Wing::Queen) => 'Q',
        (Colour::Black, Wing::King) => 'k',
        (Colour::Black, Wing::Queen) => 'q',
    }
}

#[cfg(test)]
mod tests {
    use super::PositionReason;
    use crate::geometry::Square;
    use crate::notation::parse_fen;
    use crate::position::Position;
    use crate::variants;

    #[test]
    fn every_reason_is_listed_as_data() {
        let chess = variants::rules("chess").expect("chess");
        let setup = parse_fen(chess.variant, "4k3/8/8/8/8/8/8/3PK1K1 w Q e6 0 1").expect("FEN");
        let Err(error) = Position::from_setup(chess, &setup) else {
            panic!("accepted");
        };
        assert_eq!(
            error.reasons,
            vec![
                PositionReason::SovereignCount {
                    colour: crate::variant::Colour::White,
                    count: 2
                },
                PositionReason::OnFirstRank {
                    piece: "Pawn",
                    square: Square::new(3, 0)
                },
                PositionReason::CastlingPiecesMissing {
                    colour: crate::variant::Colour::White,
                    wing: crate::variant::Wing::Queen,
                    king: Square::new(4, 0),
                    rook: Square::new(0, 0)
                },
                PositionReason::EnPassantWithoutDoubleStep {
                    square: Square::new(4, 5),
                    mover: crate::variant::Colour::Black
                },
            ]
        );
        assert_eq!(
            error.to_string(),
            "illegal position: White has 2 royal pieces (expected exactly one); \
             Pawn on d1 stands on its own first rank; \
             castling right Q needs the King on e1 and a Rook on a1; \
             en-passant square e6 does not follow a double step of Black"
        );
    }
}
