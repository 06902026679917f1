//! Coordinate records: our move text with what records add around it.
//!
//! The reading `add-case` has always had: move numbers (`1.`, `12...`), `-` and `x` between
//! the squares, `=` before a promotion letter, check and annotation marks (`+`, `#`, `!`, `?`;
//! also before the comma of a compound move), comments (`{...}`, `;` to the end of the line),
//! tag pairs (`[Event "..."]`) and results (`1-0`, `0-1`, `1/2-1/2`, `*`) are stripped; what
//! is left of each word is our move text (`e2e4`, `e7e8q`, `N@b2`, `f1b5,N@a2`). The record is
//! one game.

use super::{Comments, GameText, MoveProblem, MoveReason, RecordError, Written, lex};
use crate::notation::parse_move;
use crate::position::{Move, Position};

const COMMENTS: Comments = Comments {
    braces: true,
    semicolon: true,
    slashes: false,
    percent: false,
};

/// Reads a coordinate record: one game, every move of the text, as this reading has always
/// been (results and tags are skipped wherever they stand, so `--game-index` finds one game).
///
/// # Errors
/// An unclosed `{` comment or `[` tag, or a tag cvperft reads given twice with two values.
pub fn games(text: &str) -> Result<Vec<GameText>, RecordError> {
    let lexed = lex(text, COMMENTS, &[])?;
    let tags: Vec<_> = lexed.tags.into_iter().map(|(_, t)| t).collect();
    super::tags_once(&tags)?;
    Ok(vec![GameText {
        tags,
        moves: lexed
            .words
            .iter()
            .filter(|w| move_of_word(&w.text).is_some())
            .map(|w| Written {
                parts: vec![w.part()],
            })
            .collect(),
    }])
}

/// The first `;` comment of a coordinate record that opens with a Game Courier placement
/// (`N*b2`: a letter or two, `*`, a square): its line, its column (of the `;`) and its text
/// after the `;`. Read as a comment, as coordinate notation reads `;`, the placement is
/// dropped: `--notation auto` says so when it reads such a record as coordinate text.
pub fn placement_in_comment(text: &str) -> Option<(usize, usize, String)> {
    let lexed = lex(text, COMMENTS, &[]).ok()?;
    let comment = lexed.semicolon_comments.into_iter().find(|c| {
        let first = c.text.split_whitespace().next().unwrap_or("");
        let Some((label, square)) = first.trim_end_matches(';').split_once('*') else {
            return false;
        };
        let file = square.chars().next();
        let rank = &square[file.map_or(0, char::len_utf8)..];
        (1..=2).contains(&label.len())
            && label.chars().all(|c| c.is_ascii_alphabetic())
            && file.is_some_and(|f| f.is_ascii_lowercase())
            && (1..=2).contains(&rank.len())
            && rank.chars().all(|c| c.is_ascii_digit())
    })?;
    Some((
        comment.line,
        comment.column,
        comment.text.trim().to_string(),
    ))
}

/// Our move text for one word of a record, or `None` when the word holds no move (a move
/// number, a result).
pub fn move_of_word(word: &str) -> Option<String> {
    if super::is_result(word) {
        return None;
    }
    let word = super::strip_move_number(word);
    // Marks end the word or a part of it (`g4-f6+,N@b2`).
    let word = word
        .split(',')
        .map(|part| part.trim_end_matches(['+', '#', '!', '?']))
        .collect::<Vec<_>>()
        .join(",");
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

/// The legal move a written coordinate move names.
///
/// # Errors
/// The move text is malformed or not legal here (with the legal moves, closest first).
pub fn interpret(pos: &Position, written: &Written) -> Result<Move, MoveProblem> {
    let part = &written.parts[0];
    let text = move_of_word(&part.text).unwrap_or_default();
    parse_move(pos, &text).map_err(|e| MoveProblem {
        line: part.line,
        column: part.column,
        reason: if e.column > 0 {
            MoveReason::NotCoordinate(e)
        } else {
            MoveReason::IllegalCoordinate(e)
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(record: &str) -> Vec<String> {
        games(record)
            .expect("readable")
            .into_iter()
            .flat_map(|g| g.moves)
            .map(|m| move_of_word(&m.parts[0].text).expect("a move"))
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
    fn keeps_lines_and_columns() {
        let games = games("1. e2e4\n\n e7e5 *").expect("readable");
        let second = &games[0].moves[1].parts[0];
        assert_eq!((second.line, second.column), (3, 2));
        assert_eq!(second.text, "e7e5");
    }
}
