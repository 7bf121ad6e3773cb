//! Replay store on PostgreSQL (cargo feature `postgres`: `tokio-postgres` driven by a
//! current-thread tokio runtime the store owns, so that every statement, connecting included, has
//! a deadline), for receivers that run on more than one machine. The table, its digest keys and
//! its statements are the TypeScript and Kotlin stores' (replay-postgres.ts), so a fleet may mix
//! languages on one table. A new key costs one statement:
//!   INSERT ... ON CONFLICT DO NOTHING          -- row count 1: recorded
//! Only when that conflicts does a second statement decide, atomically on its own:
//!   INSERT ... ON CONFLICT (id) DO UPDATE ... WHERE retain_until_ms <= <the server's clock>
//! A held key updates nothing (replayed); a key whose retention is over but whose row is not yet
//! deleted is taken over (recorded). Concurrent statements on one key serialise on its row lock.
//!
//! One clock decides expiry: the take-over and the sweep compare the stored absolute retain-until
//! with the server's clock_timestamp(), never a replica's. The replica's own clock still decides
//! whether a message has expired (the guard), so the store reads the server's clock at first use,
//! after a reconnect and every `check_interval`, and refuses (clock-skew) while the caller's clock
//! differs from it by more than `max_clock_skew_ms`.
//!
//! The primary key is a fixed-size digest, SHA-256 of the scope's UTF-8 length (8 bytes, big
//! endian), the scope and the key, so a key of any length or content (3000 characters, U+0000) is
//! stored like any other; the original pair is kept as JSON text for diagnostics. Across a failover
//! a record survives only if its commit waited for the standby: `require_synchronous_standby`
//! refuses while synchronous_commit is off or local, or no synchronous standby is named.

use crate::runtime::crypto::sha256;
use crate::runtime::fleet_support::{unsafe_store, FleetStoreError, PeriodicCheck, ServerClock, StoreSafetyProblem};
use crate::runtime::replay::{ReplayOutcome, ReplayStore, StoreError};
use std::future::Future;
use std::time::{Duration, Instant};
use tokio_postgres::{Client, NoTls, Statement};

/// The server's clock in epoch milliseconds: every expiry comparison uses it.
const SERVER_NOW_MS: &str = "floor(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// The advisory lock key migrations hold (the TypeScript and Kotlin stores' too).
pub const MIGRATION_LOCK: i64 = 7_241_000_001;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostgresReplayStoreOptions {
    /// Table name, optionally schema-qualified.
    pub table: String,
    /// Create (or convert) the table on first use; false: run `migration_sql` yourself.
    pub migrate: bool,
    /// Deadline of every statement, connecting included (also sent as statement_timeout).
    pub timeout: Duration,
    /// How often, at most, expired rows are deleted in passing.
    pub sweep_interval_ms: i64,
    /// Largest number of expired rows one sweep deletes.
    pub sweep_batch: i64,
    /// How often the server's clock (and synchronous commit, when required) is read again.
    pub check_interval: Duration,
    /// Largest accepted difference between the caller's clock and the server's; at most the declared skew.
    pub max_clock_skew_ms: i64,
    /// Refuse unless commits wait for a synchronous standby.
    pub require_synchronous_standby: bool,
}

impl Default for PostgresReplayStoreOptions {
    fn default() -> Self {
        Self {
            table: "agent_contracts_replay".into(),
            migrate: true,
            timeout: Duration::from_millis(2000),
            sweep_interval_ms: 60_000,
            sweep_batch: 10_000,
            check_interval: Duration::from_millis(5000),
            max_clock_skew_ms: 1000,
            require_synchronous_standby: false,
        }
    }
}

struct Connected {
    client: Client,
    insert: Statement,
    take_over: Statement,
}

pub struct PostgresReplayStore {
    runtime: tokio::runtime::Runtime,
    config: tokio_postgres::Config,
    connected: Option<Connected>,
    generation: u64,
    options: PostgresReplayStoreOptions,
    migration: String,
    clock: ServerClock,
    checks: PeriodicCheck,
    next_sweep_ms: i64,
}

fn valid_table(table: &str) -> bool {
    let part = |p: &str| !p.is_empty() && p.len() <= 63 && p.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    match table.split_once('.') {
        Some((schema, name)) => part(schema) && part(name),
        None => part(table),
    }
}

/// `future` on `runtime`, or a Timeout after `timeout`.
fn deadline<T>(runtime: &tokio::runtime::Runtime, timeout: Duration, what: &str, future: impl Future<Output = Result<T, tokio_postgres::Error>>) -> Result<T, FleetStoreError> {
    match runtime.block_on(async { tokio::time::timeout(timeout, future).await }) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(FleetStoreError::Server(format!("postgres {what}: {error}"))),
        Err(_) => Err(FleetStoreError::Timeout { what: format!("postgres {what}"), ms: timeout.as_millis() }),
    }
}

