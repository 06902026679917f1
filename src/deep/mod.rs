//! Deep perft on many machines: the tree is cut at a shallow ply into its *unique* positions,
//! each weighted by how many move paths reach it from each root move (a transposition is
//! counted once, not once per path). A plan lists those work units ([`plan`]); `work` counts a
//! shard of them, writing each result as it finishes so that a stopped run resumes
//! ([`work`], [`results`]); `merge` checks that every unit of the plan is counted exactly once
//! and sums multiplicity × count in 128 bits ([`merge`]).
//!
//! Files are JSON Lines: a header line naming the format, then one line per unit. A plan's
//! header carries an identity (a 128-bit FNV-1a digest of its content) that every result file
//! repeats, so results of another plan are refused.

pub mod keys;
pub mod merge;
pub mod plan;
pub mod results;
pub mod work;

use std::io::BufRead;

/// A problem with a plan or result file, or with what was asked: one line, naming the file,
/// the line and the field where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DeepError(pub String);

impl DeepError {
    /// An error about line `line` (1-based) of `file`.
    pub fn at(file: &str, line: usize, what: impl std::fmt::Display) -> DeepError {
        DeepError(format!("{file}: line {line}: {what}"))
    }
}

/// A JSON error on one line of a file: `FILE: line L: column C: not WHAT: MESSAGE` (serde's own
/// ` at line .. column ..` suffix dropped, since the line is ours).
pub fn json_error(file: &str, line: usize, what: &str, e: &serde_json::Error) -> DeepError {
    let text = e.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text,
    };
    DeepError::at(
        file,
        line,
        format!("column {}: not {what}: {message}", e.column()),
    )
}

/// Longest line accepted in a plan or result file (a unit line is a few hundred bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// A 128-bit FNV-1a digest, for file identities (not for security).
#[derive(Clone)]
pub struct Digest(u128);

impl Default for Digest {
    fn default() -> Digest {
        Digest(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }
}

impl Digest {
    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        const PRIME: u128 = (1 << 88) + (1 << 8) + 0x3b;
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    /// The digest as 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// One line read by [`read_line`]: its text (without the newline) and whether it ended with a
/// newline (a last line without one was cut short, e.g. by a killed writer).
pub struct Line {
    /// The text.
    pub text: String,
    /// Whether a newline ended it.
    pub complete: bool,
}

/// Reads one line of at most [`MAX_LINE`] bytes; `None` at the end of the input.
///
/// # Errors
/// A read error, a line longer than the limit, or text that is not UTF-8.
pub fn read_line(
    input: &mut impl BufRead,
    file: &str,
    line: usize,
) -> Result<Option<Line>, DeepError> {
    let mut bytes = Vec::new();
    let mut limited = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1);
    limited
        .read_until(b'\n', &mut bytes)
        .map_err(|e| DeepError(format!("{file}: cannot read: {e}")))?;
    if bytes.is_empty() {
        return Ok(None);
    }
    let complete = bytes.last() == Some(&b'\n');
    if complete {
        bytes.pop();
    }
    if bytes.len() > MAX_LINE {
        return Err(DeepError::at(
            file,
            line,
            format!("longer than {MAX_LINE} bytes"),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| DeepError::at(file, line, "not UTF-8 text"))?;
    Ok(Some(Line { text, complete }))
}

/// A count in JSON: a number up to 2^53 (exact in every JSON reader), a decimal string above.
pub fn json_count(n: u128) -> serde_json::Value {
    if n <= 1 << 53 {
        serde_json::Value::from(n as u64)
    } else {
        serde_json::Value::from(n.to_string())
    }
}
