//! A strict JSON parser for untrusted bytes (RFC 8259 + I-JSON, RFC 7493). serde_json accepts
//! duplicate member names (the last wins) and rounds long integers; two parties reading the same
//! bytes could then see different values, which breaks any signature or hash over them. This
//! parser refuses those inputs with the error codes every runtime reports
//! (spec/common/vectors/strict-json.json).

use serde_json::{Map, Number, Value};
use std::collections::HashSet;
use std::fmt;

/// What the strict parser refuses; `as_str` is the code every language uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StrictJsonErrorCode {
    TooLarge,
    InvalidUtf8,
    Bom,
    LoneSurrogate,
    UnexpectedEnd,
    UnexpectedCharacter,
    NonJsonLiteral,
    InvalidNumber,
    NumberOutOfRange,
    NumberNotExact,
    InvalidString,
    DuplicateKey,
    TooDeep,
    TrailingData,
}

impl StrictJsonErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TooLarge => "too-large",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::Bom => "bom",
            Self::LoneSurrogate => "lone-surrogate",
            Self::UnexpectedEnd => "unexpected-end",
            Self::UnexpectedCharacter => "unexpected-character",
            Self::NonJsonLiteral => "non-json-literal",
            Self::InvalidNumber => "invalid-number",
            Self::NumberOutOfRange => "number-out-of-range",
            Self::NumberNotExact => "number-not-exact",
            Self::InvalidString => "invalid-string",
            Self::DuplicateKey => "duplicate-key",
            Self::TooDeep => "too-deep",
            Self::TrailingData => "trailing-data",
        }
    }
}

/// A refusal: the code, the byte offset into the input, and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictJsonError {
    pub code: StrictJsonErrorCode,
    /// Byte offset into the UTF-8 input.
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for StrictJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (at offset {})", self.code.as_str(), self.message, self.offset)
    }
}

impl std::error::Error for StrictJsonError {}

/// Size and nesting limits, checked before the work they bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrictJsonLimits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects (a scalar at top level has depth 0).
    pub max_depth: usize,
}

impl StrictJsonLimits {
    pub const DEFAULT_MAX_BYTES: usize = 4 * 1024 * 1024;
    pub const DEFAULT_MAX_DEPTH: usize = 64;
}

impl Default for StrictJsonLimits {
    fn default() -> Self {
        Self { max_bytes: Self::DEFAULT_MAX_BYTES, max_depth: Self::DEFAULT_MAX_DEPTH }
    }
}

/// Parses untrusted bytes with the default limits (4 MiB, depth 64).
pub fn parse_strict_json(bytes: &[u8]) -> Result<Value, StrictJsonError> {
    parse_strict_with(bytes, StrictJsonLimits::default())
}

/// Parses untrusted bytes; every number becomes a double (as in JavaScript), stored as an integer
/// when it is one, so that canonical output and typed decoding agree with the other runtimes.
pub fn parse_strict_with(bytes: &[u8], limits: StrictJsonLimits) -> Result<Value, StrictJsonError> {
    if bytes.len() > limits.max_bytes {
        return Err(error(StrictJsonErrorCode::TooLarge, 0, format!("input is larger than {} bytes", limits.max_bytes)));
    }
    if let Err(bad) = std::str::from_utf8(bytes) {
        return Err(error(StrictJsonErrorCode::InvalidUtf8, bad.valid_up_to(), "input is not valid UTF-8".into()));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(error(StrictJsonErrorCode::Bom, 0, "input starts with a byte order mark".into()));
    }
    let mut parser = Parser { bytes, max_depth: limits.max_depth, index: 0 };
    parser.skip_whitespace();
    let value = parser.value(0)?;
    parser.skip_whitespace();
    if parser.index < bytes.len() {
        return Err(error(StrictJsonErrorCode::TrailingData, parser.index, "data after the JSON value".into()));
    }
    Ok(value)
}

fn error(code: StrictJsonErrorCode, offset: usize, message: String) -> StrictJsonError {
    StrictJsonError { code, offset, message }
}

struct Parser<'a> {
    bytes: &'a [u8],
    max_depth: usize,
    index: usize,
}

