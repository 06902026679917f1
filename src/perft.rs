//! Perft and divide.
//!
//! Perft(d) counts the legal move sequences of length d; the last ply is bulk-counted (the
//! number of legal moves, without making the safe moves at all). Divide lists perft(d-1) for
//! every root move, sorted by move text. Both can split the work at the root over threads
//! (rayon's work stealing) and use an optional transposition table ([`HashTable`]), which is
//! off by default and never used for suite expectations.
//!
//! Counts are 64-bit and saturate: a count that would pass `u64::MAX - 1` is [`OVERFLOW`]
//! (`u64::MAX`) from there up to the root, never a wrapped number. Callers that print or keep a
//! count refuse [`OVERFLOW`] ([`checked`]).

use crate::deep::keys::SeededKeys;
use crate::notation::move_text;
use crate::position::Position;
use crate::variant::Width;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The count a perft gives when the leaves are more than `u64::MAX - 1` (18,446,744,073,709,551,614):
/// the sums saturate at it instead of wrapping.
pub const OVERFLOW: u64 = u64::MAX;

/// A count that saturated ([`OVERFLOW`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than 18446744073709551614 leaves: past the 64-bit counts cvperft keeps")]
pub struct CountOverflow;

/// `count`, or [`CountOverflow`] when it is [`OVERFLOW`].
///
/// # Errors
/// The count saturated.
pub fn checked(count: u64) -> Result<u64, CountOverflow> {
    if count == OVERFLOW {
        Err(CountOverflow)
    } else {
        Ok(count)
    }
}

/// The sum of `counts`, saturating at [`OVERFLOW`].
pub fn sum(counts: impl IntoIterator<Item = u64>) -> u64 {
    counts.into_iter().fold(0, u64::saturating_add)
}

/// The number of legal move sequences of length `depth` ([`OVERFLOW`] past 64 bits).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if pos.variant().narrow {
        perft_at(&pos.narrowed(), depth)
    } else {
        perft_at(pos, depth)
    }
}

/// [`perft`] on positions kept in `B`.
fn perft_at<B: Width>(pos: &Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        2 => pos.count_two_plies(),
        // An arm of its own, calling the merged counter directly: folded into the arm below,
        // the saturating sums made the compiler build `count_two_plies` 2.9% larger (0.9% more
        // instructions for Pink Panther; docs/performance.md, thirty-first session).
        3 => {
            let mut total = 0;
            pos.for_each_legal(|_, next| {
                total = u64::saturating_add(total, next.count_two_plies())
            });
            total
        }
        _ => {
            let mut total = 0;
            pos.for_each_legal(|_, next| {
                total = u64::saturating_add(total, perft_at(next, depth - 1))
            });
            total
        }
    }
}

/// [`perft`] counted ply by ply: every interior node lists its moves and makes each, and only
/// the last ply is bulk-counted, without the merged last plies of [`perft`]
/// ([`Position::count_two_plies`]). For cross-checking them.
pub fn perft_plain(pos: &Position, depth: u32) -> u64 {
    if pos.variant().narrow {
        perft_plain_at(&pos.narrowed(), depth)
    } else {
        perft_plain_at(pos, depth)
    }
}

/// [`perft_plain`] on positions kept in `B`.
fn perft_plain_at<B: Width>(pos: &Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut total = 0;
            pos.for_each_legal(|_, next| {
                total = u64::saturating_add(total, perft_plain_at(next, depth - 1))
            });
            total
        }
    }
}

/// A transposition table that cannot be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--hash {megabytes}: cannot allocate a table of that size")]
pub struct HashError {
    /// The size asked for.
    pub megabytes: usize,
}

/// The message, for callers that collect errors as text.
impl From<HashError> for String {
    fn from(e: HashError) -> String {
        e.to_string()
    }
}

