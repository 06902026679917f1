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
use crate::geometry::{Bitboard, SQUARE_COUNT, Square};
use crate::piece::Atom;
use crate::position::{Legality, Move, Piece, Position, add_promoting, flags, moves_onto};
use crate::variant::{
    Colour, HandKind, Hooks, HooksAt, OptionSpec, Outcome, PieceSpec, Variant, VariantSpec, Width,
};

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
pub fn jewel_square<B: Width>(pos: &Position<B>) -> Option<Square> {
    pos.neutral().first().or_else(|| {
        CARRIERS
            .iter()
            .map(|(_, c)| pos.kind_bb(*c))
            .fold(Bitboard::NONE, |a, b| a | b)
            .first()
    })
}

/// How a piece of `kind` jumps: the plain kind whose movement it makes, the move flag, and the
/// kind it lands as. A plain piece acquires; a carrier passes. `None` for the Princess and Queen.
fn jump_rule(kind: u8) -> Option<(u8, u8, u8)> {
    if let Some(c) = carrier_of(kind) {
        Some((kind, flags::ACQUIRE, c))
    } else {
        plain_of(kind).map(|p| (p, flags::PASS, p))
    }
}

/// Whether a jump of `us` flagged `flag` may go over `over`: an acquiring jump over the jewel
/// square (PP-5), a pass over an allied plain piece that has a carrier form (PP-6). The one
/// definition of what is jumpable, for both the generator and the attack test.
fn may_jump<B: Width>(
    pos: &Position<B>,
    us: Colour,
    flag: u8,
    over: Square,
    jewel: Square,
) -> bool {
    if flag == flags::ACQUIRE {
        over == jewel
    } else {
        pos.piece_at(over)
            .is_some_and(|p| p.colour == us && carrier_of(p.kind).is_some())
    }
}

/// `atom` of a piece of `us`, as a board vector (atoms are declared from White's side).
fn vector(atom: &Atom, us: Colour) -> (i32, i32) {
    let sign = if us == Colour::White { 1 } else { -1 };
    (atom.dx as i32 * sign, atom.dy as i32 * sign)
}

/// One jewel jump of one atom: the flag, the mover's square, the square jumped, the squares the
/// jump may end on as far as the board allows (a leap's one square; for a slide the empty
/// squares beyond the jumped one and the first blocker after them), and the atom's modes, which
/// [`landing_squares`] applies to those squares.
struct Jump<B: Width> {
    flag: u8,
    from: Square,
    via: Square,
    to: Bitboard<B>,
    quiet: bool,
    capture: bool,
}

