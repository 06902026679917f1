//! `cvperft add-case`: turn a disputed game into a permanent suite case.
//!
//! The game is replayed move by move (an illegal move stops everything, naming the ply), the
//! reference counts perft 1..N at the position reached, an optional second engine is compared
//! depth by depth (a difference becomes `status: disputed` with the engine's counts as an
//! alternative and the bisection's first differing path), and the case is spliced into the
//! suite's text without touching a byte of it. The whole result must load before a temporary
//! file replaces the suite by rename.
//!
//! With `--create`, a suite that does not exist is started: the whole file is rendered around
//! the case, loaded like any suite, and given its name only if nothing bears it by then
//! ([`fsio::create_whole`]); when another run created it meanwhile, the case is added to that
//! file as to any suite.

use super::Failure;
use super::diff::check_engine_depth;
use super::engine_args::{EngineSettings, config};
use super::game::{RecordArgs, Source, settle_variant};
use anyhow::Result;
use clap::Args;
use cvperft::engine::bisect::{Stop, bisect, compare};
use cvperft::engine::process::shell_quote;
use cvperft::engine::{Divide, Engine, EngineOptions, Query, ReferenceEngine};
use cvperft::fsio;
use cvperft::fsio::DEFAULT_LOCK_TIMEOUT_SECS;
use cvperft::game::Header;
use cvperft::notation::to_fen;
use cvperft::suite::append::{
    AppendError, NewAlternative, NewCase, append_case_with, render_suite,
};
use cvperft::suite::load::MAX_FILE_BYTES;
use cvperft::suite::load::{is_valid_id, suite_stem};
use cvperft::suite::{Suite, load_bytes, load_str};
use cvperft::variant::Rules;
use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `cvperft add-case` arguments.
#[derive(Args, Debug, Clone)]
pub struct AddCaseArgs {
    /// The suite file to add the case to.
    #[arg(long, value_name = "FILE")]
    pub suite: PathBuf,
    /// Start FILE as a new suite when it does not exist (a `.yaml` name in an existing
    /// directory); when it exists, add the case to it as usual.
    #[arg(long)]
    pub create: bool,
    /// With --create: the new suite's `description` (default: "<variant name>: positions from
    /// disputed games, ..."); not used when FILE exists.
    #[arg(long, value_name = "TEXT", requires = "create")]
    pub description: Option<String>,
    /// Variant id; must be the suite's (default: the suite's; for a new suite, the record's
    /// [Variant] tag).
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
    /// Print the case (a new suite: the whole file) instead of writing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Seconds to wait for another writer's lock on the suite before giving up (exit 2).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_LOCK_TIMEOUT_SECS, value_parser = super::parse_seconds)]
    pub lock_timeout: f64,
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
    /// The engine's settings, when an engine was given.
    fn options(&self) -> Option<EngineOptions> {
        self.engine
            .as_ref()
            .map(|engine| self.settings.options(engine))
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

/// Runs `cvperft add-case`: open the suite (or, with `--create`, plan a new one), replay the
/// game, name the case, count at the position reached, compare with the engine if one is
/// given, then print or write the case.
///
/// # Errors
/// Bad arguments, an unreadable suite or game, an illegal move, a duplicate, an engine
/// failure, or a result that would not load (all exit 2, the suite untouched).
pub fn run(args: AddCaseArgs, out: &mut impl Write) -> Result<()> {
    check_engine_depth(args.depth)?;
    // What the loader would refuse in the suite written, said of the argument instead.
    if args
        .description
        .as_deref()
        .is_some_and(|d| d.trim().is_empty())
    {
        return Err(Failure::input(
            "--description is empty: give the new suite's description, or leave the option out \
             for the default one",
        )
        .into());
    }
    let lock_timeout = lock_timeout(args.lock_timeout)?;
    let target = open_target(&args)?;
    // Bad options, or an unknown variant, before the record is read.
    if let Some(variant) = target.variant() {
        case_rules(&args, variant, &target.defaults())?;
    }
    let game = replay(&args, &target)?;
    let (rules, case_options) = case_rules(&args, game.variant, &target.defaults())?;
    // Rule ids the variant's suites may not cite, before any counting (the suite written
    // would be refused afterwards, naming a line of a file that is never written).
    check_rule_ids(&args.rules, rules.variant)?;
    // Refuse duplicates before computing anything.
    let id = case_id(&args, target.stem(), game.played.len())?;
    let key = (position_key(&game.fen_reached), rules.option_pairs());
    if let Target::Existing { suite, .. } = &target {
        refuse_duplicates(suite, &args.suite, &id, &key)?;
    }

    // The reference's counts, and the engine's.
    let depths: Vec<u32> = (1..=args.depth).collect();
    let query = |d: u32| Query::new(game.start_fen.clone(), &game.played, d);
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
    let mut new_case = NewCase {
        id: id.clone(),
        fen: game.given_fen.clone(),
        moves: game.played.join(" "),
        options: case_options,
        rules: args.rules.clone(),
        perft: perft.clone(),
        divide: args
            .divide
            .then(|| (args.depth, entries(&reference_divides[last]))),
        command: perft_command(&args, rules, &game, &depths),
        cross_check: "none".into(),
        ..NewCase::default()
    };
    let disputed_line = match args.engine.options() {
        Some(engine_options) => {
            let run = CountRun {
                args: &args,
                rules,
                depths: &depths,
                query: &query,
                reference: &mut reference,
                reference_divides: &reference_divides,
                perft: &perft,
            };
            compare_engine(run, &engine_options, &mut new_case)?
        }
        None => None,
    };
    new_case.note = Some(case_note(&args, &game));

    if args.dry_run {
        let text = match &target {
            Target::Existing { suite, original } => {
                splice(suite, &args.suite, original, &new_case)?.1
            }
            Target::New { .. } => new_suite(&args, rules, &new_case)?.0,
        };
        write!(out, "{text}")?;
    } else {
        let done = match &target {
            Target::Existing { suite, .. } => {
                write_case(&args, suite, &new_case, &key, lock_timeout)?;
                description_not_used(&args);
                format!("added case `{id}` to {}", args.suite.display())
            }
            Target::New { .. } => create_suite(&args, rules, &new_case, &key, lock_timeout)?,
        };
        writeln!(
            out,
            "{done}: perft {}",
            perft
                .iter()
                .map(|(d, n)| format!("{d}: {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
        if let Some(line) = disputed_line {
            writeln!(out, "{line}")?;
        }
    }
    if let Some(note) = game.read_note {
        super::say(&note);
    }
    Ok(())
}

/// The suite the case goes to.
enum Target {
    /// A suite that exists, with its text.
    Existing { suite: Suite, original: String },
    /// A suite `--create` is to start: its file stem, and its variant when `-v` gives it.
    New {
        stem: String,
        variant: Option<String>,
    },
}

impl Target {
    /// The file stem the default case id begins with.
    fn stem(&self) -> &str {
        match self {
            Target::Existing { suite, .. } => &suite.stem,
            Target::New { stem, .. } => stem,
        }
    }

    /// The suite's variant, when known before the record is read.
    fn variant(&self) -> Option<&str> {
        match self {
            Target::Existing { suite, .. } => Some(suite.variant.spec.id),
            Target::New { variant, .. } => variant.as_deref(),
        }
    }

    /// The suite's `game-end` and options as `name=value`, which the case's own options go on
    /// top of: a new suite states `game-end: rules` and no options.
    fn defaults(&self) -> Vec<String> {
        match self {
            Target::Existing { suite, .. } => {
                let mut defaults = vec![format!("game-end={}", suite.game_end)];
                defaults.extend(suite.options.iter().map(|(k, v)| format!("{k}={v}")));
                defaults
            }
            Target::New { .. } => vec!["game-end=rules".to_string()],
        }
    }
}

/// The suite named by `--suite`: an existing one, opened; with `--create`, a new one when
/// nothing is there (or a dangling link, which [`fsio::check_creatable`] refuses). Without
/// `--create`, a missing file is refused with the flag named.
fn open_target(args: &AddCaseArgs) -> Result<Target> {
    let path = &args.suite;
    let not_found = |r: std::io::Result<std::fs::Metadata>| {
        r.is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    };
    let nothing = not_found(std::fs::symlink_metadata(path));
    if nothing && !args.create {
        return Err(Failure::input(format!(
            "{}: no such file; to start a new suite there, add --create",
            path.display()
        ))
        .into());
    }
    if !(args.create && not_found(std::fs::metadata(path))) {
        let (suite, original) = open_suite(args)?;
        return Ok(Target::Existing { suite, original });
    }
    // `check DIR` reads `*.yaml` alone: a suite named otherwise would be passed over.
    let bytes = path.as_os_str().as_bytes();
    if !(bytes.ends_with(b".yaml") && path.extension().is_some()) {
        return Err(Failure::input(format!(
            "{}: a new suite's file name ends in `.yaml` (`cvperft check DIR` reads no other \
             file); name it so",
            path.display()
        ))
        .into());
    }
    if !args.dry_run {
        fsio::check_creatable(path).map_err(|e| Failure::input(e.to_string()))?;
    }
    let stem = suite_stem(path).map_err(|e| Failure::input(e.to_string()))?;
    Ok(Target::New {
        stem,
        variant: args.variant.clone(),
    })
}

/// Reads and loads the suite (refusing first, unless `--dry-run`, one that cannot be
/// rewritten) and checks `-v` against its variant; returns it with its text.
fn open_suite(args: &AddCaseArgs) -> Result<(Suite, String)> {
    if !args.dry_run {
        // Refuse a suite that cannot be rewritten before any work.
        fsio::check_updatable(&args.suite).map_err(|e| Failure::input(e.to_string()))?;
    }
    let bytes = fsio::read_capped(&args.suite, MAX_FILE_BYTES)
        .map_err(|e| Failure::input(e.to_string()))?;
    let suite = load_bytes(bytes.clone(), &args.suite)
        .map_err(|e| load_errors("the suite does not load", &e))?;
    // It loaded, so it is UTF-8.
    let original = String::from_utf8_lossy(&bytes).into_owned();
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
    Ok((suite, original))
}

/// Refuses `--rule` ids that the variant's suites may not cite, or one given twice.
fn check_rule_ids(ids: &[String], variant: &cvperft::variant::Variant) -> Result<()> {
    use cvperft::suite::load::LoadReason;
    for (i, id) in ids.iter().enumerate() {
        let shown = cvperft::echo::echo(id);
        if ids[..i].contains(id) {
            return Err(Failure::input(format!("--rule {shown} is given twice")).into());
        }
        if !variant.spec.rulings.contains(&id.as_str()) {
            let reason = LoadReason::UnknownRule {
                rule: id.clone(),
                variant: variant.spec.id,
                rulings: variant.spec.rulings,
            };
            return Err(Failure::input(format!("--rule: {reason}")).into());
        }
    }
    Ok(())
}

/// The case's rules (the suite's `defaults` first, then the case's own options, as the loader
/// applies them) and the case's own options as the case will list them.
fn case_rules(
    args: &AddCaseArgs,
    variant: &str,
    defaults: &[String],
) -> Result<(Rules, BTreeMap<String, String>)> {
    let rules = cvperft::request::rules_over_defaults(variant, defaults, &args.options)
        .map_err(|e| Failure::input(e.to_string()))?;
    let mut case_options = BTreeMap::new();
    for o in &args.options {
        if let Some((k, v)) = o.split_once('=') {
            case_options.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    Ok((rules, case_options))
}

/// The game replayed to the position the case is about.
struct Replayed {
    /// The variant it was replayed in.
    variant: &'static str,
    /// Where the record came from (a file name or standard input).
    source_name: String,
    /// The moves played, as move text.
    played: Vec<String>,
    /// The start FEN when it is not the variant's.
    given_fen: Option<String>,
    /// The start FEN.
    start_fen: String,
    /// The FEN of the position reached.
    fen_reached: String,
    /// With `--notation auto`, the line saying which notation was read (for stderr).
    read_note: Option<String>,
}

/// Reads the game and replays it up to `--at-ply` under the case's rules, in the suite's
/// variant (a new suite's: `-v`, else the record's [Variant] tag).
fn replay(args: &AddCaseArgs, target: &Target) -> Result<Replayed> {
    let source = Source::read(args.moves.as_deref(), args.game.as_deref())?;
    let what = match target {
        Target::Existing { .. } => "the suite's variant",
        Target::New { .. } => "-v",
    };
    let defaults = target.defaults();
    let rules_for = |header: &Header| {
        if target.variant().is_none() && header.variant.is_none() {
            return Err(Failure::input(format!(
                "{}: the new suite's variant is not known: give -v VARIANT (the record has no \
                 [Variant] tag)",
                args.suite.display()
            ))
            .into());
        }
        let variant = settle_variant(&source, header, target.variant(), what)?;
        Ok(case_rules(args, &variant, &defaults)?.0)
    };
    let (game, given_fen, read_note) =
        args.record
            .read_record(&source, rules_for, args.fen.as_deref(), args.at_ply)?;
    let variant = game.start.variant().spec.id;
    let rules = case_rules(args, variant, &defaults)?.0;
    Ok(Replayed {
        variant,
        played: game.plies.iter().map(|p| p.text.clone()).collect(),
        start_fen: given_fen.clone().unwrap_or_else(|| rules.start_fen()),
        fen_reached: to_fen(game.end()),
        source_name: source.name,
        given_fen,
        read_note,
    })
}

/// `--id`, or `<suite stem>-ply-<K>`; refused unless it is a valid case id.
fn case_id(args: &AddCaseArgs, stem: &str, plies: usize) -> Result<String> {
    let id = match &args.id {
        Some(id) => id.clone(),
        None => {
            let stem: String = stem
                .to_ascii_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            format!("{}-ply-{plies}", stem.trim_matches('-'))
        }
    };
    if !is_valid_id(&id) {
        let message = match &args.id {
            Some(_) => format!(
                "id `{id}`: use lower-case letters, digits and `-`, starting with a letter or digit"
            ),
            // Named after a file whose name has no ASCII letter or digit (`é.yaml`).
            None => format!(
                "{}: no case id can be made from this file name (it gave `{id}`): give --id, \
                 with lower-case letters, digits and `-`, starting with a letter or digit",
                args.suite.display()
            ),
        };
        return Err(Failure::input(message).into());
    }
    Ok(id)
}

/// The command that reproduces the counts, for the case's `source.command`.
fn perft_command(args: &AddCaseArgs, rules: Rules, game: &Replayed, depths: &[u32]) -> String {
    let mut words = vec!["cvperft".to_string(), "perft".into(), "N".into()];
    words.extend(["-v".to_string(), rules.variant.spec.id.to_string()]);
    words.extend(option_flags(&rules));
    if let Some(fen) = &game.given_fen {
        words.extend(["--fen".to_string(), shell_quote(fen)]);
    }
    if !game.played.is_empty() {
        words.extend(["--moves".to_string(), shell_quote(&game.played.join(" "))]);
    }
    let mut command = format!("{} (N = {})", words.join(" "), depth_list(depths));
    if args.divide {
        words[1] = "divide".into();
        words[2] = args.depth.to_string();
        command.push_str(&format!("; {}", words.join(" ")));
    }
    command
}

/// What the engine comparison needs of the reference's run.
struct CountRun<'a, Q: Fn(u32) -> Query> {
    args: &'a AddCaseArgs,
    rules: Rules,
    depths: &'a [u32],
    query: &'a Q,
    reference: &'a mut ReferenceEngine,
    reference_divides: &'a [Divide],
    perft: &'a BTreeMap<u32, u64>,
}

/// Counts with the engine at every depth and records the result in `new_case`: its agreement
/// in `cross-check`, or a dispute (reason, alternative, cross-check) with the bisection's
/// first differing path. Returns the line announcing a dispute.
fn compare_engine<Q: Fn(u32) -> Query>(
    run: CountRun<'_, Q>,
    engine_options: &EngineOptions,
    new_case: &mut NewCase,
) -> Result<Option<String>> {
    let args = run.args;
    let mut engine = config(engine_options)?
        .open(run.rules)
        .map_err(|e| Failure::input(e.to_string()))?;
    let name = engine.name();
    let mut engine_perft = BTreeMap::new();
    let mut engine_divide = None;
    let mut agree = Vec::new();
    let mut differ = Vec::new();
    for (&d, reference_divide) in run.depths.iter().zip(run.reference_divides) {
        let divide = engine
            .divide(&(run.query)(d))
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
        return Ok(None);
    }
    let first = differ[0];
    let bisection = bisect(
        run.reference,
        engine.as_mut(),
        &(run.query)(first),
        run.rules,
    )
    .map_err(|(_, e)| Failure::input(format!("bisection failed: {e}")))?;
    let path = if bisection.path.is_empty() {
        "(the position itself)".to_string()
    } else {
        bisection.path.join(" ")
    };
    let end = bisection.last();
    let (reference_total, engine_total) = (run.perft[&first], engine_perft[&first]);
    let totals = match reference_total == engine_total {
        true => format!("the totals agree, {reference_total}, but not the counts per move"),
        false => format!("reference {reference_total}, engine {engine_total}"),
    };
    let fen = bisection
        .fen
        .as_ref()
        .map(|f| format!(" (FEN {f})"))
        .unwrap_or_default();
    // What the last step shows, by why the descent stopped there.
    let finding = match bisection.stop {
        Some(Stop::CountsAtDepthOne) => format!(
            "there both list the same moves, but the engine counts {} (reference, engine)",
            counts_list(&end.comparison.counts)
        ),
        Some(Stop::Vanished) => {
            let parent = &bisection.steps[bisection.steps.len().saturating_sub(2)];
            let last = bisection.path.last().map_or("", String::as_str);
            format!(
                "the engine counts {last} as {} where the reference counts {}, yet its divide \
                 after {last} agrees with the reference's: it answers differently for the same \
                 position when asked through the position before it",
                parent.engine.count(last).unwrap_or_default(),
                parent.reference.count(last).unwrap_or_default(),
            )
        }
        _ => {
            // Only the sides that have moves: "the engine has - that the reference lacks" says
            // nothing.
            let lacks = [
                (
                    &end.comparison.missing,
                    "the reference has",
                    "the engine lacks",
                ),
                (
                    &end.comparison.extra,
                    "the engine has",
                    "the reference lacks",
                ),
            ];
            let parts: Vec<String> = lacks
                .iter()
                .filter(|(moves, _, _)| !moves.is_empty())
                .map(|(moves, who, lacking)| format!("{who} {} that {lacking}", move_list(moves)))
                .collect();
            format!("there {}", parts.join(", and "))
        }
    };
    let reason = format!(
        "The engine `{name}` counts differently for N = {} (at N = {first}: {totals}). First \
         differing path from the case's position: {path}{fen}; {finding}.",
        depth_list(&differ),
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
    new_case.disputed = Some(reason);
    new_case.alternatives = vec![NewAlternative {
        reading: format!("engine `{name}`"),
        perft: engine_perft,
        divide: engine_divide,
    }];
    Ok(Some(format!(
        "disputed: {name} differs for N = {}; first differing path {path}",
        depth_list(&differ)
    )))
}

/// The moves of divide entries, space-separated (`-` for none).
fn move_list(entries: &[cvperft::perft::DivideEntry]) -> String {
    if entries.is_empty() {
        return "-".to_string();
    }
    entries
        .iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `m1 29/26, m2 ...`: moves with the reference's and the engine's counts.
fn counts_list(counts: &[(String, u64, u64)]) -> String {
    counts
        .iter()
        .map(|(m, r, e)| format!("{m} {r}/{e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The case's note: `--note` (else where the game came from) and the FEN reached.
fn case_note(args: &AddCaseArgs, game: &Replayed) -> String {
    let reached = format!("FEN reached: {}", game.fen_reached);
    match args.note.as_deref().map(str::trim) {
        // A sentence of its own, so that `my engine` is not read as `my engine FEN reached`.
        Some(n) if n.ends_with(['.', '!', '?']) => format!("{n} {reached}"),
        Some(n) if !n.is_empty() => format!("{n}. {reached}"),
        _ => format!(
            "Added by cvperft add-case from {}, ply {}. {reached}",
            game.source_name,
            game.played.len()
        ),
    }
}

/// Under the suite's lock: reads it again (another writer may have added cases meanwhile),
/// checks the case is still new and the suite's defaults unchanged, splices, validates and
/// replaces the file.
fn write_case(
    args: &AddCaseArgs,
    suite: &Suite,
    new_case: &NewCase,
    key: &(String, Vec<(&'static str, &'static str)>),
    lock_timeout: Duration,
) -> Result<()> {
    let update = fsio::begin_update(&args.suite, MAX_FILE_BYTES, lock_timeout)
        .map_err(|e| Failure::input(e.to_string()))?;
    let current = load_bytes(update.bytes.clone(), &args.suite)
        .map_err(|e| load_errors("the suite no longer loads", &e))?;
    if (current.variant.spec.id, current.game_end, &current.options)
        != (suite.variant.spec.id, suite.game_end, &suite.options)
    {
        return Err(Failure::input(format!(
            "{}: its variant, game-end or options changed (or it was created, with others) \
             while the case was computed; run again",
            args.suite.display()
        ))
        .into());
    }
    refuse_duplicates(&current, &args.suite, &new_case.id, key)?;
    let text = String::from_utf8(update.bytes.clone())
        .map_err(|_| Failure::input(format!("{}: not UTF-8 text", args.suite.display())))?;
    let (text, _) = splice(&current, &args.suite, &text, new_case)?;
    update
        .commit(text.as_bytes())
        .map_err(|e| Failure::input(e.to_string()))?;
    Ok(())
}

/// Refuses a case id or a position (with its options) the suite already has.
fn refuse_duplicates(
    suite: &Suite,
    path: &Path,
    id: &str,
    key: &(String, Vec<(&'static str, &'static str)>),
) -> Result<()> {
    if let Some(c) = suite.cases.iter().find(|c| c.id == id) {
        return Err(Failure::input(format!(
            "{}:{}: case `{id}` already exists; choose another --id",
            path.display(),
            c.line
        ))
        .into());
    }
    if let Some(c) = suite.cases.iter().find(|c| {
        (
            position_key(&to_fen(&c.position)),
            c.position.rules().option_pairs(),
        ) == *key
    }) {
        return Err(Failure::input(format!(
            "{}:{}: case `{}` already has this position with the same options ({})",
            path.display(),
            c.line,
            c.id,
            key.0
        ))
        .into());
    }
    Ok(())
}

/// Splices `case` into `text` (the suite `suite` was loaded from) and checks that the whole
/// result loads with exactly one case more. Returns the new text and the case's text.
fn splice(suite: &Suite, path: &Path, text: &str, case: &NewCase) -> Result<(String, String)> {
    // With a blank line before the new case, else (when that line would join a block scalar
    // kept with its trailing line breaks, `|+`) without one.
    let (new_text, case_text) = [true, false]
        .into_iter()
        .map(|separate| append_case_with(text, case, separate))
        .find(|spliced| {
            spliced
                .as_ref()
                .map_or(true, |(new_text, _)| keeps_values(text, new_text, &case.id))
        })
        .unwrap_or(Err(AppendError::ChangesValues))
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    validate(path, &new_text, suite.cases.len(), &case.id)?;
    Ok((new_text, case_text))
}

/// Loads `new_text`, the suite at `path` with the case `id` added to its `before` cases, as
/// any suite is loaded, and checks that it holds that case and one case more.
fn validate(path: &Path, new_text: &str, before: usize, id: &str) -> Result<Suite> {
    // Written past the limit, the suite would be refused by every later read, this one's
    // included.
    if new_text.len() as u64 > MAX_FILE_BYTES {
        return Err(Failure::input(format!(
            "{}: with the new case it would be {} bytes, larger than the limit of \
             {MAX_FILE_BYTES} bytes a suite is read up to; add the case to another suite",
            path.display(),
            new_text.len()
        ))
        .into());
    }
    let loaded = load_str(new_text, path)
        .map_err(|e| load_errors("the suite would not load with the new case", &e))?;
    if loaded.cases.len() != before + 1 || loaded.cases.iter().all(|c| c.id != id) {
        return Err(Failure::input(format!(
            "{}: the new case did not land in the suite's `cases:` list; add it by hand",
            path.display()
        ))
        .into());
    }
    Ok(loaded)
}

/// A new suite at `--suite` holding `case` alone, in `rules`' variant, with `--description`'s
/// text if given, and the suite it loads as.
fn new_suite(args: &AddCaseArgs, rules: Rules, case: &NewCase) -> Result<(String, Suite)> {
    let spec = &rules.variant.spec;
    let text = render_suite(spec.id, spec.name, args.description.as_deref(), case);
    let loaded = validate(&args.suite, &text, 0, &case.id)?;
    Ok((text, loaded))
}

/// Says on stderr that `--description` was given for a suite that exists (its own is kept).
fn description_not_used(args: &AddCaseArgs) {
    if args.description.is_some() {
        super::say(&format!(
            "warning: {} exists: --description describes a new suite only, so it was not used",
            args.suite.display()
        ));
    }
}

/// Creates the new suite holding the case alone, never over anything. When another run created
/// the file after it was found missing, adds the case to that file instead, as to any suite
/// ([`write_case`]: under its lock, if its variant, `game-end` and options are the new suite's
/// and the case is new to it). Returns what was done, for the line printed.
fn create_suite(
    args: &AddCaseArgs,
    rules: Rules,
    new_case: &NewCase,
    key: &(String, Vec<(&'static str, &'static str)>),
    lock_timeout: Duration,
) -> Result<String> {
    let (text, planned) = new_suite(args, rules, new_case)?;
    let created = fsio::create_whole(&args.suite, text.as_bytes())
        .map_err(|e| Failure::input(e.to_string()))?;
    let path = args.suite.display();
    if created {
        return Ok(format!("created {path} with case `{}`", new_case.id));
    }
    // Created meanwhile: appended to only if it is a file there, not a link planted in the
    // race, which would have the case written where it points.
    match std::fs::symlink_metadata(&args.suite) {
        Ok(m) if m.file_type().is_file() => {}
        Ok(_) => {
            return Err(Failure::input(format!(
                "{path}: created meanwhile by another program, but not as a file (a link?); \
                 nothing was written: run again"
            ))
            .into());
        }
        Err(e) => {
            return Err(Failure::input(format!(
                "{path}: created meanwhile by another program, then gone ({e}); nothing was \
                 written: run again"
            ))
            .into());
        }
    }
    write_case(args, &planned, new_case, key, lock_timeout)?;
    description_not_used(args);
    Ok(format!(
        "added case `{}` to {path} (created meanwhile by another program)",
        new_case.id
    ))
}

/// Whether `new_text` holds every value of `text`, as YAML reads them, with one case more (the
/// last of `cases`, `id`): appending must not change what the suite already says.
fn keeps_values(text: &str, new_text: &str, id: &str) -> bool {
    use serde_yaml::Value;
    // A byte-order mark opening the suite is skipped, as the suite loader skips it.
    let read = |t: &str| serde_yaml::from_str::<Value>(t.strip_prefix('\u{feff}').unwrap_or(t));
    let (Ok(old), Ok(mut new)) = (read(text), read(new_text)) else {
        return false;
    };
    let Some(Value::Sequence(cases)) = new.get_mut("cases") else {
        return false;
    };
    match cases.pop() {
        Some(added) if added.get("id").and_then(Value::as_str) == Some(id) => old == new,
        _ => false,
    }
}

/// `--lock-timeout` as a duration.
fn lock_timeout(seconds: f64) -> Result<Duration> {
    if !(0.0..=86_400.0).contains(&seconds) {
        return Err(Failure::input(format!(
            "--lock-timeout {seconds}: expected 0 to 86400 seconds"
        ))
        .into());
    }
    Ok(Duration::from_secs_f64(seconds))
}
