//! Replay store on Redis (cargo feature `redis`, the `redis` crate's synchronous connection), for
//! receivers that run on more than one machine. One `SET key 1 NX PXAT retain-until` per check is
//! the atomic check-and-record: Redis runs each command alone, so of any number of replicas racing
//! one key exactly one gets "OK". The key expires by itself at the record's absolute retain-until
//! on the server's clock (PXAT, not a TTL from the recording replica's clock), so nothing needs
//! sweeping and a replica with a fast clock cannot shorten a record. The key layout is the
//! TypeScript and Kotlin stores', so a fleet may mix languages on one server.
//!
//! What a record survives depends on the server, so the store checks it at first use, after every
//! reconnect and every `check_interval`, and refuses (FleetStoreError::Unsafe, fail closed) while:
//!   - eviction: the maxmemory-policy is not `noeviction` (any other policy may drop a live record);
//!     with `noeviction` a full server answers OOM, which the store reports as full;
//!   - persistence: the AOF is off or its last write failed (a restart would forget records);
//!   - the clock: the caller's clock differs from the server's (TIME) by more than
//!     `max_clock_skew_ms`: a replica whose clock is behind would still accept a message whose
//!     record the server has already expired.
//!
//! Failover: replication is asynchronous; with `wait_for_replicas` each new record is acknowledged
//! only once that many replicas hold it (WAIT), so a promoted replica has it. Every call has a
//! deadline (connect, read and write timeouts); after any failed call the connection is dropped,
//! and the next call reconnects and checks the server again.

use crate::runtime::fleet_support::{unsafe_store, FleetStoreError, PeriodicCheck, ServerClock, StoreSafetyProblem};
use crate::runtime::replay::{ReplayOutcome, ReplayStore, StoreError};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::time::{Duration, Instant};

pub const DEFAULT_REDIS_KEY_PREFIX: &str = "agent-contracts:replay:";

/// WAIT after each new record: `replicas` must acknowledge it within `timeout` (below the command deadline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitForReplicas {
    pub replicas: u32,
    pub timeout: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisReplayStoreOptions {
    /// Prepended to every key, so several stores can share a server.
    pub key_prefix: String,
    /// Deadline of every command, connecting included.
    pub timeout: Duration,
    /// Refuse servers whose eviction policy could drop live records.
    pub check_eviction_policy: bool,
    /// Refuse servers without AOF persistence, or whose last AOF write failed.
    pub check_persistence: bool,
    /// How often the server's settings and clock are read again (also after every reconnect).
    pub check_interval: Duration,
    /// Largest accepted difference between the caller's clock and the server's; at most the declared skew.
    pub max_clock_skew_ms: i64,
    pub wait_for_replicas: Option<WaitForReplicas>,
}

impl Default for RedisReplayStoreOptions {
    fn default() -> Self {
        Self {
            key_prefix: DEFAULT_REDIS_KEY_PREFIX.to_string(),
            timeout: Duration::from_millis(2000),
            check_eviction_policy: true,
            check_persistence: true,
            check_interval: Duration::from_millis(5000),
            max_clock_skew_ms: 1000,
            wait_for_replicas: None,
        }
    }
}

pub struct RedisReplayStore {
    client: redis::Client,
    connection: Option<redis::Connection>,
    /// Counts connections opened; the server checks run again on each new one.
    generation: u64,
    options: RedisReplayStoreOptions,
    clock: ServerClock,
    checks: PeriodicCheck,
}

fn server_error(what: &str, error: &redis::RedisError, timeout: Duration) -> FleetStoreError {
    if error.is_timeout() {
        FleetStoreError::Timeout { what: format!("redis {what}"), ms: timeout.as_millis() }
    } else {
        FleetStoreError::Server(format!("redis {what}: {error}"))
    }
}

impl RedisReplayStore {
    /// A store on the server at `url` (`redis://host:port/db`); it connects on first use.
    pub fn open(url: &str, options: RedisReplayStoreOptions) -> Result<Self, FleetStoreError> {
        if options.timeout.is_zero() {
            return Err(FleetStoreError::Options("timeout must be positive".into()));
        }
        if let Some(wait) = options.wait_for_replicas {
            if wait.replicas == 0 || wait.timeout.is_zero() || wait.timeout >= options.timeout {
                return Err(FleetStoreError::Options("wait_for_replicas needs replicas > 0 and a positive timeout below the command deadline (timeout)".into()));
            }
        }
        let client = redis::Client::open(url).map_err(|e| FleetStoreError::Options(format!("redis url: {e}")))?;
        let checks = PeriodicCheck::new(options.check_interval);
        Ok(Self { client, connection: None, generation: 0, options, clock: ServerClock::default(), checks })
    }

    /// The Redis key of (scope, key): the scope in a hash tag (one cluster shard per scope),
    /// base64url (no braces, no ":") so distinct pairs never share a key, of any length and content.
    pub fn redis_key(&self, scope: &str, key: &str) -> String {
        format!("{}{{{}}}:{}", self.options.key_prefix, URL_SAFE_NO_PAD.encode(scope), URL_SAFE_NO_PAD.encode(key))
    }

    /// Runs one command with the store's deadline, connecting first if needed; a failure other
    /// than the server's own answer (OOM, a wrong type) drops the connection.
    fn raw_command<T: redis::FromRedisValue>(&mut self, command: &redis::Cmd) -> Result<T, redis::RedisError> {
        if self.connection.is_none() {
            self.connection = Some(connect(&self.client, self.options.timeout)?);
            self.generation += 1;
        }
        let connection = self.connection.as_mut().expect("connected above");
        let result = command.query::<T>(connection);
        if result.as_ref().is_err_and(|error| error.code().is_none()) {
            self.connection = None;
        }
        result
    }

