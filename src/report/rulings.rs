//! The summaries of rulings, read from the rules pages in `docs/rules/` (built into the binary),
//! so that a report can say what a failing case's `rules:` tags mean without a link a CI
//! artifact could not follow.
//!
//! A ruling's summary is the first paragraph of the section of its variant's page whose heading
//! names it (`## PP-5 Acquiring and robbing`); failing that, the bullet of `docs/rules/README.md`
//! that starts with it in bold (`- **GE-1, ...**`); failing that, the row of a table on the page
//! whose first cell is the id (chess's `FIDE-*` ids). A unit test checks that every ruling every
//! variant declares has one.

/// The rules pages, by variant id: (variant id, path, text).
const PAGES: &[(&str, &str, &str)] = &[
    (
        "chess",
        "docs/rules/chess.md",
        include_str!("../../docs/rules/chess.md"),
    ),
    (
        "silver-elephant",
        "docs/rules/silver-elephant.md",
        include_str!("../../docs/rules/silver-elephant.md"),
    ),
    (
        "bachelor-kamil",
        "docs/rules/bachelor-kamil.md",
        include_str!("../../docs/rules/bachelor-kamil.md"),
    ),
    (
        "cerimon",
        "docs/rules/cerimon.md",
        include_str!("../../docs/rules/cerimon.md"),
    ),
    (
        "plutonian",
        "docs/rules/plutonian.md",
        include_str!("../../docs/rules/plutonian.md"),
    ),
    (
        "pink-panther",
        "docs/rules/pink-panther.md",
        include_str!("../../docs/rules/pink-panther.md"),
    ),
];

/// The page of what every variant shares (GE-1).
const COMMON: (&str, &str) = (
    "docs/rules/README.md",
    include_str!("../../docs/rules/README.md"),
);

/// Longest summary kept, in characters; a longer paragraph is cut after a sentence.
const MAX_SUMMARY: usize = 480;

/// What a report shows of one ruling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The id (`PP-5`).
    pub id: String,
    /// The heading it is explained under (`PP-5 Acquiring and robbing`).
    pub title: String,
    /// Its first paragraph there (Markdown: backticks and `**` kept).
    pub summary: String,
    /// The page, relative to the repository (`docs/rules/pink-panther.md`).
    pub path: &'static str,
}

/// The summary of ruling `id` as `variant`'s page (or the common page) explains it.
pub fn ruling(variant: &str, id: &str) -> Option<Ruling> {
    let page = PAGES.iter().find(|(v, _, _)| *v == variant);
    if let Some((_, path, text)) = page
        && let Some((title, summary)) = from_heading(text, id)
    {
        return Some(Ruling {
            id: id.to_string(),
            title,
            summary,
            path,
        });
    }
    if let Some(summary) = from_bullet(COMMON.1, id) {
        return Some(Ruling {
            id: id.to_string(),
            title: id.to_string(),
            summary,
            path: COMMON.0,
        });
    }
    let (_, path, text) = page?;
    from_table(text, id).map(|summary| Ruling {
        id: id.to_string(),
        title: id.to_string(),
        summary,
        path,
    })
}

/// Whether `line` names `id` as a whole word.
fn names(line: &str, id: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .any(|word| word == id)
}

fn from_heading(text: &str, id: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("## ") && names(l, id))
        .or_else(|| {
            lines
                .iter()
                .position(|l| l.starts_with("### ") && names(l, id))
        })?;
    let title = lines[at].trim_start_matches('#').trim().to_string();
    let body = &lines[at + 1..];
    let (mut paragraph, next) = paragraph_at(body, 0)?;
    // A section that opens with a list: its items, without their bullets.
    if paragraph.starts_with("* ") || paragraph.starts_with("- ") {
        paragraph = list_at(body, 0)?;
    }
    // A paragraph that introduces a list ends with a colon: the list's items follow. One that
    // introduces a table says where the table is.
    if paragraph.ends_with(':') {
        match list_at(body, next) {
            Some(items) => paragraph = format!("{paragraph} {items}"),
            None => {
                paragraph.pop();
                paragraph.push_str(", as the table on the page shows.");
            }
        }
    }
    Some((title, shorten(&paragraph)))
}

/// The first prose paragraph of `lines` from `start` (code blocks, tables and rules skipped;
/// a heading ends the search), joined into one line, and the index after it.
fn paragraph_at(lines: &[&str], start: usize) -> Option<(String, usize)> {
    let mut paragraph: Vec<&str> = Vec::new();
    let mut in_code = false;
    let mut i = start;
    while i < lines.len() {
        let t = lines[i].trim();
        i += 1;
        if t.starts_with("```") {
            in_code = !in_code;
            if !paragraph.is_empty() {
                break;
            }
            continue;
        }
        if in_code {
            continue;
        }
        if t.starts_with('#') {
            break;
        }
        if t.is_empty() || t.starts_with('|') || t == "---" {
            if paragraph.is_empty() {
                continue;
            }
            break;
        }
        paragraph.push(t);
    }
    (!paragraph.is_empty()).then(|| (paragraph.join(" "), i))
}