impl PostgresReplayStore {
    /// A store on the server at `url` (`postgresql://user@host:port/db` or key=value form); it connects on first use.
    pub fn open(url: &str, options: PostgresReplayStoreOptions) -> Result<Self, FleetStoreError> {
        let migration = Self::migration_sql(&options.table)?;
        if options.timeout.is_zero() || options.sweep_batch <= 0 {
            return Err(FleetStoreError::Options("timeout and sweep_batch must be positive".into()));
        }
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| FleetStoreError::Options(format!("postgres url: {e}")))?;
        config.connect_timeout(options.timeout);
        config.options(format!("-c statement_timeout={}", options.timeout.as_millis()));
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| FleetStoreError::Server(format!("tokio runtime: {e}")))?;
        let checks = PeriodicCheck::new(options.check_interval);
        Ok(Self { runtime, config, connected: None, generation: 0, options, migration, clock: ServerClock::default(), checks, next_sweep_ms: i64::MIN })
    }

    /// The migration the store applies (`migrate: true`) or that you run yourself. A table of the
    /// earlier layout (PRIMARY KEY (scope, key)) is converted in place, its records kept under their digests.
    pub fn migration_sql(table: &str) -> Result<String, FleetStoreError> {
        if !valid_table(table) {
            return Err(FleetStoreError::Options(format!("table must be a lower-case SQL identifier, optionally schema-qualified: {table:?}")));
        }
        let index = format!("{}_retain_until_idx", table.rsplit('.').next().unwrap_or(table));
        // One simple-protocol query, so one transaction: the advisory lock taken first is held to the
        // end, and replicas starting together do not race CREATE TABLE IF NOT EXISTS.
        Ok([
            format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK});"),
            format!(
                "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('{table}') AND attname = 'scope' AND NOT attisdropped) THEN \
                 ALTER TABLE {table} ADD COLUMN id bytea, ADD COLUMN original text; \
                 UPDATE {table} SET id = sha256(int8send(octet_length(convert_to(scope, 'UTF8'))::bigint) || convert_to(scope, 'UTF8') || convert_to(key, 'UTF8')), original = json_build_array(scope, key)::text; \
                 EXECUTE format('ALTER TABLE {table} DROP CONSTRAINT %I', (SELECT conname FROM pg_constraint WHERE conrelid = to_regclass('{table}') AND contype = 'p')); \
                 ALTER TABLE {table} DROP COLUMN scope, DROP COLUMN key, ALTER COLUMN id SET NOT NULL, ALTER COLUMN original SET NOT NULL, ADD PRIMARY KEY (id); \
                 END IF; END $$;"
            ),
            format!("CREATE TABLE IF NOT EXISTS {table} (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL);"),
            format!("CREATE INDEX IF NOT EXISTS {index} ON {table} (retain_until_ms);"),
        ]
        .join("\n"))
    }

    /// The primary key of (scope, key): SHA-256 of the scope's UTF-8 byte length (8 bytes, big endian), the scope and the key.
    pub fn record_id(scope: &str, key: &str) -> [u8; 32] {
        let mut bytes = Vec::with_capacity(8 + scope.len() + key.len());
        bytes.extend_from_slice(&(scope.len() as u64).to_be_bytes());
        bytes.extend_from_slice(scope.as_bytes());
        bytes.extend_from_slice(key.as_bytes());
        sha256(&bytes)
    }

    /// The pair as kept for diagnostics: a JSON array, as JSON.stringify writes it (U+0000 escaped).
    pub fn original(scope: &str, key: &str) -> String {
        serde_json::to_string(&[scope, key]).unwrap_or_default()
    }

    fn connect(&mut self) -> Result<(), FleetStoreError> {
        if self.connected.as_ref().is_some_and(|c| !c.client.is_closed()) {
            return Ok(());
        }
        self.connected = None;
        let timeout = self.options.timeout;
        let (client, connection) = deadline(&self.runtime, timeout, "connect", self.config.connect(NoTls))?;
        // The connection task runs whenever the runtime is driven, i.e. inside each deadline() call.
        self.runtime.spawn(async move {
            let _ = connection.await;
        });
        if self.options.migrate {
            deadline(&self.runtime, timeout, "migration", client.batch_execute(&self.migration))?;
        }
        let table = &self.options.table;
        let insert = deadline(&self.runtime, timeout, "prepare", client.prepare(&format!("INSERT INTO {table} (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")))?;
        let take_over = deadline(
            &self.runtime,
            timeout,
            "prepare",
            client.prepare(&format!(
                "INSERT INTO {table} (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original, retain_until_ms = EXCLUDED.retain_until_ms WHERE {table}.retain_until_ms <= {SERVER_NOW_MS}"
            )),
        )?;
        self.connected = Some(Connected { client, insert, take_over });
        self.generation += 1;
        Ok(())
    }

    /// Runs `work` on the connection (connecting first); a failure that closed it is forgotten, so the next call reconnects.
    fn with_client<T>(&mut self, work: impl FnOnce(&tokio::runtime::Runtime, &Connected, Duration) -> Result<T, FleetStoreError>) -> Result<T, FleetStoreError> {
        self.connect()?;
        let connected = self.connected.as_ref().expect("connected above");
        let result = work(&self.runtime, connected, self.options.timeout);
        if result.is_err() && (connected.client.is_closed() || matches!(result, Err(FleetStoreError::Timeout { .. }))) {
            self.connected = None;
        }
        result
    }

    /// Reads the server's clock (and, when required, its synchronous commit settings); refuses while they break the fleet requirements.
    fn check_server(&mut self) -> Result<(), FleetStoreError> {
        let (commit_mode, standbys): (String, String) = self.with_client(|runtime, c, timeout| {
            let row = deadline(runtime, timeout, "settings", c.client.query_one("SELECT current_setting('synchronous_commit'), current_setting('synchronous_standby_names')", &[]))?;
            Ok((row.get(0), row.get(1)))
        })?;
        // The clock alone, over an open connection: the reading's uncertainty is half its own round trip.
        let sent = Instant::now();
        let server_ms: i64 = self.with_client(|runtime, c, timeout| Ok(deadline(runtime, timeout, "clock", c.client.query_one(&format!("SELECT {SERVER_NOW_MS}"), &[]))?.get(0)))?;
        self.clock.observe(server_ms as f64, sent, Instant::now());
        if self.options.require_synchronous_standby && (!["on", "remote_write", "remote_apply"].contains(&commit_mode.as_str()) || standbys.trim().is_empty()) {
            return unsafe_store(
                StoreSafetyProblem::NoSynchronousStandby,
                format!("postgres commits do not wait for a synchronous standby (synchronous_commit {commit_mode}, synchronous_standby_names \"{standbys}\"): a failover could lose acknowledged records"),
            );
        }
        Ok(())
    }

    /// Records (scope, key) until `retain_until_ms` (compared with the server's clock), or says it is held.
    pub fn record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, FleetStoreError> {
        self.connect()?;
        if self.checks.due(self.generation) {
            self.checks.forget();
            self.check_server()?;
            self.checks.passed(self.generation);
        }
        self.clock.assert_within(now_ms, self.options.max_clock_skew_ms, "PostgreSQL")?;
        if now_ms >= self.next_sweep_ms {
            self.next_sweep_ms = now_ms.saturating_add(self.options.sweep_interval_ms);
            // The check stays correct without it (an expired row is taken over in the INSERT itself);
            // a failed sweep waits for the next interval, and the check below reports the server.
            let _ = self.sweep();
        }
        let id = Self::record_id(scope, key);
        let original = Self::original(scope, key);
        self.with_client(|runtime, c, timeout| {
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&id.as_slice(), &original, &retain_until_ms];
            if deadline(runtime, timeout, "insert", c.client.execute(&c.insert, &params))? == 1 {
                return Ok(ReplayOutcome::Recorded);
            }
            let taken_over = deadline(runtime, timeout, "take-over", c.client.execute(&c.take_over, &params))?;
            Ok(if taken_over == 1 { ReplayOutcome::Recorded } else { ReplayOutcome::Replayed })
        })
    }

    /// Deletes one bounded batch of rows expired on the server's clock; how many.
    pub fn sweep(&mut self) -> Result<usize, FleetStoreError> {
        let table = self.options.table.clone();
        let batch = self.options.sweep_batch;
        let sql = format!("DELETE FROM {table} WHERE ctid = ANY (ARRAY (SELECT ctid FROM {table} WHERE retain_until_ms <= {SERVER_NOW_MS} LIMIT $1))");
        let deleted = self.with_client(|runtime, c, timeout| deadline(runtime, timeout, "sweep", c.client.execute(&sql, &[&batch])))?;
        Ok(usize::try_from(deleted).unwrap_or(usize::MAX))
    }

    /// Rows in the table (live and not yet swept).
    pub fn count(&mut self) -> Result<usize, FleetStoreError> {
        let sql = format!("SELECT count(*)::bigint FROM {}", self.options.table);
        let n: i64 = self.with_client(|runtime, c, timeout| Ok(deadline(runtime, timeout, "count", c.client.query_one(&sql, &[]))?.get(0)))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }
}

impl ReplayStore for PostgresReplayStore {
    fn check_and_record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, StoreError> {
        Ok(self.record(scope, key, retain_until_ms, now_ms)?)
    }

    /// One bounded batch of rows expired on the server's clock (`_now_ms`, the caller's, is not used).
    fn evict_expired(&mut self, _now_ms: i64) -> Result<usize, StoreError> {
        Ok(self.sweep()?)
    }

    /// Rows currently held, when connected (the trait's `&self` cannot open a connection): call `count()`.
    fn size(&self) -> Result<usize, StoreError> {
        let Some(c) = &self.connected else {
            return Err(StoreError("postgres store not connected yet: call count()".into()));
        };
        let sql = format!("SELECT count(*)::bigint FROM {}", self.options.table);
        let n: i64 = deadline(&self.runtime, self.options.timeout, "count", c.client.query_one(&sql, &[]))?.get(0);
        Ok(usize::try_from(n).unwrap_or(0))
    }
}
