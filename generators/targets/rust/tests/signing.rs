//! hmac-sha256-v1 against spec/agent-provider/vectors/hmac-sha256-v1.json: the verdict of every case,
//! the signing input and signature where the vector states them (from the real SDKs and Python's
//! hmac), and the generated declarations equal to the vector file's.

mod support;

use agent_contracts::agent_provider::{ActionProposal, AgentTriggerRequest};
use agent_contracts::runtime::hmac_v1::{hmac_v1_signing_input, sign_hmac_v1, verify_hmac_v1, HmacV1Declaration};
use serde_json::Value;

fn declaration(message_type: &str) -> HmacV1Declaration {
    match message_type {
        "ActionProposal" => ActionProposal::signature_declaration(),
        "AgentTriggerRequest" => AgentTriggerRequest::signature_declaration(),
        other => panic!("no declaration for {other}"),
    }
}

#[test]
fn generated_declarations_equal_the_vector_files() {
    let file = support::read_json("agent-provider/hmac-sha256-v1.json");
    for (name, stated) in file["declarations"].as_object().expect("declarations") {
        let stated: HmacV1Declaration = serde_json::from_value(stated.clone()).expect("a declaration");
        assert_eq!(declaration(name), stated, "{name}");
    }
}

#[test]
fn every_case_gives_its_verdict() {
    let file = support::read_json("agent-provider/hmac-sha256-v1.json");
    let cases = support::cases(&file);
    assert!(cases.len() >= 30);
    for case in cases {
        let name = &case["name"];
        let declaration = declaration(support::text(case, "message_type"));
        let key = support::text(case, "key_utf8").as_bytes();
        let verdict = match verify_hmac_v1(&declaration, &case["message"], key) {
            Ok(()) => "valid",
            Err(error) => error.code.as_str(),
        };
        assert_eq!(verdict, support::text(case, "expect"), "{name}");
        let message = case["message"].as_object().expect("an object");
        if let Some(Value::String(expected)) = case.get("expected_signing_input") {
            assert_eq!(&hmac_v1_signing_input(&declaration, message).expect("input"), expected, "{name}");
        }
        if let (Some(Value::String(expected)), "valid") = (case.get("expected_signature"), verdict) {
            let mut unsigned = message.clone();
            unsigned.shift_remove(&declaration.signature_field);
            let (signed, signature) = sign_hmac_v1(&declaration, &unsigned, key).expect("signs");
            assert_eq!(&signature, expected, "{name}");
            assert!(verify_hmac_v1(&declaration, &Value::Object(signed), key).is_ok(), "{name}");
        }
    }
}

#[test]
fn empty_key_and_non_object_are_refused() {
    let declaration = ActionProposal::signature_declaration();
    assert_eq!(verify_hmac_v1(&declaration, &Value::Null, b"k").unwrap_err().code.as_str(), "not-an-object");
    assert_eq!(sign_hmac_v1(&declaration, &serde_json::Map::new(), b"").unwrap_err().code.as_str(), "key-missing");
}
