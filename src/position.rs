//! Validated positions, moves, move generation and make-move.
//!
//! A [`Position`] is always legal for its [`Rules`]: it is built from a [`Setup`] (the unchecked
//! result of parsing a FEN) by [`Position::from_setup`], which lists every reason a setup is
//! refused. Moves are generated pseudo-legally from the variant's tables and the hooks, made by
//! copy ([`Position::play`]), and kept when the mover's royal pieces are not attacked afterwards.

use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::variant::{
    Colour, GameEnd, HooksAt, LeapSet, MAX_KINDS, Outcome, Rules, SlotMoves, Variant, Width, Wing,
};
use std::fmt;

/// The largest halfmove clock and fullmove number a position holds: FEN accepts no more, and
/// playing a move keeps the counters at this value instead of passing it, so every position
/// reached still prints a FEN that parses back.
pub const MAX_COUNTER: u32 = 99_999;

/// A square value meaning "none" in compact fields.
pub const NO_SQUARE: Square = Square(255);

/// A piece: kind index into the variant's declaration, and colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Index into the variant's piece list.
    pub kind: u8,
    /// Owner.
    pub colour: Colour,
}

impl Piece {
    fn encode(self) -> u8 {
        1 + self.kind + 16 * self.colour.index() as u8
    }
    /// The kind of an occupied square's byte.
    #[inline(always)]
    fn kind_of(byte: u8) -> u8 {
        (byte - 1) % 16
    }
    fn decode(byte: u8) -> Option<Piece> {
        if byte == 0 {
            return None;
        }
        let v = byte - 1;
        Some(Piece {
            kind: v % 16,
            colour: if v >= 16 {
                Colour::Black
            } else {
                Colour::White
            },
        })
    }
}

/// One piece put on the board from the hand as part of a move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Placement {
    /// Kind index + 1 (0: no placement).
    pub kind: u8,
    /// Where it goes.
    pub square: Square,
}

impl Placement {
    const NONE: Placement = Placement {
        kind: 0,
        square: NO_SQUARE,
    };
}

/// Move flags.
pub mod flags {
    /// Castling toward the King-side Rook.
    pub const CASTLE_KING: u8 = 1;
    /// Castling toward the Queen-side Rook.
    pub const CASTLE_QUEEN: u8 = 2;
    /// En-passant capture.
    pub const EN_PASSANT: u8 = 4;
    /// A pawn's double step: sets the en-passant square.
    pub const DOUBLE_STEP: u8 = 8;
    /// Pink Panther: the mover passes over the jewel square and ends carrying the jewel.
    pub const ACQUIRE: u8 = 16;
    /// Pink Panther: the carrier hands the jewel to the ally on `via`.
    pub const PASS: u8 = 32;
}

/// A move: a moving part (from, to, promotion) and up to four placements. A pure placement
/// move (a setup) has `from == to == NO_SQUARE`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Origin of the moving part.
    pub from: Square,
    /// Destination of the moving part (the King's for castling).
    pub to: Square,
    /// Kind index + 1 of the piece after promotion (0: none).
    pub promotion: u8,
    /// See [`flags`].
    pub flags: u8,
    /// The square jumped over by a jewel move.
    pub via: Square,
    /// Placements, unused ones with kind 0, sorted by file then rank.
    pub placements: [Placement; 4],
}

impl Move {
    /// A plain move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: 0,
            flags: 0,
            via: NO_SQUARE,
            placements: [Placement::NONE; 4],
        }
    }
    /// A move of placements only.
    pub fn placements_only(list: &[(u8, Square)]) -> Move {
        let mut m = Move::new(NO_SQUARE, NO_SQUARE);
        for &(kind, sq) in list {
            m.add_placement(kind, sq);
        }
        m
    }
    /// Whether the move has a moving part.
    pub fn has_moving_part(&self) -> bool {
        self.from != NO_SQUARE
    }
    /// Adds a placement of `kind` on `square`, keeping the list sorted by file then rank.
    ///
    /// # Panics
    /// With more than four placements (a variant hook bug).
    pub fn add_placement(&mut self, kind: u8, square: Square) {
        let slot = self
            .placements
            .iter()
            .position(|p| p.kind == 0)
            .expect("at most four placements per move");
        self.placements[slot] = Placement {
            kind: kind + 1,
            square,
        };
        self.placements[..=slot].sort_by_key(|p| (p.square.file(), p.square.rank()));
    }
    /// The placements made.
    pub fn placement_list(&self) -> impl Iterator<Item = (u8, Square)> + '_ {
        self.placements
            .iter()
            .filter(|p| p.kind != 0)
            .map(|p| (p.kind - 1, p.square))
    }
}

