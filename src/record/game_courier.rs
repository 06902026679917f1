//! Game Courier records: the move list of a Game Courier log on the Chess Variant Pages.
//!
//! Game Courier moves are small programs in its GAME Code: `e2-e4` moves what stands on e2 to
//! e4 (a capture is written the same way), an optional piece label before it says which piece
//! moves (`P e2-e4`, upper case White's, lower case Black's), `N*b2` drops a piece, `Q-e8` puts a
//! piece on a square (a promotion, after the Pawn's own move), `e5-` or `@-e5` empties a square,
//! `;` joins the parts of one turn, and `//` starts a comment to the end of the line.
//!
//! Each turn is one of our moves. How the parts map (`docs/game-records.md` has the table):
//! the moving part is the move's from and to; a piece put on the square the moving part lands
//! on is the promotion; pieces dropped elsewhere are the move's placements (Cerimon's
//! resurrection, Silver Elephant's set-up); castling is the King's move alone, the King's and
//! the Rook's moves in either order, or the Rook moving onto the King; an emptied square must
//! be one the move captures on (en passant). `e2xe4` is accepted for `e2-e4`.
//! Labels default to our FEN letters (`+R` for a Pink Panther Chatelaine); a preset's own
//! labels are mapped with `--label OURS=THEIRS` ([`Labels`]).

use super::{
    Comments, GameText, MoveProblem, MoveReason, Part, RecordError, RecordReason, Word, Written,
    lex, list_moves, split_games,
};
use crate::echo::echo;
use crate::geometry::Square;
use crate::notation::move_text;
use crate::position::{Move, Piece, Position, colour_name};
use crate::variant::{Colour, Variant, Wing};

const COMMENTS: Comments = Comments {
    braces: false,
    semicolon: false,
    slashes: true,
    percent: false,
};

/// Why `--label` pairs cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// One pair is wrong.
    #[error("--label `{pair}`: {reason}")]
    Pair {
        /// The pair as given.
        pair: String,
        /// What is wrong with it.
        reason: LabelReason,
    },
    /// Two of the variant's pieces would have the same label.
    #[error("--label: the label `{label}` would name two pieces of {variant}")]
    Ambiguous {
        /// The label.
        label: String,
        /// The variant's id.
        variant: &'static str,
    },
}

/// What is wrong with one `OURS=THEIRS` pair.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelReason {
    /// Not two non-empty sides around `=`.
    #[error("expected OURS=THEIRS, such as T=A")]
    NotAPair,
    /// Our side is not a piece of the variant.
    #[error("{} is not a piece of {variant} (pieces: {pieces})", echo(.ours))]
    UnknownPiece {
        /// Our side, in upper case.
        ours: String,
        /// The variant's id.
        variant: &'static str,
        /// The variant's FEN letters.
        pieces: String,
    },
    /// Their side holds a character that move text uses.
    #[error("a label cannot hold spaces, `-`, `*`, `;` or `@`")]
    Character,
    /// Our piece named by an earlier pair too.
    #[error("`{0}` is mapped twice")]
    MappedTwice(String),
    /// Their side holds no letter `A`-`Z`: Black's label, its lower case, would be White's.
    #[error(
        "the label `{0}` has no letter A-Z, so White's label and Black's (its lower case) would \
         be the same and the two sides' pieces could not be told apart: give a label with a \
         letter A-Z"
    )]
    NoCase(String),
}

/// Piece labels a record uses where they differ from our FEN letters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// (our FEN spelling, their label), both in White's (upper) case.
    aliases: Vec<(String, String)>,
}

