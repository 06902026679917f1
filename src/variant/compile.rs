//! [`Variant::compile`]: a declaration turned into move tables, in named phases, then the
//! hooks built and the fast-path flags derived (Fairy-Stockfish's `conclude()` step).

use super::declaration::{MAX_KINDS, MAX_OPTIONS, MovementSpec, VariantSpec};
use super::hooks::VariantHooks;
use super::lines::{LINE_KINDS, LINE_SQUARES, LineMasks, line_kind};
use super::tables::{
    KindCounting, LeapSet, MAX_DIRECTIONS, MAX_LEAP_PATH, Ride, SLOTS, SlotMoves, SpecError,
    SpecialLeap, Variant, line_plan, padded,
};
use super::vocabulary::Colour;
use crate::geometry::{Bitboard, Geometry, SQUARE_COUNT, STRIDE, Square, index_delta};
use crate::piece::{Movement, parse_betza};

impl Variant {
    /// Compiles a declaration: checks it, parses each piece's movement, places the movement on
    /// every square, builds the lines slides run along, the per-kind tables, the packed
    /// per-square moves and the leap sets the leaf counter uses, builds the hooks, and derives
    /// which fast paths apply.
    ///
    /// # Errors
    /// A bad Betza string, an unknown promotion letter, too many kinds, options or directions,
    /// an option override of an undeclared value, a hook asking for an undeclared piece.
    pub fn compile(spec: VariantSpec) -> Result<Variant, SpecError> {
        check_declaration(&spec)?;
        let geometry = Geometry::new(spec.files, spec.ranks);
        let movements = parse_movements(&spec)?;
        let placed = place_movements(&spec, &geometry, &movements)?;
        let lines = Lines::build(&geometry, &placed.directions);
        let kinds = KindTables::build(&spec, &geometry, &placed)?;
        let slot_moves = pack_slots(&placed, &lines, &geometry);
        let (leap_sets, has_rides) = leap_sets_of(&spec, &geometry, &placed, &slot_moves, &lines);
        let (leap_sets, counting) =
            counting_of(&spec, leap_sets, &has_rides, &kinds.promotion_kinds);
        let rank_bb =
            |r: u8| (0..spec.files).fold(Bitboard::EMPTY, |acc, f| acc | Square::new(f, r).bb());
        let last_rank_bb = [rank_bb(spec.ranks - 1), rank_bb(0)];
        let ranged_rides = placed
            .rides
            .iter()
            .map(|rides| rides.iter().filter(|r| r.range != 255).copied().collect())
            .collect();
        let uneven_leap_kinds = uneven_leap_kinds(&spec, &placed);
        let leap_reads: Vec<Bitboard> = slot_moves
            .iter()
            .enumerate()
            .map(|(slot, m)| {
                let special = placed.special_leaps.get(slot).map_or(&[][..], |l| &l[..]);
                special
                    .iter()
                    .fold(m.leap_quiet | m.leap_capture, |read, leap| {
                        read | leap.path | leap.to.bb()
                    })
            })
            .collect();
        let leap_readers = leap_readers(&leap_reads, uneven_leap_kinds);
        let plain_reach = plain_reach(&slot_moves, &lines);
        let mut variant = Variant {
            geometry,
            slot_moves: padded(&slot_moves),
            special_leaps: placed.special_leaps,
            leap_reads: padded(&leap_reads),
            leap_readers,
            plain_reach,
            ranged_rides,
            ride_capture_range: placed.ride_capture_range,
            leap_attackers: placed.leap_attackers,
            directions: placed.directions,
            ray_bb: lines.ray_bb,
            back_ray_bb: padded(&lines.back_ray_bb),
            all_back_rays: padded(&lines.all_back_rays),
            back_dirs: padded(&lines.back_dirs),
            step_length: lines.step_length,
            descending_dirs: lines.descending_dirs,
            line_dirs: lines.line_dirs,
            line_masks: lines.line_masks,
            open_dirs: lines.open_dirs,
            last_rank_bb,
            atoms: movements
                .into_iter()
                .map(|(light, _)| light.atoms)
                .collect(),
            promotion_kinds: kinds.promotion_kinds,
            royal_kinds: kinds.royal_kinds,
            uncapturable_kinds: kinds.uncapturable_kinds,
            pawn_kinds: kinds.pawn_kinds,
            uneven_leap_kinds,
            any_leap_attackers: padded(&kinds.any_leap_attackers),
            capture_dirs: *padded(&kinds.capture_dirs),
            slider_kinds: kinds.slider_kinds,
            leaper_kinds: kinds.leaper_kinds,
            placeable_kinds: kinds.placeable_kinds,
            placement_squares: kinds.placement_squares,
            leap_sets,
            counting,
            ride_kinds: ride_kinds(&has_rides),
            has_rides,
            special_captures: placed.special_captures,
            fast_legality: false,
            narrow: false,
            setup_phase: false,
            expands: false,
            rule_hooks: None,
            special_moves: None,
            fast_paths: None,
            spec,
        };
        let hooks = match variant.spec.hooks {
            Some(build) => build(&variant)?,
            None => VariantHooks::default(),
        };
        if hooks.fast_paths.is_some() && hooks.special_moves.is_none() {
            return Err(SpecError::FastPathsAlone {
                variant: variant.spec.id,
            });
        }
        for (slot, m) in variant.slot_moves.iter_mut().enumerate() {
            let open = variant.open_dirs[slot % SQUARE_COUNT][0];
            m.both_plan = line_plan(&variant.line_dirs, m.slide_both, open);
        }
        variant.rule_hooks = hooks.rules;
        variant.special_moves = hooks.special_moves;
        variant.fast_paths = hooks.fast_paths;
        variant.conclude();
        Ok(variant)
    }

