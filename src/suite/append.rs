//! Adding a case to a suite file without disturbing a byte of what is there.
//!
//! Suites are edited by hand: comments, blank lines, key order and flow-style maps all carry
//! meaning for their readers, and a serde round trip would lose them. So a new case is rendered
//! as block-style YAML text ([`render_case`]) and spliced in at the end of the `cases:` list
//! ([`append_case`]); the caller then loads the whole result with [`super::load_str`] before it
//! replaces anything. A suite that does not exist yet is rendered whole around its first case
//! ([`render_suite`]), to be loaded the same way before the file is created.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A case to render: the fields `add-case` writes.
#[derive(Clone, Debug, Default)]
pub struct NewCase {
    /// Stable id.
    pub id: String,
    /// Start FEN (`None`: the variant's start position).
    pub fen: Option<String>,
    /// Moves played from the FEN, space separated (empty: none).
    pub moves: String,
    /// Option overrides.
    pub options: BTreeMap<String, String>,
    /// Ruling ids.
    pub rules: Vec<String>,
    /// perft by depth.
    pub perft: BTreeMap<u32, u64>,
    /// A full divide: depth and (move, count) pairs.
    pub divide: Option<(u32, Vec<(String, u64)>)>,
    /// `source.command`.
    pub command: String,
    /// `source.cross-check`.
    pub cross_check: String,
    /// When disputed: the reason.
    pub disputed: Option<String>,
    /// Other readings: (reading, perft, divide).
    pub alternatives: Vec<NewAlternative>,
    /// Free text.
    pub note: Option<String>,
}

/// Another reading of a disputed case, with what it counts.
#[derive(Clone, Debug, Default)]
pub struct NewAlternative {
    /// Whose reading (an engine's name).
    pub reading: String,
    /// perft by depth under the reading.
    pub perft: BTreeMap<u32, u64>,
    /// A full divide under the reading.
    pub divide: Option<(u32, Vec<(String, u64)>)>,
}

/// A YAML scalar: plain when it is a simple word that YAML reads back as the same string,
/// double-quoted otherwise (`quoted`).
pub fn scalar(text: &str) -> String {
    let simple = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if simple {
        text.to_string()
    } else {
        quoted(text)
    }
}

/// `text` double-quoted with JSON's escapes, which YAML shares, and every character YAML does
/// not take as printable in a file escaped too (`\uXXXX`): DEL, the C1 controls, U+FFFE and
/// U+FFFF, which it refuses to read, and NEL and the line and paragraph separators, which it
/// takes for line breaks and folds (NEL into a space), so that the value read back was
/// another string; and the byte-order mark, which it may drop.
fn quoted(text: &str) -> String {
    let json = serde_json::Value::from(text).to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '\u{7f}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{feff}'
            | '\u{fffe}'
            | '\u{ffff}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            _ => out.push(c),
        }
    }
    out
}

fn counts(perft: &BTreeMap<u32, u64>) -> String {
    let items: Vec<String> = perft.iter().map(|(d, n)| format!("{d}: {n}")).collect();
    format!("{{{}}}", items.join(", "))
}

fn divide(out: &mut String, pad: &str, depth: u32, moves: &[(String, u64)]) {
    let _ = writeln!(out, "{pad}divide:");
    let _ = writeln!(out, "{pad}  depth: {depth}");
    if moves.is_empty() {
        let _ = writeln!(out, "{pad}  moves: {{}}");
        return;
    }
    let _ = writeln!(out, "{pad}  moves:");
    for (m, n) in moves {
        let _ = writeln!(out, "{pad}    {}: {n}", scalar(m));
    }
}

