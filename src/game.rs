//! Game records: move text as players and servers write it, reduced to our move text.
//!
//! A disputed game usually arrives as a record copied from a game server (Game Courier style
//! `1. e2-e4 e7-e5 2. Ng1-f3 ...`) rather than as our space-separated coordinate moves. This
//! module strips what a record adds around the moves: move numbers (`1.`, `12...`), `-` and `x`
//! between the squares, `=` before a promotion letter, check and annotation marks (`+`, `#`,
//! `!`, `?`), comments (`{...}`, `;` to the end of the line), tag pairs (`[Event "..."]`) and
//! results (`1-0`, `0-1`, `1/2-1/2`, `*`). Whether the moves are legal is for the caller to
//! find out by playing them ([`crate::notation::parse_move`]).

use std::fmt;

/// One move of a record, in our move text, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMove {
    /// The move as our move text (`e2e4`, `e7e8q`, `N@b2`).
    pub text: String,
    /// The move as written in the record (`e2-e4+`).
    pub written: String,
    /// 1-based line of the record.
    pub line: usize,
}

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for GameError {}

/// Most bytes of a game record read.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// Reads a game record into our move text, in order.
///
/// # Errors
/// An unterminated `{` comment or `[` tag, or a record larger than [`MAX_GAME_BYTES`].
///
/// # Examples
/// ```
/// let moves = cvperft::game::parse_game("1. e2-e4 d7-d5 2. e4xd5+ {a comment} 1-0").unwrap();
/// let text: Vec<&str> = moves.iter().map(|m| m.text.as_str()).collect();
/// assert_eq!(text, ["e2e4", "d7d5", "e4d5"]);
/// ```
pub fn parse_game(record: &str) -> Result<Vec<GameMove>, GameError> {
    if record.len() > MAX_GAME_BYTES {
        return Err(GameError {
            line: 1,
            message: format!(
                "{} bytes, larger than the limit of {MAX_GAME_BYTES}",
                record.len()
            ),
        });
    }
    // Blank out comments and tag pairs, keeping newlines so that lines stay right.
    let mut plain = String::with_capacity(record.len());
    let mut line = 1;
    let mut open: Option<(char, usize)> = None;
    let mut in_line_comment = false;
    for c in record.chars() {
        if c == '\n' {
            line += 1;
            in_line_comment = false;
            plain.push('\n');
            continue;
        }
        match open {
            Some((close, _)) => {
                if c == close {
                    open = None;
                }
                plain.push(' ');
            }
            None if in_line_comment => plain.push(' '),
            None => match c {
                '{' => {
                    open = Some(('}', line));
                    plain.push(' ');
                }
                '[' => {
                    open = Some((']', line));
                    plain.push(' ');
                }
                ';' => {
                    in_line_comment = true;
                    plain.push(' ');
                }
                _ => plain.push(c),
            },
        }
    }
    if let Some((close, at)) = open {
        let what = if close == '}' {
            "comment `{`"
        } else {
            "tag `[`"
        };
        return Err(GameError {
            line: at,
            message: format!("{what} is never closed by `{close}`"),
        });
    }
    let mut moves = Vec::new();
    for (i, text) in plain.lines().enumerate() {
        for word in text.split_whitespace() {
            if let Some(text) = move_of_word(word) {
                moves.push(GameMove {
                    text,
                    written: word.to_string(),
                    line: i + 1,
                });
            }
        }
    }
    Ok(moves)
}

/// Our move text for one word of a record, or `None` when the word holds no move (a move
/// number, a result).
fn move_of_word(word: &str) -> Option<String> {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
        return None;
    }
    // A move number, possibly glued to the move: `1.`, `12...`, `1.e2-e4`.
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let rest = &word[digits..];
    let word = if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    let word = word.trim_end_matches(['+', '#', '!', '?']);
    if word.is_empty() {
        return None;
    }
    // `-`, `x` and `=` are separators only between a rank digit and what follows.
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len());
    for (i, &c) in chars.iter().enumerate() {
        let after_digit = i > 0 && chars[i - 1].is_ascii_digit();
        let before_letter = chars.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if matches!(c, '-' | 'x' | '=') && after_digit && before_letter {
            continue;
        }
        out.push(c);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(record: &str) -> Vec<String> {
        parse_game(record)
            .expect("readable")
            .into_iter()
            .map(|m| m.text)
            .collect()
    }

    #[test]
    fn strips_numbers_separators_marks_comments_and_results() {
        let record = "[Event \"casual\"]\n1. e2-e4 e7-e5 ; open game\n2. Ng1? {no: g1f3} g1-f3 \
                      b8-c6\n3.f1xb5+ 3... a7-a6!? 4. e7-e8=Q# N@b2 f1b5,N@a2 1/2-1/2\n";
        assert_eq!(
            texts(record),
            [
                "e2e4",
                "e7e5",
                "Ng1",
                "g1f3",
                "b8c6",
                "f1b5",
                "a7a6",
                "e7e8Q",
                "N@b2",
                "f1b5,N@a2"
            ]
        );
    }

    #[test]
    fn keeps_lines_and_refuses_unclosed_comments() {
        let moves = parse_game("1. e2e4\n\n e7e5 *").expect("readable");
        assert_eq!(moves[1].line, 3);
        assert_eq!(moves[1].written, "e7e5");
        let e = parse_game("1. e2e4\n{ unfinished").expect_err("unclosed");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("never closed"), "{e}");
    }
}
