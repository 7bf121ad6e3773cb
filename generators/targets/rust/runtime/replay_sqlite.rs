//! Durable replay store on SQLite (`rusqlite`, SQLite bundled): the same tables as the TypeScript
//! store (replay_records with trigger-kept counters), so a file is shared across languages and
//! survives a restart. The check and the write run in one IMMEDIATE transaction, so two processes
//! sharing the file cannot both admit a message.

use crate::runtime::replay::{ReplayOutcome, ReplayStore, StoreError};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS replay_records (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS replay_records_retain ON replay_records (retain_until_ms);
CREATE TABLE IF NOT EXISTS replay_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
INSERT OR IGNORE INTO replay_count (id, n) SELECT 1, COUNT(*) FROM replay_records;
CREATE TRIGGER IF NOT EXISTS replay_records_added AFTER INSERT ON replay_records BEGIN UPDATE replay_count SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS replay_records_removed AFTER DELETE ON replay_records BEGIN UPDATE replay_count SET n = n - 1 WHERE id = 1; END;
CREATE TABLE IF NOT EXISTS replay_scope_count (scope TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO replay_scope_count (scope, n) SELECT scope, COUNT(*) FROM replay_records GROUP BY scope;
CREATE TRIGGER IF NOT EXISTS replay_scope_added AFTER INSERT ON replay_records BEGIN INSERT INTO replay_scope_count (scope, n) VALUES (NEW.scope, 1) ON CONFLICT (scope) DO UPDATE SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS replay_scope_removed AFTER DELETE ON replay_records BEGIN UPDATE replay_scope_count SET n = n - 1 WHERE scope = OLD.scope; DELETE FROM replay_scope_count WHERE scope = OLD.scope AND n <= 0; END;";

/// A held record blocks the insert unless its retention has passed, in which case it is reused.
const UPSERT: &str = "INSERT INTO replay_records (scope, key, retain_until_ms) VALUES (?1, ?2, ?3) ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = excluded.retain_until_ms WHERE replay_records.retain_until_ms <= ?4";

pub struct SqliteReplayStore {
    connection: Connection,
    max_entries: i64,
    max_entries_per_scope: i64,
}

fn store_error(error: rusqlite::Error) -> StoreError {
    StoreError(error.to_string())
}

impl SqliteReplayStore {
    /// Opens (creating if needed) the store at `path` with the default bounds (1 000 000 records,
    /// a tenth of them per scope); ":memory:" gives a non-durable store.
    pub fn open(path: &str) -> Result<Self, StoreError> {
        Self::open_with(path, 1_000_000, None)
    }

    pub fn open_with(path: &str, max_entries: i64, max_entries_per_scope: Option<i64>) -> Result<Self, StoreError> {
        let connection = Connection::open(path).map_err(store_error)?;
        connection.busy_timeout(std::time::Duration::from_secs(5)).map_err(store_error)?;
        connection.pragma_update(None, "journal_mode", "WAL").map_err(store_error)?;
        connection.pragma_update(None, "synchronous", "NORMAL").map_err(store_error)?;
        connection.execute_batch(SCHEMA).map_err(store_error)?;
        let per_scope = max_entries_per_scope.unwrap_or((max_entries / 10).max(1));
        Ok(Self { connection, max_entries, max_entries_per_scope: per_scope })
    }
}

impl ReplayStore for SqliteReplayStore {
    fn check_and_record(&mut self, scope: &str, key: &str, retain_until_ms: i64, now_ms: i64) -> Result<ReplayOutcome, StoreError> {
        let (max_entries, max_per_scope) = (self.max_entries, self.max_entries_per_scope);
        let tx = self.connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(store_error)?;
        let full = |tx: &rusqlite::Transaction<'_>| -> Result<bool, StoreError> {
            let total: i64 = tx.query_row("SELECT n FROM replay_count WHERE id = 1", [], |row| row.get(0)).optional().map_err(store_error)?.unwrap_or(0);
            let in_scope: i64 = tx.query_row("SELECT n FROM replay_scope_count WHERE scope = ?1", [scope], |row| row.get(0)).optional().map_err(store_error)?.unwrap_or(0);
            Ok(total >= max_entries || in_scope >= max_per_scope)
        };
        if full(&tx)? {
            // Full, possibly of expired rows: evict, then decide. A held row is reused, not added.
            tx.execute("DELETE FROM replay_records WHERE retain_until_ms <= ?1", [now_ms]).map_err(store_error)?;
            let held = tx.query_row("SELECT 1 FROM replay_records WHERE scope = ?1 AND key = ?2", [scope, key], |_| Ok(())).optional().map_err(store_error)?;
            if full(&tx)? && held.is_none() {
                tx.commit().map_err(store_error)?;
                return Ok(ReplayOutcome::Full);
            }
        }
        let changed = tx.execute(UPSERT, params![scope, key, retain_until_ms, now_ms]).map_err(store_error)?;
        tx.commit().map_err(store_error)?;
        Ok(if changed == 1 { ReplayOutcome::Recorded } else { ReplayOutcome::Replayed })
    }

    fn evict_expired(&mut self, now_ms: i64) -> Result<usize, StoreError> {
        self.connection.execute("DELETE FROM replay_records WHERE retain_until_ms <= ?1", [now_ms]).map_err(store_error)
    }

    fn size(&self) -> Result<usize, StoreError> {
        let n: i64 = self.connection.query_row("SELECT n FROM replay_count WHERE id = 1", [], |row| row.get(0)).map_err(store_error)?;
        Ok(usize::try_from(n).unwrap_or(0))
    }
}
