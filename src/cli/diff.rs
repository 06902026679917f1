//! `cvperft diff`: compare an engine's divide with ours (or another engine's), show the
//! difference, and walk down to the first position where the move lists differ.

use super::engine_args::{EngineArgs, EngineSettings, config};
use super::{Failure, PositionArgs, build_rules};
use anyhow::Result;
use clap::Args;
use cvperft::diagram::text::{self, Charset};
use cvperft::diagram::{Board, Overlay};
use cvperft::engine::bisect::{Bisection, Side, Step, Stop, bisect_keeping_steps, position_fen};
use cvperft::engine::options::one_line;
use cvperft::engine::process::shell_quote;
use cvperft::engine::{Divide, Engine, EngineOptions, Query, ReferenceEngine};
use cvperft::report::html::{DiffPage, diff_page};
use cvperft::report::table::{DivideTable, comparison_summary};
use cvperft::request::{MAX_DEPTH, MAX_MOVES};
use cvperft::variant::Rules;
use similar::{ChangeTag, TextDiff};
use std::io::Write;

/// A second engine to compare with instead of our reference.
#[derive(Args, Debug, Clone)]
pub struct AgainstArgs {
    /// Compare with this engine instead of cvperft's reference.
    #[arg(long, value_name = "CMD")]
    pub against: Option<String>,
    /// Its protocol.
    #[arg(long, default_value = "uci", value_name = "PROTOCOL", value_parser = ["uci", "perftree"])]
    pub against_protocol: String,
    /// Its UCI_Variant.
    #[arg(long, value_name = "NAME")]
    pub against_variant: Option<String>,
    /// Its UCI options (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub against_option: Vec<String>,
    /// How it writes castling.
    #[arg(long, default_value = "king-move", value_name = "STYLE", value_parser = ["king-move", "king-to-rook"])]
    pub against_map_castling: String,
    /// Its spelling map (repeatable).
    #[arg(long = "against-map", value_name = "OURS=THEIRS")]
    pub against_map: Vec<String>,
}

/// `cvperft diff` arguments.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// Depth in plies.
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub against: AgainstArgs,
    /// Worker threads for our reference at the root.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Output: `text` (divide tables and a diagram of the first difference), `patch` (the
    /// root divides as `-`/`+` lines, as before) or `html` (one self-contained page).
    #[arg(long, default_value = "text", value_parser = ["text", "patch", "html"])]
    pub format: String,
    /// Draw the text diagram with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
}

impl AgainstArgs {
    /// The second engine's settings, when one is given; it shares the engine under test's
    /// timeout and failure limit.
    fn options(&self, engine: &EngineSettings) -> Option<EngineOptions> {
        let command = self.against.as_ref()?;
        Some(EngineOptions {
            command: command.clone(),
            protocol: self.against_protocol.clone(),
            variant: self.against_variant.clone(),
            options: self.against_option.clone(),
            castling: self.against_map_castling.clone(),
            map: self.against_map.clone(),
            timeout: engine.timeout,
            failure_limit: engine.max_engine_failures,
        })
    }

    fn flags(&self) -> Vec<String> {
        let Some(cmd) = &self.against else {
            return Vec::new();
        };
        let mut out = vec!["--against".to_string(), shell_quote(cmd)];
        if self.against_protocol != "uci" {
            out.extend([
                "--against-protocol".to_string(),
                self.against_protocol.clone(),
            ]);
        }
        if let Some(v) = &self.against_variant {
            out.extend(["--against-variant".to_string(), shell_quote(v)]);
        }
        for o in &self.against_option {
            out.extend(["--against-option".to_string(), shell_quote(o)]);
        }
        if self.against_map_castling != "king-move" {
            out.extend([
                "--against-map-castling".to_string(),
                self.against_map_castling.clone(),
            ]);
        }
        for m in &self.against_map {
            out.extend(["--against-map".to_string(), shell_quote(m)]);
        }
        out
    }
}

/// The root query of a command line: its FEN (default: the start position) and moves.
///
/// # Errors
/// Too many moves.
pub fn root_query(rules: &Rules, position: &PositionArgs, depth: u32) -> Result<Query> {
    let fen = position.fen.clone().unwrap_or_else(|| rules.start_fen());
    // Sent to engines within a line, and with --against read by none of ours first.
    one_line("--fen", &fen).map_err(|e| Failure::input(e.to_string()))?;
    let moves: Vec<String> = position
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if moves.len() > MAX_MOVES {
        return Err(Failure::input(format!(
            "--moves: {} moves, at most {MAX_MOVES} are accepted",
            moves.len()
        ))
        .into());
    }
    Ok(Query::new(fen, &moves, depth))
}

/// Checks a depth for commands that ask engines.
///
/// # Errors
/// Depth 0 or above the limit.
pub fn check_engine_depth(depth: u32) -> Result<()> {
    if depth == 0 || depth > MAX_DEPTH {
        return Err(Failure::input(format!("depth {depth}: expected 1 to {MAX_DEPTH}")).into());
    }
    Ok(())
}

