//! `cvperft add-case`: turn a disputed game into a permanent suite case.
//!
//! The game is replayed move by move (an illegal move stops everything, naming the ply), the
//! reference counts perft 1..N at the position reached, an optional second engine is compared
//! depth by depth (a difference becomes `status: disputed` with the engine's counts as an
//! alternative and the bisection's first differing path), and the case is spliced into the
//! suite's text without touching a byte of it. The whole result must load before a temporary
//! file replaces the suite by rename.

use super::diff::{EngineArgs, EngineSettings, check_engine_depth};
use super::game::{RecordArgs, Source, settle_variant};
use super::{Failure, build_rules};
use anyhow::Result;
use clap::Args;
use cvperft::engine::bisect::{bisect, compare};
use cvperft::engine::process::shell_quote;
use cvperft::engine::{Divide, Engine, Query, ReferenceEngine};
use cvperft::notation::to_fen;
use cvperft::suite::append::{NewAlternative, NewCase, append_case};
use cvperft::suite::load::is_valid_id;
use cvperft::suite::{Suite, load_file, load_str};
use cvperft::variant::Rules;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `cvperft add-case` arguments.
#[derive(Args, Debug, Clone)]
pub struct AddCaseArgs {
    /// The suite file to add the case to.
    #[arg(long, value_name = "FILE")]
    pub suite: PathBuf,
    /// Variant id; must be the suite's (default: the suite's).
    #[arg(short = 'v', long = "variant")]
    pub variant: Option<String>,
    /// The game's start position (default: the record's [FEN] tag, else the variant's start).
    #[arg(long)]
    pub fen: Option<String>,
    /// The game as a record's text (see --notation).
    #[arg(long, required_unless_present = "game", conflicts_with = "game")]
    pub moves: Option<String>,
    /// A game record file, `-` for standard input: our move text, Game Courier or PGN.
    #[arg(long, value_name = "FILE")]
    pub game: Option<String>,
    #[command(flatten)]
    pub record: RecordArgs,
    /// Record perft 1..N.
    #[arg(long, value_name = "N")]
    pub depth: u32,
    /// The case id (default: `<suite stem>-ply-<K>`).
    #[arg(long)]
    pub id: Option<String>,
    /// A ruling id the case exercises (repeatable).
    #[arg(long = "rule", value_name = "ID")]
    pub rules: Vec<String>,
    /// Free text for the case's note (the FEN reached is added).
    #[arg(long)]
    pub note: Option<String>,
    /// A rule option for this case, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Cut the game after ply K (default: its end).
    #[arg(long, value_name = "K")]
    pub at_ply: Option<usize>,
    /// Also record the divide at depth N.
    #[arg(long)]
    pub divide: bool,
    /// Print the case instead of writing the suite.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub engine: OptionalEngineArgs,
}

/// The engine options of `diff`, with the engine itself optional.
#[derive(Args, Debug, Clone)]
pub struct OptionalEngineArgs {
    /// Compare with this engine (shell-quoted command line); differences make the case disputed.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    #[command(flatten)]
    pub settings: EngineSettings,
}

impl OptionalEngineArgs {
    /// The `diff` engine arguments, when an engine was given.
    fn engine_args(&self) -> Option<EngineArgs> {
        self.engine.as_ref().map(|engine| EngineArgs {
            engine: engine.clone(),
            settings: self.settings.clone(),
        })
    }
}

fn load_errors(what: &str, errors: &[cvperft::suite::LoadError]) -> Failure {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    Failure::input(format!("{what}: {}", lines.join("; ")))
}

/// The FEN fields that decide perft: board (with hand), side, castling, en passant.
fn position_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// `-o` flags for every option that differs from the variant's default.
fn option_flags(rules: &Rules) -> Vec<String> {
    let defaults = Rules::new(rules.variant).option_pairs();
    let mut out = Vec::new();
    for (name, value) in rules.option_pairs() {
        if !defaults.contains(&(name, value)) {
            out.extend(["-o".to_string(), format!("{name}={value}")]);
        }
    }
    out
}

