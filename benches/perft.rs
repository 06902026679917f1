//! Criterion benches of perft: every variant of the registry from its start position, at the
//! depth `benches/depths.txt` gives it, and Kiwipete. Each bench reads its expected count from
//! the variant's suite (expected numbers live in `suites/`, never in Rust) and asserts it
//! before timing, so a bench never measures a wrong generator.

use criterion::{Criterion, criterion_group, criterion_main};
use cvperft::notation::{parse_position, play_moves};
use cvperft::perft::perft;
use cvperft::position::Position;
use cvperft::variant::Rules;
use cvperft::variants;
use std::hint::black_box;
use std::path::PathBuf;

/// The depth a variant without a line in `benches/depths.txt` is benched at.
const DEFAULT_DEPTH: u32 = 3;

/// One bench: a position and the count its suite records.
struct Bench {
    name: String,
    pos: Position,
    depth: u32,
    expected: u64,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The depth of each variant, from `benches/depths.txt`.
///
/// # Panics
/// On a malformed line or an unknown variant: the file is part of the benches.
fn depths() -> Vec<(String, u32)> {
    let path = root().join("benches").join("depths.txt");
    let text = std::fs::read_to_string(&path).expect("benches/depths.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, line)| {
            let mut words = line.split_whitespace();
            let (Some(id), Some(depth)) = (words.next(), words.next()) else {
                panic!("benches/depths.txt:{}: expected `variant depth`", i + 1);
            };
            assert!(
                variants::get(id).is_some(),
                "benches/depths.txt:{}: no variant `{id}`",
                i + 1
            );
            let depth = depth
                .parse()
                .unwrap_or_else(|_| panic!("benches/depths.txt:{}: bad depth `{depth}`", i + 1));
            (id.to_string(), depth)
        })
        .collect()
}

fn string_map(v: Option<&serde_yaml::Value>) -> Vec<(String, String)> {
    v.and_then(|m| m.as_mapping())
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// The suite cases of `variant` as (case, the rules it states), from every file in suites/.
fn cases(variant: &str) -> Vec<(serde_yaml::Value, Rules)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("suites"))
        .expect("suites/")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("suite");
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("suite YAML");
        if doc.get("variant").and_then(|v| v.as_str()) != Some(variant) {
            continue;
        }
        let mut options = string_map(doc.get("options"));
        if let Some(ge) = doc.get("game-end").and_then(|g| g.as_str()) {
            options.push(("game-end".into(), ge.into()));
        }
        for case in doc
            .get("cases")
            .and_then(|c| c.as_sequence())
            .into_iter()
            .flatten()
        {
            let mut rules = variants::rules(variant).expect("a known variant");
            for (k, v) in options.iter().chain(&string_map(case.get("options"))) {
                rules.set(k, v).expect("suite option");
            }
            out.push((case.clone(), rules));
        }
    }
    out
}

/// The count of `depth` the suite records for `variant`'s start position under its default
/// options.
///
/// # Panics
/// When no suite case records it: a bench measures only what a suite states.
fn start_count(variant: &str, depth: u32) -> u64 {
    let defaults = variants::rules(variant).expect("a known variant");
    let key = serde_yaml::Value::Number(depth.into());
    cases(variant)
        .into_iter()
        .filter(|(case, rules)| {
            *rules == defaults
                && case.get("moves").is_none()
                && case
                    .get("fen")
                    .and_then(|f| f.as_str())
                    .is_none_or(|f| f == defaults.start_fen())
        })
        .find_map(|(case, _)| case.get("perft")?.get(&key)?.as_u64())
        .unwrap_or_else(|| {
            panic!("bench {variant} d{depth}: no suite case counts the start position that deep")
        })
}

/// The count of case `id` of `variant`'s suite at `depth`, with its position.
fn case_count(variant: &str, id: &str, depth: u32) -> (Position, u64) {
    let (case, rules) = cases(variant)
        .into_iter()
        .find(|(c, _)| c.get("id").and_then(|i| i.as_str()) == Some(id))
        .unwrap_or_else(|| panic!("bench {variant}::{id}: no such case in suites/"));
    let fen = case
        .get("fen")
        .and_then(|f| f.as_str())
        .map_or_else(|| rules.start_fen(), String::from);
    let mut pos = parse_position(rules, &fen).expect("suite FEN");
    if let Some(moves) = case.get("moves").and_then(|m| m.as_str()) {
        pos = play_moves(&pos, moves).expect("suite moves");
    }
    let key = serde_yaml::Value::Number(depth.into());
    let expected = case
        .get("perft")
        .and_then(|p| p.get(&key))
        .and_then(|n| n.as_u64())
        .unwrap_or_else(|| panic!("bench {variant}::{id}: no perft {depth} in suites/"));
    (pos, expected)
}

fn plan() -> Vec<Bench> {
    let depths = depths();
    let mut out: Vec<Bench> = variants::IDS
        .iter()
        .map(|&id| {
            let depth = depths
                .iter()
                .find(|(v, _)| v == id)
                .map_or(DEFAULT_DEPTH, |(_, d)| *d);
            let rules = variants::rules(id).expect("a registered variant");
            Bench {
                name: format!("{id}::start::d{depth}"),
                pos: parse_position(rules, &rules.start_fen()).expect("start"),
                depth,
                expected: start_count(id, depth),
            }
        })
        .collect();
    let (pos, expected) = case_count("chess", "kiwipete", 4);
    out.push(Bench {
        name: "chess::kiwipete::d4".into(),
        pos,
        depth: 4,
        expected,
    });
    out
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for bench in plan() {
        assert_eq!(
            perft(&bench.pos, bench.depth),
            bench.expected,
            "{} perft {}",
            bench.name,
            bench.depth
        );
        group.bench_function(&bench.name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&bench.pos), bench.depth), bench.expected))
        });
    }
    group.finish();
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
