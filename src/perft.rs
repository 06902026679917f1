//! Perft and divide.
//!
//! Perft(d) counts the legal move sequences of length d; the last ply is bulk-counted (the
//! number of legal moves, without making the moves a second time). Divide lists perft(d-1) for
//! every root move, sorted by move text.

use crate::notation::move_text;
use crate::position::Position;

/// The number of legal move sequences of length `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut total = 0;
            pos.for_each_legal(|_, next| total += perft(next, depth - 1));
            total
        }
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
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), next.clone())));
    out = run_parallel(children, |(text, next)| DivideEntry {
        text,
        count: perft(&next, depth - 1),
    });
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

/// Perft split at the root over `threads` worker threads (1 = this thread alone).
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(pos, depth);
    }
    divide_threads(pos, depth, threads)
        .iter()
        .map(|e| e.count)
        .sum()
}

/// Divide split at the root over `threads` worker threads.
pub fn divide_threads(pos: &Position, depth: u32, threads: usize) -> Vec<DivideEntry> {
    if threads <= 1 {
        return divide(pos, depth);
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| divide_parallel(pos, depth)),
        Err(_) => divide(pos, depth),
    }
}

fn divide_parallel(pos: &Position, depth: u32) -> Vec<DivideEntry> {
    use rayon::prelude::*;
    if depth == 0 {
        return Vec::new();
    }
    let mut children = Vec::new();
    pos.for_each_legal(|m, next| children.push((move_text(pos, &m), next.clone())));
    let mut out: Vec<DivideEntry> = children
        .into_par_iter()
        .map(|(text, next)| DivideEntry {
            count: perft_split(&next, depth - 1),
            text,
        })
        .collect();
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

/// Splits one more level below the root so two threads stay busy when the root has few moves.
fn perft_split(pos: &Position, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth < 4 {
        return perft(pos, depth);
    }
    let mut children = Vec::new();
    pos.for_each_legal(|_, next| children.push(next.clone()));
    children.par_iter().map(|c| perft(c, depth - 1)).sum()
}

fn run_parallel<T, R>(items: Vec<T>, f: impl Fn(T) -> R) -> Vec<R> {
    items.into_iter().map(f).collect()
}
