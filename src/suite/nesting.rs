//! How deep a YAML text nests its flow collections (`[...]`, `{...}`), found before the YAML
//! parser reads it.
//!
//! The parser behind serde_yaml spends time proportional to the flow depth on every token, so
//! a text of nested brackets costs the square of its size: 200 kB took 24 s, long before
//! serde_yaml's recursion limit (checked only after the whole text is parsed) could refuse it.
//! Block nesting (indentation, `- - -`) costs linear time and is left to that limit. This scan
//! is linear: it follows YAML's lexical structure closely enough to skip brackets that are text
//! (inside quoted, plain and block scalars, and comments) and stops at the first bracket that
//! opens more than the limit, giving its line and column.
//!
//! The scan errs only towards counting too deep: where it cannot tell text from structure it
//! counts the bracket. A suite has no reason to nest flow collections more than a few levels.

/// Deepest flow nesting accepted in a suite or probe file.
pub const MAX_FLOW_NESTING: usize = 64;

/// Where the flow nesting first went deeper than the limit (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// Line of the bracket.
    pub line: usize,
    /// Column of the bracket (in characters).
    pub column: usize,
    /// The limit it exceeded.
    pub limit: usize,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "flow collections (`[`, `{{`) nested more than {} levels deep",
            self.limit
        )
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_flow_indicator(c: char) -> bool {
    matches!(c, ',' | '[' | ']' | '{' | '}')
}