/// Renders a case as a block-style list item indented by `indent` spaces (the `-` column).
/// Keys are written in the order of docs/suite-format.md.
pub fn render_case(case: &NewCase, indent: usize) -> String {
    let dash = " ".repeat(indent);
    let pad = " ".repeat(indent + 2);
    let mut out = String::new();
    let _ = writeln!(out, "{dash}- id: {}", scalar(&case.id));
    if let Some(fen) = &case.fen {
        let _ = writeln!(out, "{pad}fen: {}", quoted(fen));
    }
    if !case.moves.is_empty() {
        let _ = writeln!(out, "{pad}moves: {}", quoted(&case.moves));
    }
    if !case.options.is_empty() {
        let items: Vec<String> = case
            .options
            .iter()
            .map(|(k, v)| format!("{}: {}", scalar(k), scalar(v)))
            .collect();
        let _ = writeln!(out, "{pad}options: {{{}}}", items.join(", "));
    }
    if !case.rules.is_empty() {
        let items: Vec<String> = case.rules.iter().map(|r| scalar(r)).collect();
        let _ = writeln!(out, "{pad}rules: [{}]", items.join(", "));
    }
    if !case.perft.is_empty() {
        let _ = writeln!(out, "{pad}perft: {}", counts(&case.perft));
    }
    if let Some((depth, moves)) = &case.divide {
        divide(&mut out, &pad, *depth, moves);
    }
    let _ = writeln!(out, "{pad}source:");
    let _ = writeln!(out, "{pad}  kind: reference");
    let _ = writeln!(out, "{pad}  command: {}", quoted(&case.command));
    let _ = writeln!(out, "{pad}  cross-check: {}", scalar(&case.cross_check));
    if let Some(reason) = &case.disputed {
        let _ = writeln!(out, "{pad}status: disputed");
        let _ = writeln!(out, "{pad}reason: {}", quoted(reason));
        let _ = writeln!(out, "{pad}alternatives:");
        for alt in &case.alternatives {
            let _ = writeln!(out, "{pad}  - reading: {}", quoted(&alt.reading));
            if !alt.perft.is_empty() {
                let _ = writeln!(out, "{pad}    perft: {}", counts(&alt.perft));
            }
            if let Some((depth, moves)) = &alt.divide {
                divide(&mut out, &format!("{pad}    "), *depth, moves);
            }
        }
    }
    if let Some(note) = &case.note {
        let _ = writeln!(out, "{pad}note: {}", quoted(note));
    }
    out
}

/// A new suite's text, as a person would write it: a header comment saying where it came
/// from, `variant` (`variant_id`, named `variant_name` in prose), a `description`, `game-end:
/// rules`, no suite-level options, and `case` as the one item of `cases:`.
pub fn render_suite(
    variant_id: &str,
    variant_name: &str,
    description: Option<&str>,
    case: &NewCase,
) -> String {
    let mut out = format!("# {variant_name}: positions from disputed games.\n");
    out.push_str(
        "# Started by `cvperft add-case --create`; add cases with `cvperft add-case --suite FILE`.\n\
         # Format: docs/suite-format.md. Each case's `source.command` reproduces its counts, its\n\
         # `cross-check` says what else was compared, and its note where the game came from.\n",
    );
    let _ = writeln!(out, "variant: {}", scalar(variant_id));
    match description {
        // The user's text, quoted where YAML would read it otherwise.
        Some(text) => {
            let _ = writeln!(out, "description: {}", scalar(text));
        }
        // Folded, as the suites under suites/ write it; the name is one of ours, plain text.
        None => {
            let _ = writeln!(
                out,
                "description: >\n  {variant_name}: positions from disputed games, each added \
                 with `cvperft add-case`."
            );
        }
    }
    out.push_str("game-end: rules\noptions: {}\ncases:\n");
    out.push_str(&render_case(case, 2));
    out
}

/// Why a case cannot be spliced into a suite's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AppendError {
    /// `cases:` is a top-level key, but its value is not a block list.
    #[error("the suite's `cases:` is not a block list (`- id: ...` items); add the case by hand")]
    NotABlockList,
    /// No top-level `cases:` key.
    #[error("the suite has no top-level `cases:` list")]
    NoCases,
    /// Lines broken by CR alone (no LF anywhere).
    #[error("its lines end in CR alone; add-case needs LF or CRLF line breaks")]
    CrOnly,
    /// Adding the case would change a value the suite already holds.
    #[error(
        "adding the case would change a value the suite already holds (a block scalar kept \
         with `|+` or `>+` at the end of the last case?); add it by hand"
    )]
    ChangesValues,
}

