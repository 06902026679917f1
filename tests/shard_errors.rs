//! The exact message of every error `cvperft::shards` gives about a shard asked for or a set of
//! reports to merge, through the library: the CLI cases of `fixtures/bad/cases.yaml` reach only
//! some of them, and these texts are what a user reads on stderr.

use cvperft::notation::parse_position;
use cvperft::perft::PerftConfig;
use cvperft::shards::{
    Count, RunInfo, ShardReport, check_entries, merge, root_position, run_shard,
};
use cvperft::variants;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Shard `k` of `n` of chess perft(depth) from the start, split at `split`.
fn shard(depth: u32, split: u32, k: usize, n: usize) -> Result<ShardReport, String> {
    let rules = variants::rules("chess").expect("chess");
    let pos = parse_position(rules, START).expect("the start");
    let info = RunInfo {
        variant: "chess",
        options: &[],
        fen: START.to_string(),
        moves: String::new(),
    };
    let cfg = PerftConfig {
        threads: 1,
        hash: None,
        progress: None,
    };
    run_shard(&pos, info, depth, split, (k, n), &cfg).map_err(|e| e.to_string())
}

/// Both shards of chess perft 2 split 1 (20 paths), named `a` and `b`.
fn pair() -> Vec<(String, ShardReport)> {
    vec![
        ("a".to_string(), shard(2, 1, 1, 2).expect("shard 1")),
        ("b".to_string(), shard(2, 1, 2, 2).expect("shard 2")),
    ]
}

fn merged(reports: &[(String, ShardReport)]) -> String {
    merge(reports).expect_err("refused").to_string()
}

#[test]
fn the_pair_merges() {
    assert_eq!(merge(&pair()), Ok(400));
}

#[test]
fn a_shard_asked_for_is_refused_with_its_reason() {
    assert_eq!(
        shard(2, 3, 1, 2).expect_err("deeper split"),
        "--split 3 is deeper than the depth 2"
    );
    assert_eq!(
        shard(2, 1, 1, 1_000_000_000).expect_err("too many shards"),
        "--shard 1/1000000000: at most 1000000 shards"
    );
}

#[test]
fn one_report_is_checked_on_its_own() {
    let mut r = pair().remove(0).1;
    r.shard = 3;
    assert_eq!(
        check_entries("x.json", &r).expect_err("range").to_string(),
        "x.json: shard 3 of 2 is out of range"
    );
    let mut r = pair().remove(0).1;
    r.entries.pop();
    assert_eq!(
        check_entries("x.json", &r).expect_err("count").to_string(),
        "x.json: shard 1 is incomplete or inconsistent: it lists 9 paths, but shard 1 of 2 of a \
         split of 20 paths has 10"
    );
    let mut r = pair().remove(0).1;
    r.entries[1].index = 3;
    assert_eq!(
        check_entries("x.json", &r).expect_err("index").to_string(),
        "x.json: shard 1 is incomplete or inconsistent: its entry 2 has index 3, where shard 1 \
         of 2 has index 2"
    );
    let mut r = pair().remove(0).1;
    r.entries[0].count = Count(u128::MAX);
    assert_eq!(
        check_entries("x.json", &r)
            .expect_err("overflow")
            .to_string(),
        "x.json: shard 1's counts add up to more than 2^128"
    );
    let mut r = pair().remove(0).1;
    r.nodes = Count(1);
    assert_eq!(
        check_entries("x.json", &r).expect_err("nodes").to_string(),
        "x.json: shard 1 is incomplete or inconsistent: its counts add up to 200, but its \
         `nodes` says 1"
    );
}

