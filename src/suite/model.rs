//! The suite file as written: plain serde types mirroring the YAML, with unknown keys refused.
//!
//! Nothing here is validated beyond types; [`super::load`] turns a [`SuiteFile`] into a checked
//! [`super::Suite`]. The field names are the YAML keys (kebab-case).

use super::load::MAX_DEPTH;
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

/// A whole number of a suite, a count or a depth, refused in words when it is not one: serde
/// would call `12.5` a "floating point" where a count was expected, and serde_yaml hands over
/// digits past the range of `u128` as a float, so that too long a count was called one too.
#[derive(Copy, Clone)]
enum Whole {
    /// A perft or divide count: 0 to `u64::MAX`.
    Count,
    /// A perft or divide depth: 1 to [`MAX_DEPTH`], the range checked by the loader.
    Depth,
}

impl Whole {
    fn what(self) -> &'static str {
        match self {
            Whole::Count => "count",
            Whole::Depth => "depth",
        }
    }

    /// The largest number read (a depth above [`MAX_DEPTH`] is refused by the loader).
    fn max(self) -> u64 {
        match self {
            Whole::Count => u64::MAX,
            Whole::Depth => u64::from(u32::MAX),
        }
    }

    /// The numbers allowed, in words.
    fn range(self) -> String {
        match self {
            Whole::Count => format!(
                "counts go from 0 to {} (2^64 - 1), the largest a suite can hold",
                u64::MAX
            ),
            Whole::Depth => format!("depths go from 1 to {MAX_DEPTH}"),
        }
    }

    /// A number above `max`; `shown` is the number when it is known (serde_yaml reads a
    /// number past u128 as a float, whose digits are not the ones written).
    fn too_large<E: de::Error>(self, shown: Option<&dyn fmt::Display>) -> E {
        match shown {
            Some(n) => E::custom(format_args!(
                "{} {n} is too large: {}",
                self.what(),
                self.range()
            )),
            None => E::custom(format_args!(
                "{} is too large: {}",
                self.what(),
                self.range()
            )),
        }
    }

    fn negative<E: de::Error>(self, shown: &dyn fmt::Display) -> E {
        E::custom(format_args!(
            "{} {shown} is negative: {}",
            self.what(),
            self.range()
        ))
    }
}

/// A float as an error shows it: in digits, or with an exponent when the digits are many.
fn float_text(v: f64) -> String {
    let digits = v.to_string();
    if digits.len() <= 24 {
        digits
    } else {
        format!("{v:e}")
    }
}

impl<'de> Visitor<'de> for Whole {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}: a whole number written in digits", self.what())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        if v <= self.max() {
            Ok(v)
        } else {
            Err(self.too_large(Some(&v)))
        }
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(self.negative(&v)),
        }
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(self.too_large(Some(&v))),
        }
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
        match u128::try_from(v) {
            Ok(v) => self.visit_u128(v),
            Err(_) => Err(self.negative(&v)),
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        let what = self.what();
        if v.is_nan() {
            Err(E::custom(format_args!("{what} `.nan` is not a number")))
        } else if v < 0.0 {
            Err(self.negative(&float_text(v)))
        } else if v.is_finite() && v.fract() != 0.0 {
            Err(E::custom(format_args!(
                "{what} {} is not a whole number",
                float_text(v)
            )))
        } else if v >= u128::MAX as f64 {
            // Digits past u128, or an exponent as large.
            Err(self.too_large(None))
        } else if v >= self.max() as f64 {
            Err(self.too_large(Some(&float_text(v))))
        } else {
            Err(E::custom(format_args!(
                "{what} is written as a floating-point number: write it in digits, as {}",
                float_text(v)
            )))
        }
    }
}

/// A perft or divide count.
struct Count(u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        d.deserialize_any(Whole::Count).map(Count)
    }
}

/// A perft or divide depth (its range, 1 to 15, is checked by the loader).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Depth(u32);

impl fmt::Debug for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de> Deserialize<'de> for Depth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Depth, D::Error> {
        // `Whole::Depth` accepts nothing above u32::MAX.
        d.deserialize_any(Whole::Depth)
            .map(|n| Depth(u32::try_from(n).unwrap_or(u32::MAX)))
    }
}

/// A divide's depth.
fn depth<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Depth::deserialize(d).map(|d| d.0)
}

/// A mapping of counts, each key once ([`unique`]): a divide's `moves`.
fn counts<'de, D, K>(d: D) -> Result<BTreeMap<K, u64>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Debug,
{
    Ok(unique::<D, K, Count>(d)?
        .into_iter()
        .map(|(k, c)| (k, c.0))
        .collect())
}

/// `perft`: counts by depth, each depth once.
fn perft<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<u32, u64>, D::Error> {
    Ok(counts::<D, Depth>(d)?
        .into_iter()
        .map(|(k, c)| (k.0, c))
        .collect())
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
    #[serde(default, deserialize_with = "perft")]
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
    #[serde(deserialize_with = "depth")]
    pub depth: u32,
    /// Move text → perft(depth - 1) after it.
    #[serde(deserialize_with = "counts")]
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
    #[serde(default, deserialize_with = "perft")]
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
