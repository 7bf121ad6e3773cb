//! Replay protection behind one store interface (in memory, SQLite). A message is admitted once:
//! the guard rejects expired and not-yet-valid messages first, then atomically records its key.
//! Expiry is strict, but a record is kept until expiry plus the declared skew, so dropping it can
//! never readmit a still-valid message. The same decisions and codes as the other runtimes.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// The `x-replay` annotation (spec/meta/signing.schema.json#/$defs/Replay).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReplayDeclaration {
    /// Fields whose values together form the single-use key.
    pub key_fields: Vec<String>,
    /// Fields naming the instance the key is unique within.
    pub scope_fields: Vec<String>,
    pub expires_at_field: String,
    #[serde(default)]
    pub not_before_field: Option<String>,
    /// "rfc3339" (default) or "unix-seconds".
    #[serde(default)]
    pub time_format: Option<String>,
    pub skew_seconds: i64,
    #[serde(default)]
    pub max_lifetime_seconds: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayRejectCode {
    FieldMissing,
    InvalidTimestamp,
    Expired,
    NotYetValid,
    LifetimeExceeded,
    Replayed,
    CapacityExceeded,
    StoreUnavailable,
}

impl ReplayRejectCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FieldMissing => "field-missing",
            Self::InvalidTimestamp => "invalid-timestamp",
            Self::Expired => "expired",
            Self::NotYetValid => "not-yet-valid",
            Self::LifetimeExceeded => "lifetime-exceeded",
            Self::Replayed => "replayed",
            Self::CapacityExceeded => "capacity-exceeded",
            Self::StoreUnavailable => "store-unavailable",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayRejection {
    pub code: ReplayRejectCode,
    pub message: String,
}

impl fmt::Display for ReplayRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for ReplayRejection {}

/// What a store says of one check: new and now held, already held, or no room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayOutcome {
    Recorded,
    Replayed,
    Full,
}

/// A store that could not answer; the guard then refuses (fail closed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

/// Atomic check-and-record: the check and the write are one step, also across processes when the
/// store is shared (a SQLite file).
pub trait ReplayStore {
    /// Records (scope, key) until `retain_until_ms`, or says it is still held at `now_ms`, or full.
    fn check_and_record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, StoreError>;
    /// Drops records whose retention has passed; returns how many.
    fn evict_expired(&mut self, now_ms: i64) -> Result<usize, StoreError>;
    /// Records currently held.
    fn size(&self) -> Result<usize, StoreError>;
}

/// Admits each message once under a declaration; `now` gives epoch milliseconds.
pub struct ReplayGuard<S: ReplayStore> {
    declaration: ReplayDeclaration,
    store: S,
    now: Box<dyn Fn() -> i64 + Send>,
}

fn reject<T>(code: ReplayRejectCode, message: String) -> Result<T, ReplayRejection> {
    Err(ReplayRejection { code, message })
}

/// Epoch milliseconds now, from the system clock.
pub fn system_now_ms() -> i64 {
    let elapsed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
}

impl<S: ReplayStore> ReplayGuard<S> {
    pub fn new(declaration: ReplayDeclaration, store: S) -> Self {
        Self::with_clock(declaration, store, system_now_ms)
    }

    pub fn with_clock(declaration: ReplayDeclaration, store: S, now: impl Fn() -> i64 + Send + 'static) -> Self {
        Self { declaration, store, now: Box::new(now) }
    }

    pub fn store(&self) -> &S {
        &self.store
    }

    /// Admits the message once; run it after the signature check so forged messages leave no record.
    pub fn admit(&mut self, message: &Map<String, Value>) -> Result<(), ReplayRejection> {
        let d = &self.declaration;
        let key = join_key(&read_fields(message, &d.key_fields)?);
        let scope = join_key(&read_fields(message, &d.scope_fields)?);
        let unix = d.time_format.as_deref() == Some("unix-seconds");
        let format = if unix { "unix-seconds" } else { "rfc3339" };
        let Some(expires_field) = read_time(message.get(&d.expires_at_field), unix) else {
            return reject(ReplayRejectCode::InvalidTimestamp, format!("{} is not a {format} time", d.expires_at_field));
        };
        // Unix-seconds expiry is inclusive: valid through that second.
        let expires_at = if unix { expires_field + 1000 } else { expires_field };
        let now = (self.now)();
        let skew_ms = d.skew_seconds * 1000;
        let retain_until = expires_at + skew_ms;
        if now >= expires_at {
            return reject(ReplayRejectCode::Expired, "message has expired".into());
        }
        if let Some(field) = &d.not_before_field {
            let Some(created_at) = read_time(message.get(field), unix) else {
                return reject(ReplayRejectCode::InvalidTimestamp, format!("{field} is not a {format} time"));
            };
            if created_at > now + skew_ms {
                return reject(ReplayRejectCode::NotYetValid, "message was created in the future".into());
            }
        }
        if let Some(max) = d.max_lifetime_seconds {
            if expires_at - now > (max + d.skew_seconds) * 1000 {
                return reject(ReplayRejectCode::LifetimeExceeded, "message expires further ahead than this receiver accepts".into());
            }
        }
        match self.store.check_and_record(&scope, &key, retain_until, now) {
            Err(StoreError(why)) => reject(ReplayRejectCode::StoreUnavailable, format!("replay store did not answer: {why}")),
            Ok(ReplayOutcome::Replayed) => reject(ReplayRejectCode::Replayed, "message was already accepted".into()),
            Ok(ReplayOutcome::Full) => reject(ReplayRejectCode::CapacityExceeded, "replay store is full of unexpired records".into()),
            Ok(ReplayOutcome::Recorded) => Ok(()),
        }
    }
}

