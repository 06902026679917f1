//! Criterion benches of perft per variant. Each bench reads its expected count from the
//! variant's suite (expected numbers live in `suites/`, never in Rust) and asserts it before
//! timing, so a bench never measures a wrong generator.

use criterion::{Criterion, criterion_group, criterion_main};
use cvperft::notation::{parse_position, play_moves};
use cvperft::perft::perft;
use cvperft::variants;
use std::hint::black_box;
use std::path::Path;

/// (suite file, case id, depth) of each benchmark.
const BENCHES: &[(&str, &str, u32)] = &[
    ("chess.yaml", "start", 5),
    ("chess.yaml", "kiwipete", 4),
    ("silver-elephant.yaml", "start", 4),
    ("bachelor-kamil.yaml", "start-reflective", 4),
    ("cerimon.yaml", "start-d4", 4),
    ("plutonian.yaml", "start-text", 4),
    ("pink-panther.yaml", "start-deep", 4),
];

struct Case {
    variant: String,
    fen: Option<String>,
    moves: Option<String>,
    options: Vec<(String, String)>,
    expected: u64,
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

fn load(file: &str, id: &str, depth: u32) -> Option<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("suites")
        .join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).ok()?;
    let variant = doc.get("variant")?.as_str()?.to_string();
    let mut options = string_map(doc.get("options"));
    if let Some(ge) = doc.get("game-end").and_then(|g| g.as_str()) {
        options.push(("game-end".into(), ge.into()));
    }
    let case = doc
        .get("cases")?
        .as_sequence()?
        .iter()
        .find(|c| c.get("id").and_then(|i| i.as_str()) == Some(id))?;
    options.extend(string_map(case.get("options")));
    let key = serde_yaml::Value::Number(depth.into());
    let expected = case.get("perft")?.as_mapping()?.get(&key)?.as_u64()?;
    Some(Case {
        variant,
        fen: case.get("fen").and_then(|f| f.as_str()).map(String::from),
        moves: case.get("moves").and_then(|f| f.as_str()).map(String::from),
        options,
        expected,
    })
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(file, id, depth) in BENCHES {
        // A bench measures only what a suite states: a missing case is an error, not a skip.
        let Some(case) = load(file, id, depth) else {
            panic!("bench {file}::{id} d{depth}: no such case with that depth in suites/");
        };
        let mut rules = variants::rules(&case.variant).expect("suite names a known variant");
        for (k, v) in &case.options {
            rules.set(k, v).expect("suite option");
        }
        let fen = case.fen.clone().unwrap_or_else(|| rules.start_fen());
        let mut pos = parse_position(rules, &fen).expect("suite FEN");
        if let Some(m) = &case.moves {
            pos = play_moves(&pos, m).expect("suite moves");
        }
        assert_eq!(
            perft(&pos, depth),
            case.expected,
            "{file}::{id} perft {depth}"
        );
        group.bench_function(format!("{}::{id}::d{depth}", case.variant), |b| {
            b.iter(|| assert_eq!(perft(black_box(&pos), depth), case.expected))
        });
    }
    group.finish();
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