impl Parser<'_> {
    fn at(&self, position: usize) -> Option<u8> {
        self.bytes.get(position).copied()
    }

    fn fail(&self, code: StrictJsonErrorCode, offset: usize, message: &str) -> StrictJsonError {
        error(code, offset, message.to_string())
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.at(self.index), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.index += 1;
        }
    }

    /// `depth`: the number of containers already open around this value.
    fn value(&mut self, depth: usize) -> Result<Value, StrictJsonError> {
        let Some(c) = self.at(self.index) else {
            return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, self.index, "expected a value"));
        };
        match c {
            b'{' | b'[' => {
                if depth >= self.max_depth {
                    return Err(self.fail(StrictJsonErrorCode::TooDeep, self.index, &format!("nesting deeper than {}", self.max_depth)));
                }
                if c == b'{' {
                    self.object(depth)
                } else {
                    self.array(depth)
                }
            }
            b'"' => Ok(Value::String(self.string()?)),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.literal(),
        }
    }

    /// After a member or item: ',' (no trailing comma) continues, `close` ends.
    fn separator(&mut self, close: u8) -> Result<bool, StrictJsonError> {
        self.skip_whitespace();
        match self.at(self.index) {
            None => Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, self.index, "input ends inside a container")),
            Some(b',') => {
                self.index += 1;
                self.skip_whitespace();
                if matches!(self.at(self.index), Some(b']' | b'}')) {
                    return Err(self.fail(StrictJsonErrorCode::UnexpectedCharacter, self.index, "trailing comma"));
                }
                Ok(true)
            }
            Some(c) if c == close => {
                self.index += 1;
                Ok(false)
            }
            Some(_) => Err(self.fail(StrictJsonErrorCode::UnexpectedCharacter, self.index, &format!("expected ',' or '{}'", close as char))),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, StrictJsonError> {
        self.index += 1;
        self.skip_whitespace();
        let mut items = Vec::new();
        if self.at(self.index) == Some(b']') {
            self.index += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if !self.separator(b']')? {
                return Ok(Value::Array(items));
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, StrictJsonError> {
        self.index += 1;
        self.skip_whitespace();
        let mut object = Map::new();
        if self.at(self.index) == Some(b'}') {
            self.index += 1;
            return Ok(Value::Object(object));
        }
        let mut seen = HashSet::new();
        loop {
            let start = self.index;
            match self.at(self.index) {
                None => return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, self.index, "input ends inside an object")),
                Some(b'"') => {}
                Some(_) => return Err(self.fail(StrictJsonErrorCode::UnexpectedCharacter, self.index, "expected a member name")),
            }
            let key = self.string()?;
            if !seen.insert(key.clone()) {
                return Err(self.fail(StrictJsonErrorCode::DuplicateKey, start, "duplicate member name"));
            }
            self.skip_whitespace();
            match self.at(self.index) {
                None => return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, self.index, "input ends inside an object")),
                Some(b':') => self.index += 1,
                Some(_) => return Err(self.fail(StrictJsonErrorCode::UnexpectedCharacter, self.index, "expected ':'")),
            }
            self.skip_whitespace();
            let value = self.value(depth + 1)?;
            object.insert(key, value);
            if !self.separator(b'}')? {
                return Ok(Value::Object(object));
            }
        }
    }

    fn has_prefix(&self, text: &str, position: usize) -> bool {
        self.bytes.get(position..).is_some_and(|rest| rest.starts_with(text.as_bytes()))
    }

    fn literal(&mut self) -> Result<Value, StrictJsonError> {
        for (text, value) in [("true", Value::Bool(true)), ("false", Value::Bool(false)), ("null", Value::Null)] {
            if self.has_prefix(text, self.index) {
                self.index += text.len();
                return Ok(value);
            }
        }
        for text in ["NaN", "Infinity", "+Infinity", "-Infinity", "undefined", "'", "+"] {
            if self.has_prefix(text, self.index) {
                return Err(self.fail(StrictJsonErrorCode::NonJsonLiteral, self.index, "not a JSON value (NaN, Infinity, quotes or sign)"));
            }
        }
        Err(self.fail(StrictJsonErrorCode::UnexpectedCharacter, self.index, "expected a value"))
    }

    fn is_digit(&self, position: usize) -> bool {
        self.at(position).is_some_and(|c| c.is_ascii_digit())
    }

    fn number(&mut self) -> Result<Value, StrictJsonError> {
        let start = self.index;
        let mut i = start;
        if self.at(i) == Some(b'-') {
            i += 1;
            if !self.is_digit(i) {
                if self.has_prefix("Infinity", i) || self.has_prefix("NaN", i) {
                    return Err(self.fail(StrictJsonErrorCode::NonJsonLiteral, start, "not a JSON value (NaN, Infinity, quotes or sign)"));
                }
                return Err(self.fail(StrictJsonErrorCode::InvalidNumber, start, "malformed number"));
            }
        }
        if self.at(i) == Some(b'0') {
            i += 1;
        } else {
            while self.is_digit(i) {
                i += 1;
            }
        }
        let mut integral = true;
        if self.at(i) == Some(b'.') && self.is_digit(i + 1) {
            integral = false;
            i += 1;
            while self.is_digit(i) {
                i += 1;
            }
        }
        if matches!(self.at(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(self.at(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if self.is_digit(j) {
                integral = false;
                i = j;
                while self.is_digit(i) {
                    i += 1;
                }
            }
        }
        // "01", "1.", "1e" leave a digit, '.', or 'e' behind the longest valid prefix.
        if matches!(self.at(i), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) {
            return Err(self.fail(StrictJsonErrorCode::InvalidNumber, start, "malformed number"));
        }
        // The bytes were checked to be ASCII digits, signs, '.' and 'e' above.
        let literal = std::str::from_utf8(&self.bytes[start..i]).map_err(|_| self.fail(StrictJsonErrorCode::InvalidNumber, start, "malformed number"))?;
        let value: f64 = literal.parse().map_err(|_| self.fail(StrictJsonErrorCode::InvalidNumber, start, "malformed number"))?;
        if !value.is_finite() {
            return Err(self.fail(StrictJsonErrorCode::NumberOutOfRange, start, "number overflows a double"));
        }
        // I-JSON: an integer written without fraction or exponent must survive the round trip
        // through a double, or two readers may see different values. Every integer of at most
        // 15 digits is exact.
        if integral && literal.len() > 15 {
            let digits = literal.strip_prefix('-').unwrap_or(literal);
            if format!("{:.0}", value.abs()) != digits {
                return Err(self.fail(StrictJsonErrorCode::NumberNotExact, start, "integer is not exactly representable as a double"));
            }
        }
        self.index = i;
        Ok(number_value(value))
    }

    fn string(&mut self) -> Result<String, StrictJsonError> {
        let mut i = self.index + 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.at(i) else {
                return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, i, "input ends inside a string"));
            };
            if c == b'"' {
                self.index = i + 1;
                // Unescaped bytes came from valid UTF-8 input and escapes are encoded as UTF-8.
                return String::from_utf8(out).map_err(|_| self.fail(StrictJsonErrorCode::InvalidUtf8, i, "string is not valid UTF-8"));
            }
            if c < 0x20 {
                return Err(self.fail(StrictJsonErrorCode::InvalidString, i, "unescaped control character in string"));
            }
            if c != b'\\' {
                out.push(c);
                i += 1;
                continue;
            }
            let Some(escape) = self.at(i + 1) else {
                return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, i, "input ends inside a string"));
            };
            let simple = match escape {
                b'"' => Some(b'"'),
                b'\\' => Some(b'\\'),
                b'/' => Some(b'/'),
                b'b' => Some(0x08),
                b'f' => Some(0x0C),
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'u' => None,
                _ => return Err(self.fail(StrictJsonErrorCode::InvalidString, i, "invalid escape sequence")),
            };
            if let Some(byte) = simple {
                out.push(byte);
                i += 2;
                continue;
            }
            let unit = self.hex4(i + 2)?;
            let scalar = if (0xD800..=0xDBFF).contains(&unit) {
                let low = if self.at(i + 6) == Some(b'\\') && self.at(i + 7) == Some(b'u') { self.hex4(i + 8)? } else { 0 };
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.fail(StrictJsonErrorCode::LoneSurrogate, i, "escaped high surrogate without a low surrogate"));
                }
                i += 12;
                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..=0xDFFF).contains(&unit) {
                return Err(self.fail(StrictJsonErrorCode::LoneSurrogate, i, "escaped low surrogate without a high surrogate"));
            } else {
                i += 6;
                unit
            };
            let ch = char::from_u32(scalar).ok_or_else(|| self.fail(StrictJsonErrorCode::LoneSurrogate, i, "not a Unicode scalar value"))?;
            let mut buffer = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buffer).as_bytes());
        }
    }

    fn hex4(&self, position: usize) -> Result<u32, StrictJsonError> {
        let mut value = 0u32;
        for k in 0..4 {
            let Some(c) = self.at(position + k) else {
                // Only a well-formed prefix cut off by the end of input is "unexpected end".
                return Err(self.fail(StrictJsonErrorCode::UnexpectedEnd, position, "input ends inside a \\u escape"));
            };
            let digit = (c as char).to_digit(16).ok_or_else(|| self.fail(StrictJsonErrorCode::InvalidString, position, "invalid \\u escape"))?;
            value = value * 16 + digit;
        }
        Ok(value)
    }
}

/// A double as a JSON number: an integer when it is one (so that typed fields of integer type
/// decode), and -0 as 0 (JSON's data model and RFC 8785 have no negative zero).
pub fn number_value(value: f64) -> Value {
    if value == 0.0 {
        return Value::Number(Number::from(0));
    }
    // 2^63 is exactly representable; every integral double below it in magnitude fits an i64.
    if value.fract() == 0.0 && value.abs() < 9_223_372_036_854_775_808.0 {
        return Value::Number(Number::from(value as i64));
    }
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}
