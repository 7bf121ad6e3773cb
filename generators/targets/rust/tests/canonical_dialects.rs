//! The dialect writers the signature doctor rebuilds signing inputs with. Expectations: the
//! serde-json dialect against the serde_json crate itself (the Rust host's real writer, 1.0.154 as
//! pinned by Cargo.lock, which writes `1e+21`); the Java writers against what Java prints
//! (Double.toString, JDK 19+, and BigDecimal.toString, as the Kotlin and Swift tests record them).

use agent_contracts::runtime::canonical_dialects::{format_number_token, java_big_decimal_to_string, java_double_to_string, parse_lexical, render_dialect, CanonicalizationDialect, LexValue};
use agent_contracts::runtime::signature_doctor::{explain_hmac_v1, format_signature_explanation};
use agent_contracts::agent_provider::AgentTriggerRequest;

fn dialect(numbers: &str, exponent_plus: bool) -> CanonicalizationDialect {
    CanonicalizationDialect {
        divergence: "d".into(),
        name: "n".into(),
        numbers: numbers.into(),
        exponent_plus,
        integer_tokens: vec!["exact".into()],
        key_order: "code-point".into(),
        escape_slash: "none".into(),
        escape_ranges: Vec::new(),
        duplicate_keys: "last-wins".into(),
        absent_hashed_field: "refuse".into(),
    }
}

#[test]
fn serde_json_dialect_writes_what_serde_json_writes() {
    let serde = dialect("serde-json", true);
    let tokens = ["12.0", "-0.0", "0.1", "1e21", "1e-7", "123456789012345678", "1.5e300", "0.00001", "0.0001", "1e16", "1e15", "-2.5e-5", "5e-324", "1.7976931348623157e308", "9007199254740993.0", "18446744073709551615", "-9223372036854775808", "18446744073709551616"];
    for token in tokens {
        let value: serde_json::Value = serde_json::from_str(token).unwrap();
        assert_eq!(format_number_token(token, &serde, "exact").as_deref(), Some(serde_json::to_string(&value).unwrap().as_str()), "{token}");
    }
    // "-0" is read by serde_json as the float -0.0.
    assert_eq!(format_number_token("-0", &serde, "exact").as_deref(), Some("-0.0"));
    // A token past the double range has no text any writer produces.
    assert_eq!(format_number_token("1e400", &serde, "exact"), None);
    assert_eq!(format_number_token("1e21", &dialect("serde-json", false), "exact").as_deref(), Some("1e21"));
}

#[test]
fn java_number_writers() {
    let doubles: Vec<String> = [12.0, -0.0, 1e-6, 1e21, 0.001, 1e7].into_iter().map(java_double_to_string).collect();
    assert_eq!(doubles, ["12.0", "-0.0", "1.0E-6", "1.0E21", "0.001", "1.0E7"]);
    let decimals: Vec<String> = ["0.000001", "1e21", "12.0", "1e-7", "1.5e3"].into_iter().map(java_big_decimal_to_string).collect();
    assert_eq!(decimals, ["0.000001", "1E+21", "12.0", "1E-7", "1.5E+3"]);
    let bigdecimal = dialect("java-bigdecimal", false);
    assert_eq!(format_number_token("-0", &bigdecimal, "exact").as_deref(), Some("-0.0"));
    assert_eq!(format_number_token("12", &bigdecimal, "double").as_deref(), Some("12.0"));
    assert_eq!(format_number_token("-0.0e5", &bigdecimal, "exact").as_deref(), Some("-0.0"));
    // Long's range: 2^63 is written as a double by Double-based org.json.
    assert_eq!(format_number_token("9223372036854775808", &dialect("java-double", false), "exact").as_deref(), Some("9.223372036854776E18"));
}

