//! EPD lines with perft opcodes, the form perft suites have long been passed around in:
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;id "chess::chess::start" ;variant "chess" ;options "" ;game-end "rules" ;status "normal" ;source "public" ;hmvc 0 ;fmvn 1
//! ```
//!
//! The four EPD fields of the position after the case's moves, then `;`-led operations: the
//! counts first (`D<depth> <count>`, ascending), then the metadata as quoted strings, then the
//! two FEN counters as EPD's own `hmvc` and `fmvn`. Every operand that is not a number is quoted,
//! since EPD readers such as python-chess's parse a bare operand as a move.

use super::{CountedReading, Exported, counted_readings, one_line, split_fen};
use crate::suite::{PlannedCheck, Suite};
use std::fmt::Write as _;

/// The EPD export of `planned`: one line per reading with counts.
pub fn export(suites: &[Suite], planned: &[PlannedCheck]) -> Exported {
    let (readings, mut summary) = counted_readings(suites, planned);
    let mut text = String::new();
    for counted in &readings {
        text.push_str(&line(counted));
        text.push('\n');
    }
    summary.items = readings.len();
    Exported { text, summary }
}

/// One reading's EPD line, without the line break.
pub fn line(counted: &CountedReading<'_>) -> String {
    let reading = &counted.reading;
    let fen = reading.fen_after();
    let (mut line, clock, number) = split_fen(&fen);
    for (depth, count) in &counted.counts {
        let _ = write!(line, " ;D{depth} {count}");
    }
    let options: Vec<String> = reading
        .options()
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let source = reading.case.source.kind.name();
    for (opcode, operand) in [
        ("id", reading.id()),
        ("variant", reading.suite.variant.spec.id.to_string()),
        ("options", options.join(" ")),
        ("game-end", reading.game_end().to_string()),
        ("status", reading.status().to_string()),
        ("source", source.to_string()),
    ] {
        let _ = write!(line, " ;{opcode} {}", quoted(&operand));
    }
    for (opcode, counter) in [("hmvc", clock), ("fmvn", number)] {
        if let Some(value) = counter {
            let _ = write!(line, " ;{opcode} {value}");
        }
    }
    line
}

/// `text` as an EPD string operand: on one line, in double quotes, `\` and `"` escaped.
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in one_line(text).chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_operands_are_quoted_and_escaped() {
        assert_eq!(quoted("chess::a b"), r#""chess::a b""#);
        assert_eq!(quoted(r#"say "x" \ y"#), r#""say \"x\" \\ y""#);
        assert_eq!(quoted("two\nlines"), r#""two lines""#);
        assert_eq!(quoted(""), r#""""#);
    }
}
