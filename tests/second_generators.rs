//! The second generators of the games no public engine plays in full, written in Python from
//! RULES.md (Pink Panther's and Plutonian's by helpers who did not read cvperft's source,
//! Cerimon's by its suite's author), compared with cvperft by their cross-check scripts: a
//! short run of each (the start positions and suite positions at small depths, a few random
//! games and positions; Cerimon's suite checks up to 20,000 leaves), and each script shown to
//! fail on a copy of its generator broken on purpose, so that a run that agrees means
//! something. The full runs are the scripts' defaults (docs/records.md, "Checks by other
//! generators").

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Whether `python3` runs here; if not, the test says it is skipped (or fails where
/// `CVPERFT_REQUIRE_TOOLS` names `python3`).
fn python_here() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        support::tool_missing(
            "python3",
            "python3 is not installed, so the second generators (tools/*-reference.py) were not compared",
        );
    }
    ok
}

/// Runs `tools/<script>` against the test's own binary with `args`.
fn crosscheck(script: &str, args: &[&str]) -> Output {
    crosscheck_with(script, Path::new(support::CVPERFT), args)
}

/// Runs `tools/<script>` against the binary `cvperft` with `args`.
fn crosscheck_with(script: &str, cvperft: &Path, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(Path::new(ROOT).join("tools").join(script))
        .arg("--cvperft")
        .arg(cvperft)
        .args(args)
        .current_dir(ROOT)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs")
}

/// The standard output of `tools/<script>` run with `short` against a copy of
/// `tools/<reference>` with `from` replaced by `to` (exactly once), which must fail (exit 1);
/// `None` where python3 is missing.
fn run_broken(
    script: &str,
    short: &[&str],
    reference: &str,
    from: &str,
    to: &str,
) -> Option<String> {
    if !python_here() {
        return None;
    }
    let text = std::fs::read_to_string(Path::new(ROOT).join("tools").join(reference)).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{reference} no longer has `{from}` once: update this test's break"
    );
    let dir = support::scratch_dir("second-generators", reference);
    let path: PathBuf = dir.join(reference);
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let mut args = short.to_vec();
    args.extend(["--reference", path.to_str().unwrap()]);
    Some(ended_with(&crosscheck(script, &args), 1))
}

/// The standard output of a run that ended with `code`, or a failure showing both streams.
fn ended_with(o: &Output, code: i32) -> String {
    let out = support::stdout(o);
    assert_eq!(support::code(o), code, "{out}\n{}", support::stderr(o));
    out
}

/// The number just before `after` on the first line of `out` that holds `after` (0 where no
/// line does), so that a run which compared nothing fails instead of agreeing.
fn count_before(out: &str, after: &str) -> u64 {
    let line = out.lines().find(|l| l.contains(after)).unwrap_or("");
    let head = line.split(after).next().unwrap_or("");
    head.split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The standard output of `tools/<script>` run with `short`, which must agree (exit 0);
/// `None` where python3 is missing.
fn agreed(script: &str, short: &[&str]) -> Option<String> {
    python_here().then(|| ended_with(&crosscheck(script, short), 0))
}

const PINK_PANTHER_SHORT: &[&str] = &[
    "--games",
    "12",
    "--placements",
    "20",
    "--suite-depth",
    "2",
    "--start-depth",
    "3",
];

const PLUTONIAN_SHORT: &[&str] = &[
    "--quick",
    "--games",
    "12",
    "--positions",
    "30",
    "--suite-nodes",
    "20000",
    "--suite-depth",
    "2",
];

#[test]
fn pink_panther_second_generator_agrees() {
    let Some(out) = agreed("pink-panther-crosscheck.py", PINK_PANTHER_SHORT) else {
        return;
    };
    assert!(out.ends_with("all agree\n"), "{out}");
    // The parts ran and compared something: the start position, the suite's divides, games and
    // placements.
    assert!(
        out.lines()
            .any(|l| l.starts_with("start divide 3: ") && l.ends_with(" (agree)")),
        "{out}"
    );
    assert!(
        count_before(&out, " divides compared with cvperft, all agree") > 0,
        "{out}"
    );
    assert!(
        out.contains("random games: 12 final positions agree"),
        "{out}"
    );
    assert!(
        out.contains("random placements (default options): 20 positions agree"),
        "{out}"
    );
}

#[test]
fn pink_panther_crosscheck_catches_a_broken_generator() {
    // Promotion to a Knight forgotten (PP-8).
    let Some(out) = run_broken(
        "pink-panther-crosscheck.py",
        PINK_PANTHER_SHORT,
        "pink-panther-reference.py",
        "PROMO_LETTERS = \"rbn\"",
        "PROMO_LETTERS = \"rb\"",
    ) else {
        return;
    };
    assert!(out.contains("DISAGREEMENT"), "{out}");
    // The first difference names a Knight promotion (`c6c7n`) only cvperft has.
    assert!(
        out.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() == 5
                && words[0].len() == 5
                && words[0].ends_with('n')
                && words[1..4] == ["reference", "None", "cvperft"]
        }),
        "{out}"
    );
}

