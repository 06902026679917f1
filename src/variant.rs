//! Variant descriptions: a variant is data (board, pieces, start position, promotion, castling,
//! options) plus a few hooks for what data cannot say.
//!
//! [`VariantSpec`] is what a variant file declares; [`Variant`] is the same compiled into move
//! tables; [`Rules`] is a variant with its rule options chosen, as positions carry it.

use crate::geometry::{Bitboard, Bits, Geometry, SQUARE_COUNT, Square};
use crate::piece::{BetzaError, parse_betza};
use crate::position::{Move, Position};
use std::fmt;

/// Most piece kinds a variant may declare.
pub const MAX_KINDS: usize = 16;
/// Most rule options a variant may declare (besides `game-end`).
pub const MAX_OPTIONS: usize = 4;

/// A side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Colour {
    /// The other side.
    pub const fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Both sides, White first.
    pub const BOTH: [Colour; 2] = [Colour::White, Colour::Black];
}

/// How a piece moves: the same everywhere, or by the colour of the square it stands on.
#[derive(Clone, Copy, Debug)]
pub enum MovementSpec {
    /// One Betza string.
    Uniform(&'static str),
    /// One Betza string on light squares, another on dark squares (a1 is dark).
    BySquareColour {
        /// Movement from a light square.
        light: &'static str,
        /// Movement from a dark square.
        dark: &'static str,
    },
}

/// One piece kind as a variant declares it.
#[derive(Clone, Debug)]
pub struct PieceSpec {
    /// FEN spelling for White (`N`, or `+G` for a Pink Panther carrier).
    pub fen: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Movement.
    pub movement: MovementSpec,
    /// Whether the piece is royal: a side whose royal piece could be captured is in check.
    pub royal: bool,
    /// A pawn: resets the halfmove clock, may capture en passant, its double step sets the
    /// en-passant square.
    pub pawn: bool,
    /// FEN letters (White's spelling) of the pieces this one promotes to on the last rank.
    pub promotes_to: &'static [&'static str],
    /// Whether an enemy may capture it.
    pub capturable: bool,
    /// Each side has exactly one piece among its sovereign kinds (the King; Pink Panther's
    /// General or King). Royal pieces are sovereign.
    pub sovereign: bool,
}

impl PieceSpec {
    /// A plain, capturable, non-royal piece.
    pub const fn new(fen: &'static str, name: &'static str, betza: &'static str) -> PieceSpec {
        PieceSpec {
            fen,
            name,
            movement: MovementSpec::Uniform(betza),
            royal: false,
            pawn: false,
            promotes_to: &[],
            capturable: true,
            sovereign: false,
        }
    }
    /// The same piece, royal.
    pub const fn royal(mut self) -> PieceSpec {
        self.royal = true;
        self.sovereign = true;
        self
    }
    /// The same piece, sovereign but not royal (it cannot be checked).
    pub const fn sovereign(mut self) -> PieceSpec {
        self.sovereign = true;
        self
    }
    /// The same piece as a pawn promoting to `to`.
    pub const fn pawn(mut self, to: &'static [&'static str]) -> PieceSpec {
        self.pawn = true;
        self.promotes_to = to;
        self
    }
    /// The same piece promoting to `to` (not a pawn).
    pub const fn promotes(mut self, to: &'static [&'static str]) -> PieceSpec {
        self.promotes_to = to;
        self
    }
    /// The same piece, uncapturable.
    pub const fn uncapturable(mut self) -> PieceSpec {
        self.capturable = false;
        self
    }
}

/// Which wing a castling goes to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Wing {
    /// Toward the Rook on the higher file (FEN `K`/`k`).
    King = 0,
    /// Toward the Rook on the a side (FEN `Q`/`q`).
    Queen = 1,
}

/// One castling: where King and Rook start and land.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CastleSpec {
    /// King's start square.
    pub king_from: Square,
    /// King's destination.
    pub king_to: Square,
    /// Rook's start square.
    pub rook_from: Square,
    /// Rook's destination.
    pub rook_to: Square,
}

/// A named rule option with its values; the first is the default.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The name used with `-o name=value` and in suites.
    pub name: &'static str,
    /// Allowed values, default first.
    pub values: &'static [&'static str],
    /// The ruling id in RULES.md.
    pub ruling: &'static str,
    /// One line of help.
    pub help: &'static str,
}

/// What lives in the `[...]` field of a FEN.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HandKind {
    /// No hands.
    None,
    /// Each side's captured pieces go to its own hand (Cerimon); always printed.
    LostPieces,
    /// Pieces waiting to be placed at the start (Silver Elephant); printed when non-empty.
    Setup,
}

/// Everything a variant file declares.
pub struct VariantSpec {
    /// Id used on the command line and in suites.
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Piece kinds; their order is the kind index.
    pub pieces: Vec<PieceSpec>,
    /// The default start position.
    pub start_fen: &'static str,
    /// Castlings for the default options, King side before Queen side, White then Black.
    pub castling: Vec<(Colour, Wing, CastleSpec)>,
    /// Whether double steps set the en-passant square and pawns capture en passant.
    pub en_passant: bool,
    /// The hand, if any.
    pub hand: HandKind,
    /// Whether FEN may hold the neutral `*` square (the unclaimed Pink Panther jewel).
    pub jewel: bool,
    /// Rule options besides `game-end`.
    pub options: Vec<OptionSpec>,
    /// Ruling ids this variant's suites may cite.
    pub rulings: &'static [&'static str],
    /// Behaviour data cannot say.
    pub hooks: &'static dyn Hooks,
}