    /// Derives from the declaration and the hooks which paths the generator may take.
    fn conclude(&mut self) {
        use super::declaration::HandKind;
        let has_rules = self.rule_hooks.is_some();
        self.narrow = self.spec.files as i32 * STRIDE <= 64;
        self.fast_legality = !self.special_captures && self.special_moves.is_none();
        self.setup_phase = has_rules && self.spec.hand == HandKind::Setup;
        self.expands = has_rules && self.spec.hand != HandKind::None && self.placeable_kinds != 0;
    }
}

/// Limits and cross-references the tables rely on.
fn check_declaration(spec: &VariantSpec) -> Result<(), SpecError> {
    if spec.pieces.len() > MAX_KINDS {
        return Err(SpecError::TooManyKinds { variant: spec.id });
    }
    let problem = |problem: String| SpecError::Options {
        variant: spec.id,
        problem,
    };
    if spec.options.len() > MAX_OPTIONS {
        return Err(problem(format!("more than {MAX_OPTIONS} options")));
    }
    for option in &spec.options {
        for o in &option.overrides {
            if !option.values.contains(&o.value) {
                return Err(problem(format!(
                    "option {} overrides undeclared value `{}`",
                    option.name, o.value
                )));
            }
        }
    }
    Ok(())
}

/// Each kind's movement from light and from dark squares.
fn parse_movements(spec: &VariantSpec) -> Result<Vec<(Movement, Movement)>, SpecError> {
    spec.pieces
        .iter()
        .map(|piece| {
            Ok(match piece.movement {
                MovementSpec::Uniform(b) => (parse_betza(b)?, parse_betza(b)?),
                MovementSpec::BySquareColour { light, dark } => {
                    (parse_betza(light)?, parse_betza(dark)?)
                }
            })
        })
        .collect()
}

/// The movement placed on every square, per (kind, colour, square).
struct Placed {
    leap_quiet: Vec<Bitboard>,
    leap_capture: Vec<Bitboard>,
    leap_attackers: Vec<Bitboard>,
    special_leaps: Vec<Vec<SpecialLeap>>,
    /// Every slide, unlimited (range 255) or not.
    rides: Vec<Vec<Ride>>,
    ride_capture_range: Vec<[u8; MAX_DIRECTIONS]>,
    /// Slide directions in the order first met.
    directions: Vec<(i8, i8)>,
    special_captures: bool,
}

