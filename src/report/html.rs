//! HTML reports a person opens from a CI artifact: `check --format html` and `diff --format
//! html`.
//!
//! Each report is one self-contained file: boards are inline SVG ([`crate::diagram::svg`]), the
//! style sheet and the one script are inline, and the page's content security policy
//! (`default-src 'none'`) allows those two by their SHA-256 hashes and nothing else, so the
//! page loads nothing from anywhere and any attempt shows up as a console error. Without
//! JavaScript everything is still shown; the script only filters the table of passed and
//! skipped cases and copies reproduce commands.
//!
//! A check report has a summary, one section per failing case (its board with the missing and
//! extra moves drawn, expected and actual counts, the divide comparison as a table, the summary
//! of every ruling the case cites with its `docs/rules/` page, the command that reproduces each
//! check with a copy button), then the passed and skipped cases in one compact, filterable
//! table. Apart from its timing line the page is byte-identical for the same results.
//!
//! [`finding_figure`] draws one disagreement (the position two generators first differ on, the
//! path that leads there, the missing and extra moves) for any report that has one.

use super::Renderer;
use super::digest::csp_hash;
use super::human::{case_status, count as count_words};
use super::rulings::ruling;
use super::table::{DivideTable, comparison_summary};
use crate::diagram::svg::{SvgOptions, escape, finding, render};
use crate::diagram::{Board, MarkKind, Overlay};
use crate::engine::bisect::{Bisection, Stop};
use crate::findings::{Diagnosis, Finding, FindingMove, TOP_RULINGS};
use crate::suite::result::Mismatch;
use crate::suite::{CheckResult, RunReport, Status, Suite, Summary};
use crate::variants;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; padding: 0 1.5rem 2rem;
  color: #1b1b1b; background: #f4f3ef; line-height: 1.4; }
