//! Reading a typed message from untrusted bytes: strict JSON first (duplicate keys, lone surrogates,
//! depth and inexact numbers refused with the shared codes), then the typed view.

use crate::runtime::strict_json::{parse_strict, StrictJsonError};
use serde::de::DeserializeOwned;
use std::fmt;

/// Why bytes are not a message of the type asked for.
#[derive(Debug)]
pub enum MessageError {
    /// Not strict JSON: the shared error code and offset.
    Json(StrictJsonError),
    /// Strict JSON, but not of the message's shape (a missing member, a wrong type, an unknown
    /// member of a closed record, a value a closed enum does not list).
    Shape(serde_json::Error),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(error) => write!(f, "{error}"),
            Self::Shape(error) => write!(f, "shape: {error}"),
        }
    }
}

impl std::error::Error for MessageError {}

/// Parses `bytes` strictly and decodes them as `T`.
pub fn parse_message<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, MessageError> {
    let value = parse_strict(bytes).map_err(MessageError::Json)?;
    serde_json::from_value(value).map_err(MessageError::Shape)
}