/// A position that passed validation.
#[derive(Clone, Copy)]
pub struct Position<B: Width = u128> {
    rules: Rules,
    board: [u8; SQUARE_COUNT],
    by_colour: [Bitboard<B>; 2],
    by_kind: [Bitboard<B>; MAX_KINDS],
    side: Colour,
    castling: u8,
    ep: Option<Square>,
    ep_victim: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    hand: [[u8; MAX_KINDS]; 2],
    neutral: Bitboard<B>,
    /// Per colour, as bits: every kind put on the board since the set-up, so a superset of the
    /// kinds on it. Loops over kinds skip the others (in Pink Panther, half the kinds appear
    /// only by acquiring or promoting).
    kinds: [u16; 2],
}

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// One line per reason.
    pub reasons: Vec<String>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal position: {}", self.reasons.join("; "))
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// Validates a setup.
    ///
    /// # Errors
    /// Every reason the setup is not a legal position for these rules.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Position, PositionError> {
        let v = rules.variant;
        let mut reasons = Vec::new();
        let mut pos = Position {
            rules,
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
        };
        if setup.halfmove > MAX_COUNTER || setup.fullmove > MAX_COUNTER {
            reasons.push(format!("move counters above {MAX_COUNTER}"));
        }
        for &(sq, piece) in &setup.pieces {
            if !v.geometry.mask.has(sq) || piece.kind as usize >= v.spec.pieces.len() {
                reasons.push(format!("no square {sq} on this board"));
                continue;
            }
            pos.put(sq, piece);
        }
        for &sq in &setup.neutral {
            pos.neutral.set(sq);
        }
        for colour in Colour::BOTH {
            let sovereigns = pos.sovereign_count(colour);
            if sovereigns != 1 {
                reasons.push(format!(
                    "{} has {} royal pieces (expected exactly one)",
                    colour_name(colour),
                    sovereigns
                ));
            }
            for (kind, piece) in v.spec.pieces.iter().enumerate() {
                if !piece.pawn && v.promotion_kinds[kind].is_empty() {
                    continue;
                }
                let last = if colour == Colour::White {
                    v.spec.ranks - 1
                } else {
                    0
                };
                let first = if colour == Colour::White {
                    0
                } else {
                    v.spec.ranks - 1
                };
                for sq in pos.pieces_of(kind as u8, colour) {
                    if !v.promotion_kinds[kind].is_empty() && sq.rank() == last {
                        reasons.push(format!(
                            "{} on {sq} stands on its promotion rank",
                            piece.name
                        ));
                    } else if piece.pawn && sq.rank() == first && !v.spec.jewel {
                        // Not with the Pink Panther: a Silvergeneral may step back to its
                        // first rank and, robbed of the jewel there, is a Pawn (PP-3, PP-5).
                        reasons.push(format!(
                            "{} on {sq} stands on its own first rank",
                            piece.name
                        ));
                    }
                }
            }
        }
        for &(colour, wing) in &setup.castling {
            match rules.castles[colour.index()][wing as usize] {
                None => reasons.push(format!(
                    "{} has no {} castling in this variant",
                    colour_name(colour),
                    wing_name(wing)
                )),
                Some(c) => {
                    let king_ok = pos.piece_at(c.king_from).is_some_and(|p| {
                        p.colour == colour && v.spec.pieces[p.kind as usize].royal
                    });
                    let rook_ok = pos.piece_at(c.rook_from).is_some_and(|p| {
                        p.colour == colour && v.spec.pieces[p.kind as usize].fen == "R"
                    });
                    if !king_ok || !rook_ok {
                        reasons.push(format!(
                            "castling right {} needs the King on {} and a Rook on {}",
                            castle_letter(colour, wing),
                            c.king_from,
                            c.rook_from
                        ));
                    } else {
                        pos.castling |= 1 << (colour.index() * 2 + wing as usize);
                    }
                }
            }
        }
        if let Some(ep) = setup.ep {
            if !v.spec.en_passant {
                reasons.push("this variant has no en passant".to_string());
            } else {
                let mover = setup.side.flip();
                let (ep_rank, dir) = if mover == Colour::White {
                    (2u8, 1i32)
                } else {
                    (v.spec.ranks - 3, -1)
                };
                let victim = v.geometry.offset(ep, 0, dir);
                let behind = v.geometry.offset(ep, 0, -dir);
                let ok = ep.rank() == ep_rank
                    && pos.piece_at(ep).is_none()
                    && behind.is_some_and(|b| pos.piece_at(b).is_none())
                    && victim.is_some_and(|s| {
                        pos.piece_at(s).is_some_and(|p| {
                            p.colour == mover && v.spec.pieces[p.kind as usize].pawn
                        })
                    });
                if ok {
                    pos.ep = Some(ep);
                    pos.ep_victim = victim;
                } else {
                    reasons.push(format!(
                        "en-passant square {ep} does not follow a double step of {}",
                        colour_name(mover)
                    ));
                }
            }
        }
        if reasons.is_empty() {
            if pos.royal_attacked(setup.side.flip()) {
                reasons.push(format!(
                    "{} is in check with {} to move",
                    colour_name(setup.side.flip()),
                    colour_name(setup.side)
                ));
            }
            if let Err(e) = v.spec.hooks.validate(&pos) {
                reasons.push(e);
            }
        }
        if reasons.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { reasons })
        }
    }

    /// The same position on 64-bit masks, for counting: only for boards whose squares all have
    /// an index below 64 ([`Variant::narrow`]), as every bit from 64 up is dropped.
    pub fn narrowed(&self) -> Position<u64> {
        debug_assert!(self.rules.variant.narrow);
        Position {
            rules: self.rules,
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
            for wing in [Wing::King, Wing::Queen] {
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
        let v = self.rules.variant;
        v.spec
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.sovereign)
            .map(|(k, _)| self.pieces_of(k as u8, colour).count())
            .sum()
    }

    // ----- accessors -----

    /// The variant's hooks for positions kept in `B`.
    #[inline(always)]
    fn hooks(&self) -> &'static dyn HooksAt<B> {
        B::hooks(self.rules.variant.spec.hooks)
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The compiled variant.
    pub fn variant(&self) -> &'static Variant {
        self.rules.variant
    }
    /// Side to move.
    pub fn side(&self) -> Colour {
        self.side
    }
    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::decode(*self.board.get(sq.index())?)
    }
    /// Squares of `colour`'s pieces.
    pub fn colour_bb(&self, colour: Colour) -> Bitboard<B> {
        self.by_colour[colour.index()]
    }
    /// Squares of pieces of `kind` (both colours).
    pub fn kind_bb(&self, kind: u8) -> Bitboard<B> {
        self.by_kind[kind as usize]
    }
    /// Squares of `colour`'s pieces of `kind`.
    pub fn pieces_of(&self, kind: u8, colour: Colour) -> Bitboard<B> {
        self.by_kind[kind as usize] & self.by_colour[colour.index()]
    }
    /// Squares holding a piece.
    pub fn occupied(&self) -> Bitboard<B> {
        self.by_colour[0] | self.by_colour[1]
    }
    /// Squares that cannot be entered and block slides (the unclaimed jewel).
    pub fn neutral(&self) -> Bitboard<B> {
        self.neutral
    }
    /// Pieces of `kind` in `colour`'s hand.
    pub fn hand_count(&self, colour: Colour, kind: u8) -> u8 {
        self.hand[colour.index()][kind as usize]
    }
    /// Whether `colour` has anything in hand.
    pub fn hand_is_empty(&self, colour: Colour) -> bool {
        self.hand[colour.index()].iter().all(|&n| n == 0)
    }
    /// Whether the castling right is held.
    pub fn has_castling(&self, colour: Colour, wing: Wing) -> bool {
        self.castling >> (colour.index() * 2 + wing as usize) & 1 != 0
    }
    /// En-passant square.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    /// Halfmove clock.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
    /// Fullmove number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    // ----- low-level editing (for make-move and hooks) -----

    /// Puts a piece on an empty square.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = piece.encode();
        self.by_colour[piece.colour.index()].set(sq);
        self.by_kind[piece.kind as usize].set(sq);
        self.kinds[piece.colour.index()] |= 1 << piece.kind;
    }
    /// Removes and returns the piece on `sq`.
    #[inline(always)]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.board[sq.index()] = 0;
        self.by_colour[piece.colour.index()].clear(sq);
        self.by_kind[piece.kind as usize].clear(sq);
        Some(piece)
    }
    /// Changes the hand of `colour` by `delta` pieces of `kind`.
    pub fn add_to_hand(&mut self, colour: Colour, kind: u8, delta: i32) {
        let slot = &mut self.hand[colour.index()][kind as usize];
        *slot = (*slot as i32 + delta).clamp(0, 255) as u8;
    }
    /// Sets or clears the neutral square set.
    pub fn set_neutral(&mut self, bb: Bitboard<B>) {
        self.neutral = bb;
    }

    // ----- attacks -----

    /// Squares of pieces an enemy may capture.
    #[inline(always)]
    pub fn capturable(&self, colour: Colour) -> Bitboard<B> {
        let mut bb = self.by_colour[colour.index()];
        let mut kinds = self.rules.variant.uncapturable_kinds & self.kinds[colour.index()];
        while kinds != 0 {
            bb &= !self.by_kind[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        bb
    }

    /// Whether a piece of `by` could capture on `sq` (pins ignored).
    pub fn attacked(&self, sq: Square, by: Colour) -> bool {
        let v = self.rules.variant;
        let blockers = self.occupied() | self.neutral;
        !self
            .table_attackers(
                sq,
                by,
                blockers,
                v.all_dirs(),
                self.by_colour[by.index()],
                true,
            )
            .is_empty()
            || !self.special_attackers(sq, by, blockers, true).is_empty()
            || self.hooks().extra_attacks(self, sq, by)
    }

    /// Squares of `by`'s pieces that could capture on `sq` by their table moves (leaps and
    /// slides; hook moves not included).
    pub fn attackers(&self, sq: Square, by: Colour) -> Bitboard<B> {
        let v = self.rules.variant;
        let blockers = self.occupied() | self.neutral;
        self.table_attackers(
            sq,
            by,
            blockers,
            v.all_dirs(),
            self.by_colour[by.index()],
            false,
        ) | self.special_attackers(sq, by, blockers, false)
    }

    /// `by`'s pieces that capture on `sq` by a table leap or by a slide along one of `dirs`
    /// (direction bits), `blockers` blocking slides; with `any`, the first one found alone.
    /// Directions whose backward ray holds none of `sliders` (a superset of `by`'s sliding
    /// pieces) are skipped.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn table_attackers(
        &self,
        sq: Square,
        by: Colour,
        blockers: Bitboard<B>,
        dirs: u16,
        sliders: Bitboard<B>,
        any: bool,
    ) -> Bitboard<B> {
        let v = self.rules.variant;
        let theirs = self.by_colour[by.index()];
        let mut found = Bitboard::NONE;
        // The pieces standing where some kind could leap onto `sq` (usually none or one), each
        // asked whether its own kind does.
        let candidates = v.any_leap_attackers[by.index() * SQUARE_COUNT + sq.index()].to() & theirs;
        for s in candidates {
            let kind = Piece::kind_of(self.board[s.index()]);
            if v.leap_attackers[Variant::slot(kind, by, sq)].has(s) {
                found.set(s);
                if any {
                    return found;
                }
            }
        }
        let mut dirs = v.dirs_toward(sq, dirs, sliders);
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            if !v.back_ray_bb[dir as usize * SQUARE_COUNT + sq.index()]
                .to()
                .intersects(sliders)
            {
                continue;
            }
            if let Some(s) = v.nearest_back(dir, sq, blockers)
                && theirs.has(s)
                && self.rides_to(s, by, dir, sq)
            {
                found.set(s);
                if any {
                    return found;
                }
            }
        }
        found
    }

    /// `by`'s pieces that capture on `sq` by a special (lame or initial) leap; with `any`, the
    /// first one found alone.
    fn special_attackers(
        &self,
        sq: Square,
        by: Colour,
        blockers: Bitboard<B>,
        any: bool,
    ) -> Bitboard<B> {
        let v = self.rules.variant;
        let mut found = Bitboard::NONE;
        if !v.special_captures {
            return found;
        }
        for from in self.by_colour[by.index()] {
            let p = self.piece_at(from).expect("occupied");
            for leap in &v.special[Variant::slot(p.kind, by, from)] {
                if leap.capture && leap.to == sq && !leap.path.to().intersects(blockers) {
                    found.set(from);
                    if any {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Whether the piece of `by` on `s` captures on `target` by sliding along direction `dir`
    /// (`target` lies on that ray from `s`, with nothing between).
    #[inline(always)]
    fn rides_to(&self, s: Square, by: Colour, dir: u8, target: Square) -> bool {
        let v = self.rules.variant;
        let kind = self.piece_at(s).expect("occupied").kind;
        let range = v.ride_capture_range[Variant::slot(kind, by, s)][dir as usize];
        range == 255 || (range != 0 && range as u32 >= v.steps_between(dir, s, target))
    }

    /// What the side to move needs to decide legality cheaply: `None` when every move must be
    /// made and tested (in check by a hook move or by two pieces, hook captures the hooks
    /// cannot map, more than one royal piece, many pins).
    ///
    /// With hook captures, the opponent's hook attack map joins the table attacks and the
    /// hooks name the pieces whose moves are still made and tested ([`Legality::tested`], onto
    /// [`Legality::tested_to`]); flagged moves are always made and tested
    /// ([`Position::quick_legal`]). In check by one table piece, every move but the royal
    /// piece's must end on [`Legality::check_mask`]. With no royal piece at all, a move is
    /// illegal only if it creates one: flagged moves and placements are tested, and plain moves
    /// cannot unless they promote to a royal kind, which is then refused here. (No royal piece
    /// also means no castling right.)
    pub fn legality(&self) -> Option<Legality<B>> {
        let mut legality = Legality::EMPTY;
        self.legality_into(&mut legality).then_some(legality)
    }

    /// [`Position::legality`] written into `legality` (which must be [`Legality::EMPTY`]),
    /// without copying the result: false for `None`.
    #[inline(always)]
    fn legality_into(&self, legality: &mut Legality<B>) -> bool {
        let v = self.rules.variant;
        let hooks = self.hooks();
        if v.special_captures || v.royal_kinds.len() != 1 {
            return false;
        }
        let us = self.side;
        let them = us.flip();
        let royals = self.pieces_of(v.royal_kinds[0], us);
        if royals.count() > 1 {
            return false;
        }
        let blockers = self.occupied() | self.neutral;
        legality.royals = royals;
        let Some(king) = royals.first() else {
            let promotes_to_royal = v
                .promotion_kinds
                .iter()
                .flatten()
                .any(|k| v.royal_kinds.contains(k));
            (legality.tested, legality.tested_to) = hooks.must_test(self, None);
            return !promotes_to_royal;
        };
        let ours = self.by_colour[us.index()];
        let theirs = self.by_colour[them.index()];
        // Directions some enemy piece can capture along.
        let mut dirs = 0u16;
        let mut sliders = Bitboard::NONE;
        let mut kinds = v.slider_kinds[them.index()] & self.kinds[them.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.by_kind[k] & theirs;
            // Without a branch: which slider kinds are on the board varies from node to node.
            let present = u16::from(!pieces.is_empty());
            dirs |= v.capture_dirs[k * 2 + them.index()] & present.wrapping_neg();
            sliders |= pieces;
        }
        legality.king = king;
        legality.enemy_dirs = dirs;
        legality.enemy_sliders = sliders;
        dirs = v.dirs_toward(king, dirs, sliders);
        if !v.fast_legality {
            // The map is read on the royal piece's square and where it may go.
            let sm = &v.slot_moves[Variant::slot(v.royal_kinds[0], us, king)];
            let wanted = if sm.irregular || (sm.slide_both | sm.slide_quiet | sm.slide_capture) != 0
            {
                v.geometry.mask.to()
            } else {
                Bitboard::<B>::of(king) | (sm.leap_quiet | sm.leap_capture).to()
            };
            legality.hook_attacked =
                match hooks.extra_attack_map(self, them, blockers & !royals, wanted) {
                    Some(map) => map,
                    None => return false,
                };
        }
        // In check by a hook move or by two pieces: no quick decisions. In check by one leap or
        // slide (slides are seen below, in the same walk along each direction as the pins),
        // every move but the royal piece's must end on the checker or between.
        if legality.hook_attacked.has(king) {
            return false;
        }
        let leap_checkers = self.table_attackers(king, them, blockers, 0, Bitboard::NONE, false);
        match leap_checkers.count() {
            0 => {}
            1 => legality.check_mask = leap_checkers,
            _ => return false,
        }
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let back = v.back_ray_bb[dir as usize * SQUARE_COUNT + king.index()].to::<B>();
            if !back.intersects(sliders) {
                continue;
            }
            let Some(first) = v.nearest_back(dir, king, blockers) else {
                continue;
            };
            if theirs.has(first) {
                if self.rides_to(first, them, dir, king) {
                    if legality.check_mask != Bitboard::ALL {
                        return false;
                    }
                    legality.check_mask =
                        back & !v.back_ray_bb[dir as usize * SQUARE_COUNT + first.index()].to();
                }
                continue;
            }
            if !ours.has(first) {
                continue;
            }
            let mut rest = blockers;
            rest.clear(first);
            if let Some(next) = v.nearest_back(dir, king, rest)
                && theirs.has(next)
                && self.rides_to(next, them, dir, king)
            {
                if legality.pin_count as usize == MAX_PINS {
                    return false;
                }
                legality.pinned.set(first);
                legality.pins[legality.pin_count as usize] = (first, dir, next);
                legality.pin_count += 1;
            }
        }
        if !v.fast_legality {
            // Only hook captures make pieces worth testing.
            (legality.tested, legality.tested_to) = hooks.must_test(self, Some(king));
        }
        true
    }

    /// Whether `m` is legal, when [`Position::legality`] decides it without making the move;
    /// `None` when it must be made and tested (placements, en passant, castling, jewel jumps,
    /// moves of [`Legality::tested`] pieces).
    #[inline(always)]
    pub fn quick_legal(&self, m: &Move, legality: &Legality<B>) -> Option<bool> {
        const SPECIAL: u8 = flags::EN_PASSANT
            | flags::CASTLE_KING
            | flags::CASTLE_QUEEN
            | flags::ACQUIRE
            | flags::PASS;
        if !m.has_moving_part()
            || m.flags & SPECIAL != 0
            || (legality.tested.has(m.from) && legality.tested_to.has(m.to))
        {
            None
        } else if legality.royals.has(m.from) {
            Some(!self.royal_target_attacked(m.to, legality))
        } else if legality.pinned.has(m.from) {
            Some((legality.pin_mask(self.rules.variant, m.from) & legality.check_mask).has(m.to))
        } else {
            Some(legality.check_mask.has(m.to))
        }
    }

    /// Whether the side to move's royal piece would be attacked on `sq` (slides passing
    /// through the square it leaves).
    #[inline(always)]
    fn royal_target_attacked(&self, sq: Square, l: &Legality<B>) -> bool {
        let by = self.side.flip();
        let without_king = (self.occupied() | self.neutral) & !l.royals;
        l.hook_attacked.has(sq)
            || !self
                .table_attackers(sq, by, without_king, l.enemy_dirs, l.enemy_sliders, true)
                .is_empty()
    }

    /// The squares reached from `from` by the slot's limited-range slides and special leaps:
    /// a quiet step onto a square of `quiet_ok` (the empty squares), a capturing one onto a
    /// square of `capture_ok` (the enemy's capturable pieces); special leaps only `with_special`.
    /// Returned apart, as the second set: quiet-only special leaps when `double_steps` is set
    /// (a pawn's double step, which needs a flag).
    #[allow(clippy::too_many_arguments)]
    fn irregular_targets(
        &self,
        slot: usize,
        from: Square,
        blockers: Bitboard<B>,
        quiet_ok: Bitboard<B>,
        capture_ok: Bitboard<B>,
        with_special: bool,
        double_steps: bool,
    ) -> (Bitboard<B>, Bitboard<B>) {
        let v = self.rules.variant;
        let mut out = Bitboard::NONE;
        let mut doubles = Bitboard::NONE;
        for ride in &v.rides[slot] {
            if ride.range == 255 {
                continue;
            }
            for &to in v.ray(ride.dir, from).iter().take(ride.range as usize) {
                let blocked = blockers.has(to);
                if (ride.quiet && !blocked && quiet_ok.has(to))
                    || (ride.capture && capture_ok.has(to))
                {
                    out.set(to);
                }
                if blocked {
                    break;
                }
            }
        }
        if !with_special {
            return (out, doubles);
        }
        for leap in &v.special[slot] {
            if leap.path.to().intersects(blockers) {
                continue;
            }
            if (leap.quiet && quiet_ok.has(leap.to)) || (leap.capture && capture_ok.has(leap.to)) {
                if double_steps && leap.quiet && !leap.capture {
                    doubles.set(leap.to);
                } else {
                    out.set(leap.to);
                }
            }
        }
        (out, doubles)
    }

    /// A 64-bit Zobrist key of everything that decides the moves and their future: pieces,
    /// neutral squares, hands, side, castling rights and the en-passant square (the rules are
    /// the same for every position of one perft run).
    pub fn zobrist(&self) -> u64 {
        let z = zobrist_table();
        let mut key = if self.side == Colour::Black {
            z.side
        } else {
            0
        };
        for sq in self.occupied() {
            key ^= z.piece[self.board[sq.index()] as usize][sq.index()];
        }
        for sq in self.neutral {
            key ^= z.piece[0][sq.index()];
        }
        key ^= z.castling[self.castling as usize & 15];
        if let Some(ep) = self.ep {
            key ^= z.ep[ep.index()];
        }
        for c in 0..2 {
            for k in 0..MAX_KINDS {
                let n = self.hand[c][k] as usize;
                if n > 0 {
                    key ^= z.hand[c][k][n.min(63)];
                }
            }
        }
        key
    }

    /// Whether any royal piece of `colour` is attacked.
    pub fn royal_attacked(&self, colour: Colour) -> bool {
        let v = self.rules.variant;
        for &k in &v.royal_kinds {
            for sq in self.pieces_of(k, colour) {
                if self.attacked(sq, colour.flip()) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }

    // ----- move generation -----

    /// Pseudo-legal moves: every move the pieces can make, own royal safety not yet tested.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    /// Generates the pseudo-legal moves into any sink (a list, or a counter at perft leaves).
    pub fn generate<S: MoveSink<B>>(&self, sink: &mut S) {
        let v = self.rules.variant;
        let mut hook_moves = Vec::new();
        if v.replaces_moves && self.hooks().replace_moves(self, &mut hook_moves) {
            hook_moves.iter().for_each(|&m| sink.add(self, m));
            return;
        }
        let ctx = GenContext::new(self);
        let mut kinds = self.kinds[self.side.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            for from in self.by_kind[k] & ctx.ours {
                self.piece_moves(sink, &ctx, k, from, true);
            }
        }
        self.castling_and_hook_moves(sink, false);
    }

    /// Castling and the variant's extra moves; `not_in_check` when the caller knows the side to
    /// move is not in check.
    fn castling_and_hook_moves<S: MoveSink<B>>(&self, sink: &mut S, not_in_check: bool) {
        if self.castling != 0 {
            self.castling_moves(sink, not_in_check);
        }
        // A variant whose captures are all in the tables generates its extra moves, if any.
        if !self.rules.variant.fast_legality && sink.count_hook_moves(self) {
            return;
        }
        let mut rest = Vec::new();
        self.hooks().extra_moves(self, &mut rest);
        rest.iter().for_each(|&m| sink.add(self, m));
    }

    /// The moves of the piece of kind `k` on `from`; with `leaps` false only its slides, rides
    /// and en passant (its leaps are counted as sets, see [`Variant::leap_sets`]).
    #[inline(always)]
    fn piece_moves<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        ctx: &GenContext<B>,
        k: usize,
        from: Square,
        leaps: bool,
    ) {
        let v = self.rules.variant;
        let us = self.side;
        let promotions = &v.promotion_kinds[k];
        let is_pawn = v.spec.pieces[k].pawn;
        let slot = Variant::slot(k as u8, us, from);
        let sm = &v.slot_moves[slot];
        let mut plain = if leaps {
            (sm.leap_quiet.to() & ctx.empty) | (sm.leap_capture.to() & ctx.targets)
        } else {
            Bitboard::NONE
        };
        plain |= self.slide_targets(sm, from, ctx);
        if sm.irregular {
            let double_steps = is_pawn && v.spec.en_passant;
            let (more, doubles) = self.irregular_targets(
                slot,
                from,
                ctx.blockers,
                ctx.empty,
                ctx.targets,
                leaps,
                double_steps,
            );
            plain |= more;
            self.add_flagged(sink, from, doubles, flags::DOUBLE_STEP, promotions);
        }
        if is_pawn
            && let Some(ep) = self.ep
            && sm.leap_capture.has(ep)
        {
            self.add_flagged(
                sink,
                from,
                Bitboard::<B>::of(ep),
                flags::EN_PASSANT,
                promotions,
            );
        }
        sink.add_targets(self, from, plain, promotions, ctx.last_rank);
    }

    /// Where the unlimited slides of a slot go: empty squares and enemy pieces, as each slide
    /// may.
    #[inline(always)]
    fn slide_targets(&self, sm: &SlotMoves, from: Square, ctx: &GenContext<B>) -> Bitboard<B> {
        let v = self.rules.variant;
        let mut to = Bitboard::NONE;
        // Every slide's first square holds an own piece (or there is no slide): nothing.
        if !sm.slide_first.to().intersects(!ctx.ours) {
            return to;
        }
        if sm.slide_both != 0 {
            to |= v.slides(sm.slide_both, from, ctx.blockers) & ctx.reachable;
        }
        if sm.slide_quiet | sm.slide_capture == 0 {
            return to;
        }
        if sm.slide_quiet != 0 {
            to |= v.slides(sm.slide_quiet, from, ctx.blockers) & ctx.empty;
        }
        if sm.slide_capture != 0 {
            to |= v.slides(sm.slide_capture, from, ctx.blockers) & ctx.targets;
        }
        to
    }

    /// The number of legal moves when `l` decides legality: leaps of pieces neither royal nor
    /// pinned are counted as sets (one shift and one popcount per leap vector), everything else
    /// piece by piece.
    fn bulk_count(&self, l: &Legality<B>) -> u64 {
        let v = self.rules.variant;
        let mut counter = LeafCounter {
            legality: l,
            count: 0,
        };
        let mut hook_moves = Vec::new();
        if v.replaces_moves && self.hooks().replace_moves(self, &mut hook_moves) {
            hook_moves.iter().for_each(|&m| counter.add(self, m));
            return counter.count;
        }
        // The royal piece's moves are tested square by square; in check, every other move
        // must end on `check_mask`.
        let royal_ctx = GenContext::new(self);
        let in_check = l.check_mask != Bitboard::ALL;
        let mut ctx = royal_ctx;
        if in_check {
            ctx.empty &= l.check_mask;
            ctx.targets &= l.check_mask;
            ctx.reachable &= l.check_mask;
        }
        let ctx_for = |from: Square| if l.royals.has(from) { &royal_ctx } else { &ctx };
        let restricted = l.pinned | l.royals | l.tested;
        // Where a leap may end, indexed by quiet + 2 * capture.
        let allowed = [Bitboard::NONE, ctx.empty, ctx.targets, ctx.reachable];
        let mut kinds = self.kinds[self.side.index()];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.by_kind[k] & ctx.ours;
            if pieces.is_empty() {
                continue;
            }
            let kc = k * 2 + self.side.index();
            let Some(sets) = &v.leap_sets[kc] else {
                for from in pieces {
                    self.piece_moves(&mut counter, ctx_for(from), k, from, true);
                }
                continue;
            };
            let free = pieces & !restricted;
            let promotions = v.promotion_kinds[k].len();
            let is_pawn = v.pawn_kinds >> k & 1 != 0;
            // A few pieces with many leap vectors (Knights) cost less piece by piece: one
            // table load and popcount each, against a shift and popcount per vector.
            let by_piece = !free.is_empty() && free.count() < v.by_piece_below[kc];
            let sets: &[LeapSet] = if free.is_empty() || by_piece {
                &[]
            } else {
                sets
            };
            for set in sets {
                let mut from = free & set.sources.to();
                if from.is_empty() {
                    continue;
                }
                for &p in &set.path[..set.path_len as usize] {
                    from &= royal_ctx.empty.shift(-p);
                }
                let to =
                    from.shift(set.delta) & allowed[set.quiet as usize + 2 * set.capture as usize];
                counter.count += moves_onto(to, ctx.last_rank, promotions);
            }
            if is_pawn {
                if v.has_rides[kc] {
                    for from in free {
                        self.piece_moves(&mut counter, &ctx, k, from, false);
                    }
                } else if let Some(ep) = self.ep {
                    // Their leaps are counted; en passant is left, for the pawns that capture
                    // on the square.
                    let takers =
                        free & v.leap_attackers[Variant::slot(k as u8, self.side, ep)].to();
                    for from in takers {
                        self.add_flagged(
                            &mut counter,
                            from,
                            Bitboard::<B>::of(ep),
                            flags::EN_PASSANT,
                            &v.promotion_kinds[k],
                        );
                    }
                }
            } else if by_piece || v.has_rides[kc] {
                // Slides piece by piece, and the leaps too when they were not counted as sets.
                for from in free {
                    let sm = &v.slot_moves[Variant::slot(k as u8, self.side, from)];
                    if sm.irregular {
                        self.piece_moves(&mut counter, &ctx, k, from, by_piece);
                        continue;
                    }
                    let mut to = self.slide_targets(sm, from, &ctx);
                    if by_piece {
                        to |=
                            (sm.leap_quiet.to() & ctx.empty) | (sm.leap_capture.to() & ctx.targets);
                    }
                    counter.count += moves_onto(to, ctx.last_rank, promotions);
                }
            }
            for from in pieces & restricted {
                self.piece_moves(&mut counter, ctx_for(from), k, from, true);
            }
        }
        self.castling_and_hook_moves(&mut counter, !in_check);
        counter.count
    }

    /// Moves from `from` to each square of `to` with `flag`, promoting on the last rank.
    fn add_flagged<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        from: Square,
        to: Bitboard<B>,
        flag: u8,
        promotions: &[u8],
    ) {
        let last_rank = self.rules.variant.last_rank_bb[self.side.index()].to();
        for sq in to {
            let mut m = Move::new(from, sq);
            m.flags = flag;
            add_promoting(sink, self, m, promotions, last_rank);
        }
    }

    fn castling_moves<S: MoveSink<B>>(&self, sink: &mut S, not_in_check: bool) {
        let us = self.side;
        let blockers = self.occupied() | self.neutral;
        let mut in_check = None;
        for wing in [Wing::King, Wing::Queen] {
            if !self.has_castling(us, wing) {
                continue;
            }
            let Some(c) = self.rules.castles[us.index()][wing as usize] else {
                continue;
            };
            let files = self.rules.castle_files[us.index()][wing as usize];
            let rank = c.king_from.rank();
            if blockers.intersects(Bitboard::on_rank(files.empty, rank).to()) {
                continue;
            }
            if !not_in_check && *in_check.get_or_insert_with(|| self.in_check()) {
                return;
            }
            let mut passed = files.passed;
            let mut through_attack = false;
            while passed != 0 {
                let file = passed.trailing_zeros() as u8;
                passed &= passed - 1;
                if self.attacked(Square::new(file, rank), us.flip()) {
                    through_attack = true;
                    break;
                }
            }
            if through_attack {
                continue;
            }
            let mut m = Move::new(c.king_from, c.king_to);
            m.flags = if wing == Wing::King {
                flags::CASTLE_KING
            } else {
                flags::CASTLE_QUEEN
            };
            sink.add(self, m);
        }
    }

    /// Calls `f` with every legal move and the position it leads to, ignoring whether the game
    /// is already decided (see [`Position::decided`]).
    pub fn for_each_legal_unchecked(&self, mut f: impl FnMut(Move, &Self)) {
        let v = self.rules.variant;
        let mut pseudo = Vec::with_capacity(64);
        let us = self.side;
        if v.expands && self.hooks().expands_here(self) {
            self.pseudo_moves(&mut pseudo);
            let mut expanded = Vec::new();
            for m in pseudo {
                let after = self.play(m);
                expanded.clear();
                self.hooks().expand(self, &after, m, &mut expanded);
                for &e in &expanded {
                    let after_e = if e == m { after } else { self.play(e) };
                    if !after_e.royal_attacked(us) {
                        f(e, &after_e);
                    }
                }
            }
            return;
        }
        let mut known_legality = Legality::EMPTY;
        let legality = self
            .legality_into(&mut known_legality)
            .then_some(&known_legality);
        self.generate(&mut pseudo);
        for m in pseudo {
            let known = legality.and_then(|l| self.quick_legal(&m, l));
            if known == Some(false) {
                continue;
            }
            // Made in place: a returned position costs a second copy.
            let mut after = *self;
            after.make(m);
            if known == Some(true) || !after.royal_attacked(us) {
                f(m, &after);
            }
        }
    }

    /// Calls `f` with every legal move and the position after it; none when the game is decided
    /// by the variant's own rules under `game-end = rules`.
    pub fn for_each_legal(&self, f: impl FnMut(Move, &Self)) {
        if self.rules.game_end == GameEnd::Rules && self.decided().is_some() {
            return;
        }
        self.for_each_legal_unchecked(f);
    }

    /// The legal moves (none when decided under `game-end = rules`).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_legal(|m, _| out.push(m));
        out
    }

    /// The legal moves, ignoring the variant's decisive rules.
    pub fn legal_moves_unchecked(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_legal_unchecked(|m, _| out.push(m));
        out
    }

    /// The number of legal moves (perft 1).
    pub fn count_legal(&self) -> u64 {
        let v = self.rules.variant;
        if v.expands && self.hooks().expands_here(self) {
            let mut n = 0;
            self.for_each_legal(|_, _| n += 1);
            return n;
        }
        if self.rules.game_end == GameEnd::Rules && self.decided().is_some() {
            return 0;
        }
        let us = self.side;
        let mut legality = Legality::EMPTY;
        match self.legality_into(&mut legality) {
            true => self.bulk_count(&legality),
            false => {
                let mut pseudo = Vec::with_capacity(64);
                self.pseudo_moves(&mut pseudo);
                pseudo
                    .iter()
                    .filter(|m| !self.play(**m).royal_attacked(us))
                    .count() as u64
            }
        }
    }

    /// The variant's own decision (bare King, marriage), whatever the game-end mode.
    pub fn decided(&self) -> Option<Outcome> {
        self.hooks().decided(self)
    }

    /// The outcome when the game is over under the rules' game-end mode; `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.rules.game_end == GameEnd::Rules
            && let Some(o) = self.decided()
        {
            return Some(o);
        }
        let mut any = false;
        self.for_each_legal_unchecked(|_, _| any = true);
        if any {
            None
        } else if self.in_check() {
            Some(Outcome::win(self.side.flip()))
        } else {
            Some(Outcome::Draw)
        }
    }

    // ----- make move -----

    /// The position after `m`, which must come from this position's generator.
    #[inline(always)]
    pub fn play(&self, m: Move) -> Self {
        let mut next = *self;
        next.make(m);
        next
    }

    /// Plays `m` on this position (see [`Position::play`]).
    fn make(&mut self, m: Move) {
        let v = self.rules.variant;
        let us = self.side;
        let ep_victim = self.ep_victim;
        let next = self;
        next.ep = None;
        next.ep_victim = None;
        next.halfmove = (next.halfmove + 1).min(MAX_COUNTER);
        if m.has_moving_part() {
            let mut piece = next.take(m.from).expect("a move starts on a piece");
            let spec = &v.spec.pieces[piece.kind as usize];
            if spec.pawn {
                next.halfmove = 0;
            }
            if m.flags & (flags::CASTLE_KING | flags::CASTLE_QUEEN) != 0 {
                let wing = if m.flags & flags::CASTLE_KING != 0 {
                    0
                } else {
                    1
                };
                let c = next.rules.castles[us.index()][wing].expect("castling move has a spec");
                let rook = next.take(c.rook_from).expect("castling Rook present");
                next.put(c.king_to, piece);
                next.put(c.rook_to, rook);
            } else {
                let victim_sq = if m.flags & flags::EN_PASSANT != 0 {
                    ep_victim.expect("en passant needs a victim")
                } else {
                    m.to
                };
                if let Some(captured) = next.take(victim_sq) {
                    next.halfmove = 0;
                    if v.spec.hand == crate::variant::HandKind::LostPieces {
                        next.add_to_hand(captured.colour, captured.kind, 1);
                    }
                }
                if m.flags & flags::DOUBLE_STEP != 0 {
                    next.ep = Some(Square((m.from.0 + m.to.0) / 2));
                    next.ep_victim = Some(m.to);
                }
                if m.flags & (flags::ACQUIRE | flags::PASS) != 0 {
                    piece = next.hooks().after_jump(next, m, piece);
                }
                if m.promotion != 0 {
                    piece.kind = m.promotion - 1;
                }
                next.put(m.to, piece);
            }
            // Castling rights: a King or Rook leaving or being captured on its square.
            if next.castling != 0 {
                let castle_keep = next.rules.castle_keep;
                for (sq, keep) in castle_keep {
                    if sq == m.from || sq == m.to {
                        next.castling &= keep;
                    }
                }
            }
        }
        if m.placements.iter().any(|p| p.kind != 0) {
            for (kind, sq) in m.placement_list() {
                next.put(sq, Piece { kind, colour: us });
                next.add_to_hand(us, kind, -1);
            }
        }
        if us == Colour::Black {
            next.fullmove = (next.fullmove + 1).min(MAX_COUNTER);
        }
        next.side = us.flip();
    }
}