header { padding: 1rem 0 0.5rem; border-bottom: 2px solid #d8d3c4; margin-bottom: 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.4rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.6rem; }
h3 { font-size: 1.05rem; margin: 0 0 0.3rem; overflow-wrap: anywhere; }
h4 { font-size: 0.95rem; margin: 0.8rem 0 0.3rem; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem;
  background: #ebe7dc; padding: 0 0.2rem; border-radius: 3px; overflow-wrap: anywhere; }
.summary { font-size: 1.1rem; margin: 0.3rem 0; }
.summary span { margin-right: 1rem; font-weight: bold; }
.fail, .status-fail { color: #b3261e; }
.pass, .status-pass { color: #2e7d32; }
.skip, .status-skip { color: #8a6d00; }
.status-xfail { color: #00696f; }
.muted { color: #5f5a4f; font-size: 0.9rem; }
article.case { background: #fff; border: 1px solid #d8d3c4; border-left: 6px solid #b3261e;
  border-radius: 6px; padding: 0.8rem 1rem; margin: 0 0 1.2rem; }
.case-body { display: flex; flex-wrap: wrap; gap: 1.2rem; align-items: flex-start; }
figure { margin: 0; min-width: 0; max-width: 100%; }
svg.board { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: #5f5a4f; max-width: 34rem; margin-top: 0.3rem;
  overflow-wrap: anywhere; }
.details { flex: 1 1 26rem; min-width: min(20rem, 100%); }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.3rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #d8d3c4; padding: 0.15rem 0.6rem; }
th { background: #efebe1; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.missing td { background: #e3eefc; }
tr.extra td { background: #fbe4e2; }
tr.total td { font-weight: bold; }
.reproduce { display: flex; gap: 0.5rem; align-items: flex-start; margin: 0.4rem 0; }
.reproduce code { flex: 1; min-width: 0; padding: 0.3rem; }
button { font: inherit; font-size: 0.85rem; padding: 0.15rem 0.7rem; cursor: pointer; }
dl.rulings dt { font-weight: bold; margin-top: 0.5rem; }
dl.rulings dd { margin: 0.1rem 0 0 1rem; font-size: 0.9rem; }
.path { color: #5f5a4f; font-size: 0.85rem; }
.filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: 0.5rem 0; }
.filters input[type=search] { font: inherit; padding: 0.2rem 0.4rem;
  min-width: min(18rem, 100%); }
#others table { width: 100%; background: #fff; }
#others td:nth-child(2) { overflow-wrap: anywhere; }
.boards { display: flex; flex-wrap: wrap; gap: 1.5rem; }
ul.checks { padding-left: 1.2rem; margin: 0.3rem 0; font-size: 0.9rem; }
article.finding { background: #fff; border: 1px solid #d8d3c4; border-left: 6px solid #1f5fbf;
  border-radius: 6px; padding: 0.8rem 1rem; margin: 0 0 1.2rem; }
ol.likely li { margin: 0.3rem 0; }
tr.fail td { color: #b3261e; }
"#;

const SCRIPT: &str = r#"
(function () {
  'use strict';
  var bar = document.getElementById('filters');
  var input = document.getElementById('filter');
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[data-status-filter]'));
  var rows = Array.prototype.slice.call(document.querySelectorAll('#others tbody tr'));
  var shown = document.getElementById('shown');
  function apply() {
    var text = input ? input.value.trim().toLowerCase() : '';
    var allowed = {};
    boxes.forEach(function (b) { allowed[b.getAttribute('data-status-filter')] = b.checked; });
    var n = 0;
    rows.forEach(function (row) {
      var ok = allowed[row.getAttribute('data-status')] !== false &&
        row.getAttribute('data-name').toLowerCase().indexOf(text) >= 0;
      row.hidden = !ok;
      if (ok) { n += 1; }
    });
    if (shown) { shown.textContent = n + ' of ' + rows.length + ' cases shown'; }
  }
  if (bar) { bar.hidden = false; }
  if (input) { input.addEventListener('input', apply); }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  apply();
  Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = button.getAttribute('data-copy');
      function said(ok) {
        button.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C';
        window.setTimeout(function () { button.textContent = 'Copy'; }, 2000);
      }
      function select() {
        var code = button.parentNode.querySelector('code');
        var range = document.createRange();
        range.selectNodeContents(code);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        var ok = false;
        try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        said(ok);
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { said(true); }, select);
      } else {
        select();
      }
    });
  });
}());
"#;

/// Wraps a body into a whole page with the inline style sheet and script, allowed by hash.
fn page(title: &str, body: &str) -> String {
    let policy = format!(
        "default-src 'none'; style-src {}; script-src {}; base-uri 'none'; form-action 'none'",
        csp_hash(STYLE),
        csp_hash(SCRIPT)
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&policy),
        escape(title)
    )
}

/// Markdown-lite for ruling summaries: text escaped, `code` spans and `**bold**` kept.
fn inline_markdown(text: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    let mut bold = false;
    let mut em = false;
    let mut prev = ' ';
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // `*word*` is emphasis; a `*` between spaces or inside a word (`3*3`) is itself.
        let opens = !em
            && !prev.is_alphanumeric()
            && rest[c.len_utf8()..].starts_with(|n: char| n.is_alphanumeric());
        let closes = em && !prev.is_whitespace();
        if c == '`' {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
            rest = &rest[1..];
        } else if !code && rest.starts_with("**") {
            out.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
            rest = &rest[2..];
        } else if !code && c == '*' && (opens || closes) {
            out.push_str(if em { "</em>" } else { "<em>" });
            em = !em;
            rest = &rest[1..];
        } else {
            out.push_str(&escape(&c.to_string()));
            rest = &rest[c.len_utf8()..];
        }
        prev = c;
    }
    if code {
        out.push_str("</code>");
    }
    if bold {
        out.push_str("</strong>");
    }
    if em {
        out.push_str("</em>");
    }
    out
}

/// A command in a code box with a copy button (the button appears only when the script runs).
fn reproduce_block(command: &str) -> String {
    format!(
        "<div class=\"reproduce\"><code>{}</code><button type=\"button\" class=\"copy\" data-copy=\"{}\" hidden>Copy</button></div>",
        escape(command),
        escape(command)
    )
}

/// A divide comparison as an HTML table.
pub fn divide_table_html(table: &DivideTable) -> String {
    let mut out = String::from("<div class=\"scroll\"><table class=\"divide\">");
    let _ = write!(
        out,
        "<thead><tr><th>move</th><th>{}</th><th>{}</th><th>difference</th></tr></thead><tbody>",
        table.left_name, table.right_name
    );
    let count = |c: Option<u64>| c.map_or_else(|| "&ndash;".to_string(), |n| n.to_string());
    for row in &table.rows {
        let class = match (row.left, row.right) {
            (Some(_), None) => " class=\"missing\"",
            (None, Some(_)) => " class=\"extra\"",
            _ => "",
        };
        let _ = write!(
            out,
            "<tr{class} data-move=\"{}\"><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&row.text),
            escape(&row.text),
            count(row.left),
            count(row.right),
            row.difference()
        );
    }
    if table.same > 0 {
        let _ = write!(
            out,
            "<tr class=\"same\"><td colspan=\"4\" class=\"muted\">{} more move{} with the same count</td></tr>",
            table.same,
            if table.same == 1 { "" } else { "s" }
        );
    }
    let _ = write!(
        out,
        "<tr class=\"total\"><td>total</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr></tbody></table></div>",
        table.left_total,
        table.right_total,
        table.total_difference()
    );
    out
}

/// The figure of one finding: its board with the numbered path, its last move highlighted, the
/// missing moves (blue) and the extra ones (red, dashed), and a caption. `None` when the FEN
/// cannot be read for the variant.
pub fn finding_figure(
    variant: &str,
    fen: &str,
    path: &[String],
    missing: &[String],
    extra: &[String],
    caption: &str,
) -> Option<String> {
    let board = Board::from_fen(variants::get(variant)?, fen).ok()?;
    Some(format!(
        "<figure class=\"finding\">{}<figcaption>{}</figcaption></figure>",
        finding(&board, path, missing, extra),
        escape(caption)
    ))
}

/// The caption of a finding's board: the moves played to reach it and its FEN, or, when no
/// move was played, what the position is (`start`, e.g. "The check's position").
fn position_caption(path: &[String], fen: &str, start: &str) -> String {
    if path.is_empty() {
        format!("{start}: {fen}")
    } else {
        format!("After {}: {fen}", path.join(" "))
    }
}

/// Most failing cases a check report draws with their board. A board is about 20 kB of SVG,
/// nine tenths of a failing case's section: 3,000 failing cases made a page of 68 MB, which a
/// browser opens slowly if at all. Past this many, a case keeps its whole section (checks,
/// counts, divide tables, command) with its FEN in place of the board.
pub const MAX_CASE_BOARDS: usize = 100;

/// The HTML check report: collects every result, writes the page at the end.
pub struct Html {
    /// Ruling ids cited, by (suite file, case id).
    rules: BTreeMap<(PathBuf, String), Vec<String>>,
}

impl Html {
    /// A report for runs over `suites` (read for the rulings each case cites).
    pub fn new(suites: &[Suite]) -> Html {
        let mut rules = BTreeMap::new();
        for suite in suites {
            for case in &suite.cases {
                rules.insert((suite.path.clone(), case.id.clone()), case.rules.clone());
            }
        }
        Html { rules }
    }
}

impl Renderer for Html {
    fn finish(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        diagnosis: &Diagnosis,
    ) -> io::Result<()> {
        out.write_all(check_page(report, &self.rules, diagnosis).as_bytes())
    }
}

fn case_name(r: &CheckResult) -> String {
    format!("{}::{}::{}", r.variant, r.suite, r.case)
}

fn status_class(status: Status) -> &'static str {
    match status {
        Status::Passed => "pass",
        Status::Failed | Status::UnexpectedPass => "fail",
        Status::ExpectedFailure => "xfail",
        Status::Skipped => "skip",
    }
}

/// Consecutive results of the same case, in run order.
fn group_by_case(results: &[CheckResult]) -> Vec<&[CheckResult]> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=results.len() {
        let boundary = i == results.len()
            || (&results[i].file, &results[i].case) != (&results[start].file, &results[start].case);
        if boundary && start < results.len() {
            groups.push(&results[start..i]);
            start = i;
        }
    }
    groups
}

/// The whole check report page.
fn check_page(
    report: &RunReport,
    rules: &BTreeMap<(PathBuf, String), Vec<String>>,
    diagnosis: &Diagnosis,
) -> String {
    let groups = group_by_case(&report.results);
    let failing: Vec<&[CheckResult]> = groups
        .iter()
        .copied()
        .filter(|g| case_status(g) == Status::Failed)
        .collect();
    let others: Vec<&[CheckResult]> = groups
        .iter()
        .copied()
        .filter(|g| case_status(g) != Status::Failed)
        .collect();
    let s = report.summary;
    let mut body = String::new();
    body.push_str("<header>\n<h1>cvperft check</h1>\n");
    let _ = writeln!(
        body,
        "<p class=\"summary\"><span class=\"fail\">{} failed</span><span class=\"pass\">{} passed</span><span class=\"skip\">{} skipped</span></p>",
        s.failed, s.passed, s.skipped
    );
    let _ = writeln!(
        body,
        "<p>{} from {} against the <strong>{}</strong> generator: {} failing, {} passed or skipped.</p>",
        count_words(report.results.len(), "check"),
        count_words(report.suites.len(), "suite"),
        escape(&report.generator),
        count_words(failing.len(), "case"),
        others.len()
    );
    body.push_str("<details><summary>Suites</summary><ul>");
    for suite in &report.suites {
        let _ = write!(
            body,
            "<li><code>{}</code> ({}, game-end {}): {}</li>",
            escape(&suite.file.display().to_string()),
            escape(&suite.variant),
            escape(&suite.game_end),
            escape(&suite.description)
        );
    }
    body.push_str("</ul></details>\n");
    // The one line that differs between two runs of the same checks.
    let _ = writeln!(
        body,
        "<p class=\"timing muted\">Ran in {:.2} s.</p>",
        report.seconds
    );
    body.push_str("</header>\n");
    body.push_str(&diagnosis_sections(diagnosis, s.failed > 0));
    let _ = writeln!(
        body,
        "<section id=\"failures\">\n<h2>Failing cases ({})</h2>",
        failing.len()
    );
    if failing.is_empty() {
        body.push_str("<p class=\"pass\">No check failed.</p>\n");
    }
    if failing.len() > MAX_CASE_BOARDS {
        let _ = writeln!(
            body,
            "<p class=\"muted boards-cut\">The boards of the first {MAX_CASE_BOARDS} failing cases are drawn; the other {} show their FEN.</p>",
            failing.len() - MAX_CASE_BOARDS
        );
    }
    for (i, group) in failing.iter().enumerate() {
        body.push_str(&failing_case(group, rules, diagnosis, i < MAX_CASE_BOARDS));
    }
    body.push_str("</section>\n");
    body.push_str(&others_table(&others));
    let title = format!(
        "cvperft check: {} failed, {} passed, {} skipped",
        s.failed, s.passed, s.skipped
    );
    page(&title, &body)
}

fn finding_moves_html(moves: &[FindingMove]) -> String {
    if moves.is_empty() {
        return "&ndash;".to_string();
    }
    let items: Vec<String> = moves
        .iter()
        .map(|m| {
            let ruling = if m.rulings.is_empty() {
                String::new()
            } else {
                format!(", {}", escape(&m.rulings.join(", ")))
            };
            format!(
                "<code>{}</code> ({}{ruling})",
                escape(&m.text),
                escape(&m.kind)
            )
        })
        .collect();
    items.join(", ")
}

/// One finding: its board (path numbered, missing and extra moves drawn), where it is, the
/// moves with their kinds and rulings, the checks that led to it, the command that shows it.
fn finding_article(n: usize, f: &Finding) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<article class=\"finding\" id=\"finding-{n}\" data-variant=\"{}\">\n<h3>Finding {n}: {}</h3>",
        escape(&f.variant),
        escape(&f.headline())
    );
    out.push_str("<div class=\"case-body\">\n");
    let texts = |m: &[FindingMove]| -> Vec<String> { m.iter().map(|m| m.text.clone()).collect() };
    let path_text = f.path_text();
    let figure = f.fen.as_deref().and_then(|fen| {
        finding_figure(
            &f.variant,
            fen,
            &f.path,
            &texts(&f.missing),
            &texts(&f.extra),
            &position_caption(&f.path, fen, "The check's position"),
        )
    });
    match figure {
        Some(figure) => out.push_str(&figure),
        None => out.push_str("<p class=\"muted\">Our reference cannot follow the path, so the position is not drawn.</p>"),
    }
    out.push_str(
        "<div class=\"details\">\n<div class=\"scroll\"><table class=\"finding-facts\"><tbody>\n",
    );
    let mut row = |label: &str, html: String| {
        let _ = writeln!(out, "<tr><th>{label}</th><td>{html}</td></tr>");
    };
    row("Path", escape(&path_text));
    row(
        "FEN",
        f.fen.as_deref().map_or("&ndash;".to_string(), |fen| {
            format!("<code>{}</code>", escape(fen))
        }),
    );
    row("Depth", f.depth.to_string());
    row("Missing", finding_moves_html(&f.missing));
    row("Extra", finding_moves_html(&f.extra));
    for c in &f.counts {
        row(
            "Count",
            format!(
                "<code>{}</code> {} (reference) vs {} (engine)",
                escape(&c.text),
                c.reference,
                c.engine
            ),
        );
    }
    let sources: Vec<String> = f.sources().iter().map(|c| escape(c)).collect();
    row("From", sources.join("<br>"));
    out.push_str("</tbody></table></div>\n");
    if let Some(cmd) = &f.reproduce {
        out.push_str(&reproduce_block(cmd));
    }
    out.push_str("</div>\n</div>\n</article>\n");
    out
}

