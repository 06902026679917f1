//! A position as a front end asks for it: a variant id, rule options as `name=value` text, a
//! FEN (default: the variant's start position) and moves played from it.
//!
//! Every command that works on one position (`perft`, `divide`, `fen`, `diff`, ...) starts
//! here, and so can any other front end: [`rules_with_options`] builds the rules,
//! [`PositionRequest::position`] the position, each refusal typed with its reason as data.

use crate::echo::echo;
use crate::notation::{PlyError, PositionTextError, parse_position, play_moves};
use crate::position::Position;
use crate::variant::{OptionError, Rules};
use crate::variants;

/// Deepest perft a front end should accept: deeper runs could not finish in any budget.
pub const MAX_DEPTH: u32 = 15;
/// Most moves accepted in one path.
pub const MAX_MOVES: usize = 10_000;
/// Most worker threads a perft or divide accepts.
pub const MAX_THREADS: usize = 256;

/// Why rules cannot be built from a variant id and options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No variant has this id.
    #[error("unknown variant {} (variants: {list})", echo(.0), list = variants::IDS.join(", "))]
    UnknownVariant(String),
    /// An option without `=`.
    #[error("option {} is not of the form name=value", echo(.0))]
    NotNameValue(String),
    /// An unknown option or value.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// One option given two different values: the option, the first value and the other
    /// (boxed: errors travel in larger ones).
    #[error("option `{}` is given twice, as `{}` and as `{}`: give it once", .0.0, .0.1, .0.2)]
    Conflicting(Box<(String, String, String)>),
}

/// Why a path of moves cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// More than [`MAX_MOVES`] moves.
    #[error("{0} moves, at most {MAX_MOVES} are accepted")]
    TooMany(usize),
    /// A move that cannot be read or is not legal where it is played.
    #[error(transparent)]
    Illegal(#[from] PlyError),
}

/// Why a requested position cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The variant or an option.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The FEN.
    #[error("{}", .0.named())]
    Fen(#[from] PositionTextError),
    /// The moves.
    #[error("moves: {0}")]
    Moves(#[from] MovesError),
}

/// The rules of variant `variant` with `name=value` options applied in order (names and
/// values trimmed; `game-end` exists for every variant). One option given two different values
/// is refused: the last would win silently.
///
/// # Errors
/// An unknown variant, an option without `=`, an unknown option or value, an option given two
/// values.
pub fn rules_with_options(variant: &str, options: &[String]) -> Result<Rules, RulesError> {
    rules_over_defaults(variant, &[], options)
}

/// [`rules_with_options`] over `defaults` (a suite's options, applied first, which `options`
/// may override); only `options` must give each option once.
///
/// # Errors
/// As [`rules_with_options`].
pub fn rules_over_defaults(
    variant: &str,
    defaults: &[String],
    options: &[String],
) -> Result<Rules, RulesError> {
    let mut rules =
        variants::rules(variant).ok_or_else(|| RulesError::UnknownVariant(variant.to_string()))?;
    for option in defaults {
        let (name, value) = name_value(option)?;
        rules.set(name, value)?;
    }
    let mut given: Vec<(&str, &str)> = Vec::with_capacity(options.len());
    for option in options {
        let (name, value) = name_value(option)?;
        // The same value twice is harmless; two values would leave the last silently.
        if let Some(&(_, first)) = given.iter().find(|(n, _)| *n == name)
            && first != value
        {
            return Err(RulesError::Conflicting(Box::new((
                name.to_string(),
                first.to_string(),
                value.to_string(),
            ))));
        }
        given.push((name, value));
        rules.set(name, value)?;
    }
    Ok(rules)
}

/// `name=value`, both trimmed.
fn name_value(option: &str) -> Result<(&str, &str), RulesError> {
    let (name, value) = option
        .split_once('=')
        .ok_or_else(|| RulesError::NotNameValue(option.to_string()))?;
    Ok((name.trim(), value.trim()))
}

/// Plays `moves` (space-separated move text) from `pos`.
///
/// # Errors
/// More than [`MAX_MOVES`] moves, or the first move that cannot be played.
pub fn play_path(pos: &Position, moves: &str) -> Result<Position, MovesError> {
    let count = moves.split_whitespace().count();
    if count > MAX_MOVES {
        return Err(MovesError::TooMany(count));
    }
    Ok(play_moves(pos, moves)?)
}

/// A position: variant, options, FEN and moves, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionRequest {
    /// Variant id.
    pub variant: String,
    /// Rule options, `name=value` each.
    pub options: Vec<String>,
    /// The FEN to start from (default: the variant's start position).
    pub fen: Option<String>,
    /// Moves to play first, space-separated.
    pub moves: Option<String>,
}

impl PositionRequest {
    /// The start position of `variant` with every option at its default.
    pub fn start(variant: impl Into<String>) -> PositionRequest {
        PositionRequest {
            variant: variant.into(),
            ..PositionRequest::default()
        }
    }

    /// The rules asked for.
    ///
    /// # Errors
    /// As [`rules_with_options`].
    pub fn rules(&self) -> Result<Rules, RulesError> {
        rules_with_options(&self.variant, &self.options)
    }

    /// The FEN the moves start from: the one given, else the start position of `rules`.
    pub fn root_fen(&self, rules: &Rules) -> String {
        self.fen.clone().unwrap_or_else(|| rules.start_fen())
    }

    /// The position asked for.
    ///
    /// # Errors
    /// Bad rules, FEN or moves, checked in that order.
    pub fn position(&self) -> Result<Position, RequestError> {
        let rules = self.rules()?;
        let pos = parse_position(rules, &self.root_fen(&rules))?;
        match &self.moves {
            None => Ok(pos),
            Some(moves) => Ok(play_path(&pos, moves)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::to_fen;

    #[test]
    fn a_request_builds_its_position() {
        let request = PositionRequest {
            variant: "chess".into(),
            options: vec![" game-end = movegen ".into()],
            fen: None,
            moves: Some("e2e4 e7e5".into()),
        };
        let pos = request.position().expect("a position");
        assert_eq!(
            to_fen(&pos),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(pos.rules().option_pairs(), vec![("game-end", "movegen")]);
    }

    #[test]
    fn refusals_carry_their_reason() {
        let refused = |request: PositionRequest| match request.position() {
            Ok(_) => panic!("{request:?} is refused"),
            Err(e) => e,
        };
        assert_eq!(
            refused(PositionRequest::start("nosuch")),
            RequestError::Rules(RulesError::UnknownVariant("nosuch".into()))
        );
        let no_equals = PositionRequest {
            options: vec!["game-end".into()],
            ..PositionRequest::start("chess")
        };
        assert_eq!(
            refused(no_equals).to_string(),
            "option `game-end` is not of the form name=value"
        );
        let bad_fen = PositionRequest {
            fen: Some("8/8 w".into()),
            ..PositionRequest::start("chess")
        };
        assert!(matches!(refused(bad_fen), RequestError::Fen(_)));
        let illegal = PositionRequest {
            moves: Some("e2e4 e2e4".into()),
            ..PositionRequest::start("chess")
        };
        assert!(matches!(
            refused(illegal),
            RequestError::Moves(MovesError::Illegal(PlyError { ply: 2, .. }))
        ));
        let many = PositionRequest {
            moves: Some("a ".repeat(MAX_MOVES + 1)),
            ..PositionRequest::start("chess")
        };
        assert_eq!(
            refused(many).to_string(),
            "moves: 10001 moves, at most 10000 are accepted"
        );
    }
}
