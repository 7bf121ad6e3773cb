package dev.agentcontracts.runtime

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import java.sql.Connection
import java.sql.DriverManager
import javax.sql.DataSource

// PostgreSQL stores through JDBC, with the TypeScript stores' tables and statements, so services in
// both languages can share one database:
//   replay:    INSERT ... ON CONFLICT (scope, key) DO UPDATE ... WHERE retain_until_ms <= now
//   bookmarks: INSERT ... ON CONFLICT (scope) DO UPDATE SET position = GREATEST(...)
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

/** The replay store on PostgreSQL. */
class PostgresReplayStore private constructor(private val table: String, private val db: JdbcConnection) : ReplayStore, AutoCloseable {
    constructor(dataSource: DataSource, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(table, JdbcConnection(dataSource, null, timeoutMs, migrationSql(table), migrate))

    /** [jdbcUrl] like `jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres`. */
    constructor(jdbcUrl: String, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(table, JdbcConnection(null, jdbcUrl, timeoutMs, migrationSql(table), migrate))

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome = db.use { c ->
        c.prepareStatement(
            "INSERT INTO $table (scope, key, retain_until_ms) VALUES (?, ?, ?) " +
                "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = EXCLUDED.retain_until_ms WHERE $table.retain_until_ms <= ? RETURNING 1",
        ).use { s ->
            s.queryTimeout = db.queryTimeoutSeconds
            s.setString(1, scope)
            s.setString(2, key)
            s.setLong(3, retainUntilMs)
            s.setLong(4, nowMs)
            s.executeQuery().use { if (it.next()) RecordOutcome.RECORDED else RecordOutcome.REPLAYED }
        }
    }

    override suspend fun evictExpired(nowMs: Long): Int = db.use { c ->
        c.prepareStatement("DELETE FROM $table WHERE ctid = ANY (ARRAY (SELECT ctid FROM $table WHERE retain_until_ms <= ? LIMIT 10000))").use { s ->
            s.queryTimeout = db.queryTimeoutSeconds
            s.setLong(1, nowMs)
            s.executeUpdate()
        }
    }

    override suspend fun size(): Int = db.use { c ->
        c.createStatement().use { s -> s.executeQuery("SELECT count(*) FROM $table").use { it.next(); it.getInt(1) } }
    }

    override fun close() = db.close()

    companion object {
        const val DEFAULT_TABLE = "agent_contracts_replay"

        /** The migration the store applies itself unless `migrate = false`: the same as the TypeScript store's. */
        fun migrationSql(table: String = DEFAULT_TABLE): String {
            requireTableName(table)
            val index = table.substringAfterLast('.') + "_retain_until_idx"
            return "SELECT pg_advisory_xact_lock($POSTGRES_MIGRATION_LOCK);\n" +
                "CREATE TABLE IF NOT EXISTS $table (scope text NOT NULL, key text NOT NULL, retain_until_ms bigint NOT NULL, PRIMARY KEY (scope, key));\n" +
                "CREATE INDEX IF NOT EXISTS $index ON $table (retain_until_ms);"
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
