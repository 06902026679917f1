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
use std::borrow::Cow;
use std::io::{self, Write};

/// Whether `c` would act on a terminal rather than show: control characters (C0 but the tab,
/// DEL, C1), the bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the
/// line and paragraph separators (U+2028, U+2029).
fn acts_on_terminal(c: char) -> bool {
    (c.is_control() && c != '\t') || is_bidi_control(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The bidirectional controls: marks (the Arabic letter mark, U+061C, among them) and
/// embeddings, overrides and isolates, which reorder the text that follows them.
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Whether `c` shows as itself everywhere a command line is shown and copied from: not a control
/// character (the tab included), nor one [`printable`] or [`escape`] shows as `\u{..}` (the
/// bidirectional controls, U+2028, U+2029, U+FFFE, U+FFFF).
pub fn shows_as_itself(c: char) -> bool {
    !(c.is_control() || acts_on_terminal(c) || matches!(c, '\u{fffe}' | '\u{ffff}'))
}

/// `\u{..}` for `c`, as [`printable`] and [`escape`] show a character instead of obeying it.
fn shown(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// `text` as it may be shown on a terminal: every character of `acts_on_terminal` written as
/// `\u{..}` (a newline too), so that text from files and engines (a FEN, a tag value, an
/// engine's line, a suite's reading) cannot clear the screen, set the window title, overwrite a
/// line or reverse what follows.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts_on_terminal(c) {
            out.push_str(&shown(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` on one line: its line breaks written `\n` and `\r` (as messages write them), and what
/// else would act on a terminal escaped by [`printable`], so that text quoted from a record or
/// a file name cannot break a message or a summary line over lines.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return printable(text);
    }
    let breaks = text.replace('\n', "\\n").replace('\r', "\\r");
    Cow::Owned(printable(&breaks).into_owned())
}

/// Longest word kept whole in a [`message_line`]; longer ones keep their start and end.
pub const MAX_WORD: usize = 160;
/// Longest [`message_line`]; the rest is cut.
pub const MAX_LINE: usize = 2000;

/// `line` as one line of a message, as the binary writes its messages on stderr and the Python
/// package raises them: line breaks written `\n` and `\r`, what would act on a terminal
/// escaped ([`printable`]), every word (a run without blanks) longer than [`MAX_WORD`]
/// characters cut to its first 100 and last 40 characters around `...(N characters)...` (a
/// 120 kB move token echoed stays readable), and the whole cut to [`MAX_LINE`] characters.
pub fn message_line(line: &str) -> String {
    let text = one_line(line);
    let mut out = String::with_capacity(text.len().min(MAX_LINE + 64));
    let mut rest = &*text;
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let count = word.chars().count();
        if count > MAX_WORD {
            out.extend(word.chars().take(100));
            out.push_str(&format!("...({count} characters)..."));
            out.extend(word.chars().skip(count - 40));
        } else {
            out.push_str(word);
        }
        rest = &rest[word_end..];
        let blank_end = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..blank_end]);
        rest = &rest[blank_end..];
    }
    let count = out.chars().count();
    if count > MAX_LINE {
        let mut cut: String = out.chars().take(MAX_LINE).collect();
        cut.push_str(&format!("... ({} more characters)", count - MAX_LINE));
        out = cut;
    }
    out
}

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

/// Escapes text for XML (and HTML) attributes and content. Control characters but the tab,
/// newline and carriage return (those XML 1.0 forbids, DEL and C1 too), U+FFFE, U+FFFF and the
/// bidirectional controls are shown as `\u{1b}`, `\u{202e}`: an engine's name or a suite's
/// text keeps every character it has on the page (a right-to-left override would reorder
/// what follows it; dropped, an escape would make two names read alike).
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
            c if !shows_as_itself(c) => out.push_str(&shown(c)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_line_keeps_the_ends_of_long_words() {
        assert_eq!(message_line("short words stay"), "short words stay");
        let token = format!("{}{}", "a".repeat(120_000), "zz");
        let cut = message_line(&format!("move `{token}`: not a move"));
        assert!(cut.starts_with("move `aaaa"), "{cut}");
        assert!(cut.contains("...(120005 characters)..."), "{cut}");
        assert!(cut.ends_with("azz`: not a move"), "{cut}");
        assert!(cut.len() < 300, "{}", cut.len());
        let many = "word ".repeat(1000);
        let cut = message_line(&many);
        assert!(cut.ends_with("(3000 more characters)"), "{cut}");
        assert_eq!(
            message_line("two\nlines \u{1b}[31mred\r"),
            "two\\nlines \\u{1b}[31mred\\r"
        );
    }

    #[test]
    fn terminal_and_page_text_show_controls_instead_of_obeying_them() {
        assert_eq!(printable("plain e2e4 ♞"), "plain e2e4 ♞");
        assert_eq!(
            printable("a\u{1b}[2J\u{7}b\u{202e}c\u{2028}\u{85}\td"),
            "a\\u{1b}[2J\\u{7}b\\u{202e}c\\u{2028}\\u{85}\td"
        );
        assert_eq!(escape("x\u{202e}<y>\u{1b}"), "x\\u{202e}&lt;y&gt;\\u{1b}");
        assert_eq!(
            escape("a\u{1}\u{7f}\u{85}\u{fffe}\u{2028}\tb\nc"),
            "a\\u{1}\\u{7f}\\u{85}\\u{fffe}\\u{2028}\tb\nc"
        );
        assert_eq!(printable("a\u{61c}b"), "a\\u{61c}b");
        assert_eq!(escape("a\u{61c}b"), "a\\u{61c}b");
    }
}
