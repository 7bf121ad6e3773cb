//! Reading the shared case files copied under tests/cases (the same files every language reads).
#![allow(dead_code)] // each test crate uses some of these

use serde_json::Value;
use std::path::PathBuf;

pub fn case_path(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases").join(path)
}

pub fn read_text(path: &str) -> String {
    std::fs::read_to_string(case_path(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn read_json(path: &str) -> Value {
    serde_json::from_str(&read_text(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn cases(file: &Value) -> &Vec<Value> {
    file["cases"].as_array().expect("a cases array")
}

pub fn text<'a>(case: &'a Value, member: &str) -> &'a str {
    case[member].as_str().unwrap_or_else(|| panic!("{member} is not a string in {case}"))
}

pub fn hex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex")).collect()
}