/// The likely rulings, the per-ruling table and the findings of a run.
fn diagnosis_sections(d: &Diagnosis, any_failed: bool) -> String {
    let mut out = String::new();
    if !d.likely_rulings.is_empty() {
        out.push_str(
            "<section id=\"likely-rulings\">\n<h2>Likely rulings</h2>\n<ol class=\"likely\">\n",
        );
        for l in d.likely_rulings.iter().take(TOP_RULINGS) {
            let summary = ruling(&l.variant, &l.ruling)
                .map(|r| {
                    format!(
                        "<br><span class=\"muted\">{}</span>",
                        inline_markdown(&r.summary)
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<li><strong>{}</strong> ({}) <code>{}</code>: {}{summary}</li>",
                escape(&l.title),
                escape(&l.variant),
                escape(&l.page),
                escape(&l.reason())
            );
        }
        out.push_str("</ol>\n</section>\n");
    }
    let rows: Vec<_> = d
        .rulings
        .iter()
        .filter(|r| r.run > 0 || !r.finding_depths.is_empty())
        .collect();
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "<section id=\"ruling-table\">\n<details{}><summary>Rulings: cases run, passed and failed ({} rows)</summary>\n<div class=\"scroll\"><table>\n<thead><tr><th>Variant</th><th>Ruling</th><th>Run</th><th>Passed</th><th>Failed</th><th>Finding depths</th></tr></thead>\n<tbody>",
            if any_failed { " open" } else { "" },
            rows.len()
        );
        for r in rows {
            let depths: Vec<String> = r.finding_depths.iter().map(u32::to_string).collect();
            let class = if r.failed > 0 { " class=\"fail\"" } else { "" };
            let _ = writeln!(
                out,
                "<tr{class}><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                escape(&r.variant),
                escape(&r.ruling),
                r.run,
                r.passed,
                r.failed,
                if depths.is_empty() {
                    "&ndash;".to_string()
                } else {
                    depths.join(" ")
                }
            );
        }
        out.push_str("</tbody>\n</table></div>\n</details>\n</section>\n");
    }
    if !d.findings.is_empty() || !d.not_bisected.is_empty() {
        let _ = writeln!(
            out,
            "<section id=\"findings\">\n<h2>Findings ({})</h2>\n<p class=\"muted\">The first positions where the engine and the reference differ, found by bisecting each failing perft and divide check.</p>",
            d.findings.len()
        );
        for (i, f) in d.findings.iter().enumerate() {
            out.push_str(&finding_article(i + 1, f));
        }
        if !d.not_bisected.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>Not bisected ({})</summary><ul class=\"checks\">",
                d.not_bisected.len()
            );
            for n in &d.not_bisected {
                let _ = writeln!(
                    out,
                    "<li><code>{}</code>: {}</li>",
                    escape(&n.check),
                    escape(&n.reason)
                );
            }
            out.push_str("</ul></details>\n");
        }
        out.push_str("</section>\n");
    }
    out
}

