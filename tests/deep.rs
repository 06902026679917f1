//! Deep perft through work units, run as a user runs it: `plan`, `work --shard I/N`, `merge`
//! compared with plain `divide` for positions of every variant and option at splits 1..3, and
//! every refusal (missing, repeated or foreign results, an edited plan, a cut-short line, counts
//! that differ under `--verify`). Expected counts come from `divide` itself, never from here.

use cvperft::deep::merge::merge;
use cvperft::deep::plan::{PlanRequest, build};
use cvperft::deep::results::{RESULTS_FORMAT, ResultsHeader, ResultsWriter, UnitResult};
use cvperft::deep::work::{Counter, UnitCount, shard_units};
use cvperft::notation::{parse_position, to_fen};
use cvperft::perft::divide;
use cvperft::variant::Rules;
use cvperft::variants;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cvperft_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = cvperft_in(dir, args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn refused(dir: &Path, args: &[&str], code: i32, fragment: &str) -> String {
    let o = cvperft_in(dir, args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(
        err.contains(fragment),
        "{args:?}: `{fragment}` not in {err}"
    );
    assert!(err.lines().any(|l| l.starts_with("cvperft: ")), "{err}");
    err
}

/// `cvperft plan ARGS... --output plan.jsonl`, expected to succeed.
fn plan(dir: &Path, args: &[&str]) {
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    all.extend(["--output", "plan.jsonl"]);
    ok(dir, &all);
}

/// `cvperft work PLAN ARGS...`, expected to succeed; its standard output.
fn work(dir: &Path, plan: &str, args: &[&str]) -> String {
    let mut all = vec!["work", plan];
    all.extend_from_slice(args);
    ok(dir, &all)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("deep-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn results(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("results-"))
        .collect();
    files.sort();
    files
}

/// Plans `position` (variant, options, FEN arguments) at `depth` / `split`, counts `shards`
/// shards, merges with `--divide`; returns the merged divide text.
fn pipeline(dir: &Path, depth: u32, split: u32, shards: usize, position: &[String]) -> String {
    let d = depth.to_string();
    let s = split.to_string();
    let mut args = vec!["plan", &d, "--split", &s, "--output", "plan.jsonl"];
    args.extend(position.iter().map(String::as_str));
    ok(dir, &args);
    for i in 1..=shards {
        let shard = format!("{i}/{shards}");
        ok(dir, &["work", "plan.jsonl", "--shard", &shard, "--quiet"]);
    }
    let mut args = vec!["merge".to_string(), "plan.jsonl".into(), "--divide".into()];
    args.extend(results(dir));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(dir, &args)
}

/// Every variant with each value of each option (one at a time), as (rules, `-v`/`-o` args).
fn configurations() -> Vec<(Rules, Vec<String>)> {
    let mut out = Vec::new();
    for v in variants::all() {
        let base = vec!["-v".to_string(), v.spec.id.to_string()];
        out.push((Rules::new(v), base.clone()));
        let mut options: Vec<(&str, &str)> = vec![("game-end", "movegen")];
        for o in &v.spec.options {
            options.extend(o.values.iter().skip(1).map(|value| (o.name, *value)));
        }
        for (name, value) in options {
            let mut rules = Rules::new(v);
            rules.set(name, value).expect("declared option");
            let mut args = base.clone();
            args.extend(["-o".to_string(), format!("{name}={value}")]);
            out.push((rules, args));
        }
    }
    out
}

/// Positions along a fixed pseudo-random game from the start (captures, hands, jewel carriers
/// and en-passant squares come up on the way), as FENs.
fn game_positions(rules: Rules, start: &str, seed: u64, plies: &[usize]) -> Vec<String> {
    let mut pos = parse_position(rules, start).expect("start");
    let mut state = seed;
    let mut out = Vec::new();
    for ply in 0..=*plies.iter().max().unwrap_or(&0) {
        if plies.contains(&ply) {
            out.push(to_fen(&pos));
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pos = pos.play(moves[(state >> 33) as usize % moves.len()]);
    }
    out
}

/// Plan, shards and merge through the library (no process per step, so many positions fit):
/// the merged divide equals plain divide for the start and a later position of every
/// variant under every option value, at splits 1, 2 and 3, dealt into 3 shards counted with
/// and without tables and with `verify`.
#[test]
fn units_merge_to_plain_divide_in_every_variant_and_option() {
    let dir = scratch("every-variant");
    let mut compared = 0;
    for (n, (rules, args)) in configurations().into_iter().enumerate() {
        let mut starts = vec![rules.start_fen()];
        if rules.variant.spec.id == "silver-elephant" {
            starts.push(variants::silver_elephant::SETUP_FEN.to_string());
        }
        let mut fens = Vec::new();
        for start in &starts {
            fens.extend(game_positions(rules, start, n as u64 + 7, &[0, 24]));
        }
        for fen in fens {
            let root = parse_position(rules, &fen).expect("position");
            let expected: Vec<(String, u128)> = divide(&root, 3)
                .into_iter()
                .map(|e| (e.text, u128::from(e.count)))
                .collect();
            for split in 1..=3 {
                let plan = build(
                    &root,
                    &PlanRequest {
                        variant: rules.variant.spec.id,
                        options: &args[2..],
                        fen: &fen,
                        moves: "",
                        depth: 3,
                        split,
                        max_units: 1_000_000,
                        threads: 1,
                    },
                )
                .unwrap_or_else(|e| panic!("{args:?} {fen}: {e}"));
                let mut files = Vec::new();
                for shard in 1..=3 {
                    let path = dir.join(format!("{n}-{compared}-{shard}.jsonl"));
                    let _ = std::fs::remove_file(&path);
                    let (hash, verify) =
                        [(None, false), (Some(1), false), (Some(1), true)][shard - 1];
                    let counter = Counter::new(hash, shard as u64, verify).expect("counter");
                    let header = ResultsHeader {
                        format: RESULTS_FORMAT.into(),
                        plan: plan.header.id.clone(),
                        shard,
                        shards: 3,
                        seed: shard as u64,
                        verify,
                    };
                    let (mut writer, _) = ResultsWriter::open(&path, &header).expect("results");
                    for u in shard_units(&plan, shard, 3) {
                        let (count, verified) =
                            match counter.count(rules, &plan.units[u]).expect("count") {
                                UnitCount::Counted(c) => (c, false),
                                UnitCount::Verified(c) => (c, true),
                                UnitCount::Differ(a, b) => panic!("unit {u}: {a} and {b}"),
                            };
                        writer
                            .append(&UnitResult {
                                unit: u,
                                count: count.to_string(),
                                verified,
                            })
                            .expect("append");
                    }
                    files.push(path);
                }
                let merged = merge(&plan, &files).unwrap_or_else(|e| panic!("{args:?} {fen}: {e}"));
                assert_eq!(merged.divide, expected, "{args:?} {fen} split {split}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 100, "only {compared} plans compared");
}

/// The same through the command line, for the start position of every variant and option.
#[test]
fn plan_work_merge_commands_give_divide() {
    for (n, (_, args)) in configurations().into_iter().enumerate() {
        let dir = scratch(&format!("cli-{n}"));
        let mut divide_args = vec!["divide", "3"];
        divide_args.extend(args.iter().map(String::as_str));
        let expected = ok(&dir, &divide_args);
        assert_eq!(pipeline(&dir, 3, 2, 2, &args), expected, "{args:?}");
    }
}

/// Transpositions are merged: fewer units than paths, and the counts still add up.
#[test]
fn transpositions_become_one_unit() {
    let dir = scratch("transpositions");
    let merged = pipeline(&dir, 5, 3, 2, &["-v".into(), "chess".into()]);
    assert_eq!(merged, ok(&dir, &["divide", "5"]));
    let plan = std::fs::read_to_string(dir.join("plan.jsonl")).expect("plan");
    let header: serde_json::Value =
        serde_json::from_str(plan.lines().next().expect("header")).expect("json");
    let units = header["units"].as_u64().expect("units");
    let paths: u64 = header["paths"]
        .as_str()
        .expect("paths")
        .parse()
        .expect("number");
    assert_eq!(
        paths,
        ok(&dir, &["perft", "3"]).trim().parse::<u64>().unwrap()
    );
    assert!(units < paths, "{units} units for {paths} paths");
    // Kiwipete has en-passant captures and castling within three plies.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let dir = scratch("kiwipete");
    let merged = pipeline(&dir, 4, 3, 2, &["--fen".into(), kiwipete.into()]);
    assert_eq!(merged, ok(&dir, &["divide", "4", "--fen", kiwipete]));
}

/// Shards are disjoint, cover the plan, and are dealt the same way on every run.
#[test]
fn shards_are_disjoint_covering_and_deterministic() {
    let dir = scratch("deal");
    plan(&dir, &["4", "--split", "2", "-v", "cerimon"]);
    let mut seen = std::collections::BTreeSet::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        let file = format!("r{i}.jsonl");
        work(&dir, "plan.jsonl", &["--shard", &shard, "--output", &file]);
        let again = format!("again{i}.jsonl");
        work(&dir, "plan.jsonl", &["--shard", &shard, "--output", &again]);
        let units = |f: &str| -> Vec<u64> {
            let mut u: Vec<u64> = std::fs::read_to_string(dir.join(f))
                .expect("results")
                .lines()
                .skip(1)
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).expect("json")["unit"]
                        .as_u64()
                        .expect("unit")
                })
                .collect();
            u.sort();
            u
        };
        let mine = units(&file);
        assert_eq!(mine, units(&again), "shard {i} dealt the same way twice");
        assert!(!mine.is_empty(), "shard {i} has units");
        for u in mine {
            assert!(seen.insert(u), "unit {u} in two shards");
        }
    }
    let plan = std::fs::read_to_string(dir.join("plan.jsonl")).expect("plan");
    assert_eq!(
        seen.len(),
        plan.lines().count() - 1,
        "the shards cover the plan"
    );
}

/// A missing, repeated or foreign result file, an edited plan and a plan's results merged
/// without the plan are refused with exit 2 and a one-line cause.
#[test]
fn missing_repeated_and_foreign_results_are_refused() {
    let dir = scratch("refusals");
    plan(&dir, &["4", "--split", "2"]);
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let file = format!("r{i}.jsonl");
        work(
            &dir,
            "plan.jsonl",
            &["--shard", &shard, "--output", &file, "-q"],
        );
    }
    let total = ok(
        &dir,
        &["merge", "plan.jsonl", "r1.jsonl", "r2.jsonl", "r3.jsonl"],
    );
    assert_eq!(total, ok(&dir, &["perft", "4"]));
    refused(
        &dir,
        &["merge", "plan.jsonl", "r1.jsonl", "r3.jsonl"],
        2,
        "belong to shard(s) 2 of 3",
    );
    refused(
        &dir,
        &[
            "merge",
            "plan.jsonl",
            "r1.jsonl",
            "r2.jsonl",
            "r3.jsonl",
            "r2.jsonl",
        ],
        2,
        "given twice",
    );
    // Another plan (a different depth) and its results.
    ok(
        &dir,
        &["plan", "3", "--split", "2", "--output", "other.jsonl"],
    );
    work(
        &dir,
        "other.jsonl",
        &["--shard", "1/1", "--output", "o1.jsonl", "-q"],
    );
    refused(
        &dir,
        &[
            "merge",
            "plan.jsonl",
            "r1.jsonl",
            "r2.jsonl",
            "r3.jsonl",
            "o1.jsonl",
        ],
        2,
        "not of this plan",
    );
    refused(
        &dir,
        &["merge", "plan.jsonl", "other.jsonl", "o1.jsonl"],
        2,
        "two plans given",
    );
    refused(&dir, &["merge", "r1.jsonl", "--divide"], 2, "need a plan");
    refused(&dir, &["merge", "plan.jsonl"], 2, "no result files");
    // A shard report among the results is named as one (it was "not a results header: EOF
    // while parsing an object").
    let report = ok(
        &dir,
        &[
            "perft", "4", "--split", "1", "--shard", "1/1", "--format", "json",
        ],
    );
    std::fs::write(dir.join("shard.json"), &report).expect("report");
    std::fs::write(dir.join("compact.json"), report.replace(['\n', ' '], "")).expect("report");
    for file in ["shard.json", "compact.json"] {
        refused(
            &dir,
            &["merge", "plan.jsonl", file],
            2,
            &format!(
                "{file}: line 1: a shard report of `perft --split` (cvperft-shard-1), not results \
                 of `work` (shard reports merge on their own, without a plan)"
            ),
        );
    }
    // A plan changed after it was made: one unit's cost edited.
    let plan = std::fs::read_to_string(dir.join("plan.jsonl")).expect("plan");
    let edited = plan.replacen("\"cost\":", "\"cost\":1", 1);
    std::fs::write(dir.join("edited.jsonl"), edited).expect("write");
    refused(
        &dir,
        &["merge", "edited.jsonl", "r1.jsonl"],
        2,
        "edited.jsonl: line 1: field `id`",
    );
    refused(
        &dir,
        &["work", "edited.jsonl", "--shard", "1/1"],
        2,
        "changed after it was made",
    );
    // A truncated plan.
    let cut: String = plan.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("cut.jsonl"), cut).expect("write");
    refused(
        &dir,
        &["work", "cut.jsonl", "--shard", "1/1"],
        2,
        "the plan is incomplete",
    );
    // A result file of another shard given as the output of this one.
    refused(
        &dir,
        &[
            "work",
            "plan.jsonl",
            "--shard",
            "2/3",
            "--output",
            "r1.jsonl",
        ],
        2,
        "holds results of plan",
    );
    // Bad arguments.
    refused(&dir, &["plan", "3", "--split", "0"], 2, "--split 0");
    refused(&dir, &["plan", "3", "--split", "4"], 2, "--split 4");
    refused(
        &dir,
        &["work", "plan.jsonl", "--shard", "4/3"],
        2,
        "--shard",
    );
    refused(
        &dir,
        &["work", "plan.jsonl", "--shard", "1/3", "--seed", "5"],
        2,
        "--seed needs",
    );
    refused(
        &dir,
        &["work", "nowhere.jsonl", "--shard", "1/3"],
        2,
        "cannot read nowhere.jsonl",
    );
}

/// A result line cut short (a killed writer) is never counted: merge refuses the file, and
/// the rerun of `work` removes the piece and counts that unit again.
#[test]
fn a_cut_short_line_is_counted_again() {
    let dir = scratch("cut-short");
    plan(&dir, &["4", "--split", "2", "-v", "pink-panther"]);
    work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "--output", "r.jsonl", "-q"],
    );
    let full = std::fs::read(dir.join("r.jsonl")).expect("results");
    let lines = full.iter().filter(|&&b| b == b'\n').count();
    // Drop the last two lines and leave half of the one before.
    let mut cut = full.clone();
    for _ in 0..2 {
        cut.pop();
        while cut.last() != Some(&b'\n') {
            cut.pop();
        }
    }
    cut.truncate(cut.len() - 9);
    std::fs::write(dir.join("r.jsonl"), &cut).expect("write");
    refused(&dir, &["merge", "plan.jsonl", "r.jsonl"], 2, "cut short");
    let out = work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "--output", "r.jsonl", "-q"],
    );
    assert!(out.contains("3 counted now"), "{out}");
    let again = std::fs::read(dir.join("r.jsonl")).expect("results");
    assert_eq!(again.iter().filter(|&&b| b == b'\n').count(), lines);
    assert_eq!(
        ok(&dir, &["merge", "plan.jsonl", "r.jsonl"]),
        ok(&dir, &["perft", "4", "-v", "pink-panther"])
    );
    // A complete shard run again counts nothing.
    let out = work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "--output", "r.jsonl", "-q"],
    );
    assert!(out.contains(" 0 counted now"), "{out}");
}

