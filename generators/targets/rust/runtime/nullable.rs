//! A member that may be absent and may be null: `Option<Option<T>>`, where `None` is absent and
//! `Some(None)` is an explicit null, so that a message decoded and encoded again keeps its nulls
//! (they are signed and hashed as written).

use serde::{Deserialize, Deserializer};

/// Used with `#[serde(default, deserialize_with = ...)]`: a present member, null or not.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}
