//! Renderers for check results: human text, JSON, JUnit XML and a self-contained HTML page;
//! and the pieces other reports share (divide tables, ruling summaries).
//!
//! Each format is one module behind [`Renderer`]. A renderer writes to the `Write` it is given
//! and never decides where that goes: the binary chooses standard output or a file, and whether
//! colour is wanted. Streaming formats (human) write as each case finishes; document formats
//! (JSON, JUnit) write once at the end.

pub mod digest;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod rulings;
pub mod table;

use crate::findings::Diagnosis;
use crate::suite::{CheckResult, RunReport, Suite};
use std::io::{self, Write};

/// One output format.
pub trait Renderer {
    /// Called with the results of each finished case, in run order.
    ///
    /// # Errors
    /// Writing failed.
    fn case(&mut self, _out: &mut dyn Write, _results: &[CheckResult]) -> io::Result<()> {
        Ok(())
    }
    /// Called once when every check has run, with what the run says about where an engine's
    /// bugs are (findings, likely rulings, the per-ruling table).
    ///
    /// # Errors
    /// Writing failed.
    fn finish(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        diagnosis: &Diagnosis,
    ) -> io::Result<()>;
}

/// Escapes text for XML (and HTML) attributes and content, dropping characters XML 1.0
/// forbids.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// The output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Per-case lines and a summary.
    Human,
    /// One JSON document.
    Json,
    /// JUnit XML for CI systems.
    Junit,
    /// One self-contained HTML page with boards.
    Html,
}

impl Format {
    /// Every format's name.
    pub const NAMES: &[&str] = &["human", "json", "junit", "html"];

    /// Parses a format name.
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "human" => Some(Format::Human),
            "json" => Some(Format::Json),
            "junit" => Some(Format::Junit),
            "html" => Some(Format::Html),
            _ => None,
        }
    }
}

/// The renderer for `format`; `colour` asks for ANSI colours where the format has any; the
/// HTML report reads the `suites` for the rulings each case cites.
pub fn renderer(format: Format, colour: bool, suites: &[Suite]) -> Box<dyn Renderer> {
    match format {
        Format::Human => Box::new(human::Human { colour }),
        Format::Json => Box::new(json::Json),
        Format::Junit => Box::new(junit::Junit),
        Format::Html => Box::new(html::Html::new(suites)),
    }
}
