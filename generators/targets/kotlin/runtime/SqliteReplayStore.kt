package dev.agentcontracts.runtime

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.sql.Connection
import java.sql.DriverManager
import java.sql.SQLException

/**
 * The durable replay store's SQL, shared by every SQLite binding: the TypeScript runtime's
 * replay-sqlite.ts writes the same tables, so one database file is readable by both. An Android
 * app implements [ReplayStore] over `android.database.sqlite.SQLiteDatabase` with these
 * statements (execSQL for [SCHEMA], `beginTransactionNonExclusive()` for the write lock,
 * `compileStatement(...).executeUpdateDelete()` for [UPSERT]); the JVM uses [SqliteReplayStore].
 */
object SqliteReplaySchema {
    /** Tables, indexes and the triggers that keep the capacity counters O(1) (COUNT(*) scans). */
    val SCHEMA: List<String> = listOf(
        "CREATE TABLE IF NOT EXISTS replay_records (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID",
        "CREATE INDEX IF NOT EXISTS replay_records_retain ON replay_records (retain_until_ms)",
        "CREATE TABLE IF NOT EXISTS replay_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)",
        "INSERT OR IGNORE INTO replay_count (id, n) SELECT 1, COUNT(*) FROM replay_records",
        "CREATE TRIGGER IF NOT EXISTS replay_records_added AFTER INSERT ON replay_records BEGIN UPDATE replay_count SET n = n + 1 WHERE id = 1; END",
        "CREATE TRIGGER IF NOT EXISTS replay_records_removed AFTER DELETE ON replay_records BEGIN UPDATE replay_count SET n = n - 1 WHERE id = 1; END",
        "CREATE TABLE IF NOT EXISTS replay_scope_count (scope TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID",
        "INSERT OR IGNORE INTO replay_scope_count (scope, n) SELECT scope, COUNT(*) FROM replay_records GROUP BY scope",
        "CREATE TRIGGER IF NOT EXISTS replay_scope_added AFTER INSERT ON replay_records BEGIN " +
            "INSERT INTO replay_scope_count (scope, n) VALUES (NEW.scope, 1) ON CONFLICT (scope) DO UPDATE SET n = n + 1; END",
        "CREATE TRIGGER IF NOT EXISTS replay_scope_removed AFTER DELETE ON replay_records BEGIN " +
            "UPDATE replay_scope_count SET n = n - 1 WHERE scope = OLD.scope; DELETE FROM replay_scope_count WHERE scope = OLD.scope AND n <= 0; END",
    )

    /** (scope, key, retainUntilMs, nowMs): a held record blocks the insert unless its retention has passed; 1 row changed = recorded. */
    const val UPSERT = "INSERT INTO replay_records (scope, key, retain_until_ms) VALUES (?, ?, ?) " +
        "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = excluded.retain_until_ms WHERE replay_records.retain_until_ms <= ?"
    const val COUNT = "SELECT n FROM replay_count WHERE id = 1"
    const val SCOPE_COUNT = "SELECT n FROM replay_scope_count WHERE scope = ?"
    const val HELD = "SELECT 1 FROM replay_records WHERE scope = ? AND key = ?"
    const val EVICT = "DELETE FROM replay_records WHERE retain_until_ms <= ?"
}

/** SQLite `synchronous` level: what an acknowledged record survives. */
enum class SqliteDurability {
    /** Survives a crash or kill of the process (WAL commit = handed to the OS); a power cut may drop the last records. */
    NORMAL,

    /** Also survives power loss, at one fsync per record. */
    FULL,
}

/**
 * Durable replay store on SQLite through JDBC (org.xerial:sqlite-jdbc, an optional dependency:
 * add it to your build). A record admitted before the process is killed stays rejected after a
 * restart: each check-and-record is one `BEGIN IMMEDIATE` transaction (the write lock first, so two
 * processes sharing the file cannot both pass) committed to the WAL before the answer returns.
 * Bounded like [InMemoryReplayStore]: past [maxEntries] (or a scope's [maxEntriesPerScope]) it
 * evicts expired records and otherwise answers FULL, never forgetting a live one.
 * One connection, used under a lock on the IO dispatcher; [close] it when done.
 */