/// Whether a line starts a top-level key (not indented, not a comment, not a list item).
fn is_top_level_key(line: &str) -> bool {
    line.chars()
        .next()
        .is_some_and(|c| !c.is_whitespace() && c != '#' && c != '-')
        && !line.starts_with("---")
        && !line.starts_with("...")
}

/// The indentation (the `-` column) of the items of the block list starting after
/// `cases_line`, or 2 when none is found.
fn item_indent(lines: &[&str], cases_line: usize) -> usize {
    lines[cases_line + 1..]
        .iter()
        .find_map(|l| {
            let trimmed = l.trim_start();
            (trimmed.starts_with("- ") || trimmed == "-").then(|| l.len() - trimmed.len())
        })
        .unwrap_or(2)
}

/// The text of `suite` with `new_case` (indented like the existing items) added as
/// the last item of its top-level `cases:` block list. Every byte of `suite` is kept, in order:
/// the case goes at the end of the file (after a newline if the file lacked one), or just
/// before the next top-level key when `cases:` is not the last one, or before a line that ends
/// the document (`...`) or starts another (`---`). Its lines end in CRLF when the suite's first
/// line does, else in LF.
///
/// # Errors
/// No top-level `cases:` key, or a `cases:` written in flow style (`cases: [...]`).
/// Returns the new text and the case's text as inserted.
pub fn append_case(suite: &str, new_case: &NewCase) -> Result<(String, String), AppendError> {
    append_case_with(suite, new_case, true)
}