/// Calls `f` with every jewel jump of `by` that may end on a square of `wanted`, slides
/// blocked by `blockers`, until `f` returns true (then returns true). Jumps that cannot end on
/// `wanted` may be left out or not.
///
/// A jump is a plain movement's atom made twice over one square (PP-5, PP-6), so every jump
/// either goes over the jewel square (acquiring: the mover is a plain piece `J - atom` away, or
/// for a slide the first blocker behind `J`) or starts on the carrier (passing over an ally an
/// atom away, or the first blocker ahead for a slide). Looking from those two squares finds
/// every jump without visiting the other pieces; every landing square lies a leap or a ray away
/// from the jewel square, which lets whole atoms be skipped when they miss `wanted`. Slides are
/// unlimited (every Pink Panther rider is); [`may_jump`] decides what may be jumped. In most
/// positions no plain piece stands where it could acquire: [`JumpTables`] says so with one
/// intersection per plain kind.
fn for_each_jump<B: Width>(
    pos: &Position<B>,
    by: Colour,
    blockers: Bitboard<B>,
    wanted: Bitboard<B>,
    mut f: impl FnMut(Jump<B>) -> bool,
) -> bool {
    let v = pos.variant();
    let Some(jewel) = jewel_square(pos) else {
        return false;
    };
    let t = tables(v);
    let ours = pos.colour_bb(by);
    let at = by.index() * SQUARE_COUNT + jewel.index();
    // First which plain kinds stand where they could acquire (usually none), in a tight loop.
    let any_from = &t.any_source[at];
    let mut acquiring = 0u8;
    for (i, &(plain, _)) in CARRIERS.iter().enumerate() {
        if pos.kind_bb(plain).intersects(ours & any_from[i].to()) {
            acquiring |= 1 << i;
        }
    }
    let sources = &t.sources[at];
    while acquiring != 0 {
        let i = acquiring.trailing_zeros() as usize;
        acquiring &= acquiring - 1;
        let plain = CARRIERS[i].0;
        let movers = pos.kind_bb(plain) & ours;
        let [quiet_from, capture_from, slide_from] = sources[i].map(|b| b.to::<B>());
        for from in movers & (quiet_from | capture_from) {
            // Square indices are linear in file and rank: the landing square mirrors `from`.
            let to = Square((2 * u16::from(jewel.0) - u16::from(from.0)) as u8);
            if wanted.has(to)
                && f(Jump {
                    flag: flags::ACQUIRE,
                    from,
                    via: jewel,
                    to: Bitboard::<B>::of(to),
                    quiet: quiet_from.has(from),
                    capture: capture_from.has(from),
                })
            {
                return true;
            }
        }
        if !movers.intersects(slide_from) {
            continue;
        }
        for ride in &v.rides[Variant::slot(plain, by, jewel)] {
            let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
            if !v.ray_bb[ray].to().intersects(wanted) || !v.back_ray_bb[ray].to().intersects(movers)
            {
                continue;
            }
            if let Some(from) = v.nearest_back(ride.dir, jewel, blockers)
                && movers.has(from)
                && f(Jump {
                    flag: flags::ACQUIRE,
                    from,
                    via: jewel,
                    to: v.slide(ride.dir, jewel, blockers).0,
                    quiet: ride.quiet,
                    capture: ride.capture,
                })
            {
                return true;
            }
        }
    }
    let Some(plain) = pos
        .piece_at(jewel)
        .filter(|p| p.colour == by)
        .and_then(|p| plain_of(p.kind))
    else {
        return false;
    };
    // Passing: the carrier makes its plain piece's move over an ally an atom away (landing two
    // atoms away), or over the first blocker of a slide.
    let g = &v.geometry;
    let jump = |via: Square, to: Bitboard<B>, quiet: bool, capture: bool| Jump {
        flag: flags::PASS,
        from: jewel,
        via,
        to,
        quiet,
        capture,
    };
    for atom in v.atoms[plain as usize].iter().filter(|a| !a.rider) {
        let (dx, dy) = vector(atom, by);
        if let Some(to) = g.offset(jewel, 2 * dx, 2 * dy)
            && wanted.has(to)
            && let Some(via) = g.offset(jewel, dx, dy)
            && may_jump(pos, by, flags::PASS, via, jewel)
            && f(jump(via, Bitboard::<B>::of(to), atom.quiet, atom.capture))
        {
            return true;
        }
    }
    for ride in &v.rides[Variant::slot(plain, by, jewel)] {
        let ray = ride.dir as usize * SQUARE_COUNT + jewel.index();
        if !v.ray_bb[ray].to().intersects(wanted) {
            continue;
        }
        if let Some(via) = v.slide(ride.dir, jewel, blockers).1
            && may_jump(pos, by, flags::PASS, via, jewel)
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

/// What [`for_each_jump`] reads per (colour, jewel square) and plain kind of [`CARRIERS`],
/// from the declared atoms: the squares an acquiring leap may start from, by whether it may
/// land quietly and whether it may capture (it lands as far beyond the jewel square as it
/// starts before it), and the squares an acquiring slide may start from (every square behind
/// the jewel square on its slides' lines); and all three together.
///
/// Per square pair (General, jewel), the direction whose back ray from the General holds the
/// jewel, or [`NO_LINE`]; per square, its orthogonal and diagonal lines.
struct JumpTables {
    sources: Vec<[[Bitboard; 3]; CARRIERS.len()]>,
    any_source: Vec<[Bitboard; CARRIERS.len()]>,
    line_dir: Vec<u8>,
    orthogonal_lines: Vec<Bitboard>,
    diagonal_lines: Vec<Bitboard>,
}

const NO_LINE: u8 = u8::MAX;

/// The tables, built on first use (the board and pieces of Pink Panther do not depend on its
/// options).
fn tables(v: &Variant) -> &'static JumpTables {
    static TABLES: std::sync::OnceLock<JumpTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = JumpTables {
            sources: vec![[[Bitboard::EMPTY; 3]; CARRIERS.len()]; 2 * SQUARE_COUNT],
            any_source: vec![[Bitboard::EMPTY; CARRIERS.len()]; 2 * SQUARE_COUNT],
            line_dir: vec![NO_LINE; SQUARE_COUNT * SQUARE_COUNT],
            orthogonal_lines: vec![Bitboard::EMPTY; SQUARE_COUNT],
            diagonal_lines: vec![Bitboard::EMPTY; SQUARE_COUNT],
        };
        let g = &v.geometry;
        for (dir, &(dx, dy)) in v.directions.iter().enumerate() {
            for sq in g.squares() {
                let at = dir * SQUARE_COUNT + sq.index();
                for other in v.back_ray_bb[at] {
                    t.line_dir[sq.index() * SQUARE_COUNT + other.index()] = dir as u8;
                }
                if dx == 0 || dy == 0 {
                    t.orthogonal_lines[sq.index()] |= v.ray_bb[at];
                } else {
                    t.diagonal_lines[sq.index()] |= v.ray_bb[at];
                }
            }
        }
        for (i, &(plain, _)) in CARRIERS.iter().enumerate() {
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
                    for ride in &v.rides[Variant::slot(plain, by, jewel)] {
                        from_bb[2] |=
                            v.back_ray_bb[ride.dir as usize * SQUARE_COUNT + jewel.index()];
                    }
                }
            }
        }
        for (any, sources) in t.any_source.iter_mut().zip(&t.sources) {
            for (a, [quiet_from, capture_from, slide_from]) in any.iter_mut().zip(sources) {
                *a = *quiet_from | *capture_from | *slide_from;
            }
        }
        t
    })
}