/// The moves a case's failing checks say the generator lacks and has too many.
fn case_marks(group: &[CheckResult]) -> Overlay {
    let mut overlay = Overlay::default();
    let add = |moves: Vec<String>, kind: MarkKind, overlay: &mut Overlay| {
        for mv in moves {
            if !overlay.texts(kind).contains(&mv.as_str()) {
                overlay.add(&[mv], kind);
            }
        }
    };
    for r in group {
        if !matches!(r.status, Status::Failed | Status::ExpectedFailure) {
            continue;
        }
        match &r.mismatch {
            Some(Mismatch::Divide {
                diff,
                expected_total,
                actual_total,
            }) => {
                let t = DivideTable::of_diff_lines(diff, *expected_total, *actual_total);
                add(t.missing(), MarkKind::Missing, &mut overlay);
                add(t.extra(), MarkKind::Extra, &mut overlay);
            }
            // The generator has the moves the divide does not list, and lacks those it does.
            Some(Mismatch::DivideMoves {
                not_listed,
                not_legal,
            }) => {
                add(not_legal.clone(), MarkKind::Missing, &mut overlay);
                add(not_listed.clone(), MarkKind::Extra, &mut overlay);
            }
            Some(Mismatch::NotLegal { moves, .. }) => {
                add(moves.clone(), MarkKind::Missing, &mut overlay)
            }
            Some(Mismatch::NotIllegal { moves }) => {
                add(moves.clone(), MarkKind::Extra, &mut overlay)
            }
            _ => {}
        }
    }
    overlay
}

