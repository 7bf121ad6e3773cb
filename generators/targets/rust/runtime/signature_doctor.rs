//! The signature doctor: when an hmac-sha256-v1 signature does not verify under RFC 8785, find
//! which recorded platform dialect (canonical_dialects) the sender hashed with, and where its bytes
//! part from RFC 8785's. A diagnosis explains a refusal; it never turns it into acceptance. The
//! same steps as the TypeScript runtime's signature-doctor.ts and the Kotlin and Swift ports.

use crate::runtime::canonical_dialects::{parse_lexical, render_dialect, CanonicalizationDialect, LexValue};
use crate::runtime::canonical_json::canonicalize;
use crate::runtime::crypto::{base64_std_nopad, base64_std_nopad_decode, hmac_sha256_matches, sha256};
use crate::runtime::hmac_v1::{hmac_v1_signing_input, verify_hmac_v1, HmacV1Declaration, LineValue};
use crate::runtime::strict_json::parse_strict_json;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// One dialect under which the received signature does verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureDiagnosis {
    /// The divergence id of the dialect.
    pub divergence: String,
    pub dialect: String,
    /// The hashed field whose bytes differ, or None when they equal RFC 8785's and only the parse differs.
    pub field: Option<String>,
    /// UTF-8 byte offset of the first difference in that field's canonical text.
    pub offset: Option<usize>,
    /// RFC 8785's canonical text of the field, or None when RFC 8785 refuses the message.
    pub rfc8785: Option<String>,
    /// The dialect's text of the field.
    pub text: Option<String>,
}

/// Why RFC 8785 verification refused the message: an hmac-sha256-v1 or strict-JSON error code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureRefusal {
    pub code: String,
    pub message: String,
}

/// What the doctor found; `reason` is None when the signature verified under RFC 8785.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureExplanation {
    pub reason: Option<SignatureRefusal>,
    pub diagnoses: Vec<SignatureDiagnosis>,
    /// The signing input computed under RFC 8785, when the message could be read.
    pub signing_input: Option<String>,
}

impl SignatureExplanation {
    pub fn verified(&self) -> bool {
        self.reason.is_none()
    }
}

fn has_duplicate_member(message: &LexValue) -> bool {
    let LexValue::Obj(members) = message else { return false };
    let mut names = HashSet::with_capacity(members.len());
    members.iter().any(|(name, _)| !names.insert(name.as_str()))
}

/// A value of the declaration (a line's default) as tokens: its RFC 8785 text read back.
fn from_json(value: &Value) -> Option<LexValue> {
    parse_lexical(&canonicalize(value))
}

/// The signing input a dialect builds from the received tokens, and the hashed fields' texts in line order.
fn dialect_input(declaration: &HmacV1Declaration, message: &LexValue, dialect: &CanonicalizationDialect, integers: &str) -> Option<(String, Vec<(String, String)>)> {
    // A parser that refuses duplicate keys refuses the whole message, not only its hashed values.
    if dialect.duplicate_keys == "reject" && has_duplicate_member(message) {
        return None;
    }
    let mut lines = Vec::with_capacity(declaration.lines.len());
    let mut hashed = Vec::new();
    for line in &declaration.lines {
        let hashed_line = line.value != LineValue::String;
        let raw = match (message.member(&line.field), &line.default) {
            (Some(found), _) => found.clone(),
            (None, Some(default)) => from_json(default)?,
            (None, None) if hashed_line && dialect.absent_hashed_field == "null" => LexValue::Lit("null"),
            (None, None) => return None,
        };
        if hashed_line {
            let text = render_dialect(&raw, dialect, integers)?;
            lines.push(format!("{}={}", line.name, base64_std_nopad(&sha256(text.as_bytes()))));
            hashed.push((line.field.clone(), text));
        } else {
            let LexValue::Str(text) = raw else { return None };
            lines.push(format!("{}={text}", line.name));
        }
    }
    Some((lines.join(&declaration.line_separator), hashed))
}

