package dev.agentcontracts.runtime

import io.lettuce.core.RedisClient
import io.lettuce.core.RedisCommandExecutionException
import io.lettuce.core.RedisURI
import io.lettuce.core.SetArgs
import io.lettuce.core.api.StatefulRedisConnection
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.future.await
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import java.sql.Connection
import java.sql.DriverManager
import java.time.Duration
import java.util.Base64
import javax.sql.DataSource

// Replay stores for receivers that run on more than one machine, with the TypeScript stores' key
// layout and statements, so services in both languages can share one server:
//   Redis:      SET <prefix>{<base64url scope>}:<base64url key> 1 NX PX <ttl>   (Lettuce)
//   PostgreSQL: INSERT ... ON CONFLICT (scope, key) DO UPDATE ... WHERE retain_until_ms <= now (JDBC)
// Every call has a deadline; a store that cannot answer throws, and the guard refuses (fail closed).

/** Redis through Lettuce. [url] like `redis://127.0.0.1:6379`; or pass a connection you own. */
class RedisReplayStore private constructor(
    private val client: RedisClient?,
    private val connection: StatefulRedisConnection<String, String>,
    private val keyPrefix: String,
    private val timeoutMs: Long,
) : ReplayStore, AutoCloseable {
    constructor(url: String, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(RedisClient.create(RedisURI.create(url).apply { timeout = Duration.ofMillis(timeoutMs) }), keyPrefix, timeoutMs)

    private constructor(client: RedisClient, keyPrefix: String, timeoutMs: Long) : this(client, client.connect(), keyPrefix, timeoutMs)

    /** A store over a connection the application already has; [close] leaves it open. */
    constructor(connection: StatefulRedisConnection<String, String>, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(null, connection, keyPrefix, timeoutMs)

    /** The scope sits in a hash tag (one cluster shard per scope); base64url has no braces or ":". */
    fun redisKey(scope: String, key: String): String = "$keyPrefix{${base64url(scope)}}:${base64url(key)}"

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        val ttl = maxOf(1L, retainUntilMs - nowMs)
        return try {
            val reply = withTimeout(timeoutMs) { connection.async().set(redisKey(scope, key), "1", SetArgs().nx().px(ttl)).await() }
            if (reply == "OK") RecordOutcome.RECORDED else RecordOutcome.REPLAYED
        } catch (e: RedisCommandExecutionException) {
            // With maxmemory-policy noeviction a full server refuses writes: no room for a new record.
            if (e.message?.startsWith("OOM") == true) RecordOutcome.FULL else throw e
        }
    }

    /** Redis expires records itself at their retain-until. */
    override suspend fun evictExpired(nowMs: Long): Int = 0

    override suspend fun size(): Int = withTimeout(timeoutMs) {
        var count = 0
        var cursor = io.lettuce.core.ScanCursor.INITIAL
        do {
            val page = connection.async().scan(cursor, io.lettuce.core.ScanArgs.Builder.matches("$keyPrefix*").limit(1000)).await()
            count += page.keys.size
            cursor = page
        } while (!page.isFinished)
        count
    }

    override fun close() {
        if (client != null) {
            connection.close()
            client.shutdown()
        }
    }

    companion object {
        const val DEFAULT_PREFIX = "agent-contracts:replay:"
    }
}

/** PostgreSQL through JDBC: from a [DataSource] (a pool you own) or a JDBC URL (one connection, serialised). */
class PostgresReplayStore private constructor(
    private val dataSource: DataSource?,
    private val url: String?,
    private val table: String,
    private val timeoutMs: Long,
    private val migrate: Boolean,
) : ReplayStore, AutoCloseable {
    constructor(dataSource: DataSource, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(dataSource, null, table, timeoutMs, migrate)

    /** [jdbcUrl] like `jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres`. */
    constructor(jdbcUrl: String, table: String = DEFAULT_TABLE, timeoutMs: Long = 2000, migrate: Boolean = true) :
        this(null, jdbcUrl, table, timeoutMs, migrate)

    init {
        require(TABLE_NAME.matches(table)) { "table must be a lower-case SQL identifier, optionally schema-qualified: $table" }
    }

    private val lock = Mutex()
    private var single: Connection? = null
    @Volatile private var migrated = false

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome = withConnection { c ->
        c.prepareStatement(
            "INSERT INTO $table (scope, key, retain_until_ms) VALUES (?, ?, ?) " +
                "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = EXCLUDED.retain_until_ms WHERE $table.retain_until_ms <= ? RETURNING 1",
        ).use { s ->
            s.queryTimeout = seconds()
            s.setString(1, scope)
            s.setString(2, key)
            s.setLong(3, retainUntilMs)
            s.setLong(4, nowMs)
            s.executeQuery().use { if (it.next()) RecordOutcome.RECORDED else RecordOutcome.REPLAYED }
        }
    }

    override suspend fun evictExpired(nowMs: Long): Int = withConnection { c ->
        c.prepareStatement("DELETE FROM $table WHERE ctid = ANY (ARRAY (SELECT ctid FROM $table WHERE retain_until_ms <= ? LIMIT 10000))").use { s ->
            s.queryTimeout = seconds()
            s.setLong(1, nowMs)
            s.executeUpdate()
        }
    }

    override suspend fun size(): Int = withConnection { c ->
        c.createStatement().use { s -> s.executeQuery("SELECT count(*) FROM $table").use { it.next(); it.getInt(1) } }
    }

    override fun close() {
        single?.close()
        single = null
    }

    // pgjdbc's own deadlines: a blocked socket read cannot be cancelled by the coroutine's timeout.
    private fun driverDeadlines() = java.util.Properties().apply {
        setProperty("connectTimeout", seconds().toString())
        setProperty("socketTimeout", (seconds() + 1).toString())
    }

    private fun seconds(): Int = maxOf(1L, (timeoutMs + 999) / 1000).toInt()

    private suspend fun <T> withConnection(block: (Connection) -> T): T = withTimeout(timeoutMs) {
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

    private fun ensureMigrated(c: Connection) {
        if (!migrate || migrated) return
        // One transaction: the advisory lock it starts with is held to the end, so replicas starting
        // together do not race CREATE TABLE IF NOT EXISTS (which is not safe concurrently).
        val autoCommit = c.autoCommit
        c.autoCommit = false
        try {
            c.createStatement().use { s -> migrationSql(table).split(";\n").filter { it.isNotBlank() }.forEach { s.execute(it) } }
            c.commit()
        } catch (e: java.sql.SQLException) {
            c.rollback()
            throw e
        } finally {
            c.autoCommit = autoCommit
        }
        migrated = true
    }

    companion object {
        const val DEFAULT_TABLE = "agent_contracts_replay"
        /** The advisory lock key the migrations hold (the TypeScript store's too). */
        const val MIGRATION_LOCK = 7_241_000_001L
        private val TABLE_NAME = Regex("^[a-z_][a-z0-9_]{0,62}(\\.[a-z_][a-z0-9_]{0,62})?$")

        /** The migration the store applies itself unless `migrate = false`: the same as the TypeScript store's. */
        fun migrationSql(table: String = DEFAULT_TABLE): String {
            val index = table.substringAfterLast('.') + "_retain_until_idx"
            return "SELECT pg_advisory_xact_lock($MIGRATION_LOCK);\n" +
                "CREATE TABLE IF NOT EXISTS $table (scope text NOT NULL, key text NOT NULL, retain_until_ms bigint NOT NULL, PRIMARY KEY (scope, key));\n" +
                "CREATE INDEX IF NOT EXISTS $index ON $table (retain_until_ms);"
        }
    }
}

private fun base64url(text: String): String = Base64.getUrlEncoder().withoutPadding().encodeToString(text.toByteArray(Charsets.UTF_8))