impl Labels {
    /// Labels from `OURS=THEIRS` pairs (`T=A`: the record's `A`/`a` is our Terror): each of
    /// our pieces named at most once, no label used twice, each label with a letter `A`-`Z`
    /// (whose case tells the sides apart).
    ///
    /// # Errors
    /// A pair that is malformed, names no piece of the variant, has a label without a letter
    /// `A`-`Z`, or clashes with another label.
    pub fn new(variant: &Variant, pairs: &[String]) -> Result<Labels, LabelError> {
        let mut aliases: Vec<(String, String)> = Vec::new();
        for pair in pairs {
            let refused = |reason| LabelError::Pair {
                pair: pair.clone(),
                reason,
            };
            let (ours, theirs) = pair
                .split_once('=')
                .map(|(a, b)| (a.trim().to_ascii_uppercase(), b.trim().to_ascii_uppercase()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| refused(LabelReason::NotAPair))?;
            if variant.kind_by_fen(&ours).is_none() {
                return Err(refused(LabelReason::UnknownPiece {
                    ours,
                    variant: variant.spec.id,
                    pieces: fen_letters(variant),
                }));
            }
            if theirs
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, '-' | '*' | ';' | '@'))
            {
                return Err(refused(LabelReason::Character));
            }
            // Sides are told apart by the case of a label's letters A-Z (as Game Courier does):
            // `É` would name White's piece and Black's alike.
            if theirs.to_ascii_lowercase() == theirs {
                return Err(refused(LabelReason::NoCase(
                    pair.split_once('=')
                        .map_or("", |(_, t)| t.trim())
                        .to_string(),
                )));
            }
            // The same pair again is accepted, as the same `-o` value twice is; another label
            // for the same piece is not.
            match aliases.iter().find(|(o, _)| *o == ours) {
                Some((_, t)) if *t == theirs => continue,
                Some(_) => return Err(refused(LabelReason::MappedTwice(ours))),
                None => aliases.push((ours, theirs)),
            }
        }
        let labels = Labels { aliases };
        let all: Vec<String> = (0..variant.spec.pieces.len() as u8)
            .map(|k| labels.label(variant, k))
            .collect();
        for (i, l) in all.iter().enumerate() {
            if all[..i].contains(l) {
                return Err(LabelError::Ambiguous {
                    label: l.clone(),
                    variant: variant.spec.id,
                });
            }
        }
        Ok(labels)
    }

    /// White's label of `kind` (Black's is its lower case).
    pub fn label(&self, variant: &Variant, kind: u8) -> String {
        let fen = variant.spec.pieces[kind as usize].fen;
        self.aliases
            .iter()
            .find(|(o, _)| o == fen)
            .map_or_else(|| fen.to_string(), |(_, t)| t.clone())
    }

    /// The label of a piece, in its side's case.
    pub fn of(&self, variant: &Variant, piece: Piece) -> String {
        let l = self.label(variant, piece.kind);
        match piece.colour {
            Colour::White => l,
            Colour::Black => l.to_ascii_lowercase(),
        }
    }

    /// The piece a label names.
    fn resolve(&self, variant: &Variant, label: &str) -> Option<Piece> {
        (0..variant.spec.pieces.len() as u8).find_map(|kind| {
            let white = self.label(variant, kind);
            if label == white {
                Some(Piece {
                    kind,
                    colour: Colour::White,
                })
            } else if label == white.to_ascii_lowercase() {
                Some(Piece {
                    kind,
                    colour: Colour::Black,
                })
            } else {
                None
            }
        })
    }
}

