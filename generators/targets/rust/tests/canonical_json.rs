//! RFC 8785 against spec/common/vectors/jcs.json (expected values from canonicalize@2.1.0), the
//! RFC's own input/output pairs and its ES6 number lines (property-tests/vectors/jcs).

mod support;

use agent_contracts::runtime::canonical_json::{canonicalize, canonicalize_bytes, format_number};
use agent_contracts::runtime::crypto::sha256_hex;

#[test]
fn spec_vectors() {
    let file = support::read_json("common/jcs.json");
    let cases = support::cases(&file);
    assert!(cases.len() >= 10);
    for case in cases {
        let canonical = canonicalize_bytes(support::text(case, "input").as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", case["name"]));
        assert_eq!(canonical, support::text(case, "canonical"), "{}", case["name"]);
        assert_eq!(sha256_hex(canonical.as_bytes()), support::text(case, "sha256_hex"), "{}", case["name"]);
    }
}

#[test]
fn rfc_8785_reference_pairs() {
    let mut checked = 0;
    for entry in std::fs::read_dir(support::case_path("jcs/input")).expect("jcs/input") {
        let name = entry.expect("entry").file_name().into_string().expect("utf-8 name");
        let input = support::read_text(&format!("jcs/input/{name}"));
        let expected = support::read_text(&format!("jcs/output/{name}"));
        assert_eq!(canonicalize_bytes(input.as_bytes()).expect("strict JSON"), expected.trim_end_matches('\n'), "{name}");
        checked += 1;
    }
    assert!(checked >= 6);
}

/// Each line: the double's IEEE 754 bits in hex, then ECMAScript's text of it.
fn check_es6_lines(text: &str) -> usize {
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (bits, expected) = line.split_once(',').expect("hex,text");
        let value = f64::from_bits(u64::from_str_radix(bits, 16).expect("hex bits"));
        assert_eq!(format_number(value), expected, "{bits}");
        checked += 1;
    }
    checked
}

#[test]
fn es6_numbers_10000() {
    assert_eq!(check_es6_lines(&support::read_text("jcs/es6testfile_10000.txt")), 10_000);
}

/// The 100 000-line file is kept gzipped in the repository; `make rust` unpacks it and names it
/// here. Run alone (cargo test), it says why it checks nothing.
#[test]
fn es6_numbers_100000() {
    match std::env::var("ES6_NUMBERS_100K") {
        Ok(path) => {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(check_es6_lines(&text), 100_000);
        }
        Err(_) => println!("es6_numbers_100000 skipped: ES6_NUMBERS_100K names no file (make rust sets it)"),
    }
}

/// Member names ordered by UTF-16 code units where that differs from code point (UTF-8 byte)
/// order: a name above U+FFFF (surrogates D800-DBFF) sorts before one in U+E000..U+FFFF. The
/// expected order is ECMAScript's `Array.prototype.sort` of the same names (UTF-16 units), written
/// down by hand; each pair is also checked in both input orders and nested.
#[test]
fn names_sort_by_utf16_units_above_the_bmp() {
    let expected = "{\"a\":1,\"\u{e9}\":2,\"\u{10000}\":3,\"\u{1f600}\":4,\"\u{e000}\":5,\"\u{fb01}\":6,\"\u{ffff}\":7}";
    let forward = "{\"\u{ffff}\":7,\"\u{fb01}\":6,\"\u{e000}\":5,\"\u{1f600}\":4,\"\u{10000}\":3,\"\u{e9}\":2,\"a\":1}";
    let shuffled = "{\"\u{e000}\":5,\"\u{1f600}\":4,\"a\":1,\"\u{ffff}\":7,\"\u{10000}\":3,\"\u{fb01}\":6,\"\u{e9}\":2}";
    for input in [forward, shuffled, expected] {
        assert_eq!(canonicalize_bytes(input.as_bytes()).expect("strict JSON"), expected);
        let nested = format!("[{{\"x\":{input}}},{input}]");
        assert_eq!(canonicalize_bytes(nested.as_bytes()).expect("strict JSON"), format!("[{{\"x\":{expected}}},{expected}]"));
    }
    // A shared prefix before the differing character, and a name that is a prefix of another.
    let prefixed = "{\"k\u{fb01}\":1,\"k\u{1f600}\":2,\"k\":3}";
    assert_eq!(canonicalize_bytes(prefixed.as_bytes()).expect("strict JSON"), "{\"k\":3,\"k\u{1f600}\":2,\"k\u{fb01}\":1}");
}

/// Integers written by the exact-integer path and its edges, and control characters written with
/// their minimal escapes, as ECMAScript's JSON.stringify writes them (serde_json's parser, which
/// keeps integers past 2^53 that the strict parser refuses as inexact).
#[test]
fn integers_and_escapes_as_ecmascript_writes_them() {
    let cases = [
        ("[0,-0,1,-1,9007199254740992,-9007199254740992]", "[0,0,1,-1,9007199254740992,-9007199254740992]"),
        ("[9007199254740993,-9007199254740993,18446744073709551615]", "[9007199254740992,-9007199254740992,18446744073709552000]"),
        ("[1e21,1.5,100,1E2]", "[1e+21,1.5,100,100]"),
        ("\"a\\u0000b\\u001fc\\u0008\\t\\n\\u000c\\r\\\"\\\\\u{e9}\\u007f\"", "\"a\\u0000b\\u001fc\\b\\t\\n\\f\\r\\\"\\\\\u{e9}\u{7f}\""),
    ];
    for (input, expected) in cases {
        let value: serde_json::Value = serde_json::from_str(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(canonicalize(&value), expected, "{input}");
    }
}
