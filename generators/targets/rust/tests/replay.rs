//! The replay guard over the in-memory and SQLite stores, with the agent-provider declaration of
//! AgentTriggerRequest (request_id, scoped by provider_id and host_instance_id, 60 s skew,
//! 1 day lifetime); expectations from the x-replay rules in spec/agent-provider and the
//! TypeScript guard's codes. The RFC 3339 reader's verdicts on the fuzz corpus are shared cases
//! (property-tests/drivers: `fuzz-rfc3339`).

use agent_contracts::agent_provider::AgentTriggerRequest;
use agent_contracts::runtime::replay::{parse_rfc3339, MemoryReplayStore, ReplayGuard, ReplayStore};
use serde_json::{json, Map, Value};

const NOW: i64 = 1_780_000_000_000; // 2026-05-28T20:26:40Z

fn trigger(request_id: &str, created_at: &str, expires_at: &str) -> Map<String, Value> {
    json!({"request_id": request_id, "provider_id": "p", "host_instance_id": "h", "created_at": created_at, "expires_at": expires_at}).as_object().unwrap().clone()
}

fn verdict<S: ReplayStore>(guard: &mut ReplayGuard<S>, message: &Map<String, Value>) -> &'static str {
    match guard.admit(message) {
        Ok(()) => "admitted",
        Err(rejection) => rejection.code.as_str(),
    }
}

#[test]
fn rfc3339_is_strict() {
    assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(parse_rfc3339("2026-05-28T20:26:40Z"), Some(NOW));
    assert_eq!(parse_rfc3339("2026-05-28T22:26:40.5+02:00"), Some(NOW + 500));
    assert_eq!(parse_rfc3339("2024-02-29T00:00:00z"), Some(1_709_164_800_000));
    for bad in ["2023-02-29T00:00:00Z", "2026-05-28 20:26:40Z", "2026-05-28T20:26:60Z", "2026-05-28T20:26:40", "2026-13-01T00:00:00Z", "2026-05-28T20:26:40.Z"] {
        assert_eq!(parse_rfc3339(bad), None, "{bad}");
    }
}

#[test]
fn memory_store_admits_once_and_checks_time() {
    let mut guard = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), MemoryReplayStore::default(), || NOW);
    let fresh = trigger("r1", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z");
    assert_eq!(verdict(&mut guard, &fresh), "admitted");
    assert_eq!(verdict(&mut guard, &fresh), "replayed");
    let mut other_scope = fresh.clone();
    other_scope.insert("host_instance_id".into(), json!("h2"));
    assert_eq!(verdict(&mut guard, &other_scope), "admitted");
    assert_eq!(verdict(&mut guard, &trigger("r2", "2026-05-28T20:00:00Z", "2026-05-28T20:26:40Z")), "expired");
    assert_eq!(verdict(&mut guard, &trigger("r3", "2026-05-28T20:27:41Z", "2026-05-28T20:36:40Z")), "not-yet-valid");
    assert_eq!(verdict(&mut guard, &trigger("r4", "2026-05-28T20:27:40Z", "2026-05-28T20:36:40Z")), "admitted");
    assert_eq!(verdict(&mut guard, &trigger("r5", "2026-05-28T20:26:00Z", "2026-05-29T20:27:41Z")), "lifetime-exceeded");
    assert_eq!(verdict(&mut guard, &trigger("r6", "2026-05-28T20:26:00Z", "tomorrow")), "invalid-timestamp");
    assert_eq!(verdict(&mut guard, &trigger("", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z")), "field-missing");
    assert_eq!(guard.store().size().unwrap(), 3);
}

#[test]
fn memory_store_refuses_when_full_of_live_records() {
    let mut guard = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), MemoryReplayStore::new(2, Some(2)), || NOW);
    assert_eq!(verdict(&mut guard, &trigger("a", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z")), "admitted");
    assert_eq!(verdict(&mut guard, &trigger("b", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z")), "admitted");
    assert_eq!(verdict(&mut guard, &trigger("c", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z")), "capacity-exceeded");
}

#[cfg(feature = "sqlite")]
#[test]
fn sqlite_store_rejects_a_replay_across_a_restart() {
    use agent_contracts::runtime::replay_sqlite::SqliteReplayStore;
    let dir = std::env::temp_dir().join(format!("replay-sqlite-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("replay.sqlite");
    let path = path.to_str().unwrap();
    let message = trigger("r1", "2026-05-28T20:26:00Z", "2026-05-28T20:36:40Z");
    {
        let mut guard = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), SqliteReplayStore::open(path).unwrap(), || NOW);
        assert_eq!(verdict(&mut guard, &message), "admitted");
    }
    let mut guard = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), SqliteReplayStore::open(path).unwrap(), || NOW);
    assert_eq!(verdict(&mut guard, &message), "replayed");
    assert_eq!(guard.store().size().unwrap(), 1);
    // After expiry plus skew the record is dropped and its slot reused.
    let mut later = ReplayGuard::with_clock(AgentTriggerRequest::replay_declaration(), SqliteReplayStore::open(path).unwrap(), || NOW + 700_000);
    assert_eq!(verdict(&mut later, &message), "expired");
    std::fs::remove_dir_all(&dir).unwrap();
}
