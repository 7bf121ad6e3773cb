package dev.agentcontracts.runtime

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import java.sql.Connection
import java.sql.DriverManager
import javax.sql.DataSource

// PostgreSQL stores through JDBC, with the TypeScript stores' tables and statements, so services in
// both languages can share one database:
//   replay:    INSERT ... ON CONFLICT (id) DO UPDATE ... WHERE retain_until_ms <= <the server's clock>
//   bookmarks: INSERT ... ON CONFLICT (scope) DO UPDATE SET position = GREATEST(...)
// The replay table's key is the TypeScript store's digest (SHA-256 of the scope's UTF-8 length as 8
// bytes big endian, the scope and the key), the original pair kept as JSON text; expiry is compared
// with the server's clock_timestamp() in the take-over and the sweep, and the caller's clock is
// checked against the server's at first use and every checkIntervalMs (replay-postgres.ts).
// Every call has a deadline; a store that cannot answer throws, and the guard refuses (fail closed).

/** The advisory lock key the migrations hold (the TypeScript stores' too). */
const val POSTGRES_MIGRATION_LOCK = 7_241_000_001L

private val TABLE_NAME = Regex("^[a-z_][a-z0-9_]{0,62}(\\.[a-z_][a-z0-9_]{0,62})?$")

private fun requireTableName(table: String) =
    require(TABLE_NAME.matches(table)) { "table must be a lower-case SQL identifier, optionally schema-qualified: $table" }

/** A [DataSource] (a pool the application owns) or a JDBC URL (one connection, serialised), with deadlines and a one-time migration. */
internal class JdbcConnection(
    private val dataSource: DataSource?,
    private val url: String?,
    val timeoutMs: Long,
    private val migration: String,
    private val migrate: Boolean,
) : AutoCloseable {
    private val lock = Mutex()
    private var single: Connection? = null
    @Volatile private var migrated = false

    val queryTimeoutSeconds: Int get() = maxOf(1L, (timeoutMs + 999) / 1000).toInt()

    suspend fun <T> use(block: (Connection) -> T): T = withTimeout(timeoutMs) {
        withContext(Dispatchers.IO) {
            if (dataSource != null) dataSource.connection.use { c -> ensureMigrated(c); block(c) }
            else lock.withLock {
                val c = single?.takeIf { !it.isClosed } ?: DriverManager.getConnection(url, driverDeadlines()).also { single = it }
                try {
                    ensureMigrated(c)
                    block(c)
                } catch (e: java.sql.SQLException) {
                    // A broken connection is dropped, so the next call reconnects.
                    runCatching { c.close() }
                    single = null
                    throw e
                }
            }
        }
    }

    override fun close() {
        single?.close()
        single = null
    }

    // pgjdbc's own deadlines: a blocked socket read cannot be cancelled by the coroutine's timeout.
    private fun driverDeadlines() = java.util.Properties().apply {
        setProperty("connectTimeout", queryTimeoutSeconds.toString())
        setProperty("socketTimeout", (queryTimeoutSeconds + 1).toString())
    }

    private fun ensureMigrated(c: Connection) {
        if (!migrate || migrated) return
        // One transaction: the advisory lock it starts with is held to the end, so replicas starting
        // together do not race CREATE TABLE IF NOT EXISTS (which is not safe concurrently).
        val autoCommit = c.autoCommit
        c.autoCommit = false
        try {
            c.createStatement().use { s -> migration.split(";\n").filter { it.isNotBlank() }.forEach { s.execute(it) } }
            c.commit()
        } catch (e: java.sql.SQLException) {
            c.rollback()
            throw e
        } finally {
            c.autoCommit = autoCommit
        }
        migrated = true
    }
}

/** What the PostgreSQL replay store checks; the defaults are the TypeScript store's. */
data class PostgresSafety(
    /** How often the server's clock (and synchronous commit, when required) is read again (ms). */
    val checkIntervalMs: Long = 5000,
    /** Largest accepted difference between the caller's clock and the server's (ms); at most the declared skew. */
    val maxClockSkewMs: Long = 1000,
    /** Refuse unless commits wait for a synchronous standby (synchronous_commit on/remote_write/remote_apply and synchronous_standby_names set). */
    val requireSynchronousStandby: Boolean = false,
)