/// Every jewel jump (acquiring and passing) of side `us`, pseudo-legal.
pub fn jewel_jumps<B: Width>(pos: &Position<B>, us: Colour, out: &mut Vec<Move>) {
    let v = pos.variant();
    let blockers = pos.occupied() | pos.neutral();
    let targets = pos.capturable(us.flip());
    let last_rank = v.last_rank_bb[us.index()].to();
    for_each_jump(pos, us, blockers, v.geometry.mask.to(), |j| {
        let piece = pos.piece_at(j.from).expect("a mover");
        let (_, _, lands_as) = jump_rule(piece.kind).expect("a jumping kind");
        let promotions = &v.promotion_kinds[lands_as as usize];
        for to in landing_squares(&j, blockers, targets) {
            let mut m = Move::new(j.from, to);
            m.flags = j.flag;
            m.via = j.via;
            add_promoting(out, pos, m, promotions, last_rank);
        }
        false
    });
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

/// Squares on which the jewel (carried by the side to move) would let an acquiring jump of
/// `them` land on `general`, a superset: every acquiring jump lands a plain atom beyond the
/// jewel square, so on a line through it (slides, and the General's and Pawn's steps) or a
/// Knight's move from it. Lines are kept only when `them` has, or could get back by being
/// robbed, a plain slider along them; the eight neighbours are always kept.
fn exposing_squares<B: Width>(pos: &Position<B>, general: Square, them: Colour) -> Bitboard<B> {
    let v = pos.variant();
    let t = tables(v);
    let has = |plain: u8| {
        let carrier = carrier_of(plain).expect("a carrier form");
        !(pos.pieces_of(plain, them) | pos.pieces_of(carrier, them)).is_empty()
    };
    let mut out = v.leap_capture[Variant::slot(KING, them, general)];
    if has(KNIGHT) {
        out |= v.leap_capture[Variant::slot(KNIGHT, them, general)];
    }
    if has(ROOK) {
        out |= t.orthogonal_lines[general.index()];
    }
    if has(BISHOP) {
        out |= t.diagonal_lines[general.index()];
    }
    out.to()
}

/// Whether the unclaimed jewel is the first blocker on a line from `general` with an enemy
/// piece next behind it (taking the jewel empties its square, which may open that line).
fn jewel_shields<B: Width>(pos: &Position<B>, general: Square, jewel: Square) -> bool {
    let v = pos.variant();
    let dir = tables(v).line_dir[general.index() * SQUARE_COUNT + jewel.index()];
    if dir == NO_LINE {
        return false;
    }
    let blockers = pos.occupied() | pos.neutral();
    let theirs = pos.colour_bb(pos.side().flip());
    v.nearest_back(dir, general, blockers) == Some(jewel)
        && v.nearest_back(dir, jewel, blockers)
            .is_some_and(|s| theirs.has(s))
}

/// The number of legal jewel jumps of the side to move ([`HooksAt::count_extra_moves`]).
///
/// With the General on `g` (not in check, else no `legality`), a jump of another piece from
/// `from` over `via` to `to` changes only those three squares. Table attacks on `g` can then
/// only come through `from` (the pins of `legality`) or through `via` when it held the
/// unclaimed jewel ([`jewel_shields`]): a robbed carrier stays a blocker and attacks no more
/// as its plain piece, a passing jump leaves `via` occupied, and `to` is filled. Jump attacks
/// after the move all go over the new jewel square (`to` when acquiring, `via` when passing;
/// the side to move then carries it, so the enemy only acquires), which must lie in
/// [`exposing_squares`]. The General acquiring becomes a King and is never in check. Without a
/// General, a jump is illegal only if it makes our King a General (its pass, or a robbery of
/// it). Every jump left undecided is made and tested.
fn count_jumps<B: Width>(pos: &Position<B>, l: &Legality<B>) -> u64 {
    let v = pos.variant();
    let us = pos.side();
    let them = us.flip();
    let blockers = pos.occupied() | pos.neutral();
    let last_rank = v.last_rank_bb[us.index()].to();
    let general = l.royals.first();
    let unclaimed = pos.neutral().first();
    let mut exposing: Option<Bitboard<B>> = None;
    let mut shields: Option<bool> = None;
    let mut count = 0;
    for_each_jump(pos, us, blockers, v.geometry.mask.to(), |j| {
        // Most positions have no jump: what only a jump needs is computed here.
        let to = landing_squares(&j, blockers, pos.capturable(them));
        if to.is_empty() {
            return false;
        }
        let piece = pos.piece_at(j.from).expect("a mover");
        let acquiring = j.flag == flags::ACQUIRE;
        let safe = match general {
            None => {
                let makes_general = if acquiring {
                    pos.piece_at(j.via)
                        .is_some_and(|p| p.kind == KING && p.colour == us)
                } else {
                    piece.kind == KING
                };
                if makes_general { Bitboard::NONE } else { to }
            }
            Some(g) if g == j.from => to,
            Some(g) => {
                let opened = l.pinned.has(j.from)
                    || (acquiring
                        && unclaimed.is_some_and(|n| {
                            *shields.get_or_insert_with(|| jewel_shields(pos, g, n))
                        }));
                let exposing = *exposing.get_or_insert_with(|| exposing_squares(pos, g, them));
                if opened || (!acquiring && exposing.has(j.via)) {
                    Bitboard::NONE
                } else if acquiring {
                    to & !exposing
                } else {
                    to
                }
            }
        };
        let (_, _, lands_as) = jump_rule(piece.kind).expect("a jumping kind");
        let promotions = &v.promotion_kinds[lands_as as usize];
        count += moves_onto(safe, last_rank, promotions.len());
        for sq in to & !safe {
            let mut m = Move::new(j.from, sq);
            m.flags = j.flag;
            m.via = j.via;
            let choices: &[u8] = if last_rank.has(sq) { promotions } else { &[] };
            if choices.is_empty() {
                count += u64::from(!pos.play(m).royal_attacked(us));
            }
            for &p in choices {
                m.promotion = p + 1;
                count += u64::from(!pos.play(m).royal_attacked(us));
            }
        }
        false
    });
    count
}

/// Whether some jewel jump of `by` ends on `sq` (PP-7: jumps give check): the same as asking
/// [`jewel_jumps`] for a move to `sq`, without generating or storing the moves.
pub fn jump_lands_on<B: Width>(pos: &Position<B>, sq: Square, by: Colour) -> bool {
    let blockers = pos.occupied() | pos.neutral();
    for_each_jump(pos, by, blockers, Bitboard::<B>::of(sq), |j| {
        landing_squares(&j, blockers, pos.capturable(by.flip())).has(sq)
    })
}

/// Every square of `wanted` on which a jewel jump of `by` could capture a piece standing
/// there, slides blocked by `blockers`: the jumps' landing squares for atoms that capture,
/// whatever stands on them now (squares outside `wanted` may be included too).
pub fn jump_attack_map<B: Width>(
    pos: &Position<B>,
    by: Colour,
    blockers: Bitboard<B>,
    wanted: Bitboard<B>,
) -> Bitboard<B> {
    let mut map = Bitboard::NONE;
    for_each_jump(pos, by, blockers, wanted, |j| {
        if j.capture {
            map |= j.to;
        }
        false
    });
    map
}

/// The side to move's pieces whose moves must be made and tested, with its General on
/// `general`, and the squares where that matters ([`HooksAt::must_test`]); see
/// [`PinkPanther::extra_attack_map`] for why every other move is decided exactly by the
/// attack map and the table pins.
///
/// * Its carrier: moving it moves the jewel square, which changes every acquiring jump of the
///   enemy (which then carries nothing). A jump landing on the General after the carrier's
///   plain move to `s` goes over `s`, so only moves onto [`exposing_squares`] are tested.
/// * A piece whose leaving a line through the General lets a sliding jump land on it. Such a
///   jump needs, behind the General on that line, a jumpable first blocker and an enemy mover
///   next (a leap's jumped square is fixed, and no piece of ours is ever jumpable for the
///   enemy). Taking one piece off the line changes the first two blockers only if it is one of
///   them: so the pieces flagged are the first or second blocker when the other one of the
///   two is jumpable for the enemy ([`may_jump`]) and the third is an enemy piece. Their moves
///   are tested wherever they go (and then the carrier's too).
fn jump_pinned<B: Width>(pos: &Position<B>, general: Square) -> (Bitboard<B>, Bitboard<B>) {
    let v = pos.variant();
    let us = pos.side();
    let them = us.flip();
    let Some(jewel) = jewel_square(pos) else {
        return (Bitboard::NONE, Bitboard::NONE);
    };
    let ours = pos.colour_bb(us);
    let theirs = pos.colour_bb(them);
    let carrier = Bitboard::<B>::of(jewel) & ours;
    let carrier_only = || {
        if carrier.is_empty() {
            (Bitboard::NONE, Bitboard::NONE)
        } else {
            (carrier, exposing_squares(pos, general, them))
        }
    };
    // Unless the enemy carries the jewel (and may pass over its own pieces), the jewel square
    // is the only square it may jump: only the line from the General through it matters.
    let t = tables(v);
    let dirs = if theirs.has(jewel) {
        0..v.directions.len() as u8
    } else {
        match t.line_dir[general.index() * SQUARE_COUNT + jewel.index()] {
            NO_LINE => return carrier_only(),
            // Then every enemy piece is plain, and the third blocker must be a plain slider
            // behind the jewel square: usually there is none.
            dir if !v.back_ray_bb[dir as usize * SQUARE_COUNT + jewel.index()]
                .to()
                .intersects(theirs & (pos.kind_bb(ROOK) | pos.kind_bb(BISHOP))) =>
            {
                return carrier_only();
            }
            dir => dir..dir + 1,
        }
    };
    let mut tested = Bitboard::NONE;
    // Whether the enemy piece on `from` could jump `over` by a capturing slide along `dir`.
    let slides_over = |from: Square, over: Square, dir: u8| {
        let mover = pos.piece_at(from).expect("a blocker of theirs");
        jump_rule(mover.kind).is_some_and(|(plain, flag, _)| {
            may_jump(pos, them, flag, over, jewel)
                && v.rides[Variant::slot(plain, them, from)]
                    .iter()
                    .any(|r| r.dir == dir && r.capture)
        })
    };
    let blockers = pos.occupied() | pos.neutral();
    let behind = |sq: Square, dir: u8| v.nearest_back(dir, sq, blockers);
    for dir in dirs {
        let Some(first) = behind(general, dir) else {
            continue;
        };
        let Some(second) = behind(first, dir) else {
            continue;
        };
        let Some(third) = behind(second, dir).filter(|&t| theirs.has(t)) else {
            continue;
        };
        if ours.has(first) && slides_over(third, second, dir) {
            tested.set(first);
        }
        if ours.has(second) && slides_over(third, first, dir) {
            tested.set(second);
        }
    }
    if tested.is_empty() {
        carrier_only()
    } else {
        (tested | carrier, v.geometry.mask.to())
    }
}

struct PinkPanther;

const MARRIAGE: Marriage<'static> = Marriage {
    king: KING,
    partners: &[QUEEN],
    robbing_saves: true,
};

