//! [`Jumps::reply_squares`] against the implementation first written, which enumerates the
//! opponent's jumps and walks every pair and step: the same [`ReplySquares`] in positions of
//! random games and random set-ups, for either side to move, the jewel unclaimed and carried.

use super::super::tests::{board_of, random_positions};
use super::super::{Jumps, NO_LINE, colour_square};
use crate::geometry::{Bitboard, Square};
use crate::notation::{parse_position, to_fen};
use crate::position::Position;
use crate::variant::{ReplySquares, Variant, Width};
use crate::variants;

impl Jumps {
    /// [`Jumps::reply_squares`] as first written (see there for why these squares).
    fn reply_squares_reference<B: Width>(
        &self,
        pos: &Position<B>,
        general: Square,
        zone: Bitboard<B>,
    ) -> Option<ReplySquares<B>> {
        let v = pos.variant();
        let g = &v.geometry;
        let t = &self.tables;
        let us = pos.side();
        let them = us.flip();
        let jewel = self.carriers.jewel_square(pos)?;
        let blockers = pos.occupied() | pos.neutral();
        let ours = pos.colour_bb(us);
        let theirs = pos.colour_bb(them);
        let carrier = pos.piece_at(jewel);
        let they_carry = theirs.has(jewel);
        let we_carry = ours.has(jewel);
        let back = |dir: u8, sq: Square| v.back_ray::<B>(dir, sq);
        // Squares of the back ray of `dir` from `sq` up to its first blocker.
        let behind = |dir: u8, sq: Square| match v.nearest_back(dir, sq, blockers) {
            Some(first) => back(dir, sq) & !back(dir, first),
            None => back(dir, sq),
        };
        let mut out = Bitboard::NONE;
        // Squares that change O's jumps only (`special`), and those that change only which
        // of the General's steps S's jumps attack (`steps_special`).
        let mut special = Bitboard::NONE;
        let mut steps_special = Bitboard::NONE;
        // O's jumps, and where the jewel may stand after them.
        for (i, &(plain, carrier_kind)) in self.carriers.pairs.iter().enumerate() {
            let movers = pos.kind_bb(plain) & theirs;
            let passing = they_carry && carrier.is_some_and(|p| p.kind == carrier_kind);
            // Where a slide of the plain piece may start to acquire (behind the jewel on its
            // lines): usually no mover stands there.
            let slide_from = t.sources[colour_square(them, jewel)][i][2].to::<B>();
            let slides = match passing || movers.intersects(slide_from) {
                true => self.slides(plain, them),
                false => &[],
            };
            for slide in slides {
                if back(slide.dir, jewel).intersects(movers) {
                    special |= behind(slide.dir, jewel) | v.slide(slide.dir, jewel, blockers).0;
                }
                if passing {
                    let (ray, first) = v.slide(slide.dir, jewel, blockers);
                    special |= ray;
                    if let Some(first) = first {
                        special |= v.slide(slide.dir, first, blockers).0;
                    }
                }
            }
            // Leaps that land only quietly or only capturing: an acquiring one mirrors its
            // mover about the jewel square.
            let [from, pass_to] = t.uneven[colour_square(them, jewel)][i];
            for from in movers & from.to() {
                special.set(Square(2 * jewel.0 - from.0));
            }
            if passing {
                special |= pass_to.to();
            }
        }
        let mut jewels = Bitboard::of(jewel);
        // The squares O's jumps start from, land on (whatever stands there) and jump over: a
        // capture there takes a jump away (its mover, or the ally a pass jumps) or adds one
        // (onto the captured piece's square).
        let mut captured = Bitboard::NONE;
        self.for_each_jump(pos, them, blockers, g.mask.to(), |j| {
            jewels |= if j.acquiring {
                j.to
            } else {
                Bitboard::of(j.via)
            };
            captured |= Bitboard::of(j.from) | Bitboard::of(j.via) | j.to;
            false
        });
        if let Some(c) = carrier.filter(|_| they_carry) {
            let sm = &v.slot_moves[Variant::slot(c.kind, them, jewel)];
            jewels |= (sm.leap_quiet | sm.leap_capture).to::<B>()
                | v.slides(sm.slides(), jewel, Bitboard::<B>::NONE);
        }
        // S's jumps onto the General or a square it steps to. Square indices are linear in
        // file and rank: a leap jump's mover mirrors its landing square about the one jumped.
        let mirror = |over: Square, onto: Square| Square(2 * over.0 - onto.0);
        let steps = zone & !Bitboard::of(general);
        let mut slide_dirs = 0u16;
        // Per direction, S's plain kind sliding along it, with its carrier form.
        let mut sliders = [(0u16, Bitboard::<B>::NONE); 16];
        let mut overs = Bitboard::<B>::NONE;
        for (i, &(plain, carrier_kind)) in self.carriers.pairs.iter().enumerate() {
            if !(pos.kind_bb(plain) | pos.kind_bb(carrier_kind)).intersects(ours) {
                continue;
            }
            for slide in self.slides(plain, us) {
                if slide.capture {
                    slide_dirs |= 1 << slide.dir;
                    let (kinds, pieces) = &mut sliders[slide.dir as usize % 16];
                    *kinds |= 1 << plain;
                    *pieces |= (pos.kind_bb(plain) | pos.kind_bb(carrier_kind)) & ours;
                }
            }
            let overs_onto = |onto: Square| t.capture_overs[colour_square(us, onto)][i].to::<B>();
            overs |= overs_onto(general);
            for z in steps {
                let overs = overs_onto(z);
                if overs.has(jewel) {
                    steps_special.set(mirror(jewel, z));
                }
                // A pass from the jewel over the square halfway to `z`.
                if we_carry && (jewel.0 + z.0) % 2 == 0 {
                    let over = Square((jewel.0 + z.0) / 2);
                    if overs.has(over) {
                        steps_special.set(over);
                    }
                }
            }
        }
        for over in overs {
            if jewels.has(over) {
                out.set(mirror(over, general));
            }
            if we_carry && mirror(over, general) == jewel {
                out.set(over);
            }
        }
        let (mut kinds, mut for_kinds) = (0u16, Bitboard::NONE);
        let mut dirs = slide_dirs;
        while dirs != 0 {
            let dir = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let line = back(dir, general);
            // Its square now is among them: a pass from it (S's carrier) is covered too.
            if !line.intersects(jewels) {
                continue;
            }
            // Without a slider of S along it (a robbed carrier stays on its square), the line
            // matters only to a slider that enters it.
            let (dir_kinds, dir_pieces) = sliders[dir as usize % 16];
            let squares = if line.intersects(dir_pieces) {
                &mut out
            } else {
                kinds |= dir_kinds;
                &mut for_kinds
            };
            let (mut at, mut seen, mut limit) = (general, 0, 3);
            *squares |= loop {
                match v.nearest_back(dir, at, blockers) {
                    None => break line,
                    Some(next) => {
                        seen += 1;
                        if next == jewel {
                            limit = 4;
                        }
                        if seen == limit {
                            break line & !back(dir, next);
                        }
                        at = next;
                    }
                }
            };
        }
        // O's acquiring jumps empty the unclaimed jewel's square: when it is the first blocker
        // on a line from the General, the piece next behind it decides whether they uncover a
        // table attack (`Jumps::jewel_shield`), so the squares up to that piece count.
        if pos.neutral().has(jewel) {
            let dir = t.line_dir(general, jewel);
            if dir != NO_LINE && v.nearest_back(dir, general, blockers) == Some(jewel) {
                special |= behind(dir, jewel);
            }
        }
        let lifted = blockers & !Bitboard::of(general);
        for z in steps {
            let dir = t.line_dir(z, jewel);
            if dir == NO_LINE || slide_dirs >> dir & 1 == 0 {
                continue;
            }
            let next = v.nearest_back(dir, jewel, lifted);
            let line = back(dir, z)
                & match next {
                    Some(next) => !back(dir, next),
                    None => Bitboard::ALL,
                };
            // Unless S carries the jewel (a pass reads every square) or the next blocker is a
            // slider of S along the line, there is no jump onto `z` along it now, and only a
            // slider of S arriving makes one; the next blocker's square stays sensitive (a
            // piece of S leaving it may uncover another behind).
            steps_special |= line;
            if let Some(next) = next {
                steps_special.set(next);
            }
        }
        Some(ReplySquares {
            all: out,
            kinds,
            for_kinds,
            special_only: (special | steps_special) & !out,
            special_steps: steps_special & !out,
            special_moves: special & !out,
            captured: captured & !out,
        })
    }
}

