//! Independent checks of our records against Fairy-Stockfish (the PyPI package `pyffish`) in
//! the games it can express (`fixtures/variants.ini`): chess, Silver Elephant without its
//! set-up phase, Bachelor Kamil without marriage, Cerimon without resurrection.
//!
//! * Its SAN (through `fixtures/records/pyffish-san`) for every legal move of random-game
//!   positions (in Cerimon, positions where some move resurrects are left out) must be ours;
//!   any difference fails the test, naming the move.
//! * Random games it plays, written in SAN by it and in Game Courier notation by
//!   `fixtures/records/pyffish-records`, must replay through the binary to its positions.
//!
//! Without pyffish the tests print that they were skipped.
//!
//! pyffish takes milliseconds per SAN, so by default one game of 60 plies per configuration,
//! every third position, is compared; `PYFFISH_SAN_GAMES=N` compares every position of N
//! games (5 compared 61,623 moves, all equal).

mod support;

use cvperft::notation::{move_text, parse_position, to_fen};
use cvperft::position::Position;
use cvperft::san::san_moves;
use cvperft::variants;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Config {
    variant: &'static str,
    options: &'static [(&'static str, &'static str)],
    engine_variant: &'static str,
}

const CONFIGS: &[Config] = &[
    Config {
        variant: "chess",
        options: &[],
        engine_variant: "chess",
    },
    Config {
        variant: "silver-elephant",
        options: &[("bare-king", "one-reply")],
        engine_variant: "silver-elephant",
    },
    Config {
        variant: "silver-elephant",
        options: &[("game-end", "movegen")],
        engine_variant: "silver-elephant-movegen",
    },
    Config {
        variant: "bachelor-kamil",
        options: &[("game-end", "movegen")],
        engine_variant: "bachelor-kamil",
    },
    Config {
        variant: "bachelor-kamil",
        options: &[("black-array", "rotational"), ("game-end", "movegen")],
        engine_variant: "bachelor-kamil-rotational",
    },
    Config {
        variant: "cerimon",
        options: &[],
        engine_variant: "cerimon",
    },
];

fn pyffish_available() -> bool {
    Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Positions of fixed-seed random games from the start (see the module doc for how many).
fn positions(cfg: &Config, seed: u64) -> Vec<Position> {
    let games: Option<usize> = std::env::var("PYFFISH_SAN_GAMES")
        .ok()
        .and_then(|s| s.parse().ok());
    let every = if games.is_some() { 1 } else { 3 };
    let mut rules = variants::rules(cfg.variant).expect("variant");
    for (k, v) in cfg.options {
        rules.set(k, v).expect("option");
    }
    let start = parse_position(rules, &rules.start_fen()).expect("start");
    let mut state = seed;
    let mut out = Vec::new();
    for _ in 0..games.unwrap_or(1) {
        let mut pos = start;
        for ply in 0..60 {
            let moves = pos.legal_moves();
            // Cerimon: Fairy-Stockfish has no resurrection, so only positions without one.
            if ply % every == 0 && moves.iter().all(|m| m.placement_list().next().is_none()) {
                out.push(pos);
            }
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = pos.play(moves[((state >> 33) % moves.len() as u64) as usize]);
        }
    }
    out
}

/// Fairy-Stockfish's SAN per move text, one map per position.
fn engine_sans(cfg: &Config, positions: &[Position]) -> Vec<BTreeMap<String, String>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/pyffish-san");
    let mut child = Command::new(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pyffish-san runs");
    let input: String = positions
        .iter()
        .map(|p| format!("{}\t{}\n", cfg.engine_variant, to_fen(p)))
        .collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write positions");
    let out = child.wait_with_output().expect("pyffish-san ends");
    assert!(
        out.status.success(),
        "pyffish-san failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut maps = vec![BTreeMap::new()];
    for line in text.lines() {
        if line == "." {
            maps.push(BTreeMap::new());
        } else if let Some((m, s)) = line.split_once(' ') {
            maps.last_mut()
                .expect("a map")
                .insert(m.to_string(), s.to_string());
        }
    }
    maps.pop();
    assert_eq!(maps.len(), positions.len(), "one answer per position");
    maps
}

#[test]
fn our_san_is_fairy_stockfish_san() {
    if !pyffish_available() {
        support::tool_missing(
            "pyffish",
            "pyffish is not installed (python3 -m pip install pyffish)",
        );
        return;
    }
    let mut compared = 0;
    let mut differences = Vec::new();
    for (i, cfg) in CONFIGS.iter().enumerate() {
        let positions = positions(cfg, 0xa11ce + i as u64);
        let engine = engine_sans(cfg, &positions);
        for (pos, theirs) in positions.iter().zip(&engine) {
            let ours: BTreeMap<String, String> = san_moves(pos)
                .into_iter()
                .map(|(m, s)| (move_text(pos, &m), s))
                .collect();
            let fen = to_fen(pos);
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>(),
                "{} {fen}: the legal moves differ",
                cfg.engine_variant
            );
            for (text, san) in &ours {
                compared += 1;
                if theirs[text] != *san {
                    differences.push(format!(
                        "{} {fen} {text}: ours {san}, Fairy-Stockfish {}",
                        cfg.engine_variant, theirs[text]
                    ));
                }
            }
        }
    }
    eprintln!("compared {compared} moves with Fairy-Stockfish's SAN");
    assert!(compared > 3_000, "only {compared} moves compared");
    assert!(
        differences.is_empty(),
        "{} of {compared} differ, first: {:#?}",
        differences.len(),
        &differences[..differences.len().min(10)]
    );
}

/// A FEN's board (without the hand), side to move and castling rights.
fn key(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = fields[0].split('[').next().unwrap_or("");
    format!("{board} {} {}", fields[1], fields[2])
}

/// The FEN after every ply as `cvperft game` prints it (the last six words of each line).
fn replayed_fens(args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_cvperft"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cvperft runs");
    assert!(
        out.status.success(),
        "cvperft {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .skip(1)
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words[words.len() - 6..].join(" ")
        })
        .collect()
}

