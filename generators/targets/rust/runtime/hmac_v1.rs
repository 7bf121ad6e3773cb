//! The agent-provider `hmac-sha256-v1` scheme, driven by the message's `x-signature` declaration:
//! `name=value` lines joined by LF, no escaping; a hashed field written as
//! base64-std-nopad(SHA-256(JCS(value))); the MAC as base64-std-nopad(HMAC-SHA256(key, lines)).
//! The same steps and error codes as the TypeScript, Kotlin and Swift runtimes.

use crate::runtime::canonical_json::canonicalize;
use crate::runtime::crypto::{base64_std_nopad, base64_std_nopad_decode, hmac_sha256, hmac_sha256_matches, sha256};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;

/// How one line's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum LineValue {
    /// The field's string value verbatim.
    #[serde(rename = "string")]
    String,
    /// base64-std-nopad(SHA-256(JCS(field value))).
    #[serde(rename = "sha256-jcs-base64-std-nopad")]
    Sha256JcsBase64StdNoPad,
}

/// One line of the signing input.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HmacV1Line {
    pub name: String,
    pub field: String,
    pub value: LineValue,
    /// Used when the field is absent; without it an absent field is an error.
    #[serde(default)]
    pub default: Option<Value>,
}

/// Where the key comes from (documentation for the caller; the key is passed in).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HmacV1Key {
    pub source: String,
    pub field: String,
    pub encoding: String,
}

/// The `x-signature` annotation for scheme `hmac-sha256-v1` (spec/meta/signing.schema.json).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HmacV1Declaration {
    pub scheme: String,
    pub algorithm_id: String,
    pub algorithm_field: String,
    pub signature_field: String,
    pub line_separator: String,
    pub lines: Vec<HmacV1Line>,
    pub key: HmacV1Key,
    pub signature_encoding: String,
}

/// Why signing or verification failed; `as_str` is the code every language uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HmacV1ErrorCode {
    NotAnObject,
    Unsigned,
    AlgorithmMismatch,
    KeyMissing,
    CoveredFieldMissing,
    CoveredFieldNotString,
    SignatureEncoding,
    SignatureMismatch,
}

impl HmacV1ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotAnObject => "not-an-object",
            Self::Unsigned => "unsigned",
            Self::AlgorithmMismatch => "algorithm-mismatch",
            Self::KeyMissing => "key-missing",
            Self::CoveredFieldMissing => "covered-field-missing",
            Self::CoveredFieldNotString => "covered-field-not-string",
            Self::SignatureEncoding => "signature-encoding",
            Self::SignatureMismatch => "signature-mismatch",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HmacV1Error {
    pub code: HmacV1ErrorCode,
    pub message: String,
}

impl fmt::Display for HmacV1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for HmacV1Error {}

fn fail<T>(code: HmacV1ErrorCode, message: String) -> Result<T, HmacV1Error> {
    Err(HmacV1Error { code, message })
}

/// base64-std-nopad(SHA-256(JCS(value))): the value of a hashed line.
pub fn jcs_sha256_base64(value: &Value) -> String {
    base64_std_nopad(&sha256(canonicalize(value).as_bytes()))
}

/// The exact text that is MACed, or which covered field is missing or malformed.
pub fn hmac_v1_signing_input(declaration: &HmacV1Declaration, message: &Map<String, Value>) -> Result<String, HmacV1Error> {
    let mut input = String::new();
    for (index, line) in declaration.lines.iter().enumerate() {
        let Some(raw) = message.get(&line.field).or(line.default.as_ref()) else {
            return fail(HmacV1ErrorCode::CoveredFieldMissing, format!("covered field {} is missing", line.field));
        };
        let value = match line.value {
            LineValue::String => match raw {
                Value::String(text) => text.clone(),
                _ => return fail(HmacV1ErrorCode::CoveredFieldNotString, format!("covered field {} is not a string", line.field)),
            },
            LineValue::Sha256JcsBase64StdNoPad => jcs_sha256_base64(raw),
        };
        if index > 0 {
            input.push_str(&declaration.line_separator);
        }
        input.push_str(&line.name);
        input.push('=');
        input.push_str(&value);
    }
    Ok(input)
}

/// The canonical unpadded base64 of 32 bytes is always 43 characters.
const SIGNATURE_TEXT_LENGTH: usize = 43;

/// Returns a copy of `message` with the algorithm and signature fields set, and the signature.
pub fn sign_hmac_v1(declaration: &HmacV1Declaration, message: &Map<String, Value>, key: &[u8]) -> Result<(Map<String, Value>, String), HmacV1Error> {
    if key.is_empty() {
        return fail(HmacV1ErrorCode::KeyMissing, "signing key is empty".into());
    }
    let input = hmac_v1_signing_input(declaration, message)?;
    let signature = base64_std_nopad(&hmac_sha256(key, input.as_bytes()));
    let mut signed = message.clone();
    signed.insert(declaration.algorithm_field.clone(), Value::String(declaration.algorithm_id.clone()));
    signed.insert(declaration.signature_field.clone(), Value::String(signature.clone()));
    Ok((signed, signature))
}

/// Verifies a received message exactly as it arrived; compares MAC bytes in constant time.
pub fn verify_hmac_v1(declaration: &HmacV1Declaration, message: &Value, key: &[u8]) -> Result<(), HmacV1Error> {
    let Value::Object(message) = message else {
        return fail(HmacV1ErrorCode::NotAnObject, "a signed message must be a JSON object".into());
    };
    let signature = match message.get(&declaration.signature_field) {
        Some(Value::String(text)) if !text.is_empty() => text,
        _ => return fail(HmacV1ErrorCode::Unsigned, "message carries no signature".into()),
    };
    if message.get(&declaration.algorithm_field) != Some(&Value::String(declaration.algorithm_id.clone())) {
        return fail(HmacV1ErrorCode::AlgorithmMismatch, format!("{} is not {}", declaration.algorithm_field, declaration.algorithm_id));
    }
    if key.is_empty() {
        return fail(HmacV1ErrorCode::KeyMissing, "verification key is empty".into());
    }
    let received = if signature.len() == SIGNATURE_TEXT_LENGTH { base64_std_nopad_decode(signature) } else { None };
    let Some(received) = received.filter(|bytes| bytes.len() == 32) else {
        return fail(HmacV1ErrorCode::SignatureEncoding, "signature is not 32 bytes of unpadded standard base64".into());
    };
    let input = hmac_v1_signing_input(declaration, message)?;
    if !hmac_sha256_matches(key, input.as_bytes(), &received) {
        return fail(HmacV1ErrorCode::SignatureMismatch, "signature does not match".into());
    }
    Ok(())
}