/// [`append_case`], with a blank line before the case (`separate`) or without one: a block
/// scalar kept with its trailing line breaks (`|+`, `>+`) at the end of the last case takes
/// such a blank line into its value, so the caller may try again without it.
///
/// # Errors
/// As [`append_case`].
pub fn append_case_with(
    suite: &str,
    new_case: &NewCase,
    separate: bool,
) -> Result<(String, String), AppendError> {
    if suite.contains('\r') && !suite.contains('\n') {
        return Err(AppendError::CrOnly);
    }
    let lines: Vec<&str> = suite.split_inclusive('\n').collect();
    // The key as written: plain, or quoted either way.
    fn after_key(l: &str) -> Option<&str> {
        ["cases:", "\"cases\":", "'cases':"]
            .iter()
            .find_map(|k| l.strip_prefix(k))
    }
    let Some(cases_line) = lines.iter().position(|l| {
        after_key(l).is_some_and(|rest| {
            let rest = rest.trim();
            rest.is_empty() || rest.starts_with('#')
        })
    }) else {
        return Err(if lines.iter().any(|l| after_key(l).is_some()) {
            AppendError::NotABlockList
        } else {
            AppendError::NoCases
        });
    };
    let indent = item_indent(&lines, cases_line);
    // Lines broken as most of the suite's lines are: a case in LF added to a suite in CRLF
    // left it with lines of both kinds (and its first line alone may have been rewritten by
    // another tool).
    let breaks = suite.matches('\n').count();
    let crlf = 2 * suite.matches("\r\n").count() > breaks;
    let eol = if crlf { "\r\n" } else { "\n" };
    let case = render_case(new_case, indent).replace('\n', eol);
    // The next top-level key, or the end of the document (`...`, or `---` starting another):
    // the case goes before it.
    let next_key = lines[cases_line + 1..]
        .iter()
        .position(|l| is_top_level_key(l) || l.starts_with("...") || l.starts_with("---"))
        .map(|i| i + cases_line + 1)
        .map(|mut k| {
            // Comments and blank lines just above the next key belong to it.
            while k > cases_line + 1
                && (lines[k - 1].starts_with('#') || lines[k - 1].trim().is_empty())
            {
                k -= 1;
            }
            k
        });
    let mut out = String::with_capacity(suite.len() + case.len() + 2);
    match next_key {
        None => {
            out.push_str(suite);
            if !suite.is_empty() && !suite.ends_with('\n') {
                out.push_str(eol);
            }
            if separate {
                out.push_str(eol);
            }
            out.push_str(&case);
        }
        Some(k) => {
            let at: usize = lines[..k].iter().map(|l| l.len()).sum();
            out.push_str(&suite[..at]);
            if !suite[..at].ends_with('\n') {
                out.push_str(eol);
            }
            out.push_str(&case);
            if separate {
                out.push_str(eol);
            }
            out.push_str(&suite[at..]);
        }
    }
    Ok((out, case))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> NewCase {
        NewCase {
            id: "added".into(),
            moves: "e2e4".into(),
            perft: BTreeMap::from([(1, 20)]),
            command: "cvperft perft 1".into(),
            cross_check: "none".into(),
            ..NewCase::default()
        }
    }

    #[test]
    fn appends_at_the_end_keeping_every_byte() {
        let suite = "variant: chess\ncases:\n    - id: a # comment\n      perft: {1: 20}";
        let out = append_case(suite, &case()).expect("appends").0;
        assert!(out.starts_with(suite));
        assert!(
            out.contains("\n\n    - id: added\n      moves: \"e2e4\"\n"),
            "{out}"
        );
    }

    #[test]
    fn inserts_before_a_later_top_level_key() {
        let suite = "variant: chess\ncases:\n  - id: a\n# options follow\noptions: {}\n";
        let out = append_case(suite, &case()).expect("appends").0;
        let at = out.find("  - id: added").expect("inserted");
        assert!(at < out.find("options: {}").expect("kept"));
        assert_eq!(
            out.replace(&render_case(&case(), 2), "")
                .replace("\n\n", "\n"),
            suite
        );
    }

    #[test]
    fn refuses_flow_style_and_missing_cases() {
        assert_eq!(
            append_case("cases: [{id: a}]\n", &case()),
            Err(AppendError::NotABlockList)
        );
        assert_eq!(
            append_case("variant: chess\n", &case()),
            Err(AppendError::NoCases)
        );
        assert_eq!(
            append_case("variant: chess\rcases:\r  - id: a\r", &case()),
            Err(AppendError::CrOnly)
        );
    }

    #[test]
    fn reads_a_quoted_key_and_stops_at_the_end_of_the_document() {
        for key in ["\"cases\":", "'cases':"] {
            let suite = format!("variant: chess\n{key}\n  - id: a\n");
            let out = append_case(&suite, &case()).expect("appends").0;
            assert!(out.starts_with(&suite), "{out}");
            assert!(out.ends_with(&render_case(&case(), 2)), "{out}");
        }
        for end in ["...\n", "---\nvariant: other\n"] {
            let suite = format!("variant: chess\ncases:\n  - id: a\n{end}");
            let out = append_case(&suite, &case()).expect("appends").0;
            let at = out.find("  - id: added").expect("inserted");
            assert!(at < out.find(end).expect("kept"), "{out}");
        }
    }

    #[test]
    fn a_new_suite_is_its_header_and_the_case() {
        let text = render_suite("chess", "Orthodox Chess", None, &case());
        assert!(
            text.starts_with("# Orthodox Chess: positions from disputed games"),
            "{text}"
        );
        assert!(
            text.contains("\nvariant: chess\ndescription: >\n  Orthodox Chess: positions"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "game-end: rules\noptions: {{}}\ncases:\n{}",
                render_case(&case(), 2)
            )),
            "{text}"
        );
    }

    #[test]
    fn quotes_what_yaml_would_misread() {
        assert_eq!(scalar("e2e4"), "e2e4");
        assert_eq!(scalar("GE-1"), "GE-1");
        assert_eq!(scalar("no"), "\"no\"");
        assert_eq!(scalar("1e5"), "\"1e5\"");
        assert_eq!(scalar("f1b5,N@a2"), "\"f1b5,N@a2\"");
    }
}