#[test]
fn the_root_of_a_report_is_read_again() {
    let refused = |change: &dyn Fn(&mut ShardReport)| {
        let mut r = pair().remove(0).1;
        change(&mut r);
        match root_position(&r) {
            Ok(_) => panic!("the root of {r:?} is read"),
            Err(e) => e.to_string(),
        }
    };
    assert_eq!(
        refused(&|r| r.split = 3),
        "depth 2 with split 3: expected a split of at most the depth, and a depth of at most 15"
    );
    assert_eq!(
        refused(&|r| r.variant = "x".repeat(90)),
        format!("unknown variant `{}…` (90 characters)", "x".repeat(40))
    );
    assert_eq!(
        refused(&|r| r.options = vec!["bare".into()]),
        "option `bare` is not name=value"
    );
    assert_eq!(
        refused(&|r| r.options = vec!["colour=blue".into()]),
        "variant chess has no option `colour` (options: game-end)"
    );
    assert_eq!(
        refused(&|r| r.fen = "8/8/8/8/8/8/8/8 w - - 0 1".into()),
        "FEN: illegal position: White has 0 royal pieces (expected exactly one); Black has 0 \
         royal pieces (expected exactly one)"
    );
    assert_eq!(
        refused(&|r| r.moves = "e2e4 ".repeat(10_001)),
        "too many moves"
    );
    assert_eq!(
        refused(&|r| r.moves = "e2e4 e2e4".into()),
        "moves: ply 2: move `e2e4`: not a legal move here (legal: a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 \
         c7c5 c7c6 d7d5 d7d6 e7e5 e7e6 ...)"
    );
}

#[test]
fn a_set_of_reports_is_refused_with_the_report_named() {
    assert_eq!(merged(&[]), "merge: no shard files given");
    let mut reports = pair();
    reports[1].1.format = "cvperft-shard-0".into();
    assert_eq!(
        merged(&reports),
        "b: format `cvperft-shard-0` is not cvperft-shard-1"
    );
    // The field that differs is named (the message listed seven that might).
    type Edit = fn(&mut ShardReport);
    let edits: [(Edit, &str); 7] = [
        (
            |r| r.fen = "x".into(),
            "b is from a different run than a: its FEN is `x`, a's \
             `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK…` (56 characters)",
        ),
        (
            |r| r.depth = 3,
            "b is from a different run than a: its depth is 3, a's 2",
        ),
        (
            |r| r.moves = "e2e4".into(),
            "b is from a different run than a: its moves are `e2e4`, a's none",
        ),
        (
            |r| r.options = vec!["game-end=movegen".into()],
            "b is from a different run than a: its options are `game-end=movegen`, a's \
             `game-end=rules`",
        ),
        (
            |r| r.options = vec!["no-such=1".into()],
            "b: variant chess has no option `no-such` (options: game-end)",
        ),
        // The last value won, where `perft -o` refuses two.
        (
            |r| r.options = vec!["game-end=movegen".into(), "game-end=rules".into()],
            "b: option `game-end` is given twice, as `movegen` and as `rules`",
        ),
        // A FEN differing past its 40th character: both were shown cut to the same 40.
        (
            |r| r.fen = r.fen.replace(" 0 1", " 0 2"),
            "b is from a different run than a: its FEN is `…Qkq - 0 2` from character 48, a's \
             `…Qkq - 0 1` from character 48",
        ),
    ];
    for (edit, expected) in edits {
        let mut reports = pair();
        edit(&mut reports[1].1);
        assert_eq!(merged(&reports), expected);
    }
    // A default spelled out is the same run: shards with and without `game-end=rules` merged
    // no more.
    let mut reports = pair();
    reports[1].1.options = vec!["game-end=rules".into()];
    assert_eq!(merge(&reports), Ok(400));
    // No moves written `" "` are no moves (they were "different runs", both shown as none).
    let mut reports = pair();
    reports[1].1.moves = " ".into();
    assert_eq!(merge(&reports), Ok(400));
    let mut reports = pair();
    reports[1] = ("c".to_string(), reports[0].1.clone());
    assert_eq!(merged(&reports), "shard 1 is given twice: a and c");
    let mut reports = pair();
    reports.pop();
    assert_eq!(merged(&reports), "missing shard(s) 2 of 2");
    let mut reports = pair();
    for (_, r) in &mut reports {
        r.shards = 2_000_000;
    }
    assert_eq!(
        merged(&reports),
        "a: 2000000 shards; at most 1000000 are merged"
    );
    let mut reports = pair();
    reports[0].1.split = 3;
    reports[1].1.split = 3;
    assert_eq!(
        merged(&reports),
        "a: depth 2 with split 3: expected a split of at most the depth, and a depth of at most \
         15"
    );
}