/// One failing case's section; its board only when `draw` (see [`MAX_CASE_BOARDS`]).
fn failing_case(
    group: &[CheckResult],
    rules: &BTreeMap<(PathBuf, String), Vec<String>>,
    diagnosis: &Diagnosis,
    draw: bool,
) -> String {
    let first = &group[0];
    let name = case_name(first);
    let counts = Summary::of(group);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<article class=\"case failed\" data-case=\"{}\" data-variant=\"{}\">",
        escape(&name),
        escape(&first.variant)
    );
    let _ = writeln!(
        out,
        "<h3><span class=\"status-fail\">FAIL</span> {}</h3>",
        escape(&name)
    );
    let _ = writeln!(
        out,
        "<p class=\"muted\"><code>{}</code> line {} &middot; {}</p>",
        escape(&first.file.display().to_string()),
        first.line,
        escape(&counts.line())
    );
    out.push_str("<div class=\"case-body\">\n");
    let overlay = case_marks(group);
    let board = variants::get(&first.variant).and_then(|v| Board::from_fen(v, &first.fen).ok());
    match board {
        Some(_) if !draw => {
            let _ = writeln!(
                out,
                "<p class=\"muted board-not-drawn\">Board not drawn (past the first {MAX_CASE_BOARDS} failing cases): <code>{}</code></p>",
                escape(&first.fen)
            );
        }
        Some(board) => {
            let svg = render(
                &board,
                &overlay,
                &SvgOptions {
                    role: "case",
                    legend: true,
                },
            );
            let _ = writeln!(
                out,
                "<figure class=\"case-board\">{svg}<figcaption><code>{}</code></figcaption></figure>",
                escape(&first.fen)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "<p class=\"fail\">The position cannot be drawn: <code>{}</code></p>",
                escape(&first.fen)
            );
        }
    }
    out.push_str("<div class=\"details\">\n");
    let mut passed: Vec<&CheckResult> = Vec::new();
    for r in group {
        if matches!(r.status, Status::Passed | Status::Skipped) {
            passed.push(r);
            continue;
        }
        out.push_str(&check_section(r));
        if let Some((i, f)) = diagnosis
            .findings
            .iter()
            .enumerate()
            .find(|(_, f)| f.cases.contains(&r.name))
        {
            let _ = writeln!(
                out,
                "<p>Bisected to <a href=\"#finding-{n}\">finding {n}</a> (see Findings above): {}</p>",
                escape(&f.headline()),
                n = i + 1
            );
        }
    }
    if !passed.is_empty() {
        out.push_str("<ul class=\"checks\">");
        for r in passed {
            let _ = write!(
                out,
                "<li><span class=\"status-{}\">{}</span> {}: {}</li>",
                status_class(r.status),
                r.status.label(),
                escape(&r.check),
                escape(&r.message)
            );
        }
        out.push_str("</ul>\n");
    }
    let cited = rules
        .get(&(first.file.clone(), first.case.clone()))
        .cloned()
        .unwrap_or_default();
    if !cited.is_empty() {
        out.push_str("<h4>Rulings cited</h4>\n<dl class=\"rulings\">");
        for id in &cited {
            match ruling(&first.variant, id) {
                Some(r) => {
                    let _ = write!(
                        out,
                        "<dt>{}</dt><dd>{} <span class=\"path\">({}, section &ldquo;{}&rdquo;)</span></dd>",
                        escape(&r.title),
                        inline_markdown(&r.summary),
                        escape(r.path),
                        escape(&r.title)
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<dt>{}</dt><dd class=\"muted\">no summary in docs/rules/</dd>",
                        escape(id)
                    );
                }
            }
        }
        out.push_str("</dl>\n");
    }
    out.push_str("</div>\n</div>\n</article>\n");
    out
}

