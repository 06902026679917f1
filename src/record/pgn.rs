//! PGN records: tag pairs and movetext in SAN ([`crate::san`]).
//!
//! Read as PGN's import format allows: tag pairs (`[Variant "cerimon"]`), comments `{...}` and
//! `;` to the end of the line, `%` escape lines, move numbers (`1.`, `1...`, glued `1.e4`),
//! numeric annotation glyphs (`$1`), suffix glyphs (`!`, `?!`), `e.p.`, variations `( ... )`
//! (nested, skipped) and results, which end a game; several games may follow each other. A
//! compound move is one SAN text with commas (`Bb5+,N@a2`); a space after a comma, or on both
//! sides of it, is allowed.

use super::{
    Comments, GameText, Lexed, MoveProblem, MoveReason, Part, RecordError, RecordReason, Word,
    Written, lex, split_games,
};
use crate::position::{Move, Position};
use crate::san::parse_san;

const COMMENTS: Comments = Comments {
    braces: true,
    semicolon: true,
    slashes: false,
    percent: true,
};

/// Whether a word is an annotation and no move: `$12`, `!?`, `e.p.`.
fn is_annotation(word: &str) -> bool {
    (word.starts_with('$') && word.len() > 1 && word[1..].bytes().all(|b| b.is_ascii_digit()))
        || (!word.is_empty() && word.chars().all(|c| matches!(c, '!' | '?')))
        || word == "e.p."
}

/// Splits a PGN record into games.
///
/// # Errors
/// An unclosed comment, tag or variation, or a `)` without its `(`.
pub fn games(text: &str) -> Result<Vec<GameText>, RecordError> {
    let lexed = lex(text, COMMENTS, &['(', ')'])?;
    // Variations out first, so that a result inside one does not end the game.
    let mut depth = 0usize;
    let mut open: Vec<Word> = Vec::new();
    let mut words = Vec::with_capacity(lexed.words.len());
    // Tag pairs (in record order) between an outermost `(` and its `)` are refused: taken as
    // the start of a new game, they would cut the game short at the variation.
    let mut tags = lexed.tags.iter().peekable();
    let inside = |tags: &mut std::iter::Peekable<std::slice::Iter<'_, (usize, super::Tag)>>,
                  from: &Word,
                  to: usize|
     -> Result<(), RecordError> {
        while let Some((i, tag)) = tags.next_if(|(i, _)| *i < to) {
            if *i > from.index {
                return Err(RecordError::at(
                    tag.line,
                    tag.column,
                    RecordReason::TagInVariation {
                        line: from.line,
                        column: from.column,
                    },
                ));
            }
        }
        Ok(())
    };
    for w in lexed.words {
        match w.text.as_str() {
            "(" => {
                depth += 1;
                open.push(w);
            }
            ")" => {
                if depth == 0 {
                    return Err(w.error(None, RecordReason::UnopenedVariation));
                }
                depth -= 1;
                if let Some(first) = open.pop()
                    && depth == 0
                {
                    inside(&mut tags, &first, w.index)?;
                }
            }
            _ if depth == 0 => words.push(w),
            _ => {}
        }
    }
    if let Some(w) = open.first() {
        return Err(w.error(None, RecordReason::UnclosedVariation));
    }
    let games = split_games(Lexed {
        words,
        tags: lexed.tags,
        semicolon_comments: Vec::new(),
    })?;
    games
        .into_iter()
        .map(|(tags, words)| {
            super::tags_once(&tags)?;
            Ok(GameText {
                tags,
                moves: moves_of(&words),
            })
        })
        .collect()
}

