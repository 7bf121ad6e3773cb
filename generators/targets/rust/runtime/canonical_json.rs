//! RFC 8785 (JCS) canonical JSON: members sorted by their UTF-16 code units, no whitespace,
//! strings with the minimal escapes, numbers as ECMAScript's Number.prototype.toString writes them
//! (the `ryu-js` crate, proven on RFC 8785's 100 000 ES6 number lines by the tests).

use crate::runtime::strict_json::{parse_strict_json, StrictJsonError};
use serde_json::{Number, Value};

/// The canonical text of a JSON value. Infallible: a `serde_json::Value` holds no NaN, no
/// infinity and no lone surrogate, the three things JCS cannot write.
pub fn canonicalize(value: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(value, &mut out, &mut Vec::new());
    out
}

/// Parses untrusted bytes strictly (duplicate keys, lone surrogates, inexact numbers refused) and
/// returns their canonical text.
pub fn canonicalize_bytes(bytes: &[u8]) -> Result<String, StrictJsonError> {
    Ok(canonicalize(&parse_strict_json(bytes)?))
}

/// ECMAScript's shortest round-trip text of a finite double ("1e+21", "5e-7", "0" for -0).
pub fn format_number(value: f64) -> String {
    let mut out = String::new();
    write_f64(value, &mut out);
    out
}

/// Integers up to 2^53 in magnitude are exact doubles whose ECMAScript text is their decimal digits.
const EXACT_INTEGER_LIMIT: u64 = 1 << 53;

fn write_number(number: &Number, out: &mut String) {
    if let Some(integer) = number.as_u64().filter(|n| *n <= EXACT_INTEGER_LIMIT) {
        write_digits(integer, out);
    } else if let Some(integer) = number.as_i64().filter(|n| n.unsigned_abs() <= EXACT_INTEGER_LIMIT) {
        // Negative here (a non-negative i64 is also a u64 above); -0 cannot be an integer Number.
        out.push('-');
        write_digits(integer.unsigned_abs(), out);
    } else {
        // Every serde_json number is an i64, a u64 or a finite f64; as_f64 is total on them.
        write_f64(number.as_f64().unwrap_or(0.0), out);
    }
}

fn write_digits(mut integer: u64, out: &mut String) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (integer % 10) as u8;
        integer /= 10;
        if integer == 0 {
            break;
        }
    }
    // ASCII digits only: always valid UTF-8.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

fn write_f64(value: f64, out: &mut String) {
    if value == 0.0 {
        out.push('0');
    } else {
        out.push_str(ryu_js::Buffer::new().format_finite(value));
    }
}

/// RFC 8785 orders member names by their UTF-16 code units. UTF-8 bytes order code points, which
/// is the same order except where a code point above U+FFFF (UTF-16 surrogates, D800-DBFF) meets
/// one in U+E000..U+FFFF: UTF-16 puts the first lower. At the first differing byte both names are
/// at the same character boundary, so only a lead byte 0xF0-0xF4 against 0xEE-0xEF needs turning.
fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match (a.get(common), b.get(common)) {
        (Some(&x), Some(&y)) if x >= 0xF0 && (0xEE..=0xEF).contains(&y) => std::cmp::Ordering::Less,
        (Some(&x), Some(&y)) if y >= 0xF0 && (0xEE..=0xEF).contains(&x) => std::cmp::Ordering::Greater,
        (x, y) => x.cmp(&y),
    }
}

/// `members` is one scratch list for the whole walk: each object pushes its members above what its
/// parents hold, sorts that slice, writes it and truncates back, so no object allocates its own.
fn write_value<'a>(value: &'a Value, out: &mut String, members: &mut Vec<(&'a str, &'a Value)>) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => write_number(number, out),
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_value(item, out, members);
            }
            out.push(']');
        }
        Value::Object(object) => {
            let start = members.len();
            members.extend(object.iter().map(|(key, member)| (key.as_str(), member)));
            members[start..].sort_unstable_by(|a, b| utf16_order(a.0, b.0));
            out.push('{');
            for index in start..members.len() {
                if index > start {
                    out.push(',');
                }
                let (key, member) = members[index];
                write_string(key, out);
                out.push(':');
                write_value(member, out, members);
            }
            members.truncate(start);
            out.push('}');
        }
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The minimal escapes of RFC 8785 (ECMAScript's JSON.stringify): runs of bytes that need none are
/// copied whole.
fn write_string(text: &str, out: &mut String) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut run = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0C => "\\f",
            b'\r' => "\\r",
            0x00..=0x1F => "",
            _ => continue,
        };
        // Escaped bytes are ASCII, so run..index lies on character boundaries.
        out.push_str(&text[run..index]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xF)]));
        } else {
            out.push_str(escape);
        }
        run = index + 1;
    }
    out.push_str(&text[run..]);
    out.push('"');
}