fn place_movements(
    spec: &VariantSpec,
    geometry: &Geometry,
    movements: &[(Movement, Movement)],
) -> Result<Placed, SpecError> {
    let slots = spec.pieces.len() * 2 * SQUARE_COUNT;
    let mut p = Placed {
        leap_quiet: vec![Bitboard::EMPTY; slots],
        leap_capture: vec![Bitboard::EMPTY; slots],
        leap_attackers: vec![Bitboard::EMPTY; slots],
        special_leaps: vec![Vec::new(); slots],
        rides: vec![Vec::new(); slots],
        ride_capture_range: vec![[0u8; MAX_DIRECTIONS]; slots],
        directions: Vec::new(),
        special_captures: false,
    };
    for (k, (light, dark)) in movements.iter().enumerate() {
        for colour in Colour::BOTH {
            let sign: i32 = if colour == Colour::White { 1 } else { -1 };
            let second_rank = if colour == Colour::White {
                1
            } else {
                spec.ranks as i32 - 2
            };
            for from in geometry.squares() {
                let movement = if from.is_light() { light } else { dark };
                let slot = Variant::slot(k as u8, colour, from);
                for atom in &movement.atoms {
                    let (dx, dy) = (atom.dx as i32 * sign, atom.dy as i32 * sign);
                    if atom.rider {
                        let vector = (dx as i8, dy as i8);
                        let dir = match p.directions.iter().position(|d| *d == vector) {
                            Some(d) => d,
                            None => {
                                p.directions.push(vector);
                                p.directions.len() - 1
                            }
                        };
                        if dir >= MAX_DIRECTIONS {
                            return Err(SpecError::TooManyDirections { variant: spec.id });
                        }
                        if atom.initial || atom.lame {
                            return Err(SpecError::RiderModifiers { variant: spec.id });
                        }
                        let range = if atom.range == 0 { 255 } else { atom.range };
                        p.rides[slot].push(Ride {
                            dir: dir as u8,
                            range,
                            quiet: atom.quiet,
                            capture: atom.capture,
                        });
                        if atom.capture {
                            let r = &mut p.ride_capture_range[slot][dir];
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
                            for sq in lame_path(geometry, from, dx, dy) {
                                path.set(sq);
                            }
                        }
                        p.special_leaps[slot].push(SpecialLeap {
                            to,
                            path,
                            quiet: atom.quiet,
                            capture: atom.capture,
                        });
                        p.special_captures |= atom.capture;
                        continue;
                    }
                    if atom.quiet {
                        p.leap_quiet[slot].set(to);
                    }
                    if atom.capture {
                        p.leap_capture[slot].set(to);
                        p.leap_attackers[Variant::slot(k as u8, colour, to)].set(from);
                    }
                }
            }
        }
    }
    Ok(p)
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

/// Per colour, the kinds some of whose leaps depend on what stands on the target or on a path
/// (see [`Variant::uneven_leap_kinds`]).
fn uneven_leap_kinds(spec: &VariantSpec, placed: &Placed) -> [u16; 2] {
    let mut bits = [0u16; 2];
    for k in 0..spec.pieces.len() {
        for colour in Colour::BOTH {
            let base = Variant::slot(k as u8, colour, Square(0));
            let uneven = (base..base + SQUARE_COUNT).any(|slot| {
                placed.leap_quiet[slot] != placed.leap_capture[slot]
                    || !placed.special_leaps[slot].is_empty()
            });
            bits[colour.index()] |= u16::from(uneven) << k;
        }
    }
    bits
}

/// [`Variant::plain_reach`]: per slot, the plain leap targets and the whole rays of the
/// unlimited slides.
fn plain_reach(slot_moves: &[SlotMoves], lines: &Lines) -> Vec<Bitboard> {
    slot_moves
        .iter()
        .enumerate()
        .map(|(slot, m)| {
            let mut reach = m.leap_quiet | m.leap_capture;
            let mut dirs = m.slides();
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                reach |= lines.ray_bb[d * SQUARE_COUNT + slot % SQUARE_COUNT];
            }
            reach
        })
        .collect()
}