fn fen_letters(variant: &Variant) -> String {
    variant
        .spec
        .pieces
        .iter()
        .map(|p| p.fen)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Splits a Game Courier record into games and turns.
///
/// # Errors
/// A turn cut short after `;`, a label not followed by a move, or an unclosed `[` tag.
pub fn games(text: &str) -> Result<Vec<GameText>, RecordError> {
    let lexed = lex(text, COMMENTS, &[';'])?;
    split_games(lexed)?
        .into_iter()
        .map(|(tags, words)| {
            super::tags_once(&tags)?;
            Ok(GameText {
                tags,
                moves: turns(&words)?,
            })
        })
        .collect()
}

/// Whether a word is (or ends) a move: `e2-e4`, `Q-e8`, `N*b2`, `e5-`, `e2xe4`.
fn is_move_word(word: &str) -> bool {
    let b = word.as_bytes();
    word.contains(['-', '*']) || b.windows(2).any(|w| w[0].is_ascii_digit() && w[1] == b'x')
}

/// Groups the words of one game into turns.
fn turns(words: &[Word]) -> Result<Vec<Written>, RecordError> {
    let mut turns: Vec<Written> = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    let mut label: Option<Part> = None;
    let mut joined = false;
    let truncated = |w: Option<&Word>, at: &Part, ply: usize| {
        let (line, column) = w.map_or_else(|| at.place(at.text.len()), |w| (w.line, w.column));
        RecordError {
            ply: Some(ply),
            line,
            column,
            written: Some(at.text.clone()),
            reason: RecordReason::TurnCutShort,
            tried: None,
        }
    };
    let unfollowed = |l: &Part, ply: usize| RecordError {
        ply: Some(ply),
        line: l.line,
        column: l.column,
        written: Some(l.text.clone()),
        reason: if l
            .text
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_lowercase)
            && l.text.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
        {
            RecordReason::SquareWithoutDash(l.text.clone())
        } else {
            RecordReason::LabelWithoutMove(l.text.clone())
        },
        tried: None,
    };
    for w in words {
        let ply = turns.len() + 1;
        let stripped = super::strip_move_number(&w.text);
        if stripped.len() != w.text.len() || stripped.is_empty() {
            // A move number ends the turn.
            if joined {
                return Err(truncated(Some(w), parts.last().expect("a part"), ply));
            }
            if let Some(l) = &label {
                return Err(unfollowed(l, ply));
            }
            if !parts.is_empty() {
                turns.push(Written {
                    parts: std::mem::take(&mut parts),
                });
            }
            if stripped.is_empty() {
                continue;
            }
        }
        let skipped = w.text.len() - stripped.len();
        let word = Part {
            text: stripped.to_string(),
            line: w.line,
            column: w.column + skipped,
            then: None,
        };
        if word.text == ";" {
            if let Some(l) = &label {
                return Err(unfollowed(l, ply));
            }
            if parts.is_empty() || joined {
                return Err(RecordError {
                    ply: Some(ply),
                    line: word.line,
                    column: word.column,
                    written: None,
                    reason: RecordReason::JoinsNothing,
                    tried: None,
                });
            }
            joined = true;
            continue;
        }
        if !joined && label.is_none() && !parts.is_empty() {
            turns.push(Written {
                parts: std::mem::take(&mut parts),
            });
        }
        if is_move_word(&word.text) {
            let part = match label.take() {
                // Places after the label are the move's own (spaces or a line break between).
                Some(l) => Part {
                    text: format!("{} {}", l.text, word.text),
                    then: Some((l.text.len() + 1, word.line, word.column)),
                    ..l
                },
                None => word,
            };
            parts.push(part);
            joined = false;
        } else {
            if let Some(l) = &label {
                return Err(unfollowed(l, ply));
            }
            label = Some(word);
        }
    }
    let ply = turns.len() + 1;
    if let Some(l) = &label {
        return Err(unfollowed(l, ply));
    }
    if joined {
        return Err(truncated(None, parts.last().expect("a part"), ply));
    }
    if !parts.is_empty() {
        turns.push(Written { parts });
    }
    Ok(turns)
}

/// One part of a turn, read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    /// A piece moves from one square to another.
    Move {
        label: Option<(Piece, usize)>,
        from: Square,
        to: Square,
    },
    /// A piece is put on a square (a drop, or a promotion's replacement).
    Put { piece: Piece, square: Square },
    /// A square is emptied.
    Empty(Square),
}

fn problem(part: &Part, offset: usize, reason: CourierReason) -> MoveProblem {
    let (line, column) = part.place(offset);
    MoveProblem {
        line,
        column,
        reason: MoveReason::GameCourier(reason),
    }
}