struct Scanner<'a> {
    chars: &'a [char],
    at: usize,
    depth: usize,
    limit: usize,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Whether the character `ahead` is a blank, a line break or the end of the text.
    fn ends_token(&self, ahead: usize) -> bool {
        self.peek(ahead).is_none_or(|c| is_blank(c) || is_break(c))
    }

    fn too_deep(&self) -> TooDeep {
        let mut line = 1;
        let mut column = 1;
        let mut i = 0;
        while i < self.at {
            let c = self.chars[i];
            if is_break(c) {
                if c == '\r' && self.chars.get(i + 1) == Some(&'\n') {
                    i += 1;
                }
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
            i += 1;
        }
        TooDeep {
            line,
            column,
            limit: self.limit,
        }
    }

    /// Moves past the line break at the current position (`\r\n` counts as one).
    fn skip_break(&mut self) {
        if self.peek(0) == Some('\r') && self.peek(1) == Some('\n') {
            self.at += 1;
        }
        self.at += 1;
    }

    fn skip_to_break(&mut self) {
        while self.peek(0).is_some_and(|c| !is_break(c)) {
            self.at += 1;
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek(0).is_some_and(is_blank) {
            self.at += 1;
        }
    }

    /// Skips a quoted scalar starting at the current quote (it may span lines).
    fn skip_quoted(&mut self) {
        let quote = self.peek(0);
        self.at += 1;
        while let Some(c) = self.peek(0) {
            self.at += 1;
            match (quote, c) {
                (Some('"'), '\\') => self.at += 1,
                (Some('"'), '"') => return,
                (Some('\''), '\'') if self.peek(0) == Some('\'') => self.at += 1,
                (Some('\''), '\'') => return,
                _ => {}
            }
        }
    }

    /// Skips an anchor, tag or alias (up to a blank, a line break or a flow indicator).
    fn skip_word(&mut self) {
        while self
            .peek(0)
            .is_some_and(|c| !is_blank(c) && !is_break(c) && !is_flow_indicator(c))
        {
            self.at += 1;
        }
    }

    fn open(&mut self) -> Result<(), TooDeep> {
        self.depth += 1;
        if self.depth > self.limit {
            return Err(self.too_deep());
        }
        self.at += 1;
        Ok(())
    }

    /// Scans flow context from just after an opening bracket until the matching close.
    fn flow(&mut self) -> Result<(), TooDeep> {
        let base = self.depth - 1;
        let mut expect_node = true;
        let mut after_blank = true;
        while let Some(c) = self.peek(0) {
            if is_blank(c) || is_break(c) {
                self.at += 1;
                after_blank = true;
                continue;
            }
            let blank_before = after_blank;
            after_blank = false;
            match c {
                '#' if blank_before => self.skip_to_break(),
                '[' | '{' => {
                    self.open()?;
                    expect_node = true;
                }
                ']' | '}' => {
                    self.depth = self.depth.saturating_sub(1);
                    self.at += 1;
                    expect_node = false;
                    if self.depth == base {
                        return Ok(());
                    }
                }
                ',' => {
                    self.at += 1;
                    expect_node = true;
                }
                ':' if !expect_node
                    || self.ends_token(1)
                    || self.peek(1).is_some_and(is_flow_indicator) =>
                {
                    self.at += 1;
                    expect_node = true;
                }
                '?' if expect_node && self.ends_token(1) => self.at += 1,
                '"' | '\'' if expect_node => {
                    self.skip_quoted();
                    expect_node = false;
                }
                '&' | '!' if expect_node => self.skip_word(),
                '*' if expect_node => {
                    self.skip_word();
                    expect_node = false;
                }
                _ => {
                    self.plain_in_flow();
                    expect_node = false;
                }
            }
        }
        Ok(())
    }

    /// Skips a plain scalar in flow context: up to a flow indicator, `: `, or ` #`.
    fn plain_in_flow(&mut self) {
        self.at += 1;
        while let Some(c) = self.peek(0) {
            if is_flow_indicator(c) {
                return;
            }
            if c == ':' && (self.ends_token(1) || self.peek(1).is_some_and(is_flow_indicator)) {
                return;
            }
            if (is_blank(c) || is_break(c)) && self.blank_run_ends_in_comment() {
                return;
            }
            self.at += 1;
        }
    }

    /// Whether the blanks and line breaks from here are followed by `#` (a comment).
    fn blank_run_ends_in_comment(&self) -> bool {
        let mut i = self.at;
        while let Some(&c) = self.chars.get(i) {
            if c == '#' {
                return true;
            }
            if !is_blank(c) && !is_break(c) {
                return false;
            }
            i += 1;
        }
        false
    }

    /// Scans block context line by line.
    fn block(&mut self) -> Result<(), TooDeep> {
        // Lines more indented than this belong to a block scalar, or continue a plain scalar.
        let mut block_scalar: Option<usize> = None;
        let mut plain_continues: Option<usize> = None;
        while self.peek(0).is_some() {
            let start = self.at;
            self.skip_blanks();
            let indent = self.at - start;
            match self.peek(0) {
                None => break,
                Some(c) if is_break(c) => {
                    self.skip_break();
                    continue;
                }
                _ => {}
            }
            if let Some(parent) = block_scalar {
                if indent > parent {
                    self.skip_to_break();
                    continue;
                }
                block_scalar = None;
            }
            if self.peek(0) == Some('#') {
                self.skip_to_break();
                continue;
            }
            if let Some(parent) = plain_continues.take()
                && indent > parent
            {
                // More text of a multi-line plain scalar: brackets and quotes in it are text.
                plain_continues = Some(parent);
                self.plain_in_block(indent, &mut plain_continues);
                continue;
            }
            self.block_line(indent, &mut block_scalar, &mut plain_continues)?;
        }
        Ok(())
    }

    /// Scans one block-context line from its first character, node by node.
    fn block_line(
        &mut self,
        indent: usize,
        block_scalar: &mut Option<usize>,
        plain_continues: &mut Option<usize>,
    ) -> Result<(), TooDeep> {
        let at_column_zero = indent == 0;
        if at_column_zero && self.peek(0) == Some('%') {
            self.skip_to_break();
            return Ok(());
        }
        if at_column_zero
            && ((self.peek(0) == Some('-')
                && self.peek(1) == Some('-')
                && self.peek(2) == Some('-'))
                || (self.peek(0) == Some('.')
                    && self.peek(1) == Some('.')
                    && self.peek(2) == Some('.')))
            && self.ends_token(3)
        {
            self.at += 3;
        }
        loop {
            self.skip_blanks();
            let Some(c) = self.peek(0) else {
                return Ok(());
            };
            match c {
                c if is_break(c) => return Ok(()),
                '#' => {
                    self.skip_to_break();
                    return Ok(());
                }
                '-' | '?' | ':' if self.ends_token(1) => self.at += 1,
                '[' | '{' => {
                    self.open()?;
                    self.flow()?;
                    self.after_node();
                }
                '"' | '\'' => {
                    self.skip_quoted();
                    self.after_node();
                }
                '|' | '>' => {
                    *block_scalar = Some(indent);
                    self.skip_to_break();
                    return Ok(());
                }
                '&' | '!' => self.skip_word(),
                '*' => {
                    self.skip_word();
                    self.after_node();
                }
                _ => {
                    if self.plain_in_block(indent, plain_continues) {
                        continue;
                    }
                    return Ok(());
                }
            }
            if !self.at_value_indicator_consumed() {
                return Ok(());
            }
        }
    }

    /// After a node in block context: skips to a `:` value indicator (true: a value may follow
    /// on this line) or to the end of the line.
    fn after_node(&mut self) {
        self.skip_blanks();
    }

    /// Whether the scan stands at a point where another node may start on this line (after a
    /// `- `, `? `, `: `, a property, or a key's `:`); consumes a key's `:` when it is there.
    fn at_value_indicator_consumed(&mut self) -> bool {
        self.skip_blanks();
        match self.peek(0) {
            None => false,
            Some(c) if is_break(c) => false,
            Some('#') => {
                self.skip_to_break();
                false
            }
            Some(':') if self.ends_token(1) => {
                self.at += 1;
                true
            }
            // Anything else starts (or continues) a node: let the loop look at it.
            Some(_) => true,
        }
    }

    /// Skips a plain scalar in block context up to `: ` (returns true: a value follows), a
    /// comment or the end of the line (a multi-line scalar may continue on lines indented more
    /// than `indent`).
    fn plain_in_block(&mut self, indent: usize, plain_continues: &mut Option<usize>) -> bool {
        let mut blank_before = false;
        while let Some(c) = self.peek(0) {
            if is_break(c) {
                *plain_continues = Some(indent);
                return false;
            }
            if c == '#' && blank_before {
                self.skip_to_break();
                return false;
            }
            if c == ':' && self.ends_token(1) {
                self.at += 1;
                *plain_continues = None;
                return true;
            }
            blank_before = is_blank(c);
            self.at += 1;
        }
        false
    }
}

/// Checks that `text` nests flow collections at most `limit` levels deep.
///
/// # Errors
/// The position of the first bracket that opens one level too many.
pub fn check_flow_nesting(text: &str, limit: usize) -> Result<(), TooDeep> {
    let chars: Vec<char> = text.chars().collect();
    Scanner {
        chars: &chars,
        at: 0,
        depth: 0,
        limit,
    }
    .block()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_needed(text: &str) -> usize {
        (0..200)
            .find(|&limit| check_flow_nesting(text, limit).is_ok())
            .unwrap_or(200)
    }

    /// A lower bound of the brackets a parsed YAML value was written with: each sequence one
    /// level, each mapping of two or more entries one level. (A mapping of one entry may be a
    /// pair written without braces inside a flow sequence, `[a: b]`.)
    fn bracket_depth(v: &serde_yaml::Value) -> usize {
        match v {
            serde_yaml::Value::Sequence(s) => 1 + s.iter().map(bracket_depth).max().unwrap_or(0),
            serde_yaml::Value::Mapping(m) => {
                let inner = m
                    .iter()
                    .map(|(k, v)| bracket_depth(k).max(bracket_depth(v)))
                    .max()
                    .unwrap_or(0);
                inner + usize::from(m.len() != 1)
            }
            serde_yaml::Value::Tagged(t) => bracket_depth(&t.value),
            _ => 0,
        }
    }

    #[test]
    fn brackets_that_are_text_do_not_count() {
        let text = "a: \"[[[\"\nb: '[[['\nc: it's [[[ plain\n  and [[[ more\n# [[[[\nd: |\n  [[[\n  {{{\ne: [x, \"]]\", '{', y z]\n";
        assert_eq!(depth_needed(text), 1);
        assert_eq!(depth_needed("a: [[1], {b: [2, [3]]}]\n"), 4);
        assert_eq!(depth_needed("- - - [[x]]\n"), 2);
        assert_eq!(depth_needed("k: [a #c\n  , [b]]\n"), 2);
    }

    #[test]
    fn the_first_bracket_too_deep_is_located() {
        let text = format!(
            "variant: chess\ncases:\n  - legal: {}x{}\n",
            "[".repeat(70),
            "]".repeat(70)
        );
        let e = check_flow_nesting(&text, 64).expect_err("too deep");
        assert_eq!((e.line, e.column), (3, 12 + 64));
        let spread = "k:\n".to_string() + &"  [\n".repeat(70);
        assert_eq!(
            check_flow_nesting(&spread, 64).expect_err("deep").line,
            2 + 64
        );
    }

    #[test]
    fn a_deep_text_is_scanned_in_linear_time() {
        let text = format!("a: {}\n", "[".repeat(2_000_000));
        let start = std::time::Instant::now();
        assert!(check_flow_nesting(&text, 64).is_err());
        let text = format!("a: {}\n", "[x]".repeat(700_000));
        assert!(check_flow_nesting(&text, 64).is_ok());
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    /// Random flow documents built from pieces that confuse naive scanners (quotes inside plain
    /// scalars, brackets inside quotes, comments, colons): the scan never finds less depth than
    /// the parser builds.
    #[test]
    fn the_scan_never_counts_less_than_the_parser_nests() {
        let pieces = [
            "[",
            "]",
            "{",
            "}",
            ", ",
            "a",
            "it's",
            "\"x]\"",
            "'y}'",
            "'it''s'",
            "\"q\\\"]\"",
            ": ",
            " #c]\n",
            "\n",
            " ",
            "k:v",
            "-",
            "? ",
            "&a ",
            "*a",
            "!t ",
            "\"",
            "'",
            ":",
            "\n  ",
            "\n- ",
            "- ",
            "|\n",
            ">",
            "#",
            "\r",
            "\u{2028}",
        ];
        // Starts whose block collections are at the top only (a block sequence below would
        // count as brackets in `bracket_depth`).
        let starts = ["x: [", "x: ", "x: it's [\n  ", "- [", "x: |\n  [", "[", "{"];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut parsed = 0;
        for _ in 0..20_000 {
            let len = 1 + (next() % 24) as usize;
            let mut text = String::from(starts[(next() % starts.len() as u64) as usize]);
            for _ in 0..len {
                text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            text.push_str("]\n");
            if let Ok(v) = serde_yaml::from_str::<serde_yaml::Value>(&text) {
                parsed += 1;
                // The document's own mapping, or its sequence of `- ` items, is a block
                // collection: count what is under it.
                let under = |children: &mut dyn Iterator<Item = usize>| children.max().unwrap_or(0);
                let real = match &v {
                    serde_yaml::Value::Mapping(m) => under(
                        &mut m
                            .iter()
                            .map(|(k, v)| bracket_depth(k).max(bracket_depth(v))),
                    ),
                    serde_yaml::Value::Sequence(items) if text.starts_with("- ") => {
                        under(&mut items.iter().map(bracket_depth))
                    }
                    other => bracket_depth(other),
                };
                // Each `- ` may be a block sequence, which `bracket_depth` counts as a level.
                let chars: Vec<char> = text.chars().collect();
                let dashes = chars
                    .iter()
                    .enumerate()
                    .filter(|&(i, &c)| {
                        c == '-' && chars.get(i + 1).is_none_or(|&n| is_blank(n) || is_break(n))
                    })
                    .count();
                let real = real.saturating_sub(dashes);
                assert!(depth_needed(&text) >= real, "{text:?}: parser nests {real}");
            }
        }
        assert!(parsed > 1000, "only {parsed} texts parsed");
    }
}
