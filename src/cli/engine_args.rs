//! The engine flags shared by `diff`, `identify`, `check` and `add-case`: `--engine` and how to
//! talk to it, turned into the library's [`EngineOptions`] (which checks them), and written
//! back as flags for the commands a report offers to reproduce.

use super::Failure;
use anyhow::Result;
use clap::Args;
use cvperft::engine::{DEFAULT_FAILURE_LIMIT, DEFAULT_TIMEOUT_SECS, EngineConfig, EngineOptions};

/// The engine under test, as the command line describes it.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine's command line, shell-quoted (e.g. "/usr/games/stockfish").
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    #[command(flatten)]
    pub settings: EngineSettings,
}

/// How to talk to an engine: every engine flag but `--engine` itself, shared by `diff`,
/// `identify`, `check` and `add-case` (in the last two `--engine` is optional, so each flag
/// requires it).
#[derive(Args, Debug, Clone)]
pub struct EngineSettings {
    /// How to talk to it.
    #[arg(long, default_value = "uci", value_parser = ["uci", "perftree"], requires = "engine")]
    pub protocol: String,
    /// UCI_Variant value to select (UCI only).
    #[arg(long, value_name = "NAME", requires = "engine")]
    pub engine_variant: Option<String>,
    /// UCI option `name=value` sent before the variant (repeatable; e.g. VariantPath=...).
    #[arg(long, value_name = "NAME=VALUE", requires = "engine")]
    pub engine_option: Vec<String>,
    /// How the engine writes castling.
    #[arg(long, default_value = "king-move", value_name = "STYLE", value_parser = ["king-move", "king-to-rook"], requires = "engine")]
    pub map_castling: String,
    /// A spelling map OURS=THEIRS: two letters map a piece letter, else a whole move
    /// (repeatable).
    #[arg(long = "map", value_name = "OURS=THEIRS", requires = "engine")]
    pub map: Vec<String>,
    /// Seconds an engine may take to answer one question (one deadline for the whole answer,
    /// however much it prints meanwhile) before its process group is killed.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_SECS, value_name = "SECONDS", requires = "engine", value_parser = super::parse_seconds)]
    pub timeout: f64,
    /// Stop asking an engine after N consecutive time-outs or crashes (0: never); `check`
    /// reports the checks left as skipped and exits 1.
    #[arg(long, default_value_t = DEFAULT_FAILURE_LIMIT, value_name = "N", requires = "engine")]
    pub max_engine_failures: usize,
}

impl EngineSettings {
    /// The library's settings of engine `command`, unchecked.
    pub fn options(&self, command: &str) -> EngineOptions {
        EngineOptions {
            command: command.to_string(),
            protocol: self.protocol.clone(),
            variant: self.engine_variant.clone(),
            options: self.engine_option.clone(),
            castling: self.map_castling.clone(),
            map: self.map.clone(),
            timeout: self.timeout,
            failure_limit: self.max_engine_failures,
        }
    }
}

impl EngineArgs {
    /// The library's settings, unchecked.
    pub fn options(&self) -> EngineOptions {
        self.settings.options(&self.engine)
    }

    /// The configuration of the engine under test.
    ///
    /// # Errors
    /// A bad setting (exit 2).
    pub fn config(&self) -> Result<EngineConfig> {
        config(&self.options())
    }

    /// The flags that reproduce this configuration, shell-quoted.
    pub fn flags(&self) -> Vec<String> {
        self.options().flags()
    }
}

/// Checks engine settings into a configuration.
///
/// # Errors
/// A bad setting (exit 2, the library's message).
pub fn config(options: &EngineOptions) -> Result<EngineConfig> {
    Ok(options
        .config()
        .map_err(|e| Failure::input(e.to_string()))?)
}