/// Why a Game Courier turn cannot be read or fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CourierReason {
    /// A part with no `-`, `*` or `x` between squares.
    #[error("`{0}` is not a Game Courier move")]
    NotAMove(String),
    /// A square off the board.
    #[error("`{square}` is not a square of this {files}x{ranks} board")]
    NotASquare {
        /// The square as written.
        square: String,
        /// The board's files.
        files: u8,
        /// The board's ranks.
        ranks: u8,
    },
    /// A label before the move and another glued to its square.
    #[error("two piece labels: `{0}` and `{1}`")]
    TwoLabels(String, String),
    /// A piece put on a square without a label.
    #[error("`{0}` does not say which piece to put on the square")]
    NoPieceToPut(String),
    /// A label that names no piece.
    #[error(
        "unknown piece label `{label}` (labels of {variant}: {}; map others with --label \
         OURS=THEIRS)",
        .known.join(" ")
    )]
    UnknownLabel {
        /// The label.
        label: String,
        /// The variant's id.
        variant: &'static str,
        /// The variant's labels, in piece order.
        known: Vec<String>,
    },
    /// A label of the side not to move.
    #[error(
        "the label `{label}` names a {} piece, but {} is to move",
        colour_name(*.owner), colour_name(.owner.flip())
    )]
    OtherSidesLabel {
        /// The label.
        label: String,
        /// The side its piece belongs to.
        owner: Colour,
    },
    /// More than two moving parts.
    #[error("a turn has at most two moving parts (the King's and the Rook's in castling)")]
    TooManyMovingParts,
    /// Two promotions on one square.
    #[error("two promotions on {0}")]
    TwoPromotions(Square),
    /// A turn that fits no legal move: why, when something simple says so, and the closest
    /// legal moves, closest first.
    #[error(
        "illegal: not a legal move here{} ({})",
        .why.as_ref().map(|w| format!(": {w}")).unwrap_or_default(),
        list_moves(.closest)
    )]
    NoFit {
        /// What rules the turn out.
        why: Option<TurnUnplayable>,
        /// The legal moves, closest first, as Game Courier writes them.
        closest: Vec<String>,
    },
    /// A turn that fits several legal moves.
    #[error("ambiguous: it fits {} legal moves ({})", .0.len(), .0.join(", "))]
    Ambiguous(Vec<String>),
    /// A label naming another piece than the one that moves.
    #[error("the label names a {label}, but {from} holds {}", .holds.map_or("nothing".to_string(), |h| format!("a {h}")))]
    WrongLabel {
        /// The name of the piece the label names.
        label: &'static str,
        /// The square moved from.
        from: Square,
        /// The name of the piece there.
        holds: Option<&'static str>,
    },
    /// An emptied square the move does not capture on.
    #[error("this turn captures nothing on {0}, so it cannot be emptied")]
    CapturesNothing(Square),
    /// An emptied square the move captures on by landing there (its own piece would go).
    #[error("this turn's move lands on {0}, capturing there, so {0} cannot be emptied")]
    EmptiesLanding(Square),
}

impl CourierReason {
    /// Whether the text could not be read at all.
    pub fn unreadable(&self) -> bool {
        matches!(
            self,
            CourierReason::NotAMove(_)
                | CourierReason::NotASquare { .. }
                | CourierReason::TwoLabels(..)
                | CourierReason::NoPieceToPut(_)
                | CourierReason::UnknownLabel { .. }
        )
    }
}

/// What simply rules a Game Courier turn out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnUnplayable {
    /// A moving piece of the side not to move.
    #[error(
        "the piece on {square} is {}'s, but {} is to move",
        colour_name(*.owner), colour_name(.owner.flip())
    )]
    OtherSidesPiece {
        /// The square.
        square: Square,
        /// The side the piece belongs to.
        owner: Colour,
    },
    /// A drop of a piece not in hand.
    #[error("{} has no {piece} in hand", colour_name(*.side))]
    NotInHand {
        /// The side to move.
        side: Colour,
        /// The piece's name.
        piece: &'static str,
    },
}

