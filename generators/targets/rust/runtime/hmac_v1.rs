//! The agent-provider `hmac-sha256-v1` scheme, driven by the message's `x-signature` declaration:
//! `name=value` lines joined by LF, no escaping; a hashed field written as
//! base64-std-nopad(SHA-256(JCS(value))); the MAC as base64-std-nopad(HMAC-SHA256(key, lines)).
//! The same steps and error codes as the TypeScript, Kotlin and Swift runtimes.

use crate::runtime::canonical_json::canonicalize;
use crate::runtime::crypto::{base64_std_nopad, base64_std_nopad_decode_32, hmac_sha256, hmac_sha256_matches, push_base64_std_nopad, sha256, HmacSha256Key};
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

/// The exact text that is MACed, or which covered field is missing or malformed. Each message's
/// generated `signing_input` writes the same lines without walking the declaration.
pub fn hmac_v1_signing_input(declaration: &HmacV1Declaration, message: &Map<String, Value>) -> Result<String, HmacV1Error> {
    let mut input = String::with_capacity(512);
    for (index, line) in declaration.lines.iter().enumerate() {
        if index > 0 {
            input.push_str(&declaration.line_separator);
        }
        input.push_str(&line.name);
        input.push('=');
        let raw = message.get(&line.field).or(line.default.as_ref());
        match line.value {
            LineValue::String => push_string_value(&mut input, raw, &line.field)?,
            LineValue::Sha256JcsBase64StdNoPad => push_digest_value(&mut input, raw, &line.field)?,
        }
    }
    Ok(input)
}

/// Appends a `string` line's value: the covered field's text verbatim.
pub fn push_string_value(input: &mut String, raw: Option<&Value>, field: &str) -> Result<(), HmacV1Error> {
    match raw {
        Some(Value::String(text)) => {
            input.push_str(text);
            Ok(())
        }
        Some(_) => fail(HmacV1ErrorCode::CoveredFieldNotString, format!("covered field {field} is not a string")),
        None => fail(HmacV1ErrorCode::CoveredFieldMissing, format!("covered field {field} is missing")),
    }
}

/// Appends a `sha256-jcs-base64-std-nopad` line's value: base64-std-nopad(SHA-256(JCS(value))).
pub fn push_digest_value(input: &mut String, raw: Option<&Value>, field: &str) -> Result<(), HmacV1Error> {
    let Some(raw) = raw else {
        return fail(HmacV1ErrorCode::CoveredFieldMissing, format!("covered field {field} is missing"));
    };
    push_base64_std_nopad(&sha256(canonicalize(raw).as_bytes()), input);
    Ok(())
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
    let Value::Object(members) = message else {
        return not_an_object();
    };
    let d = declaration;
    let received = check_signed(members.get(&d.signature_field), members.get(&d.algorithm_field), &d.algorithm_field, &d.algorithm_id, key.is_empty())?;
    let input = hmac_v1_signing_input(declaration, members)?;
    if !hmac_sha256_matches(key, input.as_bytes(), &received) {
        return signature_mismatch();
    }
    Ok(())
}

/// `verify_hmac_v1` with a key prepared once for many messages.
pub fn verify_hmac_v1_with_key(declaration: &HmacV1Declaration, message: &Value, key: &HmacSha256Key) -> Result<(), HmacV1Error> {
    let Value::Object(members) = message else {
        return not_an_object();
    };
    let d = declaration;
    let received = check_signed(members.get(&d.signature_field), members.get(&d.algorithm_field), &d.algorithm_field, &d.algorithm_id, key.is_empty())?;
    check_mac(&hmac_v1_signing_input(declaration, members)?, key, &received)
}

pub fn not_an_object<T>() -> Result<T, HmacV1Error> {
    fail(HmacV1ErrorCode::NotAnObject, "a signed message must be a JSON object".into())
}

fn signature_mismatch<T>() -> Result<T, HmacV1Error> {
    fail(HmacV1ErrorCode::SignatureMismatch, "signature does not match".into())
}

/// What a verifier checks before it builds the signing input, in the order every language checks
/// it: a signature is present, the algorithm field names this scheme, the key is not empty, the
/// signature is 32 bytes of canonical unpadded base64. Returns those 32 bytes.
pub fn check_signed(signature: Option<&Value>, algorithm: Option<&Value>, algorithm_field: &str, algorithm_id: &str, key_is_empty: bool) -> Result<[u8; 32], HmacV1Error> {
    let signature = match signature {
        Some(Value::String(text)) if !text.is_empty() => text,
        _ => return fail(HmacV1ErrorCode::Unsigned, "message carries no signature".into()),
    };
    if !matches!(algorithm, Some(Value::String(named)) if named == algorithm_id) {
        return fail(HmacV1ErrorCode::AlgorithmMismatch, format!("{algorithm_field} is not {algorithm_id}"));
    }
    if key_is_empty {
        return fail(HmacV1ErrorCode::KeyMissing, "verification key is empty".into());
    }
    let received = if signature.len() == SIGNATURE_TEXT_LENGTH { base64_std_nopad_decode_32(signature) } else { None };
    match received {
        Some(bytes) => Ok(bytes),
        None => fail(HmacV1ErrorCode::SignatureEncoding, "signature is not 32 bytes of unpadded standard base64".into()),
    }
}

/// The last step of a verification: the MAC of the signing input against the received bytes.
pub fn check_mac(input: &str, key: &HmacSha256Key, received: &[u8; 32]) -> Result<(), HmacV1Error> {
    if key.matches(input.as_bytes(), received) {
        Ok(())
    } else {
        signature_mismatch()
    }
}