/// Receives generated moves.
pub trait MoveSink<B: Width> {
    /// One move.
    fn add(&mut self, pos: &Position<B>, m: Move);
    /// Plain moves (no flags) from `from` to every square of `to`; arriving on `last_rank`
    /// promotes to each of `promotions` when that list is not empty.
    fn add_targets(
        &mut self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        for sq in to {
            add_promoting(self, pos, Move::new(from, sq), promotions, last_rank);
        }
    }
    /// Counts the variant's extra moves itself instead of being given them one by one
    /// ([`HooksAt::count_extra_moves`]); false (the default) when it cannot.
    ///
    /// [`HooksAt::count_extra_moves`]: crate::variant::HooksAt::count_extra_moves
    fn count_hook_moves(&mut self, _pos: &Position<B>) -> bool {
        false
    }
}

/// The number of moves arriving on the squares of `to`: one each, or one per promotion choice
/// on `last_rank` when the mover has `promotions` choices.
#[inline(always)]
pub(crate) fn moves_onto<B: Width>(
    to: Bitboard<B>,
    last_rank: Bitboard<B>,
    promotions: usize,
) -> u64 {
    let mut n = to.count() as u64;
    if promotions > 1 {
        n += (to & last_rank).count() as u64 * (promotions as u64 - 1);
    }
    n
}