/// An outcome of a finished game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// White has won.
    WhiteWins,
    /// Black has won.
    BlackWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// The win of `c`.
    pub fn win(c: Colour) -> Outcome {
        match c {
            Colour::White => Outcome::WhiteWins,
            Colour::Black => Outcome::BlackWins,
        }
    }
    /// Suite spelling.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "white-wins",
            Outcome::BlackWins => "black-wins",
            Outcome::Draw => "draw",
        }
    }
}

/// GE-1: which positions end the game in perft.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameEnd {
    /// Checkmate, stalemate and the variant's own decisive rules.
    Rules,
    /// Only positions without legal moves.
    Movegen,
}

impl GameEnd {
    /// Parses `rules` or `movegen`.
    pub fn parse(text: &str) -> Option<GameEnd> {
        match text {
            "rules" => Some(GameEnd::Rules),
            "movegen" => Some(GameEnd::Movegen),
            _ => None,
        }
    }
    /// The option value's spelling.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Rules => "rules",
            GameEnd::Movegen => "movegen",
        }
    }
}

/// The small hooks a variant implements for what its data cannot say: these, which read the
/// rules or a set-up, and [`HooksAt`], which read positions as the generator keeps them (64- or
/// 128-bit masks). Every method has a no-op default, so chess implements both traits empty.
pub trait Hooks: HooksAt<u64> + HooksAt<u128> + Sync + Send {
    /// The start position under these options.
    fn start_fen(&self, rules: &Rules) -> String {
        rules.variant.spec.start_fen.to_string()
    }
    /// The castlings under these options (default: the declared ones).
    fn castling(&self, rules: &Rules) -> Vec<(Colour, Wing, CastleSpec)> {
        rules.variant.spec.castling.clone()
    }
    /// Whether `replace_moves` may return true (so the generator knows to call it, and
    /// variants without a setup phase pay no call per position).
    fn replaces_moves(&self) -> bool {
        false
    }
    /// Whether the tables describe every capture (no `extra_attacks`), so pins and checks can
    /// be computed from them alone.
    fn table_attacks_only(&self) -> bool {
        true
    }
    /// Whether `expand` may add moves (so the generator knows to call it).
    fn expands(&self) -> bool {
        false
    }
    /// Extra validation of a setup, with a one-line reason.
    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}

/// The hooks that read a position, for positions kept in `B` ([`Width`]); a variant
/// implements them once, generically.
pub trait HooksAt<B: Width> {
    /// A decision beyond checkmate and stalemate, asked only under `game-end = rules`, before
    /// any move is generated: `Some` ends the game (bare King, marriage).
    fn decided(&self, _pos: &Position<B>) -> Option<Outcome> {
        None
    }
    /// Replaces the whole pseudo-legal move list when it returns true (a setup phase). Asked
    /// only when [`Hooks::replaces_moves`] is true.
    fn replace_moves(&self, _pos: &Position<B>, _out: &mut Vec<Move>) -> bool {
        false
    }
    /// Adds pseudo-legal moves the tables cannot describe (jewel jumps).
    fn extra_moves(&self, _pos: &Position<B>, _out: &mut Vec<Move>) {}
    /// The number of legal moves among [`HooksAt::extra_moves`] at a perft leaf, when
    /// [`Position::legality`] gave `legality` (so the side to move is not in check by a table
    /// or hook move); `None` (the default) to generate them and decide each one.
    fn count_extra_moves(
        &self,
        _pos: &Position<B>,
        _legality: &crate::position::Legality<B>,
    ) -> Option<u64> {
        None
    }
    /// Whether the extra moves of `by` capture on `sq` (jewel jumps give check).
    fn extra_attacks(&self, _pos: &Position<B>, _sq: Square, _by: Colour) -> bool {
        false
    }
    /// Turns one legal-or-not base move into its variants (resurrection placements): pushes
    /// every variant, the base move included, onto `out`. Default: the move alone.
    fn expand(&self, _before: &Position<B>, _after: &Position<B>, m: Move, out: &mut Vec<Move>) {
        out.push(m);
    }
    /// Applies a jewel jump (`ACQUIRE` or `PASS` move) to `next`, where the mover has been
    /// lifted from its square and any captured piece removed; returns the mover as it lands.
    fn after_jump(
        &self,
        _next: &mut Position<B>,
        _m: Move,
        piece: crate::position::Piece,
    ) -> crate::position::Piece {
        piece
    }
    /// With hook captures ([`Hooks::table_attacks_only`] false): every square of `wanted` on
    /// which a hook move of `by` could capture the other side's royal piece if it stood there,
    /// slides blocked by `blockers` (the board without that royal piece), for
    /// [`Position::legality`] (squares outside `wanted` may be included or not). `None` (the
    /// default) when the variant cannot say: every move is then made and tested.
    fn extra_attack_map(
        &self,
        _pos: &Position<B>,
        _by: Colour,
        _blockers: Bitboard<B>,
        _wanted: Bitboard<B>,
    ) -> Option<Bitboard<B>> {
        None
    }
    /// Pieces of the side to move whose moves [`Position::legality`] must leave to make-and-test
    /// although no table piece pins them, and the squares where that matters: moving one of
    /// the pieces onto one of the squares may open or create a hook capture onto `royal` (the
    /// side to move's royal piece, if any); their other moves are decided as any piece's.
    /// Flagged moves are tested anyway. Default: no piece.
    fn must_test(&self, _pos: &Position<B>, _royal: Option<Square>) -> (Bitboard<B>, Bitboard<B>) {
        (Bitboard::NONE, Bitboard::NONE)
    }
    /// Whether `expand` may add moves in `pos`, asked only when [`Hooks::expands`] is true: a
    /// variant that expands says where (false where it knows no expansion can happen, so the
    /// fast paths apply). Default: never.
    fn expands_here(&self, _pos: &Position<B>) -> bool {
        false
    }
}