fn check_section(r: &CheckResult) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<section class=\"check\" data-check=\"{}\"><h4>{} <span class=\"status-{}\">{}</span></h4><p>{}</p>",
        escape(&r.check),
        escape(&r.check),
        status_class(r.status),
        r.status.label(),
        escape(&r.message)
    );
    if let Some(alt) = &r.alternative {
        let _ = write!(
            out,
            "<p class=\"muted\">Reading {}: {}</p>",
            alt.number,
            escape(&alt.reading)
        );
    }
    match &r.mismatch {
        Some(Mismatch::Count {
            expected,
            actual,
            stopped,
        }) => {
            let diff = super::table::DivideRow {
                text: String::new(),
                left: Some(*expected),
                right: Some(*actual),
            }
            .difference();
            // A count stopped once past the expectation is a lower bound of the whole count.
            let (actual, diff) = if *stopped {
                (
                    format!("more than {actual} (counting stopped)"),
                    format!("more than {diff}"),
                )
            } else {
                (actual.to_string(), diff.to_string())
            };
            let _ = write!(
                out,
                "<div class=\"scroll\"><table class=\"counts\"><thead><tr><th>expected</th><th>actual</th><th>difference</th></tr></thead><tbody><tr><td class=\"num\">{expected}</td><td class=\"num\">{actual}</td><td class=\"num\">{diff}</td></tr></tbody></table></div>"
            );
        }
        Some(Mismatch::Divide {
            diff,
            expected_total,
            actual_total,
        }) => {
            out.push_str(&divide_table_html(&DivideTable::of_diff_lines(
                diff,
                *expected_total,
                *actual_total,
            )));
        }
        Some(Mismatch::Outcome { expected, actual }) => {
            let _ = write!(
                out,
                "<div class=\"scroll\"><table class=\"counts\"><thead><tr><th>expected</th><th>actual</th></tr></thead><tbody><tr><td>{}</td><td>{}</td></tr></tbody></table></div>",
                escape(expected),
                escape(actual)
            );
        }
        // The message names the moves; the board draws them.
        Some(Mismatch::NotLegal { legal_moves, .. }) => {
            let _ = write!(
                out,
                "<p class=\"muted\">Legal moves found: {}</p>",
                escape(&legal_moves.join(" "))
            );
        }
        Some(Mismatch::DivideMoves {
            not_listed,
            not_legal,
        }) => {
            for (label, moves) in [
                ("Legal, not listed", not_listed),
                ("Listed, not legal", not_legal),
            ] {
                if !moves.is_empty() {
                    let _ = write!(
                        out,
                        "<p class=\"muted\">{label}: {}</p>",
                        escape(&moves.join(" "))
                    );
                }
            }
        }
        Some(Mismatch::NotIllegal { .. }) => {}
        Some(Mismatch::Error { message }) => {
            let _ = write!(out, "<p class=\"fail\">Error: {}</p>", escape(message));
        }
        None => {}
    }
    if let Some(cmd) = &r.reproduce {
        out.push_str(&reproduce_block(cmd));
    }
    out.push_str("</section>\n");
    out
}

fn others_table(others: &[&[CheckResult]]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<section id=\"others\">\n<h2>Passed and skipped cases ({})</h2>",
        others.len()
    );
    out.push_str(
        "<div class=\"filters\" id=\"filters\" hidden><input type=\"search\" id=\"filter\" placeholder=\"Filter by name\" aria-label=\"Filter cases by name\">\
         <label><input type=\"checkbox\" data-status-filter=\"pass\" checked> passed</label>\
         <label><input type=\"checkbox\" data-status-filter=\"xfail\" checked> failed as expected</label>\
         <label><input type=\"checkbox\" data-status-filter=\"skip\" checked> skipped</label>\
         <span id=\"shown\" class=\"muted\"></span></div>\n",
    );
    out.push_str("<div class=\"scroll\"><table><thead><tr><th>status</th><th>case</th><th>checks</th><th>detail</th></tr></thead><tbody>\n");
    for group in others {
        let first = &group[0];
        let status = case_status(group);
        let counts = Summary::of(group);
        let all_skipped_alike = group.iter().all(|r| r.status == Status::Skipped)
            && group.iter().all(|r| r.message == first.message);
        let detail = if all_skipped_alike {
            first.message.clone()
        } else if counts.skipped > 0 {
            group
                .iter()
                .filter(|r| r.status == Status::Skipped)
                .map(|r| format!("{}: {}", r.check, r.message))
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<tr data-status=\"{}\" data-name=\"{}\"><td class=\"status-{}\">{}</td><td>{}</td><td>{}</td><td class=\"muted\">{}</td></tr>",
            status_class(status),
            escape(&case_name(first)),
            status_class(status),
            status.label(),
            escape(&case_name(first)),
            escape(&counts.line()),
            escape(&detail)
        );
    }
    out.push_str("</tbody></table></div>\n</section>\n");
    out
}

/// What `diff --format html` shows.
pub struct DiffPage<'a> {
    /// Variant id.
    pub variant: &'a str,
    /// The root FEN.
    pub fen: &'a str,
    /// Moves played from it before the comparison.
    pub moves: &'a [String],
    /// Depth compared at the root.
    pub depth: u32,
    /// The reference side's name.
    pub reference: &'a str,
    /// The engine's name.
    pub engine: &'a str,
    /// The comparison and its descent.
    pub bisection: &'a Bisection,
    /// The FEN of the root position after `moves`, when the reference can follow them.
    pub root_fen: Option<&'a str>,
    /// A command that asks the same question at the last step (or, when the descent
    /// stopped, the question that failed).
    pub reproduce: &'a str,
    /// Why the descent stopped before reaching a finding (a side failed), when it did; the
    /// bisection then holds the steps answered before the failure and no [`Stop`].
    pub stopped: Option<&'a str>,
}

