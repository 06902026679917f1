//! `pink-panther`: Pink Panther Chess (RULES.md PP-1 to PP-10).
//!
//! The jewel is position state: an unclaimed jewel is a neutral square (it blocks slides and
//! cannot be entered, PP-4); a carried jewel is a carrier kind on the board (`+G` King, `+R`
//! Chatelaine, `+B` Primate, `+N` Gnu, `+P` Silvergeneral), declared as ordinary uncapturable
//! pieces with their own movement (PP-3). The hooks look every kind up by its letter.
//!
//! Jewel jumps are the variant's special moves, and come from one mechanism: every plain
//! piece's own movement "made over" a square. For a leap (dx, dy) the jump is (2dx, 2dy) with
//! the jumped square in the middle; for a slide it is the slide through the jumped square to
//! any square beyond. A plain piece jumping the jewel square acquires the jewel (PP-5, robbing
//! any carrier there); a carrier making its plain piece's move over an allied plain piece hands
//! the jewel on (PP-6). The landing square follows the atom's own mode (a Pawn's straight step
//! is move-only, its diagonal capture-only). A jump is a [`Move::special`] whose special square
//! is the square jumped; whether it acquires or passes follows from the mover (plain or
//! carrier). The fast paths that decide the legality of most moves without making them
//! ([`FastPathsAt`](crate::variant::FastPathsAt)) are apart, in `fast_paths.rs`.

mod fast_paths;

use super::marriage::{Marriage, marriage_decision};
use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::piece::Atom;
use crate::position::{Move, MoveSink, Piece, Position, add_promoting};
use crate::variant::hooks::RuleViolation;
use crate::variant::tables::COLOUR_SQUARES;
use crate::variant::{
    Colour, HandKind, MAX_KINDS, MoveKind, MoveRuling, OptionSpec, Outcome, PieceSpec, RuleHooksAt,
    SpecError, SpecialMovesAt, Variant, VariantHooks, VariantSpec, Width,
};
use std::sync::Arc;

/// The letters of the plain pieces that may carry the jewel; `+` and the letter is the
/// carrier.
const PLAIN_LETTERS: [&str; 5] = ["G", "R", "B", "N", "P"];

/// The Rook's, Bishop's and Knight's places in [`PLAIN_LETTERS`] and [`Carriers::pairs`].
const ROOK_PAIR: usize = 1;
const BISHOP_PAIR: usize = 2;
const KNIGHT_PAIR: usize = 3;
const _: () = assert!(
    PLAIN_LETTERS[ROOK_PAIR].as_bytes()[0] == b'R'
        && PLAIN_LETTERS[BISHOP_PAIR].as_bytes()[0] == b'B'
        && PLAIN_LETTERS[KNIGHT_PAIR].as_bytes()[0] == b'N'
);

/// (plain, carrier) kind pairs, looked up by letter, with each kind's other form.
#[derive(Clone, Copy)]
struct Carriers {
    pairs: [(u8, u8); 5],
    /// Per kind: its carrier form (a plain kind) or its plain form (a carrier), else
    /// [`Carriers::NONE`].
    carrier: [u8; MAX_KINDS],
    plain: [u8; MAX_KINDS],
    /// Per plain kind: the index of its pair in `pairs`, else [`Carriers::NONE`].
    pair: [u8; MAX_KINDS],
}

impl Carriers {
    const NONE: u8 = u8::MAX;

    fn of(v: &Variant) -> Result<Carriers, SpecError> {
        let mut c = Carriers {
            pairs: [(0, 0); 5],
            carrier: [Carriers::NONE; MAX_KINDS],
            plain: [Carriers::NONE; MAX_KINDS],
            pair: [Carriers::NONE; MAX_KINDS],
        };
        for (i, (pair, plain)) in c.pairs.iter_mut().zip(PLAIN_LETTERS).enumerate() {
            *pair = (v.kind(plain)?, v.kind(&format!("+{plain}"))?);
            c.carrier[pair.0 as usize] = pair.1;
            c.plain[pair.1 as usize] = pair.0;
            c.pair[pair.0 as usize] = i as u8;
        }
        Ok(c)
    }

    #[inline(always)]
    fn carrier_of(&self, plain: u8) -> Option<u8> {
        Some(self.carrier[plain as usize % MAX_KINDS]).filter(|&c| c != Carriers::NONE)
    }

    #[inline(always)]
    fn plain_of(&self, carrier: u8) -> Option<u8> {
        Some(self.plain[carrier as usize % MAX_KINDS]).filter(|&p| p != Carriers::NONE)
    }

    /// The jewel's square: the unclaimed `*` or the carrier's square.
    fn jewel_square<B: Width>(&self, pos: &Position<B>) -> Option<Square> {
        pos.neutral().first().or_else(|| {
            self.pairs
                .iter()
                .map(|(_, c)| pos.kind_bb(*c))
                .fold(Bitboard::NONE, |a, b| a | b)
                .first()
        })
    }
}

/// `atom` of a piece of `us`, as a board vector (atoms are declared from White's side).
fn vector(atom: &Atom, us: Colour) -> (i32, i32) {
    let sign = if us == Colour::White { 1 } else { -1 };
    (atom.dx as i32 * sign, atom.dy as i32 * sign)
}

/// One slide of a plain piece, in the order its movement declares it.
#[derive(Clone, Copy)]
struct Slide {
    dir: u8,
    quiet: bool,
    capture: bool,
}

/// The jewel jumps: the kinds they name and the tables they read, built when the variant is
/// compiled.
struct Jumps {
    carriers: Carriers,
    /// The King (`+G`), whose steps [`Jumps::exposing_squares`] reads.
    king: u8,
    rook: u8,
    bishop: u8,
    knight: u8,
    /// Per kind and colour: the kind's slides (plain kinds only).
    slides: Vec<[Vec<Slide>; 2]>,
    tables: JumpTables,
    /// What only [`Jumps::reply_squares`] reads.
    reply: fast_paths::ReplyTables,
}

impl Jumps {
    fn new(v: &Variant) -> Result<Jumps, SpecError> {
        let carriers = Carriers::of(v)?;
        let slides = (0..v.spec.pieces.len())
            .map(|kind| {
                Colour::BOTH.map(|by| {
                    v.atoms[kind]
                        .iter()
                        .filter(|a| a.rider)
                        .map(|a| {
                            let (dx, dy) = vector(a, by);
                            let dir = v
                                .directions
                                .iter()
                                .position(|&d| d == (dx as i8, dy as i8))
                                .expect("every rider's direction is compiled");
                            Slide {
                                dir: dir as u8,
                                quiet: a.quiet,
                                capture: a.capture,
                            }
                        })
                        .collect()
                })
            })
            .collect();
        let mut jumps = Jumps {
            carriers,
            king: v.kind("+G")?,
            rook: v.kind("R")?,
            bishop: v.kind("B")?,
            knight: v.kind("N")?,
            slides,
            tables: JumpTables::empty(),
            reply: fast_paths::ReplyTables::empty(),
        };
        jumps.tables = JumpTables::build(v, &jumps);
        jumps.reply = fast_paths::ReplyTables::build(v, &jumps);
        Ok(jumps)
    }