/// [`Variant::leap_readers`]: per slot of a kind of `uneven` (bits per colour) on a square,
/// the squares from which such a piece reads that square (`leap_reads` turned around).
fn leap_readers(leap_reads: &[Bitboard], uneven: [u16; 2]) -> Box<[Bitboard; SLOTS]> {
    let mut readers = vec![Bitboard::EMPTY; SLOTS];
    for k in 0..MAX_KINDS {
        for colour in Colour::BOTH {
            if uneven[colour.index()] >> k & 1 == 0 {
                continue;
            }
            let base = Variant::slot(k as u8, colour, Square(0));
            for from in 0..SQUARE_COUNT {
                let Some(&read) = leap_reads.get(base + from) else {
                    continue;
                };
                for t in read {
                    readers[base + t.index()].set(Square(from as u8));
                }
            }
        }
    }
    readers
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("length {SLOTS}"))
}

/// The lines slides run along.
struct Lines {
    ray_bb: Vec<Bitboard>,
    back_ray_bb: Vec<Bitboard>,
    all_back_rays: Vec<Bitboard>,
    back_dirs: Vec<u16>,
    step_length: Vec<u8>,
    descending_dirs: u16,
    line_dirs: [u16; LINE_KINDS],
    line_masks: LineMasks,
    open_dirs: Box<[[u16; 2]; LINE_SQUARES]>,
}

impl Lines {
    fn build(geometry: &Geometry, directions: &[(i8, i8)]) -> Lines {
        let rays = |sign: i32| {
            let mut out = Vec::with_capacity(directions.len() * SQUARE_COUNT);
            for &(dx, dy) in directions {
                for sq in 0..SQUARE_COUNT {
                    let mut ray = Bitboard::EMPTY;
                    let from = Square(sq as u8);
                    if geometry.mask.has(from) {
                        let mut cur = from;
                        while let Some(next) =
                            geometry.offset(cur, dx as i32 * sign, dy as i32 * sign)
                        {
                            ray.set(next);
                            cur = next;
                        }
                    }
                    out.push(ray);
                }
            }
            out
        };
        let ray_bb = rays(1);
        let back_ray_bb = rays(-1);
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
        let descending_dirs = directions
            .iter()
            .enumerate()
            .filter(|(_, (dx, dy))| index_delta(*dx as i32, *dy as i32) < 0)
            .fold(0u16, |acc, (d, _)| acc | 1 << d);
        let mut line_dirs = [0u16; LINE_KINDS];
        for (d, &(dx, dy)) in directions.iter().enumerate() {
            if let Some(kind) = line_kind(dx, dy) {
                line_dirs[kind] |= 1 << d;
            }
        }
        // A line is looked up whole only where the variant slides both ways along it.
        for line in &mut line_dirs {
            if line.count_ones() != 2 {
                *line = 0;
            }
        }
        let line_masks = LineMasks::new(|sq, kind| {
            let mut dirs = line_dirs[kind];
            let mut mask = 0;
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                mask |= ray_bb[d * SQUARE_COUNT + sq.index()].0;
            }
            mask
        });
        let mut open_dirs = Box::new([[0u16; 2]; LINE_SQUARES]);
        for (sq, open) in open_dirs.iter_mut().take(SQUARE_COUNT).enumerate() {
            for d in 0..directions.len() {
                open[0] |= u16::from(!ray_bb[d * SQUARE_COUNT + sq].is_empty()) << d;
                open[1] |= u16::from(!back_ray_bb[d * SQUARE_COUNT + sq].is_empty()) << d;
            }
        }
        Lines {
            line_dirs,
            line_masks,
            open_dirs,
            ray_bb,
            back_ray_bb,
            all_back_rays,
            back_dirs,
            step_length,
            descending_dirs,
        }
    }
}