impl<B: Width> HooksAt<B> for PinkPanther {
    fn extra_moves(&self, pos: &Position<B>, out: &mut Vec<Move>) {
        jewel_jumps(pos, pos.side(), out);
    }

    fn count_extra_moves(&self, pos: &Position<B>, legality: &Legality<B>) -> Option<u64> {
        Some(count_jumps(pos, legality))
    }

    fn extra_attacks(&self, pos: &Position<B>, sq: Square, by: Colour) -> bool {
        jump_lands_on(pos, sq, by)
    }

    /// The map of the fast legality path (`Position::legality`), exact for the moves it
    /// decides, the side to move's plain moves without a jump (jumps are made and tested).
    ///
    /// * The General's step to `s`: it is then attacked by a jump landing on `s`, with the
    ///   board as before but the General gone from its square (a capturable piece on `s`, and
    ///   the squares between mover, jumped square and `s` are never `s`). That is this map with
    ///   the General removed from `blockers`; the General is never jumpable for the enemy (it
    ///   is not the jewel and not theirs), so its old square cannot matter as a jumped one,
    ///   and a piece it captures on `s` can be neither the mover nor the jumped square of a
    ///   jump landing on `s`.
    /// * Any other piece's move, the General staying: the General is not attacked before
    ///   (else no fast path). The move empties `from` and fills `to` with a piece of ours,
    ///   perhaps capturing. Filling a square only blocks jumps (ours are never jumpable), and a
    ///   capture removes an enemy mover or jumped square (carriers cannot be captured), so only
    ///   emptying `from` can create an attack: by a leap only if `from` becomes jumpable (never:
    ///   it is empty), by a slide only if `from` is one of the first two blockers behind the
    ///   General on a line, or by moving the jewel (the carrier). Those are [`jump_pinned`].
    /// * No General (a King is never in check): a move is illegal only if it makes the mover's
    ///   King a General, which only a jump does (passing, or a robbery of one's own King).
    fn extra_attack_map(
        &self,
        pos: &Position<B>,
        by: Colour,
        blockers: Bitboard<B>,
        wanted: Bitboard<B>,
    ) -> Option<Bitboard<B>> {
        Some(jump_attack_map(pos, by, blockers, wanted))
    }

