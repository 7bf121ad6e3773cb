//! The non-RFC 8785 JSON writers that real implementations hash with (the divergences that carry a
//! `canonicalization` entry in a protocol.yaml). They exist only to explain a failed signature:
//! nothing here is ever used to accept one. Same meaning, step for step, as the TypeScript
//! runtime's canonical-dialects.ts (and the Kotlin and Swift ports).
//!
//! A dialect works on the received text, not on parsed values, because the platforms differ in
//! what a number token is (serde_json keeps `12.0` a float and `12` an integer; org.json 20240303
//! keeps `1E+21` a BigDecimal), which a parsed double has forgotten.

use crate::runtime::canonical_json::format_number;
use serde::Deserialize;
use std::collections::HashMap;

/// One recorded canonicalization dialect (spec/meta/message.schema.json Divergence.canonicalization).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CanonicalizationDialect {
    /// The divergence that records it; reported as the diagnosis.
    pub divergence: String,
    pub name: String,
    /// "rfc8785", "serde-json", "java-double" or "java-bigdecimal".
    pub numbers: String,
    /// serde_json 1.0.154 writes `1e+21`, 1.0.140 `1e21`.
    #[serde(default)]
    pub exponent_plus: bool,
    /// Alternatives tried for integer tokens: "exact" (its digits) or "double" (12 -> 12.0).
    pub integer_tokens: Vec<String>,
    /// "utf16" or "code-point".
    pub key_order: String,
    /// "/" as "\/": "none", "all" (AOSP org.json) or "after-lt" (org.json 20240303).
    pub escape_slash: String,
    /// Inclusive code point ranges written as \uxxxx.
    #[serde(default)]
    pub escape_ranges: Vec<(u32, u32)>,
    /// "last-wins" or "reject".
    pub duplicate_keys: String,
    /// A hashed field that is absent: "refuse" (no signing input) or "null" (hashed as `null`).
    #[serde(default = "refuse")]
    pub absent_hashed_field: String,
}

fn refuse() -> String {
    "refuse".to_string()
}

/// JSON text as tokens: numbers keep their lexeme, objects keep every member in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LexValue {
    Num(String),
    Str(String),
    /// `true`, `false` or `null`.
    Lit(&'static str),
    Arr(Vec<LexValue>),
    Obj(Vec<(String, LexValue)>),
}

impl LexValue {
    /// The last member named `key` (duplicates: last wins), when this is an object.
    pub fn member(&self, key: &str) -> Option<&LexValue> {
        match self {
            LexValue::Obj(members) => members.iter().rev().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }
}

const MAX_DEPTH: usize = 64;

/// Parses JSON text keeping number lexemes and duplicate members; None when it is not JSON. A lone
/// surrogate escape becomes U+FFFD, the bytes a UTF-8 encoder hashes for it on the other platforms.
pub fn parse_lexical(text: &str) -> Option<LexValue> {
    let mut reader = LexReader { b: text.as_bytes(), text, i: 0 };
    let value = reader.value(0)?;
    reader.ws();
    (reader.i == reader.b.len()).then_some(value)
}

struct LexReader<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

impl LexReader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.i += 1;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let c = self.peek()?;
            match c {
                b'"' => {
                    self.i += 1;
                    return Some(String::from_utf16_lossy(&units));
                }
                b'\\' => {
                    let escape = *self.b.get(self.i + 1)?;
                    self.i += 2;
                    let unit = match escape {
                        b'"' | b'\\' | b'/' => u16::from(escape),
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => 0x0a,
                        b'r' => 0x0d,
                        b't' => 0x09,
                        b'u' => {
                            let hex = self.b.get(self.i..self.i + 4)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            self.i += 4;
                            u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?
                        }
                        _ => return None,
                    };
                    units.push(unit);
                }
                c if c < 0x20 => return None,
                _ => {
                    // One whole character (the text is UTF-8): its UTF-16 units.
                    let ch = self.text[self.i..].chars().next()?;
                    self.i += ch.len_utf8();
                    let mut buffer = [0u16; 2];
                    units.extend_from_slice(ch.encode_utf16(&mut buffer));
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }

    // RFC 8259's number, scanned in one pass whatever its length.
    fn number(&mut self) -> Option<String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else if self.digits() == 0 {
            self.i = start;
            return None;
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                self.i = start;
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                self.i = start;
                return None;
            }
        }
        Some(self.text[start..self.i].to_string())
    }

    fn value(&mut self, depth: usize) -> Option<LexValue> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        let c = self.peek()?;
        if c == b'{' || c == b'[' {
            self.i += 1;
            let object = c == b'{';
            let close = if object { b'}' } else { b']' };
            let mut members = Vec::new();
            let mut items = Vec::new();
            self.ws();
            if self.peek() == Some(close) {
                self.i += 1;
                return Some(if object { LexValue::Obj(members) } else { LexValue::Arr(items) });
            }
            loop {
                self.ws();
                let mut key = String::new();
                if object {
                    key = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return None;
                    }
                    self.i += 1;
                }
                let value = self.value(depth + 1)?;
                if object {
                    members.push((key, value));
                } else {
                    items.push(value);
                }
                self.ws();
                let separator = self.peek()?;
                self.i += 1;
                if separator == b',' {
                    continue;
                }
                if separator == close {
                    return Some(if object { LexValue::Obj(members) } else { LexValue::Arr(items) });
                }
                return None;
            }
        }
        if c == b'"' {
            return self.string().map(LexValue::Str);
        }
        if let Some(lexeme) = self.number() {
            return Some(LexValue::Num(lexeme));
        }
        for literal in ["true", "false", "null"] {
            if self.b[self.i..].starts_with(literal.as_bytes()) {
                self.i += literal.len();
                return Some(LexValue::Lit(literal));
            }
        }
        None
    }
}

