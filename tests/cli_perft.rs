//! The perft-family commands run as a user runs them: output formats, consistency between
//! commands, thread and hash independence, shards, exit codes. Expected counts live in
//! `suites/`; these tests compare the commands with each other, for every variant of the
//! registry.

use cvperft::variants;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cvperft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("the binary runs")
}

fn ok_stdout(args: &[&str]) -> String {
    let o = cvperft(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8")
}

fn count(args: &[&str]) -> u64 {
    let out = ok_stdout(args);
    assert_eq!(
        out.lines().count(),
        1,
        "perft prints the count alone: {out:?}"
    );
    out.trim().parse().expect("a number")
}

/// Parses divide output: `move count` lines, a blank line, the total; checks the format.
fn divide(args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let out = ok_stdout(args);
    let (body, total) = out
        .rsplit_once("\n\n")
        .expect("blank line before the total");
    let total: u64 = total.trim().parse().expect("total");
    let lines: Vec<(String, u64)> = body
        .lines()
        .map(|l| {
            let (m, c) = l.split_once(' ').expect("`move count`");
            (m.to_string(), c.parse().expect("count"))
        })
        .collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "divide is sorted by move text");
    assert_eq!(
        lines.iter().map(|l| l.1).sum::<u64>(),
        total,
        "divide sums to its total"
    );
    (lines, total)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn divide_total_equals_perft_in_every_variant() {
    for &v in variants::IDS {
        let (lines, total) = divide(&["divide", "3", "-v", v]);
        assert!(!lines.is_empty());
        assert_eq!(total, count(&["perft", "3", "-v", v]), "{v}");
        // perft 1 equals the number of divide lines
        assert_eq!(count(&["perft", "1", "-v", v]) as usize, lines.len(), "{v}");
    }
}

#[test]
fn divide_entries_are_perft_after_the_move() {
    let (lines, _) = divide(&["divide", "3", "--fen", KIWIPETE]);
    for (m, c) in lines.iter().step_by(7) {
        assert_eq!(
            *c,
            count(&["perft", "2", "--fen", KIWIPETE, "--moves", m]),
            "{m}"
        );
    }
}

#[test]
fn perftree_protocol_matches_divide() {
    let tree = ok_stdout(&["perftree", "3", KIWIPETE, "e1g1 a6e2"]);
    let div = ok_stdout(&["divide", "3", "--fen", KIWIPETE, "--moves", "e1g1 a6e2"]);
    assert_eq!(tree, div);
}

#[test]
fn threads_and_hash_do_not_change_counts() {
    for &v in variants::IDS {
        let plain = count(&["perft", "4", "-v", v]);
        assert_eq!(
            plain,
            count(&["perft", "4", "-v", v, "--threads", "2"]),
            "{v} threads"
        );
        assert_eq!(
            plain,
            count(&["perft", "4", "-v", v, "--hash", "4"]),
            "{v} hash"
        );
        assert_eq!(
            plain,
            count(&["perft", "4", "-v", v, "--hash", "1", "--threads", "2"]),
            "{v} both"
        );
    }
    let kiwi = count(&["perft", "3", "--fen", KIWIPETE]);
    let (_, threaded) = divide(&["divide", "3", "--fen", KIWIPETE, "--threads", "2"]);
    assert_eq!(kiwi, threaded);
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_perft-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn shards_merge_to_the_full_count_and_refuse_gaps() {
    let dir = scratch("shards");
    let whole = count(&["perft", "4", "-v", "silver-elephant"]);
    let mut files = Vec::new();
    for k in 1..=3 {
        let out = ok_stdout(&[
            "perft",
            "4",
            "-v",
            "silver-elephant",
            "--split",
            "2",
            "--shard",
            &format!("{k}/3"),
            "--format",
            "json",
        ]);
        let f = dir.join(format!("s{k}.json"));
        std::fs::write(&f, out).expect("write shard");
        files.push(f.display().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|s| s.as_str()));
    assert_eq!(count(&args), whole);
    let missing = cvperft(&["merge", &files[0], &files[2]]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("missing shard(s) 2 of 3"));
    let twice = cvperft(&["merge", &files[0], &files[0], &files[1], &files[2]]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("given twice"));
}

#[test]
fn input_errors_exit_2_with_one_line() {
    for args in [
        vec![
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        ],
        vec![
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        ],
        vec!["perft", "3", "-v", "nochess"],
        vec!["perft", "3", "-o", "medinese=maybe", "-v", "bachelor-kamil"],
        vec!["perft", "3", "-o", "nonsense"],
        vec!["perft", "3", "--moves", "e2e5"],
        vec!["perft", "99"],
        vec!["divide", "x"],
        vec!["fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
    ] {
        let o = cvperft(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        if args[0] != "divide" {
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        }
    }
}

/// An argument that is not UTF-8 (a file name or a text from a script with another encoding):
/// the message names which argument, the option before it and the column, and shows its bytes.
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    for (args, expected) in [
        (
            vec![&b"perft"[..], b"2", b"-v", b"che\xffss"],
            "cvperft: argument 4 (after `-v`), column 4: not UTF-8 text: `che\\xffss`",
        ),
        (
            vec![&b"perft"[..], b"2", b"--moves=e2e4 \xc3"],
            "cvperft: argument 3, column 14: not UTF-8 text: `--moves=e2e4 \\xc3`",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_cvperft"))
            .args(args.iter().map(|a| OsStr::from_bytes(a)))
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(o.stdout.is_empty());
        assert_eq!(err.trim_end(), format!("{expected} (see `cvperft --help`)"));
    }
}

#[test]
fn fen_normalises_and_draws_the_board() {
    let out = ok_stdout(&[
        "fen",
        "-v",
        "silver-elephant",
        "rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNEBQKBENR w KQkq -",
    ]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNEBQKBENR w KQkq - 0 1")
    );
    let rest: Vec<&str> = lines.collect();
    assert_eq!(
        rest.len(),
        10,
        "8 ranks, a file line and the side to move: {out}"
    );
    assert_eq!(
        rest[9], "White to move",
        "no hand line while nothing is to place: {out}"
    );
}

#[test]
fn fen_shows_the_side_to_move_and_the_hands_as_the_diff_diagram_does() {
    // The diagram showed neither the pieces in hand nor the side to move, which `diff`'s
    // diagram of the same position says.
    let tail = |args: &[&str], n: usize| {
        let out = ok_stdout(args);
        let lines: Vec<String> = out.lines().map(String::from).collect();
        lines[lines.len() - n..].to_vec()
    };
    assert_eq!(
        tail(
            &[
                "fen",
                "-v",
                "silver-elephant",
                "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1",
            ],
            3
        ),
        [
            "White to move",
            "White to place: N x2, E x2",
            "Black to place: n x2, e x2"
        ]
    );
    assert_eq!(
        tail(
            &[
                "fen",
                "-v",
                "cerimon",
                "rbbtkbbr/nn3s1n/3s4/8/3n2N1/8/N1SSSSN1/RBBTKBBR[Nss] b - - 2 4",
            ],
            3
        ),
        [
            "Black to move",
            "White's lost pieces: N",
            "Black's lost pieces: s x2"
        ]
    );
    // Lost pieces are always shown, as the FEN always writes them.
    assert_eq!(
        tail(&["fen", "-v", "cerimon"], 3),
        [
            "White to move",
            "White's lost pieces: none",
            "Black's lost pieces: none"
        ]
    );
}