    /// The slides of `kind` for `by`.
    fn slides(&self, kind: u8, by: Colour) -> &[Slide] {
        &self.slides[kind as usize][by.index()]
    }

    /// How a piece of `kind` jumps: the plain kind whose movement it makes, whether it
    /// acquires (a plain piece) or passes (a carrier), and the kind it lands as. `None` for the
    /// Princess and Queen.
    fn jump_rule(&self, kind: u8) -> Option<(u8, bool, u8)> {
        if let Some(c) = self.carriers.carrier_of(kind) {
            Some((kind, true, c))
        } else {
            self.carriers.plain_of(kind).map(|p| (p, false, p))
        }
    }

    /// Whether a jump of `us` may go over `over`: an acquiring jump over the jewel square
    /// (PP-5), a pass over an allied plain piece that has a carrier form (PP-6). The one
    /// definition of what is jumpable, for both the generator and the attack test.
    fn may_jump<B: Width>(
        &self,
        pos: &Position<B>,
        us: Colour,
        acquiring: bool,
        over: Square,
        jewel: Square,
    ) -> bool {
        if acquiring {
            over == jewel
        } else {
            pos.piece_at(over)
                .is_some_and(|p| p.colour == us && self.carriers.carrier_of(p.kind).is_some())
        }
    }

    /// Calls `f` with every jewel jump of `by` that may end on a square of `wanted`, slides blocked
    /// by `blockers`, until `f` returns true (then returns true). Jumps that cannot end on `wanted`
    /// may be left out or not.
    ///
    /// A jump is a plain movement's atom made twice over one square (PP-5, PP-6), so every jump
    /// either goes over the jewel square (acquiring: the mover is a plain piece `J - atom` away, or
    /// for a slide the first blocker behind `J`) or starts on the carrier (passing over an ally an
    /// atom away, or the first blocker ahead for a slide). Looking from those two squares finds
    /// every jump without visiting the other pieces; every landing square lies a leap or a ray away
    /// from the jewel square, which lets whole atoms be skipped when they miss `wanted`. Slides are
    /// unlimited (every Pink Panther rider is); [`Jumps::may_jump`] decides what may be jumped. In
    /// most positions no plain piece stands where it could acquire: [`JumpTables`] says so with one
    /// intersection per plain kind.
    fn for_each_jump<B: Width>(
        &self,
        pos: &Position<B>,
        by: Colour,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
        f: impl FnMut(Jump<B>) -> bool,
    ) -> bool {
        match self.jump_start(pos, by) {
            Some(start) => self.for_each_jump_at(pos, by, start, blockers, wanted, f),
            None => false,
        }
    }

    /// Where the jewel jumps of `by` may start, `None` when it has none: no jewel, no plain
    /// piece of `by` on a square an acquiring jump of its kind starts from ([`JumpTables`]'
    /// `any_source`, the leaps' and slides' sources together), and `by` does not carry the jewel
    /// (a pass starts only from the carrier's square, and the only piece on the jewel square is
    /// the carrier). In those cases [`Jumps::for_each_jump_at`] yields nothing (`Some`
    /// does not mean a jump exists): it looks for acquiring jumps only from the kinds found here, and for passes only
    /// from a carrier of `by`. One intersection per plain kind, folded for the one test: the hot
    /// callers ask this first and set up nothing else when no jump is possible (most positions).
    #[inline(always)]
    fn jump_start<B: Width>(&self, pos: &Position<B>, by: Colour) -> Option<JumpStart<B>> {
        let jewel = self.carriers.jewel_square(pos)?;
        let ours = pos.colour_bb(by);
        let any_from = &self.tables.any_source[colour_square(by, jewel)];
        let mut sources = Bitboard::NONE;
        for (i, &(plain, _)) in self.carriers.pairs.iter().enumerate() {
            sources |= pos.kind_bb(plain) & any_from[i].to();
        }
        let sources = sources & ours;
        (!sources.is_empty() || ours.has(jewel)).then_some(JumpStart { jewel, sources })
    }