/// The page of a `diff`: the first difference drawn on its board, the root board, every step
/// of the descent with its divide table, the command to reproduce. When the descent stopped
/// on a failure, the root board and the steps found before it, and the failure.
pub fn diff_page(p: &DiffPage) -> String {
    let b = p.bisection;
    let agrees = b.agrees() && p.stopped.is_none();
    let last = b.last();
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header>\n<h1>cvperft diff: {}, depth {}</h1>",
        escape(p.variant),
        p.depth
    );
    let _ = writeln!(
        body,
        "<p>reference <strong>{}</strong> against engine <strong>{}</strong></p>",
        escape(p.reference),
        escape(p.engine)
    );
    let _ = writeln!(body, "<p>FEN <code>{}</code></p>", escape(p.fen));
    if !p.moves.is_empty() {
        let _ = writeln!(
            body,
            "<p>moves <code>{}</code></p>",
            escape(&p.moves.join(" "))
        );
    }
    let headline = match b.stop {
        _ if p.stopped.is_some() => "The sides differ; the descent stopped when a side failed.",
        Some(Stop::MovesDiffer) => "The move lists differ.",
        Some(Stop::CountsAtDepthOne) => "Same moves at depth 1, but different counts.",
        Some(Stop::Vanished) => "Counts differ above, but the divides after the move agree.",
        None => "The two sides agree.",
    };
    let root = &b.steps[0].comparison;
    let class = if agrees { "pass" } else { "fail" };
    let _ = writeln!(
        body,
        "<p class=\"summary\"><span class=\"{class}\">{headline}</span></p>\n<p>At the root: {}.</p>\n</header>",
        comparison_summary(root)
    );
    let missing: Vec<String> = last
        .comparison
        .missing
        .iter()
        .map(|e| e.text.clone())
        .collect();
    let extra: Vec<String> = last
        .comparison
        .extra
        .iter()
        .map(|e| e.text.clone())
        .collect();
    let _ = write!(
        body,
        "<section id=\"finding\">\n<h2>{}</h2>\n<div class=\"boards\">",
        if agrees {
            "The position"
        } else if p.stopped.is_some() {
            "Where the descent stopped"
        } else {
            "First difference"
        }
    );
    if let Some(why) = p.stopped {
        let _ = write!(
            body,
            "<p class=\"fail stopped\">The descent stopped before reaching a position where the moves differ: {}</p>",
            escape(why)
        );
    }
    let path_text = if b.path.is_empty() {
        "(root)".to_string()
    } else {
        b.path.join(" ")
    };
    if !b.agrees() {
        match b.fen.as_deref().and_then(|fen| {
            finding_figure(
                p.variant,
                fen,
                &b.path,
                &missing,
                &extra,
                &position_caption(&b.path, fen, "The root position"),
            )
        }) {
            Some(figure) => body.push_str(&figure),
            None => body.push_str(
                "<p class=\"fail\">Our reference cannot follow the path, so the position is not drawn.</p>",
            ),
        }
    }
    // The root board too, when the difference lies deeper.
    if (b.agrees() || !b.path.is_empty())
        && let Some(fen) = p.root_fen
        && let Some(v) = variants::get(p.variant)
        && let Ok(board) = Board::from_fen(v, fen)
    {
        let mut overlay = Overlay::default();
        let t = DivideTable::of_comparison(root);
        overlay.add(&t.missing(), MarkKind::Missing);
        overlay.add(&t.extra(), MarkKind::Extra);
        if let Some(first) = b.path.first() {
            overlay.moves.insert(
                0,
                crate::diagram::MoveMark {
                    text: first.clone(),
                    kind: MarkKind::Path(1),
                },
            );
        }
        let _ = write!(
            body,
            "<figure class=\"root\">{}<figcaption>The root position{}</figcaption></figure>",
            render(
                &board,
                &overlay,
                &SvgOptions {
                    role: "root",
                    legend: true
                }
            ),
            if b.path.is_empty() {
                String::new()
            } else {
                format!(
                    " (arrow 1: the move descended into, {})",
                    escape(&b.path[0])
                )
            }
        );
    }
    body.push_str("</div>\n");
    // The finding's table; after a descent cut short by a failure, only what was noted before it.
    let table = !b.agrees() || !b.notes.is_empty();
    if table {
        body.push_str("<div class=\"scroll\"><table class=\"finding\"><tbody>");
    }
    if !b.agrees() {
        let _ = write!(
            body,
            "<tr><th>path</th><td><code>{}</code></td></tr><tr><th>FEN</th><td><code>{}</code></td></tr><tr><th>depth</th><td>{}</td></tr><tr><th>missing</th><td><code>{}</code> <span class=\"muted\">(the reference has them, the engine does not)</span></td></tr><tr><th>extra</th><td><code>{}</code> <span class=\"muted\">(the engine has them, the reference does not)</span></td></tr>",
            escape(&path_text),
            escape(
                b.fen
                    .as_deref()
                    .unwrap_or("(our reference cannot follow this path)")
            ),
            last.query.depth,
            escape(&if missing.is_empty() {
                "-".to_string()
            } else {
                missing.join(" ")
            }),
            escape(&if extra.is_empty() {
                "-".to_string()
            } else {
                extra.join(" ")
            })
        );
    }
    for note in &b.notes {
        let _ = write!(body, "<tr><th>note</th><td>{}</td></tr>", escape(note));
    }
    if table {
        body.push_str("</tbody></table></div>\n");
    }
    if p.stopped.is_some() {
        body.push_str("<p>The question that failed, to ask again:</p>");
    }
    body.push_str(&reproduce_block(p.reproduce));
    body.push_str("</section>\n<section id=\"steps\">\n<h2>The descent</h2>\n");
    for step in &b.steps {
        let played = &step.query.moves[p.moves.len().min(step.query.moves.len())..];
        let place = if played.is_empty() {
            "The root".to_string()
        } else {
            format!("After {}", played.join(" "))
        };
        let _ = write!(
            body,
            "<h3>{}, depth {}</h3>",
            escape(&place),
            step.query.depth
        );
        body.push_str(&divide_table_html(&DivideTable::of_comparison(
            &step.comparison,
        )));
        if let Some(next) = &step.next {
            let _ = write!(
                body,
                "<p class=\"muted\">Descends into <code>{}</code>.</p>",
                escape(next)
            );
        }
    }
    if p.stopped.is_some() {
        body.push_str(
            "<p class=\"fail\">The descent stopped here: the question after the last move failed (see above).</p>",
        );
    }
    body.push_str("</section>\n");
    page(
        &format!("cvperft diff {} depth {}: {headline}", p.variant, p.depth),
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_lite_keeps_code_and_bold() {
        assert_eq!(
            inline_markdown("a **b** `c<d` & e"),
            "a <strong>b</strong> <code>c&lt;d</code> &amp; e"
        );
        assert_eq!(
            inline_markdown("the *outer* piece, 3*3, a * b, `*x*`"),
            "the <em>outer</em> piece, 3*3, a * b, <code>*x*</code>"
        );
    }

    #[test]
    fn likely_ruling_summaries_render_their_markdown() {
        // A ruling whose summary on its rules page has code spans.
        let (variant, id) = crate::variants::all()
            .iter()
            .flat_map(|v| {
                v.spec
                    .rulings
                    .iter()
                    .map(move |id| (v.spec.id.to_string(), id.to_string()))
            })
            .find(|(v, id)| ruling(v, id).is_some_and(|r| r.summary.contains('`')))
            .expect("some ruling's summary has a code span");
        let d = Diagnosis {
            likely_rulings: vec![crate::findings::LikelyRuling {
                variant: variant.clone(),
                ruling: id.clone(),
                title: id.clone(),
                page: format!("docs/rules/{variant}.md"),
                finding_moves: Vec::new(),
                explains: 0,
                failed: 1,
                run: 1,
            }],
            ..Diagnosis::default()
        };
        let html = diagnosis_sections(&d, true);
        let list = &html[..html.find("</ol>").expect("the list")];
        let summary = &list[list.find("<br>").expect("a summary")..];
        assert!(summary.contains("<code>"), "{list}");
        assert!(!list.contains('`'), "{list}");
    }

    /// Every text of a diff page is escaped, the move descended into too: the root board's
    /// caption wrote it as it was, so a path of the library's `Bisection` holding markup (a
    /// `diff_page` caller's, or an engine's move under a looser reader) became markup.
    #[test]
    fn the_diff_page_escapes_the_move_descended_into() {
        use crate::engine::Query;
        use crate::engine::bisect::{Comparison, Step};
        let hostile = "e2e4<img src=x onerror=alert(1)>";
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let root = Query::new(fen, &[], 2);
        let comparison = Comparison {
            counts: vec![(hostile.to_string(), 20, 21)],
            reference_total: 400,
            engine_total: 401,
            same: 19,
            ..Comparison::default()
        };
        let bisection = Bisection {
            steps: vec![Step {
                query: root.clone(),
                reference: Default::default(),
                engine: Default::default(),
                comparison,
                next: Some(hostile.to_string()),
            }],
            stop: Some(Stop::CountsAtDepthOne),
            path: vec![hostile.to_string()],
            fen: None,
            notes: Vec::new(),
        };
        let html = diff_page(&DiffPage {
            variant: "chess",
            fen,
            moves: &[],
            depth: 2,
            reference: "reference",
            engine: "engine",
            bisection: &bisection,
            root_fen: Some(fen),
            reproduce: "cvperft diff 2",
            stopped: None,
        });
        assert!(html.contains("<figure class=\"root\">"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("e2e4&lt;img src=x onerror=alert(1)&gt;"),
            "{html}"
        );
    }

    #[test]
    fn a_finding_with_no_move_played_is_captioned_as_its_position() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            position_caption(&[], fen, "The check's position"),
            format!("The check's position: {fen}")
        );
        let path = ["e1e2".to_string(), "e8e7".to_string()];
        assert_eq!(
            position_caption(&path, fen, "The check's position"),
            format!("After e1e2 e8e7: {fen}")
        );
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_style_and_script() {
        let html = page("t", "<p>x</p>");
        assert!(
            html.contains(&csp_hash(STYLE).replace('\'', "&apos;")),
            "{html}"
        );
        assert!(html.contains(&csp_hash(SCRIPT).replace('\'', "&apos;")));
        assert!(html.contains("default-src &apos;none&apos;"));
        assert_eq!(html.matches("<script>").count(), 1);
        assert_eq!(html.matches("<style>").count(), 1);
    }
}