/// `work` killed with SIGKILL at several moments, then run again, always merges to perft.
#[test]
fn killed_work_resumes_to_the_same_total() {
    let dir = scratch("kill");
    plan(&dir, &["5", "--split", "2", "-v", "silver-elephant"]);
    let expected = ok(&dir, &["perft", "5", "-v", "silver-elephant"]);
    for (round, delay_ms) in [30u64, 120, 400].into_iter().enumerate() {
        let file = format!("r{round}.jsonl");
        let mut child = Command::new(env!("CARGO_BIN_EXE_cvperft"))
            .args([
                "work",
                "plan.jsonl",
                "--shard",
                "1/1",
                "--output",
                &file,
                "-q",
            ])
            .current_dir(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        work(
            &dir,
            "plan.jsonl",
            &["--shard", "1/1", "--output", &file, "-q"],
        );
        assert_eq!(
            ok(&dir, &["merge", "plan.jsonl", &file]),
            expected,
            "round {round}"
        );
    }
}

/// `--verify` counts every unit twice (merge says so); counts that differ are reported with
/// exit 1 and not written, and a clean rerun completes the shard.
#[test]
fn verify_counts_twice_and_reports_differences() {
    let dir = scratch("verify");
    plan(&dir, &["4", "--split", "2", "-v", "plutonian"]);
    let expected = ok(&dir, &["perft", "4", "-v", "plutonian"]);
    work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "--verify", "--output", "a.jsonl", "-q"],
    );
    let o = cvperft_in(&dir, &["merge", "plan.jsonl", "a.jsonl"]);
    assert_eq!(text(&o.stdout), expected);
    let plan = std::fs::read_to_string(dir.join("plan.jsonl")).expect("plan");
    let units = plan.lines().count() - 1;
    assert!(
        text(&o.stderr).contains(&format!("{units} counted twice")),
        "{}",
        text(&o.stderr)
    );
    // Two tables with different seeds.
    work(
        &dir,
        "plan.jsonl",
        &[
            "--shard", "1/1", "--verify", "--hash", "4", "--seed", "9", "--output", "b.jsonl", "-q",
        ],
    );
    assert_eq!(ok(&dir, &["merge", "plan.jsonl", "b.jsonl"]), expected);
    // A planted fault in the second count of every odd unit.
    let err = refused(
        &dir,
        &[
            "work",
            "plan.jsonl",
            "--shard",
            "1/1",
            "--verify",
            "--output",
            "c.jsonl",
            "--inject",
            "second-count",
        ],
        1,
        "counted differently twice",
    );
    assert!(err.contains("unit 1 (`"), "{err}");
    refused(&dir, &["merge", "plan.jsonl", "c.jsonl"], 2, "missing");
    let out = work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "--verify", "--output", "c.jsonl", "-q"],
    );
    assert!(out.contains(&format!("{} counted now", units / 2)), "{out}");
    assert_eq!(ok(&dir, &["merge", "plan.jsonl", "c.jsonl"]), expected);
    // Results counted with other settings are not mixed into one file.
    refused(
        &dir,
        &[
            "work",
            "plan.jsonl",
            "--shard",
            "1/1",
            "--output",
            "c.jsonl",
        ],
        2,
        "use another --output",
    );
}