    /// [`Jumps::for_each_jump`] from `start`, what [`Jumps::jump_start`] returned.
    #[inline(always)]
    fn for_each_jump_at<B: Width>(
        &self,
        pos: &Position<B>,
        by: Colour,
        start: JumpStart<B>,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
        mut f: impl FnMut(Jump<B>) -> bool,
    ) -> bool {
        let v = pos.variant();
        let t = &self.tables;
        let ours = pos.colour_bb(by);
        let jewel = start.jewel;
        let at = colour_square(by, jewel);
        // The plain kinds of `by` that stand where they could acquire: the kinds are disjoint,
        // so a kind's pieces among the sources are those on its own sources. The sources are
        // few (usually one or two pieces, each of a plain kind): their kinds read from the
        // board.
        let mut acquiring = 0u8;
        for from in start.sources {
            let i = self.carriers.pair[usize::from(pos.kind_on(from)) % MAX_KINDS];
            debug_assert!(usize::from(i) < self.carriers.pairs.len());
            acquiring |= 1 << (i % 8);
        }
        let sources = &t.sources[at];
        while acquiring != 0 {
            let i = acquiring.trailing_zeros() as usize;
            acquiring &= acquiring - 1;
            let (plain, carrier) = self.carriers.pairs[i];
            let movers = pos.kind_bb(plain) & ours;
            let [quiet_from, capture_from, slide_from] = sources[i].map(|b| b.to::<B>());
            for from in movers & (quiet_from | capture_from) {
                // Square indices are linear in file and rank: the landing square mirrors `from`.
                let to = Square((2 * u16::from(jewel.0) - u16::from(from.0)) as u8);
                if wanted.has(to)
                    && f(Jump {
                        acquiring: true,
                        from,
                        via: jewel,
                        to: Bitboard::<B>::of(to),
                        quiet: quiet_from.has(from),
                        capture: capture_from.has(from),
                        mover: plain,
                        lands_as: carrier,
                    })
                {
                    return true;
                }
            }
            if !movers.intersects(slide_from) {
                continue;
            }
            for ride in self.slides(plain, by) {
                let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
                if !v.ray_bb[ray].to().intersects(wanted)
                    || !v.back_ray::<B>(ride.dir, jewel).intersects(movers)
                {
                    continue;
                }
                if let Some(from) = v.nearest_back(ride.dir, jewel, blockers)
                    && movers.has(from)
                    && f(Jump {
                        acquiring: true,
                        from,
                        via: jewel,
                        to: v.slide(ride.dir, jewel, blockers).0,
                        quiet: ride.quiet,
                        capture: ride.capture,
                        mover: plain,
                        lands_as: carrier,
                    })
                {
                    return true;
                }
            }
        }
        let Some((carrier, plain)) = pos
            .piece_at(jewel)
            .filter(|p| p.colour == by)
            .and_then(|p| Some((p.kind, self.carriers.plain_of(p.kind)?)))
        else {
            return false;
        };
        // Passing: the carrier makes its plain piece's move over an ally an atom away (landing two
        // atoms away), or over the first blocker of a slide.
        let g = &v.geometry;
        let jump = |via: Square, to: Bitboard<B>, quiet: bool, capture: bool| Jump {
            acquiring: false,
            from: jewel,
            via,
            to,
            quiet,
            capture,
            mover: carrier,
            lands_as: plain,
        };
        for atom in v.atoms[plain as usize].iter().filter(|a| !a.rider) {
            let (dx, dy) = vector(atom, by);
            if let Some(to) = g.offset(jewel, 2 * dx, 2 * dy)
                && wanted.has(to)
                && let Some(via) = g.offset(jewel, dx, dy)
                && self.may_jump(pos, by, false, via, jewel)
                && f(jump(via, Bitboard::<B>::of(to), atom.quiet, atom.capture))
            {
                return true;
            }
        }
        for ride in self.slides(plain, by) {
            let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
            if !v.ray_bb[ray].to().intersects(wanted) {
                continue;
            }
            if let Some(via) = v.slide(ride.dir, jewel, blockers).1
                && self.may_jump(pos, by, false, via, jewel)
                && f(jump(
                    via,
                    v.slide(ride.dir, via, blockers).0,
                    ride.quiet,
                    ride.capture,
                ))
            {
                return true;
            }
        }
        false
    }

    /// Every jewel jump (acquiring and passing) of side `us`, pseudo-legal.
    fn jewel_jumps<B: Width, S: MoveSink<B> + ?Sized>(
        &self,
        pos: &Position<B>,
        us: Colour,
        out: &mut S,
    ) {
        if let Some(start) = self.jump_start(pos, us) {
            self.jewel_jumps_from(pos, us, start, out);
        }
    }

    /// [`Jumps::jewel_jumps`] from `start`, out of line: most positions have no jump, and their
    /// callers then set up nothing for it.
    #[inline(never)]
    fn jewel_jumps_from<B: Width, S: MoveSink<B> + ?Sized>(
        &self,
        pos: &Position<B>,
        us: Colour,
        start: JumpStart<B>,
        out: &mut S,
    ) {
        let v = pos.variant();
        let blockers = pos.occupied() | pos.neutral();
        let targets = pos.capturable(us.flip());
        let last_rank = v.last_rank_bb[us.index()].to();
        self.for_each_jump_at(pos, us, start, blockers, v.geometry.mask.to(), |j| {
            let promotions = &v.promotion_kinds[j.lands_as as usize];
            for to in landing_squares(&j, blockers, targets) {
                let m = Move::special(j.from, to, j.via);
                add_promoting(out, pos, m, promotions, last_rank);
            }
            false
        });
    }

    /// Whether some jewel jump of `by` ends on `sq` (PP-7: jumps give check): the same as asking
    /// [`Jumps::jewel_jumps`] for a move to `sq`, without generating or storing the moves.
    fn jump_lands_on<B: Width>(&self, pos: &Position<B>, sq: Square, by: Colour) -> bool {
        let blockers = pos.occupied() | pos.neutral();
        self.for_each_jump(pos, by, blockers, Bitboard::<B>::of(sq), |j| {
            landing_squares(&j, blockers, pos.capturable(by.flip())).has(sq)
        })
    }
}

/// Where a side's jewel jumps may start ([`Jumps::jump_start`]): the jewel's square, and the
/// side's plain pieces that stand where a jump of their kind could acquire it (the bits of a
/// bitboard).
#[derive(Clone, Copy)]
struct JumpStart<B: Width> {
    jewel: Square,
    sources: Bitboard<B>,
}

/// One jewel jump of one atom: whether it acquires, the mover's square, the square jumped, the
/// squares the jump may end on as far as the board allows (a leap's one square; for a slide the
/// empty squares beyond the jumped one and the first blocker after them), and the atom's modes,
/// which [`landing_squares`] applies to those squares.
struct Jump<B: Width> {
    acquiring: bool,
    from: Square,
    via: Square,
    to: Bitboard<B>,
    quiet: bool,
    capture: bool,
    /// The mover's kind (the piece on `from`) and the kind it lands as
    /// ([`Jumps::jump_rule`]): the walk knows both from the pair it looks at, so its callers
    /// need not read the board for them.
    mover: u8,
    lands_as: u8,
}

/// The squares of `j.to` the jump may end on, by its atom's modes (PP-5: a Pawn's straight
/// jump needs an empty square, its diagonal one an enemy it may capture, one of `targets`).
fn landing_squares<B: Width>(
    j: &Jump<B>,
    blockers: Bitboard<B>,
    targets: Bitboard<B>,
) -> Bitboard<B> {
    let mut to = Bitboard::NONE;
    if j.quiet {
        to |= j.to & !blockers;
    }
    if j.capture {
        to |= j.to & targets;
    }
    to
}

