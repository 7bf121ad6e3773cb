//! Hash-chained audit logs: each entry's id is prefix + hex(SHA-256(JCS(entry without its id))),
//! each entry links the previous id, sequences count from 1, and the head (last sequence and id)
//! is stored apart from the log, which is what catches a deleted tail.

use crate::runtime::canonical_json::canonicalize;
use crate::runtime::crypto::sha256_hex;
use serde::Deserialize;
use serde_json::{Map, Value};
use crate::runtime::strict_json::parse_strict_json;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AuditChainDeclaration {
    pub id_field: String,
    pub prefix: String,
    pub previous_field: String,
    pub sequence_field: String,
    /// The previous-id value of the first entry.
    pub genesis_previous: String,
    /// When present, the entries must also replay through this lifecycle.
    #[serde(default)]
    pub lifecycle: Option<AuditLifecycle>,
}

/// The lifecycle a log records, one state per subject: each entry's action must be allowed from
/// its subject's state ("" before its first entry), its details must have exactly the action's
/// members, and entries have exactly `fields`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AuditLifecycle {
    pub subject_field: String,
    pub action_field: String,
    pub details_field: String,
    pub fields: Vec<String>,
    pub transitions: BTreeMap<String, AuditTransition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditTransition {
    pub from: Vec<String>,
    pub to: String,
    pub details: Vec<String>,
}

impl AuditChainDeclaration {
    /// The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence.
    pub fn connector() -> Self {
        Self {
            id_field: "eventId".into(),
            prefix: "connector-audit-".into(),
            previous_field: "previousEventId".into(),
            sequence_field: "sequence".into(),
            genesis_previous: String::new(),
            lifecycle: None,
        }
    }
}

/// Where the chain must end; kept outside the log.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditHead {
    pub sequence: u64,
    pub event_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditChainErrorCode {
    LogEmpty,
    LineUnterminated,
    EntryInvalid,
    TransitionInvalid,
    DetailsInvalid,
    SequenceMismatch,
    PreviousMismatch,
    EventIdMismatch,
    HeadMismatch,
}

impl AuditChainErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LogEmpty => "log-empty",
            Self::LineUnterminated => "line-unterminated",
            Self::EntryInvalid => "entry-invalid",
            Self::TransitionInvalid => "transition-invalid",
            Self::DetailsInvalid => "details-invalid",
            Self::SequenceMismatch => "sequence-mismatch",
            Self::PreviousMismatch => "previous-mismatch",
            Self::EventIdMismatch => "event-id-mismatch",
            Self::HeadMismatch => "head-mismatch",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditChainError {
    pub code: AuditChainErrorCode,
    /// 0-based index of the entry at fault; the entry count for a head mismatch past the end.
    pub index: usize,
    pub message: String,
}

impl fmt::Display for AuditChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (entry {})", self.code.as_str(), self.message, self.index + 1)
    }
}

impl std::error::Error for AuditChainError {}

/// The id an entry should carry.
pub fn compute_audit_event_id(declaration: &AuditChainDeclaration, entry: &Map<String, Value>) -> String {
    let mut body = entry.clone();
    body.shift_remove(&declaration.id_field);
    format!("{}{}", declaration.prefix, sha256_hex(canonicalize(&Value::Object(body)).as_bytes()))
}

/// The next entry: `body` plus sequence, link and id; returns it and the new head to store.
pub fn append_audit_entry(declaration: &AuditChainDeclaration, head: Option<&AuditHead>, body: &Map<String, Value>) -> (Map<String, Value>, AuditHead) {
    let mut entry = body.clone();
    entry.shift_remove(&declaration.id_field);
    let sequence = head.map_or(1, |h| h.sequence + 1);
    entry.insert(declaration.sequence_field.clone(), Value::from(sequence));
    let previous = head.map_or_else(|| declaration.genesis_previous.clone(), |h| h.event_id.clone());
    entry.insert(declaration.previous_field.clone(), Value::String(previous));
    let event_id = compute_audit_event_id(declaration, &entry);
    entry.insert(declaration.id_field.clone(), Value::String(event_id.clone()));
    (entry, AuditHead { sequence, event_id })
}

fn chain_error<T>(code: AuditChainErrorCode, index: usize, message: &str) -> Result<T, AuditChainError> {
    Err(AuditChainError { code, index, message: message.to_string() })
}

