//! The move classifier: which kinds of move a variant's rulings govern, and under which ruling
//! each move falls.
//!
//! A move is made of parts: its moving part (an ordinary move of the tables, en passant,
//! castling, one of the variant's special moves, or the placements of a set-up) and what may
//! come with it (a promotion, a placement added to the move). [`classify`] names each part with
//! the variant's word for it and the ruling id the declaration gives it
//! ([`VariantSpec::move_rulings`](super::VariantSpec::move_rulings); for ordinary moves the
//! moving piece's own ruling, [`PieceSpec::ruling`](super::PieceSpec::ruling)). The planted
//! faults use it to find the moves a fault drops, and a report on another engine's errors can
//! use it to say which ruling a wrong move breaks.

use super::hooks::Width;
use crate::position::{Move, Position, flags};

/// A kind of move (or of one part of a move) that a ruling may govern.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A move of the piece tables with none of the kinds below (a pawn's double step too).
    Ordinary,
    /// An en-passant capture.
    EnPassant,
    /// A castling.
    Castling,
    /// A promotion (with the moving part).
    Promotion,
    /// The placements of a set-up phase (a move without a moving part).
    SetupPlacement,
    /// A placement added to a move with a moving part (Cerimon's resurrection).
    AddedPlacement,
    /// One of the variant's special moves (made by its hooks), by the name the variant gives
    /// that kind.
    Special(&'static str),
}

impl MoveKind {
    /// The generic name of the kind (a special kind's own name).
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Ordinary => "ordinary move",
            MoveKind::EnPassant => "en passant",
            MoveKind::Castling => "castling",
            MoveKind::Promotion => "promotion",
            MoveKind::SetupPlacement => "set-up placement",
            MoveKind::AddedPlacement => "added placement",
            MoveKind::Special(name) => name,
        }
    }
}

/// A declaration's word and ruling for one kind of move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveRuling {
    /// The kind.
    pub kind: MoveKind,
    /// The variant's name for it ("resurrection").
    pub name: &'static str,
    /// The ruling id it falls under.
    pub ruling: &'static str,
}

impl MoveRuling {
    /// `kind` under `ruling`, by its generic name.
    pub const fn new(kind: MoveKind, ruling: &'static str) -> MoveRuling {
        MoveRuling {
            kind,
            name: kind.name(),
            ruling,
        }
    }
    /// The same, by the variant's own name.
    pub const fn named(mut self, name: &'static str) -> MoveRuling {
        self.name = name;
        self
    }
}

/// One part of a classified move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveClass {
    /// Its kind.
    pub kind: MoveKind,
    /// The variant's name for the kind.
    pub name: &'static str,
    /// The ruling it falls under; `None` when the variant names none (an ordinary move of an
    /// orthodox piece).
    pub ruling: Option<&'static str>,
}

/// The parts of move `m` of `pos` (a move its generator made), moving part first: one of
/// [`MoveKind::Ordinary`], [`MoveKind::EnPassant`], [`MoveKind::Castling`],
/// [`MoveKind::Special`] and [`MoveKind::SetupPlacement`], then [`MoveKind::Promotion`] and
/// [`MoveKind::AddedPlacement`] when the move has them.
///
/// # Examples
/// ```
/// use cvperft::notation::{parse_move, parse_position};
/// use cvperft::variant::{MoveKind, classify};
///
/// let rules = cvperft::variants::rules("chess").unwrap();
/// let pos = parse_position(rules, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
/// let parts = classify(&pos, &parse_move(&pos, "e5d6").unwrap());
/// assert_eq!(parts[0].kind, MoveKind::EnPassant);
/// assert_eq!(parts[0].ruling, Some("FIDE-EN-PASSANT"));
/// ```
pub fn classify<B: Width>(pos: &Position<B>, m: &Move) -> Vec<MoveClass> {
    let v = pos.variant();
    let class = |kind: MoveKind| match v.spec.move_rulings.iter().find(|r| r.kind == kind) {
        Some(r) => MoveClass {
            kind,
            name: r.name,
            ruling: Some(r.ruling),
        },
        None => MoveClass {
            kind,
            name: kind.name(),
            ruling: None,
        },
    };
    if !m.has_moving_part() {
        return vec![class(MoveKind::SetupPlacement)];
    }
    let mut out = Vec::with_capacity(3);
    out.push(
        if m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) != 0 {
            class(MoveKind::Castling)
        } else if m.flags & flags::EN_PASSANT != 0 {
            class(MoveKind::EnPassant)
        } else if m.flags & flags::SPECIAL != 0 {
            let name = pos
                .special_moves()
                .map_or("special move", |s| s.kind(pos, m));
            class(MoveKind::Special(name))
        } else {
            let mut ordinary = class(MoveKind::Ordinary);
            if let Some(piece) = pos.piece_at(m.from) {
                ordinary.ruling = v.spec.pieces[piece.kind as usize]
                    .ruling
                    .or(ordinary.ruling);
            }
            ordinary
        },
    );
    if m.promotion != 0 {
        out.push(class(MoveKind::Promotion));
    }
    if m.placement_list().next().is_some() {
        out.push(class(MoveKind::AddedPlacement));
    }
    out
}

/// For the variants' unit tests: the kind and ruling of each part of the move spelled `text`
/// in `pos`.
#[cfg(test)]
pub(crate) fn rulings_of(pos: &Position, text: &str) -> Vec<(MoveKind, Option<&'static str>)> {
    let m = crate::notation::parse_move(pos, text).expect(text);
    classify(pos, &m)
        .iter()
        .map(|c| (c.kind, c.ruling))
        .collect()
}