#[test]
fn lexical_parse_keeps_lexemes_and_duplicates_and_refuses_what_is_not_json() {
    assert_eq!(parse_lexical(r#"{"a":1.50,"a":"\u00e9\ud83d\ude00"}"#), Some(LexValue::Obj(vec![("a".into(), LexValue::Num("1.50".into())), ("a".into(), LexValue::Str("é😀".into()))])));
    // A lone surrogate becomes U+FFFD, the bytes a UTF-8 encoder hashes for it.
    assert_eq!(parse_lexical(r#""\ud800""#), Some(LexValue::Str("\u{fffd}".into())));
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    for bad in ["", "{", "[1,]", r#""\x""#, "01", r#"{"a" 1}"#, r#""\u+041""#, "1.", "-", "tru", deep.as_str()] {
        assert_eq!(parse_lexical(bad), None, "{bad}");
    }
}

#[test]
fn key_order_slash_escapes_and_duplicates_follow_the_dialect() {
    let value = parse_lexical(r#"{"\ud83d\ude00":1,"\uffff":2,"a":"</b>","a":"x/\u0085"}"#).unwrap();
    let mut android = dialect("java-double", false);
    android.key_order = "utf16".into();
    android.escape_slash = "all".into();
    // UTF-16 order puts the surrogate pair (D83D) before U+FFFF; code-point order after it.
    assert_eq!(render_dialect(&value, &android, "exact").as_deref(), Some("{\"a\":\"x\\/\u{85}\",\"😀\":1,\"\u{ffff}\":2}"));
    let mut org_json = android.clone();
    org_json.escape_slash = "after-lt".into();
    org_json.escape_ranges = vec![(0x80, 0x9f)];
    org_json.duplicate_keys = "reject".into();
    assert_eq!(render_dialect(&value, &org_json, "exact"), None);
    let single = parse_lexical(r#"{"a":"</b>/\u0085"}"#).unwrap();
    assert_eq!(render_dialect(&single, &org_json, "exact").as_deref(), Some(r#"{"a":"<\/b>/\u0085"}"#));
    let serde = dialect("serde-json", true);
    assert_eq!(render_dialect(&value, &serde, "exact").as_deref(), Some("{\"a\":\"x/\u{85}\",\"\u{ffff}\":2,\"😀\":1}"));
}

#[test]
fn the_report_names_the_field_and_the_byte_where_the_bytes_part() {
    // The serde_json host signs {"amount":12.0}: RFC 8785 writes 12, the host hashed 12.0.
    let text = r#"{"protocol_version":2,"request_id":"edge-trigger-0","provider_id":"provider.app","agent_id":"agent.edge-0","message":"Desk button pressed.","source":"s","event_type":"e","payload":{"amount":12.0},"created_at":"2026-05-27T00:00:00Z","expires_at":"2030-01-01T00:00:00Z","nonce":"n-1","idempotency_key":"edge-trigger-0","host_instance_id":"host-instance-1","signature_algorithm":"hmac-sha256-v1","signature":"6nwfnjIejcgwSNrz9zihg7rWopQOIrdUdeY9fuXi1mg"}"#;
    let explanation = AgentTriggerRequest::explain_signature(text, b"secret-1");
    let first = &explanation.diagnoses[0];
    assert_eq!((first.field.as_deref(), first.offset, first.rfc8785.as_deref(), first.text.as_deref()), (Some("payload"), Some(12), Some(r#"{"amount":12}"#), Some(r#"{"amount":12.0}"#)));
    let lines = format_signature_explanation(&explanation);
    assert_eq!(lines[..6], ["not verified under RFC 8785: signature-mismatch: signature does not match", "diagnosis: canonical-json-dialect-serde-json", "  the signature verifies under Rust host, serde_json 1.0.154 (a diagnosis, not acceptance)", "  payload first differs at byte 12:", "    RFC 8785: {\"amount\":12}", "    dialect:  {\"amount\":12.0}"]);
    assert_eq!(lines[6], format!("              {}^", " ".repeat(12)));
    // Without a key, or with the wrong one, nothing is diagnosed; the refusal stays.
    let wrong = explain_hmac_v1(&AgentTriggerRequest::signature_declaration(), agent_contracts::agent_provider::doctor::canonicalization_dialects(), text, b"secret-2");
    assert_eq!((wrong.reason.map(|r| r.code), wrong.diagnoses.len()), (Some("signature-mismatch".to_string()), 0));
    assert!(AgentTriggerRequest::explain_signature(text, b"").diagnoses.is_empty());
    assert_eq!(AgentTriggerRequest::explain_signature("{\"a\":", b"k").reason.map(|r| r.code).as_deref(), Some("unexpected-end"));
}