/// A [`Bits`] the generator runs on: `u128` for every board, `u64` for boards of at most 8
/// files ([`Variant::narrow`]).
pub trait Width: Bits {
    /// The variant's hooks for positions kept in `Self`.
    fn hooks(h: &'static dyn Hooks) -> &'static dyn HooksAt<Self>;
}

impl Width for u64 {
    #[inline(always)]
    fn hooks(h: &'static dyn Hooks) -> &'static dyn HooksAt<u64> {
        h
    }
}

impl Width for u128 {
    #[inline(always)]
    fn hooks(h: &'static dyn Hooks) -> &'static dyn HooksAt<u128> {
        h
    }
}

/// A variant compiled into move tables.
pub struct Variant {
    /// The declaration.
    pub spec: VariantSpec,
    /// The board.
    pub geometry: Geometry,
    /// Per (kind, colour, square): quiet leap targets.
    pub leap_quiet: Vec<Bitboard>,
    /// Per (kind, colour, square): capturing leap targets.
    pub leap_capture: Vec<Bitboard>,
    /// Per (kind, colour, square): origins from which such a piece captures on the square by leap.
    pub leap_attackers: Vec<Bitboard>,
    /// Per (kind, colour, square): lame or initial leaps.
    pub special: Vec<Vec<SpecialLeap>>,
    /// Per (kind, colour, square): slides.
    pub rides: Vec<Vec<Ride>>,
    /// Per (kind, colour, square, direction): longest capturing slide (0 none, 255 unlimited).
    pub ride_capture_range: Vec<[u8; MAX_DIRECTIONS]>,
    /// Per (direction, square): the ray of squares.
    pub rays: Vec<Vec<Square>>,
    /// The direction vectors used by slides.
    pub directions: Vec<(i8, i8)>,
    /// Per kind, for each side: the leap vectors as declared (for jewel jumps), White's view.
    pub atoms: Vec<Vec<crate::piece::Atom>>,
    /// Kind index of each promotion target, per kind.
    pub promotion_kinds: Vec<Vec<u8>>,
    /// Whether any kind has special (lame or initial) capturing leaps.
    pub special_captures: bool,
    /// Royal kinds.
    pub royal_kinds: Vec<u8>,
    /// Kinds an enemy may not capture, as bits.
    pub uncapturable_kinds: u16,
    /// Per (direction, square): the ray walked backwards (toward a possible slider).
    pub back_rays: Vec<Vec<Square>>,
    /// Per (direction, square): the forward ray as a set.
    pub ray_bb: Vec<Bitboard>,
    /// Per (direction, square): the backward ray as a set.
    pub back_ray_bb: Vec<Bitboard>,
    /// Per square: every backward ray from it, as one set.
    pub all_back_rays: Vec<Bitboard>,
    /// Per square: the directions (bits) whose backward ray from it is not empty, so walks
    /// toward a possible slider skip the board's edges at once.
    pub back_dirs: Vec<u16>,
    /// Per (colour, square): every square from which some piece of that colour could capture
    /// on it by a table leap, whatever its kind.
    pub any_leap_attackers: Vec<Bitboard>,
    /// Per direction: the step length (Chebyshev) of one step.
    pub step_length: Vec<u8>,
    /// Per colour: that side's last rank (where its pieces promote).
    pub last_rank_bb: [Bitboard; 2],
    /// Legality may be decided from pins and checks found in the tables (no hook captures, no
    /// expansions, no lame capturing leaps).
    pub fast_legality: bool,
    /// Every square of the board has an index below 64 (at most 8 files): positions are
    /// counted on 64-bit masks ([`Position::narrowed`](crate::position::Position::narrowed)).
    pub narrow: bool,
    /// [`Hooks::expands`], asked once.
    pub expands: bool,
    /// [`Hooks::replaces_moves`], asked once.
    pub replaces_moves: bool,
    /// Per (kind, colour, square): the same moves as `leap_*`, `rides` and `special`, packed
    /// for the generator's inner loop.
    pub slot_moves: Vec<SlotMoves>,
    /// Per (kind, colour): the directions (bits) of every capturing slide from any square.
    pub capture_dirs: Vec<u16>,
    /// The pawn kinds, as bits.
    pub pawn_kinds: u16,
    /// Per colour: the kinds with some capturing slide (`capture_dirs` not empty), as bits.
    pub slider_kinds: [u16; 2],
    /// Per direction: whether square indices fall along the forward ray (and so grow along
    /// the backward one).
    pub forward_descending: [bool; MAX_DIRECTIONS],
    /// The same as direction bits.
    pub descending_dirs: u16,
    /// Per (kind, colour): the kind's leaps (plain and special) as sets, when they can be
    /// counted that way: no square reached twice from one square, no slide over a leap's
    /// target, short paths. `None`: the generator goes piece by piece.
    pub leap_sets: Vec<Option<Vec<LeapSet>>>,
    /// Per (kind, colour): below how many free pieces the leaps are cheaper piece by piece
    /// (one table load and popcount each) than as [`Variant::leap_sets`] (a shift and popcount
    /// per set): five quarters of the number of sets, rounded up; 0 for pawns. Kept here so the
    /// leaf counter does not work it out per kind at every position.
    pub by_piece_below: Vec<u32>,
    /// Per (kind, colour): some square has slides or limited-range rides for the kind.
    pub has_rides: Vec<bool>,
}

/// `FROM_BIT[i]`: the bits from `i` up (a table load is cheaper than a variable 128-bit shift).
static FROM_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = u128::MAX << i;
        i += 1;
    }
    t
};

/// Most squares a special leap's path may have for [`LeapSet`].
pub const MAX_LEAP_PATH: usize = 3;

/// One leap vector of a kind and colour as a set: from each square of `sources` (when the
/// squares `path` steps away are empty) to the square `delta` steps away in index.
#[derive(Copy, Clone, Debug)]
pub struct LeapSet {
    /// Index change from origin to destination.
    pub delta: i32,
    /// Origins.
    pub sources: Bitboard,
    /// Index changes to squares that must be empty (the first `path_len`).
    pub path: [i32; MAX_LEAP_PATH],
    /// How many of `path` are used.
    pub path_len: u8,
    /// May go to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// What the generator reads for one (kind, colour, square), in one place: leap targets, the
/// unlimited slides as direction bits, and whether the general lists must be read as well.
#[derive(Copy, Clone, Debug, Default)]
pub struct SlotMoves {
    /// Quiet leap targets.
    pub leap_quiet: Bitboard,
    /// Capturing leap targets.
    pub leap_capture: Bitboard,
    /// Unlimited slides that both stop on empty squares and capture.
    pub slide_both: u16,
    /// Unlimited slides that only stop on empty squares.
    pub slide_quiet: u16,
    /// Unlimited slides that only capture.
    pub slide_capture: u16,
    /// Limited-range slides or special leaps: [`Variant::rides`] and [`Variant::special`] hold
    /// moves the bits above do not.
    pub irregular: bool,
    /// Some of those irregular moves capture.
    pub irregular_captures: bool,
    /// The first square of each unlimited slide above: when own pieces stand on all of them
    /// (most sliders early in a game), no slide goes anywhere and none is walked.
    pub slide_first: Bitboard,
}

/// Most slide directions any variant uses.
pub const MAX_DIRECTIONS: usize = 16;

/// A lame or initial leap from one square.
#[derive(Copy, Clone, Debug)]
pub struct SpecialLeap {
    /// Destination.
    pub to: Square,
    /// Squares that must be empty.
    pub path: Bitboard,
    /// May go to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// A slide from one square in one direction.
#[derive(Copy, Clone, Debug)]
pub struct Ride {
    /// Index into [`Variant::rays`] directions.
    pub dir: u8,
    /// Most steps (255 unlimited).
    pub range: u8,
    /// May stop on empty squares.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// A declaration that does not compile.
#[derive(Debug)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<BetzaError> for SpecError {
    fn from(e: BetzaError) -> SpecError {
        SpecError(e.to_string())
    }
}

/// The leaps of each (kind, colour) as [`LeapSet`]s, where they can be counted as sets, and
/// whether the (kind, colour) ever rides.
fn leap_sets_of(
    geometry: &Geometry,
    kinds: usize,
    leap_quiet: &[Bitboard],
    leap_capture: &[Bitboard],
    special: &[Vec<SpecialLeap>],
    rides: &[Vec<Ride>],
    ray_bb: &[Bitboard],
) -> (Vec<Option<Vec<LeapSet>>>, Vec<bool>) {
    let mut all_sets = Vec::new();
    let mut has_rides = Vec::new();
    for kc in 0..kinds * 2 {
        let mut sets: Vec<LeapSet> = Vec::new();
        let mut ok = true;
        let mut rides_here = false;
        let mut add = |from: Square, to: Square, path: Bitboard, quiet: bool, capture: bool| {
            let mut set = LeapSet {
                delta: to.0 as i32 - from.0 as i32,
                sources: Bitboard::EMPTY,
                path: [0; MAX_LEAP_PATH],
                path_len: 0,
                quiet,
                capture,
            };
            for sq in path {
                if set.path_len as usize == MAX_LEAP_PATH {
                    return false;
                }
                set.path[set.path_len as usize] = sq.0 as i32 - from.0 as i32;
                set.path_len += 1;
            }
            let same = |s: &LeapSet| {
                (s.delta, s.path, s.path_len, s.quiet, s.capture)
                    == (set.delta, set.path, set.path_len, set.quiet, set.capture)
            };
            match sets.iter_mut().find(|s| same(s)) {
                Some(s) => s.sources.set(from),
                None => {
                    set.sources.set(from);
                    sets.push(set);
                }
            }
            true
        };
        for from in geometry.squares() {
            let slot = kc * SQUARE_COUNT + from.index();
            let (quiet, capture) = (leap_quiet[slot], leap_capture[slot]);
            let mut seen = quiet | capture;
            for to in seen {
                add(from, to, Bitboard::EMPTY, quiet.has(to), capture.has(to));
            }
            for leap in &special[slot] {
                ok &= !seen.has(leap.to) && add(from, leap.to, leap.path, leap.quiet, leap.capture);
                seen.set(leap.to);
            }
            for ride in &rides[slot] {
                rides_here = true;
                ok &= !ray_bb[ride.dir as usize * SQUARE_COUNT + from.index()].intersects(seen);
            }
        }
        all_sets.push(ok.then_some(sets));
        has_rides.push(rides_here);
    }
    (all_sets, has_rides)
}

impl Variant {
    /// Index into per (kind, colour, square) tables.
    #[inline(always)]
    pub fn slot(kind: u8, colour: Colour, sq: Square) -> usize {
        (kind as usize * 2 + colour.index()) * SQUARE_COUNT + sq.index()
    }