/// What [`Jumps::for_each_jump`] reads per (colour, jewel square) and carrier pair, from the
/// declared atoms: the squares an acquiring leap may start from, by whether it may land
/// quietly and whether it may capture (it lands as far beyond the jewel square as it starts
/// before it), and the squares an acquiring slide may start from (every square behind the
/// jewel square on its slides' lines); and all three together.
///
/// Per square pair (General, jewel), the direction whose back ray from the General holds the
/// jewel, or [`NO_LINE`]; per square `j`, the squares with a direction to it (`lines`: those
/// whose back ray along some direction holds `j`); per square, its orthogonal and diagonal
/// lines.
///
/// Per (colour, General's square) and set of kinds (bit 0 the Knight, 1 the Rook, 2 the
/// Bishop, as plain pieces or carriers of that colour): the squares
/// [`Jumps::exposing_squares`] returns, the King's capturing steps from the General's square
/// with the Knight's leaps and the orthogonal and diagonal lines of the kinds in the set.
///
/// Per (colour, square) and carrier pair, the squares a capturing leap jump of the plain
/// piece goes over to land on that square, from a square on the board (the mover's square
/// mirrors the landing square about the one jumped); and per (colour, jewel square) and pair,
/// for the atoms that land only quietly or only capturing (a Pawn's): the squares an acquiring
/// leap of them starts from, and the squares a pass by them lands on.
struct JumpTables {
    sources: Box<[[[Bitboard; 3]; PLAIN_LETTERS.len()]; COLOUR_SQUARES]>,
    any_source: Box<[[Bitboard; PLAIN_LETTERS.len()]; COLOUR_SQUARES]>,
    capture_overs: Box<[[Bitboard; PLAIN_LETTERS.len()]; COLOUR_SQUARES]>,
    uneven: Box<[[[Bitboard; 2]; PLAIN_LETTERS.len()]; COLOUR_SQUARES]>,
    line_dir: Box<[u8; SQUARE_PAIRS]>,
    lines: Box<[Bitboard; SQUARE_COUNT]>,
    orthogonal_lines: Vec<Bitboard>,
    diagonal_lines: Vec<Bitboard>,
    exposing: Box<[[Bitboard; 8]; COLOUR_SQUARES]>,
}

/// Room for every (General, jewel) square pair of [`JumpTables::line_dir`], a power of two
/// like the per (colour, square) tables' [`COLOUR_SQUARES`]: the hot lookups mask their index
/// instead of checking it against a length.
const SQUARE_PAIRS: usize = 8192;
const _: () = assert!(
    SQUARE_COUNT * SQUARE_COUNT <= SQUARE_PAIRS
        && SQUARE_PAIRS.is_power_of_two()
        && 2 * SQUARE_COUNT <= COLOUR_SQUARES
        && COLOUR_SQUARES.is_power_of_two()
);

/// `N` copies of `x` in a fixed-size box.
fn boxed<T: Clone, const N: usize>(x: T) -> Box<[T; N]> {
    vec![x; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("length {N}"))
}

/// The index of (colour, square) in the per (colour, square) tables, masked.
#[inline(always)]
fn colour_square(by: Colour, sq: Square) -> usize {
    (by.index() * SQUARE_COUNT + sq.index()) % COLOUR_SQUARES
}

impl JumpTables {
    /// The direction whose back ray from `general` holds `jewel`, or [`NO_LINE`].
    #[inline(always)]
    fn line_dir(&self, general: Square, jewel: Square) -> u8 {
        self.line_dir[(general.index() * SQUARE_COUNT + jewel.index()) % SQUARE_PAIRS]
    }

    /// The empty tables, filled by [`JumpTables::build`].
    fn empty() -> JumpTables {
        JumpTables {
            sources: boxed([[Bitboard::EMPTY; 3]; PLAIN_LETTERS.len()]),
            any_source: boxed([Bitboard::EMPTY; PLAIN_LETTERS.len()]),
            capture_overs: boxed([Bitboard::EMPTY; PLAIN_LETTERS.len()]),
            uneven: boxed([[Bitboard::EMPTY; 2]; PLAIN_LETTERS.len()]),
            line_dir: boxed(NO_LINE),
            lines: boxed(Bitboard::EMPTY),
            orthogonal_lines: vec![Bitboard::EMPTY; SQUARE_COUNT],
            diagonal_lines: vec![Bitboard::EMPTY; SQUARE_COUNT],
            exposing: boxed([Bitboard::EMPTY; 8]),
        }
    }
}

const NO_LINE: u8 = u8::MAX;

impl JumpTables {
    /// The tables of the variant `v` (the board and pieces of Pink Panther do not depend on
    /// its options), for the kinds and slides of `jumps`.
    fn build(v: &Variant, jumps: &Jumps) -> JumpTables {
        let mut t = JumpTables::empty();
        let g = &v.geometry;
        for (dir, &(dx, dy)) in v.directions.iter().enumerate() {
            for sq in g.squares() {
                let at = dir * SQUARE_COUNT + sq.index();
                for other in v.back_ray_bb[at] {
                    t.line_dir[sq.index() * SQUARE_COUNT + other.index()] = dir as u8;
                    t.lines[other.index()].set(sq);
                }
                if dx == 0 || dy == 0 {
                    t.orthogonal_lines[sq.index()] |= v.ray_bb[at];
                } else {
                    t.diagonal_lines[sq.index()] |= v.ray_bb[at];
                }
            }
        }
        for (i, &(plain, _)) in jumps.carriers.pairs.iter().enumerate() {
            for by in Colour::BOTH {
                for jewel in g.squares() {
                    let from_bb = &mut t.sources[by.index() * SQUARE_COUNT + jewel.index()][i];
                    for atom in v.atoms[plain as usize].iter().filter(|a| !a.rider) {
                        let (dx, dy) = vector(atom, by);
                        if let (Some(from), Some(_)) =
                            (g.offset(jewel, -dx, -dy), g.offset(jewel, dx, dy))
                        {
                            if atom.quiet {
                                from_bb[0].set(from);
                            }
                            if atom.capture {
                                from_bb[1].set(from);
                            }
                        }
                    }
                    for slide in jumps.slides(plain, by) {
                        from_bb[2] |=
                            v.back_ray_bb[slide.dir as usize * SQUARE_COUNT + jewel.index()];
                    }
                    let uneven = &mut t.uneven[by.index() * SQUARE_COUNT + jewel.index()][i];
                    for atom in v.atoms[plain as usize].iter() {
                        if atom.rider || (atom.quiet && atom.capture) {
                            continue;
                        }
                        let (dx, dy) = vector(atom, by);
                        if let (Some(from), Some(_)) =
                            (g.offset(jewel, -dx, -dy), g.offset(jewel, dx, dy))
                        {
                            uneven[0].set(from);
                        }
                        if let (Some(_), Some(to)) =
                            (g.offset(jewel, dx, dy), g.offset(jewel, 2 * dx, 2 * dy))
                        {
                            uneven[1].set(to);
                        }
                    }
                    let overs = &mut t.capture_overs[by.index() * SQUARE_COUNT + jewel.index()][i];
                    for atom in v.atoms[plain as usize]
                        .iter()
                        .filter(|a| !a.rider && a.capture)
                    {
                        let (dx, dy) = vector(atom, by);
                        if let (Some(over), Some(_)) =
                            (g.offset(jewel, -dx, -dy), g.offset(jewel, -2 * dx, -2 * dy))
                        {
                            overs.set(over);
                        }
                    }
                }
            }
        }
        for by in Colour::BOTH {
            for sq in g.squares() {
                let king = v.slot_moves[Variant::slot(jumps.king, by, sq)].leap_capture;
                let knight = v.slot_moves[Variant::slot(jumps.knight, by, sq)].leap_capture;
                for (kinds, out) in t.exposing[colour_square(by, sq)].iter_mut().enumerate() {
                    *out = king;
                    if kinds & 1 != 0 {
                        *out |= knight;
                    }
                    if kinds & 2 != 0 {
                        *out |= t.orthogonal_lines[sq.index()];
                    }
                    if kinds & 4 != 0 {
                        *out |= t.diagonal_lines[sq.index()];
                    }
                }
            }
        }
        for (any, sources) in t.any_source.iter_mut().zip(t.sources.iter()) {
            for (a, [quiet_from, capture_from, slide_from]) in any.iter_mut().zip(sources) {
                *a = *quiet_from | *capture_from | *slide_from;
            }
        }
        t
    }
}