/// Checks every link; with `expected_head` (`Some(None)`: the log must be empty) the last entry must
/// be exactly that head. Returns the head the log ends at.
pub fn verify_audit_chain(declaration: &AuditChainDeclaration, entries: &[Value], expected_head: Option<Option<&AuditHead>>) -> Result<Option<AuditHead>, AuditChainError> {
    let mut previous = declaration.genesis_previous.clone();
    let mut states: HashMap<String, String> = HashMap::new();
    for (index, entry) in entries.iter().enumerate() {
        let Value::Object(entry) = entry else {
            return chain_error(AuditChainErrorCode::EntryInvalid, index, "entry is not an object");
        };
        if entry.get(&declaration.sequence_field).and_then(Value::as_f64) != Some((index + 1) as f64) {
            return chain_error(AuditChainErrorCode::SequenceMismatch, index, "sequence is not the entry's position");
        }
        if entry.get(&declaration.previous_field).and_then(Value::as_str) != Some(previous.as_str()) {
            return chain_error(AuditChainErrorCode::PreviousMismatch, index, "link to the previous entry is broken");
        }
        let expected = compute_audit_event_id(declaration, entry);
        if entry.get(&declaration.id_field).and_then(Value::as_str) != Some(expected.as_str()) {
            return chain_error(AuditChainErrorCode::EventIdMismatch, index, "entry id does not match its content");
        }
        previous = expected;
        if let Some(lifecycle) = &declaration.lifecycle {
            if let Err((code, message)) = replay_entry(lifecycle, entry, &mut states) {
                return chain_error(code, index, &message);
            }
        }
    }
    let head = (!entries.is_empty()).then_some(AuditHead { sequence: entries.len() as u64, event_id: previous });
    if let Some(expected) = expected_head {
        if head.as_ref() != expected {
            return chain_error(AuditChainErrorCode::HeadMismatch, entries.len(), "log does not end at the stored head");
        }
    }
    Ok(head)
}

fn same_members(value: &Map<String, Value>, names: &[String]) -> bool {
    value.len() == names.len() && names.iter().all(|name| value.contains_key(name))
}

/// Applies one entry to the subjects' states, or says why the lifecycle refuses it.
fn replay_entry(lifecycle: &AuditLifecycle, entry: &Map<String, Value>, states: &mut HashMap<String, String>) -> Result<(), (AuditChainErrorCode, String)> {
    if !same_members(entry, &lifecycle.fields) {
        return Err((AuditChainErrorCode::EntryInvalid, "entry does not have exactly the log's members".into()));
    }
    let (Some(Value::String(subject)), Some(Value::String(action))) = (entry.get(&lifecycle.subject_field), entry.get(&lifecycle.action_field)) else {
        return Err((AuditChainErrorCode::EntryInvalid, "subject or action is not a string".into()));
    };
    let Some(transition) = lifecycle.transitions.get(action) else {
        return Err((AuditChainErrorCode::TransitionInvalid, format!("unknown action {action:?}")));
    };
    let state = states.get(subject).cloned().unwrap_or_default();
    if !transition.from.contains(&state) {
        let from = if state.is_empty() { "no entry" } else { state.as_str() };
        return Err((AuditChainErrorCode::TransitionInvalid, format!("{action} is not allowed from {from}")));
    }
    match entry.get(&lifecycle.details_field) {
        Some(Value::Object(details)) if same_members(details, &transition.details) => {}
        _ => return Err((AuditChainErrorCode::DetailsInvalid, format!("details of {action} must have exactly [{}]", transition.details.join(", ")))),
    }
    states.insert(subject.clone(), transition.to.clone());
    Ok(())
}

/// Parses a JSON Lines audit log strictly (one entry per line, each ended by "\n") and verifies it.
/// An existing log file is never empty: the first entry is written with the file.
pub fn verify_audit_log(declaration: &AuditChainDeclaration, text: &str, expected_head: Option<Option<&AuditHead>>) -> Result<Option<AuditHead>, AuditChainError> {
    if text.is_empty() {
        return Err(AuditChainError { code: AuditChainErrorCode::LogEmpty, index: 0, message: "the log file is empty".into() });
    }
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() != Some(&"") {
        return chain_error(AuditChainErrorCode::LineUnterminated, lines.len() - 1, "the last line has no line feed");
    }
    lines.pop();
    let mut entries = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        match parse_strict_json(line.as_bytes()) {
            Ok(value) => entries.push(value),
            Err(error) => return chain_error(AuditChainErrorCode::EntryInvalid, index, &format!("line is not strict JSON: {}", error.code.as_str())),
        }
    }
    verify_audit_chain(declaration, &entries, expected_head)
}