    fn command<T: redis::FromRedisValue>(&mut self, what: &str, command: &redis::Cmd) -> Result<T, FleetStoreError> {
        self.raw_command(command).map_err(|e| server_error(what, &e, self.options.timeout))
    }

    /// Connects when needed and runs the server checks when due.
    fn ensure_checked(&mut self) -> Result<(), FleetStoreError> {
        if self.connection.is_none() {
            self.command::<String>("PING", &redis::cmd("PING"))?;
        }
        if self.checks.due(self.generation) {
            self.checks.forget();
            self.check_server()?;
            self.checks.passed(self.generation);
        }
        Ok(())
    }

    /// Reads the server's eviction policy, persistence and clock; refuses while one breaks the fleet requirements.
    fn check_server(&mut self) -> Result<(), FleetStoreError> {
        let memory = if self.options.check_eviction_policy { Some(self.command::<String>("INFO", redis::cmd("INFO").arg("memory"))?) } else { None };
        let persistence = if self.options.check_persistence { Some(self.command::<String>("INFO", redis::cmd("INFO").arg("persistence"))?) } else { None };
        // TIME alone, over a connection already open: the reading's uncertainty is half its own round trip.
        let sent = Instant::now();
        let (seconds, micros): (i64, i64) = self.command("TIME", &redis::cmd("TIME"))?;
        self.clock.observe(seconds as f64 * 1000.0 + micros as f64 / 1000.0, sent, Instant::now());
        if let Some(memory) = memory {
            let policy = info_field(&memory, "maxmemory_policy").unwrap_or("unknown");
            if policy != "noeviction" {
                return unsafe_store(StoreSafetyProblem::MayEvict, format!("redis may evict keys (maxmemory-policy {policy}): live replay records could be dropped; set maxmemory-policy noeviction"));
            }
        }
        if let Some(persistence) = persistence {
            if info_field(&persistence, "aof_enabled") != Some("1") || info_field(&persistence, "aof_last_write_status") != Some("ok") {
                return unsafe_store(StoreSafetyProblem::NotPersistent, "redis is not persisting records (appendonly no, or the last AOF write failed): a restart would forget them; set appendonly yes (appendfsync always)".into());
            }
        }
        Ok(())
    }

    /// Records (scope, key) until `retain_until_ms` (epoch ms, on the server's clock), or says it is held.
    pub fn record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, FleetStoreError> {
        self.ensure_checked()?;
        self.clock.assert_within(now_ms, self.options.max_clock_skew_ms, "Redis")?;
        let redis_key = self.redis_key(scope, key);
        let set = redis::cmd("SET").arg(redis_key).arg("1").arg("NX").arg("PXAT").arg(retain_until_ms.max(1)).clone();
        let reply: Option<String> = match self.raw_command(&set) {
            Ok(reply) => reply,
            // With `noeviction`, a server at its memory limit refuses writes: no room without dropping a live record.
            Err(error) if error.code() == Some("OOM") => return Ok(ReplayOutcome::Full),
            Err(error) => return Err(server_error("SET", &error, self.options.timeout)),
        };
        if reply.is_none() {
            return Ok(ReplayOutcome::Replayed);
        }
        if let Some(wait) = self.options.wait_for_replicas {
            let acknowledged: i64 = self.command("WAIT", redis::cmd("WAIT").arg(wait.replicas).arg(wait.timeout.as_millis() as u64))?;
            if acknowledged < i64::from(wait.replicas) {
                return unsafe_store(
                    StoreSafetyProblem::NotReplicated,
                    format!("redis WAIT: {acknowledged} of {} replicas acknowledged the record within {} ms; a failover could lose it", wait.replicas, wait.timeout.as_millis()),
                );
            }
        }
        Ok(ReplayOutcome::Recorded)
    }

    /// Live records under this store's prefix (a SCAN over a connection of its own: linear in the
    /// keys, for tests and monitoring).
    pub fn count(&self) -> Result<usize, FleetStoreError> {
        let timeout = self.options.timeout;
        let mut connection = connect(&self.client, timeout).map_err(|e| server_error("connect", &e, timeout))?;
        let pattern = format!("{}*", escape_glob(&self.options.key_prefix));
        let mut cursor = 0u64;
        let mut total = 0;
        loop {
            let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN").arg(cursor).arg("MATCH").arg(&pattern).arg("COUNT").arg(1000).query(&mut connection).map_err(|e| server_error("SCAN", &e, timeout))?;
            total += keys.len();
            if next == 0 {
                return Ok(total);
            }
            cursor = next;
        }
    }
}

/// A connection whose connect, reads and writes all have the deadline `timeout`.
fn connect(client: &redis::Client, timeout: Duration) -> Result<redis::Connection, redis::RedisError> {
    let connection = client.get_connection_with_timeout(timeout)?;
    connection.set_read_timeout(Some(timeout))?;
    connection.set_write_timeout(Some(timeout))?;
    Ok(connection)
}

impl ReplayStore for RedisReplayStore {
    fn check_and_record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, StoreError> {
        Ok(self.record(scope, key, retain_until_ms, now_ms)?)
    }

    /// Redis expires records itself at their retain-until.
    fn evict_expired(&mut self, _now_ms: i64) -> Result<usize, StoreError> {
        Ok(0)
    }

    fn size(&self) -> Result<usize, StoreError> {
        Ok(self.count()?)
    }
}

/// A `name:value` line of an INFO reply.
fn info_field<'a>(info: &'a str, name: &str) -> Option<&'a str> {
    info.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(':')).map(str::trim)
}

fn escape_glob(text: &str) -> String {
    text.chars().fold(String::new(), |mut out, c| {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
        out
    })
}
