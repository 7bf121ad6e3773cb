package dev.agentcontracts.runtime

import io.lettuce.core.RedisClient
import io.lettuce.core.RedisCommandExecutionException
import io.lettuce.core.RedisURI
import io.lettuce.core.SetArgs
import io.lettuce.core.api.StatefulRedisConnection
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withTimeout
import java.time.Duration
import java.util.Base64

// Redis stores (Lettuce) for receivers that run on more than one machine, with the TypeScript
// stores' key layout, so services in both languages can share one server:
//   replay:    SET <prefix>{<base64url scope>}:<base64url key> 1 NX PX <ttl>
//   bookmarks: a compare-and-set script on <prefix>{<base64url scope>}
// The PostgreSQL stores are in PostgresStores.kt.
// Every call has a deadline; a store that cannot answer throws, and the guard refuses (fail closed).

/** A Lettuce connection the store opened from a URL (and closes), or one the application owns (left open). */
internal class LettuceConnection private constructor(private val client: RedisClient?, val connection: StatefulRedisConnection<String, String>) : AutoCloseable {
    override fun close() {
        if (client != null) {
            connection.close()
            client.shutdown()
        }
    }

    companion object {
        fun open(url: String, timeoutMs: Long): LettuceConnection {
            val client = RedisClient.create(RedisURI.create(url).apply { timeout = Duration.ofMillis(timeoutMs) })
            return LettuceConnection(client, client.connect())
        }

        fun borrowed(connection: StatefulRedisConnection<String, String>) = LettuceConnection(null, connection)
    }
}

/** Redis through Lettuce. [url] like `redis://127.0.0.1:6379`; or pass a connection you own. */
class RedisReplayStore private constructor(
    private val lettuce: LettuceConnection,
    private val keyPrefix: String,
    private val timeoutMs: Long,
) : ReplayStore, AutoCloseable {
    constructor(url: String, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(LettuceConnection.open(url, timeoutMs), keyPrefix, timeoutMs)

    /** A store over a connection the application already has; [close] leaves it open. */
    constructor(connection: StatefulRedisConnection<String, String>, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(LettuceConnection.borrowed(connection), keyPrefix, timeoutMs)

    private val connection get() = lettuce.connection

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

    override fun close() = lettuce.close()

    companion object {
        const val DEFAULT_PREFIX = "agent-contracts:replay:"
    }
}

internal fun base64url(text: String): String = Base64.getUrlEncoder().withoutPadding().encodeToString(text.toByteArray(Charsets.UTF_8))

/** Inbox bookmarks on Redis through Lettuce: one compare-and-set script run per advance (the TS key layout). */
class RedisBookmarkStore private constructor(
    private val lettuce: LettuceConnection,
    private val keyPrefix: String,
    private val timeoutMs: Long,
) : BookmarkStore, AutoCloseable {
    constructor(url: String, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(LettuceConnection.open(url, timeoutMs), keyPrefix, timeoutMs)

    /** Bookmarks over a connection the application already has; [close] leaves it open. */
    constructor(connection: StatefulRedisConnection<String, String>, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000) :
        this(LettuceConnection.borrowed(connection), keyPrefix, timeoutMs)

    private val connection get() = lettuce.connection

    private fun key(scope: String) = "$keyPrefix{${base64url(scope)}}"

    override suspend fun position(scope: String): Long = withTimeout(timeoutMs) { connection.async().get(key(scope)).await()?.toLong() ?: 0 }

    override suspend fun advance(scope: String, sequence: Long): Long {
        requireSequence(sequence)
        return withTimeout(timeoutMs) {
            connection.async().eval<Long>(ADVANCE_SCRIPT, io.lettuce.core.ScriptOutputType.INTEGER, arrayOf(key(scope)), sequence.toString()).await()
        }
    }

    override fun close() = lettuce.close()

    companion object {
        const val DEFAULT_PREFIX = "agent-contracts:bookmark:"
        // The same script as the TypeScript store: the server compares and sets in one run.
        private const val ADVANCE_SCRIPT = "local c = tonumber(redis.call('GET', KEYS[1]) or '-1') local n = tonumber(ARGV[1]) if n > c then redis.call('SET', KEYS[1], ARGV[1]) return n end return c"
    }
}