/// Sums above 2^64 are exact, and JSON writes counts above 2^53 as decimal strings.
#[test]
fn totals_beyond_64_bits_are_exact() {
    let dir = scratch("wide");
    plan(&dir, &["2", "--split", "1"]);
    let plan = std::fs::read_to_string(dir.join("plan.jsonl")).expect("plan");
    let header: serde_json::Value =
        serde_json::from_str(plan.lines().next().expect("header")).expect("json");
    let id = header["id"].as_str().expect("id");
    let mut results = format!(
        "{{\"format\":\"cvperft-results-1\",\"plan\":\"{id}\",\"shard\":1,\"shards\":1,\"seed\":0,\"verify\":false}}\n"
    );
    for unit in 0..20 {
        results.push_str(&format!("{{\"unit\":{unit},\"count\":\"{}\"}}\n", u64::MAX));
    }
    std::fs::write(dir.join("r.jsonl"), results).expect("write");
    let total = u128::from(u64::MAX) * 20;
    assert_eq!(
        ok(&dir, &["merge", "plan.jsonl", "r.jsonl"]),
        format!("{total}\n")
    );
    let json: serde_json::Value = serde_json::from_str(&ok(
        &dir,
        &["merge", "plan.jsonl", "r.jsonl", "--format", "json"],
    ))
    .expect("json");
    assert_eq!(json["total"], serde_json::Value::from(total.to_string()));
    assert_eq!(
        json["divide"][0]["count"],
        serde_json::Value::from(u64::MAX.to_string())
    );
    assert_eq!(json["divide"].as_array().map(Vec::len), Some(20));
}