/// Reads one part (`P e2-e4`, `Ng1-f3`, `Q-e8`, `N*b2`, `e5-`, `@-e5`).
fn read_part(pos: &Position, part: &Part, labels: &Labels) -> Result<Action, MoveProblem> {
    let v = pos.variant();
    let g = &v.geometry;
    let text = part.text.as_str();
    let (mut label, rest, rest_offset) = match text.split_once(' ') {
        Some((l, r)) => (
            Some((l, 0)),
            r.trim_start(),
            text.len() - r.trim_start().len(),
        ),
        None => (None, text, 0),
    };
    let unreadable = |offset: usize, reason: CourierReason| problem(part, offset, reason);
    let op = rest
        .find(['-', '*'])
        .or_else(|| {
            let b = rest.as_bytes();
            (1..b.len()).find(|&i| b[i] == b'x' && b[i - 1].is_ascii_digit())
        })
        .ok_or_else(|| unreadable(rest_offset, CourierReason::NotAMove(rest.to_string())))?;
    let left = &rest[..op];
    // Check and annotation marks some players add are not Game Courier's, but harmless.
    let right = rest[op + 1..].trim_end_matches(['+', '#', '!', '?']);
    let square = |s: &str, offset: usize| {
        g.parse_square(s).ok_or_else(|| {
            unreadable(
                offset,
                CourierReason::NotASquare {
                    square: s.to_string(),
                    files: g.files,
                    ranks: g.ranks,
                },
            )
        })
    };
    let right_offset = rest_offset + op + 1;
    if left == "@" {
        return Ok(Action::Empty(square(right, right_offset)?));
    }
    // Where the square at the end of `left` starts, if it ends with one.
    let lb = left.as_bytes();
    let digits = lb.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let square_start =
        (digits > 0 && lb.len() > digits && lb[lb.len() - digits - 1].is_ascii_lowercase())
            .then(|| lb.len() - digits - 1);
    let op_char = rest.as_bytes()[op];
    match square_start {
        Some(start) if op_char != b'*' => {
            let from = square(&left[start..], rest_offset + start)?;
            if start > 0 {
                if label.is_some() {
                    return Err(unreadable(
                        rest_offset,
                        CourierReason::TwoLabels(
                            text.split(' ').next().unwrap_or("").to_string(),
                            left[..start].to_string(),
                        ),
                    ));
                }
                label = Some((&left[..start], rest_offset));
            }
            if right.is_empty() {
                return Ok(Action::Empty(from));
            }
            let to = square(right, right_offset)?;
            let label = match label {
                Some((l, offset)) => Some((resolve(pos, part, labels, l, offset)?, offset)),
                None => None,
            };
            Ok(Action::Move { label, from, to })
        }
        _ => {
            // `Q-e8`, `N*b2`: a piece put on a square.
            let (name, offset) = match (label, left.is_empty()) {
                (None, false) => (left, rest_offset),
                (Some((l, offset)), true) => (l, offset),
                _ => {
                    return Err(unreadable(
                        rest_offset,
                        CourierReason::NoPieceToPut(text.to_string()),
                    ));
                }
            };
            let piece = resolve(pos, part, labels, name, offset)?;
            Ok(Action::Put {
                piece,
                square: square(right, right_offset)?,
            })
        }
    }
}

fn resolve(
    pos: &Position,
    part: &Part,
    labels: &Labels,
    label: &str,
    offset: usize,
) -> Result<Piece, MoveProblem> {
    let v = pos.variant();
    let piece = labels.resolve(v, label).ok_or_else(|| {
        let known: Vec<String> = (0..v.spec.pieces.len() as u8)
            .map(|k| labels.label(v, k))
            .collect();
        problem(
            part,
            offset,
            CourierReason::UnknownLabel {
                label: label.to_string(),
                variant: v.spec.id,
                known,
            },
        )
    })?;
    if piece.colour != pos.side() {
        return Err(problem(
            part,
            offset,
            CourierReason::OtherSidesLabel {
                label: label.to_string(),
                owner: piece.colour,
            },
        ));
    }
    Ok(piece)
}

/// The castling `m` is, as (King from, King to, Rook from, Rook to).
fn castling(pos: &Position, m: &Move) -> Option<(Square, Square, Square, Square)> {
    use crate::position::flags;
    let wing = if m.flags & flags::CASTLE_KING != 0 {
        Wing::King
    } else if m.flags & flags::CASTLE_QUEEN != 0 {
        Wing::Queen
    } else {
        return None;
    };
    let spec = pos.rules().castles[pos.side().index()][wing as usize]?;
    Some((spec.king_from, spec.king_to, spec.rook_from, spec.rook_to))
}