/** The server's clock in epoch milliseconds: every expiry comparison uses it. */
private const val SERVER_NOW_MS = "floor(extract(epoch from clock_timestamp()) * 1000)::bigint"

/** The replay store on PostgreSQL. */
class PostgresReplayStore private constructor(private val table: String, private val db: JdbcConnection, private val safety: PostgresSafety) : ReplayStore, AutoCloseable {
    constructor(dataSource: DataSource, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true, safety: PostgresSafety = PostgresSafety()) :
        this(table, JdbcConnection(dataSource, null, timeoutMs, migrationSql(table), migrate), safety)

    /** [jdbcUrl] like `jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres`. */
    constructor(jdbcUrl: String, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true, safety: PostgresSafety = PostgresSafety()) :
        this(table, JdbcConnection(null, jdbcUrl, timeoutMs, migrationSql(table), migrate), safety)

    private val clock = ServerClock()
    /** Where the background server checks run; cancelled by [close]. */
    private val checkScope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
    private val serverChecks = PeriodicCheck(safety.checkIntervalMs, checkScope) { checkServer() }

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        serverChecks.ensure(0)
        clock.assertWithin(nowMs, safety.maxClockSkewMs, "PostgreSQL")
        return db.use { c ->
            c.prepareStatement(
                "INSERT INTO $table (id, original, retain_until_ms) VALUES (?, ?, ?) " +
                    "ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original, retain_until_ms = EXCLUDED.retain_until_ms WHERE $table.retain_until_ms <= $SERVER_NOW_MS RETURNING 1",
            ).use { s ->
                s.queryTimeout = db.queryTimeoutSeconds
                s.setBytes(1, recordId(scope, key))
                s.setString(2, jsonPair(scope, key))
                s.setLong(3, retainUntilMs)
                s.executeQuery().use { if (it.next()) RecordOutcome.RECORDED else RecordOutcome.REPLAYED }
            }
        }
    }

    /** Deletes one batch of rows expired on the server's clock ([nowMs], the caller's, is not used). */
    override suspend fun evictExpired(nowMs: Long): Int = db.use { c ->
        c.prepareStatement("DELETE FROM $table WHERE ctid = ANY (ARRAY (SELECT ctid FROM $table WHERE retain_until_ms <= $SERVER_NOW_MS LIMIT 10000))").use { s ->
            s.queryTimeout = db.queryTimeoutSeconds
            s.executeUpdate()
        }
    }

    private suspend fun checkServer() {
        val (commitMode, standbys) = db.use { c ->
            c.createStatement().use { s ->
                s.queryTimeout = db.queryTimeoutSeconds
                // Timed inside the connection (already open and migrated): the reading's uncertainty is its own round trip.
                val sent = System.nanoTime()
                val serverMs = s.executeQuery("SELECT $SERVER_NOW_MS").use { it.next(); it.getLong(1) }
                clock.observe(serverMs.toDouble(), sent, System.nanoTime())
                s.executeQuery("SELECT current_setting('synchronous_commit'), current_setting('synchronous_standby_names')").use {
                    it.next()
                    it.getString(1) to it.getString(2)
                }
            }
        }
        if (safety.requireSynchronousStandby && (commitMode !in setOf("on", "remote_write", "remote_apply") || standbys.isBlank())) {
            throw StoreSafetyException(
                StoreSafetyProblem.NO_SYNCHRONOUS_STANDBY,
                "postgres commits do not wait for a synchronous standby (synchronous_commit $commitMode, synchronous_standby_names \"$standbys\"): a failover could lose acknowledged records",
            )
        }
    }

    override suspend fun size(): Int = db.use { c ->
        c.createStatement().use { s -> s.executeQuery("SELECT count(*) FROM $table").use { it.next(); it.getInt(1) } }
    }

    override fun close() {
        checkScope.cancel()
        db.close()
    }

    companion object {
        const val DEFAULT_TABLE = "agent_contracts_replay"

        /** The migration the store applies itself unless `migrate = false`: the same text as the TypeScript store's (a table of the earlier layout converted in place). */
        fun migrationSql(table: String = DEFAULT_TABLE): String {
            requireTableName(table)
            val index = table.substringAfterLast('.') + "_retain_until_idx"
            return "SELECT pg_advisory_xact_lock($POSTGRES_MIGRATION_LOCK);\n" +
                "DO \$\$ BEGIN IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('$table') AND attname = 'scope' AND NOT attisdropped) THEN " +
                "ALTER TABLE $table ADD COLUMN id bytea, ADD COLUMN original text; " +
                "UPDATE $table SET id = sha256(int8send(octet_length(convert_to(scope, 'UTF8'))::bigint) || convert_to(scope, 'UTF8') || convert_to(key, 'UTF8')), original = json_build_array(scope, key)::text; " +
                "EXECUTE format('ALTER TABLE $table DROP CONSTRAINT %I', (SELECT conname FROM pg_constraint WHERE conrelid = to_regclass('$table') AND contype = 'p')); " +
                "ALTER TABLE $table DROP COLUMN scope, DROP COLUMN key, ALTER COLUMN id SET NOT NULL, ALTER COLUMN original SET NOT NULL, ADD PRIMARY KEY (id); " +
                "END IF; END \$\$;\n" +
                "CREATE TABLE IF NOT EXISTS $table (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL);\n" +
                "CREATE INDEX IF NOT EXISTS $index ON $table (retain_until_ms);"
        }

        /** The primary key of (scope, key): SHA-256 of the scope's UTF-8 byte length (8 bytes, big endian), the scope and the key. */
        fun recordId(scope: String, key: String): ByteArray {
            val scopeBytes = scope.toByteArray(Charsets.UTF_8)
            val digest = java.security.MessageDigest.getInstance("SHA-256")
            digest.update(java.nio.ByteBuffer.allocate(8).putLong(scopeBytes.size.toLong()).array())
            digest.update(scopeBytes)
            digest.update(key.toByteArray(Charsets.UTF_8))
            return digest.digest()
        }

        /** The original pair as a JSON array (U+0000 and other controls escaped), for diagnostics: PostgreSQL text cannot hold U+0000. */
        internal fun jsonPair(scope: String, key: String): String = "[${jsonString(scope)},${jsonString(key)}]"

        private fun jsonString(text: String): String = buildString {
            append('"')
            for (ch in text) {
                when {
                    ch == '"' -> append("\\\"")
                    ch == '\\' -> append("\\\\")
                    ch < ' ' -> append("\\u%04x".format(ch.code))
                    else -> append(ch)
                }
            }
            append('"')
        }
    }
}

