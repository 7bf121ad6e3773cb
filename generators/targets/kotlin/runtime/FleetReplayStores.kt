package dev.agentcontracts.runtime

import io.lettuce.core.RedisChannelHandler
import io.lettuce.core.RedisClient
import io.lettuce.core.RedisCommandExecutionException
import io.lettuce.core.RedisConnectionStateListener
import io.lettuce.core.RedisURI
import io.lettuce.core.SetArgs
import io.lettuce.core.api.StatefulRedisConnection
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.future.await
import kotlinx.coroutines.isActive
import kotlinx.coroutines.withTimeout
import java.net.SocketAddress
import java.time.Duration
import java.util.Base64
import java.util.concurrent.atomic.AtomicInteger

// Redis stores (Lettuce) for receivers that run on more than one machine, with the TypeScript
// stores' key layout, so services in both languages can share one server:
//   replay:    SET <prefix>{<base64url scope>}:<base64url key> 1 NX PXAT <retain-until>
//   bookmarks: a compare-and-set script on <prefix>{<base64url scope>}
// The PostgreSQL stores are in PostgresStores.kt. As in the TypeScript stores, a record expires at
// its absolute retain-until on the server's clock, and the server is checked at first use, after
// every reconnect and every checkIntervalMs (eviction policy, AOF, clock skew): see
// replay-redis.ts and docs-site/guides/running-a-fleet.md.
// Every call has a deadline; a store that cannot answer throws, and the guard refuses (fail closed).

/** Why a fleet store refuses to record (the TypeScript StoreSafetyError's problems). */
enum class StoreSafetyProblem(val wire: String) {
    CLOCK_SKEW("clock-skew"),
    MAY_EVICT("may-evict"),
    NOT_PERSISTENT("not-persistent"),
    NOT_REPLICATED("not-replicated"),
    NO_SYNCHRONOUS_STANDBY("no-synchronous-standby"),
}

/** Thrown (and the guard refuses, fail closed) while a server setting or the clock breaks a fleet requirement. */
class StoreSafetyException(val problem: StoreSafetyProblem, message: String) : Exception(message)

/**
 * A store's server checks, run when due: first use, [intervalMs] after the start of the last
 * passing run, and whenever the connection changed. Concurrent callers share one run; a failed run
 * is due again at once, so the store stays refused until a run passes. Half an interval after a
 * pass the next run starts in the background, in [scope] (owned by the store and cancelled when it
 * closes), while callers go on without waiting: a slow check never stalls the callers, and no
 * answer is given more than [intervalMs] after the start of the run that vouched for it (callers
 * wait only when the last pass is that old, failed, or was on another connection).
 */
internal class PeriodicCheck(private val intervalMs: Long, private val scope: CoroutineScope, private val run: suspend () -> Unit) {
    private val lock = Any()
    private var running: Deferred<Unit>? = null
    private var runningConnection = -1
    private var passedAtNanos = Long.MIN_VALUE
    private var checkedConnection = -1

    suspend fun ensure(connection: Int) {
        while (true) {
            val waitFor: Deferred<Unit>
            val sameConnection: Boolean
            synchronized(lock) {
                val ageNanos = System.nanoTime() - passedAtNanos
                if (passedAtNanos != Long.MIN_VALUE && connection == checkedConnection && ageNanos < intervalMs * 1_000_000) {
                    if (running == null && ageNanos >= intervalMs * 500_000) start(connection)
                    return
                }
                waitFor = running ?: start(connection)
                sameConnection = runningConnection == connection
            }
            if (sameConnection) return waitFor.await()
            // A run for the connection before a reconnect vouches for nothing on this one.
            runCatching { waitFor.await() }
        }
    }

    /** Starts a run (the caller holds [lock]); its end records the pass, or clears the last one. */
    private fun start(connection: Int): Deferred<Unit> {
        // After close() nothing runs in the scope: refuse plainly rather than with a cancellation the caller would take for its own.
        check(scope.isActive) { "the store is closed" }
        val startedAtNanos = System.nanoTime()
        val run = scope.async(start = CoroutineStart.LAZY) { run() }
        running = run
        runningConnection = connection
        run.invokeOnCompletion { failure ->
            synchronized(lock) {
                if (failure == null) {
                    passedAtNanos = startedAtNanos
                    checkedConnection = connection
                } else {
                    passedAtNanos = Long.MIN_VALUE
                }
                if (running === run) running = null
            }
        }
        run.start()
        return run
    }
}

