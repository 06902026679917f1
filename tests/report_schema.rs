//! `docs/report.schema.json` describes the JSON check report: real reports (against the
//! reference, and against an engine with a planted fault, which has findings) are validated
//! against it, and every property the schema lists is one some report emits or one it documents
//! as optional. The validator covers the part of JSON Schema the file uses (`$ref` into
//! `$defs`, `type`, `enum`, `properties`, `required`, `additionalProperties: false`, `items`,
//! `oneOf`); a keyword it does not know fails the test, so the file cannot outgrow it silently.

mod support;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use support::{CVPERFT, cvperft};

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let text = std::fs::read_to_string(path).expect("docs/report.schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

const KNOWN: &[&str] = &[
    "$schema",
    "$ref",
    "$defs",
    "title",
    "description",
    "type",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "oneOf",
];

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        other => panic!("unknown type {other}"),
    }
}

/// Every problem of `value` against `rule`, with its JSON path; `used` collects the
/// (definition path, property) pairs met.
fn validate(
    root: &Value,
    rule: &Value,
    value: &Value,
    at: &str,
    used: &mut BTreeSet<String>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let rule = rule.as_object().expect("a schema object");
    for key in rule.keys() {
        assert!(
            KNOWN.contains(&key.as_str()),
            "the validator does not know `{key}`"
        );
    }
    if let Some(r) = rule.get("$ref") {
        let name = r
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .expect("a $defs reference");
        return validate(root, &root["$defs"][name], value, at, used);
    }
    if let Some(t) = rule.get("type") {
        let t = t.as_str().expect("one type");
        if !type_matches(t, value) {
            errors.push(format!("{at}: not of type {t}: {value}"));
            return errors;
        }
    }
    if let Some(values) = rule.get("enum")
        && !values.as_array().expect("enum list").contains(value)
    {
        errors.push(format!("{at}: {value} not in {values}"));
    }
    if let Some(options) = rule.get("oneOf") {
        let matching = options
            .as_array()
            .expect("oneOf list")
            .iter()
            .filter(|o| validate(root, o, value, at, &mut BTreeSet::new()).is_empty())
            .count();
        if matching != 1 {
            errors.push(format!("{at}: matches {matching} of oneOf: {value}"));
        } else {
            for o in options.as_array().expect("oneOf list") {
                if validate(root, o, value, at, &mut BTreeSet::new()).is_empty() {
                    validate(root, o, value, at, used);
                }
            }
        }
    }
    if let Some(object) = value.as_object() {
        let properties = rule.get("properties").and_then(Value::as_object);
        for name in rule
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().expect("names");
            if !object.contains_key(name) {
                errors.push(format!("{at}: `{name}` missing"));
            }
        }
        for (name, v) in object {
            match properties.and_then(|p| p.get(name)) {
                Some(sub) => {
                    used.insert(name.clone());
                    errors.extend(validate(root, sub, v, &format!("{at}.{name}"), used));
                }
                None if rule.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{at}: `{name}` is not documented"));
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(list)) = (rule.get("items"), value.as_array()) {
        for (i, v) in list.iter().enumerate() {
            errors.extend(validate(root, items, v, &format!("{at}[{i}]"), used));
        }
    }
    errors
}

/// Every property name the schema documents, anywhere.
fn documented(rule: &Value, out: &mut BTreeSet<String>) {
    match rule {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            for v in map.values() {
                documented(v, out);
            }
        }
        Value::Array(list) => list.iter().for_each(|v| documented(v, out)),
        _ => {}
    }
}

fn report(args: &[&str]) -> Value {
    let run = cvperft(args);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("a JSON report")
}

#[test]
fn real_reports_match_the_schema() {
    let schema = schema();
    let engine = format!("{CVPERFT} perftree -v chess --inject no-en-passant");
    let cerimon = format!("{CVPERFT} perftree -v cerimon --inject no-resurrection");
    let reports = [
        report(&[
            "check",
            "suites",
            "--max-nodes",
            "2000",
            "--format",
            "json",
            "-q",
        ]),
        report(&[
            "check",
            "suites/chess.yaml",
            "--engine",
            &engine,
            "--protocol",
            "perftree",
            "--max-nodes",
            "20000",
            "--format",
            "json",
            "-q",
        ]),
        report(&[
            "check",
            "suites/chess.yaml",
            "--engine",
            &engine,
            "--protocol",
            "perftree",
            "--max-nodes",
            "20000",
            "--format",
            "json",
            "-q",
            "--no-bisect",
        ]),
        report(&[
            "check",
            "suites/cerimon.yaml",
            "--engine",
            &cerimon,
            "--protocol",
            "perftree",
            "--max-nodes",
            "5000",
            "--format",
            "json",
            "-q",
        ]),
        // A divide listing other moves than the legal ones: a `divide-moves` mismatch.
        report(&[
            "check",
            "fixtures/suites/partial-divide.yaml",
            "--format",
            "json",
        ]),
    ];
    let mut used = BTreeSet::new();
    for r in &reports {
        let errors = validate(&schema, &schema, r, "$", &mut used);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }
    assert!(
        !reports[1]["findings"]
            .as_array()
            .expect("findings")
            .is_empty()
    );
    assert!(
        !reports[2]["not_bisected"]
            .as_array()
            .expect("list")
            .is_empty()
    );
    // Every documented property is one these reports emit, or one emitted only in cases they
    // do not reach (listed here with the case).
    let rare: BTreeSet<&str> = [
        "stopped",     // a count stopped past the expected one (--max-nodes budget of a deep case)
        "alternative", // checks of a disputed case's alternative reading with an engine skip
        "counts",      // a finding with the same moves but different counts at depth 1,
        "reference",   // whose entries hold the reference's
        "engine",      // and the engine's count
        "fen",         // always emitted; also the name of the finding's optional FEN
        "message",     // an `error` mismatch: an engine that failed on a check
    ]
    .into_iter()
    .collect();
    let mut all = BTreeSet::new();
    documented(&schema, &mut all);
    for name in &all {
        assert!(
            used.contains(name) || rare.contains(name.as_str()),
            "`{name}` is documented but no report here emits it"
        );
    }
}
