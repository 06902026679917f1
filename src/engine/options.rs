//! The settings of an external engine as a front end receives them (text, as typed on a
//! command line or passed from another language), checked into an [`EngineConfig`].
//!
//! `diff`, `identify`, `check --engine` and `add-case --engine` take the same settings; they
//! are read here once, so that every front end refuses the same values with the same words.

use super::mapping::{CastlingStyle, MapError, MoveMap};
use super::session::DEFAULT_FAILURE_LIMIT;
use super::{DEFAULT_TIMEOUT_SECS, EngineConfig, Protocol};
use std::time::Duration;

/// Longest time one question may be given, in seconds (a day).
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// Shortest time one question may be given, in seconds (a nanosecond, the clock's step: a
/// shorter timeout would be no time at all).
pub const MIN_TIMEOUT_SECS: f64 = 1e-9;

/// How to start and talk to one external engine, unchecked.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// The command line, shell-quoted.
    pub command: String,
    /// `uci` or `perftree`.
    pub protocol: String,
    /// `UCI_Variant` to select (UCI only).
    pub variant: Option<String>,
    /// UCI options, `name=value` each, sent in order.
    pub options: Vec<String>,
    /// How the engine writes castling: `king-move` or `king-to-rook`.
    pub castling: String,
    /// Spelling pairs `OURS=THEIRS` (see [`MoveMap::add_pair`]).
    pub map: Vec<String>,
    /// Seconds one question may take.
    pub timeout: f64,
    /// Consecutive time-outs or crashes after which the engine is not asked again (0: never).
    pub failure_limit: usize,
}

impl EngineOptions {
    /// The settings of `command` with every other value at its default.
    pub fn new(command: impl Into<String>) -> EngineOptions {
        EngineOptions {
            command: command.into(),
            protocol: Protocol::Uci.name().to_string(),
            variant: None,
            options: Vec::new(),
            castling: "king-move".to_string(),
            map: Vec::new(),
            timeout: DEFAULT_TIMEOUT_SECS,
            failure_limit: DEFAULT_FAILURE_LIMIT,
        }
    }

    /// The command-line flags that give these settings (`--engine CMD` first; values at
    /// their defaults left out), shell-quoted: for the commands a report offers to reproduce.
    pub fn flags(&self) -> Vec<String> {
        use super::process::shell_quote;
        let mut out = vec!["--engine".to_string(), shell_quote(&self.command)];
        if self.protocol != Protocol::Uci.name() {
            out.extend(["--protocol".to_string(), self.protocol.clone()]);
        }
        if let Some(v) = &self.variant {
            out.extend(["--engine-variant".to_string(), shell_quote(v)]);
        }
        for o in &self.options {
            out.extend(["--engine-option".to_string(), shell_quote(o)]);
        }
        if self.castling != "king-move" {
            out.extend(["--map-castling".to_string(), self.castling.clone()]);
        }
        for m in &self.map {
            out.extend(["--map".to_string(), shell_quote(m)]);
        }
        if self.timeout != DEFAULT_TIMEOUT_SECS {
            out.extend(["--timeout".to_string(), self.timeout.to_string()]);
        }
        if self.failure_limit != DEFAULT_FAILURE_LIMIT {
            out.extend([
                "--max-engine-failures".to_string(),
                self.failure_limit.to_string(),
            ]);
        }
        out
    }

    /// The configuration these settings describe, every value checked.
    ///
    /// # Errors
    /// The first bad value, in the order protocol, options, timeout, castling style, map.
    pub fn config(&self) -> Result<EngineConfig, EngineOptionError> {
        let protocol = Protocol::parse(&self.protocol)
            .ok_or_else(|| EngineOptionError::Protocol(self.protocol.clone()))?;
        let mut config = EngineConfig::new(&self.command, protocol);
        if let Some(v) = &self.variant {
            one_line("--engine-variant", v)?;
        }
        config.variant = self.variant.clone();
        for o in &self.options {
            one_line("--engine-option", o)?;
            config.options.push(parse_option(o)?);
        }
        if !(self.timeout >= MIN_TIMEOUT_SECS && self.timeout <= MAX_TIMEOUT_SECS) {
            return Err(EngineOptionError::Timeout(self.timeout));
        }
        config.timeout = Duration::from_secs_f64(self.timeout);
        config.failure_limit = self.failure_limit;
        let mut move_map = MoveMap {
            castling: CastlingStyle::parse(&self.castling)
                .ok_or_else(|| EngineOptionError::Castling(self.castling.clone()))?,
            ..MoveMap::default()
        };
        for pair in &self.map {
            one_line("--map", pair)?;
            move_map.add_pair(pair)?;
        }
        config.map = move_map;
        Ok(config)
    }
}

