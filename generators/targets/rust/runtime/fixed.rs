//! Members the schema fixes with `const`: decoded as their plain type, refused when the value differs.

use serde::de::{Deserialize, Deserializer, Error};

pub fn string<'de, D: Deserializer<'de>>(deserializer: D, expected: &str) -> Result<String, D::Error> {
    let value = String::deserialize(deserializer)?;
    if value == expected {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("expected the constant {expected:?}, got {value:?}")))
    }
}

pub fn boolean<'de, D: Deserializer<'de>>(deserializer: D, expected: bool) -> Result<bool, D::Error> {
    let value = bool::deserialize(deserializer)?;
    if value == expected {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("expected the constant {expected}, got {value}")))
    }
}

pub fn integer<'de, D: Deserializer<'de>>(deserializer: D, expected: i64) -> Result<i64, D::Error> {
    let value = i64::deserialize(deserializer)?;
    if value == expected {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("expected the constant {expected}, got {value}")))
    }
}
