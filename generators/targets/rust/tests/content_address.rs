//! Content ids (spec/agent-connector/vectors/content-ids.json, records from the reference
//! implementation) and audit chains (audit-chain.json).

mod support;

use agent_contracts::agent_connector::{ConnectorManifest, ConnectorPackage};
use agent_contracts::runtime::audit_chain::{append_audit_entry, verify_audit_chain, verify_audit_log, AuditChainDeclaration, AuditHead};
use agent_contracts::runtime::content_address::{compute_content_id, verify_content_id, ContentAddressDeclaration};
use serde_json::{json, Value};

fn declaration(message_type: &str) -> ContentAddressDeclaration {
    match message_type {
        "ConnectorManifest" => ConnectorManifest::content_address_declaration(),
        "ConnectorPackage" => ConnectorPackage::content_address_declaration(),
        other => panic!("no declaration for {other}"),
    }
}

#[test]
fn content_ids_match_the_reference_implementation() {
    let file = support::read_json("agent-connector/content-ids.json");
    for (name, stated) in file["declarations"].as_object().expect("declarations") {
        let stated: ContentAddressDeclaration = serde_json::from_value(stated.clone()).expect("a declaration");
        assert_eq!(declaration(name), stated, "{name}");
    }
    let cases = support::cases(&file);
    assert!(cases.len() >= 9);
    for case in cases {
        let declaration = declaration(support::text(case, "message_type"));
        let record = case["record"].as_object().expect("a record");
        assert_eq!(compute_content_id(&declaration, record), support::text(case, "expected_id"), "{}", case["name"]);
        let mut stated = record.clone();
        stated.insert(declaration.id_field.clone(), Value::String(support::text(case, "expected_id").to_string()));
        assert!(verify_content_id(&declaration, &stated), "{}", case["name"]);
        stated.insert("extra".into(), json!(1));
        assert!(!verify_content_id(&declaration, &stated), "{}", case["name"]);
    }
}

#[test]
fn audit_chains_give_their_verdicts() {
    let file = support::read_json("agent-connector/audit-chain.json");
    let stated: AuditChainDeclaration = serde_json::from_value(file["declaration"].clone()).expect("a declaration");
    assert_eq!(stated, AuditChainDeclaration::connector());
    let cases = support::cases(&file);
    assert!(cases.len() >= 10);
    for case in cases {
        let entries = case["entries"].as_array().expect("entries");
        let head: Option<AuditHead> = serde_json::from_value(case["head"].clone()).expect("a head or null");
        let verdict = match verify_audit_chain(&stated, entries, Some(head.as_ref())) {
            Ok(_) => "valid",
            Err(error) => error.code.as_str(),
        };
        assert_eq!(verdict, support::text(case, "expect"), "{}", case["name"]);
    }
}

/// audit-log.json: Meldwork-written logs and one-change variants, checked with the trust lifecycle;
/// `head` absent means none is kept, null that the log must be empty.
#[test]
fn audit_logs_replay_through_the_trust_lifecycle() {
    let file = support::read_json("agent-connector/audit-log.json");
    let declaration: AuditChainDeclaration = serde_json::from_value(file["declaration"].clone()).expect("a declaration");
    assert!(declaration.lifecycle.is_some());
    let cases = support::cases(&file);
    assert!(cases.len() >= 15);
    for case in cases {
        let head: Option<Option<AuditHead>> = case.get("head").map(|h| serde_json::from_value(h.clone()).expect("a head or null"));
        let verdict = match verify_audit_log(&declaration, support::text(case, "text"), head.as_ref().map(Option::as_ref)) {
            Ok(_) => "valid",
            Err(error) => error.code.as_str(),
        };
        assert_eq!(verdict, support::text(case, "expect"), "{}", case["name"]);
    }
}

#[test]
fn appended_entries_verify_and_a_dropped_tail_is_caught() {
    let declaration = AuditChainDeclaration::connector();
    let (first, head1) = append_audit_entry(&declaration, None, json!({"action": "imported"}).as_object().unwrap());
    let (second, head2) = append_audit_entry(&declaration, Some(&head1), json!({"action": "approved"}).as_object().unwrap());
    let entries = vec![Value::Object(first), Value::Object(second)];
    assert_eq!(verify_audit_chain(&declaration, &entries, Some(Some(&head2))).unwrap(), Some(head2.clone()));
    assert_eq!(verify_audit_chain(&declaration, &entries[..1], Some(Some(&head2))).unwrap_err().code.as_str(), "head-mismatch");
}
