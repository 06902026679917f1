//! What the diagram and browser tests share: running the binary, a report from a faulty
//! engine, and reading a FEN's squares without the library (so a drawn board is compared with
//! the FEN, not with the code that drew it).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub const CVPERFT: &str = env!("CARGO_BIN_EXE_cvperft");

/// What a run of the binary printed and returned.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary from the repository root.
pub fn cvperft(args: &[&str]) -> Run {
    let out = Command::new(CVPERFT)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the cvperft binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the binary from the repository root with `NO_COLOR` set, keeping its raw output (for
/// the tests that read it with [`stdout`], [`stderr`] and [`code`]).
pub fn cvperft_output(args: &[&str]) -> Output {
    cvperft_output_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// [`cvperft_output`] run in `dir` (a directory away from the repository's files).
pub fn cvperft_output_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(CVPERFT)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the cvperft binary runs")
}

/// What a run printed on stdout, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stderr, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A run's exit code (a run killed by a signal fails the test).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// A fresh scratch directory `PREFIX-NAME` under the target directory's temporary folder.
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A fresh, empty directory `cvperft-NAME` under the target directory's temporary folder
/// (each test's own name; under the system's temporary directory, one per process id, every
/// run left its directories behind).
pub fn temp_dir(name: &str) -> PathBuf {
    scratch_dir("cvperft", name)
}

/// Board size of a variant, as `cvperft variants` lists it (`silver-elephant (10x8) ...`): every
/// registered variant, with no list here to keep up (one that said 8x8 for every variant it
/// did not name failed a new variant's boards with "left: 10, right: 8").
///
/// # Panics
/// On a variant the binary does not list.
pub fn board_size(variant: &str) -> (u8, u8) {
    static SIZES: std::sync::OnceLock<Vec<(String, (u8, u8))>> = std::sync::OnceLock::new();
    let sizes = SIZES.get_or_init(|| {
        let run = cvperft(&["variants"]);
        assert_eq!(run.code, 0, "cvperft variants: {}", run.stderr);
        run.stdout
            .lines()
            .filter(|l| !l.starts_with(' '))
            .filter_map(|l| {
                let (id, rest) = l.split_once(" (")?;
                let (size, _) = rest.split_once(')')?;
                let (files, ranks) = size.split_once('x')?;
                Some((id.to_string(), (files.parse().ok()?, ranks.parse().ok()?)))
            })
            .collect()
    });
    sizes
        .iter()
        .find(|(id, _)| id == variant)
        .map(|(_, size)| *size)
        .unwrap_or_else(|| panic!("`cvperft variants` does not list `{variant}`"))
}

/// What a FEN puts on each square (`e4` -> `N`, `d4` -> `*`, `a1` -> `+R`), in each hand
/// (letters sorted, White's then Black's) and which side moves.
pub struct FenBoard {
    pub squares: BTreeMap<String, String>,
    pub hands: [String; 2],
    pub side: &'static str,
}

/// Reads a FEN's board, hands and side.
pub fn read_fen(fen: &str, files: u8, ranks: u8) -> FenBoard {
    let board_field = fen.split_whitespace().next().expect("board field");
    let (board, hand) = match board_field.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (board_field, ""),
    };
    let mut squares = BTreeMap::new();
    let rows: Vec<&str> = board.split('/').collect();
    assert_eq!(rows.len(), usize::from(ranks), "{fen}");
    for (i, row) in rows.iter().enumerate() {
        let rank = usize::from(ranks) - i;
        let mut file = 0u8;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(mut n) = c.to_digit(10) {
                if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d;
                    chars.next();
                }
                file += n as u8;
                continue;
            }
            let piece = if c == '+' {
                format!("+{}", chars.next().expect("letter after +"))
            } else {
                c.to_string()
            };
            squares.insert(format!("{}{rank}", (b'a' + file) as char), piece);
            file += 1;
        }
        assert_eq!(file, files, "{fen}: rank {rank}");
    }
    let sorted = |upper: bool| -> String {
        let mut letters: Vec<char> = hand
            .chars()
            .filter(|c| c.is_ascii_uppercase() == upper && c.is_ascii_alphabetic())
            .collect();
        letters.sort_unstable();
        letters.into_iter().collect()
    };
    let side = if fen.split_whitespace().nth(1) == Some("b") {
        "black"
    } else {
        "white"
    };
    FenBoard {
        squares,
        hands: [sorted(true), sorted(false)],
        side,
    }
}