/// Runs `cvperft diff`.
///
/// # Errors
/// Bad arguments or an engine failure (exit 2); a difference (exit 1, already reported).
pub fn run(args: DiffArgs, out: &mut impl Write) -> Result<()> {
    // Engine names, moves and notes from engines and files: escaped as printed (the HTML page
    // escapes its own text).
    let mut escaped = super::output::EscapedLines::new(out);
    let out = &mut escaped;
    check_engine_depth(args.depth)?;
    let rules = build_rules(&args.position.variant, &args.position.options)?;
    let root = root_query(&rules, &args.position, args.depth)?;
    // Refuse a bad position or move before starting any engine, with `--against` too: the FEN
    // and moves are read as `-v`'s, whichever engines are compared (a chess FEN under `-v
    // cerimon` would otherwise be agreed on by two engines that both read it as chess).
    args.position.position()?;
    let against = args.against.options(&args.engine.settings);
    if against.is_none() {
        super::check_threads(args.threads)?;
    }
    let mut engine = args
        .engine
        .config()?
        .open(rules)
        .map_err(|e| Failure::input(e.to_string()))?;
    let mut reference: Box<dyn Engine> = match against {
        Some(against) => config(&against)?
            .open(rules)
            .map_err(|e| Failure::input(e.to_string()))?,
        None => Box::new(ReferenceEngine::new(rules).threads(args.threads)),
    };
    let html = args.format == "html";
    if !html {
        writeln!(out, "diff {}, depth {}", rules.variant.spec.id, root.depth)?;
        writeln!(out, "  fen:       {}", root.fen)?;
        if !root.moves.is_empty() {
            writeln!(out, "  moves:     {}", root.moves.join(" "))?;
        }
        writeln!(out, "  reference: {}", reference.name())?;
        writeln!(
            out,
            "  engine:    {}",
            cvperft::report::printable(&engine.name())
        )?;
        out.flush()?;
    }
    let bisection = match bisect_keeping_steps(reference.as_mut(), engine.as_mut(), &root, rules) {
        Ok(b) => b,
        Err(cut) => {
            let who = match cut.side {
                Side::Reference => "the reference side failed",
                Side::Engine => "the engine failed",
            };
            let why = format!("{who}: {}", cut.error);
            // What was found before the failure is kept: the sides differ at the root.
            if html && !cut.steps.is_empty() {
                let so_far = cut.so_far(rules, &root);
                out.write_all(
                    page(
                        (&args, rules, &root),
                        &so_far,
                        [reference.name(), engine.name()],
                        &cut.question(&root),
                        Some(&why),
                    )
                    .as_bytes(),
                )?;
            } else if !cut.steps.is_empty() {
                descent(out, &args, &root, &cut.steps)?;
                writeln!(out, "  (the descent stopped: {who}, see the error)")?;
                for note in &cut.notes {
                    writeln!(out, "  note:      {note}")?;
                }
            }
            drop(engine);
            drop(reference);
            return Err(Failure::input(why).into());
        }
    };
    if html {
        let page = page(
            (&args, rules, &root),
            &bisection,
            [reference.name(), engine.name()],
            &bisection.disagreement().query,
            None,
        );
        out.write_all(page.as_bytes())?;
        if bisection.agrees() {
            return Ok(());
        }
        return Err(Failure {
            code: 1,
            message: String::new(),
        }
        .into());
    }
    if bisection.agrees() {
        let d = &bisection.last().reference;
        writeln!(
            out,
            "agree: {} moves, {} nodes at depth {}",
            d.entries.len(),
            d.total,
            root.depth
        )?;
        return Ok(());
    }
    report(out, &args, &root, &bisection, rules)?;
    Err(Failure {
        code: 1,
        message: String::new(),
    }
    .into())
}

/// The HTML page of a bisection (`names`: the reference's, the engine's), with the command
/// asking `question` again; `stopped` says why the descent stopped short, if it did.
fn page(
    (args, rules, root): (&DiffArgs, Rules, &Query),
    bisection: &Bisection,
    [reference, engine]: [String; 2],
    question: &Query,
    stopped: Option<&str>,
) -> String {
    let root_fen = position_fen(rules, root, &[]);
    diff_page(&DiffPage {
        variant: rules.variant.spec.id,
        fen: &root.fen,
        moves: &root.moves,
        depth: root.depth,
        reference: &reference,
        engine: &engine,
        bisection,
        root_fen: root_fen.as_deref(),
        reproduce: &reproduce(args, root, question),
        stopped,
    })
}

/// Prints the line diff of two divides: `-` reference only, `+` engine only.
pub fn print_divide_diff(out: &mut impl Write, reference: &Divide, engine: &Divide) -> Result<()> {
    let text = |d: &Divide| -> String {
        d.entries
            .iter()
            .map(|e| format!("{} {}\n", e.text, e.count))
            .collect()
    };
    let (old, new) = (text(reference), text(engine));
    let diff = TextDiff::from_lines(&old, &new);
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            ChangeTag::Delete => "-",
            ChangeTag::Insert => "+",
            ChangeTag::Equal => continue,
        };
        write!(out, "{sign}{change}")?;
    }
    Ok(())
}