/// The shortest round-trip digits of a finite non-zero double and its decimal point's position
/// (value = 0.d1d2... x 10^point). Rust's `{:e}` without a precision writes the shortest digits.
fn shortest_digits(x: f64) -> (String, i64) {
    let text = format!("{:e}", x.abs());
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    (mantissa.replace('.', ""), exponent.parse::<i64>().unwrap_or(0) + 1)
}

fn zeros(count: i64) -> String {
    "0".repeat(usize::try_from(count).unwrap_or(0))
}

fn split_at(digits: &str, point: i64) -> (&str, &str) {
    digits.split_at(usize::try_from(point).unwrap_or(0).min(digits.len()))
}

// serde_json formats f64 with ryu's layout: plain up to 16 integer digits, 0.000ddd down to four
// zeros, otherwise d.ddde<exp>.
fn ryu_layout(x: f64, plus: bool) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, point) = shortest_digits(x);
    let n = digits.len() as i64;
    if point >= n && point <= 16 {
        return format!("{sign}{digits}{}.0", zeros(point - n));
    }
    if point > 0 && point <= 16 {
        let (whole, fraction) = split_at(&digits, point);
        return format!("{sign}{whole}.{fraction}");
    }
    if point > -5 && point <= 0 {
        return format!("{sign}0.{}{digits}", zeros(-point));
    }
    let exp = point - 1;
    let (first, rest) = digits.split_at(1);
    let mantissa = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
    format!("{sign}{mantissa}e{}{exp}", if plus && exp > 0 { "+" } else { "" })
}

/// Java Double.toString (shortest digits, as JDK 19+): plain in [1e-3, 1e7), else d.dddEn.
pub fn java_double_to_string(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, point) = shortest_digits(x);
    let n = digits.len() as i64;
    if (1e-3..1e7).contains(&x.abs()) {
        if point <= 0 {
            return format!("{sign}0.{}{digits}", zeros(-point));
        }
        if point >= n {
            return format!("{sign}{digits}{}.0", zeros(point - n));
        }
        let (whole, fraction) = split_at(&digits, point);
        return format!("{sign}{whole}.{fraction}");
    }
    let (first, rest) = digits.split_at(1);
    format!("{sign}{first}.{}E{}", if rest.is_empty() { "0" } else { rest }, point - 1)
}

/// Java `new BigDecimal(token).toString()`: plain when the scale is >= 0 and the exponent >= -6.
pub fn java_big_decimal_to_string(lexeme: &str) -> String {
    let (sign, body) = lexeme.strip_prefix('-').map_or(("", lexeme), |rest| ("-", rest));
    let (number, exp) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].trim_start_matches('+').parse::<i128>()),
        None => (body, Ok(0)),
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let well_formed = !int.is_empty() && int.bytes().all(|c| c.is_ascii_digit()) && frac.bytes().all(|c| c.is_ascii_digit()) && (frac.is_empty() != number.contains('.'));
    let Ok(exp) = exp else { return lexeme.to_string() };
    if !well_formed {
        return lexeme.to_string();
    }
    let joined = format!("{int}{frac}");
    let unscaled = joined.trim_start_matches('0');
    let unscaled = if unscaled.is_empty() { "0" } else { unscaled };
    // Saturating: an exponent near i128's bounds still lands on the right branch below.
    let scale = (frac.len() as i128).saturating_sub(exp);
    let adjusted = (unscaled.len() as i128 - 1).saturating_sub(scale);
    if scale >= 0 && adjusted >= -6 {
        if scale == 0 {
            return format!("{sign}{unscaled}");
        }
        let scale = scale as usize;
        let padded = format!("{}{unscaled}", "0".repeat((scale + 1).saturating_sub(unscaled.len())));
        let (whole, fraction) = padded.split_at(padded.len() - scale);
        return format!("{sign}{whole}.{fraction}");
    }
    let (first, rest) = unscaled.split_at(1);
    let mantissa = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
    format!("{sign}{mantissa}E{}{adjusted}", if adjusted >= 0 { "+" } else { "" })
}

