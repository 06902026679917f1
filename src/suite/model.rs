//! The suite file as written: plain serde types mirroring the YAML, with unknown keys refused.
//!
//! Nothing here is validated beyond types; [`super::load`] turns a [`SuiteFile`] into a checked
//! [`super::Suite`]. The field names are the YAML keys (kebab-case).

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// A mapping whose keys must differ once read as `K` (suites' and probe files' maps): a map
/// would keep the last of two silently, and YAML compares keys only as written
/// (`{1: 999, !!str 1: 20}` are two keys to it, one depth here).
pub(crate) fn unique<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Debug,
    V: Deserialize<'de>,
{
    struct Unique<K, V>(PhantomData<(K, V)>);
    impl<'de, K, V> Visitor<'de> for Unique<K, V>
    where
        K: Deserialize<'de> + Ord + fmt::Debug,
        V: Deserialize<'de>,
    {
        type Value = BTreeMap<K, V>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a mapping")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((key, value)) = map.next_entry::<K, V>()? {
                if out.contains_key(&key) {
                    return Err(de::Error::custom(format_args!(
                        "duplicate entry with key {key:?}"
                    )));
                }
                out.insert(key, value);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(Unique(PhantomData))
}

/// A whole suite file.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a suite: a mapping with variant, description, game-end, options and cases"
)]
pub struct SuiteFile {
    /// Variant id (`cvperft variants`).
    pub variant: String,
    /// What the suite covers.
    pub description: String,
    /// GE-1 mode every case uses unless it overrides it: stated, never implied.
    pub game_end: GameEndFile,
    /// Default rule options for every case (`name: value`); `game-end` is not allowed here.
    #[serde(default, deserialize_with = "unique")]
    pub options: BTreeMap<String, String>,
    /// The cases, in file order.
    pub cases: Vec<CaseFile>,
}

/// GE-1 as written in a suite.
#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GameEndFile {
    /// Decided positions (checkmate, stalemate, the variant's own rules) have no moves.
    Rules,
    /// Only positions without legal moves end.
    Movegen,
}

impl GameEndFile {
    /// The option value's spelling.
    pub fn name(self) -> &'static str {
        match self {
            GameEndFile::Rules => "rules",
            GameEndFile::Movegen => "movegen",
        }
    }
}

/// One case as written.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a case: a mapping with id, source and at least one expectation"
)]
pub struct CaseFile {
    /// Stable id, unique in the file: `[a-z0-9][a-z0-9-]*`.
    pub id: String,
    /// Position (default: the start position under the case's options).
    pub fen: Option<String>,
    /// Moves played from `fen` before the checks (space separated).
    pub moves: Option<String>,
    /// Option overrides (`game-end` included).
    #[serde(default, deserialize_with = "unique")]
    pub options: BTreeMap<String, String>,
    /// Ruling ids the case exercises.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Expected perft by depth.
    #[serde(default, deserialize_with = "unique")]
    pub perft: BTreeMap<u32, u64>,
    /// Expected full divide.
    pub divide: Option<DivideFile>,
    /// Moves that must be legal.
    #[serde(default)]
    pub legal: Vec<String>,
    /// Well-formed moves that must not be legal.
    #[serde(default)]
    pub illegal: Vec<String>,
    /// Expected game state.
    pub outcome: Option<OutcomeFile>,
    /// Where the expectations come from.
    pub source: SourceFile,
    /// Kept out of default runs.
    #[serde(default)]
    pub slow: bool,
    /// A deep count (hours of CPU, docs/records.md): run only by `check --deep`, never by
    /// `--slow` or the tests.
    #[serde(default)]
    pub deep: bool,
    /// normal, disputed or xfail.
    #[serde(default)]
    pub status: StatusFile,
    /// Why the case is disputed or expected to fail.
    pub reason: Option<String>,
    /// For disputed cases: the other readings and what each expects.
    #[serde(default)]
    pub alternatives: Vec<AlternativeFile>,
    /// Free text.
    pub note: Option<String>,
}

/// An expected divide: every root move with its count.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a divide: a mapping with depth and moves"
)]
pub struct DivideFile {
    /// Depth (at least 1).
    pub depth: u32,
    /// Move text → perft(depth - 1) after it.
    #[serde(deserialize_with = "unique")]
    pub moves: BTreeMap<String, u64>,
}

/// Expected game state.
#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeFile {
    /// White has won.
    WhiteWins,
    /// Black has won.
    BlackWins,
    /// Drawn.
    Draw,
    /// The game goes on.
    Ongoing,
}

impl OutcomeFile {
    /// The suite spelling.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeFile::WhiteWins => "white-wins",
            OutcomeFile::BlackWins => "black-wins",
            OutcomeFile::Draw => "draw",
            OutcomeFile::Ongoing => "ongoing",
        }
    }
}

/// A case's status.
#[derive(Copy, Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StatusFile {
    /// Every check must pass.
    #[default]
    Normal,
    /// The main expectation must pass; alternatives are checked under their options.
    Disputed,
    /// Every check is expected to fail; a pass is reported as a failure.
    Xfail,
}

impl StatusFile {
    /// The suite spelling.
    pub fn name(self) -> &'static str {
        match self {
            StatusFile::Normal => "normal",
            StatusFile::Disputed => "disputed",
            StatusFile::Xfail => "xfail",
        }
    }
}

/// Where a case's expectations come from.
#[derive(Clone, Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a source: a mapping with kind and its fields"
)]
pub struct SourceFile {
    /// The kind of source.
    pub kind: SourceKind,
    /// Publication the numbers come from (required for `public`).
    pub citation: Option<String>,
    /// How the expectation was worked out by hand (required for `hand`).
    pub derivation: Option<String>,
    /// Command that produced the numbers (required for `fairy-stockfish` and `reference`).
    pub command: Option<String>,
    /// How reference numbers were cross-checked, or `none` (required for `reference`).
    pub cross_check: Option<String>,
}

/// The kinds of source.
#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// A published table.
    Public,
    /// Worked out by hand.
    Hand,
    /// Fairy-Stockfish's output.
    FairyStockfish,
    /// This project's reference generator.
    Reference,
}

impl SourceKind {
    /// The suite spelling.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Public => "public",
            SourceKind::Hand => "hand",
            SourceKind::FairyStockfish => "fairy-stockfish",
            SourceKind::Reference => "reference",
        }
    }
}

/// Another reading of a disputed case.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "an alternative: a mapping with reading, options and expectations"
)]
pub struct AlternativeFile {
    /// The reading in words (which option value, whose interpretation).
    pub reading: String,
    /// Options that select the reading (on top of the case's); none when no option does.
    #[serde(default, deserialize_with = "unique")]
    pub options: BTreeMap<String, String>,
    /// Expected perft by depth under this reading.
    #[serde(default, deserialize_with = "unique")]
    pub perft: BTreeMap<u32, u64>,
    /// Expected divide under this reading.
    pub divide: Option<DivideFile>,
    /// Moves legal under this reading.
    #[serde(default)]
    pub legal: Vec<String>,
    /// Moves illegal under this reading.
    #[serde(default)]
    pub illegal: Vec<String>,
    /// Game state under this reading.
    pub outcome: Option<OutcomeFile>,
}
