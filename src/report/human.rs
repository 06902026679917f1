//! Human-readable text: one line per case, details under a case for every check that did not
//! simply pass, and a closing `N passed, N failed, N skipped` line.

use super::Renderer;
use super::printable;
use crate::findings::{Diagnosis, Finding, FindingMove, TOP_RULINGS};
use crate::suite::result::{DiffTag, Mismatch};
use crate::suite::{CheckResult, RunReport, Status, Summary};
use std::io::{self, Write};

/// The human renderer.
pub struct Human {
    /// Use ANSI colours.
    pub colour: bool,
}

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

fn paint(colour: bool, code: &str, text: &str) -> String {
    if colour {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

fn status_colour(status: Status) -> &'static str {
    match status {
        Status::Passed => GREEN,
        Status::Failed | Status::UnexpectedPass => RED,
        Status::ExpectedFailure => CYAN,
        Status::Skipped => YELLOW,
    }
}

/// The label of a whole case: FAIL if any check failed, else XFAIL if any failed as expected,
/// else PASS if any passed, else SKIP.
pub fn case_status(results: &[CheckResult]) -> Status {
    let any = |s: Status| results.iter().any(|r| r.status == s);
    if any(Status::Failed) || any(Status::UnexpectedPass) {
        Status::Failed
    } else if any(Status::ExpectedFailure) {
        Status::ExpectedFailure
    } else if any(Status::Passed) {
        Status::Passed
    } else {
        Status::Skipped
    }
}

/// The lines explaining one check's result (without the check's own heading), indented by
/// `indent` spaces: expected and actual, the FEN, a divide diff, a command to reproduce.
pub fn check_detail(result: &CheckResult, colour: bool, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&pad);
        out.push_str(&text);
        out.push('\n');
    };
    if let Some(alt) = &result.alternative {
        line(format!(
            "reading {}: {}",
            alt.number,
            printable(&alt.reading)
        ));
    }
    match &result.mismatch {
        // Counts and outcomes are in the check's one-line message.
        Some(Mismatch::Count { .. } | Mismatch::Outcome { .. }) | None => {}
        Some(Mismatch::Divide { diff, .. }) => {
            line("--- expected".to_string());
            line("+++ actual".to_string());
            let equal = diff.iter().filter(|d| d.tag == DiffTag::Equal).count();
            for d in diff {
                match d.tag {
                    DiffTag::Equal => {}
                    DiffTag::Expected => {
                        line(paint(colour, RED, &format!("-{}", printable(&d.text))))
                    }
                    DiffTag::Actual => {
                        line(paint(colour, GREEN, &format!("+{}", printable(&d.text))))
                    }
                }
            }
            if equal > 0 {
                line(format!("({} equal)", count(equal, "line")));
            }
        }
        Some(Mismatch::DivideMoves {
            not_listed,
            not_legal,
        }) => {
            if !not_listed.is_empty() {
                line(format!(
                    "legal, not listed: {}",
                    printable(&not_listed.join(" "))
                ));
            }
            if !not_legal.is_empty() {
                line(format!(
                    "listed, not legal: {}",
                    printable(&not_legal.join(" "))
                ));
            }
        }
        Some(Mismatch::NotLegal { moves, legal_moves }) => {
            line(format!("not legal: {}", printable(&moves.join(" "))));
            line(format!(
                "legal moves: {}",
                printable(&legal_moves.join(" "))
            ));
        }
        Some(Mismatch::NotIllegal { moves }) => {
            line(format!("legal after all: {}", printable(&moves.join(" "))));
        }
        Some(Mismatch::Error { message }) => line(format!("error: {}", printable(message))),
    }
    line(format!("fen: {}", printable(&result.fen)));
    if let Some(cmd) = &result.reproduce {
        line(format!("reproduce: {}", printable(cmd)));
    }
    let file = result.file.display().to_string();
    // A line break in the path is `\n`, as in messages (`printable` alone wrote `\u{a}`).
    line(format!("at: {}:{}", super::one_line(&file), result.line));
    out
}

fn moves_text(moves: &[FindingMove]) -> String {
    if moves.is_empty() {
        return "-".to_string();
    }
    let words: Vec<String> = moves
        .iter()
        .map(|m| {
            if m.rulings.is_empty() {
                format!("{} ({})", m.text, m.kind)
            } else {
                format!("{} ({}, {})", m.text, m.kind, m.rulings.join(", "))
            }
        })
        .collect();
    words.join(", ")
}

/// The lines of one finding (numbered `n`).
pub fn finding_text(n: usize, f: &Finding) -> String {
    let mut out = format!(
        "  {n}. {}
",
        f.headline()
    );
    let mut line = |label: &str, text: String| {
        out.push_str(&format!(
            "       {label:<10} {text}
"
        ));
    };
    line("path:", f.path_text());
    line(
        "fen:",
        f.fen
            .clone()
            .unwrap_or_else(|| "(our reference cannot follow this path)".into()),
    );
    line("depth:", f.depth.to_string());
    line("missing:", moves_text(&f.missing));
    line("extra:", moves_text(&f.extra));
    for c in &f.counts {
        line(
            "count:",
            format!(
                "{} {} (reference) vs {} (engine)",
                c.text, c.reference, c.engine
            ),
        );
    }
    line("from:", f.sources().join(", "));
    if let Some(cmd) = &f.reproduce {
        line("reproduce:", cmd.clone());
    }
    out
}