fn depth_list(depths: &[u32]) -> String {
    depths
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn entries(d: &Divide) -> Vec<(String, u64)> {
    d.entries
        .iter()
        .map(|e| (e.text.clone(), e.count))
        .collect()
}

/// Runs `cvperft add-case`.
///
/// # Errors
/// Bad arguments, an unreadable suite or game, an illegal move, a duplicate, an engine
/// failure, or a result that would not load (all exit 2, the suite untouched).
pub fn run(args: AddCaseArgs, out: &mut impl Write) -> Result<()> {
    check_engine_depth(args.depth)?;
    let suite: Suite =
        load_file(&args.suite).map_err(|e| load_errors("the suite does not load", &e))?;
    let original = std::fs::read_to_string(&args.suite)
        .map_err(|e| Failure::input(format!("{}: {e}", args.suite.display())))?;
    let variant = suite.variant.spec.id;
    if let Some(v) = &args.variant
        && v != variant
    {
        return Err(Failure::input(format!(
            "-v {v}: the suite {} is a {variant} suite",
            args.suite.display()
        ))
        .into());
    }
    // Suite defaults first, then the case's own options, as the loader applies them.
    let mut all_options = vec![format!("game-end={}", suite.game_end)];
    all_options.extend(suite.options.iter().map(|(k, v)| format!("{k}={v}")));
    all_options.extend(args.options.iter().cloned());
    let rules = build_rules(variant, &all_options)?;
    let mut case_options = BTreeMap::new();
    for o in &args.options {
        if let Some((k, v)) = o.split_once('=') {
            case_options.insert(k.trim().to_string(), v.trim().to_string());
        }
    }

    // Replay the game.
    let source = Source::read(args.moves.as_deref(), args.game.as_deref())?;
    let header = args.record.header(&source)?;
    settle_variant(&source, &header, Some(variant), "the suite's variant")?;
    let (game, given_fen) =
        args.record
            .replay(&source, &header, rules, args.fen.as_deref(), args.at_ply)?;
    let source_name = source.name;
    let played: Vec<String> = game.plies.iter().map(|p| p.text.clone()).collect();
    let position = *game.end();
    let start_fen = given_fen.clone().unwrap_or_else(|| rules.start_fen());
    let fen_reached = to_fen(&position);

    // Refuse duplicates before computing anything.
    let id = match &args.id {
        Some(id) => id.clone(),
        None => {
            let stem: String = suite
                .stem
                .to_ascii_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            format!("{}-ply-{}", stem.trim_matches('-'), played.len())
        }
    };
    if !is_valid_id(&id) {
        return Err(Failure::input(format!(
            "id `{id}`: use lower-case letters, digits and `-`, starting with a letter or digit"
        ))
        .into());
    }
    if let Some(c) = suite.cases.iter().find(|c| c.id == id) {
        return Err(Failure::input(format!(
            "{}:{}: case `{id}` already exists; choose another --id",
            args.suite.display(),
            c.line
        ))
        .into());
    }
    let key = (position_key(&fen_reached), rules.option_pairs());
    if let Some(c) = suite.cases.iter().find(|c| {
        (
            position_key(&to_fen(&c.position)),
            c.position.rules().option_pairs(),
        ) == key
    }) {
        return Err(Failure::input(format!(
            "{}:{}: case `{}` already has this position with the same options ({})",
            args.suite.display(),
            c.line,
            c.id,
            key.0
        ))
        .into());
    }

    // The reference's counts, and the engine's.
    let depths: Vec<u32> = (1..=args.depth).collect();
    let query = |d: u32| Query::new(start_fen.clone(), &played, d);
    let mut reference = ReferenceEngine::new(rules);
    let mut reference_divides = Vec::new();
    for &d in &depths {
        let divide = reference
            .divide(&query(d))
            .map_err(|e| Failure::input(e.to_string()))?;
        reference_divides.push(divide);
    }
    let perft: BTreeMap<u32, u64> = depths
        .iter()
        .zip(&reference_divides)
        .map(|(d, r)| (*d, r.total))
        .collect();
    let last = args.depth as usize - 1;

    let mut words = vec!["cvperft".to_string(), "perft".into(), "N".into()];
    words.extend(["-v".to_string(), variant.to_string()]);
    words.extend(option_flags(&rules));
    if let Some(fen) = &given_fen {
        words.extend(["--fen".to_string(), shell_quote(fen)]);
    }
    if !played.is_empty() {
        words.extend(["--moves".to_string(), shell_quote(&played.join(" "))]);
    }
    let mut command = format!("{} (N = {})", words.join(" "), depth_list(&depths));
    if args.divide {
        words[1] = "divide".into();
        words[2] = args.depth.to_string();
        command.push_str(&format!("; {}", words.join(" ")));
    }

    let mut new_case = NewCase {
        id: id.clone(),
        fen: given_fen.clone(),
        moves: played.join(" "),
        options: case_options,
        rules: args.rules.clone(),
        perft: perft.clone(),
        divide: args
            .divide
            .then(|| (args.depth, entries(&reference_divides[last]))),
        command,
        cross_check: "none".into(),
        ..NewCase::default()
    };
    let mut note = args.note.clone().map(|n| n.trim().to_string());
    let mut disputed_line = None;

    if let Some(engine_args) = args.engine.engine_args() {
        let config = engine_args.config()?;
        let mut engine = config
            .open(rules)
            .map_err(|e| Failure::input(e.to_string()))?;
        let name = engine.name();
        let mut engine_perft = BTreeMap::new();
        let mut engine_divide = None;
        let mut agree = Vec::new();
        let mut differ = Vec::new();
        for (&d, reference_divide) in depths.iter().zip(&reference_divides) {
            let divide = engine
                .divide(&query(d))
                .map_err(|e| Failure::input(format!("the engine failed: {e}")))?;
            engine_perft.insert(d, divide.total);
            if compare(reference_divide, &divide).agrees() {
                agree.push(d);
            } else {
                differ.push(d);
            }
            if d == args.depth && args.divide {
                engine_divide = Some((d, entries(&divide)));
            }
        }
        if differ.is_empty() {
            new_case.cross_check = format!(
                "{name} agrees for N = {}{}",
                depth_list(&agree),
                if args.divide {
                    format!(" (divide at {} included)", args.depth)
                } else {
                    String::new()
                }
            );
        } else {
            let first = differ[0];
            let bisection = bisect(&mut reference, engine.as_mut(), &query(first), rules)
                .map_err(|(_, e)| Failure::input(format!("bisection failed: {e}")))?;
            let end = bisection.last();
            let list = |v: &[cvperft::perft::DivideEntry]| {
                if v.is_empty() {
                    "-".to_string()
                } else {
                    v.iter()
                        .map(|e| e.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            };
            let path = if bisection.path.is_empty() {
                "(the position itself)".to_string()
            } else {
                bisection.path.join(" ")
            };
            let reason = format!(
                "The engine `{name}` counts differently for N = {} (at N = {}: reference {}, engine {}). \
                 First differing path from the case's position: {path}{}; there the reference \
                 has {} that the engine lacks, and the engine has {} that the reference lacks.",
                depth_list(&differ),
                first,
                perft[&first],
                engine_perft[&first],
                bisection
                    .fen
                    .as_ref()
                    .map(|f| format!(" (FEN {f})"))
                    .unwrap_or_default(),
                list(&end.comparison.missing),
                list(&end.comparison.extra),
            );
            new_case.cross_check = if agree.is_empty() {
                format!("none ({name} disagrees at every depth: see alternatives)")
            } else {
                format!(
                    "{name} agrees for N = {}; differs for N = {} (see alternatives)",
                    depth_list(&agree),
                    depth_list(&differ)
                )
            };
            disputed_line = Some(format!(
                "disputed: {name} differs for N = {}; first differing path {path}",
                depth_list(&differ)
            ));
            new_case.disputed = Some(reason);
            new_case.alternatives = vec![NewAlternative {
                reading: format!("engine `{name}`"),
                perft: engine_perft,
                divide: engine_divide,
            }];
        }
    }
    let reached = format!("FEN reached: {fen_reached}");
    note = Some(match note {
        Some(n) if !n.is_empty() => format!("{n} {reached}"),
        _ => format!(
            "Added by cvperft add-case from {source_name}, ply {}. {reached}",
            played.len()
        ),
    });
    new_case.note = note;

    // Splice, validate the whole result, then replace by rename.
    let (text, case_text) =
        append_case(&original, &new_case).map_err(|e| Failure::input(e.to_string()))?;
    let loaded = load_str(&text, &args.suite)
        .map_err(|e| load_errors("the suite would not load with the new case", &e))?;
    if loaded.cases.len() != suite.cases.len() + 1 || loaded.cases.iter().all(|c| c.id != id) {
        return Err(Failure::input(
            "the new case did not land in the suite's `cases:` list; add it by hand",
        )
        .into());
    }
    if args.dry_run {
        write!(out, "{case_text}")?;
        return Ok(());
    }
    replace_file(&args.suite, &text)?;
    writeln!(
        out,
        "added case `{id}` to {}: perft {}",
        args.suite.display(),
        perft
            .iter()
            .map(|(d, n)| format!("{d}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    if let Some(line) = disputed_line {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Writes `text` to a temporary file next to `path` and renames it over `path`.
fn replace_file(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "suite.yaml".into());
    let tmp = dir.join(format!(".{name}.add-case-{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure::input(format!("{}: {e}", path.display()))
    })?;
    Ok(())
}
