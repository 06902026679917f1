//! Line numbers for errors found after deserialising.
//!
//! serde_yaml reports where a syntax or type error is, but its values keep no positions, so a
//! problem found later (an unknown rule id, a bad FEN) would have no line. This module scans the
//! text of a block-style suite for the top-level keys, the items of `cases:` and the keys of each
//! item. It is deliberately simple: it understands the layout suites are written in (block
//! mappings and sequences, block scalars, comments), and where it cannot tell (flow style) it
//! falls back to the nearest line it knows, such as the `cases:` line.

/// One item of the `cases:` sequence.
#[derive(Debug, Clone)]
pub struct ItemLines {
    /// 1-based line of the item's `-`.
    pub start: usize,
    /// 1-based line after the item's last line.
    pub end: usize,
    /// The item's `id:` value as written, when found.
    pub id: Option<String>,
    /// Keys of the item with their lines, in file order.
    pub keys: Vec<(String, usize)>,
}

/// Where things are in one suite text.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// Top-level keys with their lines.
    pub top: Vec<(String, usize)>,
    /// The items of `cases:`, in order.
    pub items: Vec<ItemLines>,
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The key of a `key: value` or `key:` line (content already stripped of indentation).
fn key_of(content: &str) -> Option<&str> {
    let end = content.find(':')?;
    let key = &content[..end];
    let rest = &content[end + 1..];
    if key.is_empty() || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let key = key.trim_matches(|c| c == '"' || c == '\'');
    if key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        Some(key)
    } else {
        None
    }
}

/// The scalar value after `key:`, without quotes or a trailing comment.
fn value_of(content: &str) -> Option<String> {
    let (_, rest) = content.split_once(':')?;
    let mut v = rest.trim();
    if let Some(i) = v.find(" #") {
        v = v[..i].trim_end();
    }
    let v = v
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
        .unwrap_or(v);
    if v.is_empty() {
        None
    } else {
        Some(v.to_string())
    }
}

/// The lines of `text` as YAML counts them, which is how serde_yaml numbers its errors: a line
/// ends at LF, CR LF, a lone CR, NEL, LS or PS (Rust's `str::lines` knows only LF and CR LF).
pub fn yaml_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            lines.push(&text[start..i]);
            if c == '\r' && chars.next_if(|&(_, next)| next == '\n').is_some() {
                start = i + 2;
            } else {
                start = i + c.len_utf8();
            }
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

