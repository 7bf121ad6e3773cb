//! Content addresses: id = prefix + hex(SHA-256(JCS(record without its id field))), as the
//! `x-content-address` annotation declares (a connector package id, a manifest id).

use crate::runtime::canonical_json::canonicalize;
use crate::runtime::crypto::sha256_hex;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The `x-content-address` annotation (spec/meta/message.schema.json#/$defs/ContentAddress).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContentAddressDeclaration {
    pub id_field: String,
    pub prefix: String,
    /// "sha256-hex", the one digest declared.
    pub digest: String,
    /// "record-without-id", the one coverage declared.
    pub covers: String,
    #[serde(default)]
    pub max_canonical_bytes: Option<u64>,
    #[serde(default)]
    pub canonical_input: Option<bool>,
}

fn without(record: &Map<String, Value>, field: &str) -> Value {
    let mut copy = record.clone();
    copy.shift_remove(field);
    Value::Object(copy)
}

/// The id the record should carry.
pub fn compute_content_id(declaration: &ContentAddressDeclaration, record: &Map<String, Value>) -> String {
    format!("{}{}", declaration.prefix, sha256_hex(canonicalize(&without(record, &declaration.id_field)).as_bytes()))
}

/// True when the record's id field holds the id its content hashes to.
pub fn verify_content_id(declaration: &ContentAddressDeclaration, record: &Map<String, Value>) -> bool {
    matches!(record.get(&declaration.id_field), Some(Value::String(stated)) if *stated == compute_content_id(declaration, record))
}