/** The server's clock as last read, carried forward on the local monotonic clock; a reading over a round trip of r ms is uncertain by r/2. */
internal class ServerClock {
    @Volatile private var reading: Triple<Double, Double, Double>? = null // server ms, local ms (monotonic), uncertainty ms

    fun observe(serverMs: Double, sentNanos: Long, receivedNanos: Long) {
        reading = Triple(serverMs, (sentNanos + receivedNanos) / 2e6, (receivedNanos - sentNanos) / 2e6)
    }

    fun assertWithin(callerNowMs: Long, maxSkewMs: Long, server: String) {
        val r = reading
        val offset = if (r == null) Double.NaN else callerNowMs - (r.first + (System.nanoTime() / 1e6 - r.second))
        if (!(Math.abs(offset) <= maxSkewMs + (r?.third ?: 0.0))) {
            throw StoreSafetyException(
                StoreSafetyProblem.CLOCK_SKEW,
                "this replica's clock differs from the $server server's by ${if (offset.isNaN()) "an unknown amount" else "${Math.round(offset)} ms"}, more than the $maxSkewMs ms allowed (maxClockSkewMs): " +
                    "a record could expire while the message is still accepted; fix the clock (NTP)",
            )
        }
    }
}

/** A Lettuce connection the store opened from a URL (and closes), or one the application owns (left open). */
internal class LettuceConnection private constructor(
    private val client: RedisClient?,
    val connection: StatefulRedisConnection<String, String>,
    private val connects: AtomicInteger,
    private val detach: () -> Unit,
) : AutoCloseable {
    /** Changes on every (re)connect, so checks tied to a server run again. */
    val generation: Int get() = connects.get()

    override fun close() {
        detach()
        if (client != null) {
            connection.close()
            client.shutdown()
        }
    }

    companion object {
        private fun counting(connects: AtomicInteger) = object : RedisConnectionStateListener {
            override fun onRedisConnected(connection: RedisChannelHandler<*, *>?, socketAddress: SocketAddress?) {
                connects.incrementAndGet()
            }
        }

        fun open(url: String, timeoutMs: Long): LettuceConnection {
            val client = RedisClient.create(RedisURI.create(url).apply { timeout = Duration.ofMillis(timeoutMs) })
            val connects = AtomicInteger()
            client.addListener(counting(connects))
            return LettuceConnection(client, client.connect(), connects) {}
        }

        /**
         * A connection the application owns. Lettuce's connections are channel handlers, which take
         * a listener of their own: its reconnects (to a restarted or failed-over server) count too.
         * Another implementation of the interface gets only the periodic checks.
         */
        fun borrowed(connection: StatefulRedisConnection<String, String>): LettuceConnection {
            val connects = AtomicInteger()
            val handler = connection as? RedisChannelHandler<*, *> ?: return LettuceConnection(null, connection, connects) {}
            val listener = counting(connects)
            handler.addListener(listener)
            return LettuceConnection(null, connection, connects) { handler.removeListener(listener) }
        }
    }
}

/** What the Redis replay store checks and waits for; the defaults are the TypeScript store's. */
data class RedisSafety(
    /** Refuse servers whose maxmemory-policy is not noeviction. */
    val checkEvictionPolicy: Boolean = true,
    /** Refuse servers without AOF, or whose last AOF write failed. */
    val checkPersistence: Boolean = true,
    /** How often the server's settings and clock are read again (ms); also after every reconnect (of a borrowed Lettuce connection too). */
    val checkIntervalMs: Long = 5000,
    /** Largest accepted difference between the caller's clock and the server's (ms); at most the declared skew. */
    val maxClockSkewMs: Long = 1000,
    /** Acknowledge a new record only once this many replicas hold it (WAIT); 0: no WAIT. */
    val waitReplicas: Int = 0,
    /** WAIT's timeout (ms), below the command deadline. */
    val waitTimeoutMs: Long = 500,
)