/// Adds `m` to `sink`: once per promotion choice when it arrives on `last_rank` and
/// `promotions` is not empty, else once.
#[inline(always)]
pub(crate) fn add_promoting<B: Width, S: MoveSink<B> + ?Sized>(
    sink: &mut S,
    pos: &Position<B>,
    mut m: Move,
    promotions: &[u8],
    last_rank: Bitboard<B>,
) {
    if !promotions.is_empty() && last_rank.has(m.to) {
        for &p in promotions {
            m.promotion = p + 1;
            sink.add(pos, m);
        }
    } else {
        sink.add(pos, m);
    }
}

impl<B: Width> MoveSink<B> for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, _pos: &Position<B>, m: Move) {
        self.push(m);
    }
}

/// What move generation reads from a position, computed once per node.
#[derive(Clone, Copy)]
struct GenContext<B: Width> {
    ours: Bitboard<B>,
    blockers: Bitboard<B>,
    empty: Bitboard<B>,
    targets: Bitboard<B>,
    reachable: Bitboard<B>,
    last_rank: Bitboard<B>,
}

impl<B: Width> GenContext<B> {
    #[inline(always)]
    fn new(pos: &Position<B>) -> Self {
        let v = pos.rules.variant;
        let us = pos.side;
        let blockers = pos.occupied() | pos.neutral;
        let empty = v.geometry.mask.to() & !blockers;
        let targets = pos.capturable(us.flip());
        GenContext {
            ours: pos.by_colour[us.index()],
            blockers,
            empty,
            targets,
            reachable: empty | targets,
            last_rank: v.last_rank_bb[us.index()].to(),
        }
    }
}