/// Records written apart from cvperft: random games played by Fairy-Stockfish, written in
/// SAN by it and in Game Courier notation by `fixtures/records/pyffish-records`, must replay
/// through `cvperft game` (and `add-case --dry-run --at-ply N`, at one ply per game) to the
/// positions Fairy-Stockfish reached.
#[test]
fn records_written_by_fairy_stockfish_replay_to_its_positions() {
    if !pyffish_available() {
        support::tool_missing(
            "pyffish",
            "pyffish is not installed (python3 -m pip install pyffish)",
        );
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pyffish-records");
    let _ = std::fs::remove_dir_all(&dir);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/pyffish-records");
    let mut plies = 0;
    // (variant, the options under which Fairy-Stockfish's rules are ours)
    for (variant, options) in [
        ("chess", vec![]),
        ("silver-elephant", vec!["-o", "bare-king=one-reply"]),
        ("bachelor-kamil", vec!["-o", "game-end=movegen"]),
        ("cerimon", vec![]),
    ] {
        let out = dir.join(variant);
        let status = Command::new(&script)
            .args([variant, "3", "60", "21"])
            .arg(&out)
            .status()
            .expect("pyffish-records runs");
        assert!(status.success(), "pyffish-records {variant}");
        for game in 1..=3 {
            let file = |ext: &str| out.join(format!("{game}.{ext}"));
            let theirs: Vec<String> = std::fs::read_to_string(file("fen"))
                .expect("fens")
                .lines()
                .map(key)
                .collect();
            for record in [file("pgn"), file("gc")] {
                let path = record.to_str().expect("utf-8 path");
                let mut args = vec!["game", path, "-v", variant];
                args.extend(&options);
                let ours: Vec<String> = replayed_fens(&args).iter().map(|f| key(f)).collect();
                assert_eq!(ours, theirs, "{path}");
                plies += ours.len();
                // The same through add-case, cut at a ply (the suite is only read).
                let at = (7 * game) % theirs.len() + 1;
                let suite = format!("suites/{variant}.yaml");
                let at_text = at.to_string();
                let mut args = vec![
                    "add-case",
                    "--suite",
                    &suite,
                    "--game",
                    path,
                    "--at-ply",
                    &at_text,
                    "--depth",
                    "1",
                    "--id",
                    "from-fairy-stockfish",
                    "--dry-run",
                ];
                args.extend(&options);
                let o = Command::new(env!("CARGO_BIN_EXE_cvperft"))
                    .args(&args)
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .output()
                    .expect("cvperft runs");
                let case = String::from_utf8_lossy(&o.stdout);
                assert!(
                    o.status.success(),
                    "{args:?}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                let reached = case
                    .split("FEN reached: ")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .expect("the note gives the FEN reached");
                assert_eq!(key(reached), theirs[at - 1], "{path} --at-ply {at}");
            }
        }
    }
    eprintln!("replayed {plies} plies of records written by Fairy-Stockfish");
}