    /// Compiles a declaration.
    ///
    /// # Errors
    /// A bad Betza string, an unknown promotion letter, too many kinds or directions.
    pub fn compile(spec: VariantSpec) -> Result<Variant, SpecError> {
        let geometry = Geometry::new(spec.files, spec.ranks);
        let kinds = spec.pieces.len();
        if kinds > MAX_KINDS {
            return Err(SpecError(format!("{}: too many piece kinds", spec.id)));
        }
        let slots = kinds * 2 * SQUARE_COUNT;
        let mut leap_quiet = vec![Bitboard::EMPTY; slots];
        let mut leap_capture = vec![Bitboard::EMPTY; slots];
        let mut leap_attackers = vec![Bitboard::EMPTY; slots];
        let mut special = vec![Vec::new(); slots];
        let mut rides = vec![Vec::new(); slots];
        let mut ride_capture_range = vec![[0u8; MAX_DIRECTIONS]; slots];
        let mut directions: Vec<(i8, i8)> = Vec::new();
        let mut atoms_per_kind = Vec::new();
        let mut special_captures = false;
        for (k, piece) in spec.pieces.iter().enumerate() {
            let (light, dark) = match piece.movement {
                MovementSpec::Uniform(b) => (parse_betza(b)?, parse_betza(b)?),
                MovementSpec::BySquareColour { light, dark } => {
                    (parse_betza(light)?, parse_betza(dark)?)
                }
            };
            atoms_per_kind.push(light.atoms.clone());
            for colour in Colour::BOTH {
                let sign: i32 = if colour == Colour::White { 1 } else { -1 };
                let second_rank = if colour == Colour::White {
                    1
                } else {
                    spec.ranks as i32 - 2
                };
                for from in geometry.squares() {
                    let movement = if from.is_light() { &light } else { &dark };
                    let slot = Variant::slot(k as u8, colour, from);
                    for atom in &movement.atoms {
                        let (dx, dy) = (atom.dx as i32 * sign, atom.dy as i32 * sign);
                        if atom.rider {
                            let dir =
                                match directions.iter().position(|d| *d == (dx as i8, dy as i8)) {
                                    Some(d) => d,
                                    None => {
                                        directions.push((dx as i8, dy as i8));
                                        directions.len() - 1
                                    }
                                };
                            if dir >= MAX_DIRECTIONS {
                                return Err(SpecError(format!(
                                    "{}: too many slide directions",
                                    spec.id
                                )));
                            }
                            if atom.initial || atom.lame {
                                return Err(SpecError(format!(
                                    "{}: `i` and `n` are not supported on riders",
                                    spec.id
                                )));
                            }
                            let range = if atom.range == 0 { 255 } else { atom.range };
                            rides[slot].push(Ride {
                                dir: dir as u8,
                                range,
                                quiet: atom.quiet,
                                capture: atom.capture,
                            });
                            if atom.capture {
                                let r = &mut ride_capture_range[slot][dir];
                                *r = (*r).max(range);
                            }
                            continue;
                        }
                        let Some(to) = geometry.offset(from, dx, dy) else {
                            continue;
                        };
                        if atom.initial && from.rank() as i32 != second_rank {
                            continue;
                        }
                        if atom.initial || atom.lame {
                            let mut path = Bitboard::EMPTY;
                            if atom.lame {
                                for sq in lame_path(&geometry, from, dx, dy) {
                                    path.set(sq);
                                }
                            }
                            special[slot].push(SpecialLeap {
                                to,
                                path,
                                quiet: atom.quiet,
                                capture: atom.capture,
                            });
                            special_captures |= atom.capture;
                            continue;
                        }
                        if atom.quiet {
                            leap_quiet[slot].set(to);
                        }
                        if atom.capture {
                            leap_capture[slot].set(to);
                            leap_attackers[Variant::slot(k as u8, colour, to)].set(from);
                        }
                    }
                }
            }
        }
        let build_rays = |sign: i8| {
            let mut out = Vec::new();
            for &(dx, dy) in &directions {
                for sq in 0..SQUARE_COUNT {
                    let mut ray = Vec::new();
                    let from = Square(sq as u8);
                    if geometry.mask.has(from) {
                        let mut cur = from;
                        while let Some(next) =
                            geometry.offset(cur, (dx * sign) as i32, (dy * sign) as i32)
                        {
                            ray.push(next);
                            cur = next;
                        }
                    }
                    out.push(ray);
                }
            }
            out
        };
        let rays = build_rays(1);
        let back_rays = build_rays(-1);
        let mut promotion_kinds = Vec::new();
        for piece in &spec.pieces {
            let mut list = Vec::new();
            for target in piece.promotes_to {
                let idx = spec
                    .pieces
                    .iter()
                    .position(|p| p.fen == *target)
                    .ok_or_else(|| {
                        SpecError(format!("{}: unknown promotion piece {target}", spec.id))
                    })?;
                list.push(idx as u8);
            }
            promotion_kinds.push(list);
        }
        let royal_kinds = spec
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .map(|(i, _)| i as u8)
            .collect();
        let uncapturable_kinds = spec
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.capturable)
            .fold(0, |acc, (k, _)| acc | 1 << k);
        let back_ray_bb: Vec<Bitboard> = back_rays
            .iter()
            .map(|ray: &Vec<Square>| ray.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.bb()))
            .collect();
        let ray_bb: Vec<Bitboard> = rays
            .iter()
            .map(|ray: &Vec<Square>| ray.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.bb()))
            .collect();
        let any_leap_attackers = (0..2 * SQUARE_COUNT)
            .map(|i| {
                let (colour, sq) = (i / SQUARE_COUNT, i % SQUARE_COUNT);
                (0..kinds).fold(Bitboard::EMPTY, |acc, k| {
                    acc | leap_attackers[(k * 2 + colour) * SQUARE_COUNT + sq]
                })
            })
            .collect();
        let all_back_rays = (0..SQUARE_COUNT)
            .map(|sq| {
                (0..directions.len()).fold(Bitboard::EMPTY, |acc, d| {
                    acc | back_ray_bb[d * SQUARE_COUNT + sq]
                })
            })
            .collect();
        let back_dirs = (0..SQUARE_COUNT)
            .map(|sq| {
                (0..directions.len())
                    .filter(|d| !back_ray_bb[d * SQUARE_COUNT + sq].is_empty())
                    .fold(0u16, |acc, d| acc | 1 << d)
            })
            .collect();
        let step_length = directions
            .iter()
            .map(|&(dx, dy)| dx.unsigned_abs().max(dy.unsigned_abs()))
            .collect();
        let fast_legality = spec.hooks.table_attacks_only() && !special_captures;
        let slot_moves = (0..slots)
            .map(|slot| {
                let mut m = SlotMoves {
                    leap_quiet: leap_quiet[slot],
                    leap_capture: leap_capture[slot],
                    ..SlotMoves::default()
                };
                // A direction that leaves the board at once from this square is left out:
                // pieces on the edges would otherwise walk it at every node for nothing.
                let sq = slot % SQUARE_COUNT;
                for ride in &rides[slot] {
                    let bit = 1u16 << ride.dir;
                    if ride.range != 255 {
                        m.irregular = true;
                        m.irregular_captures |= ride.capture;
                    } else if ray_bb[ride.dir as usize * SQUARE_COUNT + sq].is_empty() {
                        continue;
                    } else if ride.quiet && ride.capture {
                        m.slide_both |= bit;
                    } else if ride.quiet {
                        m.slide_quiet |= bit;
                    } else if ride.capture {
                        m.slide_capture |= bit;
                    }
                }
                // A direction listed twice (say once quiet-only, once capture-only) is both.
                let twice = m.slide_quiet & m.slide_capture;
                m.slide_both |= twice;
                m.slide_quiet &= !m.slide_both;
                m.slide_capture &= !m.slide_both;
                let mut dirs = m.slide_both | m.slide_quiet | m.slide_capture;
                while dirs != 0 {
                    let dir = dirs.trailing_zeros() as usize;
                    dirs &= dirs - 1;
                    // Rays run from the nearest square out.
                    if let Some(&first) = rays[dir * SQUARE_COUNT + sq].first() {
                        m.slide_first.set(first);
                    }
                }
                if !special[slot].is_empty() {
                    m.irregular = true;
                    m.irregular_captures |= special[slot].iter().any(|l: &SpecialLeap| l.capture);
                }
                m
            })
            .collect();
        let capture_dirs: Vec<u16> = (0..kinds * 2)
            .map(|kc| {
                ride_capture_range[kc * SQUARE_COUNT..(kc + 1) * SQUARE_COUNT]
                    .iter()
                    .fold(0u16, |acc, ranges| {
                        ranges
                            .iter()
                            .enumerate()
                            .filter(|(_, r)| **r != 0)
                            .fold(acc, |a, (d, _)| a | 1 << d)
                    })
            })
            .collect();
        let (leap_sets, has_rides) = leap_sets_of(
            &geometry,
            kinds,
            &leap_quiet,
            &leap_capture,
            &special,
            &rides,
            &ray_bb,
        );
        let by_piece_below = leap_sets
            .iter()
            .enumerate()
            .map(|(kc, sets)| match sets {
                Some(sets) if !spec.pieces[kc / 2].pawn => (sets.len() as u32 * 5).div_ceil(4),
                _ => 0,
            })
            .collect();
        let mut forward_descending = [false; MAX_DIRECTIONS];
        for (d, &(dx, dy)) in directions.iter().enumerate() {
            forward_descending[d] = crate::geometry::index_delta(dx as i32, dy as i32) < 0;
        }
        let rank_bb =
            |r: u8| (0..spec.files).fold(Bitboard::EMPTY, |acc, f| acc | Square::new(f, r).bb());
        let last_rank_bb = [rank_bb(spec.ranks - 1), rank_bb(0)];
        let descending_dirs = (0..MAX_DIRECTIONS)
            .filter(|&d| forward_descending[d])
            .fold(0u16, |acc, d| acc | 1 << d);
        Ok(Variant {
            descending_dirs,
            leap_sets,
            by_piece_below,
            has_rides,
            slot_moves,
            pawn_kinds: spec
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.pawn)
                .fold(0, |acc, (k, _)| acc | 1 << k),
            slider_kinds: [0, 1].map(|c| {
                (0..kinds)
                    .filter(|k| capture_dirs[k * 2 + c] != 0)
                    .fold(0, |acc, k| acc | 1 << k)
            }),
            capture_dirs,
            forward_descending,
            ray_bb,
            last_rank_bb,
            back_ray_bb,
            all_back_rays,
            back_dirs,
            any_leap_attackers,
            step_length,
            fast_legality,
            narrow: spec.files as i32 * crate::geometry::STRIDE <= 64,
            expands: spec.hooks.expands(),
            replaces_moves: spec.hooks.replaces_moves(),
            uncapturable_kinds,
            back_rays,
            geometry,
            leap_quiet,
            leap_capture,
            leap_attackers,
            special,
            rides,
            ride_capture_range,
            rays,
            directions,
            atoms: atoms_per_kind,
            promotion_kinds,
            special_captures,
            royal_kinds,
            spec,
        })
    }

    /// The ray from `sq` in direction `dir`.
    #[inline(always)]
    pub fn ray(&self, dir: u8, sq: Square) -> &[Square] {
        &self.rays[dir as usize * SQUARE_COUNT + sq.index()]
    }

    /// The ray from `sq` against direction `dir`.
    #[inline(always)]
    pub fn back_ray(&self, dir: u8, sq: Square) -> &[Square] {
        &self.back_rays[dir as usize * SQUARE_COUNT + sq.index()]
    }

    /// Squares a slide from `sq` along `dir` reaches before or on the first of `blockers`
    /// (unlimited range), with that first blocker if any.
    #[inline(always)]
    pub fn slide<B: Bits>(
        &self,
        dir: u8,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> (Bitboard<B>, Option<Square>) {
        let idx = dir as usize * SQUARE_COUNT + sq.index();
        let ray = self.ray_bb[idx].to::<B>();
        let hits = ray & blockers;
        if hits.is_empty() {
            return (ray, None);
        }
        let first = if self.forward_descending[dir as usize] {
            B::WIDTH - 1 - hits.0.leading_zeros()
        } else {
            hits.0.trailing_zeros()
        } as u8;
        let first = Square(first);
        let beyond = self.ray_bb[dir as usize * SQUARE_COUNT + first.index()].to::<B>();
        (ray & !beyond, Some(first))
    }

    /// Every slide direction of the variant, as direction bits.
    #[inline(always)]
    pub fn all_dirs(&self) -> u16 {
        ((1u32 << self.directions.len()) - 1) as u16
    }

    /// Squares the unlimited slides in `dirs` (direction bits) from `sq` reach, each up to and
    /// including its first square of `blockers`.
    #[inline(always)]
    pub fn slides<B: Bits>(&self, dirs: u16, sq: Square, blockers: Bitboard<B>) -> Bitboard<B> {
        let mut reach = B::ZERO;
        // Along a ray whose indices grow, the squares up to the first blocker are the bits up
        // to the lowest hit: `hits ^ (hits - 1)` (every bit when nothing is hit).
        let mut up = dirs & !self.descending_dirs;
        while up != 0 {
            let dir = up.trailing_zeros() as usize;
            up &= up - 1;
            let ray = self.ray_bb[dir * SQUARE_COUNT + sq.index()].to::<B>().0;
            let hits = ray & blockers.0;
            reach |= ray & (hits ^ hits.minus_one());
        }
        // Along a falling ray, the bits from the highest hit up; square 0 counts as hit when
        // nothing is, which keeps the whole ray either way.
        let mut down = dirs & self.descending_dirs;
        while down != 0 {
            let dir = down.trailing_zeros() as usize;
            down &= down - 1;
            let ray = self.ray_bb[dir * SQUARE_COUNT + sq.index()].to::<B>().0;
            let hits = ray & blockers.0 | B::ONE;
            reach |= ray & B::from_wide(FROM_BIT[(B::WIDTH - 1 - hits.leading_zeros()) as usize]);
        }
        Bitboard(reach)
    }

    /// The directions of `dirs` worth walking back from `sq` toward a piece of `sliders`: none
    /// when no line through `sq` holds one, else those whose backward ray is not empty.
    #[inline(always)]
    pub fn dirs_toward<B: Bits>(&self, sq: Square, dirs: u16, sliders: Bitboard<B>) -> u16 {
        if self.all_back_rays[sq.index()].to::<B>().intersects(sliders) {
            dirs & self.back_dirs[sq.index()]
        } else {
            0
        }
    }

    /// The nearest square of `blockers` on the backward ray of `dir` from `sq`.
    #[inline(always)]
    pub fn nearest_back<B: Bits>(
        &self,
        dir: u8,
        sq: Square,
        blockers: Bitboard<B>,
    ) -> Option<Square> {
        let hits = self.back_ray_bb[dir as usize * SQUARE_COUNT + sq.index()].to::<B>() & blockers;
        if hits.is_empty() {
            return None;
        }
        Some(Square(if self.forward_descending[dir as usize] {
            hits.0.trailing_zeros()
        } else {
            B::WIDTH - 1 - hits.0.leading_zeros()
        } as u8))
    }

    /// Steps of direction `dir` from `a` to `b` (which lie on one ray of it).
    #[inline(always)]
    pub fn steps_between(&self, dir: u8, a: Square, b: Square) -> u32 {
        let cheb = (a.file() as i32 - b.file() as i32)
            .unsigned_abs()
            .max((a.rank() as i32 - b.rank() as i32).unsigned_abs());
        cheb / self.step_length[dir as usize] as u32
    }

    /// The kind whose FEN spelling (White's) is `fen`.
    pub fn kind_by_fen(&self, fen: &str) -> Option<u8> {
        self.spec
            .pieces
            .iter()
            .position(|p| p.fen == fen)
            .map(|k| k as u8)
    }

    /// The option declared as `name`, with its index.
    pub fn option(&self, name: &str) -> Option<(usize, &OptionSpec)> {
        self.spec
            .options
            .iter()
            .enumerate()
            .find(|(_, o)| o.name == name)
    }
}