/// Most pins [`Position::legality`] records; with more, every move is made and tested. Four
/// keep [`Legality`] at 128 bytes, which is copied without a call to `memcpy`.
const MAX_PINS: usize = 4;
const _: () = assert!(std::mem::size_of::<Legality>() <= 128);

/// Pins found by [`Position::legality`]: a pinned piece may only move inside its segment
/// (between its King and the pinning piece, the pinner included).
#[derive(Clone, Copy, Debug)]
pub struct Legality<B: Width = u128> {
    /// Directions (bits) some enemy piece captures along.
    enemy_dirs: u16,
    /// The enemy pieces that capture by sliding.
    enemy_sliders: Bitboard<B>,
    /// Squares the opponent's hook moves capture on (see [`HooksAt::extra_attack_map`]), with
    /// the side to move's royal piece lifted.
    ///
    /// [`HooksAt::extra_attack_map`]: crate::variant::HooksAt::extra_attack_map
    hook_attacked: Bitboard<B>,
    /// The side to move's royal piece.
    pub royals: Bitboard<B>,
    /// Pinned pieces of the side to move.
    pub pinned: Bitboard<B>,
    /// Pieces of the side to move whose moves onto [`Legality::tested_to`] are made and tested
    /// (from [`HooksAt::must_test`]).
    ///
    /// [`HooksAt::must_test`]: crate::variant::HooksAt::must_test
    pub tested: Bitboard<B>,
    /// The squares where moves of [`Legality::tested`] pieces are made and tested; their
    /// moves elsewhere are decided as any piece's.
    pub tested_to: Bitboard<B>,
    /// In check by one table piece: the checker's square and the squares between it and the
    /// royal piece, where every move but the royal piece's must end; [`Bitboard::ALL`] (every
    /// square index) when not in check.
    pub check_mask: Bitboard<B>,
    /// The royal piece's square (when there is one).
    king: Square,
    /// Each pin: the pinned piece's square, the direction from the pinning piece to the royal
    /// piece, the pinning piece's square.
    pins: [(Square, u8, Square); MAX_PINS],
    pin_count: u8,
}

