//! RFC 8785 against spec/common/vectors/jcs.json (expected values from canonicalize@2.1.0), the
//! RFC's own input/output pairs and its ES6 number lines (property-tests/vectors/jcs).

mod support;

use agent_contracts::runtime::canonical_json::{canonicalize_bytes, format_number};
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