/// Every field of `s`, comparable.
fn fields<B: Width>(s: Option<ReplySquares<B>>) -> Option<[B; 6]> {
    s.map(|s| {
        [
            s.all.0,
            s.for_kinds.0,
            s.special_only.0,
            s.special_steps.0,
            s.special_moves.0,
            s.captured.0,
        ]
    })
}

/// The opponent's General and the squares it may step to, as `Replies::new` asks.
fn general_and_zone<B: Width>(pos: &Position<B>) -> Option<(Square, Bitboard<B>)> {
    let v = pos.variant();
    let them = pos.side().flip();
    let royal = v.royal_kinds[0];
    let king_bb = pos.kind_bb(royal) & pos.colour_bb(them);
    let king = king_bb.first()?;
    let sm = &v.slot_moves[Variant::slot(royal, them, king)];
    let steps = (sm.leap_quiet | sm.leap_capture).to::<B>() & !pos.colour_bb(them);
    Some((king, king_bb | steps))
}

/// Compares the two implementations at `pos` with `S` to move, on masks of `B`, for three
/// zones: the General's steps with its square, the steps alone, and the square alone.
fn compare_at<B: Width + std::fmt::Debug>(jumps: &Jumps, pos: &Position<B>, fen: &str) -> usize {
    let Some((general, zone)) = general_and_zone(pos) else {
        return 0;
    };
    let mut compared = 0;
    for zone in [zone, zone & !Bitboard::of(general), Bitboard::of(general)] {
        let new = jumps.reply_squares(pos, general, zone);
        let old = jumps.reply_squares_reference(pos, general, zone);
        let side = pos.side();
        assert_eq!(fields(new), fields(old), "{side:?} to move in {fen}");
        assert_eq!(
            new.map(|s| s.kinds),
            old.map(|s| s.kinds),
            "{side:?} to move in {fen}"
        );
        compared += usize::from(new.is_some());
    }
    compared
}