impl<B: Width> Legality<B> {
    /// Nothing known yet: what [`Position::legality_into`] starts from.
    const EMPTY: Self = Legality {
        enemy_dirs: 0,
        enemy_sliders: Bitboard::NONE,
        hook_attacked: Bitboard::NONE,
        royals: Bitboard::NONE,
        pinned: Bitboard::NONE,
        tested: Bitboard::NONE,
        tested_to: Bitboard::NONE,
        check_mask: Bitboard::ALL,
        king: NO_SQUARE,
        pins: [(NO_SQUARE, 0, NO_SQUARE); MAX_PINS],
        pin_count: 0,
    };

    /// Squares the pinned piece on `from` may move to (`v` is the position's variant): between
    /// the royal piece and the pinning piece, that one included.
    #[inline(always)]
    pub fn pin_mask(&self, v: &Variant, from: Square) -> Bitboard<B> {
        let mut mask = Bitboard::<B>::ALL;
        for &(pinned, dir, by) in &self.pins[..self.pin_count as usize] {
            if pinned == from {
                let at = |sq: Square| dir as usize * SQUARE_COUNT + sq.index();
                mask &= (v.back_ray_bb[at(self.king)] & !v.back_ray_bb[at(by)]).to::<B>();
            }
        }
        mask
    }
}

