//! Validation (runtime::validation, the `jsonschema` crate) against the cases every runtime reads:
//! the spec's examples (valid) and invalid examples (refused), the model's differential validation
//! cases with the reference validator's verdicts (tests/cases/validation-cases.json), and the
//! JSON-Schema-Test-Suite's required draft 2020-12 groups, with the counts Kotlin and Swift reach.

mod support;

use agent_contracts::runtime::strict_json::parse_strict_json;
use agent_contracts::runtime::validation::SchemaRegistry;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use agent_contracts::schemas::registry;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The first example with the case's change: the member at `pointer` removed or set to `value`.
fn mutated(base: &Value, case: &Value) -> Value {
    let pointer = support::text(case, "pointer");
    let mut doc = base.clone();
    if pointer.is_empty() {
        return case["value"].clone();
    }
    let (parent, last) = pointer.rsplit_once('/').expect("a pointer");
    let last = last.replace("~1", "/").replace("~0", "~");
    match doc.pointer_mut(parent).expect("the parent exists") {
        Value::Object(members) if case["remove"] == Value::Bool(true) => {
            members.shift_remove(&last);
        }
        Value::Object(members) => {
            members.insert(last, case["value"].clone());
        }
        Value::Array(items) => {
            let index: usize = last.parse().expect("an index");
            if case["remove"] == Value::Bool(true) {
                items.remove(index);
            } else if index < items.len() {
                items[index] = case["value"].clone();
            } else {
                items.push(case["value"].clone());
            }
        }
        other => panic!("{pointer}: parent is {other}"),
    }
    doc
}

/// Whether a case's expected first error is a cross-field rule (x-rules), which this crate does not enforce.
fn is_rule(error: &Value) -> bool {
    error.get("rule").is_some()
}

#[test]
fn examples_and_differential_cases_get_the_reference_verdicts() {
    let messages = support::read_json("validation-cases.json");
    let (mut checked, mut rules) = (0, 0);
    for message in messages.as_array().expect("messages") {
        let name = &message["message"];
        let id = support::text(message, "schemaId");
        for example in message["examples"].as_array().expect("examples") {
            assert_eq!(registry().validate(id, example), Ok(()), "{name} example");
            checked += 1;
        }
        for invalid in message["invalid"].as_array().expect("invalid examples") {
            if is_rule(&invalid["error"]) {
                rules += 1;
                continue;
            }
            assert!(!registry().is_valid(id, &invalid["instance"]), "{name}: {}", invalid["description"]);
            checked += 1;
        }
        let Some(base) = message["examples"].get(0) else { continue };
        for case in message["cases"].as_array().expect("cases") {
            if is_rule(&case["expected"]) {
                rules += 1;
                continue;
            }
            let expected_valid = case["expected"].is_null();
            assert_eq!(registry().is_valid(id, &mutated(base, case)), expected_valid, "{name} {case}");
            checked += 1;
        }
    }
    assert!(checked > 4000, "{checked}");
    println!("validation: {checked} verdicts agree; {rules} cases of cross-field rules (x-rules) not enforced by this crate");
}

/// The fuzz corpus's hostile messages with TypeScript's verdicts: "valid", "json <code>", or the
/// first error "<instancePath> <keyword>[ <rule>]". The verdict must agree (first errors may
/// differ, see runtime/validation.rs); a verdict that names a cross-field rule is left out.
#[test]
fn fuzz_corpus_gives_the_typescript_verdicts() {
    let messages = support::read_json("validation-cases.json");
    let ids: HashMap<(String, String), String> = messages
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| ((support::text(m, "protocol").to_string(), support::text(m, "message").to_string()), support::text(m, "schemaId").to_string()))
        .collect();
    let (mut checked, mut rules) = (0, 0);
    for file in ["fuzz/validators.json", "fuzz/reproducers.json"] {
        let corpus = support::read_json(file);
        for case in support::cases(&corpus) {
            let expect = support::text(case, "expect");
            let bytes = STANDARD.decode(support::text(case, "b64")).expect("base64");
            let verdict = match parse_strict_json(&bytes) {
                Err(error) => format!("json {}", error.code.as_str()),
                Ok(value) => {
                    let id = &ids[&(support::text(case, "protocol").to_string(), support::text(case, "message").to_string())];
                    if registry().is_valid(id, &value) { "valid".to_string() } else { "invalid".to_string() }
                }
            };
            let expected = if expect == "valid" || expect.starts_with("json ") { expect.to_string() } else { "invalid".to_string() };
            if expected == "invalid" && expect.split(' ').count() > 2 {
                rules += 1;
                continue;
            }
            assert_eq!(verdict, expected, "{file}: {}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked > 1400, "{checked}");
    println!("fuzz corpus: {checked} verdicts agree; {rules} cross-field rule verdicts left out");
}

fn files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path.strip_prefix(root).expect("under root").to_str().expect("utf-8").to_string());
        }
    }
}

#[test]
fn json_schema_test_suite_required_groups() {
    let remotes_root = support::case_path("json-schema-test-suite/remotes");
    let mut remote_files = Vec::new();
    files(&remotes_root, &remotes_root, &mut remote_files);
    assert!(remote_files.len() > 50, "the remotes are copied");
    let remotes: HashMap<String, Value> = remote_files.iter().map(|f| (format!("http://localhost:1234/{f}"), support::read_json(&format!("json-schema-test-suite/remotes/{f}")))).collect();
    let refused: HashSet<(String, String)> = support::read_json("json-schema-test-suite/refused.json")
        .as_array()
        .expect("refused groups")
        .iter()
        .map(|r| (support::text(r, "file").to_string(), support::text(r, "group").to_string()))
        .collect();
    let tests_root = support::case_path("json-schema-test-suite/tests");
    let mut test_files = Vec::new();
    files(&tests_root, &tests_root, &mut test_files);
    test_files.sort();
    let (mut pass, mut fail, mut refused_tests) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in test_files.iter().filter(|f| *f != "format.json") {
        let groups = support::read_json(&format!("json-schema-test-suite/tests/{file}"));
        for (index, group) in groups.as_array().expect("groups").iter().enumerate() {
            let name = support::text(group, "description");
            let tests = group["tests"].as_array().expect("tests");
            if refused.contains(&(file.clone(), name.to_string())) {
                refused_tests += tests.len();
                continue;
            }
            let uri = format!("http://schema-suite.invalid/{file}/{index}.json");
            let mut documents = remotes.clone();
            documents.insert(uri.clone(), group["schema"].clone());
            let registry = SchemaRegistry::compiling(documents, std::slice::from_ref(&uri)).unwrap_or_else(|e| panic!("{file} | {name}: {e}"));
            for test in tests {
                if registry.is_valid(&uri, &test["data"]) == (test["valid"] == Value::Bool(true)) {
                    pass += 1;
                } else {
                    fail += 1;
                    failures.push(format!("{file} | {name} | {}", test["description"]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let kotlin = &support::read_json("json-schema-test-suite/counts.json")["jsonSchemaTestSuite"]["kotlin"];
    assert_eq!((pass, fail, refused_tests), (kotlin["pass"].as_u64().unwrap() as usize, 0, kotlin["refused"].as_u64().unwrap() as usize));
}