/// The legal move a written Game Courier turn names.
///
/// # Errors
/// A part that cannot be read, an unknown label or one of the wrong side, a turn that fits no
/// legal move (with the closest ones) or several.
pub fn interpret(pos: &Position, written: &Written, labels: &Labels) -> Result<Move, MoveProblem> {
    let v = pos.variant();
    let mut actions = Vec::with_capacity(written.parts.len());
    for part in &written.parts {
        actions.push((read_part(pos, part, labels)?, part));
    }
    let first = &written.parts[0];
    let moving: Vec<(Square, Square, &Part)> = actions
        .iter()
        .filter_map(|(a, p)| match a {
            Action::Move { from, to, .. } => Some((*from, *to, *p)),
            _ => None,
        })
        .collect();
    if moving.len() > 2 {
        return Err(problem(moving[2].2, 0, CourierReason::TooManyMovingParts));
    }
    let landing = moving.first().map(|m| m.1);
    let mut promotion = None;
    let mut placements: Vec<(u8, Square)> = Vec::new();
    let mut emptied = Vec::new();
    for (a, p) in &actions {
        match a {
            Action::Put { piece, square } if Some(*square) == landing && moving.len() == 1 => {
                if promotion.replace(piece.kind).is_some() {
                    return Err(problem(p, 0, CourierReason::TwoPromotions(*square)));
                }
            }
            Action::Put { piece, square } => placements.push((piece.kind, *square)),
            Action::Empty(sq) => emptied.push((*sq, *p)),
            Action::Move { .. } => {}
        }
    }
    placements.sort_by_key(|(_, sq)| (sq.file(), sq.rank()));
    let legal = pos.legal_moves();
    let fits = |m: &Move| {
        let castle = castling(pos, m);
        let moving_fits = match moving.as_slice() {
            [] => !m.has_moving_part(),
            [(from, to, _)] => {
                m.has_moving_part()
                    && ((m.from, m.to) == (*from, *to)
                        || castle.is_some_and(|(kf, _, rf, _)| (rf, kf) == (*from, *to)))
            }
            [(f1, t1, _), (f2, t2, _)] => castle.is_some_and(|(kf, kt, rf, rt)| {
                let given = [(*f1, *t1), (*f2, *t2)];
                given.contains(&(kf, kt)) && given.contains(&(rf, rt))
            }),
            _ => false,
        };
        moving_fits
            && m.placement_list().eq(placements.iter().copied())
            && promotion.is_none_or(|k| m.promotion == k + 1)
    };
    let fitting: Vec<&Move> = legal.iter().filter(|m| fits(m)).collect();
    let m = match fitting.as_slice() {
        [m] => **m,
        [] => {
            return Err(problem(first, 0, no_fit(pos, &actions, &legal, labels)));
        }
        several => {
            let texts: Vec<String> = several.iter().map(|m| write(pos, m, labels)).collect();
            return Err(problem(first, 0, CourierReason::Ambiguous(texts)));
        }
    };
    // Labels must name the pieces that move.
    for (a, p) in &actions {
        if let Action::Move {
            label: Some((piece, offset)),
            from,
            ..
        } = a
            && pos.piece_at(*from) != Some(*piece)
        {
            return Err(problem(
                p,
                *offset,
                CourierReason::WrongLabel {
                    label: v.spec.pieces[piece.kind as usize].name,
                    from: *from,
                    holds: pos
                        .piece_at(*from)
                        .map(|q| v.spec.pieces[q.kind as usize].name),
                },
            ));
        }
    }
    // Emptied squares must be squares the move captures on.
    let after = pos.play(m);
    for (sq, p) in emptied {
        let enemy = pos.piece_at(sq).is_some_and(|q| q.colour != pos.side());
        // The move lands there: it does capture, but its own piece would be emptied.
        let landed = after.piece_at(sq).is_some_and(|q| q.colour == pos.side());
        if enemy && landed {
            return Err(problem(p, 0, CourierReason::EmptiesLanding(sq)));
        }
        if !enemy || after.piece_at(sq).is_some() {
            return Err(problem(p, 0, CourierReason::CapturesNothing(sq)));
        }
    }
    Ok(m)
}

