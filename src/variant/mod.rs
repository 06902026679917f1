//! Variants: a variant is data (board, pieces, start position, promotion, castling, options)
//! plus a few hooks for what data cannot say.
//!
//! * [`vocabulary`]: the words every variant shares ([`Colour`], [`Wing`], [`Outcome`],
//!   [`GameEnd`]).
//! * [`declaration`]: what a variant file declares ([`VariantSpec`], [`PieceSpec`], ...).
//! * [`hooks`]: the rules the data cannot say ([`RuleHooksAt`], [`SpecialMovesAt`]) and, apart
//!   from them, the optional fast paths for special moves ([`FastPathsAt`]).
//! * [`tables`] and `compile`: the declaration compiled into move tables ([`Variant`]), with
//!   which fast paths apply worked out from the declaration and the hooks.
//! * [`rules`]: a variant with its rule options chosen ([`Rules`]), as positions carry it.
//! * [`classify`](mod@classify): which kind of move a move is, and the ruling it falls under.

pub mod classify;
mod compile;
pub mod declaration;
pub mod hooks;
pub mod lines;
pub mod rules;
pub mod tables;
pub mod vocabulary;

pub use classify::{MoveClass, MoveKind, MoveRuling, classify};
pub use declaration::{
    CastleSpec, Castlings, HandKind, MAX_KINDS, MAX_OPTIONS, MovementSpec, OptionSpec, PieceSpec,
    ValueOverride, VariantSpec, castle, corner_castling, sq,
};
pub use hooks::{
    FastPaths, FastPathsAt, HookBuilder, ReplySquares, RuleHooks, RuleHooksAt, SpecialMoves,
    SpecialMovesAt, VariantHooks, Width,
};
pub use rules::{CastleFiles, OptionError, Rules};
pub use tables::{
    KindCounting, LeapSet, MAX_DIRECTIONS, MAX_LEAP_PATH, Ride, SlotMoves, SpecError, SpecialLeap,
    Variant,
};
pub use vocabulary::{Colour, GameEnd, Outcome, Wing};