#[test]
fn paths_are_listed_again() {
    let mut reports = pair();
    reports[1].1.entries[0].path = "e2e4".into();
    assert_eq!(
        merged(&reports),
        "b: the entry with index 1 has path `e2e4`, but path 1 of the split is `a2a4`"
    );
    let mut reports = pair();
    for (_, r) in &mut reports {
        r.paths_total = 18;
        r.entries.pop();
        r.nodes = Count(180);
    }
    assert_eq!(
        merged(&reports),
        "the reports say the split has 18 paths, but listing it again gives more than 18"
    );
    let mut reports = pair();
    for (_, r) in &mut reports {
        r.paths_total = 22;
        r.entries.push(r.entries[0].clone());
        r.entries.last_mut().expect("an entry").index = 20 + r.shard - 1;
        r.nodes = Count(220);
    }
    assert_eq!(
        merged(&reports),
        "the reports say the split has 22 paths, but listing it again gives 20"
    );
    // Two plies above the leaves, where the counts are not listed again (one ply above, each
    // count is checked against the number of replies).
    let mut reports = vec![
        ("a".to_string(), shard(3, 1, 1, 2).expect("shard 1")),
        ("b".to_string(), shard(3, 1, 2, 2).expect("shard 2")),
    ];
    for (_, r) in &mut reports {
        let rest = r.nodes.0 - r.entries[0].count.0;
        r.entries[0].count = Count(u128::MAX - rest);
        r.nodes = Count(u128::MAX);
    }
    assert_eq!(
        merged(&reports),
        "the shards' counts add up to more than 2^128"
    );
}

#[test]
fn a_count_written_as_a_float_is_refused_for_what_it_is() {
    let read = |text: &str| {
        serde_json::from_str::<Count>(text)
            .map_err(|e| e.to_string())
            .map(|c| c.0)
    };
    assert_eq!(read("380"), Ok(380));
    assert_eq!(read("\"380\""), Ok(380));
    let point = "a count with a decimal point or an exponent: write a count in decimal digits \
                 alone";
    let sign = "a count with a minus sign";
    let large = "a count of 2^64 or more as a JSON number (write a count below 2^128 as a string \
                 of decimal digits)";
    // `380.0` was refused as "a count of 380 is not a whole number below 2^64"; values are not
    // quoted, as a float prints rounded (9007199254740993.0 as ...994) or in 300 digits.
    for (text, reason) in [
        ("380.0", point),
        ("3.8e2", point),
        ("9007199254740993.0", point),
        ("380.5", "a count that is not a whole number"),
        ("-0.5", "a count that is not a whole number"),
        ("1e-300", "a count that is not a whole number"),
        ("-2.0", sign),
        ("-0", sign),
        ("-1e300", sign),
        ("-9223372036854775809", sign),
        ("18446744073709551616", large),
        ("1e300", large),
    ] {
        assert_eq!(
            read(text),
            Err(format!("{reason} at line 1 column {}", text.len())),
            "{text}"
        );
    }
    assert_eq!(
        read("-1"),
        Err("a count of -1 is negative at line 1 column 2".to_string())
    );
}

#[test]
fn counts_one_ply_or_none_above_the_leaves_are_checked_against_the_listing() {
    // A report whose `depth` was edited from 3 to 1 or 2 kept its depth-3 counts and merged to
    // 8902 as if it were perft 1 (split 1, so each count must be 1) or perft 2 (each count the
    // number of replies).
    for (depth, counted) in [(1, 1), (2, 20)] {
        let mut reports = vec![
            ("a".to_string(), shard(3, 1, 1, 2).expect("shard 1")),
            ("b".to_string(), shard(3, 1, 2, 2).expect("shard 2")),
        ];
        for (_, r) in &mut reports {
            r.depth = depth;
        }
        assert_eq!(
            merged(&reports),
            format!(
                "a: the entry with index 0 (path `a2a3`) has count 380, but perft {} there is \
                 {counted}",
                depth - 1
            )
        );
    }
    // The honest reports of such splits still merge.
    for (depth, split, total) in [(2, 2, 400), (3, 2, 8902), (1, 1, 20)] {
        let reports = vec![
            ("a".to_string(), shard(depth, split, 1, 2).expect("shard 1")),
            ("b".to_string(), shard(depth, split, 2, 2).expect("shard 2")),
        ];
        assert_eq!(merge(&reports), Ok(total), "depth {depth} split {split}");
    }
}
