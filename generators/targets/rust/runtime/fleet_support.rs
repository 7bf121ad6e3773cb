//! What the network-backed replay stores (Redis, PostgreSQL) share: their typed errors, the server
//! checks a fleet relies on (read again periodically and after every reconnect) and the caller's
//! clock compared with the server's. The same problems and codes as the TypeScript and Kotlin
//! stores (store-support.ts, FleetReplayStores.kt).

use crate::runtime::replay::StoreError;
use std::fmt;
use std::time::{Duration, Instant};

/// Why a fleet store refuses to record: the server (or the caller's clock) could let a replay through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreSafetyProblem {
    /// The caller's clock differs from the server's by more than the allowed skew.
    ClockSkew,
    /// Redis's maxmemory-policy is not `noeviction`: a live record could be dropped.
    MayEvict,
    /// Redis's AOF is off or its last write failed: a restart would forget records.
    NotPersistent,
    /// Fewer replicas than asked acknowledged the record (WAIT): a failover could lose it.
    NotReplicated,
    /// PostgreSQL commits do not wait for a synchronous standby, which the store was told to require.
    NoSynchronousStandby,
}

impl StoreSafetyProblem {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ClockSkew => "clock-skew",
            Self::MayEvict => "may-evict",
            Self::NotPersistent => "not-persistent",
            Self::NotReplicated => "not-replicated",
            Self::NoSynchronousStandby => "no-synchronous-standby",
        }
    }
}

/// A fleet store call that did not give an answer; the guard then refuses (store-unavailable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FleetStoreError {
    /// The server or the clock breaks a fleet requirement (fail closed until a check passes).
    Unsafe { problem: StoreSafetyProblem, message: String },
    /// No answer before the deadline (connecting included).
    Timeout { what: String, ms: u128 },
    /// The server or the connection failed.
    Server(String),
    /// The store was configured with an option it cannot honour.
    Options(String),
}

impl fmt::Display for FleetStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsafe { problem, message } => write!(f, "{}: {message}", problem.as_str()),
            Self::Timeout { what, ms } => write!(f, "{what} did not answer within {ms} ms"),
            Self::Server(message) => write!(f, "{message}"),
            Self::Options(message) => write!(f, "invalid store options: {message}"),
        }
    }
}

impl std::error::Error for FleetStoreError {}

impl From<FleetStoreError> for StoreError {
    fn from(error: FleetStoreError) -> Self {
        StoreError(error.to_string())
    }
}

impl FleetStoreError {
    /// The safety problem, when this is a refusal for one.
    pub fn problem(&self) -> Option<StoreSafetyProblem> {
        match self {
            Self::Unsafe { problem, .. } => Some(*problem),
            _ => None,
        }
    }
}

pub(crate) fn unsafe_store<T>(problem: StoreSafetyProblem, message: String) -> Result<T, FleetStoreError> {
    Err(FleetStoreError::Unsafe { problem, message })
}

/// When a store's server checks are due: first use, `interval` after the last passing run, and
/// whenever the connection changed (a reconnect may reach another server). A failed run leaves
/// them due, so the store stays refused until a run passes.
#[derive(Debug)]
pub(crate) struct PeriodicCheck {
    interval: Duration,
    passed: Option<(Instant, u64)>,
}

impl PeriodicCheck {
    pub(crate) fn new(interval: Duration) -> Self {
        Self { interval, passed: None }
    }

    pub(crate) fn due(&self, connection: u64) -> bool {
        !matches!(self.passed, Some((at, checked)) if checked == connection && at.elapsed() < self.interval)
    }

    /// A run passed on `connection`: not due again before the interval or a reconnect.
    pub(crate) fn passed(&mut self, connection: u64) {
        self.passed = Some((Instant::now(), connection));
    }

    /// A run failed (or is starting): due at once.
    pub(crate) fn forget(&mut self) {
        self.passed = None;
    }
}

/// The server's clock as last read, carried forward on the local monotonic clock. A reading taken
/// over a round trip of r ms is uncertain by r/2, which the comparison allows for.
#[derive(Debug, Default)]
pub(crate) struct ServerClock {
    reading: Option<(f64, Instant, f64)>,
}

impl ServerClock {
    /// Records a server time (epoch ms) read between the local instants `sent` and `received`.
    pub(crate) fn observe(&mut self, server_ms: f64, sent: Instant, received: Instant) {
        let round_trip = received.duration_since(sent);
        self.reading = Some((server_ms, sent + round_trip / 2, round_trip.as_secs_f64() * 500.0));
    }

    /// Refuses (clock-skew) when `caller_now_ms` is further than `max_skew_ms` from the server's clock, or it was never read.
    pub(crate) fn assert_within(&self, caller_now_ms: i64, max_skew_ms: i64, server: &str) -> Result<(), FleetStoreError> {
        let Some((server_ms, at, uncertainty_ms)) = self.reading else {
            return unsafe_store(StoreSafetyProblem::ClockSkew, format!("the {server} server's clock has not been read"));
        };
        let server_now_ms = server_ms + Instant::now().duration_since(at).as_secs_f64() * 1000.0;
        let offset_ms = caller_now_ms as f64 - server_now_ms;
        if offset_ms.abs() <= max_skew_ms as f64 + uncertainty_ms {
            return Ok(());
        }
        unsafe_store(
            StoreSafetyProblem::ClockSkew,
            format!("this replica's clock differs from the {server} server's by {} ms, more than the {max_skew_ms} ms allowed (max_clock_skew_ms): a record could expire while the message is still accepted; fix the clock (NTP)", offset_ms.round()),
        )
    }
}