/// A perft transposition table: entries keyed by the full 64-bit Zobrist key and the depth,
/// both verified on every probe. Lock-free: each entry is two atomics written with the XOR
/// trick, so a torn entry written by two threads at once fails verification and is ignored.
pub struct HashTable {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
    /// Keys drawn from a seed instead of [`Position::zobrist`] (for counting twice with
    /// independent keys: a collision of one set of keys is not one of the other).
    keys: Option<Box<SeededKeys>>,
}

impl HashTable {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries; at least one).
    ///
    /// # Errors
    /// The memory cannot be had (the error says how much was asked).
    pub fn new(megabytes: usize) -> Result<HashTable, HashError> {
        let wanted = (megabytes.max(1).saturating_mul(1024 * 1024) / 16).max(1);
        let size = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut entries: Vec<[AtomicU64; 2]> = Vec::new();
        entries
            .try_reserve_exact(size)
            .map_err(|_| HashError { megabytes })?;
        entries.extend((0..size).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(HashTable {
            entries,
            mask: size - 1,
            keys: None,
        })
    }

    /// A table like [`HashTable::new`] whose keys come from `seed` (seed 0: the positions' own
    /// [`Position::zobrist`] keys).
    ///
    /// # Errors
    /// As [`HashTable::new`].
    pub fn seeded(megabytes: usize, seed: u64) -> Result<HashTable, HashError> {
        let mut table = HashTable::new(megabytes)?;
        if seed != 0 {
            table.keys = Some(Box::new(SeededKeys::new(seed)));
        }
        Ok(table)
    }

    fn key<B: Width>(&self, pos: &Position<B>) -> u64 {
        match &self.keys {
            None => pos.zobrist(),
            Some(keys) => keys.key(pos),
        }
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let e = &self.entries[key as usize & self.mask];
        let data = e[1].load(Ordering::Relaxed);
        let check = e[0].load(Ordering::Relaxed);
        if check ^ data == key && data & 0xff == depth as u64 && data != 0 {
            Some(data >> 8)
        } else {
            None
        }
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << 56 {
            return;
        }
        let data = count << 8 | depth as u64;
        let e = &self.entries[key as usize & self.mask];
        e[0].store(key ^ data, Ordering::Relaxed);
        e[1].store(data, Ordering::Relaxed);
    }
}

/// Perft with a transposition table for the inner nodes.
pub fn perft_hashed(pos: &Position, depth: u32, table: &HashTable) -> u64 {
    if pos.variant().narrow {
        perft_hashed_at(&pos.narrowed(), depth, table)
    } else {
        perft_hashed_at(pos, depth, table)
    }
}

/// [`perft_hashed`] on positions kept in `B`.
fn perft_hashed_at<B: Width>(pos: &Position<B>, depth: u32, table: &HashTable) -> u64 {
    if depth <= 1 {
        return perft_at(pos, depth);
    }
    let key = table.key(pos);
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    let mut total = 0;
    pos.for_each_legal(|_, next| {
        total = u64::saturating_add(total, perft_hashed_at(next, depth - 1, table))
    });
    table.store(key, depth, total);
    total
}

/// How to run a perft.
#[derive(Default, Clone, Copy)]
pub struct PerftConfig<'a> {
    /// Worker threads (0 or 1: this thread alone).
    pub threads: usize,
    /// Optional transposition table.
    pub hash: Option<&'a HashTable>,
    /// Called with each root move's leaf count as it is finished (from any worker thread);
    /// a perft given one is counted root move by root move, as a divide.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
}

fn count(pos: &Position, depth: u32, cfg: &PerftConfig) -> u64 {
    match cfg.hash {
        Some(t) => perft_hashed(pos, depth, t),
        None => perft(pos, depth),
    }
}

/// One root move with the leaf count below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry {
    /// Move text.
    pub text: String,
    /// perft(depth - 1) after the move.
    pub count: u64,
}

/// Perft(depth - 1) for each root move, sorted by move text. Depth 0 has no root moves.
pub fn divide(pos: &Position, depth: u32) -> Vec<DivideEntry> {
    divide_with(pos, depth, &PerftConfig::default())
}