/// The squares passed by a lame leap: along the line for straight and diagonal leaps, the
/// orthogonal first step for oblique ones.
fn lame_path(g: &Geometry, from: Square, dx: i32, dy: i32) -> Vec<Square> {
    let steps = dx.abs().max(dy.abs());
    let mut path = Vec::new();
    if dx == 0 || dy == 0 || dx.abs() == dy.abs() {
        for i in 1..steps {
            if let Some(sq) = g.offset(from, dx / steps * i, dy / steps * i) {
                path.push(sq);
            }
        }
    } else if let Some(sq) = g.offset(
        from,
        if dx.abs() > dy.abs() { dx.signum() } else { 0 },
        if dy.abs() > dx.abs() { dy.signum() } else { 0 },
    ) {
        path.push(sq);
    }
    path
}

/// A variant with its rule options chosen.
#[derive(Copy, Clone)]
pub struct Rules {
    /// The compiled variant.
    pub variant: &'static Variant,
    /// Value index per declared option.
    pub options: [u8; MAX_OPTIONS],
    /// GE-1.
    pub game_end: GameEnd,
    /// Castlings by colour and wing.
    pub castles: [[Option<CastleSpec>; 2]; 2],
    /// Per castling (colour, wing), on the King's rank, as file bits: the files that must be
    /// empty (between the outermost of the four squares, less the King's and the Rook's start)
    /// and the files the King passes over (between its start and destination, both excluded).
    pub castle_files: [[CastleFiles; 2]; 2],
    /// The squares whose touching (a move from or onto them) loses castling rights, with the
    /// right bits kept; unused entries hold [`NO_SQUARE`](crate::position::NO_SQUARE).
    pub castle_keep: [(Square, u8); 8],
}

