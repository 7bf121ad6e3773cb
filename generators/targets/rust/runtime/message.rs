//! Reading a typed message from untrusted bytes: strict JSON first (duplicate keys, lone surrogates,
//! depth and inexact numbers refused with the shared codes), then the typed view.

use crate::runtime::strict_json::{parse_strict_json, StrictJsonError};
use crate::runtime::validation::SchemaError;
use serde_json::Value;
use serde::de::DeserializeOwned;
use std::fmt;

/// Why bytes are not a message of the type asked for.
#[derive(Debug)]
pub enum MessageError {
    /// Not strict JSON: the shared error code and offset.
    Json(StrictJsonError),
    /// Strict JSON, but not valid against the message's schema: every failed keyword.
    Schema(Vec<SchemaError>),
    /// Strict JSON, but not of the message's shape (a missing member, a wrong type, an unknown
    /// member of a closed record, a value a closed enum does not list).
    Shape(serde_json::Error),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(error) => write!(f, "{error}"),
            Self::Schema(errors) => write!(f, "schema: {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
            Self::Shape(error) => write!(f, "shape: {error}"),
        }
    }
}

impl std::error::Error for MessageError {}

/// A message of the spec: its schema's `$id` in the generated registry (crate::schemas).
pub trait ContractMessage: DeserializeOwned {
    const SCHEMA_ID: &'static str;

    /// Every failed keyword of `value` against this message's schema; Ok when valid.
    fn validate_json(value: &Value) -> Result<(), Vec<SchemaError>> {
        crate::schemas::registry().validate(Self::SCHEMA_ID, value)
    }
}

/// Parses `bytes` strictly, validates them against `T`'s schema, then decodes them as `T`.
pub fn parse_validated<T: ContractMessage>(bytes: &[u8]) -> Result<T, MessageError> {
    let value = parse_strict_json(bytes).map_err(MessageError::Json)?;
    T::validate_json(&value).map_err(MessageError::Schema)?;
    serde_json::from_value(value).map_err(MessageError::Shape)
}

/// Parses `bytes` strictly and decodes them as `T`, without the schema check.
pub fn parse_message<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, MessageError> {
    let value = parse_strict_json(bytes).map_err(MessageError::Json)?;
    serde_json::from_value(value).map_err(MessageError::Shape)
}