/// The declared fields' values in order, or the rejection for the first missing or empty one.
fn read_fields(message: &Map<String, Value>, fields: &[String]) -> Result<Vec<String>, ReplayRejection> {
    fields
        .iter()
        .map(|field| match message.get(field) {
            Some(Value::String(text)) if !text.is_empty() => Ok(text.clone()),
            _ => reject(ReplayRejectCode::FieldMissing, format!("{field} is missing or empty")),
        })
        .collect()
}

/// The scope and key as stored: the JSON array of the parts, as every runtime writes it, so distinct
/// tuples never give the same text and records are shared with the other languages' stores.
fn join_key(parts: &[String]) -> String {
    serde_json::to_string(parts).unwrap_or_default()
}

fn read_time(value: Option<&Value>, unix: bool) -> Option<i64> {
    if unix {
        let seconds = value?.as_i64()?;
        // JavaScript's safe integers: the other runtimes read no larger value.
        return (seconds.abs() <= 9_007_199_254_740_991).then_some(seconds * 1000);
    }
    parse_rfc3339(value?.as_str()?)
}

/// Epoch milliseconds of a strict RFC 3339 timestamp (no leap second, no space separator), or None.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let digits = |from: usize, count: usize| -> Option<i64> {
        let slice = b.get(from..from + count)?;
        slice.iter().try_fold(0i64, |acc, c| c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0')))
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    let mut i = 19;
    let mut millis = 0i64;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        let count = i - start;
        if count == 0 || count > 9 {
            return None;
        }
        // Milliseconds, truncated as JavaScript's Date.parse does.
        for k in 0..3 {
            millis = millis * 10 + if k < count { i64::from(b[start + k] - b'0') } else { 0 };
        }
    }
    let offset_minutes = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let (h, m) = (digits(i + 1, 2)?, digits(i + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            if *sign == b'+' { h * 60 + m } else { -(h * 60 + m) }
        }
        _ => return None,
    };
    if !(1..=12).contains(&month) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day < 1 || day > days_in_month {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute - offset_minutes) * 60_000 + second * 1000 + millis)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// In-memory store, bounded: when full it first evicts expired records and, if none are, refuses
/// the new message rather than forget a live one. Each scope holds at most `max_entries_per_scope`.
pub struct MemoryReplayStore {
    scopes: HashMap<String, HashMap<String, i64>>,
    total: usize,
    max_entries: usize,
    max_entries_per_scope: usize,
    next_sweep_ms: i64,
}

impl Default for MemoryReplayStore {
    fn default() -> Self {
        Self::new(100_000, None)
    }
}

impl MemoryReplayStore {
    /// `max_entries_per_scope` defaults to a tenth of `max_entries` (at least 1).
    pub fn new(max_entries: usize, max_entries_per_scope: Option<usize>) -> Self {
        let per_scope = max_entries_per_scope.unwrap_or((max_entries / 10).max(1));
        Self { scopes: HashMap::new(), total: 0, max_entries, max_entries_per_scope: per_scope, next_sweep_ms: i64::MIN }
    }

    fn over_quota(&self, scope: &str) -> bool {
        self.total >= self.max_entries || self.scopes.get(scope).map_or(0, HashMap::len) >= self.max_entries_per_scope
    }

    fn evict_now(&mut self, now_ms: i64) -> usize {
        let mut evicted = 0;
        self.scopes.retain(|_, records| {
            let before = records.len();
            records.retain(|_, until| *until > now_ms);
            evicted += before - records.len();
            !records.is_empty()
        });
        self.total -= evicted;
        evicted
    }
}

impl ReplayStore for MemoryReplayStore {
    fn check_and_record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, StoreError> {
        // The common call: a key the scope does not hold, room left, no sweep due. It hashes the
        // scope and the key once each and copies the key once; the full path below decides the
        // same for it, at the price of hashing the scope three times and copying it.
        if now_ms < self.next_sweep_ms && self.total < self.max_entries {
            if let Some(records) = self.scopes.get_mut(scope) {
                if records.len() < self.max_entries_per_scope {
                    if let std::collections::hash_map::Entry::Vacant(slot) = records.entry(key.to_string()) {
                        slot.insert(retain_until_ms);
                        self.total += 1;
                        return Ok(ReplayOutcome::Recorded);
                    }
                }
            }
        }
        let held = self.scopes.get(scope).and_then(|records| records.get(key)).copied();
        if held.is_some_and(|until| until > now_ms) {
            return Ok(ReplayOutcome::Replayed);
        }
        if held.is_none() && self.over_quota(scope) {
            self.evict_now(now_ms);
            if self.over_quota(scope) {
                return Ok(ReplayOutcome::Full);
            }
        } else if now_ms >= self.next_sweep_ms {
            // A periodic sweep keeps memory close to the live set without scanning on every call.
            self.evict_now(now_ms);
            self.next_sweep_ms = now_ms.saturating_add(60_000);
        }
        let records = self.scopes.entry(scope.to_string()).or_default();
        if records.insert(key.to_string(), retain_until_ms).is_none() {
            self.total += 1;
        }
        Ok(ReplayOutcome::Recorded)
    }

    fn evict_expired(&mut self, now_ms: i64) -> Result<usize, StoreError> {
        Ok(self.evict_now(now_ms))
    }

    fn size(&self) -> Result<usize, StoreError> {
        Ok(self.total)
    }
}