/// No progress bar on a pipe: standard error stays empty.
#[test]
fn no_progress_on_a_pipe() {
    let dir = scratch("pipe");
    let o = cvperft_in(&dir, &["perft", "5"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stderr), "");
    plan(&dir, &["4", "--split", "2"]);
    let o = cvperft_in(&dir, &["work", "plan.jsonl", "--shard", "1/1"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stderr), "");
}

/// A case marked `deep` runs only with `check --deep`; `--slow` does not include it.
#[test]
fn deep_cases_run_only_with_check_deep() {
    let dir = scratch("deep-tier");
    let suite = "variant: chess\ndescription: a deep case\ngame-end: rules\noptions: {}\ncases:\n  - id: start-deep\n    rules: [GE-1]\n    perft: {3: 8902}\n    deep: true\n    source:\n      kind: public\n      citation: \"https://www.chessprogramming.org/Perft_Results (Initial Position)\"\n";
    std::fs::write(dir.join("deep.yaml"), suite).expect("write");
    for args in [
        &["check", "deep.yaml"][..],
        &["check", "deep.yaml", "--slow"],
    ] {
        let out = ok(&dir, args);
        assert!(
            out.contains("0 passed, 0 failed, 1 skipped"),
            "{args:?}: {out}"
        );
        assert!(out.contains("run with --deep"), "{args:?}: {out}");
    }
    let out = ok(&dir, &["check", "deep.yaml", "--deep"]);
    assert!(out.contains("1 passed, 0 failed, 0 skipped"), "{out}");
}