/// File masks of one castling (see [`Rules::castle_files`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct CastleFiles {
    /// Files that must be empty.
    pub empty: u16,
    /// Files the King passes over, which must not be attacked.
    pub passed: u16,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({}", self.variant.spec.id)?;
        for (name, value) in self.option_pairs() {
            write!(f, " {name}={value}")?;
        }
        write!(f, ")")
    }
}

impl PartialEq for Rules {
    fn eq(&self, o: &Rules) -> bool {
        std::ptr::eq(self.variant, o.variant)
            && self.options == o.options
            && self.game_end == o.game_end
    }
}

/// An option name or value that the variant does not declare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for OptionError {}

impl Rules {
    /// The variant with every option at its default.
    pub fn new(variant: &'static Variant) -> Rules {
        let mut rules = Rules {
            variant,
            options: [0; MAX_OPTIONS],
            game_end: GameEnd::Rules,
            castles: [[None; 2]; 2],
            castle_files: [[CastleFiles::default(); 2]; 2],
            castle_keep: [(crate::position::NO_SQUARE, 0); 8],
        };
        rules.resolve();
        rules
    }

    fn resolve(&mut self) {
        self.castles = [[None; 2]; 2];
        self.castle_files = [[CastleFiles::default(); 2]; 2];
        self.castle_keep = [(crate::position::NO_SQUARE, 0); 8];
        let mut keep: Vec<(Square, u8)> = Vec::new();
        for (colour, wing, spec) in self.variant.spec.hooks.castling(self) {
            self.castles[colour.index()][wing as usize] = Some(spec);
            let files = |a: u8, b: u8| -> u16 { ((1u32 << (b + 1)) - (1u32 << a)) as u16 };
            let all =
                [spec.king_from, spec.king_to, spec.rook_from, spec.rook_to].map(|s| s.file());
            let lo = *all.iter().min().expect("four squares");
            let hi = *all.iter().max().expect("four squares");
            let starts = 1u16 << spec.king_from.file() | 1u16 << spec.rook_from.file();
            let (a, b) = (
                spec.king_from.file().min(spec.king_to.file()),
                spec.king_from.file().max(spec.king_to.file()),
            );
            let ends = 1u16 << spec.king_from.file() | 1u16 << spec.king_to.file();
            self.castle_files[colour.index()][wing as usize] = CastleFiles {
                empty: files(lo, hi) & !starts,
                passed: files(a, b) & !ends,
            };
            let bit = 1u8 << (colour.index() * 2 + wing as usize);
            for sq in [spec.king_from, spec.rook_from] {
                match keep.iter_mut().find(|(s, _)| *s == sq) {
                    Some(entry) => entry.1 &= !bit,
                    None => keep.push((sq, !bit)),
                }
            }
        }
        assert!(keep.len() <= 8, "at most four castlings");
        self.castle_keep[..keep.len()].copy_from_slice(&keep);
    }