/// Perft under a configuration.
pub fn perft_with(pos: &Position, depth: u32, cfg: &PerftConfig) -> u64 {
    if (cfg.threads <= 1 && cfg.progress.is_none()) || depth < 3 {
        return count(pos, depth, cfg);
    }
    sum(divide_with(pos, depth, cfg).iter().map(|e| e.count))
}

/// Divide under a configuration.
pub fn divide_with(pos: &Position, depth: u32, cfg: &PerftConfig) -> Vec<DivideEntry> {
    if depth == 0 {
        return Vec::new();
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), *next)));
    let mut out: Vec<DivideEntry> = if cfg.threads <= 1 {
        children
            .into_iter()
            .map(|(text, next)| DivideEntry {
                count: reported(count(&next, depth - 1, cfg), cfg),
                text,
            })
            .collect()
    } else {
        use rayon::prelude::*;
        let run = || {
            children
                .into_par_iter()
                .map(|(text, next)| DivideEntry {
                    count: reported(split_below(&next, depth - 1, cfg), cfg),
                    text,
                })
                .collect()
        };
        on_threads(cfg.threads, run)
    };
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

/// `run` on a pool of `threads` threads (on the global pool if one cannot be built).
pub fn on_threads<R: Send>(threads: usize, run: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Hands a finished root move's count to the progress callback, if any.
fn reported(count: u64, cfg: &PerftConfig) -> u64 {
    if let Some(progress) = cfg.progress {
        progress(count);
    }
    count
}

/// Splits one more level below the root so every thread stays busy when the root has few moves.
fn split_below(pos: &Position, depth: u32, cfg: &PerftConfig) -> u64 {
    use rayon::prelude::*;
    if depth < 4 {
        return count(pos, depth, cfg);
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(*next));
    children
        .par_iter()
        .map(|c| count(c, depth - 1, cfg))
        .reduce(|| 0, u64::saturating_add)
}

/// Depth of the subtrees [`perft_until`] and [`divide_until`] count between two looks at their
/// stop flag: each is one call of [`perft`], so the counting itself is untouched.
pub const STOP_UNIT_DEPTH: u32 = 4;

/// [`perft_with`]'s count on `threads` threads (without a hash table), stopping early once
/// `stop` is set: `None` then. The flag is read between subtrees of at most
/// [`STOP_UNIT_DEPTH`] plies, so a count stops within one such subtree per thread (for the
/// Python module, whose caller presses Ctrl-C).
pub fn perft_until(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_UNIT_DEPTH {
        return (!stop.load(Ordering::Relaxed)).then(|| perft(pos, depth));
    }
    let entries = divide_until(pos, depth, threads, stop)?;
    Some(sum(entries.iter().map(|e| e.count)))
}

/// [`divide_with`]'s divide on `threads` threads (without a hash table), stopping early once
/// `stop` is set: `None` then (see [`perft_until`]). A divide of at most [`STOP_UNIT_DEPTH`]
/// plies runs on the calling thread whatever `threads` says, as [`perft_until`]'s count does.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<DivideEntry>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), *next)));
    let mut out: Vec<DivideEntry> = if divide_threads(depth, threads) <= 1 {
        children
            .into_iter()
            .map(|(text, next)| {
                let count = walk_until(&next, depth - 1, stop, false)?;
                Some(DivideEntry { text, count })
            })
            .collect::<Option<_>>()?
    } else {
        use rayon::prelude::*;
        let run = || {
            children
                .into_par_iter()
                .map(|(text, next)| {
                    let count = walk_until(&next, depth - 1, stop, true)?;
                    Some(DivideEntry { text, count })
                })
                .collect::<Option<Vec<_>>>()
        };
        on_threads(threads, run)?
    };
    out.sort_by(|a, b| a.text.cmp(&b.text));
    Some(out)
}