/// The moves of a game's words: numbers and annotations dropped, comma-split moves joined.
fn moves_of(words: &[Word]) -> Vec<Written> {
    let mut moves: Vec<Written> = Vec::new();
    let mut joining = false;
    for w in words {
        let stripped = super::strip_move_number(&w.text);
        if stripped.is_empty() || is_annotation(stripped) {
            continue;
        }
        let skipped = w.text.len() - stripped.len();
        let mut part = Part {
            text: stripped.to_string(),
            line: w.line,
            column: w.column + skipped,
            then: None,
        };
        let leading_comma = part.text.starts_with(',');
        if leading_comma {
            part.text.remove(0);
            part.column += 1;
        }
        let trailing_comma = part.text.ends_with(',');
        if trailing_comma {
            part.text.pop();
        }
        // A comma standing alone (`Nf6+ , N@b2`) joins as one glued to either word does: it
        // was dropped, and the placement read as the next ply.
        let lone_comma = leading_comma && part.text.is_empty();
        if (joining || leading_comma) && !moves.is_empty() {
            if let Some(last) = moves.last_mut()
                && !part.text.is_empty()
            {
                last.parts.push(part);
            }
        } else if !part.text.is_empty() {
            moves.push(Written { parts: vec![part] });
        }
        joining = trailing_comma || lone_comma;
    }
    moves
}

/// The legal move a written SAN move names.
///
/// # Errors
/// Malformed SAN, no legal move, or several (listed).
pub fn interpret(pos: &Position, written: &Written) -> Result<Move, MoveProblem> {
    let text = written.text(super::Notation::San);
    parse_san(pos, &text).map_err(|e| {
        // The error's column in the joined text, back to the part it falls in.
        let mut offset = e.column.saturating_sub(1);
        let mut at = written.at();
        for p in &written.parts {
            at = p.place(offset.min(p.text.len()));
            if offset <= p.text.len() {
                break;
            }
            offset -= p.text.len() + 1;
        }
        MoveProblem {
            line: at.0,
            column: at.1,
            reason: MoveReason::San(e.reason),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(record: &str) -> Vec<Vec<String>> {
        games(record)
            .expect("readable")
            .into_iter()
            .map(|g| {
                g.moves
                    .iter()
                    .map(|m| m.text(super::super::Notation::San))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn numbers_comments_glyphs_and_variations_are_skipped() {
        let record = "[Variant \"chess\"]\n1.e4 $1 e5!? {a (comment} 2. Nf3 (2. f4 exf4 (2... d5) \
                      1-0) 2... Nc6 ; rest\n3. Bb5+, N@a2 e.p. 1/2-1/2";
        assert_eq!(texts(record), [["e4", "e5!?", "Nf3", "Nc6", "Bb5+,N@a2"]]);
        assert_eq!(texts("1. Nf6+ , N@b2 e5"), [["Nf6+,N@b2", "e5"]]);
    }

    #[test]
    fn several_games_and_their_tags() {
        let record =
            "[Event \"one\"]\n\n1. e4 *\n\n[Event \"two\"]\n[Variant \"cerimon\"]\n1. Nc3 0-1\n";
        let games = games(record).expect("readable");
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[1].tag("variant").map(|t| t.value.as_str()),
            Some("cerimon")
        );
        assert_eq!(games[1].moves[0].parts[0].column, 4);
    }

    #[test]
    fn a_game_without_tags_after_a_result_opens_with_move_1() {
        for record in ["1. e4 *\n\n1. d4 *", "1. e4 1-0 1.d4 *", "1. e4 * 1... e5"] {
            assert_eq!(games(record).expect("two games").len(), 2, "{record}");
        }
        for (record, at) in [
            ("1. e4 * 2. d4", (1, 9)),
            ("1. e4 * 11. d4", (1, 9)),
            ("1. e4 * e5", (1, 9)),
        ] {
            let e = games(record).expect_err("moves after the result");
            assert_eq!((e.line, e.column), at, "{record}");
        }
    }

    #[test]
    fn unbalanced_variations_are_located() {
        let e = games("1. e4 ( e5 \n2. Nf3").expect_err("open");
        assert_eq!((e.line, e.column), (1, 7));
        let e = games("1. e4 e5 )").expect_err("stray");
        assert_eq!((e.line, e.column), (1, 10));
    }
}
