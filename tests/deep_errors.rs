//! The exact message of the errors `cvperft::deep` gives about plans, result files and merges,
//! through the library: the CLI tests reach only some of them, and these texts are what a user
//! reads on stderr. The plan is chess perft 2 from the start split at ply 1 (20 units).

use cvperft::deep::merge::merge;
use cvperft::deep::plan::{self, Plan, PlanRequest, Unit};
use cvperft::deep::results::{RESULTS_FORMAT, ResultsHeader, ResultsWriter};
use cvperft::deep::work::Counter;
use cvperft::notation::parse_position;
use cvperft::variants;
use std::path::PathBuf;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn request(split: u32, max_units: usize) -> PlanRequest<'static> {
    PlanRequest {
        variant: "chess",
        options: &[],
        fen: START,
        moves: "",
        depth: 2,
        split,
        max_units,
        threads: 1,
    }
}

fn built(split: u32, max_units: usize) -> Result<Plan, String> {
    let root = parse_position(variants::rules("chess").expect("chess"), START).expect("start");
    plan::build(&root, &request(split, max_units)).map_err(|e| e.to_string())
}

/// The plan's lines as written.
fn lines() -> Vec<String> {
    let mut out = Vec::new();
    plan::write(&built(1, 100).expect("a plan"), &mut out).expect("written");
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The error reading `bytes` as the plan `p`.
fn read_bytes(bytes: &[u8]) -> String {
    match plan::read(&mut &bytes[..], "p") {
        Ok(_) => panic!("read"),
        Err(e) => e.to_string(),
    }
}

/// The error reading the plan's lines after `change` (every line ending in a newline).
fn refused(change: impl FnOnce(&mut Vec<String>)) -> String {
    let mut l = lines();
    change(&mut l);
    read_bytes(format!("{}\n", l.join("\n")).as_bytes())
}

/// `line` with the JSON field `field` set to `value`.
fn with(line: &str, field: &str, value: serde_json::Value) -> String {
    let mut v: serde_json::Value = serde_json::from_str(line).expect("JSON");
    v[field] = value;
    v.to_string()
}

#[test]
fn plans_asked_for_are_refused_with_the_reason() {
    assert_eq!(
        built(0, 100).expect_err("split 0"),
        "--split 0: expected 1 to the depth (2)"
    );
    assert_eq!(
        built(1, 5).expect_err("too many"),
        "more than 5 unique positions at ply 1; use a smaller --split or a larger --max-units"
    );
}

#[test]
fn plan_files_are_refused_naming_line_and_field() {
    assert_eq!(read_bytes(b""), "p: empty, not a plan");
    assert_eq!(
        refused(|l| l[0] = with(&l[0], "format", "x".into())),
        "p: line 1: field `format`: `x` is not cvperft-plan-1"
    );
    assert_eq!(
        refused(|l| l[0] = with(&l[0], "split", 0.into())),
        "p: line 1: field `split`: not within 1 ..= depth"
    );
    assert_eq!(
        refused(|l| l[0] = with(&l[0], "units", 200_000_000.into())),
        "p: line 1: field `units`: 200000000 is above the 100000000 a plan may hold"
    );
    assert_eq!(
        refused(|l| l.push(l[20].clone())),
        "p: line 22: more units than the header's 20"
    );
    assert_eq!(
        refused(|l| l[1] = with(&l[1], "unit", 5.into())),
        "p: line 2: field `unit`: 5 where 0 was due"
    );
    assert_eq!(
        refused(|l| l[1] = with(&l[1], "depth", 3.into())),
        "p: line 2: field `depth`: 3 is not depth - split (1)"
    );
    assert_eq!(
        refused(|l| {
            let key =
                serde_json::from_str::<serde_json::Value>(&l[1]).expect("JSON")["key"].clone();
            l[2] = with(&l[2], "key", key);
        }),
        "p: line 3: field `key`: not after the previous unit's key (keys are sorted and unique)"
    );
    assert_eq!(
        refused(|l| l[1] = with(&l[1], "paths", serde_json::json!([]))),
        "p: line 2: field `paths`: expected [root index, count] pairs, sorted, counts above 0"
    );
    assert_eq!(
        refused(|l| {
            l.pop();
        }),
        "p: 19 units, the header says 20: the plan is incomplete"
    );
    assert_eq!(
        refused(|l| l[0] = with(&l[0], "paths", "21".into())),
        "p: line 1: field `paths`: 21 but the units hold 20"
    );
    // serde_json reads an integer past 64 bits as a float, and called it one.
    for (cost, message) in [
        (
            "123456789012345678901234567890",
            "the number `123456789012345678901234567890` is too large (expected u64)",
        ),
        (
            "-123456789012345678901234567890",
            "the number `-123456789012345678901234567890` is out of range (expected u64)",
        ),
        ("1.5", "invalid type: floating point `1.5`, expected u64"),
        ("1e30", "invalid type: floating point `1e+30`, expected u64"),
    ] {
        let error = refused(|l| {
            let unit = with(&l[1], "cost", 7.into());
            l[1] = unit.replace("\"cost\":7", &format!("\"cost\":{cost}"));
        });
        assert!(
            error.starts_with("p: line 2: column ")
                && error.ends_with(&format!(": not a plan unit: {message}")),
            "{cost}: {error}"
        );
    }
    let changed = refused(|l| l[1] = with(&l[1], "cost", 7.into()));
    assert!(
        changed.starts_with("p: line 1: field `id`: ")
            && changed.contains(" but the content digests to ")
            && changed.ends_with(": the plan was changed after it was made"),
        "{changed}"
    );
    let text = lines().join("\n");
    assert_eq!(
        read_bytes(text.as_bytes()),
        "p: line 21: cut short (no newline): the plan was not written completely"
    );
    // Cut inside a line's JSON: the same, not the JSON reader's "EOF while parsing".
    for cut_at in [text.len() - 5, lines()[0].len() - 5] {
        assert!(
            read_bytes(&text.as_bytes()[..cut_at])
                .ends_with(": cut short (no newline): the plan was not written completely"),
            "{}",
            read_bytes(&text.as_bytes()[..cut_at])
        );
    }
    let mut bytes = format!("{}\n", lines()[0]).into_bytes();
    bytes.extend_from_slice(b"\xff\n");
    assert_eq!(read_bytes(&bytes), "p: line 2: not UTF-8 text");
    let missing = PathBuf::from("/nonexistent/plan.jsonl");
    assert_eq!(
        plan::read_file(&missing)
            .map(|_| ())
            .expect_err("missing")
            .to_string(),
        "cannot read /nonexistent/plan.jsonl: No such file or directory"
    );
}

/// A directory of its own for this test's files.
fn dir(name: &str) -> PathBuf {
    // Under Cargo's target directory, reused by each run (not one per process id left behind).
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("deep-errors-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a directory");
    d
}

fn header(plan: &Plan, shards: usize) -> String {
    serde_json::to_string(&ResultsHeader {
        format: RESULTS_FORMAT.into(),
        plan: plan.header.id.clone(),
        shard: 1,
        shards,
        seed: 0,
        verify: false,
    })
    .expect("JSON")
}

/// The error merging result files with these contents (named `r1`, `r2`, ... in `d`).
fn merged(d: &std::path::Path, plan: &Plan, files: &[String]) -> String {
    let paths: Vec<PathBuf> = files
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let p = d.join(format!("r{}", i + 1));
            std::fs::write(&p, text).expect("written");
            p
        })
        .collect();
    let text = merge(plan, &paths).expect_err("refused").to_string();
    text.replace(&format!("{}/", d.display()), "")
}