impl SourceMap {
    /// Scans a suite's text.
    pub fn scan(text: &str) -> SourceMap {
        let lines = yaml_lines(text);
        let mut map = SourceMap::default();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            if is_blank_or_comment(line) || indent_of(line) != 0 || line.starts_with("---") {
                i += 1;
                continue;
            }
            let Some(key) = key_of(line) else {
                i += 1;
                continue;
            };
            map.top.push((key.to_string(), i + 1));
            i += 1;
            if key == "cases" {
                i = map.scan_items(&lines, i);
            }
        }
        map
    }

    /// Scans the items of the sequence starting at line index `i`; returns the index after it.
    fn scan_items(&mut self, lines: &[&str], mut i: usize) -> usize {
        let mut dash_indent: Option<usize> = None;
        let mut current: Option<(ItemLines, usize)> = None; // item and its key indent
        while i < lines.len() {
            let line = lines[i];
            if is_blank_or_comment(line) {
                i += 1;
                continue;
            }
            let indent = indent_of(line);
            let content = &line[indent..];
            let is_dash = content == "-" || content.starts_with("- ");
            let dash = *dash_indent.get_or_insert(indent);
            if indent < dash || (indent == dash && !is_dash) {
                break;
            }
            if indent == dash && is_dash {
                if let Some((mut item, _)) = current.take() {
                    item.end = i + 1;
                    self.items.push(item);
                }
                let after = content[1..].trim_start();
                let key_indent = indent + (content.len() - after.len());
                let mut item = ItemLines {
                    start: i + 1,
                    end: i + 2,
                    id: None,
                    keys: Vec::new(),
                };
                if let Some(k) = key_of(after) {
                    if k == "id" {
                        item.id = value_of(after);
                    }
                    item.keys.push((k.to_string(), i + 1));
                }
                current = Some((item, key_indent));
            } else if let Some((item, key_indent)) = current.as_mut() {
                if *key_indent == dash + 1 && item.keys.is_empty() {
                    // `-` alone on its line: the first key line sets the indentation.
                    *key_indent = indent;
                }
                if indent == *key_indent
                    && let Some(k) = key_of(content)
                {
                    if k == "id" && item.id.is_none() {
                        item.id = value_of(content);
                    }
                    item.keys.push((k.to_string(), i + 1));
                }
            }
            i += 1;
        }
        if let Some((mut item, _)) = current.take() {
            item.end = i + 1;
            self.items.push(item);
        }
        i
    }

    /// Line of a top-level key.
    pub fn top_line(&self, key: &str) -> Option<usize> {
        self.top.iter().find(|(k, _)| k == key).map(|(_, l)| *l)
    }

    /// Line of case `index` (its `-`), or the `cases:` line, or 1.
    pub fn case_line(&self, index: usize) -> usize {
        self.items
            .get(index)
            .map(|it| it.start)
            .or_else(|| self.top_line("cases"))
            .unwrap_or(1)
    }

    /// Line of `key` inside case `index`, or the case's line.
    pub fn case_key_line(&self, index: usize, key: &str) -> usize {
        self.items
            .get(index)
            .and_then(|it| it.keys.iter().find(|(k, _)| k == key).map(|(_, l)| *l))
            .unwrap_or_else(|| self.case_line(index))
    }

    /// The case item containing 1-based `line`, with its index.
    pub fn item_at(&self, line: usize) -> Option<(usize, &ItemLines)> {
        self.items
            .iter()
            .enumerate()
            .find(|(_, it)| it.start <= line && line < it.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
# a comment
variant: chess
description: >
  folded text
game-end: rules
cases:
  - id: first
    fen: \"8/8/8/8/8/8/8/8 w - - 0 1\"
    source:
      kind: hand
      derivation: |
        - id: not-a-case
        text
  # comment between cases
  - fen: x
    id: 'second'   # trailing comment
  -
    id: third
options: {}
";

    #[test]
    fn finds_top_keys_items_and_their_keys() {
        let map = SourceMap::scan(TEXT);
        assert_eq!(map.top_line("variant"), Some(2));
        assert_eq!(map.top_line("cases"), Some(6));
        assert_eq!(map.top_line("options"), Some(19));
        let ids: Vec<Option<&str>> = map.items.iter().map(|i| i.id.as_deref()).collect();
        assert_eq!(ids, [Some("first"), Some("second"), Some("third")]);
        assert_eq!(map.case_line(0), 7);
        assert_eq!(map.case_key_line(0, "fen"), 8);
        assert_eq!(map.case_key_line(0, "source"), 9);
        assert_eq!(map.case_key_line(1, "id"), 16);
        assert_eq!(map.case_line(2), 17);
        assert_eq!(map.case_key_line(2, "id"), 18);
        assert_eq!(map.item_at(12).map(|(i, _)| i), Some(0));
        assert_eq!(map.item_at(16).map(|(i, _)| i), Some(1));
    }

    #[test]
    fn lines_end_where_yaml_ends_them() {
        assert_eq!(
            yaml_lines("a\nb\r\nc\rd\u{85}e\u{2028}f\u{2029}g\n"),
            ["a", "b", "c", "d", "e", "f", "g"]
        );
        assert_eq!(yaml_lines("a\r\r\nb"), ["a", "", "b"]);
        assert!(yaml_lines("").is_empty());
        for end in ["\r", "\r\n", "\u{2028}"] {
            let map = SourceMap::scan(&TEXT.replace('\n', end));
            assert_eq!(map.case_key_line(2, "id"), 18, "{end:?}");
            assert_eq!(map.items[1].id.as_deref(), Some("second"), "{end:?}");
        }
    }

    #[test]
    fn flow_style_falls_back_to_the_cases_line() {
        let map = SourceMap::scan("variant: chess\ncases: [{id: a}]\n");
        assert!(map.items.is_empty());
        assert_eq!(map.case_line(0), 2);
        assert_eq!(map.case_key_line(0, "fen"), 2);
    }

    #[test]
    fn cases_at_the_same_indent_as_the_key() {
        let map = SourceMap::scan("cases:\n- id: a\n  fen: x\n- id: b\ngame-end: rules\n");
        assert_eq!(map.items.len(), 2);
        assert_eq!(map.case_key_line(0, "fen"), 3);
        assert_eq!(map.case_line(1), 4);
        assert_eq!(map.top_line("game-end"), Some(5));
    }
}
