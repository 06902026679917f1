//! One JSON document per run: the generator, the suites, every check result and the summary.
//!
//! The shape is [`RunReport`] and the run's [`Diagnosis`] (findings, likely rulings, the
//! per-ruling table) serialised with serde, wrapped with a format name and version so readers
//! can tell what they hold; `docs/report.schema.json` documents every field.

use super::Renderer;
use crate::findings::Diagnosis;
use crate::suite::RunReport;
use serde::Serialize;
use std::io::{self, Write};

/// Version of the JSON report's shape; bumped on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// The JSON renderer.
pub struct Json;

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    report: &'a RunReport,
    #[serde(flatten)]
    diagnosis: &'a Diagnosis,
}

impl Renderer for Json {
    fn finish(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        diagnosis: &Diagnosis,
    ) -> io::Result<()> {
        let doc = Document {
            format: "cvperft-check",
            version: JSON_VERSION,
            report,
            diagnosis,
        };
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
        writeln!(out)
    }
}