fn summary(step: &Step) -> String {
    comparison_summary(&step.comparison)
}

fn texts(entries: &[cvperft::perft::DivideEntry]) -> String {
    if entries.is_empty() {
        "-".to_string()
    } else {
        entries
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The root comparison (a table, or the `-`/`+` dump with `--format patch`) and one line per
/// step of the descent.
fn descent(out: &mut impl Write, args: &DiffArgs, root: &Query, steps: &[Step]) -> Result<()> {
    let first = &steps[0];
    let patch = args.format == "patch";
    writeln!(out, "differ at depth {}: {}", root.depth, summary(first))?;
    if patch {
        writeln!(out, "--- reference")?;
        writeln!(out, "+++ engine")?;
        print_divide_diff(out, &first.reference, &first.engine)?;
    } else {
        write!(
            out,
            "{}",
            DivideTable::of_comparison(&first.comparison).to_text("  ")
        )?;
    }
    writeln!(out, "bisect:")?;
    for step in steps {
        let played = &step.query.moves[root.moves.len()..];
        let place = if played.is_empty() {
            "root".to_string()
        } else {
            format!("after {}", played.join(" "))
        };
        write!(
            out,
            "  {place}, depth {}: {}",
            step.query.depth,
            summary(step)
        )?;
        match (&step.next, step.comparison.counts.first()) {
            (Some(next), Some((_, r, e))) => writeln!(out, "; descend into {next} ({r} vs {e})")?,
            _ => writeln!(out)?,
        }
    }
    Ok(())
}

fn report(
    out: &mut impl Write,
    args: &DiffArgs,
    root: &Query,
    b: &Bisection,
    rules: Rules,
) -> Result<()> {
    descent(out, args, root, &b.steps)?;
    let last = b.last();
    writeln!(out)?;
    let headline = match b.stop {
        Some(Stop::MovesDiffer) => "first difference: the move lists differ",
        Some(Stop::CountsAtDepthOne) => {
            "first difference: same moves at depth 1 but different counts"
        }
        Some(Stop::Vanished) => {
            "first difference: counts differ above, but the divides after the move agree"
        }
        None => "first difference",
    };
    writeln!(out, "{headline}")?;
    writeln!(
        out,
        "  path:      {}",
        if b.path.is_empty() {
            "(root)".to_string()
        } else {
            b.path.join(" ")
        }
    )?;
    writeln!(
        out,
        "  fen:       {}",
        b.fen
            .as_deref()
            .unwrap_or("(our reference cannot follow this path)")
    )?;
    writeln!(out, "  depth:     {}", last.query.depth)?;
    writeln!(
        out,
        "  missing:   {}  (the reference has them, the engine does not)",
        texts(&last.comparison.missing)
    )?;
    writeln!(
        out,
        "  extra:     {}  (the engine has them, the reference does not)",
        texts(&last.comparison.extra)
    )?;
    if b.stop == Some(Stop::CountsAtDepthOne) {
        for (mv, r, e) in &last.comparison.counts {
            writeln!(out, "  count:     {mv} {r} (reference) vs {e} (engine)")?;
        }
    }
    for note in &b.notes {
        writeln!(out, "  note:      {note}")?;
    }
    if args.format != "patch" {
        if b.stop == Some(Stop::MovesDiffer) && !b.path.is_empty() {
            write!(
                out,
                "{}",
                DivideTable::of_comparison(&last.comparison).to_text("  ")
            )?;
        }
        if let Some(fen) = &b.fen
            && let Ok(board) = Board::from_fen(rules.variant, fen)
        {
            let overlay = Overlay::finding(
                &b.path,
                &entry_texts(&last.comparison.missing),
                &entry_texts(&last.comparison.extra),
            );
            let charset = if args.ascii {
                Charset::Ascii
            } else {
                Charset::Unicode
            };
            writeln!(out)?;
            write!(out, "{}", text::render(&board, &overlay, charset))?;
            writeln!(out)?;
        }
    }
    writeln!(
        out,
        "  reproduce: {}",
        reproduce(args, root, &b.disagreement().query)
    )?;
    Ok(())
}

fn entry_texts(entries: &[cvperft::perft::DivideEntry]) -> Vec<String> {
    entries.iter().map(|e| e.text.clone()).collect()
}

/// A command line that asks the same question at `last`, the step where the sides disagree
/// ([`cvperft::engine::bisect::Bisection::disagreement`]).
fn reproduce(args: &DiffArgs, root: &Query, question: &Query) -> String {
    let mut words = vec![
        "cvperft".to_string(),
        "diff".to_string(),
        question.depth.to_string(),
        "-v".to_string(),
        shell_quote(&args.position.variant),
    ];
    for o in &args.position.options {
        words.extend(["-o".to_string(), shell_quote(o)]);
    }
    words.extend(["--fen".to_string(), shell_quote(&root.fen)]);
    if !question.moves.is_empty() {
        words.extend([
            "--moves".to_string(),
            shell_quote(&question.moves.join(" ")),
        ]);
    }
    words.extend(args.engine.flags());
    words.extend(args.against.flags());
    words.join(" ")
}
