//! The strict parser's limits and error offsets. Its verdicts on spec/common/vectors/strict-json.json
//! and the fuzz corpus are shared cases (property-tests/drivers: the `strict-json` and `fuzz-parse`
//! kinds), answered by examples/shared_case_driver.

use agent_contracts::runtime::strict_json::{parse_strict_json, parse_strict_with, StrictJsonErrorCode, StrictJsonLimits};

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