/// Why a turn fits no legal move, with the closest legal moves.
fn no_fit(
    pos: &Position,
    actions: &[(Action, &Part)],
    legal: &[Move],
    labels: &Labels,
) -> CourierReason {
    let v = pos.variant();
    let side = pos.side();
    let mut why = None;
    let mut from_to = None;
    for (a, _) in actions {
        match a {
            Action::Move { from, to, .. } => {
                from_to.get_or_insert((*from, *to));
                if let Some(q) = pos.piece_at(*from)
                    && q.colour != side
                    && why.is_none()
                {
                    why = Some(TurnUnplayable::OtherSidesPiece {
                        square: *from,
                        owner: q.colour,
                    });
                }
            }
            Action::Put { piece, .. } if why.is_none() => {
                let count = actions
                    .iter()
                    .filter(|(b, _)| matches!(b, Action::Put { piece: p, .. } if p == piece))
                    .count();
                if v.spec.hand != crate::variant::HandKind::None
                    && (pos.hand_count(side, piece.kind) as usize) < count
                {
                    why = Some(TurnUnplayable::NotInHand {
                        side,
                        piece: v.spec.pieces[piece.kind as usize].name,
                    });
                }
            }
            _ => {}
        }
    }
    let mut closest: Vec<(u8, String)> = legal
        .iter()
        .map(|m| {
            let rank = match from_to {
                Some((f, t)) if m.from == f && m.to == t => 0,
                Some((f, _)) if m.from == f => 1,
                Some((_, t)) if m.to == t => 2,
                None if !m.has_moving_part() => 0,
                _ => 3,
            };
            (rank, write(pos, m, labels))
        })
        .collect();
    closest.sort();
    CourierReason::NoFit {
        why,
        closest: closest.into_iter().map(|(_, t)| t).collect(),
    }
}