/// The threads [`divide_until`] counts a divide of `depth` plies on, given `threads`: one for
/// at most [`STOP_UNIT_DEPTH`] plies (milliseconds of work, one unit [`perft_until`] counts on
/// the calling thread too; a pool of `threads` threads was built for it, and its threads
/// outlived the call), else `threads`.
fn divide_threads(depth: u32, threads: usize) -> usize {
    if depth <= STOP_UNIT_DEPTH { 1 } else { threads }
}

/// The leaves `depth` plies below `pos`, counted subtree by subtree, `None` once `stop` is set;
/// `split`: the children of `pos` are counted in parallel (on the current rayon pool).
fn walk_until(pos: &Position, depth: u32, stop: &AtomicBool, split: bool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= STOP_UNIT_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(*next));
    if split {
        use rayon::prelude::*;
        return children
            .par_iter()
            .map(|c| walk_until(c, depth - 1, stop, false))
            .try_reduce(|| 0, |a, b| Some(a.saturating_add(b)));
    }
    children.iter().try_fold(0u64, |total, c| {
        Some(total.saturating_add(walk_until(c, depth - 1, stop, false)?))
    })
}

/// Visits every move path of exactly `plies` legal moves from `pos` with the position reached,
/// in a deterministic order: sorted by the space-joined move text (children are visited in
/// move-text order; a space sorts before every character of move text, so this is the same
/// order). Lines where the game ends earlier are left out: they add nothing to any perft at
/// least `plies` deep. Memory stays proportional to `plies`. `visit` returns false to stop.
pub fn for_each_path(
    pos: &Position,
    plies: u32,
    visit: &mut dyn FnMut(&[String], &Position) -> bool,
) {
    let mut path = Vec::new();
    walk_paths(pos, plies, &mut path, visit);
}