/// The items of a bulleted list right after `start` (blank lines skipped), joined with `;`.
fn list_at(lines: &[&str], start: usize) -> Option<String> {
    let mut items: Vec<String> = Vec::new();
    for line in lines.iter().skip(start) {
        let t = line.trim();
        if t.is_empty() && items.is_empty() {
            continue;
        }
        if let Some(item) = t.strip_prefix("* ").or_else(|| t.strip_prefix("- ")) {
            items.push(item.to_string());
        } else if !t.is_empty() && !items.is_empty() && line.starts_with(' ') {
            if let Some(last) = items.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else {
            break;
        }
    }
    let mut joined = String::new();
    for item in &items {
        if !joined.is_empty() {
            // Items that end a sentence of their own need no semicolon.
            joined.push_str(if joined.ends_with(['.', ';', ',']) {
                " "
            } else {
                "; "
            });
        }
        joined.push_str(item);
    }
    (!joined.is_empty()).then_some(joined)
}

fn from_bullet(text: &str, id: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("- **{id}")))?;
    let mut parts = vec![lines[at].trim_start().trim_start_matches("- ").trim()];
    for line in &lines[at + 1..] {
        // Continuation lines and sub-bullets are indented.
        if line.starts_with("  ") && !line.trim().is_empty() {
            parts.push(line.trim().trim_start_matches("- "));
        } else {
            break;
        }
    }
    Some(shorten(&parts.join(" ")))
}

fn from_table(text: &str, id: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let cells: Vec<&str> = line.trim().strip_prefix('|')?.split('|').collect();
        let first = cells.first()?.trim().trim_matches('`');
        (first == id).then(|| shorten(cells.get(1).map_or("", |c| c.trim())))
    })
}

/// Cuts a paragraph after the last full sentence that fits in [`MAX_SUMMARY`] characters.
fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_SUMMARY {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_SUMMARY).collect();
    match cut.rfind(". ") {
        Some(i) if i > MAX_SUMMARY / 3 => format!("{} …", &cut[..=i]),
        _ => format!("{} …", cut.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn every_declared_ruling_has_a_summary() {
        for v in variants::all() {
            for id in v.spec.rulings {
                let r = ruling(v.spec.id, id).unwrap_or_else(|| {
                    panic!(
                        "{0} {id}: no summary: docs/rules/{0}.md needs a heading naming it \
                         (`## {id} ...`) followed by a paragraph",
                        v.spec.id
                    )
                });
                assert!(!r.summary.trim().is_empty(), "{} {id}", v.spec.id);
                assert!(r.summary.chars().count() <= MAX_SUMMARY + 2, "{r:?}");
                assert!(r.path.starts_with("docs/rules/"), "{r:?}");
            }
        }
    }

    /// Every registered variant's rules page is built in: `PAGES` is a list of its own
    /// (`include_str!` takes a literal path), so a new variant must be added to it by hand;
    /// this says so by name instead of failing on the variant's first ruling.
    #[test]
    fn every_variant_has_its_rules_page() {
        for id in variants::IDS {
            let page = format!("docs/rules/{id}.md");
            assert!(
                PAGES.iter().any(|(v, path, _)| v == id && *path == page),
                "{id}: add (\"{id}\", \"{page}\", include_str!(\"../../{page}\")) to PAGES \
                 in src/report/rulings.rs"
            );
        }
    }

    /// A section opening with a list gives its items without bullets; a paragraph introducing
    /// a table does not end on a colon.
    #[test]
    fn summaries_read_as_prose() {
        let r = ruling("bachelor-kamil", "BK-3").expect("BK-3");
        assert!(r.summary.starts_with("**Camel (C)** leaps"), "{r:?}");
        assert!(r.summary.contains("(dark). **Gnu (W)**"), "{r:?}");
        let r = ruling("bachelor-kamil", "BK-5").expect("BK-5");
        assert!(
            r.summary
                .ends_with("(d1 or f1), as the table on the page shows."),
            "{r:?}"
        );
        for v in variants::all() {
            for id in v.spec.rulings {
                let r = ruling(v.spec.id, id).expect("a summary");
                assert!(
                    !r.summary.starts_with("* ") && !r.summary.starts_with("- "),
                    "{r:?}"
                );
                assert!(!r.summary.ends_with(':'), "{r:?}");
            }
        }
    }

    #[test]
    fn summaries_come_from_the_ruling_s_own_section() {
        let r = ruling("pink-panther", "PP-5").expect("PP-5");
        assert!(r.title.starts_with("PP-5"), "{r:?}");
        assert_eq!(r.path, "docs/rules/pink-panther.md");
        let r = ruling("chess", "FIDE-CASTLING").expect("castling");
        assert!(r.summary.contains("King and Rook unmoved"), "{r:?}");
        let r = ruling("chess", "GE-1").expect("GE-1");
        assert_eq!(r.path, "docs/rules/README.md");
        assert!(ruling("chess", "PP-5").is_none());
        assert!(ruling("nonsense", "GE-1").is_some());
    }
}