impl<B: Width> SpecialMovesAt<B> for Arc<Jumps> {
    fn generate(&self, pos: &Position<B>, out: &mut dyn MoveSink<B>) {
        self.jewel_jumps(pos, pos.side(), out);
    }

    fn attacks(&self, pos: &Position<B>, sq: Square, by: Colour) -> bool {
        self.jump_lands_on(pos, sq, by)
    }

    /// A plain mover acquires: it robs the carrier on the jumped square (which becomes its
    /// plain piece) or takes the unclaimed jewel, and lands as its carrier form. A carrier
    /// passes: the ally jumped becomes a carrier, the mover its plain piece.
    fn make(&self, next: &mut Position<B>, m: Move, piece: Piece) -> Piece {
        let over = m.special_square;
        let mut mover = piece;
        if let Some(carrier) = self.carriers.carrier_of(piece.kind) {
            if next.neutral().is_empty() {
                if let Some(robbed) = next.take(over) {
                    let plain = self.carriers.plain_of(robbed.kind).unwrap_or(robbed.kind);
                    next.put(
                        over,
                        Piece {
                            kind: plain,
                            ..robbed
                        },
                    );
                }
            } else {
                next.set_neutral(Bitboard::NONE);
            }
            mover.kind = carrier;
        } else if let Some(ally) = next.take(over) {
            let carrier = self.carriers.carrier_of(ally.kind).unwrap_or(ally.kind);
            next.put(
                over,
                Piece {
                    kind: carrier,
                    ..ally
                },
            );
            mover.kind = self.carriers.plain_of(piece.kind).unwrap_or(piece.kind);
        }
        mover
    }

    fn kind(&self, pos: &Position<B>, m: &Move) -> &'static str {
        let mover = pos.piece_at(m.from).map(|p| p.kind);
        if mover.is_some_and(|k| self.carriers.carrier_of(k).is_some()) {
            ACQUISITION
        } else {
            PASS
        }
    }
}

/// The classifier's names of the two kinds of jump.
const ACQUISITION: &str = "jewel acquisition";
const PASS: &str = "jewel pass";

/// The rules beyond the jumps: marriage (PP-9) and exactly one jewel (PP-1).
struct PinkPanther {
    marriage: Marriage,
    queen: u8,
    carriers: Carriers,
}

impl<B: Width> RuleHooksAt<B> for PinkPanther {
    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        // A Queen comes only from a Princess's promotion: usually there is none to marry.
        if pos.kind_bb(self.queen).is_empty() {
            return None;
        }
        marriage_decision(pos, &self.marriage)
    }

    fn decision_ruling(&self) -> Option<&'static str> {
        Some("PP-9")
    }

    fn quiet_move_may_decide(&self, pos: &Position<B>) -> bool {
        // No quiet move makes a Queen (only a promotion does), and `decided` needs one.
        !pos.kind_bb(self.queen).is_empty()
    }

    fn capture_may_decide(&self, pos: &Position<B>) -> bool {
        // Nor does a capture without promotion.
        !pos.kind_bb(self.queen).is_empty()
    }

    fn validate(&self, pos: &Position<B>) -> Result<(), RuleViolation> {
        let carriers: u32 = self
            .carriers
            .pairs
            .iter()
            .map(|(_, c)| pos.kind_bb(*c).count())
            .sum();
        let jewels = carriers + pos.neutral().count();
        if jewels != 1 {
            return Err(RuleViolation::NotExactlyOne {
                count: jewels,
                pieces: "Pink Panthers",
                written: "`*` or `+X`",
                ruling: "PP-1",
            });
        }
        Ok(())
    }
}

/// Builds the rules, the jumps and their fast paths (the same tables, shared), looking the
/// kinds up by letter.
fn build(v: &Variant) -> Result<VariantHooks, SpecError> {
    let jumps = Arc::new(Jumps::new(v)?);
    Ok(VariantHooks {
        rules: Some(Box::new(PinkPanther {
            marriage: Marriage::of(v, "+G", &["Q"], true)?,
            queen: v.kind("Q")?,
            carriers: Carriers::of(v)?,
        })),
        special_moves: Some(Box::new(Arc::clone(&jumps))),
        fast_paths: Some(Box::new(jumps)),
    })
}