/** Redis through Lettuce. [url] like `redis://127.0.0.1:6379`; or pass a connection you own. */
class RedisReplayStore private constructor(
    private val lettuce: LettuceConnection,
    private val keyPrefix: String,
    private val timeoutMs: Long,
    private val safety: RedisSafety,
) : ReplayStore, AutoCloseable {
    constructor(url: String, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000, safety: RedisSafety = RedisSafety()) :
        this(LettuceConnection.open(url, timeoutMs), keyPrefix, timeoutMs, safety)

    /** A store over a connection the application already has; [close] leaves it open. */
    constructor(connection: StatefulRedisConnection<String, String>, keyPrefix: String = DEFAULT_PREFIX, timeoutMs: Long = 2000, safety: RedisSafety = RedisSafety()) :
        this(LettuceConnection.borrowed(connection), keyPrefix, timeoutMs, safety)

    init {
        require(safety.waitReplicas >= 0 && (safety.waitReplicas == 0 || safety.waitTimeoutMs in 1 until timeoutMs)) {
            "waitReplicas must be >= 0, and waitTimeoutMs positive and below the command deadline (timeoutMs)"
        }
    }

    private val connection get() = lettuce.connection
    private val clock = ServerClock()
    /** Where the background server checks run; cancelled by [close]. */
    private val checkScope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
    private val serverChecks = PeriodicCheck(safety.checkIntervalMs, checkScope) { checkServer() }

    /** Tests only: runs at the start of every server check (a slow or failing check without a slow server). */
    internal var beforeServerCheck: suspend () -> Unit = {}

    /** The scope sits in a hash tag (one cluster shard per scope); base64url has no braces or ":". */
    fun redisKey(scope: String, key: String): String = "$keyPrefix{${base64url(scope)}}:${base64url(key)}"

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        serverChecks.ensure(lettuce.generation)
        clock.assertWithin(nowMs, safety.maxClockSkewMs, "Redis")
        try {
            // PXAT: the record expires at its absolute retain-until on the server's clock.
            val reply = withTimeout(timeoutMs) { connection.async().set(redisKey(scope, key), "1", SetArgs().nx().pxAt(maxOf(1L, retainUntilMs))).await() }
            if (reply != "OK") return RecordOutcome.REPLAYED
        } catch (e: RedisCommandExecutionException) {
            // With maxmemory-policy noeviction a full server refuses writes: no room for a new record.
            if (e.message?.startsWith("OOM") == true) return RecordOutcome.FULL else throw e
        }
        if (safety.waitReplicas > 0) {
            val acknowledged = withTimeout(timeoutMs) { connection.async().waitForReplication(safety.waitReplicas, safety.waitTimeoutMs).await() }
            if (acknowledged < safety.waitReplicas) {
                throw StoreSafetyException(
                    StoreSafetyProblem.NOT_REPLICATED,
                    "redis WAIT: $acknowledged of ${safety.waitReplicas} replicas acknowledged the record within ${safety.waitTimeoutMs} ms; a failover could lose it",
                )
            }
        }
        return RecordOutcome.RECORDED
    }

    /** Reads the server's clock, eviction policy and persistence; throws StoreSafetyException while one breaks the fleet requirements. */
    private suspend fun checkServer() = withTimeout(timeoutMs) {
        beforeServerCheck()
        val commands = connection.async()
        val sent = System.nanoTime()
        val time = commands.time()
        val memory = if (safety.checkEvictionPolicy) commands.info("memory") else null
        val persistence = if (safety.checkPersistence) commands.info("persistence") else null
        val (seconds, micros) = time.await()
        clock.observe(seconds.toLong() * 1000.0 + micros.toLong() / 1000.0, sent, System.nanoTime())
        memory?.await()?.let { info ->
            val policy = Regex("^maxmemory_policy:(\\S+)", RegexOption.MULTILINE).find(info)?.groupValues?.get(1) ?: "unknown"
            if (policy != "noeviction") {
                throw StoreSafetyException(StoreSafetyProblem.MAY_EVICT, "redis may evict keys (maxmemory-policy $policy): live replay records could be dropped; set maxmemory-policy noeviction")
            }
        }
        persistence?.await()?.let { info ->
            val on = Regex("^aof_enabled:1\\s*$", RegexOption.MULTILINE).containsMatchIn(info) && Regex("^aof_last_write_status:ok\\s*$", RegexOption.MULTILINE).containsMatchIn(info)
            if (!on) {
                throw StoreSafetyException(
                    StoreSafetyProblem.NOT_PERSISTENT,
                    "redis is not persisting records (appendonly no, or the last AOF write failed): a restart would forget them; set appendonly yes (appendfsync always)",
                )
            }
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
        checkScope.cancel()
        lettuce.close()
    }

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
