//! The strict parser against spec/common/vectors/strict-json.json and the fuzz corpus with
//! TypeScript's verdicts (property-tests/fuzz/corpus/strict-json.json).

mod support;

use agent_contracts::runtime::strict_json::{parse_strict_json, parse_strict_with, StrictJsonErrorCode, StrictJsonLimits};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

fn verdict(bytes: &[u8]) -> &'static str {
    match parse_strict_json(bytes) {
        Ok(_) => "ok",
        Err(error) => error.code.as_str(),
    }
}

#[test]
fn spec_vectors() {
    let file = support::read_json("common/strict-json.json");
    assert_eq!(file["limits"]["maxBytes"].as_u64(), Some(StrictJsonLimits::DEFAULT_MAX_BYTES as u64));
    assert_eq!(file["limits"]["maxDepth"].as_u64(), Some(StrictJsonLimits::DEFAULT_MAX_DEPTH as u64));
    let cases = support::cases(&file);
    assert!(cases.len() >= 40);
    for case in cases {
        let expected = match support::text(case, "expect") {
            "valid" => "ok",
            code => code,
        };
        assert_eq!(verdict(&support::hex(support::text(case, "input_hex"))), expected, "{}", case["name"]);
    }
}

#[test]
fn fuzz_corpus_gives_the_typescript_verdicts() {
    let file = support::read_json("fuzz/strict-json.json");
    let cases = support::cases(&file);
    assert!(cases.len() >= 100);
    for case in cases {
        let bytes = STANDARD.decode(support::text(case, "b64")).expect("base64");
        assert_eq!(verdict(&bytes), support::text(case, "expect"), "{}", case["name"]);
    }
}

#[test]
fn limits_are_enforced_before_parsing() {
    let limits = StrictJsonLimits { max_bytes: 4, max_depth: 2 };
    assert_eq!(parse_strict_with(b"[1,2,3]", limits).unwrap_err().code, StrictJsonErrorCode::TooLarge);
    assert_eq!(parse_strict_with(b"[[1]]", StrictJsonLimits { max_bytes: 100, max_depth: 1 }).unwrap_err().code, StrictJsonErrorCode::TooDeep);
    assert!(parse_strict_with(b"[[1]]", StrictJsonLimits { max_bytes: 100, max_depth: 2 }).is_ok());
}

#[test]
fn errors_carry_the_offset() {
    let error = parse_strict_json(b"{\"a\":1,\"a\":2}").unwrap_err();
    assert_eq!((error.code, error.offset), (StrictJsonErrorCode::DuplicateKey, 7));
}
