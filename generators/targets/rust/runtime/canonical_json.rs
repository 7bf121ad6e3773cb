//! RFC 8785 (JCS) canonical JSON: members sorted by their UTF-16 code units, no whitespace,
//! strings with the minimal escapes, numbers as ECMAScript's Number.prototype.toString writes them
//! (the `ryu-js` crate, proven on RFC 8785's 100 000 ES6 number lines by the tests).

use crate::runtime::strict_json::{parse_strict_json, StrictJsonError};
use serde_json::{Number, Value};

/// The canonical text of a JSON value. Infallible: a `serde_json::Value` holds no NaN, no
/// infinity and no lone surrogate, the three things JCS cannot write.
pub fn canonicalize(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

/// Parses untrusted bytes strictly (duplicate keys, lone surrogates, inexact numbers refused) and
/// returns their canonical text.
pub fn canonicalize_bytes(bytes: &[u8]) -> Result<String, StrictJsonError> {
    Ok(canonicalize(&parse_strict_json(bytes)?))
}

/// ECMAScript's shortest round-trip text of a finite double ("1e+21", "5e-7", "0" for -0).
pub fn format_number(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    ryu_js::Buffer::new().format_finite(value).to_string()
}

fn number_as_f64(number: &Number) -> f64 {
    // Every serde_json number is an i64, a u64 or a finite f64; as_f64 is total on them.
    number.as_f64().unwrap_or(0.0)
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => out.push_str(&format_number(number_as_f64(number))),
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut keys: Vec<(&String, Vec<u16>)> = members.keys().map(|key| (key, key.encode_utf16().collect())).collect();
            keys.sort_by(|a, b| a.1.cmp(&b.1));
            out.push('{');
            for (index, (key, _)) in keys.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(&members[key.as_str()], out);
            }
            out.push('}');
        }
    }
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