/** Inbox bookmarks on PostgreSQL: one row per scope, moved forward with GREATEST in one upsert. */
class PostgresBookmarkStore private constructor(private val table: String, private val db: JdbcConnection) : BookmarkStore, AutoCloseable {
    constructor(dataSource: DataSource, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(table, JdbcConnection(dataSource, null, timeoutMs, migrationSql(table), migrate))

    constructor(jdbcUrl: String, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(table, JdbcConnection(null, jdbcUrl, timeoutMs, migrationSql(table), migrate))

    override suspend fun position(scope: String): Long = db.use { c ->
        c.prepareStatement("SELECT position FROM $table WHERE scope = ?").use { s ->
            s.queryTimeout = db.queryTimeoutSeconds
            s.setString(1, scope)
            s.executeQuery().use { if (it.next()) it.getLong(1) else 0L }
        }
    }

    override suspend fun advance(scope: String, sequence: Long): Long {
        requireSequence(sequence)
        return db.use { c ->
            c.prepareStatement(
                "INSERT INTO $table (scope, position) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET position = GREATEST($table.position, EXCLUDED.position) RETURNING position",
            ).use { s ->
                s.queryTimeout = db.queryTimeoutSeconds
                s.setString(1, scope)
                s.setLong(2, sequence)
                s.executeQuery().use { it.next(); it.getLong(1) }
            }
        }
    }

    override fun close() = db.close()

    companion object {
        const val DEFAULT_TABLE = "agent_contracts_bookmarks"

        /** The same migration as the TypeScript store's. */
        fun migrationSql(table: String = DEFAULT_TABLE): String {
            requireTableName(table)
            return "SELECT pg_advisory_xact_lock($POSTGRES_MIGRATION_LOCK);\nCREATE TABLE IF NOT EXISTS $table (scope text PRIMARY KEY, position bigint NOT NULL);"
        }
    }
}
