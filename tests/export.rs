//! `cvperft export` run as a user runs it: the three formats read back by parsers written here
//! (not the exporter's code), compared with the suites as the library loads them; python-chess
//! reading our chess export and counting the same; `--output` and bad input.
//!
//! The expected numbers are the suites' own (`suites/`, `fixtures/suites/`): this file holds
//! no count.

use cvperft::notation::{parse_position, play_moves, to_fen};
use cvperft::position::Position;
use cvperft::suite::{CheckKind, Expectations, Suite, checks_of, load_all};
use cvperft::variant::Rules;
use cvperft::variants;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

use support::{code, stderr, stdout};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cvperft` from the package root.
fn cvperft(args: &[&str]) -> Output {
    support::cvperft_output(args)
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    support::scratch_dir("export", name)
}

/// Every shipped suite, the status fixtures, the slow and the deep cases.
const EVERYTHING: &[&str] = &[
    "suites",
    "fixtures/suites/statuses.yaml",
    "--slow",
    "--deep",
];

/// Exports EVERYTHING in `format`; the text on stdout.
fn export_everything(format: &str) -> String {
    let mut args = vec!["export", "--format", format];
    args.extend_from_slice(EVERYTHING);
    let o = cvperft(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().count(),
        1,
        "one summary line: {}",
        stderr(&o)
    );
    stdout(&o)
}

fn loaded() -> Vec<Suite> {
    let paths: Vec<PathBuf> = EVERYTHING[..2].iter().map(PathBuf::from).collect();
    let paths: Vec<PathBuf> = paths.iter().map(|p| root().join(p)).collect();
    load_all(&paths).expect("the suites load")
}

/// What a reading of the suites says, computed here from the loaded suites.
struct Reading {
    position: Position,
    counts: BTreeMap<u32, u64>,
    status: String,
    source: String,
}

fn counts(expect: &Expectations) -> BTreeMap<u32, u64> {
    let mut counts = expect.perft.clone();
    if let Some(d) = &expect.divide {
        counts.insert(d.depth, d.moves.values().sum());
    }
    counts
}

/// Every reading that has a count and a position under its own options, by id.
fn readings_with_counts(suites: &[Suite]) -> BTreeMap<String, Reading> {
    let mut out = BTreeMap::new();
    for suite in suites {
        for case in &suite.cases {
            let id = format!("{}::{}", suite.prefix(), case.id);
            let main = counts(&case.expect);
            if !main.is_empty() {
                out.insert(
                    id.clone(),
                    Reading {
                        position: case.position,
                        counts: main,
                        status: case.status.name().to_string(),
                        source: case.source.kind.name().to_string(),
                    },
                );
            }
            for (k, alt) in case.alternatives.iter().enumerate() {
                let alt_counts = counts(&alt.expect);
                if let (Some(position), false) = (alt.position, alt_counts.is_empty()) {
                    out.insert(
                        format!("{id}::alt{}", k + 1),
                        Reading {
                            position,
                            counts: alt_counts,
                            status: "alternative".into(),
                            source: case.source.kind.name().to_string(),
                        },
                    );
                }
            }
        }
    }
    out
}

/// `name=value ...` as our command line's `-o` takes them.
fn options_text(rules: &Rules) -> String {
    rules
        .option_pairs()
        .iter()
        .filter(|(n, _)| *n != "game-end")
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rules a line names.
fn rules_of(variant: &str, options: &str, game_end: &str) -> Rules {
    let mut rules = variants::rules(variant).unwrap_or_else(|| panic!("variant {variant}"));
    for pair in options.split_whitespace() {
        let (n, v) = pair.split_once('=').expect("name=value");
        rules.set(n, v).expect("a declared option");
    }
    rules.set("game-end", game_end).expect("rules or movegen");
    rules
}

/// An EPD line's fields and operations, read by the EPD grammar: four fields, then operations
/// `opcode operand`, each led or ended by `;`, string operands in double quotes with `\`
/// escapes.
fn parse_epd(line: &str) -> (String, BTreeMap<String, String>) {
    let mut rest = line;
    let mut fields = Vec::new();
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest.find(' ').unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let mut ops = BTreeMap::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ' || *c == ';') {
            chars.next();
        }
        let mut opcode = String::new();
        while let Some(c) = chars.peek().copied().filter(|c| *c != ' ' && *c != ';') {
            opcode.push(c);
            chars.next();
        }
        if opcode.is_empty() {
            break;
        }
        while chars.peek() == Some(&' ') {
            chars.next();
        }
        let mut operand = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => operand.extend(chars.next()),
                    c => operand.push(c),
                }
            }
        } else {
            while let Some(c) = chars.peek().copied().filter(|c| *c != ';') {
                operand.push(c);
                chars.next();
            }
        }
        assert!(
            ops.insert(opcode.clone(), operand.trim_end().to_string())
                .is_none(),
            "opcode {opcode} twice in {line}"
        );
    }
    (fields.join(" "), ops)
}

#[test]
fn epd_round_trip_gives_every_position_and_count() {
    let suites = loaded();
    let want = readings_with_counts(&suites);
    let text = export_everything("epd");
    let mut seen = BTreeSet::new();
    for line in text.lines() {
        let (fields, mut ops) = parse_epd(line);
        let id = ops.remove("id").expect("an id");
        let reading = want
            .get(&id)
            .unwrap_or_else(|| panic!("unexpected id {id}"));
        assert!(seen.insert(id.clone()), "{id} twice");
        let rules = rules_of(&ops["variant"], &ops["options"], &ops["game-end"]);
        assert_eq!(rules, *reading.position.rules(), "{id}: options");
        assert_eq!(options_text(&rules), ops["options"], "{id}: every option");
        let fen = format!("{fields} {} {}", ops["hmvc"], ops["fmvn"]);
        let position = parse_position(rules, &fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(to_fen(&position), to_fen(&reading.position), "{id}");
        let counts: BTreeMap<u32, u64> = ops
            .iter()
            .filter_map(|(k, v)| {
                let depth = k.strip_prefix('D')?.parse().ok()?;
                Some((depth, v.parse().expect("a count")))
            })
            .collect();
        assert_eq!(counts, reading.counts, "{id}");
        assert_eq!(ops["status"], reading.status, "{id}");
        assert_eq!(ops["source"], reading.source, "{id}");
        assert_eq!(
            ops.len(),
            7 + counts.len(),
            "{id}: unexpected opcodes {ops:?}"
        );
    }
    let missing: Vec<&String> = want.keys().filter(|id| !seen.contains(*id)).collect();
    assert!(missing.is_empty(), "not exported: {missing:?}");
    for status in ["normal", "disputed", "xfail", "alternative"] {
        assert!(
            want.values().any(|r| r.status == status),
            "the suites cover status {status}"
        );
    }
}

#[test]
fn perft_file_round_trip_gives_every_position_and_count() {
    let suites = loaded();
    let want = readings_with_counts(&suites);
    let text = export_everything("perft");
    let mut found: BTreeMap<String, (String, String, BTreeMap<u32, u64>)> = BTreeMap::new();
    let (mut comment, mut id) = (String::new(), String::new());
    for line in text.lines() {
        if let Some(c) = line.strip_prefix("# variant ") {
            comment = c.to_string();
        } else if line.starts_with('#') || line.is_empty() {
        } else if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
            assert!(!found.contains_key(&id), "{id} twice");
            found.insert(
                id.clone(),
                (comment.clone(), String::new(), BTreeMap::new()),
            );
        } else if let Some(rest) = line.strip_prefix("epd ") {
            found.get_mut(&id).expect("epd after id").1 = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, count) = rest.split_once(' ').expect("perft DEPTH COUNT");
            let counts = &mut found.get_mut(&id).expect("perft after id").2;
            counts.insert(depth.parse().unwrap(), count.parse().unwrap());
        } else {
            panic!("unexpected line {line:?}");
        }
    }
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (id, (comment, epd, counts)) in &found {
        let reading = &want[id];
        // `variant V; options O; game-end G; status S`
        let parts: Vec<&str> = comment.split("; ").collect();
        assert_eq!(parts.len(), 4, "{id}: {comment}");
        let options = parts[1].strip_prefix("options ").expect("options");
        let options = if options == "-" { "" } else { options };
        let game_end = parts[2].strip_prefix("game-end ").expect("game-end");
        let rules = rules_of(parts[0], options, game_end);
        assert_eq!(rules, *reading.position.rules(), "{id}: options");
        assert_eq!(parts[3], format!("status {}", reading.status), "{id}");
        assert_eq!(epd.split(' ').count(), 4, "{id}: four EPD fields: {epd}");
        let position = parse_position(rules, epd).unwrap_or_else(|e| panic!("{id}: {e}"));
        let fen = to_fen(&reading.position);
        let want_fields: Vec<&str> = fen.split(' ').take(4).collect();
        assert_eq!(
            to_fen(&position).split(' ').take(4).collect::<Vec<_>>(),
            want_fields
        );
        assert_eq!(*counts, reading.counts, "{id}");
    }
}

#[test]
fn jsonl_round_trip_gives_every_check() {
    let suites = loaded();
    let text = export_everything("jsonl");
    let mut records: BTreeMap<String, Value> = BTreeMap::new();
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).expect("one JSON object per line");
        let name = record["name"].as_str().expect("a name").to_string();
        assert!(
            records.insert(name.clone(), record).is_none(),
            "{name} twice"
        );
    }
    let mut checked = 0;
    for (s, suite) in suites.iter().enumerate() {
        for (c, case) in suite.cases.iter().enumerate() {
            for check in checks_of(s, c, case) {
                let name = check.name(&suites);
                let r = records
                    .remove(&name)
                    .unwrap_or_else(|| panic!("{name} is not exported"));
                let alt = check.alternative.map(|k| &case.alternatives[k]);
                let position = alt.map_or(Some(&case.position), |a| a.position.as_ref());
                let rules = *position.unwrap_or(&case.position).rules();
                let expect = check.expectations(&suites);
                // The position: FEN, moves and FEN after them agree with each other and with
                // the suite.
                let options = r["options"].as_object().expect("options");
                let options: Vec<String> = options
                    .iter()
                    .map(|(n, v)| format!("{n}={}", v.as_str().unwrap()))
                    .collect();
                let game_end = r["game_end"].as_str().unwrap();
                let read_rules = rules_of(suite.variant.spec.id, &options.join(" "), game_end);
                assert_eq!(read_rules, rules, "{name}");
                assert_eq!(r["variant"], suite.variant.spec.id, "{name}");
                let start = parse_position(rules, r["fen"].as_str().unwrap()).expect("fen");
                let moves: Vec<&str> = r["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect();
                let after = play_moves(&start, &moves.join(" ")).expect("the moves replay");
                let fen_after = to_fen(position.unwrap_or(&case.position));
                assert_eq!(to_fen(&after), fen_after, "{name}");
                assert_eq!(r["fen_after"], fen_after, "{name}");
                // What is expected.
                let (kind, depth) = match check.kind {
                    CheckKind::Perft(d) => ("perft", Some(d)),
                    CheckKind::Divide(d) => ("divide", Some(d)),
                    CheckKind::Legal => ("legal", None),
                    CheckKind::Illegal => ("illegal", None),
                    CheckKind::Outcome => ("outcome", None),
                };
                assert_eq!(r["kind"], kind, "{name}");
                assert_eq!(r["depth"].as_u64(), depth.map(u64::from), "{name}");
                match check.kind {
                    CheckKind::Perft(d) => assert_eq!(r["expected"], expect.perft[&d], "{name}"),
                    CheckKind::Divide(_) => {
                        let divide = expect.divide.as_ref().unwrap();
                        let moves: BTreeMap<String, u64> =
                            serde_json::from_value(r["divide"].clone()).expect("move -> count");
                        assert_eq!(moves, divide.moves, "{name}");
                        assert_eq!(r["expected"], divide.moves.values().sum::<u64>(), "{name}");
                    }
                    CheckKind::Legal => assert_eq!(r["legal"], serde_json::json!(expect.legal)),
                    CheckKind::Illegal => {
                        assert_eq!(r["illegal"], serde_json::json!(expect.illegal))
                    }
                    CheckKind::Outcome => assert_eq!(
                        r["expected"].as_str(),
                        Some(expect.outcome.map_or("ongoing", |o| o.name())),
                        "{name}"
                    ),
                }
                // How to judge it.
                let status = if alt.is_some() {
                    "alternative"
                } else {
                    case.status.name()
                };
                assert_eq!(r["status"], status, "{name}");
                assert_eq!(r["rulings"], serde_json::json!(case.rules), "{name}");
                assert_eq!(r["source"]["kind"], case.source.kind.name(), "{name}");
                assert_eq!(r["slow"], case.slow, "{name}");
                assert_eq!(r["deep"], case.deep, "{name}");
                if let Some(a) = alt {
                    assert_eq!(r["alternative"]["reading"], a.reading.as_str(), "{name}");
                    assert_eq!(
                        r["alternative"]["selectable"],
                        a.position.is_some(),
                        "{name}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(
        records.is_empty(),
        "records of no check: {:?}",
        records.keys()
    );
    assert!(checked > 1000, "{checked} checks");
}

#[test]
fn python_chess_reads_our_chess_export_and_counts_the_same() {
    let available = Command::new("python3")
        .args(["-c", "import chess"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        support::tool_missing(
            "python-chess",
            "python3 with python-chess (PyPI `chess`) is not installed; \
             `python3 -m pip install chess` (.ci/run installs it)",
        );
        return;
    }
    let dir = scratch("python-chess");
    let epd = dir.join("chess.epd");
    let perft = dir.join("chess.perft");
    for (format, file) in [("epd", &epd), ("perft", &perft)] {
        let o = cvperft(&[
            "export",
            "--format",
            format,
            "-v",
            "chess",
            "--output",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    // python-chess counts under a million leaves a second: at most 200,000 leaves per count
    // and 1,000,000 per file keep this to a few seconds.
    let o = Command::new("python3")
        .arg(root().join("tests/python/python_chess_perft.py"))
        .args(["--epd", epd.to_str().unwrap()])
        .args(["--perft", perft.to_str().unwrap()])
        .args(["--max-nodes", "200000", "--budget", "1000000"])
        .output()
        .expect("python3 runs");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let want = readings_with_counts(&loaded());
    let mut compared: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut read: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut lines: BTreeMap<&str, usize> = BTreeMap::new();
    let mut leaves = 0;
    for line in stdout(&o).lines() {
        let r: Value = serde_json::from_str(line).expect("a JSON line");
        let format = if r["format"] == "epd" { "epd" } else { "perft" };
        let id = r["id"].as_str().expect("python-chess read the id");
        let depth = r["depth"].as_u64().unwrap() as u32;
        let reading = &want[id];
        read.entry(format).or_default().insert(id.to_string());
        *lines.entry(format).or_default() += 1;
        assert_eq!(
            r["expected"].as_u64(),
            reading.counts.get(&depth).copied(),
            "{format} {id} perft {depth}: python-chess read another count"
        );
        let fields = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        assert_eq!(
            fields(r["fen"].as_str().unwrap()),
            fields(&to_fen(&reading.position)),
            "{format} {id}: python-chess read another position"
        );
        if format == "epd" {
            assert_eq!(r["ops"]["variant"], "chess", "{id}");
            assert_eq!(r["ops"]["status"], reading.status.as_str(), "{id}");
            assert_eq!(r["fen"].as_str(), Some(to_fen(&reading.position).as_str()));
        }
        if !r["counted"].is_null() {
            assert_eq!(
                r["counted"], r["expected"],
                "{format} {id} perft {depth}: python-chess counts otherwise"
            );
            leaves += r["expected"].as_u64().unwrap();
            compared.entry(format).or_default().insert(id.to_string());
        }
    }
    // python-chess read every line and every count of both files ...
    let mut exported = BTreeSet::new();
    let mut counts = 0;
    for line in std::fs::read_to_string(&epd)
        .expect("the EPD export")
        .lines()
    {
        let ops = parse_epd(line).1;
        counts += ops.keys().filter(|k| k.starts_with('D')).count();
        exported.insert(ops["id"].clone());
    }
    for format in ["epd", "perft"] {
        assert_eq!(
            read[format], exported,
            "{format}: python-chess read other positions"
        );
        assert_eq!(
            lines[format], counts,
            "{format}: python-chess read other counts"
        );
    }
    // ... and counted most of them.
    for format in ["epd", "perft"] {
        assert!(
            compared[format].len() * 10 >= exported.len() * 9,
            "{format}: python-chess counted {} of {} positions",
            compared[format].len(),
            exported.len()
        );
    }
    assert!(
        leaves > 1_000_000,
        "{leaves} leaves counted by python-chess"
    );
}

#[test]
fn output_writes_the_same_text_and_leaves_no_temporary_file() {
    let dir = scratch("output");
    let target = dir.join("chess.epd");
    std::fs::write(&target, "old contents\n").expect("an old file");
    let args = ["export", "--format", "epd", "-v", "chess"];
    let printed = cvperft(&args);
    assert_eq!(code(&printed), 0, "{}", stderr(&printed));
    let o = cvperft(&[&args[..], &["--output", target.to_str().unwrap()]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).starts_with("cvperft: exported "),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&target).unwrap(), printed.stdout);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["chess.epd"]);
    // A device is written to, not replaced.
    let o = cvperft(&[&args[..], &["--output", "/dev/null"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn output_through_a_link_keeps_the_link() {
    let dir = scratch("link");
    let real = dir.join("real.perft");
    let link = dir.join("link.perft");
    std::fs::write(&real, "old\n").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = cvperft(&[
        "export",
        "--format",
        "perft",
        "-v",
        "chess",
        "--output",
        link.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("id chess::chess::start\n")
    );
}

#[test]
fn output_never_replaces_a_suite_it_reads_or_a_directory() {
    let dir = scratch("refuse");
    let suite = dir.join("chess.yaml");
    std::fs::copy(root().join("fixtures/suites/statuses.yaml"), &suite).unwrap();
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink(&suite, &link).unwrap();
    let before = std::fs::read(&suite).unwrap();
    let text = |p: &Path| p.to_str().unwrap().to_string();
    let missing = dir.join("no/such/dir/x.epd");
    for (input, output, message) in [
        (text(&suite), text(&suite), "is an input of this run"),
        (text(&suite), text(&link), "is an input of this run"),
        (text(&dir), text(&suite), "is an input of this run"),
        (text(&suite), text(&dir), "a directory"),
        (text(&suite), text(&missing), "No such file or directory"),
    ] {
        let o = cvperft(&["export", &input, "--format", "epd", "--output", &output]);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{input} -> {output}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{input} -> {output}: {err}");
        assert_eq!(
            std::fs::read(&suite).unwrap(),
            before,
            "the suite is untouched"
        );
    }
}

/// A one-case suite.
const ONE_CASE: &str = "variant: chess\ndescription: t\ngame-end: rules\ncases:\n  - id: start\n    \
                        perft: {1: 20}\n    source: {kind: hand, derivation: x}\n";

#[test]
fn export_ids_are_the_names_check_prints() {
    let dir = scratch("stems");
    // An unusual stem check names can carry: the EPD id is the name `check` prints.
    let odd = dir.join("Odd_stem.v2+é\\\"q\".yaml");
    std::fs::write(&odd, ONE_CASE).expect("suite");
    let odd = odd.to_str().expect("utf-8");
    let o = cvperft(&["check", odd, "--color", "never"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let printed = stdout(&o);
    let (_, ops) = parse_epd(stdout(&cvperft(&["export", "--format", "epd", odd])).trim_end());
    let id = &ops["id"];
    assert_eq!(id, "chess::Odd_stem.v2+é\\\"q\"::start");
    assert!(
        printed.contains(&format!("PASS  {id} (1 check)")),
        "{printed}"
    );
    // A stem with a control character, a tab or a line break would be shown one way by `check`
    // and another by `export`: both refuse the file, with the same message naming it.
    for (name, shown, character) in [
        ("a\u{1}b", "a\\u{1}b.yaml", "U+0001"),
        ("t\tb", "t\\tb.yaml", "U+0009"),
        ("n\nl", "n\\nl.yaml", "U+000A"),
    ] {
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, ONE_CASE).expect("suite");
        let path = path.to_str().expect("utf-8");
        let refusals: Vec<String> = [
            &["check", path][..],
            &["export", "--format", "epd", path],
            &["export", "--format", "jsonl", path],
        ]
        .iter()
        .map(|args| {
            let o = cvperft(args);
            assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
            assert!(o.stdout.is_empty(), "{args:?}");
            stderr(&o)
        })
        .collect();
        let err = &refusals[0];
        assert!(refusals.iter().all(|r| r == err), "{refusals:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(shown), "{err}");
        assert!(
            err.contains(&format!(
                "the file name holds {character}, which check names"
            )),
            "{err}"
        );
    }
}

#[test]
fn bad_arguments_and_empty_selections_exit_2_on_one_line() {
    for (args, message) in [
        (&["export"][..], "--format"),
        (&["export", "--format", "csv"], "csv"),
        (
            &["export", "--format", "epd", "-v", "shogi"],
            "unknown variant `shogi`",
        ),
        (
            &["export", "--format", "epd", "--rule", "XX-1"],
            "no variant cites ruling `XX-1`",
        ),
        (
            &["export", "--format", "epd", "no/such/suite.yaml"],
            "no/such/suite.yaml",
        ),
        (
            &[
                "export",
                "--format",
                "epd",
                "fixtures/bad/suites/bad-status.yaml",
            ],
            "bad-status.yaml:7:13",
        ),
        (
            &[
                "export",
                "--format",
                "epd",
                "--filter",
                "nothing-is-called-this",
            ],
            "no check matches",
        ),
        // Only legal-move checks: EPD has nothing to hold them.
        (
            &["export", "--format", "epd", "--filter", "::legal"],
            "readings with only legal, illegal or outcome checks (--format jsonl has them)",
        ),
        // Only slow cases, without --slow.
        (
            &["export", "--format", "jsonl", "fixtures/suites/slow.yaml"],
            "of slow cases (--slow)",
        ),
    ] {
        let o = cvperft(args);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let o = cvperft(&[
        "export",
        "--format",
        "jsonl",
        "--slow",
        "fixtures/suites/slow.yaml",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// What an export leaves out is named by its own flag: checks of deep cases point to
/// `--deep` (not to `--slow`, which a user may already have given), counts above the budget to
/// `--max-nodes`, each with its own number.
#[test]
fn left_out_checks_name_the_flag_that_brings_them_back() {
    let dir = scratch("left-out-by-flag");
    let suite = dir.join("tiers.yaml");
    std::fs::write(
        &suite,
        "variant: chess\ndescription: tiers\ngame-end: rules\ncases:\n\
         \x20 - id: slow-one\n    perft: {1: 20}\n    slow: true\n    source: {kind: hand, derivation: \"20 moves\"}\n\
         \x20 - id: deep-one\n    perft: {1: 20, 2: 400}\n    deep: true\n    source: {kind: hand, derivation: \"20 moves\"}\n\
         \x20 - id: quick\n    perft: {1: 20, 2: 400}\n    source: {kind: hand, derivation: \"20 moves\"}\n",
    )
    .expect("suite written");
    let path = suite.to_str().expect("a UTF-8 path");
    // Only the deep case is left, with --slow given: the refusal names --deep alone.
    let o = cvperft(&[
        "export", "--format", "jsonl", path, "--slow", "--filter", "deep-one",
    ]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("left out 2 checks of deep cases (--deep)"),
        "{err}"
    );
    assert!(!err.contains("--slow"), "{err}");
    // Each tier counted apart in the summary line.
    let o = cvperft(&["export", "--format", "epd", path, "--max-nodes", "100"]);
    let err = stderr(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(
        err.contains(
            "left out: 1 check of slow cases (--slow), 2 checks of deep cases (--deep), \
             1 check above --max-nodes"
        ),
        "{err}"
    );
}

/// `--output -` is refused on one line (exit 2), by `export`, `check` and `plan` alike, and no
/// file named `-` appears: it was written as one where standard output was meant.
#[test]
fn output_dash_is_refused_not_written_as_a_file_named_dash() {
    let dir = scratch("output-dash");
    let suite = root().join("fixtures/suites/statuses.yaml");
    let suite = suite.to_str().expect("a UTF-8 path");
    for args in [
        &["export", "--format", "epd", suite, "--output", "-"][..],
        &["check", suite, "--format", "junit", "--output", "-"],
        &["plan", "2", "--split", "1", "--output", "-"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_cvperft"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("cvperft runs");
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("--output -: leave out --output to write to standard output"),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!dir.join("-").exists(), "{args:?} wrote a file named `-`");
    }
    // A file named `-` is still reachable, as ./-.
    let o = Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(["export", "--format", "epd", suite, "--output", "./-"])
        .current_dir(&dir)
        .output()
        .expect("cvperft runs");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.join("-").is_file());
}