/// What the declaration says of each kind, resolved to indices and bits.
struct KindTables {
    promotion_kinds: Vec<Vec<u8>>,
    royal_kinds: Vec<u8>,
    uncapturable_kinds: u16,
    pawn_kinds: u16,
    any_leap_attackers: Vec<Bitboard>,
    capture_dirs: Vec<u16>,
    slider_kinds: [u16; 2],
    leaper_kinds: [u16; 2],
    placeable_kinds: u16,
    placement_squares: Vec<Bitboard>,
}

impl KindTables {
    fn build(
        spec: &VariantSpec,
        geometry: &Geometry,
        placed: &Placed,
    ) -> Result<KindTables, SpecError> {
        let kinds = spec.pieces.len();
        let bits = |keep: &dyn Fn(&super::PieceSpec) -> bool| {
            spec.pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| keep(p))
                .fold(0u16, |acc, (k, _)| acc | 1 << k)
        };
        let mut promotion_kinds = Vec::new();
        for piece in &spec.pieces {
            let mut list = Vec::new();
            for target in piece.promotes_to {
                let idx = spec.pieces.iter().position(|p| p.fen == *target).ok_or(
                    SpecError::UnknownPromotion {
                        variant: spec.id,
                        letter: target,
                    },
                )?;
                list.push(idx as u8);
            }
            promotion_kinds.push(list);
        }
        let any_leap_attackers = (0..2 * SQUARE_COUNT)
            .map(|i| {
                let (colour, sq) = (i / SQUARE_COUNT, i % SQUARE_COUNT);
                (0..kinds).fold(Bitboard::EMPTY, |acc, k| {
                    acc | placed.leap_attackers[(k * 2 + colour) * SQUARE_COUNT + sq]
                })
            })
            .collect();
        let capture_dirs: Vec<u16> = (0..kinds * 2)
            .map(|kc| {
                placed.ride_capture_range[kc * SQUARE_COUNT..(kc + 1) * SQUARE_COUNT]
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
        let slider_kinds = [0, 1].map(|c| {
            (0..kinds)
                .filter(|k| capture_dirs[k * 2 + c] != 0)
                .fold(0, |acc, k| acc | 1 << k)
        });
        let leaper_kinds = [0, 1].map(|c| {
            (0..kinds)
                .filter(|k| {
                    let slots = (k * 2 + c) * SQUARE_COUNT..(k * 2 + c + 1) * SQUARE_COUNT;
                    placed.leap_attackers[slots]
                        .iter()
                        .any(|bb| *bb != Bitboard::EMPTY)
                })
                .fold(0, |acc, k| acc | 1 << k)
        });
        let mut placement_squares = vec![Bitboard::EMPTY; kinds * 2];
        for (k, piece) in spec.pieces.iter().enumerate() {
            for &name in piece.placement_squares {
                let square = geometry
                    .parse_square(name)
                    .ok_or(SpecError::UnknownSquare {
                        variant: spec.id,
                        name,
                    })?;
                let mirrored = Square::new(square.file(), spec.ranks - 1 - square.rank());
                placement_squares[k * 2].set(square);
                placement_squares[k * 2 + 1].set(mirrored);
            }
        }
        Ok(KindTables {
            placeable_kinds: bits(&|p| !p.placement_squares.is_empty()),
            placement_squares,
            promotion_kinds,
            royal_kinds: (0..kinds as u8)
                .filter(|&k| spec.pieces[k as usize].royal)
                .collect(),
            uncapturable_kinds: bits(&|p| !p.capturable),
            pawn_kinds: bits(&|p| p.pawn),
            any_leap_attackers,
            capture_dirs,
            slider_kinds,
            leaper_kinds,
        })
    }
}

/// The generator's view of each (kind, colour, square): leaps and unlimited slides as bits.
fn pack_slots(placed: &Placed, lines: &Lines, geometry: &Geometry) -> Vec<SlotMoves> {
    (0..placed.rides.len())
        .map(|slot| {
            let mut m = SlotMoves {
                leap_quiet: placed.leap_quiet[slot],
                leap_capture: placed.leap_capture[slot],
                ..SlotMoves::default()
            };
            // A direction that leaves the board at once from this square is left out: pieces
            // on the edges would otherwise walk it at every node for nothing.
            let sq = slot % SQUARE_COUNT;
            for ride in &placed.rides[slot] {
                let bit = 1u16 << ride.dir;
                if ride.range != 255 {
                    m.irregular = true;
                    m.irregular_captures |= ride.capture;
                } else if lines.ray_bb[ride.dir as usize * SQUARE_COUNT + sq].is_empty() {
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
            let mut dirs = m.slides();
            while dirs != 0 {
                let dir = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                let (dx, dy) = placed.directions[dir];
                if let Some(first) = geometry.offset(Square(sq as u8), dx as i32, dy as i32) {
                    m.slide_first.set(first);
                }
            }
            if !placed.special_leaps[slot].is_empty() {
                m.irregular = true;
                m.irregular_captures |= placed.special_leaps[slot].iter().any(|l| l.capture);
            }
            m
        })
        .collect()
}

/// The leap sets of every (kind, colour) in one list, and what the leaf counter reads of each
/// (kind, colour) packed into [`KindCounting`].
fn counting_of(
    spec: &VariantSpec,
    sets_by_kind: Vec<Option<Vec<LeapSet>>>,
    has_rides: &[bool],
    promotion_kinds: &[Vec<u8>],
) -> (Vec<LeapSet>, [KindCounting; 2 * MAX_KINDS]) {
    let mut all = Vec::new();
    let mut counting = [KindCounting::default(); 2 * MAX_KINDS];
    for (kc, sets) in sets_by_kind.into_iter().enumerate() {
        let pawn = spec.pieces[kc / 2].pawn;
        let c = &mut counting[kc];
        c.pawn = pawn;
        c.has_rides = has_rides[kc];
        c.promotions = promotion_kinds[kc / 2].len() as u8;
        if let Some(sets) = sets {
            c.by_sets = true;
            c.sets = (all.len() as u16, sets.len() as u16);
            if !pawn {
                c.by_piece_below = (sets.len() as u32 * 5).div_ceil(4);
            }
            all.extend(sets);
        }
    }
    (all, counting)
}

/// The leaps of each (kind, colour) as [`LeapSet`]s, where they can be counted as sets, and
/// whether the (kind, colour) ever rides.
fn leap_sets_of(
    spec: &VariantSpec,
    geometry: &Geometry,
    placed: &Placed,
    slot_moves: &[SlotMoves],
    lines: &Lines,
) -> (Vec<Option<Vec<LeapSet>>>, Vec<bool>) {
    let mut all_sets = Vec::new();
    let mut has_rides = Vec::new();
    for kc in 0..spec.pieces.len() * 2 {
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
            // Counted by shifts of a count below 64 ([`Bitboard::shift`]).
            if set.delta.abs() >= 64 {
                return false;
            }
            for sq in path {
                if set.path_len as usize == MAX_LEAP_PATH || from.0.abs_diff(sq.0) >= 64 {
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
            let (quiet, capture) = (slot_moves[slot].leap_quiet, slot_moves[slot].leap_capture);
            let mut seen = quiet | capture;
            for to in seen {
                ok &= add(from, to, Bitboard::EMPTY, quiet.has(to), capture.has(to));
            }
            for leap in &placed.special_leaps[slot] {
                ok &= !seen.has(leap.to) && add(from, leap.to, leap.path, leap.quiet, leap.capture);
                seen.set(leap.to);
            }
            for ride in &placed.rides[slot] {
                rides_here = true;
                ok &=
                    !lines.ray_bb[ride.dir as usize * SQUARE_COUNT + from.index()].intersects(seen);
            }
        }
        all_sets.push(ok.then_some(sets));
        has_rides.push(rides_here);
    }
    (all_sets, has_rides)
}

/// [`Variant::ride_kinds`] from `has_rides` (index `kind * 2 + colour`).
fn ride_kinds(has_rides: &[bool]) -> [u16; 2] {
    let mut out = [0u16; 2];
    for (kc, &rides) in has_rides.iter().enumerate() {
        out[kc % 2] |= u16::from(rides) << (kc / 2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{move_text, parse_position};
    use crate::variant::{OptionSpec, PieceSpec, Rules, VariantHooks};
    use crate::variants::{self, chess};

    /// What `conclude` derives for each built-in variant from its declaration and its hooks.
    #[test]
    fn fast_paths_are_derived_from_the_declaration_and_the_hooks() {
        let v = |id| variants::get(id).expect("variant");
        let flags = |id| {
            let v = v(id);
            (v.fast_legality, v.setup_phase, v.expands, v.narrow)
        };
        assert_eq!(flags("chess"), (true, false, false, true));
        assert_eq!(flags("silver-elephant"), (true, true, false, false));
        assert_eq!(flags("bachelor-kamil"), (true, false, false, false));
        assert_eq!(flags("cerimon"), (true, false, true, true));
        assert_eq!(flags("plutonian"), (true, false, false, true));
        assert_eq!(flags("pink-panther"), (false, false, false, true));
        // Chess and Plutonian say everything in data: no hooks at all.
        for id in ["chess", "plutonian"] {
            assert!(v(id).rule_hooks().is_none() && v(id).special_moves().is_none());
        }
        assert!(v("pink-panther").fast_paths().is_some());
    }

    /// `ride_kinds` holds, per colour, exactly the kinds `has_rides` names: the record of the
    /// opponent's moves skips every other kind without uneven leaps.
    #[test]
    fn ride_kinds_are_the_kinds_with_rides() {
        for v in variants::all() {
            for colour in 0..2 {
                let named: u16 = (0..v.has_rides.len() / 2)
                    .filter(|k| v.has_rides[k * 2 + colour])
                    .map(|k| 1 << k)
                    .sum();
                assert_eq!(v.ride_kinds[colour], named, "{} colour {colour}", v.spec.id);
            }
        }
        assert_eq!(
            ride_kinds(&[true, false, false, true, true, true]),
            [0b101, 0b110]
        );
    }

    /// A rider of limited range stops at its range and at the first piece, which it may
    /// capture.
    #[test]
    fn ranged_rides_stop_at_their_range_and_first_blocker() {
        let spec = VariantSpec {
            id: "short-rook-test",
            castling: vec![],
            ..chess::spec()
        }
        .replacing("R", PieceSpec::new("R", "Short Rook", "W2"));
        let variant: &'static Variant =
            Box::leak(Box::new(Variant::compile(spec).expect("compiles")));
        let pos = parse_position(Rules::new(variant), "4k3/8/8/3p4/8/3R4/8/4K3 w - - 0 1")
            .expect("position");
        let mut rook: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from == Square::new(3, 2))
            .map(|m| move_text(&pos, m))
            .collect();
        rook.sort();
        assert_eq!(
            rook,
            [
                "d3b3", "d3c3", "d3d1", "d3d2", "d3d4", "d3d5", "d3e3", "d3f3"
            ]
        );
        assert_eq!(pos.count_legal(), pos.legal_moves().len() as u64);
    }

    /// Slides that only move and slides that only capture reach their whole rays in
    /// `plain_reach`, which the leaf counter reads in check to skip pieces that cannot end on
    /// the check line: counted in check, they give the moves made and tested one by one.
    #[test]
    fn quiet_only_and_capture_only_slides_are_counted_in_check() {
        let spec = VariantSpec {
            id: "one-way-sliders-test",
            ..chess::spec()
        }
        .replacing("B", PieceSpec::new("B", "Mover", "mRcB"))
        .replacing("R", PieceSpec::new("R", "Taker", "cRmB"));
        let variant: &'static Variant =
            Box::leak(Box::new(Variant::compile(spec).expect("compiles")));
        for letter in ["B", "R"] {
            let k = variant.kind(letter).expect("kind");
            let slot = Variant::slot(k, Colour::White, Square::new(3, 3));
            let m = &variant.slot_moves[slot];
            assert!(m.slide_quiet != 0 && m.slide_capture != 0 && m.slide_both == 0);
            // From d4: every square of its file, rank and diagonals.
            assert_eq!(variant.plain_reach_at::<u128>(slot).count(), 27, "{letter}");
        }
        let rules = Rules::new(variant);
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let (mut in_check, mut moved) = (0, 0);
        for _ in 0..300 {
            let mut pos = start;
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if pos.in_check() {
                    in_check += 1;
                    let mut pseudo = Vec::new();
                    pos.pseudo_moves(&mut pseudo);
                    let tested = pseudo
                        .iter()
                        .filter(|m| !pos.play(**m).royal_attacked(pos.side()))
                        .count() as u64;
                    assert_eq!(
                        pos.count_legal(),
                        tested,
                        "{}",
                        crate::notation::to_fen(&pos)
                    );
                    assert_eq!(moves.len() as u64, tested);
                    let ours = |m: &&crate::position::Move| {
                        let kind = pos.piece_at(m.from).map(|p| p.kind);
                        ["B", "R"].iter().any(|l| variant.kind(l).ok() == kind)
                    };
                    moved += moves.iter().filter(ours).count();
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = pos.play(moves[(state >> 33) as usize % moves.len()]);
            }
        }
        assert!(
            in_check > 200 && moved > 50,
            "{in_check} positions in check, {moved} evasions by the one-way sliders"
        );
    }

    /// A declaration built from another's by letter keeps the pieces in the order asked for.
    #[test]
    fn a_declaration_may_start_from_another() {
        let mut spec = VariantSpec {
            id: "derived-test",
            ..chess::spec()
        }
        .inserting_after("N", PieceSpec::new("E", "Elephant", "FA"))
        .replacing("Q", PieceSpec::new("T", "Terror", "QN"));
        // The Pawn still promotes to a Queen, which is gone: compiling says so.
        assert!(matches!(
            Variant::compile(spec.clone()),
            Err(SpecError::UnknownPromotion { letter: "Q", .. })
        ));
        spec.piece_mut("P").promotes_to = &["T", "R", "E", "B", "N"];
        let letters: Vec<&str> = spec.pieces.iter().map(|p| p.fen).collect();
        assert_eq!(letters, ["P", "N", "E", "B", "R", "T", "K"]);
        let variant = Variant::compile(spec).expect("compiles");
        assert_eq!(variant.kind("T").expect("Terror"), 5);
    }

    /// Declarations that cannot compile say why, as data.
    #[test]
    fn bad_declarations_are_refused_with_a_reason() {
        let refused = |spec: VariantSpec| Variant::compile(spec).err().expect("refused");
        let mut spec = chess::spec();
        spec.piece_mut("P").promotes_to = &["X"];
        assert!(matches!(
            refused(spec),
            SpecError::UnknownPromotion { letter: "X", .. }
        ));
        let mut spec = chess::spec();
        spec.options = vec![OptionSpec::new("o", &["a", "b"], "T-1", "").with_start("c", "")];
        assert_eq!(
            refused(spec).to_string(),
            "chess: option o overrides undeclared value `c`"
        );
        let spec = VariantSpec {
            hooks: Some(|v: &Variant| {
                v.kind("X")?;
                Ok(VariantHooks::default())
            }),
            ..chess::spec()
        };
        assert_eq!(refused(spec).to_string(), "chess: no piece `X`");
        let mut spec = chess::spec();
        spec.piece_mut("N").movement = MovementSpec::Uniform("fWx");
        assert_eq!(
            refused(spec).to_string(),
            "betza `fWx`, column 3: unknown modifier `x`"
        );
    }
}