class SqliteReplayStore(
    path: String,
    private val maxEntries: Int = 1_000_000,
    private val maxEntriesPerScope: Int = maxOf(1, maxEntries / 10),
    durability: SqliteDurability = SqliteDurability.NORMAL,
    private val sweepIntervalMs: Long = 60_000,
) : ReplayStore, AutoCloseable {
    private val connection: Connection
    private var nextSweepMs = Long.MIN_VALUE

    init {
        require(maxEntries > 0) { "maxEntries must be positive" }
        require(maxEntriesPerScope > 0) { "maxEntriesPerScope must be positive" }
        connection = try {
            DriverManager.getConnection("jdbc:sqlite:$path")
        } catch (e: SQLException) {
            if (e.message?.contains("No suitable driver") == true) {
                throw IllegalStateException("SqliteReplayStore needs the SQLite JDBC driver: add org.xerial:sqlite-jdbc to your dependencies", e)
            }
            throw e
        }
        connection.createStatement().use { st ->
            st.execute("PRAGMA journal_mode = WAL")
            st.execute("PRAGMA synchronous = ${durability.name}")
            st.execute("PRAGMA busy_timeout = 5000")
            for (sql in SqliteReplaySchema.SCHEMA) st.execute(sql)
        }
    }

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome =
        withContext(Dispatchers.IO) { checkAndRecordNow(scope, key, retainUntilMs, nowMs) }

    override suspend fun evictExpired(nowMs: Long): Int = withContext(Dispatchers.IO) { synchronized(this@SqliteReplayStore) { evict(nowMs) } }

    override suspend fun size(): Int = withContext(Dispatchers.IO) { synchronized(this@SqliteReplayStore) { count(SqliteReplaySchema.COUNT) } }

    /** The same decision, blocking the calling thread (JDBC is blocking). */
    @Synchronized
    fun checkAndRecordNow(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        if (nowMs >= nextSweepMs) {
            evict(nowMs)
            nextSweepMs = nowMs + sweepIntervalMs
        }
        connection.createStatement().use { it.execute("BEGIN IMMEDIATE") }
        try {
            val outcome = decide(scope, key, retainUntilMs, nowMs)
            connection.createStatement().use { it.execute("COMMIT") }
            return outcome
        } catch (e: Throwable) {
            runCatching { connection.createStatement().use { it.execute("ROLLBACK") } }
            throw e
        }
    }

    private fun decide(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        fun full() = count(SqliteReplaySchema.COUNT) >= maxEntries || count(SqliteReplaySchema.SCOPE_COUNT, scope) >= maxEntriesPerScope
        if (full()) {
            // Full (or this scope at its quota), perhaps of expired rows the sweep has not reached: evict, then decide.
            // A held row (live or expired) is reused by the upsert, not added.
            evict(nowMs)
            if (full() && !held(scope, key)) return RecordOutcome.FULL
        }
        val changed = connection.prepareStatement(SqliteReplaySchema.UPSERT).use { st ->
            st.setString(1, scope)
            st.setString(2, key)
            st.setLong(3, retainUntilMs)
            st.setLong(4, nowMs)
            st.executeUpdate()
        }
        return if (changed == 1) RecordOutcome.RECORDED else RecordOutcome.REPLAYED
    }

    private fun evict(nowMs: Long): Int = connection.prepareStatement(SqliteReplaySchema.EVICT).use { st ->
        st.setLong(1, nowMs)
        st.executeUpdate()
    }

    private fun held(scope: String, key: String): Boolean = connection.prepareStatement(SqliteReplaySchema.HELD).use { st ->
        st.setString(1, scope)
        st.setString(2, key)
        st.executeQuery().use { it.next() }
    }

    private fun count(sql: String, vararg args: String): Int = connection.prepareStatement(sql).use { st ->
        args.forEachIndexed { i, arg -> st.setString(i + 1, arg) }
        st.executeQuery().use { rs -> if (rs.next()) rs.getInt(1) else 0 }
    }

    @Synchronized
    override fun close() = connection.close()
}
