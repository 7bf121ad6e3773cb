//! hmac-sha256-v1 against spec/agent-provider/vectors/hmac-sha256-v1.json: the verdict of every case,
//! the signing input and signature where the vector states them (from the real SDKs and Python's
//! hmac), and the generated declarations equal to the vector file's.

mod support;

use agent_contracts::agent_provider::{ActionProposal, AgentTriggerRequest};
use agent_contracts::runtime::crypto::HmacSha256Key;
use agent_contracts::runtime::hmac_v1::{hmac_v1_signing_input, sign_hmac_v1, verify_hmac_v1, HmacV1Declaration, HmacV1Error};
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

type GeneratedVerify = fn(&Value, &HmacSha256Key) -> Result<(), HmacV1Error>;
type GeneratedInput = fn(&serde_json::Map<String, Value>) -> Result<String, HmacV1Error>;

fn generated(message_type: &str) -> (GeneratedVerify, GeneratedInput) {
    match message_type {
        "ActionProposal" => (ActionProposal::verify_signature, ActionProposal::signing_input),
        "AgentTriggerRequest" => (AgentTriggerRequest::verify_signature, AgentTriggerRequest::signing_input),
        other => panic!("no generated signing for {other}"),
    }
}

/// The generated verifier with a prepared key gives every case the vector's verdict, with the
/// interpreter's error text, and its signing input is the vector's where the vector states one.
#[test]
fn generated_verifiers_give_every_case_its_verdict() {
    let file = support::read_json("agent-provider/hmac-sha256-v1.json");
    for case in support::cases(&file) {
        let name = &case["name"];
        let message_type = support::text(case, "message_type");
        let (verify, signing_input) = generated(message_type);
        let key = support::text(case, "key_utf8").as_bytes();
        let result = verify(&case["message"], &HmacSha256Key::new(key));
        let verdict = result.as_ref().map_or_else(|error| error.code.as_str(), |()| "valid");
        assert_eq!(verdict, support::text(case, "expect"), "{name}");
        assert_eq!(result, verify_hmac_v1(&declaration(message_type), &case["message"], key), "{name}");
        if let (Some(Value::String(expected)), Some(message)) = (case.get("expected_signing_input"), case["message"].as_object()) {
            assert_eq!(&signing_input(message).expect("input"), expected, "{name}");
        }
    }
}

/// Each covered field removed, or replaced by a number: the generated signing input fails as the
/// interpreter does (the first bad line in declaration order, same code and text), or both agree
/// on the input (a line with a default, a hashed line that takes any JSON).
#[test]
fn generated_signing_inputs_fail_as_the_interpreter_does() {
    let file = support::read_json("agent-provider/hmac-sha256-v1.json");
    let mut compared = 0;
    for case in support::cases(&file) {
        let message_type = support::text(case, "message_type");
        let declaration = declaration(message_type);
        let (_, signing_input) = generated(message_type);
        let Some(message) = case["message"].as_object() else { continue };
        let mut variants = vec![message.clone()];
        for line in &declaration.lines {
            let mut without = message.clone();
            without.shift_remove(&line.field);
            let mut number = message.clone();
            number.insert(line.field.clone(), Value::from(7));
            variants.extend([without, number]);
        }
        for variant in variants {
            assert_eq!(signing_input(&variant), hmac_v1_signing_input(&declaration, &variant), "{}", case["name"]);
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared} variants compared");
}

/// RFC 4231's HMAC-SHA256 test cases 1, 2 and 6 (a key longer than the block): the prepared key
/// gives the RFC's MAC on every use, and refuses the MAC with one bit changed.
#[test]
fn prepared_keys_give_rfc_4231_macs() {
    let cases: [(&[u8], &[u8], &str); 3] = [
        (&[0x0b; 20], b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ];
    for (key, message, expected) in cases {
        let prepared = HmacSha256Key::new(key);
        for _ in 0..2 {
            let mac = prepared.mac(message);
            assert_eq!(mac.iter().map(|b| format!("{b:02x}")).collect::<String>(), expected);
            assert!(prepared.matches(message, &mac));
            let mut flipped = mac;
            flipped[31] ^= 1;
            assert!(!prepared.matches(message, &flipped));
        }
    }
    assert!(HmacSha256Key::new(b"").is_empty() && !HmacSha256Key::new(b"k").is_empty());
}
