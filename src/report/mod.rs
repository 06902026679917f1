//! Renderers for check results: human text, JSON and JUnit XML.
//!
//! Each format is one module behind [`Renderer`]. A renderer writes to the `Write` it is given
//! and never decides where that goes: the binary chooses standard output or a file, and whether
//! colour is wanted. Streaming formats (human) write as each case finishes; document formats
//! (JSON, JUnit) write once at the end.

pub mod human;
pub mod json;
pub mod junit;

use crate::suite::{CheckResult, RunReport};
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
    /// Called once when every check has run.
    ///
    /// # Errors
    /// Writing failed.
    fn finish(&mut self, out: &mut dyn Write, report: &RunReport) -> io::Result<()>;
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
}

impl Format {
    /// Every format's name.
    pub const NAMES: &[&str] = &["human", "json", "junit"];

    /// Parses a format name.
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "human" => Some(Format::Human),
            "json" => Some(Format::Json),
            "junit" => Some(Format::Junit),
            _ => None,
        }
    }
}

/// The renderer for `format`; `colour` asks for ANSI colours where the format has any.
pub fn renderer(format: Format, colour: bool) -> Box<dyn Renderer> {
    match format {
        Format::Human => Box::new(human::Human { colour }),
        Format::Json => Box::new(json::Json),
        Format::Junit => Box::new(junit::Junit),
    }
}
