//! `cvperft identify`: which value of each rule option does an engine implement?

use super::engine_args::EngineArgs;
use super::selection::load_suites;
use super::{Failure, build_rules};
use anyhow::Result;
use clap::Args;
use cvperft::engine::bisect::{Bisection, Stop};
use cvperft::engine::identify::{
    Probe, ProbeFile, Verdict, built_in_probes, identify, load_probes, probes_from_suites,
};
use cvperft::perft::DivideEntry;
use cvperft::variant::Rules;
use std::io::Write;
use std::path::PathBuf;

/// `cvperft identify` arguments.
#[derive(Args, Debug, Clone)]
pub struct IdentifyArgs {
    /// Variant id.
    #[arg(short = 'v', long = "variant", default_value = "chess")]
    pub variant: String,
    /// Values assumed for the options not under study (`name=value`, repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Probe file (default: fixtures/identify/<variant>.yaml where it runs, else the copy
    /// built into cvperft).
    #[arg(long, value_name = "FILE")]
    pub probes: Option<PathBuf>,
    /// Also probe where the suites record two readings of one position (cases that differ in
    /// one option, or a case and an alternative) with different counts: suite files or
    /// directories (suites of other variants are ignored).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub from_suites: Vec<PathBuf>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The default probes, and where they come from: `fixtures/identify/<variant>.yaml` under the
/// current directory when it is there (in any form: a file or a broken link there is read, and
/// refused, as `--probes` would be), else the copy built into cvperft.
fn default_probes(rules: Rules) -> Result<(String, ProbeFile)> {
    let relative =
        PathBuf::from("fixtures/identify").join(format!("{}.yaml", rules.variant.spec.id));
    if relative.symlink_metadata().is_err()
        && let Some((path, probes)) = built_in_probes(rules)
    {
        let probes = probes.map_err(|e| Failure::input(e.to_string()))?;
        return Ok((format!("{path} (built into cvperft)"), probes));
    }
    let probes = load_probes(&relative, rules).map_err(|e| Failure::input(e.to_string()))?;
    Ok((relative.display().to_string(), probes))
}

/// Runs `cvperft identify`.
///
/// # Errors
/// Bad arguments, a bad probe file or an engine failure (exit 2); an engine matching no value of
/// some option (exit 1, already reported).
pub fn run(args: IdentifyArgs, out: &mut impl Write) -> Result<()> {
    // Probe names, values and moves come from files and the engine: escaped as printed.
    let mut escaped = super::output::EscapedLines::new(out);
    let out = &mut escaped;
    let rules = build_rules(&args.variant, &args.options)?;
    let (path, mut probes) = match &args.probes {
        Some(path) => (
            path.display().to_string(),
            load_probes(path, rules).map_err(|e| Failure::input(e.to_string()))?,
        ),
        None => default_probes(rules)?,
    };
    let from_file = probes.probes.len();
    let mut sources = vec![format!("{from_file} from {path}")];
    let only_file = format!("{from_file} probes from {path}");
    if !args.from_suites.is_empty() {
        let suites = load_suites(&args.from_suites)?;
        let mut added = 0;
        for probe in probes_from_suites(&suites, rules) {
            let asked = |p: &Probe| {
                (&p.fen, &p.moves, p.depth, &p.options)
                    == (&probe.fen, &probe.moves, probe.depth, &probe.options)
            };
            if !probes.probes.iter().any(asked) {
                probes.probes.push(probe);
                added += 1;
            }
        }
        let names: Vec<String> = args
            .from_suites
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        sources.push(format!("{added} from {}", names.join(" ")));
    }
    // Before the engine starts: with nothing to ask, no verdict could hold.
    if probes.probes.is_empty() {
        let suites = if args.from_suites.is_empty() {
            String::new()
        } else {
            " and --from-suites found none".to_string()
        };
        return Err(Failure::input(format!(
            "identify {}: {path} lists no probes{suites}: {}",
            rules.variant.spec.id,
            cvperft::engine::identify::IdentifyError::NoProbes
        ))
        .into());
    }
    let config = args.engine.config()?;
    let mut engine = config
        .open(rules)
        .map_err(|e| Failure::input(e.to_string()))?;
    let from = if sources.len() == 1 {
        only_file
    } else {
        format!("{} probes: {}", probes.probes.len(), sources.join(", "))
    };
    writeln!(out, "identify {} with {from}", rules.variant.spec.id)?;
    writeln!(
        out,
        "  engine: {}",
        cvperft::report::printable(&engine.name())
    )?;
    out.flush()?;
    let reports =
        identify(rules, &probes, engine.as_mut()).map_err(|e| Failure::input(e.to_string()))?;
    let given = rules.option_pairs();
    let changed: Vec<String> = reports
        .assumed
        .iter()
        .filter(|(o, v)| !given.iter().any(|(go, gv)| go == o && gv == v))
        .map(|(o, v)| format!("{o}={v}"))
        .collect();
    if !changed.is_empty() {
        writeln!(
            out,
            "  assuming the readings found: {} (each option is judged with the others at these)",
            changed.join(" ")
        )?;
    }
    let mut departed = false;
    for r in &reports.reports {
        match &r.verdict {
            Verdict::Agrees { value, deciding } => writeln!(
                out,
                "{}: {value}  (of {}; decided by {})",
                r.option,
                r.values.join(" | "),
                deciding.join(", ")
            )?,
            Verdict::Undecided { values, reason } => match reason {
                Some(why) => writeln!(
                    out,
                    "{}: undecided between {}  ({why})",
                    r.option,
                    values.join(" | ")
                )?,
                None => writeln!(
                    out,
                    "{}: undecided between {}  (no probe among {} tells them apart)",
                    r.option,
                    values.join(" | "),
                    r.probes.len()
                )?,
            },
            Verdict::MatchesNone {
                closest,
                probe,
                bisection,
                refusal,
            } => {
                departed = true;
                writeln!(
                    out,
                    "{}: matches none of {}; closest {closest}, departs at probe `{probe}`",
                    r.option,
                    r.values.join(" | ")
                )?;
                if let Some(why) = refusal {
                    writeln!(out, "  {why}")?;
                }
                if let Some(b) = bisection {
                    print_departure(out, b.as_ref())?;
                }
            }
        }
    }
    if departed {
        return Err(Failure {
            code: 1,
            message: String::new(),
        }
        .into());
    }
    Ok(())
}

fn print_departure(out: &mut impl Write, b: &Bisection) -> Result<()> {
    let last = b.last();
    let path = if b.path.is_empty() {
        "(probe position)".to_string()
    } else {
        b.path.join(" ")
    };
    writeln!(out, "  path:    {path}")?;
    writeln!(
        out,
        "  fen:     {}",
        b.fen.as_deref().unwrap_or("(unknown)")
    )?;
    let list = |entries: &[DivideEntry]| {
        if entries.is_empty() {
            "-".to_string()
        } else {
            entries
                .iter()
                .map(|e| e.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    writeln!(out, "  missing: {}", list(&last.comparison.missing))?;
    writeln!(out, "  extra:   {}", list(&last.comparison.extra))?;
    // Equal move lists: say which count differs, or the departure would show nothing.
    if b.stop == Some(Stop::CountsAtDepthOne) {
        for (mv, r, e) in &last.comparison.counts {
            writeln!(out, "  count:   {mv} {r} (reference) vs {e} (engine)")?;
        }
    }
    if let Some((mv, r, e)) = b.vanished_count() {
        writeln!(
            out,
            "  count:   {mv} {r} (reference) vs {e} (engine) at depth {}, but the divides \
             after it agree",
            last.query.depth + 1
        )?;
    }
    Ok(())
}