#[test]
fn plutonian_second_generator_agrees() {
    let Some(out) = agreed("plutonian-crosscheck.py", PLUTONIAN_SHORT) else {
        return;
    };
    assert!(out.contains("; 0 disagreements"), "{out}");
    // The parts ran and compared something: the suite's checks and positions, games, positions.
    assert!(count_before(&out, " checks, ") > 0, "{out}");
    assert!(count_before(&out, " positions; ") > 0, "{out}");
    assert!(out.contains("== random games: 12 games"), "{out}");
    assert!(out.contains("30 positions compared"), "{out}");
    assert!(
        count_before(&out, " divides, FENs and suite checks") > 0,
        "{out}"
    );
}

#[test]
fn plutonian_crosscheck_catches_a_broken_generator() {
    // Square colours swapped: every Changeling moves as on the other colour (PL-2).
    let Some(out) = run_broken(
        "plutonian-crosscheck.py",
        PLUTONIAN_SHORT,
        "plutonian-reference.py",
        "return (sq % 8 + sq // 8) % 2 == 1",
        "return (sq % 8 + sq // 8) % 2 == 0",
    ) else {
        return;
    };
    assert!(out.contains("first disagreement: "), "{out}");
}

#[test]
fn cerimon_second_generator_agrees() {
    let Some(out) = agreed(
        "cerimon-crosscheck.py",
        &["--max-leaves", "20000", "--games", "4"],
    ) else {
        return;
    };
    // The random games compared something too.
    assert!(
        count_before(&out, " divides compared, 0 differ") >= 40,
        "{out}"
    );
    // Most of the suite's perft and divide checks are small enough for the short run.
    let agreed: usize = out
        .split(" perft and divide checks agree, 0 differ")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    assert!(agreed >= 50, "{out}");
}

#[test]
fn cerimon_random_games_catch_a_broken_generator() {
    // No Sergeant's double step (CE-2), with the suite left out: the random games alone find it.
    let Some(out) = run_broken(
        "cerimon-crosscheck.py",
        &["--max-leaves", "0", "--games", "4"],
        "cerimon-reference.py",
        "            if y == second:",
        "            if False:",
    ) else {
        return;
    };
    assert!(out.contains("DISAGREEMENT game "), "{out}");
    assert!(count_before(&out, " differ (") >= 1, "{out}");
}

#[test]
fn cerimon_crosscheck_catches_a_broken_generator() {
    // Knights resurrected on the first rank instead of the second (CE-5's beginning squares).
    let Some(out) = run_broken(
        "cerimon-crosscheck.py",
        &["--max-leaves", "20000"],
        "cerimon-reference.py",
        "BEGIN_RANK = {'N': 1,",
        "BEGIN_RANK = {'N': 0,",
    ) else {
        return;
    };
    assert!(out.contains("DISAGREEMENT cerimon::"), "{out}");
}

#[test]
fn crosschecks_exit_2_when_cvperft_itself_fails() {
    // A cvperft that starts and then fails (a crash, a refused FEN) is not a disagreement
    // between the generators: every script says so and exits 2, never 0 and never 1.
    if !python_here() {
        return;
    }
    let dir = support::scratch_dir("second-generators", "failing-cvperft");
    let fake = dir.join("cvperft");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'cvperft: injected failure' >&2\nexit 3\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for (script, short) in [
        ("pink-panther-crosscheck.py", PINK_PANTHER_SHORT),
        ("plutonian-crosscheck.py", PLUTONIAN_SHORT),
        ("cerimon-crosscheck.py", &["--max-leaves", "20000"][..]),
    ] {
        let out = crosscheck_with(script, &fake, short);
        let err = support::stderr(&out);
        assert_eq!(support::code(&out), 2, "{script}: {err}");
        assert!(
            err.contains("injected failure") || err.contains("failed"),
            "{script}: {err}"
        );
        assert!(!err.contains("Traceback"), "{script}: {err}");
    }
}