    /// Sets `name` (an option or `game-end`) to `value`.
    ///
    /// # Errors
    /// The name or value is not declared; the message lists what is.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if name == "game-end" {
            self.game_end = GameEnd::parse(value).ok_or_else(|| {
                OptionError(format!(
                    "option game-end: unknown value `{value}` (expected rules or movegen)"
                ))
            })?;
            return Ok(());
        }
        let (idx, spec) = self.variant.option(name).ok_or_else(|| {
            let mut known: Vec<&str> = self.variant.spec.options.iter().map(|o| o.name).collect();
            known.push("game-end");
            OptionError(format!(
                "variant {} has no option `{name}` (options: {})",
                self.variant.spec.id,
                known.join(", ")
            ))
        })?;
        let v = spec
            .values
            .iter()
            .position(|v| *v == value)
            .ok_or_else(|| {
                OptionError(format!(
                    "option {name}: unknown value `{value}` (expected {})",
                    spec.values.join(" or ")
                ))
            })?;
        self.options[idx] = v as u8;
        self.resolve();
        Ok(())
    }

    /// The value of option `name`, when declared.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        if name == "game-end" {
            return Some(self.game_end.name());
        }
        let (idx, _) = self.variant.option(name)?;
        let values = self.variant.spec.options[idx].values;
        Some(values[self.options[idx] as usize])
    }

    /// Whether option `name` has `value`.
    pub fn is(&self, name: &str, value: &str) -> bool {
        self.get(name) == Some(value)
    }

    /// Every declared option with its current value, then `game-end`.
    pub fn option_pairs(&self) -> Vec<(&'static str, &'static str)> {
        let mut out: Vec<(&'static str, &'static str)> = self
            .variant
            .spec
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name, o.values[self.options[i] as usize]))
            .collect();
        out.push(("game-end", self.game_end.name()));
        out
    }

    /// The start position's FEN under these options.
    pub fn start_fen(&self) -> String {
        self.variant.spec.hooks.start_fen(self)
    }
}
