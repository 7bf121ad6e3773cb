//! Validation (runtime::validation: the `jsonschema` crate, the reference first error, x-rules)
//! against the cases every runtime reads: the spec's examples (valid) and invalid examples (their
//! declared first error), the model's differential validation cases with the reference
//! validator's first errors (tests/cases/validation-cases.json), and the JSON-Schema-Test-Suite's
//! required draft 2020-12 groups, with the counts Kotlin and Swift reach. The fuzz corpus's hostile
//! messages are shared cases (property-tests/drivers: `fuzz-validate`, `fuzz-reproducer`, `hostile`).

mod support;

use agent_contracts::runtime::first_error::ReferenceOrder;
use agent_contracts::runtime::validation::SchemaRegistry;
use agent_contracts::schemas::registry;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

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

/// `valid`, or the first error as `<instancePath> <keyword>[ <rule id>]` (the drivers' spelling).
fn first_error(id: &str, instance: &Value) -> String {
    match registry().validate(id, instance) {
        Ok(()) => "valid".to_string(),
        Err(errors) => {
            let first = &errors[0];
            format!("{} {}{}", first.instance_path, first.keyword, first.rule.as_ref().map(|r| format!(" {r}")).unwrap_or_default())
        }
    }
}

/// The expected first error of a case file entry (`null` is valid).
fn expected(error: &Value) -> String {
    if error.is_null() {
        return "valid".to_string();
    }
    let rule = error.get("rule").and_then(Value::as_str).map(|r| format!(" {r}")).unwrap_or_default();
    format!("{} {}{rule}", support::text(error, "instancePath"), support::text(error, "keyword"))
}

/// Every example, invalid example (the first error it declares) and differential validation case
/// (the reference validator's first error, cross-field rules included) of this project's spec.
#[test]
fn examples_and_differential_cases_get_the_reference_first_errors() {
    let messages = support::read_json("validation-cases.json");
    let (mut checked, mut rules) = (0, 0);
    for message in messages.as_array().expect("messages") {
        let name = &message["message"];
        let id = support::text(message, "schemaId");
        for example in message["examples"].as_array().expect("examples") {
            assert_eq!(first_error(id, example), "valid", "{name} example");
            checked += 1;
        }
        for invalid in message["invalid"].as_array().expect("invalid examples") {
            assert_eq!(first_error(id, &invalid["instance"]), expected(&invalid["error"]), "{name}: {}", invalid["description"]);
            rules += usize::from(invalid["error"].get("rule").is_some());
            checked += 1;
        }
        let Some(base) = message["examples"].get(0) else { continue };
        for case in message["cases"].as_array().expect("cases") {
            assert_eq!(first_error(id, &mutated(base, case)), expected(&case["expected"]), "{name} {case}");
            rules += usize::from(case["expected"].get("rule").is_some());
            checked += 1;
        }
    }
    println!("validation: {checked} first errors agree, {rules} of them cross-field rules (x-rules)");
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
            let order = ReferenceOrder::new(Arc::new(documents.clone()));
            let registry = SchemaRegistry::compiling(documents, std::slice::from_ref(&uri)).unwrap_or_else(|e| panic!("{file} | {name}: {e}"));
            for test in tests {
                let valid = test["valid"] == Value::Bool(true);
                if registry.is_valid(&uri, &test["data"]) == valid {
                    pass += 1;
                } else {
                    fail += 1;
                    failures.push(format!("{file} | {name} | {}", test["description"]));
                }
                // The walk that names the first error finds one exactly when the instance is invalid.
                if order.first_error(&uri, &test["data"]).is_none() != valid {
                    failures.push(format!("first error walk: {file} | {name} | {}", test["description"]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let kotlin = &support::read_json("json-schema-test-suite/counts.json")["jsonSchemaTestSuite"]["kotlin"];
    assert_eq!((pass, fail, refused_tests), (kotlin["pass"].as_u64().unwrap() as usize, 0, kotlin["refused"].as_u64().unwrap() as usize));
}