/// The findings, the likely rulings and the per-ruling table, as text (empty when there is
/// nothing to say).
pub fn diagnosis_text(d: &Diagnosis) -> String {
    let mut out = String::new();
    if !d.findings.is_empty() {
        out.push_str(&format!(
            "\nfindings ({}: the first positions where the engine and the reference differ):\n",
            d.findings.len()
        ));
        for (i, f) in d.findings.iter().enumerate() {
            out.push_str(&finding_text(i + 1, f));
        }
    }
    if !d.not_bisected.is_empty() {
        out.push_str(&format!("\nnot bisected ({}):\n", d.not_bisected.len()));
        for n in &d.not_bisected {
            out.push_str(&format!("    {}: {}\n", n.check, n.reason));
        }
    }
    if !d.likely_rulings.is_empty() {
        out.push_str("\nlikely rulings:\n");
        for (i, r) in d.likely_rulings.iter().take(TOP_RULINGS).enumerate() {
            out.push_str(&format!(
                "  {}. {} ({}): {}\n       {}\n",
                i + 1,
                r.ruling,
                r.variant,
                r.reason(),
                r.page
            ));
        }
    }
    let rows: Vec<_> = d
        .rulings
        .iter()
        .filter(|r| r.run > 0 || !r.finding_depths.is_empty())
        .collect();
    if !rows.is_empty() {
        let vw = rows
            .iter()
            .map(|r| r.variant.len())
            .max()
            .unwrap_or(0)
            .max(7);
        let rw = rows
            .iter()
            .map(|r| r.ruling.len())
            .max()
            .unwrap_or(0)
            .max(6);
        out.push_str("\nrulings (cases citing each):\n");
        out.push_str(&format!(
            "  {:<vw$}  {:<rw$}  {:>5}  {:>6}  {:>6}  finding depths\n",
            "variant", "ruling", "run", "passed", "failed"
        ));
        for r in rows {
            let depths: Vec<String> = r.finding_depths.iter().map(u32::to_string).collect();
            let depths = if depths.is_empty() {
                "-".to_string()
            } else {
                depths.join(" ")
            };
            out.push_str(&format!(
                "  {:<vw$}  {:<rw$}  {:>5}  {:>6}  {:>6}  {depths}\n",
                r.variant, r.ruling, r.run, r.passed, r.failed
            ));
        }
    }
    out
}

/// `1 check`, `2 checks`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `variant::suite::case`, as it may be shown on a terminal ([`printable`]: a suite's file name
/// may hold anything).
fn case_name(r: &CheckResult) -> String {
    printable(&format!("{}::{}::{}", r.variant, r.suite, r.case)).into_owned()
}

impl Human {
    fn write_case(&self, out: &mut dyn Write, results: &[CheckResult]) -> io::Result<()> {
        let Some(first) = results.first() else {
            return Ok(());
        };
        let status = case_status(results);
        let counts = Summary::of(results);
        let label = paint(
            self.colour,
            status_colour(status),
            &format!("{:<5}", status.label()),
        );
        let all_skipped_alike = results.iter().all(|r| r.status == Status::Skipped)
            && results.iter().all(|r| r.message == first.message);
        let detail = if all_skipped_alike {
            first.message.clone()
        } else if counts.passed == results.len() {
            let xfail = results
                .iter()
                .filter(|r| r.status == Status::ExpectedFailure)
                .count();
            if xfail > 0 {
                format!(
                    "{}, {xfail} failed as expected",
                    count(results.len(), "check")
                )
            } else {
                count(results.len(), "check")
            }
        } else {
            counts.line()
        };
        writeln!(out, "{label} {} ({})", case_name(first), printable(&detail))?;
        if all_skipped_alike {
            return Ok(());
        }
        for r in results {
            let show = r.status != Status::Passed || r.alternative.is_some();
            if !show {
                continue;
            }
            let label = paint(self.colour, status_colour(r.status), r.status.label());
            writeln!(
                out,
                "      {} {label}: {}",
                printable(&r.check),
                printable(&r.message)
            )?;
            if matches!(
                r.status,
                Status::Failed | Status::UnexpectedPass | Status::ExpectedFailure
            ) {
                out.write_all(check_detail(r, self.colour, 8).as_bytes())?;
            } else if let Some(alt) = &r.alternative {
                writeln!(
                    out,
                    "        reading {}: {}",
                    alt.number,
                    printable(&alt.reading)
                )?;
            }
        }
        Ok(())
    }
}

impl Renderer for Human {
    fn case(&mut self, out: &mut dyn Write, results: &[CheckResult]) -> io::Result<()> {
        self.write_case(out, results)
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        diagnosis: &Diagnosis,
    ) -> io::Result<()> {
        if report.summary.failed > 0 {
            out.write_all(diagnosis_text(diagnosis).as_bytes())?;
        }
        let failed: Vec<&CheckResult> = report
            .results
            .iter()
            .filter(|r| matches!(r.status, Status::Failed | Status::UnexpectedPass))
            .collect();
        if !failed.is_empty() {
            writeln!(out)?;
            writeln!(out, "failed checks:")?;
            for r in failed {
                writeln!(out, "    {}", printable(&r.name))?;
            }
        }
        writeln!(out)?;
        writeln!(
            out,
            "{} from {} against the {} generator in {:.2} s",
            count(report.results.len(), "check"),
            count(report.suites.len(), "suite"),
            report.generator,
            report.seconds
        )?;
        writeln!(out, "{}", report.summary.line())?;
        Ok(())
    }
}