fn walk_paths(
    pos: &Position,
    plies: u32,
    path: &mut Vec<String>,
    visit: &mut dyn FnMut(&[String], &Position) -> bool,
) -> bool {
    if plies == 0 {
        return visit(path, pos);
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), *next)));
    children.sort_by(|a, b| a.0.cmp(&b.0));
    for (text, next) in children {
        path.push(text);
        let go_on = walk_paths(&next, plies - 1, path, visit);
        path.pop();
        if !go_on {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::variants;

    /// Stores `count` as the perft 3 of every grandchild of `pos`.
    fn seed_grandchildren<B: Width>(pos: &Position<B>, table: &HashTable, count: u64) {
        pos.for_each_legal(|_, child| {
            child.for_each_legal(|_, grandchild| table.store(table.key(grandchild), 3, count))
        });
    }

    /// Counts past 64 bits saturate at [`OVERFLOW`], which [`checked`] refuses: seeded with
    /// 2^56 - 1 leaves below each of its 400 grandchildren, the start's perft 5 is 400 times
    /// that, past 2^64 (it wrapped to 2^64 less than the true count).
    #[test]
    fn counts_past_64_bits_saturate_and_are_refused() {
        let rules = crate::variant::Rules::new(variants::get("chess").expect("chess"));
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        let table = HashTable::new(16).expect("table");
        let big = (1 << 56) - 1;
        seed_grandchildren(&start.narrowed(), &table, big);
        // Each root move's count fits: 20 grandchildren below it.
        let cfg = PerftConfig {
            hash: Some(&table),
            ..PerftConfig::default()
        };
        let entries = divide_with(&start, 5, &cfg);
        assert_eq!(entries.len(), 20);
        assert!(entries.iter().all(|e| e.count == 20 * big), "{entries:?}");
        assert_eq!(perft_hashed(&start, 5, &table), OVERFLOW);
        assert_eq!(perft_with(&start, 5, &cfg), OVERFLOW);
        let threads = PerftConfig { threads: 2, ..cfg };
        assert_eq!(perft_with(&start, 5, &threads), OVERFLOW);
        assert_eq!(checked(OVERFLOW), Err(CountOverflow));
        assert_eq!(checked(OVERFLOW - 1), Ok(OVERFLOW - 1));
        assert_eq!(sum([OVERFLOW - 1, 1, 5]), OVERFLOW);
        assert_eq!(sum([OVERFLOW - 2, 1]), OVERFLOW - 1);
        assert!(
            CountOverflow
                .to_string()
                .starts_with("more than 18446744073709551614 leaves")
        );
    }

    /// The stoppable counts are the counts, on one thread and on several, for every variant;
    /// a flag set before or during a count stops it.
    #[test]
    fn counts_that_can_be_stopped_count_the_same_and_stop() {
        const MANY: usize = 64;
        let go = AtomicBool::new(false);
        for v in variants::all() {
            let rules = crate::variant::Rules::new(v);
            let start = parse_position(rules, &rules.start_fen()).expect("start");
            for depth in [0, 1, 3] {
                let expected = perft(&start, depth);
                let entries = divide(&start, depth);
                for threads in [1, 3] {
                    assert_eq!(
                        perft_until(&start, depth, threads, &go),
                        Some(expected),
                        "{} perft {depth} on {threads}",
                        v.spec.id
                    );
                    assert_eq!(
                        divide_until(&start, depth, threads, &go).as_ref(),
                        Some(&entries),
                        "{} divide {depth} on {threads}",
                        v.spec.id
                    );
                }
            }
        }
        // Deep enough to walk two levels above the subtrees counted whole.
        let rules = crate::variant::Rules::new(variants::get("chess").expect("chess"));
        let pawn = parse_position(rules, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        for threads in [1, 3] {
            let expected = perft(&pawn, 7);
            assert_eq!(perft_until(&pawn, 7, threads, &go), Some(expected));
            assert_eq!(divide_until(&pawn, 7, threads, &go), Some(divide(&pawn, 7)));
        }
        let start = parse_position(rules, &rules.start_fen()).expect("start");
        // At most four plies, a divide runs on the calling thread whatever `threads` says (a
        // pool of 64 threads was built for divide 4, as perft 4 never did), and counts the same.
        for depth in 1..=STOP_UNIT_DEPTH {
            assert_eq!(divide_threads(depth, MANY), 1, "divide {depth}");
            assert_eq!(
                divide_until(&start, depth, MANY, &go),
                Some(divide(&start, depth)),
                "divide {depth} on {MANY}"
            );
        }
        assert_eq!(divide_threads(STOP_UNIT_DEPTH + 1, MANY), MANY);
        assert_eq!(divide_threads(STOP_UNIT_DEPTH + 1, 1), 1);
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&start, 5, 1, &stopped), None);
        assert_eq!(divide_until(&start, 5, 2, &stopped), None);
        assert_eq!(divide_until(&start, 0, 1, &stopped), Some(Vec::new()));
        // Perft 10 of chess would take days: set the flag from another thread meanwhile.
        for threads in [1, 2] {
            let stop = AtomicBool::new(false);
            std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    stop.store(true, Ordering::Relaxed);
                });
                assert_eq!(perft_until(&start, 10, threads, &stop), None);
            });
        }
    }

    /// Every variant whose board fits 64 bits counts the same on 64-bit masks as on 128-bit
    /// ones, from the start and along fixed-seed random games (jumps, carriers, promotions and
    /// resurrections come up on the way).
    #[test]
    fn narrow_positions_count_as_wide_ones() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut compared = 0;
        for v in variants::all().iter().filter(|v| v.narrow) {
            let rules = crate::variant::Rules::new(v);
            let start = parse_position(rules, &rules.start_fen()).expect("start");
            for _ in 0..6 {
                let mut pos = start;
                for ply in 0..40 {
                    if ply % 8 == 0 {
                        assert_eq!(
                            perft_at(&pos, 2),
                            perft_at(&pos.narrowed(), 2),
                            "{}: {}",
                            v.spec.id,
                            crate::notation::to_fen(&pos)
                        );
                        compared += 1;
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    pos = pos.play(moves[(seed >> 33) as usize % moves.len()]);
                }
            }
        }
        assert!(compared >= 100, "only {compared} positions compared");
    }
}
