//! `suites/schema.json` must describe what the loader accepts: the same keys at every level and
//! the same enumerated values. The loader's own error messages (serde's "expected one of ...")
//! give the accepted lists, so the schema cannot silently fall behind the model.

use cvperft::suite::load_str;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/schema.json");
    let text = std::fs::read_to_string(path).expect("suites/schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The backquoted names after "expected one of" (or "expected") in the loader's error.
fn accepted(yaml: &str) -> BTreeSet<String> {
    let errors = load_str(yaml, Path::new("probe.yaml")).expect_err("the probe is rejected");
    let message = errors[0].reason.to_string();
    let list = message
        .split_once("expected one of ")
        .or_else(|| message.split_once("expected "))
        .unwrap_or_else(|| panic!("no list in {message:?}"))
        .1;
    list.split([',', ' '])
        .filter(|s| !s.is_empty() && *s != "or")
        .map(|s| s.trim().trim_matches('`').to_string())
        .collect()
}

fn keys(object: &Value) -> BTreeSet<String> {
    object["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect()
}

fn strings(list: &Value) -> BTreeSet<String> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("strings").to_string())
        .collect()
}

const HEAD: &str = "variant: chess\ndescription: probe\ngame-end: rules\n";

#[test]
fn the_schema_has_the_loaders_keys_at_every_level() {
    let schema = schema();
    let defs = &schema["$defs"];
    let probes = [
        (format!("{HEAD}cases: []\nprobe: 1\n"), &schema),
        (
            format!("{HEAD}cases:\n  - id: a\n    probe: 1\n"),
            &defs["case"],
        ),
        (
            format!("{HEAD}cases:\n  - id: a\n    source: {{kind: hand, probe: 1}}\n"),
            &defs["source"],
        ),
        (
            format!("{HEAD}cases:\n  - id: a\n    divide: {{depth: 1, moves: {{}}, probe: 1}}\n"),
            &defs["divide"],
        ),
        (
            format!("{HEAD}cases:\n  - id: a\n    alternatives: [{{reading: r, probe: 1}}]\n"),
            &defs["alternative"],
        ),
    ];
    for (yaml, object) in probes {
        assert_eq!(accepted(&yaml), keys(object), "{yaml}");
    }
}

#[test]
fn the_schema_has_the_loaders_values() {
    let schema = schema();
    let defs = &schema["$defs"];
    assert_eq!(
        accepted("variant: chess\ndescription: d\ngame-end: probe\ncases: []\n"),
        strings(&schema["properties"]["game-end"]["enum"])
    );
    let case = |field: &str| format!("{HEAD}cases:\n  - id: a\n    {field}\n");
    assert_eq!(
        accepted(&case("status: probe")),
        strings(&defs["case"]["properties"]["status"]["enum"])
    );
    assert_eq!(
        accepted(&case("outcome: probe")),
        strings(&defs["outcome"]["enum"])
    );
    assert_eq!(
        accepted(&case("source: {kind: probe}")),
        strings(&defs["source"]["properties"]["kind"]["enum"])
    );
}

#[test]
fn every_suite_names_the_schema_for_editors() {
    // docs/suite-format.md says every suite starts so; two of six did not.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("suites/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&path).expect("suite");
            assert!(
                text.starts_with("# yaml-language-server: $schema=schema.json\n"),
                "{}",
                path.display()
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 6);
}