    fn must_test(&self, pos: &Position<B>, royal: Option<Square>) -> (Bitboard<B>, Bitboard<B>) {
        royal.map_or((Bitboard::NONE, Bitboard::NONE), |general| {
            jump_pinned(pos, general)
        })
    }

    fn after_jump(&self, next: &mut Position<B>, m: Move, piece: Piece) -> Piece {
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
                next.set_neutral(Bitboard::NONE);
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

    fn decided(&self, pos: &Position<B>) -> Option<Outcome> {
        // A Queen comes only from a Princess's promotion: usually there is none to marry.
        if pos.kind_bb(QUEEN).is_empty() {
            return None;
        }
        marriage_decision(pos, &MARRIAGE)
    }
}

impl Hooks for PinkPanther {
    fn table_attacks_only(&self) -> bool {
        false
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

#[cfg(test)]
mod tests {
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
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(moves[(state >> 33) as usize % moves.len()]);
            }
        }
        out
    }

    /// The jump generator as first written, walking every piece of `us` and every atom from
    /// its square: the oracle for the generator that looks from the jewel and the carrier.
    fn reference_jumps(pos: &Position, us: Colour, out: &mut Vec<Move>) {
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

    #[test]
    fn anchored_generator_matches_the_reference() {
        let mut jumps = 0;
        for pos in random_positions(60, 150) {
            for by in Colour::BOTH {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                jewel_jumps(&pos, by, &mut fast);
                reference_jumps(&pos, by, &mut slow);
                let key = |m: &Move| (m.from, m.to, m.promotion, m.via, m.flags);
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
        let mut carried = 0;
        for pos in random_positions(60, 150) {
            carried += usize::from(pos.neutral().is_empty());
            for by in Colour::BOTH {
                let mut jumps = Vec::new();
                reference_jumps(&pos, by, &mut jumps);
                for sq in pos.variant().geometry.squares() {
                    let generated = jumps.iter().any(|m| m.to == sq);
                    assert_eq!(
                        jump_lands_on(&pos, sq, by),
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
}