/// A legal move in Game Courier notation as we write it: the label and the King's move for
/// castling, the promotion as a `;` part putting the new piece on the square, placements as
/// drops (`B f1-b5; N*a2`, `E*b1; N*c1; N*h1; E*i1`).
pub fn write(pos: &Position, m: &Move, labels: &Labels) -> String {
    let v = pos.variant();
    let side = pos.side();
    let label = |kind: u8| labels.of(v, Piece { kind, colour: side });
    let mut parts = Vec::new();
    if m.has_moving_part() {
        let mover = pos
            .piece_at(m.from)
            .map_or_else(|| "?".to_string(), |p| labels.of(v, p));
        parts.push(format!("{mover} {}-{}", m.from, m.to));
        if m.promotion != 0 {
            parts.push(format!("{}-{}", label(m.promotion - 1), m.to));
        }
    }
    for (kind, sq) in m.placement_list() {
        parts.push(format!("{}*{sq}", label(kind)));
    }
    if parts.is_empty() {
        return move_text(pos, m);
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::variants;

    fn start(variant: &str, fen: Option<&str>) -> Position {
        let rules = variants::rules(variant).expect("variant");
        parse_position(rules, fen.unwrap_or(&rules.start_fen())).expect("fen")
    }

    fn turn_texts(record: &str) -> Vec<String> {
        games(record).expect("readable")[0]
            .moves
            .iter()
            .map(|m| m.text(super::super::Notation::GameCourier))
            .collect()
    }

    fn read(pos: &Position, turn: &str) -> Result<String, MoveProblem> {
        let game = &games(turn).expect("readable")[0];
        interpret(pos, &game.moves[0], &Labels::default()).map(|m| move_text(pos, &m))
    }

    #[test]
    fn turns_labels_comments_and_joins() {
        assert_eq!(
            turn_texts(
                "1. P e2-e4 1... p e7-e5 2. N g1-f3 // develop\n2... n b8-c6\n3. P e7-e8;Q-e8 K e1-g1 ; R h1-f1"
            ),
            [
                "P e2-e4",
                "p e7-e5",
                "N g1-f3",
                "n b8-c6",
                "P e7-e8; Q-e8",
                "K e1-g1; R h1-f1"
            ]
        );
        let e = games("1. P e7-e8;\n2. e2-e4").expect_err("truncated");
        assert_eq!((e.ply, e.line, e.column), (Some(1), 2, 1), "{e}");
        let e = games("1. P e7-e8 ;").expect_err("truncated at the end");
        assert_eq!(e.ply, Some(1), "{e}");
        let e = games("1. e2-e4 N 2. d2-d4").expect_err("label alone");
        assert_eq!((e.ply, e.column), (Some(2), 10), "{e}");
    }

    #[test]
    fn moves_drops_promotions_and_castling() {
        let chess = start("chess", Some("r3k3/1P6/8/3pP3/8/8/8/R3K2R w KQq d6 0 1"));
        assert_eq!(read(&chess, "P e5-d6").unwrap(), "e5d6");
        assert_eq!(read(&chess, "P e5-d6; @-d5").unwrap(), "e5d6");
        assert_eq!(read(&chess, "e5xd6; d5-").unwrap(), "e5d6");
        assert_eq!(read(&chess, "P b7-b8; Q-b8").unwrap(), "b7b8q");
        assert_eq!(read(&chess, "b7-a8; N*a8").unwrap(), "b7a8n");
        assert_eq!(read(&chess, "K e1-g1").unwrap(), "e1g1");
        assert_eq!(read(&chess, "R h1-f1; K e1-g1").unwrap(), "e1g1");
        assert_eq!(read(&chess, "R a1-e1").unwrap(), "e1c1");
        assert_eq!(read(&chess, "Ra1-a7").unwrap(), "a1a7");
        for (turn, column, fragment) in [
            ("P b7-b8", 1, "ambiguous"),
            ("p d5-d4", 1, "Black piece, but White is to move"),
            ("d5-d4", 1, "is Black's, but White is to move"),
            ("N a1-a7", 1, "holds a Rook"),
            ("Z a1-a7", 1, "unknown piece label `Z`"),
            ("P e5-e6; d5-", 10, "captures nothing on d5"),
            (
                "R a1-a8; a8-",
                10,
                "lands on a8, capturing there, so a8 cannot be emptied",
            ),
        ] {
            let e = read(&chess, turn).expect_err(turn);
            assert!(
                e.reason.to_string().contains(fragment),
                "{turn}: {}",
                e.reason
            );
            assert_eq!(e.column, column, "{turn}: {}", e.reason);
        }

        let se = start(
            "silver-elephant",
            Some(variants::silver_elephant::SETUP_FEN),
        );
        assert_eq!(
            read(&se, "N*h1; E*b1; E*i1; N*c1").unwrap(),
            "E@b1,N@c1,N@h1,E@i1"
        );
        let cerimon = start("cerimon", Some("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"));
        let e = read(&cerimon, "B*c1").expect_err("no Bishop in hand");
        assert!(
            e.reason.to_string().contains("White has no Bishop in hand"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn labels_map_a_presets_letters() {
        let v = variants::get("cerimon").expect("variant");
        let labels = Labels::new(v, &["T=A".into(), "s=p".into()]).expect("labels");
        let pos = start("cerimon", None);
        let game = &games("P c2-c4").expect("readable")[0];
        let m = interpret(&pos, &game.moves[0], &labels).expect("legal");
        assert_eq!(move_text(&pos, &m), "c2c4");
        assert_eq!(write(&pos, &m, &labels), "P c2-c4");
        assert!(Labels::new(v, &["Q=A".into()]).is_err());
        assert_eq!(
            Labels::new(v, &["T=N".into()]),
            Err(LabelError::Ambiguous {
                label: "N".into(),
                variant: "cerimon"
            })
        );
        let refused = |pair: &str| match Labels::new(v, &[pair.into(), "t=b".into()]) {
            Err(LabelError::Pair { reason, .. }) => reason,
            other => panic!("{pair}: {other:?}"),
        };
        assert_eq!(refused("T"), LabelReason::NotAPair);
        assert_eq!(refused("T=A-"), LabelReason::Character);
        // A label with no letter A-Z has no lower case: both sides would share it.
        for (pair, label) in [("T=É", "É"), ("T=é", "é"), ("T=+1", "+1"), ("T=Ω", "Ω")] {
            assert_eq!(refused(pair), LabelReason::NoCase(label.into()), "{pair}");
        }
        assert!(Labels::new(v, &["T=ÉA".into()]).is_ok());
        assert_eq!(refused("T=A"), LabelReason::MappedTwice("T".into()));
        // The same pair twice (in either case) is one pair.
        assert_eq!(
            Labels::new(v, &["T=A".into(), "t=a".into()]),
            Labels::new(v, &["T=A".into()])
        );
        assert!(matches!(refused("X=A"), LabelReason::UnknownPiece { .. }));
        assert_eq!(
            Labels::new(v, &["T=A;".into()]).map_err(|e| e.to_string()),
            Err("--label `T=A;`: a label cannot hold spaces, `-`, `*`, `;` or `@`".into())
        );
    }
}