#[test]
fn a_unit_whose_key_is_no_position_is_named_by_the_plan_line() {
    // A plan edited by hand (its identity made to match): unit 0's key has no Kings. `work`
    // said only "unit 0: ...", naming neither the plan nor its line.
    let dir = scratch("bad-key");
    plan(&dir, &["2", "--split", "1"]);
    let path = dir.join("plan.jsonl");
    let original = std::fs::read_to_string(&path).expect("plan");
    let mut lines: Vec<serde_json::Value> = original
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    lines[1]["key"] = "8/8/8/8/8/8/8/8 w - -".into();
    let write = |lines: &[serde_json::Value]| {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).expect("plan written");
    };
    write(&lines);
    // The reader tells the digest of the changed content: the identity is set to it.
    let said = refused(
        &dir,
        &["work", "plan.jsonl", "--shard", "1/1"],
        2,
        "field `id`",
    );
    let digest = said
        .split("digests to ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_hexdigit()).next())
        .expect("the digest")
        .to_string();
    lines[0]["id"] = digest.into();
    write(&lines);
    refused(
        &dir,
        &["work", "plan.jsonl", "--shard", "1/1", "-q"],
        2,
        "plan.jsonl: line 2: unit 0: `8/8/8/8/8/8/8/8 w - -`: illegal position",
    );
}

#[test]
fn the_summary_line_escapes_the_results_file_name() {
    // A name with a line break and an escape sequence was printed raw on standard output.
    let dir = scratch("summary-name");
    plan(&dir, &["2", "--split", "1"]);
    let out = work(
        &dir,
        "plan.jsonl",
        &["--shard", "1/1", "-q", "--output", "a\nb\u{1b}[31m.jsonl"],
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.ends_with("results in a\\nb\\u{1b}[31m.jsonl\n"),
        "{out}"
    );
    assert!(dir.join("a\nb\u{1b}[31m.jsonl").is_file());
}