/// Counts legal moves at a perft leaf without making the moves whose legality the pins and
/// attack tables already decide.
struct LeafCounter<'a, B: Width> {
    legality: &'a Legality<B>,
    count: u64,
}

impl<B: Width> MoveSink<B> for LeafCounter<'_, B> {
    #[inline(always)]
    fn count_hook_moves(&mut self, pos: &Position<B>) -> bool {
        if self.legality.check_mask != Bitboard::ALL {
            return false;
        }
        let hooks = pos.hooks();
        match hooks.count_extra_moves(pos, self.legality) {
            Some(n) => {
                self.count += n;
                true
            }
            None => false,
        }
    }
    #[inline(always)]
    fn add(&mut self, pos: &Position<B>, m: Move) {
        let legal = match pos.quick_legal(&m, self.legality) {
            Some(known) => known,
            None => !pos.play(m).royal_attacked(pos.side),
        };
        if legal {
            self.count += 1;
        }
    }
    #[inline(always)]
    fn add_targets(
        &mut self,
        pos: &Position<B>,
        from: Square,
        to: Bitboard<B>,
        promotions: &[u8],
        last_rank: Bitboard<B>,
    ) {
        let mut to = to;
        if self.legality.tested.has(from) {
            let tested = to & self.legality.tested_to;
            OneByOne(self).add_targets(pos, from, tested, promotions, last_rank);
            to &= !tested;
        }
        let to = if self.legality.royals.has(from) {
            to.filter_squares(|sq| !pos.royal_target_attacked(sq, self.legality))
        } else if self.legality.pinned.has(from) {
            to & self.legality.pin_mask(pos.rules.variant, from)
        } else {
            to
        };
        self.count += moves_onto(to, last_rank, promotions.len());
    }
}