/// The declaration.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "pink-panther",
        name: "Pink Panther Chess",
        files: 7,
        ranks: 7,
        pieces: vec![
            PieceSpec::new("G", "General", "W").royal().ruling("PP-2"),
            PieceSpec::new("+G", "King", "K")
                .sovereign()
                .uncapturable()
                .ruling("PP-3"),
            PieceSpec::new("I", "Princess", "fRfB")
                .promotes(&["Q"])
                .ruling("PP-2"),
            PieceSpec::new("R", "Rook", "R").ruling("PP-2"),
            PieceSpec::new("+R", "Chatelaine", "RF")
                .uncapturable()
                .ruling("PP-3"),
            PieceSpec::new("B", "Bishop", "B").ruling("PP-2"),
            PieceSpec::new("+B", "Primate", "BW")
                .uncapturable()
                .ruling("PP-3"),
            PieceSpec::new("N", "Knight", "N").ruling("PP-2"),
            PieceSpec::new("+N", "Gnu", "NC")
                .uncapturable()
                .ruling("PP-3"),
            PieceSpec::new("P", "Pawn", "fmWfcF")
                .pawn(&["R", "B", "N"])
                .ruling("PP-2"),
            PieceSpec::new("+P", "Silvergeneral", "FfW")
                .promotes(&["+R", "+B", "+N"])
                .uncapturable()
                .ruling("PP-3"),
            PieceSpec::new("Q", "Queen", "Q").ruling("PP-2"),
        ],
        start_fen: "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1",
        setup_fen: None,
        castling: vec![],
        en_passant: false,
        hand: HandKind::None,
        neutral: true,
        pawns_on_first_rank: true,
        options: vec![OptionSpec::new(
            "medinese",
            &["win", "continue"],
            "PP-9",
            "a marriage wins at once, or only if it survives the reply (capture of the Queen or robbing the King)",
        )],
        rulings: &[
            "GE-1", "PP-1", "PP-2", "PP-3", "PP-4", "PP-5", "PP-6", "PP-7", "PP-8", "PP-9", "PP-10",
        ],
        move_rulings: vec![
            MoveRuling::new(MoveKind::Special(ACQUISITION), "PP-5"),
            MoveRuling::new(MoveKind::Special(PASS), "PP-6"),
            MoveRuling::new(MoveKind::Promotion, "PP-8"),
        ],
        hooks: Some(build),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::notation::{parse_position, to_fen};
    use crate::variants;

    /// Positions of random games from the start (fixed seed, `game-end = movegen` so marriages
    /// do not stop them), every position of every game.
    pub(super) fn random_positions(games: usize, plies: usize) -> Vec<Position> {
        let mut rules = variants::rules("pink-panther").expect("variant");
        rules.set("game-end", "movegen").expect("option");
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = start;
            for _ in 0..plies {
                out.push(pos);
                match pos.play_random(&mut state) {
                    Some(next) => pos = next,
                    None => break,
                }
            }
        }
        out
    }

    /// The jumps as the variant compiled them.
    pub(super) fn jumps() -> Jumps {
        Jumps::new(variants::get("pink-panther").expect("variant")).expect("jumps")
    }

    /// The jump generator as first written, walking every piece of `us` and every atom from
    /// its square: the oracle for the generator that looks from the jewel and the carrier.
    fn reference_jumps(pos: &Position, us: Colour, out: &mut Vec<Move>) {
        let v = pos.variant();
        let g = &v.geometry;
        let c = Carriers::of(v).expect("carriers");
        let (carrier_of, plain_of) = (|k| c.carrier_of(k), |k| c.plain_of(k));
        let Some(jewel) = c.jewel_square(pos) else {
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
            // (plain movement used, whether it acquires, the mover's kind after the jump)
            let (plain, acquiring, lands_as) = if let Some(c) = carrier_of(piece.kind) {
                (piece.kind, true, c)
            } else if let Some(p) = plain_of(piece.kind) {
                (p, false, p)
            } else {
                continue;
            };
            let jumpable = |sq: Square| {
                if acquiring { sq == jewel } else { passable(sq) }
            };
            let push = |to: Square, via: Square, out: &mut Vec<Move>| {
                let mut m = Move::special(from, to, via);
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

    /// [`Jumps::for_each_jump`] as it was before [`Jumps::jump_start`]: the oracle for the
    /// split into the early test and [`Jumps::for_each_jump_at`].
    fn reference_for_each_jump(
        jumps: &Jumps,
        pos: &Position,
        by: Colour,
        blockers: Bitboard<u128>,
        wanted: Bitboard<u128>,
        mut f: impl FnMut(Jump<u128>) -> bool,
    ) -> bool {
        let this = jumps;
        let v = pos.variant();
        let Some(jewel) = this.carriers.jewel_square(pos) else {
            return false;
        };
        // The mover's kind and the kind it lands as, read from the board.
        let kind_on = |sq: Square| pos.piece_at(sq).expect("a mover").kind;
        let lands_as = |sq: Square| this.jump_rule(kind_on(sq)).expect("a jumping kind").2;
        let t = &this.tables;
        let ours = pos.colour_bb(by);
        let at = colour_square(by, jewel);
        // First which plain kinds stand where they could acquire (usually none), in a tight loop.
        let any_from = &t.any_source[at];
        let mut acquiring = 0u8;
        for (i, &(plain, _)) in this.carriers.pairs.iter().enumerate() {
            if pos.kind_bb(plain).intersects(ours & any_from[i].to()) {
                acquiring |= 1 << i;
            }
        }
        let sources = &t.sources[at];
        while acquiring != 0 {
            let i = acquiring.trailing_zeros() as usize;
            acquiring &= acquiring - 1;
            let plain = this.carriers.pairs[i].0;
            let movers = pos.kind_bb(plain) & ours;
            let [quiet_from, capture_from, slide_from] = sources[i].map(|b| b.to::<u128>());
            for from in movers & (quiet_from | capture_from) {
                // Square indices are linear in file and rank: the landing square mirrors `from`.
                let to = Square((2 * u16::from(jewel.0) - u16::from(from.0)) as u8);
                if wanted.has(to)
                    && f(Jump {
                        acquiring: true,
                        from,
                        via: jewel,
                        to: Bitboard::<u128>::of(to),
                        quiet: quiet_from.has(from),
                        capture: capture_from.has(from),
                        mover: kind_on(from),
                        lands_as: lands_as(from),
                    })
                {
                    return true;
                }
            }
            if !movers.intersects(slide_from) {
                continue;
            }
            for ride in this.slides(plain, by) {
                let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
                if !v.ray_bb[ray].to().intersects(wanted)
                    || !v.back_ray::<u128>(ride.dir, jewel).intersects(movers)
                {
                    continue;
                }
                if let Some(from) = v.nearest_back(ride.dir, jewel, blockers)
                    && movers.has(from)
                    && f(Jump {
                        acquiring: true,
                        from,
                        via: jewel,
                        to: v.slide(ride.dir, jewel, blockers).0,
                        quiet: ride.quiet,
                        capture: ride.capture,
                        mover: kind_on(from),
                        lands_as: lands_as(from),
                    })
                {
                    return true;
                }
            }
        }
        let Some(plain) = pos
            .piece_at(jewel)
            .filter(|p| p.colour == by)
            .and_then(|p| this.carriers.plain_of(p.kind))
        else {
            return false;
        };
        // Passing: the carrier makes its plain piece's move over an ally an atom away (landing two
        // atoms away), or over the first blocker of a slide.
        let g = &v.geometry;
        let jump = |via: Square, to: Bitboard<u128>, quiet: bool, capture: bool| Jump {
            acquiring: false,
            from: jewel,
            via,
            to,
            quiet,
            capture,
            mover: kind_on(jewel),
            lands_as: lands_as(jewel),
        };
        for atom in v.atoms[plain as usize].iter().filter(|a| !a.rider) {
            let (dx, dy) = vector(atom, by);
            if let Some(to) = g.offset(jewel, 2 * dx, 2 * dy)
                && wanted.has(to)
                && let Some(via) = g.offset(jewel, dx, dy)
                && this.may_jump(pos, by, false, via, jewel)
                && f(jump(
                    via,
                    Bitboard::<u128>::of(to),
                    atom.quiet,
                    atom.capture,
                ))
            {
                return true;
            }
        }
        for ride in this.slides(plain, by) {
            let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
            if !v.ray_bb[ray].to().intersects(wanted) {
                continue;
            }
            if let Some(via) = v.slide(ride.dir, jewel, blockers).1
                && this.may_jump(pos, by, false, via, jewel)
                && f(jump(
                    via,
                    v.slide(ride.dir, via, blockers).0,
                    ride.quiet,
                    ride.capture,
                ))
            {
                return true;
            }
        }
        false
    }

    /// Positions of random games, and from every seventh of them set-ups with the jewel moved:
    /// unclaimed on empty squares, and carried by plain pieces of either side (those that make
    /// a position).
    pub(super) fn varied_positions() -> Vec<Position> {
        let mut rules = variants::rules("pink-panther").expect("variant");
        rules.set("game-end", "movegen").expect("option");
        let mut state: u64 = 0x0123_4567_89ab_cdef;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let played = random_positions(60, 150);
        let mut out = played.clone();
        for pos in played.iter().step_by(7) {
            let fen = to_fen(pos);
            let (board, rest) = fen.split_once(' ').expect("a FEN");
            let mut grid = cells(board);
            for cell in grid.iter_mut().flatten() {
                if cell == "*" {
                    cell.clear();
                } else if let Some(plain) = cell.strip_prefix('+') {
                    *cell = plain.to_string();
                }
            }
            let squares: Vec<(usize, usize)> = (0..grid.len())
                .flat_map(|r| (0..grid[r].len()).map(move |f| (r, f)))
                .collect();
            let empties: Vec<_> = squares
                .iter()
                .filter(|&&(r, f)| grid[r][f].is_empty())
                .collect();
            let plains: Vec<_> = squares
                .iter()
                .filter(|&&(r, f)| {
                    "GRBNPgrbnp".contains(grid[r][f].as_str()) && !grid[r][f].is_empty()
                })
                .collect();
            for k in 0..6 {
                let mut moved = grid.clone();
                let &(r, f) = match k % 2 {
                    0 => empties[next(empties.len())],
                    _ if plains.is_empty() => continue,
                    _ => plains[next(plains.len())],
                };
                moved[r][f] = match k % 2 {
                    0 => "*".to_string(),
                    _ => format!("+{}", moved[r][f]),
                };
                if let Ok(pos) = parse_position(rules, &format!("{} {rest}", board_of(&moved))) {
                    out.push(pos);
                }
            }
        }
        out
    }

    /// The generator split into [`Jumps::jump_start`] and [`Jumps::for_each_jump_at`] yields
    /// the same jumps in the same order as before, for every wanted set tried, and stops
    /// where it stopped.
    #[test]
    fn split_jump_generator_matches_the_reference() {
        let compiled = jumps();
        let (mut yielded, mut carried, mut unclaimed) = (0, 0, 0);
        let key = |j: &Jump<u128>| {
            (
                (j.acquiring, j.from, j.via, j.to, j.quiet, j.capture),
                (j.mover, j.lands_as),
            )
        };
        for pos in varied_positions() {
            carried += usize::from(pos.neutral().is_empty());
            unclaimed += usize::from(!pos.neutral().is_empty());
            let blockers = pos.occupied() | pos.neutral();
            let all: Bitboard<u128> = pos.variant().geometry.mask.to();
            let wanted = [
                all,
                pos.colour_bb(Colour::White),
                pos.colour_bb(Colour::Black),
            ];
            for by in Colour::BOTH {
                for wanted in wanted {
                    let (mut fast, mut slow) = (Vec::new(), Vec::new());
                    let stopped = compiled.for_each_jump(&pos, by, blockers, wanted, |j| {
                        fast.push(key(&j));
                        false
                    });
                    assert!(!stopped);
                    reference_for_each_jump(&compiled, &pos, by, blockers, wanted, |j| {
                        slow.push(key(&j));
                        false
                    });
                    assert_eq!(fast, slow, "{by:?} in {}", to_fen(&pos));
                    assert!(
                        slow.is_empty() || compiled.jump_start(&pos, by).is_some(),
                        "{by:?} in {}",
                        to_fen(&pos)
                    );
                    yielded += fast.len();
                    // Stopping at the second jump.
                    if fast.len() >= 2 {
                        let mut seen = (0, 0);
                        let a = compiled.for_each_jump(&pos, by, blockers, wanted, |_| {
                            seen.0 += 1;
                            seen.0 == 2
                        });
                        let b =
                            reference_for_each_jump(&compiled, &pos, by, blockers, wanted, |_| {
                                seen.1 += 1;
                                seen.1 == 2
                            });
                        assert!(a && b && seen == (2, 2));
                    }
                }
            }
        }
        assert!(yielded > 20000, "too few jumps: {yielded}");
        assert!(
            carried > 1000 && unclaimed > 1000,
            "{carried} carried, {unclaimed} unclaimed"
        );
    }

    #[test]
    fn anchored_generator_matches_the_reference() {
        let jumps_of = jumps();
        let mut jumps = 0;
        for pos in random_positions(60, 150) {
            for by in Colour::BOTH {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                jumps_of.jewel_jumps(&pos, by, &mut fast);
                reference_jumps(&pos, by, &mut slow);
                let key = |m: &Move| (m.from, m.to, m.promotion, m.special_square, m.flags);
                fast.sort_by_key(key);
                slow.sort_by_key(key);
                assert_eq!(fast, slow, "{by:?} in {}", to_fen(&pos));
                jumps += fast.len();
            }
        }
        assert!(jumps > 5000, "too few jumps generated: {jumps}");
    }

    #[test]
    fn targeted_jump_test_agrees_with_the_generator() {
        let compiled = jumps();
        let mut carried = 0;
        for pos in random_positions(60, 150) {
            carried += usize::from(pos.neutral().is_empty());
            for by in Colour::BOTH {
                let mut jumps = Vec::new();
                reference_jumps(&pos, by, &mut jumps);
                for sq in pos.variant().geometry.squares() {
                    let generated = jumps.iter().any(|m| m.to == sq);
                    assert_eq!(
                        compiled.jump_lands_on(&pos, sq, by),
                        generated,
                        "{sq} by {by:?} in {}",
                        to_fen(&pos)
                    );
                }
            }
        }
        assert!(
            carried > 1000,
            "too few positions with a carrier: {carried}"
        );
    }

    /// The board of a FEN as one cell per square, rank by rank from the top: `""` for an
    /// empty square, else the piece's text (`*`, `+g`, `P`).
    fn cells(board: &str) -> Vec<Vec<String>> {
        board
            .split('/')
            .map(|rank| {
                let mut row = Vec::new();
                let mut piece = String::new();
                for c in rank.chars() {
                    if let Some(n) = c.to_digit(10) {
                        row.extend((0..n).map(|_| String::new()));
                    } else if c == '+' {
                        piece.push(c);
                    } else {
                        piece.push(c);
                        row.push(std::mem::take(&mut piece));
                    }
                }
                row
            })
            .collect()
    }

    /// The FEN board of `cells` (ranks from the top, an empty string for an empty square).
    pub(crate) fn board_of(cells: &[Vec<String>]) -> String {
        let ranks: Vec<String> = cells
            .iter()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for cell in row {
                    if cell.is_empty() {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text += cell;
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        ranks.join("/")
    }

    /// The parent of the leaves reuses one reply count for the quiet moves that neither leave
    /// nor enter a square the jumps read ([`FastPathsAt::reply_sensitive`]): perft 2 (one pass,
    /// reuse) agrees with every legal move made and its replies counted, in positions of random
    /// games and in the same positions with the jewel set free (unclaimed) on other empty
    /// squares, so that quiet moves enter and leave jump paths on every line, under both
    /// game-end modes.
    ///
    /// [`FastPathsAt::reply_sensitive`]: crate::variant::FastPathsAt::reply_sensitive
    #[test]
    fn reused_replies_match_counted_ones() {
        let mut movegen = variants::rules("pink-panther").expect("variant");
        movegen.set("game-end", "movegen").expect("option");
        let rules = [variants::rules("pink-panther").expect("variant"), movegen];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut checked = 0;
        // A Rook leaving and entering the file behind the jewel: with it on d2, a Knight
        // move from d6 lets it jump the jewel onto the General (PP-5, PP-7).
        // A Black Rook on d2, behind the jewel from the General, that may not leave the file
        // (the Rook on d1 would jump the jewel onto the General): the White Rook's move off
        // b2 lets it reach a2, which the reply adjustment may not count
        // (`FastPathsAt::reply_unadjusted`).
        let crafted = [
            "3g3/3n3/7/3*3/7/3R3/G6 w - - 0 1",
            "3g3/3n3/7/3*3/7/R6/G6 w - - 0 1",
            "3g3/7/7/3*3/7/1R1r3/3R2G w - - 0 1",
        ];
        let played = random_positions(30, 80).into_iter().step_by(3);
        let crafted = crafted.map(|fen| parse_position(rules[0], fen).expect("a position"));
        for pos in crafted.into_iter().chain(played) {
            let fen = to_fen(&pos);
            let (board, rest) = fen.split_once(' ').expect("a FEN");
            let mut grid = cells(board);
            // The jewel set free: carriers become plain.
            for cell in grid.iter_mut().flatten() {
                if cell == "*" {
                    cell.clear();
                } else if let Some(plain) = cell.strip_prefix('+') {
                    *cell = plain.to_string();
                }
            }
            let empties: Vec<(usize, usize)> = (0..grid.len())
                .flat_map(|r| (0..grid[r].len()).map(move |f| (r, f)))
                .filter(|&(r, f)| grid[r][f].is_empty())
                .collect();
            let mut fens = vec![fen.clone()];
            for _ in 0..3 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let (r, f) = empties[(state >> 33) as usize % empties.len()];
                let mut moved = grid.clone();
                moved[r][f] = "*".to_string();
                fens.push(format!("{} {rest}", board_of(&moved)));
            }
            for fen in &fens {
                for rules in rules {
                    // Some set-ups leave the side not to move in check: not positions.
                    let Ok(pos) = parse_position(rules, fen) else {
                        continue;
                    };
                    let mut plain = 0;
                    pos.for_each_legal(|_, next| plain += next.count_legal());
                    assert_eq!(pos.count_two_plies(), plain, "{fen}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "too few positions checked: {checked}");
    }

    #[test]
    fn pawn_on_its_first_rank_is_legal() {
        // Found by the `movegen` fuzz target: Black's General on d7 jumps its own
        // Silvergeneral on c7, which becomes a Pawn on Black's first rank (the declaration's
        // `pawns_on_first_rank`).
        let rules = variants::rules("pink-panther").expect("variant");
        let before = "b1+pg1br/p3pp1/1rB3p/n1p4/PNP2P1/1P2P1P/1RG2BR b - - 5 17";
        let pos = parse_position(rules, before).expect("legal position");
        let after = crate::notation::play_moves(&pos, "d7b7").expect("legal move");
        let fen = to_fen(&after);
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

    /// The classifier names an acquisition (PP-5), a pass (PP-6), a promotion (PP-8) and the
    /// moves of plain pieces (PP-2) and carriers (PP-3).
    #[test]
    fn moves_are_classified_by_their_rulings() {
        let rules = variants::rules("pink-panther").expect("variant");
        let pos = parse_position(rules, "4g2/P6/7/3*3/3R3/7/1N1G3 w - - 0 1").expect("fen");
        let kinds = |pos: &Position, text: &str| -> Vec<(MoveKind, &str, Option<&str>)> {
            let m = crate::notation::parse_move(pos, text).expect(text);
            crate::variant::classify(pos, &m)
                .iter()
                .map(|c| (c.kind, c.name, c.ruling))
                .collect()
        };
        assert_eq!(
            kinds(&pos, "d3d6"),
            [(MoveKind::Special(ACQUISITION), ACQUISITION, Some("PP-5"))]
        );
        assert_eq!(
            kinds(&pos, "d3a3"),
            [(MoveKind::Ordinary, "ordinary move", Some("PP-2"))]
        );
        assert_eq!(
            kinds(&pos, "a6a7b"),
            [
                (MoveKind::Ordinary, "ordinary move", Some("PP-2")),
                (MoveKind::Promotion, "promotion", Some("PP-8"))
            ]
        );
        let pos = parse_position(rules, "3g3/7/4R2/7/3+N3/7/3G3 w - - 0 1").expect("fen");
        assert_eq!(
            kinds(&pos, "d3f2"),
            [(MoveKind::Ordinary, "ordinary move", Some("PP-3"))]
        );
        assert_eq!(
            kinds(&pos, "d3f7"),
            [(MoveKind::Special(PASS), PASS, Some("PP-6"))]
        );
    }
}
