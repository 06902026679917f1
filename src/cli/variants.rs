//! `cvperft variants`: every variant with its board size, start position and rule options.

use anyhow::Result;
use cvperft::variant::Rules;
use cvperft::variants;
use std::io::Write;

/// Runs `cvperft variants`.
///
/// # Errors
/// Writing failed.
pub fn run(out: &mut impl Write) -> Result<()> {
    for v in variants::all() {
        let s = &v.spec;
        writeln!(out, "{} ({}x{}) {}", s.id, s.files, s.ranks, s.name)?;
        let rules = Rules::new(v);
        writeln!(out, "  start: {}", rules.start_fen())?;
        for o in &s.options {
            writeln!(
                out,
                "  option {} = {} (default {}; {}) {}",
                o.name,
                o.values.join(" | "),
                o.values[0],
                o.ruling,
                o.help
            )?;
        }
        writeln!(
            out,
            "  option game-end = rules | movegen (default rules; GE-1)"
        )?;
    }
    Ok(())
}
