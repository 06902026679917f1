//! JUnit XML, the report format CI systems display: one `<testsuite>` per suite file, one
//! `<testcase>` per check (`classname` = `<variant>::<file-stem>::<case-id>`, `name` = the check),
//! `<failure>` for failed checks and unexpected passes, `<skipped>` for skipped ones. Expected
//! failures pass, with the difference in `<system-out>`. Against an engine, a failure's
//! message names the finding its check was bisected to (the finding in full in its body), and
//! each `<testsuite>` lists its variant's likely rulings as `likely-ruling-N` properties.

use super::Renderer;
use super::human::{check_detail, finding_text};
use crate::findings::{Diagnosis, TOP_RULINGS};
use crate::suite::{CheckResult, RunReport, Status, Summary};
use std::io::{self, Write};

/// The JUnit renderer.
pub struct Junit;

pub use super::escape;

fn testcase(out: &mut dyn Write, r: &CheckResult, diagnosis: &Diagnosis) -> io::Result<()> {
    let classname = format!("{}::{}::{}", r.variant, r.suite, r.case);
    write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\" file=\"{}\" line=\"{}\"",
        escape(&classname),
        escape(&r.check),
        r.seconds,
        escape(&r.file.display().to_string()),
        r.line
    )?;
    match r.status {
        Status::Passed => writeln!(out, "/>"),
        Status::ExpectedFailure => {
            writeln!(out, ">")?;
            writeln!(
                out,
                "      <system-out>{}</system-out>",
                escape(&format!(
                    "expected failure (xfail): {}\n{}",
                    r.message,
                    check_detail(r, false, 0)
                ))
            )?;
            writeln!(out, "    </testcase>")
        }
        Status::Failed | Status::UnexpectedPass => {
            writeln!(out, ">")?;
            let kind = if r.status == Status::UnexpectedPass {
                "unexpected-pass"
            } else {
                "mismatch"
            };
            // The finding this check was bisected to, named in the message.
            let finding = diagnosis
                .findings
                .iter()
                .enumerate()
                .find(|(_, f)| f.cases.contains(&r.name));
            let (message, body) = match finding {
                Some((i, f)) => (
                    format!("{}; finding {}: {}", r.message, i + 1, f.headline()),
                    format!(
                        "{}\nfinding:\n{}",
                        check_detail(r, false, 0),
                        finding_text(i + 1, f)
                    ),
                ),
                None => (r.message.clone(), check_detail(r, false, 0)),
            };
            writeln!(
                out,
                "      <failure type=\"{kind}\" message=\"{}\">{}</failure>",
                escape(&message),
                escape(&body)
            )?;
            writeln!(out, "    </testcase>")
        }
        Status::Skipped => {
            writeln!(out, ">")?;
            writeln!(out, "      <skipped message=\"{}\"/>", escape(&r.message))?;
            writeln!(out, "    </testcase>")
        }
    }
}

impl Renderer for Junit {
    fn finish(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        diagnosis: &Diagnosis,
    ) -> io::Result<()> {
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        let s = report.summary;
        writeln!(
            out,
            "<testsuites name=\"cvperft check\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
            report.results.len(),
            s.failed,
            s.skipped,
            report.seconds
        )?;
        // Group by suite file, in run order.
        let mut groups: Vec<(String, Vec<&CheckResult>)> = Vec::new();
        for r in &report.results {
            let name = format!("{}::{}", r.variant, r.suite);
            match groups.iter_mut().find(|(n, _)| *n == name) {
                Some((_, list)) => list.push(r),
                None => groups.push((name, vec![r])),
            }
        }
        for (name, list) in groups {
            let counts = Summary::from_statuses(list.iter().map(|r| r.status));
            let time: f64 = list.iter().map(|r| r.seconds).sum();
            writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3}\">",
                escape(&name),
                list.len(),
                counts.failed,
                counts.skipped,
                time
            )?;
            let variant = list.first().map_or("", |r| r.variant.as_str());
            let likely: Vec<_> = diagnosis
                .likely_rulings
                .iter()
                .filter(|l| l.variant == variant)
                .take(TOP_RULINGS)
                .collect();
            if !likely.is_empty() {
                writeln!(out, "    <properties>")?;
                for (i, l) in likely.iter().enumerate() {
                    writeln!(
                        out,
                        "      <property name=\"likely-ruling-{}\" value=\"{}\"/>",
                        i + 1,
                        escape(&format!("{} ({}): {}", l.ruling, l.page, l.reason()))
                    )?;
                }
                writeln!(out, "    </properties>")?;
            }
            for r in list {
                testcase(out, r, diagnosis)?;
            }
            writeln!(out, "  </testsuite>")?;
        }
        writeln!(out, "</testsuites>")
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup_and_shows_forbidden_characters() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\u{1b}[31m"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\\u{1}\\u{1b}[31m"
        );
        // What XML 1.0 forbids is written as text: the document still parses.
        let doc = format!(
            "<a b=\"{}\">{}</a>",
            escape("\u{0}\u{8}\u{fffe}"),
            escape("\u{1f}x")
        );
        let parsed = roxmltree::Document::parse(&doc).expect("well-formed");
        assert_eq!(
            parsed.root_element().attribute("b"),
            Some("\\u{0}\\u{8}\\u{fffe}")
        );
        assert_eq!(parsed.root_element().text(), Some("\\u{1f}x"));
    }
}
