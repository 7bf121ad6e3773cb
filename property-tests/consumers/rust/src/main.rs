//! Uses the generated crate as an application would: parses an ActionProposal from bytes, signs and
//! verifies an AgentTriggerRequest (the signature must equal the shared vector's, which the
//! TypeScript, Kotlin and Swift suites check too), admits it through a SQLite replay store (run
//! twice on one file: the second run must see the replay), steps the trust lifecycle and computes
//! a connector package id (compared with the reference implementation's).
//! Usage: consumer <sqlite file> <first|second> <content-ids.json>

use agent_contracts::agent_connector::lifecycles::trust::{Event, State, TrustLifecycle};
use agent_contracts::agent_connector::ConnectorPackage;
use agent_contracts::agent_provider::{ActionProposal, AgentTriggerRequest};
use agent_contracts::runtime::content_address::compute_content_id;
use agent_contracts::runtime::hmac_v1::{sign_hmac_v1, verify_hmac_v1};
use agent_contracts::runtime::lifecycle::LifecycleMachine;
use agent_contracts::runtime::message::parse_validated;
use agent_contracts::runtime::replay::{parse_rfc3339, ReplayGuard};
use agent_contracts::runtime::replay_sqlite::SqliteReplayStore;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::process::ExitCode;

const PROPOSAL: &str = r#"{"request_id":"request-1","provider_id":"wallet.provider","agent_id":"wallet.agent","action_id":"wallet.payment.pay","tool_name":"app_action_wallet_payment_pay","arguments":{"amount":12.5,"merchant":"Coffee"},"user_intent_summary":"","created_at":"2026-05-27T00:00:00Z","expires_at":"2026-05-27T00:10:00Z","nonce":"nonce-1","idempotency_key":"request-1","callback":{},"risk":"high","confirmation_policy":"provider_required","host_instance_id":"host-instance-1","signature_algorithm":"hmac-sha256-v1","signature":"uG1nSuil6jvSzA/SZBDOOn6V7eWSRkTxPc8d6IY3aZQ"}"#;

/// spec/agent-provider/vectors/hmac-sha256-v1.json, case rust_core_trigger_accept.
const TRIGGER_SIGNATURE: &str = "KqPQpyh3e9dmU6RU0AGatzauPugHyQpal2PAP47lNbU";

fn run(args: &[String]) -> Result<(), String> {
    let [_, database, run, content_ids] = args else {
        return Err("usage: consumer <sqlite file> <first|second> <content-ids.json>".into());
    };
    // 1. Parse an ActionProposal from untrusted bytes (strict JSON, its schema, then the typed view).
    let proposal: ActionProposal = parse_validated(PROPOSAL.as_bytes()).map_err(|e| format!("proposal: {e}"))?;
    println!("parsed ActionProposal {} ({})", proposal.request_id, proposal.tool_name);
    if parse_validated::<ActionProposal>(br#"{"request_id":"a","request_id":"b"}"#).is_ok() {
        return Err("a duplicate member was accepted".into());
    }
    let mut no_tool: serde_json::Map<String, Value> = serde_json::from_str(PROPOSAL).unwrap();
    no_tool.remove("tool_name");
    if parse_validated::<ActionProposal>(Value::Object(no_tool).to_string().as_bytes()).is_ok() {
        return Err("a proposal without tool_name passed its schema".into());
    }

    // 2. Sign and verify an AgentTriggerRequest.
    let declaration = AgentTriggerRequest::signature_declaration();
    let trigger = json!({"protocol_version": 2, "request_id": "trigger-1", "provider_id": "provider", "agent_id": "provider.agent", "message": "Desk button pressed.", "source": "virtual_sensor", "event_type": "button_pressed", "payload": {"button": "desk"}, "created_at": "2026-05-27T00:00:00Z", "expires_at": "2030-01-01T00:00:00Z", "nonce": "nonce-trigger", "idempotency_key": "trigger-1", "host_instance_id": "host-instance-1"});
    let (signed, signature) = sign_hmac_v1(&declaration, trigger.as_object().unwrap(), b"secret-1").map_err(|e| e.to_string())?;
    if signature != TRIGGER_SIGNATURE {
        return Err(format!("signature {signature} differs from the shared vector's {TRIGGER_SIGNATURE}"));
    }
    verify_hmac_v1(&declaration, &Value::Object(signed.clone()), b"secret-1").map_err(|e| e.to_string())?;
    println!("signed AgentTriggerRequest: {signature} (equals the shared vector)");

    // 3. Admit it once, across restarts: the guard's clock is the message's creation time.
    let now = parse_rfc3339("2026-05-27T00:00:00Z").unwrap();
    let mut message = signed;
    message.insert("expires_at".into(), json!("2026-05-27T00:10:00Z"));
    let store = SqliteReplayStore::open(database).map_err(|e| e.0)?;
    let mut guard = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), store, move || now);
    match (run.as_str(), guard.admit(&message)) {
        ("first", Ok(())) => println!("replay guard: admitted (first run)"),
        ("second", Err(rejection)) if rejection.code.as_str() == "replayed" => println!("replay guard: rejected as replayed after a restart"),
        (run, outcome) => return Err(format!("replay guard on the {run} run: unexpected {outcome:?}")),
    }

    // 4. Step the trust lifecycle.
    let approved = TrustLifecycle::transition(State::Imported, Event::Approve, &HashMap::new()).map_err(|r| format!("{r:?}"))?;
    let installed = TrustLifecycle::transition(approved.to, Event::Install, &HashMap::new()).map_err(|r| format!("{r:?}"))?;
    let refused = TrustLifecycle::transition(installed.to, Event::Approve, &HashMap::new());
    println!("trust: imported -> {:?} -> {:?}; approve again: {}", approved.to, installed.to, refused.map_or_else(|r| r.reason.as_str(), |_| "fired"));
    if installed.to != State::Installed {
        return Err("the trust lifecycle did not reach installed".into());
    }

    // 5. A connector package id, compared with the reference implementation's.
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(content_ids).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let case = vectors["cases"].as_array().unwrap().iter().find(|c| c["message_type"] == "ConnectorPackage").ok_or("no package case")?;
    let id = compute_content_id(&ConnectorPackage::content_address_declaration(), case["record"].as_object().unwrap());
    if id != case["expected_id"] {
        return Err(format!("package id {id} differs from {}", case["expected_id"]));
    }
    println!("package id: {id}");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("consumer: {why}");
            ExitCode::FAILURE
        }
    }
}