/// Whether a square is light: a1 is dark, (file + rank) counted from 1 odd is light.
pub fn is_light(square: &str) -> bool {
    let file = u32::from(square.as_bytes()[0] - b'a') + 1;
    let rank: u32 = square[1..].parse().expect("rank");
    (file + rank) % 2 == 1
}

/// The arguments of a `check` whose engine never promotes to a Knight: a few seconds, failing
/// cases in five games (chess, Silver Elephant, Bachelor Kamil, Cerimon, Pink Panther).
pub fn faulty_check_args(engine: &str) -> Vec<String> {
    [
        "check",
        "suites",
        "--filter",
        "promot",
        "--max-nodes",
        "5000",
        "--engine",
        engine,
        "--protocol",
        "perftree",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The engine command for [`faulty_check_args`].
pub fn faulty_engine() -> String {
    format!("{CVPERFT} perftree -v {{variant}} --inject no-promotion-to-knight")
}

/// Runs the faulty check as HTML into `path`, then as JSON, and returns the HTML and the
/// failing cases (`variant::suite::case`, sorted) the JSON report names.
pub fn faulty_check(path: &Path) -> (String, Vec<String>) {
    let engine = faulty_engine();
    let mut args = faulty_check_args(&engine);
    args.extend([
        "--format".into(),
        "html".into(),
        "--output".into(),
        path.display().to_string(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = cvperft(&refs);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let html = std::fs::read_to_string(path).expect("report written");
    let mut args = faulty_check_args(&engine);
    args.extend(["--format".into(), "json".into()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let json = cvperft(&refs);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("json report");
    let mut failing: Vec<String> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| matches!(r["status"].as_str(), Some("failed" | "unexpected-pass")))
        .map(|r| {
            format!(
                "{}::{}::{}",
                r["variant"].as_str().unwrap_or(""),
                r["suite"].as_str().unwrap_or(""),
                r["case"].as_str().unwrap_or("")
            )
        })
        .collect();
    failing.sort();
    failing.dedup();
    (html, failing)
}

/// The FEN and page of `diff` finding the planted en-passant fault two plies down.
pub const EP_FEN: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// Runs that `diff` with `extra` arguments.
pub fn ep_diff(extra: &[&str]) -> Run {
    ep_diff_against(&format!("{CVPERFT} perftree --inject no-en-passant"), extra)
}

/// `diff` at depth 3 of [`EP_FEN`] with the engine that answers the root question without en
/// passant and crashes on the first question of the descent (perftree-faulty `deepcrash`).
pub fn deepcrash_diff(extra: &[&str]) -> Run {
    faulty_diff("deepcrash", extra)
}

/// `diff` at depth 3 of [`EP_FEN`] against `fixtures/engines/perftree-faulty MODE CVPERFT`.
pub fn faulty_diff(mode: &str, extra: &[&str]) -> Run {
    let engine = format!(
        "{}/fixtures/engines/perftree-faulty {mode} {CVPERFT}",
        env!("CARGO_MANIFEST_DIR")
    );
    ep_diff_against(&engine, extra)
}

/// `diff` at depth 3 of [`EP_FEN`] against the perftree `engine`, with `extra` arguments.
pub fn ep_diff_against(engine: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "diff",
        "3",
        "-v",
        "chess",
        "--fen",
        EP_FEN,
        "--engine",
        engine,
        "--protocol",
        "perftree",
    ];
    args.extend_from_slice(extra);
    cvperft(&args)
}

/// The ids of the (Linux) processes whose parent is `pid`.
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(id) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{id}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        if after.split_whitespace().nth(1) == Some(pid.to_string().as_str()) {
            out.push(id);
        }
    }
    out
}

/// Whether process `pid` is alive (a zombie is not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        !after.trim_start().starts_with('Z')
    })
}

pub fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what} never happened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Called by a test whose outside tool (`stockfish`, `pyffish`, `chromium`, `python-chess`,
/// `parallel`, `python3`) is missing: the test then passes after saying so on standard error, unless the
/// tool is named in `CVPERFT_REQUIRE_TOOLS` (names separated by commas or spaces), where it
/// fails instead. `.ci/run` names every tool it finds installed, so that a test which no
/// longer finds an installed tool (a moved path, a broken import) fails in CI instead of
/// passing without its cross-check.
pub fn tool_missing(tool: &str, why: &str) {
    let required = std::env::var("CVPERFT_REQUIRE_TOOLS").unwrap_or_default();
    if required.split([',', ' ']).any(|t| t == tool) {
        panic!("{tool} is required here (CVPERFT_REQUIRE_TOOLS=\"{required}\") but {why}");
    }
    // Written to the stream itself, not through the harness's capture, so that the skip
    // shows in every `cargo test` run.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}