#[test]
fn result_files_are_refused_naming_file_line_and_field() {
    let d = dir("results");
    let plan = built(1, 100).expect("a plan");
    let h = header(&plan, 1);
    let unit = |n: usize, count: &str| format!("{{\"unit\":{n},\"count\":\"{count}\"}}\n");
    assert_eq!(
        merged(&d, &plan, &[]),
        "merge: no result files given after the plan"
    );
    assert_eq!(
        merged(&d, &plan, &[with(&h, "format", "x".into()) + "\n"]),
        "r1: line 1: field `format`: `x` is not cvperft-results-1"
    );
    assert_eq!(
        merged(&d, &plan, &[format!("{h}\n{}", unit(0, "abc"))]),
        "r1: line 2: field `count`: `abc` is not a whole number"
    );
    // Only digits, as `work` writes them: `+461` was read as 461 (shard reports refuse a
    // sign), and 2^64 was said not to be a whole number.
    for count in ["+461", "-1", " 461", "1e3", ""] {
        assert_eq!(
            merged(&d, &plan, &[format!("{h}\n{}", unit(0, count))]),
            format!("r1: line 2: field `count`: `{count}` is not a whole number")
        );
    }
    assert_eq!(
        merged(
            &d,
            &plan,
            &[format!("{h}\n{}", unit(0, "18446744073709551616"))]
        ),
        "r1: line 2: field `count`: 18446744073709551616 is 2^64 or more, past what one unit \
         counts"
    );
    assert_eq!(
        merged(
            &d,
            &plan,
            &[format!("{h}\n{}{}", unit(0, "1"), unit(0, "1"))]
        ),
        "r1: line 3: unit 0 is given twice (also on line 2)"
    );
    // A unit marked verified in a file counted without --verify (or not marked in one counted
    // with it) was accepted, and `merge` reported it among the verified units.
    assert_eq!(
        merged(
            &d,
            &plan,
            &[format!(
                "{h}\n{}",
                "{\"unit\":0,\"count\":\"1\",\"verified\":true}\n"
            )]
        ),
        "r1: line 2: field `verified`: unit 0 is marked verified, but the header says `verify`: \
         false (`work --verify` marks every unit it writes, `work` without it none)"
    );
    let verifying = with(&h, "verify", serde_json::Value::Bool(true));
    assert_eq!(
        merged(&d, &plan, &[format!("{verifying}\n{}", unit(0, "1"))]),
        "r1: line 2: field `verified`: unit 0 is not marked verified, but the header says \
         `verify`: true (`work --verify` marks every unit it writes, `work` without it none)"
    );
    assert_eq!(
        merged(&d, &plan, &[String::new()]),
        "r1: no results header (an empty or unfinished file)"
    );
    assert_eq!(
        merged(&d, &plan, &[format!("{h}\n{{\"unit\":0")]),
        "r1: its last line is cut short (its `work` was stopped): run that `work` again to finish it"
    );
    assert_eq!(
        merged(&d, &plan, &[format!("{h}\n{}", unit(99, "1"))]),
        "r1: line 2: unit 99 is not in the plan (20 units)"
    );
    assert_eq!(
        merged(
            &d,
            &plan,
            &[
                format!("{h}\n{}", unit(0, "1")),
                format!("{h}\n{}", unit(0, "1"))
            ]
        ),
        "r2: line 2: unit 0 is given twice (also r1: line 2)"
    );
    assert_eq!(
        merged(
            &d,
            &plan,
            &[format!("{h}\n"), format!("{}\n", header(&plan, 2))]
        ),
        "missing 20 of 20 units (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ...)"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_result_file_of_another_run_is_not_resumed() {
    let d = dir("resume");
    let plan = built(1, 100).expect("a plan");
    let path = d.join("r");
    std::fs::write(&path, format!("{}\n", header(&plan, 2))).expect("written");
    let wanted: ResultsHeader = serde_json::from_str(&header(&plan, 1)).expect("JSON");
    let text = match ResultsWriter::open(&path, &wanted) {
        Ok(_) => panic!("resumed"),
        Err(e) => e.to_string(),
    };
    let id = &plan.header.id;
    assert_eq!(
        text,
        format!(
            "{} holds results of plan {id} shard 1/2 (seed 0, verify false), not of plan {id} \
             shard 1/1 (seed 0, verify false): use another --output",
            path.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_unit_that_is_no_position_is_named() {
    let counter = Counter::new(None, 0, false).expect("a counter");
    let unit = Unit {
        unit: 3,
        key: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
        depth: 1,
        cost: 1,
        paths: vec![(0, 1)],
    };
    let text = match counter.count(variants::rules("chess").expect("chess"), &unit) {
        Ok(_) => panic!("counted"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        text,
        "unit 3: `8/8/8/8/8/8/8/8 w - - 0 1`: illegal position: White has 0 royal pieces \
         (expected exactly one); Black has 0 royal pieces (expected exactly one)"
    );
}

#[test]
fn a_plan_saved_with_a_byte_order_mark_or_crlf_reads_as_without() {
    // Some Windows editors save a byte-order mark: it used to make the plan's header unreadable
    // (and `merge` took the file for a shard report).
    let text = format!("{}\n", lines().join("\n"));
    let plain = plan::read(&mut text.as_bytes(), "p").expect("the plan");
    let marked = plan::read(&mut format!("\u{feff}{text}").as_bytes(), "p").expect("with a mark");
    assert_eq!(marked.units.len(), plain.units.len());
    assert_eq!(marked.header.id, plain.header.id);
    // So do CRLF line breaks (a Windows editor, git's autocrlf): the carriage returns were
    // digested with the lines, and the plan refused as changed after it was made.
    let crlf = text.replace('\n', "\r\n");
    let read = plan::read(&mut crlf.as_bytes(), "p").expect("with CRLF");
    assert_eq!(read.units, plain.units);
    assert_eq!(read.header.id, plain.header.id);
}