fn utf8_difference(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Verifies `text` under RFC 8785 and, when that fails, tries each recorded dialect on the received text.
pub fn explain_hmac_v1(declaration: &HmacV1Declaration, dialects: &[CanonicalizationDialect], text: &str, key: &[u8]) -> SignatureExplanation {
    let mut signing = None;
    let mut jcs_texts: HashMap<&str, String> = HashMap::new();
    let reason = match parse_strict_json(text.as_bytes()) {
        Ok(value) => {
            let Err(error) = verify_hmac_v1(declaration, &value, key) else {
                return SignatureExplanation { reason: None, diagnoses: Vec::new(), signing_input: None };
            };
            if let Value::Object(message) = &value {
                signing = hmac_v1_signing_input(declaration, message).ok();
                for line in declaration.lines.iter().filter(|line| line.value != LineValue::String) {
                    if let Some(raw) = message.get(&line.field).or(line.default.as_ref()) {
                        jcs_texts.insert(&line.field, canonicalize(raw));
                    }
                }
            }
            SignatureRefusal { code: error.code.as_str().to_string(), message: error.message }
        }
        Err(error) => SignatureRefusal { code: error.code.as_str().to_string(), message: error.message },
    };
    let mut diagnoses = Vec::new();
    let message = parse_lexical(text);
    let received = match message.as_ref().and_then(|m| m.member(&declaration.signature_field)) {
        Some(LexValue::Str(signature)) => base64_std_nopad_decode(signature),
        _ => None,
    };
    let algorithm_matches = matches!(message.as_ref().and_then(|m| m.member(&declaration.algorithm_field)), Some(LexValue::Str(a)) if *a == declaration.algorithm_id);
    if let (Some(message), Some(received)) = (&message, &received) {
        if received.len() == 32 && algorithm_matches && !key.is_empty() {
            for dialect in dialects {
                for integers in &dialect.integer_tokens {
                    let Some((input, hashed)) = dialect_input(declaration, message, dialect, integers) else { continue };
                    if !hmac_sha256_matches(key, input.as_bytes(), received) {
                        continue;
                    }
                    let mut diagnosis = SignatureDiagnosis { divergence: dialect.divergence.clone(), dialect: dialect.name.clone(), field: None, offset: None, rfc8785: None, text: None };
                    if let Some((field, dialect_text)) = hashed.into_iter().find(|(field, dialect_text)| jcs_texts.get(field.as_str()) != Some(dialect_text)) {
                        let jcs = jcs_texts.get(field.as_str()).cloned();
                        diagnosis.offset = jcs.as_deref().map(|j| utf8_difference(j, &dialect_text));
                        diagnosis.field = Some(field);
                        diagnosis.rfc8785 = jcs;
                        diagnosis.text = Some(dialect_text);
                    }
                    diagnoses.push(diagnosis);
                    break;
                }
            }
        }
    }
    SignatureExplanation { reason: Some(reason), diagnoses, signing_input: signing }
}

/// A window of the text around a byte offset, on UTF-8 boundaries, with the offset's column.
fn around(text: &str, offset: usize) -> (String, usize) {
    let mut start = offset.saturating_sub(24).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (offset + 24).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let offset = offset.min(text.len());
    let offset = (offset..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    let window = format!("{}{}{}", if start > 0 { "…" } else { "" }, &text[start..end], if end < text.len() { "…" } else { "" });
    let column = usize::from(start > 0) + text[start..offset.max(start)].chars().count();
    (window, column)
}

/// The doctor's report as text lines (what `agent-contracts verify --explain` prints).
pub fn format_signature_explanation(explanation: &SignatureExplanation) -> Vec<String> {
    let Some(reason) = &explanation.reason else { return vec!["verified".to_string()] };
    let mut out = vec![format!("not verified under RFC 8785: {}: {}", reason.code, reason.message)];
    for d in &explanation.diagnoses {
        out.push(format!("diagnosis: {}", d.divergence));
        out.push(format!("  the signature verifies under {} (a diagnosis, not acceptance)", d.dialect));
        match (&d.field, &d.rfc8785, d.offset, &d.text) {
            (None, _, _, _) => out.push("  its bytes equal RFC 8785's; RFC 8785 refuses the text itself".to_string()),
            (Some(field), Some(ours), Some(offset), Some(theirs)) => {
                let (ours, ours_column) = around(ours, offset);
                let (theirs, theirs_column) = around(theirs, offset);
                out.push(format!("  {field} first differs at byte {offset}:"));
                out.push(format!("    RFC 8785: {ours}"));
                out.push(format!("    dialect:  {theirs}"));
                out.push(format!("              {}^", " ".repeat(ours_column.max(theirs_column))));
            }
            (Some(field), _, _, text) => out.push(format!("  {field}: RFC 8785 refuses the value; the dialect hashed {}", text.as_deref().unwrap_or(""))),
        }
    }
    if explanation.diagnoses.is_empty() {
        out.push("no recorded canonicalization dialect explains it".to_string());
        if let Some(input) = &explanation.signing_input {
            out.push("signing input under RFC 8785 (compare it line by line with the signer's):".to_string());
            out.extend(input.split('\n').map(|line| format!("  {line}")));
        }
    }
    out
}