/// [`compare_at`] with either side to move (where the other side is then not in check), on
/// 128-bit and 64-bit masks.
fn compare(jumps: &Jumps, pos: &Position) -> usize {
    let fen = to_fen(pos);
    let (board, rest) = fen.split_once(' ').expect("a FEN");
    let other = match rest.split_once(' ') {
        Some(("w", tail)) => format!("{board} b {tail}"),
        Some((_, tail)) => format!("{board} w {tail}"),
        None => unreachable!("a FEN with a side to move"),
    };
    let mut compared = 0;
    for fen in [fen.clone(), other] {
        let Ok(pos) = parse_position(*pos.rules(), &fen) else {
            continue;
        };
        compared += compare_at(jumps, &pos, &fen);
        compared += compare_at(jumps, &pos.narrowed(), &fen);
    }
    compared
}

/// Random set-ups: the jewel unclaimed or carried by either side (by any carrier, the King
/// too), the Generals and up to eight more pieces a side scattered, then a few random plies.
fn random_setups(count: usize, state: &mut u64) -> Vec<Position> {
    let mut rules = variants::rules("pink-panther").expect("variant");
    rules.set("game-end", "movegen").expect("option");
    let mut next = |n: u64| {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 33) % n
    };
    let mut game: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out = Vec::new();
    while out.len() < count {
        let mut grid = vec![vec![String::new(); 7]; 7];
        let empty = |grid: &Vec<Vec<String>>, next: &mut dyn FnMut(u64) -> u64, pawn: bool| loop {
            let (r, f) = (next(7) as usize, next(7) as usize);
            if grid[r][f].is_empty() && (!pawn || (r != 0 && r != 6)) {
                break (r, f);
            }
        };
        // 0: unclaimed; 1: White carries; 2: Black carries.
        let jewel = next(3);
        let carrier = ["G", "R", "B", "N", "P"][next(5) as usize];
        let case = |colour: u64, s: &str| match colour {
            0 => s.to_string(),
            _ => s.to_lowercase(),
        };
        for colour in 0..2u64 {
            let royal = match jewel == colour + 1 && carrier == "G" {
                true => "+G",
                false => "G",
            };
            let (r, f) = empty(&grid, &mut next, false);
            grid[r][f] = case(colour, royal);
        }
        if jewel == 0 || carrier != "G" {
            let item = match jewel {
                0 => "*".to_string(),
                c => case(c - 1, &format!("+{carrier}")),
            };
            let (r, f) = empty(&grid, &mut next, jewel != 0 && carrier == "P");
            grid[r][f] = item;
        }
        for colour in 0..2u64 {
            for _ in 0..next(9) {
                let kind = ["R", "B", "N", "P", "I", "Q", "R", "B", "N", "P"][next(10) as usize];
                let (r, f) = empty(&grid, &mut next, kind == "P");
                grid[r][f] = case(colour, kind);
            }
        }
        let side = ["w", "b"][next(2) as usize];
        let fen = format!("{} {side} - - 0 1", board_of(&grid));
        let Ok(mut pos) = parse_position(rules, &fen) else {
            continue;
        };
        for _ in 0..6 {
            out.push(pos);
            match pos.play_random(&mut game) {
                Some(p) => pos = p,
                None => break,
            }
        }
    }
    out
}

#[test]
fn reply_squares_match_the_reference() {
    let jumps = Jumps::new(variants::get("pink-panther").expect("variant")).expect("jumps");
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let (mut compared, mut carried, mut theirs) = (0, 0, 0);
    let positions = random_positions(60, 150)
        .into_iter()
        .chain(random_setups(12000, &mut state));
    for pos in positions {
        let n = compare(&jumps, &pos);
        compared += n;
        if n > 0 && pos.neutral().is_empty() {
            carried += 1;
            let jewel = jumps.carriers.jewel_square(&pos).expect("a jewel");
            theirs += usize::from(!pos.colour_bb(pos.side()).has(jewel));
        }
    }
    assert!(compared > 50_000, "{compared} compared");
    assert!(
        carried > 3000 && theirs > 1000,
        "{carried} carried, {theirs} by the opponent"
    );
}