/// Refuses a value sent to the engine within one line (or one word) that holds a line break or
/// another control character: the rest would reach the engine as a command of its own.
///
/// # Errors
/// [`EngineOptionError::ControlCharacter`] naming `flag`.
pub fn one_line(flag: &'static str, value: &str) -> Result<(), EngineOptionError> {
    match value.chars().any(char::is_control) {
        true => Err(EngineOptionError::ControlCharacter {
            flag,
            value: value.to_string(),
        }),
        false => Ok(()),
    }
}

/// Parses a `name=value` engine option (the value may contain `=` and spaces).
///
/// # Errors
/// No `=` or an empty name.
pub fn parse_option(text: &str) -> Result<(String, String), EngineOptionError> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(EngineOptionError::NotAnOption(text.to_string())),
    }
}

/// Why engine settings are refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineOptionError {
    /// Neither `uci` nor `perftree`.
    #[error("unknown protocol `{0}`")]
    Protocol(String),
    /// An engine option without `=` or without a name.
    #[error("engine option `{0}` is not of the form name=value")]
    NotAnOption(String),
    /// A timeout under [`MIN_TIMEOUT_SECS`] or over [`MAX_TIMEOUT_SECS`] (or not a number).
    #[error("--timeout {0}: expected at least 0.000000001 and at most 86400 seconds")]
    Timeout(f64),
    /// A value sent to the engine in a line of its own holding a line break or another control
    /// character.
    #[error(
        "{flag} {value:?}: a line break or other control character would reach the engine as \
         text of its own"
    )]
    ControlCharacter {
        /// The flag that gave it.
        flag: &'static str,
        /// The value as given.
        value: String,
    },
    /// Neither `king-move` nor `king-to-rook`.
    #[error("unknown castling style `{0}`")]
    Castling(String),
    /// A spelling pair refused.
    #[error(transparent)]
    Map(#[from] MapError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_split_at_the_first_equals() {
        assert_eq!(
            parse_option("VariantPath=/a=b c"),
            Ok(("VariantPath".into(), "/a=b c".into()))
        );
        assert_eq!(
            parse_option("novalue"),
            Err(EngineOptionError::NotAnOption("novalue".into()))
        );
        assert!(parse_option("=x").is_err());
    }

    #[test]
    fn every_setting_is_checked() {
        let good = EngineOptions {
            options: vec!["Threads=1".into()],
            map: vec!["e=x".into()],
            castling: "king-to-rook".into(),
            ..EngineOptions::new("engine")
        };
        let config = good.config().expect("good settings");
        assert_eq!(config.options, vec![("Threads".into(), "1".into())]);
        assert_eq!(config.map.castling, CastlingStyle::KingToRook);
        assert_eq!(config.map.pieces, vec![('E', 'X')]);
        let refused = |change: fn(&mut EngineOptions)| {
            let mut options = good.clone();
            change(&mut options);
            options.config().expect_err("refused").to_string()
        };
        assert_eq!(
            refused(|o| o.protocol = "xboard".into()),
            "unknown protocol `xboard`"
        );
        assert_eq!(
            refused(|o| o.timeout = 0.0),
            "--timeout 0: expected at least 0.000000001 and at most 86400 seconds"
        );
        assert_eq!(
            refused(|o| o.timeout = 4e-10),
            "--timeout 0.0000000004: expected at least 0.000000001 and at most 86400 seconds"
        );
        assert!(
            EngineOptions {
                timeout: 1e-9,
                ..good.clone()
            }
            .config()
            .is_ok()
        );
        assert_eq!(
            refused(|o| o.timeout = f64::NAN),
            "--timeout NaN: expected at least 0.000000001 and at most 86400 seconds"
        );
        assert_eq!(
            refused(|o| o.castling = "rook".into()),
            "unknown castling style `rook`"
        );
        assert_eq!(
            refused(|o| o.map.push("x".into())),
            "--map `x` is not of the form OURS=THEIRS"
        );
    }
}