/// A [`LeafCounter`] taking targets one move at a time (the default `add_targets`), so each
/// goes through `quick_legal` to make-and-test.
struct OneByOne<'a, 'b, B: Width>(&'a mut LeafCounter<'b, B>);

impl<B: Width> MoveSink<B> for OneByOne<'_, '_, B> {
    fn add(&mut self, pos: &Position<B>, m: Move) {
        self.0.add(pos, m);
    }
}

struct ZobristTable {
    piece: Vec<[u64; SQUARE_COUNT]>,
    side: u64,
    castling: [u64; 16],
    ep: [u64; SQUARE_COUNT],
    hand: [[[u64; 64]; MAX_KINDS]; 2],
}

fn zobrist_table() -> &'static ZobristTable {
    static TABLE: std::sync::OnceLock<ZobristTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // splitmix64: fixed seed, so keys are the same in every run.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut t = ZobristTable {
            piece: vec![[0; SQUARE_COUNT]; 64],
            side: next(),
            castling: [0; 16],
            ep: [0; SQUARE_COUNT],
            hand: [[[0; 64]; MAX_KINDS]; 2],
        };
        for row in t.piece.iter_mut() {
            row.iter_mut().for_each(|v| *v = next());
        }
        t.castling.iter_mut().for_each(|v| *v = next());
        t.ep.iter_mut().for_each(|v| *v = next());
        for side in t.hand.iter_mut() {
            for kind in side.iter_mut() {
                kind.iter_mut().for_each(|v| *v = next());
            }
        }
        t
    })
}

/// "White" or "Black".
pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

fn wing_name(w: Wing) -> &'static str {
    match w {
        Wing::King => "King-side",
        Wing::Queen => "Queen-side",
    }
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
    use crate::notation::parse_position;
    use crate::variants;

    #[test]
    fn move_counters_stop_at_the_largest_value_fen_accepts() {
        // Found by the `movegen` fuzz target: a clock at 99999 went to 100000, which the
        // printed FEN could not be read back with.
        let rules = variants::rules("chess").expect("chess");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 99999 99999";
        let pos = parse_position(rules, start).expect("legal position");
        let after = crate::notation::play_moves(&pos, "g8f6").expect("legal move");
        let fen = crate::notation::to_fen(&after);
        assert!(fen.ends_with(" 99999 99999"), "{fen}");
        parse_position(rules, &fen).expect("the position reached parses back");
    }

    #[test]
    fn pink_panther_pawn_on_its_first_rank_is_legal() {
        // Found by the `movegen` fuzz target: Black's General on d7 jumps its own
        // Silvergeneral on c7, which becomes a Pawn on Black's first rank.
        let rules = variants::rules("pink-panther").expect("variant");
        let before = "b1+pg1br/p3pp1/1rB3p/n1p4/PNP2P1/1P2P1P/1RG2BR b - - 5 17";
        let pos = parse_position(rules, before).expect("legal position");
        let after = crate::notation::play_moves(&pos, "d7b7").expect("legal move");
        let fen = crate::notation::to_fen(&after);
        assert_eq!(
            fen,
            "b+gp2br/p3pp1/1rB3p/n1p4/PNP2P1/1P2P1P/1RG2BR w - - 6 18"
        );
        parse_position(rules, &fen).expect("the position reached parses back");
        // Chess still refuses a Pawn on its own first rank.
        let chess = variants::rules("chess").expect("chess");
        let refused = parse_position(chess, "4k3/8/8/8/8/8/8/3PK3 w - - 0 1");
        assert!(
            refused.is_err_and(|e| e.to_string().contains("first rank")),
            "a chess Pawn on d1 is accepted"
        );
    }
}
