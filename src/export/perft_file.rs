//! python-chess's `.perft` files (`examples/perft/*.perft` there; shakmaty, scalachess and
//! dartchess read the same files): blocks of
//!
//! ```text
//! id chess::chess::start
//! epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -
//! perft 1 20
//! perft 2 400
//! ```
//!
//! Readers of these files parse the `epd` value as a bare position (shakmaty reads it as a FEN,
//! python-chess through `set_epd`), so it holds the four EPD fields and nothing else; the FEN
//! counters are left out (perft ignores them, RULES.md GE-1). What the format has no line for
//! (variant, options, game end, status, source) goes in `#` comments before each block, which
//! every reader skips.

use super::{CountedReading, Exported, Reading, counted_readings, one_line, split_fen};
use crate::suite::model::SourceKind;
use crate::suite::{PlannedCheck, Suite};
use std::fmt::Write as _;

/// The `.perft` export of `planned`: a header, then one block per reading with counts.
pub fn export(suites: &[Suite], planned: &[PlannedCheck]) -> Exported {
    let (readings, mut summary) = counted_readings(suites, planned);
    let mut files: Vec<String> = Vec::new();
    for counted in &readings {
        let file = counted.reading.suite.path.display().to_string();
        if !files.contains(&file) {
            files.push(file);
        }
    }
    let mut text = String::from(
        "# Perft positions exported by `cvperft export --format perft` (docs/export.md).\n",
    );
    let _ = writeln!(text, "# Suites: {}.", one_line(&files.join(", ")));
    text.push_str(
        "# Before each block: its variant, options, game-end (RULES.md GE-1), status and source.\n",
    );
    for counted in &readings {
        text.push('\n');
        text.push_str(&block(counted));
    }
    summary.items = readings.len();
    Exported { text, summary }
}

/// One reading's block: comment lines, `id`, `epd` and one `perft` line per depth.
pub fn block(counted: &CountedReading<'_>) -> String {
    let reading = &counted.reading;
    let options: Vec<String> = reading
        .options()
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let options = if options.is_empty() {
        "-".to_string()
    } else {
        options.join(" ")
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# variant {}; options {options}; game-end {}; status {}",
        reading.suite.variant.spec.id,
        reading.game_end(),
        reading.status()
    );
    if let Some((_, alt)) = reading.alternative {
        let _ = writeln!(text, "# reading: {}", one_line(&alt.reading));
    }
    if let Some(reason) = reading.reason() {
        let _ = writeln!(text, "# reason: {}", one_line(reason));
    }
    let _ = writeln!(text, "# source {}", source_text(reading));
    let (epd, _, _) = split_fen(&reading.fen_after());
    let _ = writeln!(text, "id {}", one_line(&reading.id()));
    let _ = writeln!(text, "epd {epd}");
    for (depth, count) in &counted.counts {
        let _ = writeln!(text, "perft {depth} {count}");
    }
    text
}

/// `kind: what the suite says about it`, on one line.
fn source_text(reading: &Reading<'_>) -> String {
    let source = &reading.case.source;
    let field = |value: &Option<String>| one_line(value.as_deref().unwrap_or(""));
    let detail = match source.kind {
        SourceKind::Public => field(&source.citation),
        SourceKind::Hand => format!(
            "derived by hand in {}, case {}",
            one_line(&reading.suite.path.display().to_string()),
            reading.case.id
        ),
        SourceKind::FairyStockfish => field(&source.command),
        SourceKind::Reference => format!(
            "{}; cross-check: {}",
            field(&source.command),
            field(&source.cross_check)
        ),
    };
    format!("{}: {detail}", source.kind.name())
}
