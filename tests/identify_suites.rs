//! `cvperft identify --from-suites`: probes drawn from the suites' disputed readings (cases of
//! one position under two values of an option, with different counts) must identify the
//! reading of an engine set to each value, with no probe file at all; an engine with a planted
//! fault must match no value of the option whose cases the fault changes.

mod support;

use cvperft::engine::identify::option_values;
use support::{CVPERFT, Run, cvperft, temp_dir};

/// A probe file with no probe for every variant, so that only the suites' probes are asked.
fn no_probes(variant: &str) -> String {
    let dir = temp_dir(&format!("identify-suites-{variant}"));
    let path = dir.join(format!("{variant}.yaml"));
    std::fs::write(&path, format!("variant: {variant}\nprobes: []\n")).expect("probe file");
    path.to_str().expect("utf-8").to_string()
}

fn identify(variant: &str, engine: &str, probes: &str) -> Run {
    cvperft(&[
        "identify",
        "-v",
        variant,
        "--engine",
        engine,
        "--protocol",
        "perftree",
        "--probes",
        probes,
        "--from-suites",
        "suites",
    ])
}

/// The verdict line of `option`.
fn verdict<'a>(run: &'a Run, option: &str, context: &str) -> &'a str {
    run.stdout
        .lines()
        .find(|l| l.starts_with(&format!("{option}: ")))
        .unwrap_or_else(|| panic!("no verdict for {option}: {context}"))
}

#[test]
fn suite_probes_name_every_reading_they_can_tell_apart() {
    let mut decided = Vec::new();
    let mut unprobed = Vec::new();
    for variant in cvperft::variants::IDS {
        let rules = cvperft::variants::rules(variant).expect("registered");
        let probes = no_probes(variant);
        // Against our own defaults: which options do the suites' probes decide?
        let faithful = format!("{CVPERFT} perftree -v {variant}");
        let run = identify(variant, &faithful, &probes);
        let context = format!("{variant}:\n{}{}", run.stdout, run.stderr);
        if run
            .stderr
            .contains("lists no probes and --from-suites found none: with nothing to ask")
        {
            // A suite that disputes no reading gives no probe: with an empty probe file there
            // is nothing to ask, and no verdict (exit 2; it said "0 probes" and every option
            // undecided, exit 0).
            assert_eq!(run.code, 2, "{context}");
            unprobed.push(*variant);
            continue;
        }
        assert_eq!(run.code, 0, "{context}");
        assert!(run.stdout.contains(" from suites"), "{context}");
        for (option, values) in option_values(&rules) {
            let decidable = verdict(&run, &option, &context).contains("decided by");
            if decidable {
                decided.push(format!("{variant} {option}"));
            }
            for value in &values {
                let engine = format!("{CVPERFT} perftree -v {variant} -o {option}={value}");
                let run = identify(variant, &engine, &probes);
                let context = format!("{variant} {option}={value}:\n{}{}", run.stdout, run.stderr);
                assert_eq!(run.code, 0, "{context}");
                let line = verdict(&run, &option, &context);
                if decidable {
                    // The probes that decide the default tell every value apart: the engine's
                    // is named.
                    assert!(
                        line.starts_with(&format!("{option}: {value}  ")),
                        "{context}"
                    );
                } else {
                    assert!(
                        line.starts_with(&format!("{option}: undecided between "))
                            && line.contains(value.as_str()),
                        "{context}"
                    );
                }
                assert!(!run.stdout.contains("matches none"), "{context}");
            }
        }
    }
    assert_eq!(
        unprobed,
        ["chess", "plutonian"],
        "the suites without disputed readings"
    );
    // The suites record disputed readings of four variants' options (Silver Elephant's bare
    // King, the marriage rules, Cerimon's resurrection, GE-1).
    for expected in [
        "silver-elephant bare-king",
        "silver-elephant game-end",
        "bachelor-kamil medinese",
        "cerimon resurrect-by",
        "pink-panther medinese",
    ] {
        assert!(
            decided.iter().any(|d| d == expected),
            "{expected} not decided by the suites: {decided:?}"
        );
    }
}

#[test]
fn a_planted_fault_matches_no_value_of_its_option() {
    let probes = no_probes("cerimon");
    let engine = format!("{CVPERFT} perftree -v cerimon --inject no-resurrection");
    let run = identify("cerimon", &engine, &probes);
    let context = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 1, "{context}");
    let line = verdict(&run, "resurrect-by", &context);
    assert!(line.contains("matches none"), "{context}");
    // The departure names a position of the suites: a probe drawn from a pair of cases.
    assert!(line.contains("departs at probe `cerimon:"), "{context}");
}

#[test]
fn suite_probes_are_added_to_the_probe_file_and_bad_suites_refused() {
    let run = cvperft(&[
        "identify",
        "-v",
        "silver-elephant",
        "--engine",
        &format!("{CVPERFT} perftree -v silver-elephant"),
        "--protocol",
        "perftree",
        "--from-suites",
        "suites/silver-elephant.yaml",
        "suites/chess.yaml",
    ]);
    let context = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 0, "{context}");
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.contains("from fixtures/identify/silver-elephant.yaml, ")
            && first.contains(" from suites/silver-elephant.yaml suites/chess.yaml"),
        "{context}"
    );

    let dir = temp_dir("identify-suites-bad");
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "variant: chess\ncases: [{id: x, perft: {1: -3}}]\n").expect("suite");
    let run = cvperft(&[
        "identify",
        "--engine",
        &format!("{CVPERFT} perftree"),
        "--protocol",
        "perftree",
        "--from-suites",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("bad.yaml"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// Away from a clone (no `fixtures/identify/` where it runs) `identify` asks the probes built
/// into cvperft: the same verdicts as the repository's files give, said as built in. Where
/// the file is there in any form it is read as before (a broken link is refused).
#[test]
fn without_a_probe_file_here_the_built_in_probes_are_asked() {
    let away = temp_dir("identify-away");
    let engine = format!("{CVPERFT} perftree -v bachelor-kamil -o medinese=continue");
    let args = [
        "identify",
        "-v",
        "bachelor-kamil",
        "--engine",
        &engine,
        "--protocol",
        "perftree",
    ];
    let run_in = |dir: &std::path::Path| support::cvperft_output_in(dir, &args);
    let here = cvperft(&args);
    let there = run_in(&away);
    let there_out = String::from_utf8_lossy(&there.stdout);
    assert_eq!(here.code, 0, "{}{}", here.stdout, here.stderr);
    assert_eq!(there.status.code(), Some(0), "{there_out}");
    let first = there_out.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("probes from fixtures/identify/bachelor-kamil.yaml (built into cvperft)"),
        "{there_out}"
    );
    assert!(
        here.stdout
            .lines()
            .next()
            .is_some_and(|l| l.ends_with("probes from fixtures/identify/bachelor-kamil.yaml")),
        "{}",
        here.stdout
    );
    let verdicts = |text: &str| text.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(verdicts(&there_out), verdicts(&here.stdout));
    assert!(
        here.stdout.contains("medinese: continue"),
        "{}",
        here.stdout
    );
    std::fs::create_dir_all(away.join("fixtures/identify")).expect("directory");
    std::os::unix::fs::symlink(
        away.join("nowhere"),
        away.join("fixtures/identify/bachelor-kamil.yaml"),
    )
    .expect("a link");
    let broken = run_in(&away);
    assert_eq!(broken.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&broken.stdout).contains("built into"));
}