fn is_integer_token(lexeme: &str) -> bool {
    let digits = lexeme.strip_prefix('-').unwrap_or(lexeme);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

/// The integer token's value when it lies in [low, high); tokens too long for i128 lie outside.
fn integer_within(lexeme: &str, low: i128, high: i128) -> bool {
    lexeme.parse::<i128>().is_ok_and(|v| v >= low && v < high)
}

/// The token's digits as an arbitrary-precision integer writes them ("-0" is 0).
fn integer_text(lexeme: &str) -> String {
    if lexeme == "-0" { "0".to_string() } else { lexeme.to_string() }
}

/// How `dialect` writes one number token, or None when it would have to write an infinite double
/// (a token past the double range, e.g. 1e400): no platform writer produces that text, so the
/// dialect is not tried rather than compared with made-up bytes.
pub fn format_number_token(lexeme: &str, dialect: &CanonicalizationDialect, integers: &str) -> Option<String> {
    let value: f64 = lexeme.parse().ok()?;
    let integer = is_integer_token(lexeme);
    let double = |layout: &dyn Fn(f64) -> String| value.is_finite().then(|| layout(value));
    let long = (-(1i128 << 63), 1i128 << 63);
    match dialect.numbers.as_str() {
        "serde-json" => {
            // serde_json reads "-0" as the float -0.0; other integer tokens in i64/u64 stay integers.
            if integer && lexeme != "-0" && integer_within(lexeme, long.0, 1i128 << 64) {
                return Some(integer_text(lexeme));
            }
            double(&|x| ryu_layout(x, dialect.exponent_plus))
        }
        "java-double" => {
            if integer && integers == "exact" && integer_within(lexeme, long.0, long.1) {
                return Some(integer_text(lexeme));
            }
            double(&java_double_to_string)
        }
        "java-bigdecimal" => {
            // org.json 20240303 keeps -0 as the double -0.0, integers as Integer/Long/BigInteger, decimals as BigDecimal.
            if integer && lexeme == "-0" {
                return Some("-0.0".to_string());
            }
            if integer {
                return if integers == "exact" { Some(integer_text(lexeme)) } else { double(&java_double_to_string) };
            }
            if value == 0.0 && lexeme.starts_with('-') {
                return Some("-0.0".to_string());
            }
            Some(java_big_decimal_to_string(lexeme))
        }
        _ => double(&format_number),
    }
}

fn quote(text: &str, dialect: &CanonicalizationDialect) -> String {
    let mut out = String::from("\"");
    let mut previous: Option<char> = None;
    for c in text.chars() {
        let code = c as u32;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            _ if code < 0x20 || dialect.escape_ranges.iter().any(|&(low, high)| code >= low && code <= high) => out.push_str(&format!("\\u{code:04x}")),
            '/' if dialect.escape_slash == "all" || (dialect.escape_slash == "after-lt" && previous == Some('<')) => out.push_str("\\/"),
            _ => out.push(c),
        }
        previous = Some(c);
    }
    out.push('"');
    out
}

/// The bytes `dialect` would hash for `value`, or None when the dialect refuses it (duplicate keys).
pub fn render_dialect(value: &LexValue, dialect: &CanonicalizationDialect, integers: &str) -> Option<String> {
    match value {
        LexValue::Num(lexeme) => format_number_token(lexeme, dialect, integers),
        LexValue::Str(text) => Some(quote(text, dialect)),
        LexValue::Lit(literal) => Some((*literal).to_string()),
        LexValue::Arr(items) => {
            let parts = items.iter().map(|item| render_dialect(item, dialect, integers)).collect::<Option<Vec<_>>>()?;
            Some(format!("[{}]", parts.join(",")))
        }
        LexValue::Obj(members) => {
            // Last wins, in a map keyed by name; the order is decided by the sort below.
            let mut by_key: Vec<(&String, &LexValue)> = Vec::with_capacity(members.len());
            let mut index: HashMap<&str, usize> = HashMap::with_capacity(members.len());
            for (key, member) in members {
                if let Some(&at) = index.get(key.as_str()) {
                    if dialect.duplicate_keys == "reject" {
                        return None;
                    }
                    by_key[at].1 = member;
                } else {
                    index.insert(key, by_key.len());
                    by_key.push((key, member));
                }
            }
            if dialect.key_order == "utf16" {
                by_key.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            } else {
                by_key.sort_by(|a, b| a.0.chars().cmp(b.0.chars()));
            }
            let mut parts = Vec::with_capacity(by_key.len());
            for (key, member) in by_key {
                parts.push(format!("{}:{}", quote(key, dialect), render_dialect(member, dialect, integers)?));
            }
            Some(format!("{{{}}}", parts.join(",")))
        }
    }
}
