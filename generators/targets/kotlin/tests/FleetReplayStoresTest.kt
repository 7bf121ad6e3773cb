package dev.agentcontracts.runtime

import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeoutOrNull
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.io.File
import java.net.ServerSocket
import java.nio.file.Files
import java.time.Duration
import java.time.Instant

/**
 * The Kotlin Redis and PostgreSQL stores against real servers started here on loopback (data in a
 * temporary folder), never mocks: the replay contract, 4 racing workers recording each key exactly
 * once, records surviving a crash and restart, the guard refusing when the server is down, replicas
 * with clocks 3 s apart, an evicting policy set at runtime, a replica promoted in WAIT mode, and
 * ids of 3000 characters or holding U+0000.
 * Where a server is missing the suite is skipped, unless AGENT_CONTRACTS_REQUIRE_SERVERS=1 (CI).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FleetReplayStoresTest {
    private val require = System.getenv("AGENT_CONTRACTS_REQUIRE_SERVERS") == "1"
    private lateinit var dir: File
    private var redis: Process? = null
    private var redisPort = 0
    private var pgPort = 0
    private var pgBin: File? = null
    private val declaration = ReplayDeclaration(keyFields = listOf("request_id"), scopeFields = listOf("provider_id"), expiresAtField = "expires_at", skewSeconds = 1)

    @BeforeAll
    fun startServers() {
        val redisServer = listOf("/usr/bin/redis-server", "/usr/local/bin/redis-server").map(::File).firstOrNull { it.canExecute() }
        pgBin = File("/usr/lib/postgresql").listFiles()?.map { File(it, "bin") }?.filter { File(it, "initdb").canExecute() }?.maxByOrNull { it.parentFile.name.toIntOrNull() ?: 0 }
        if (redisServer == null || pgBin == null) {
            check(!require) { "fleet store suites need redis-server and PostgreSQL (AGENT_CONTRACTS_REQUIRE_SERVERS=1)" }
            println("Kotlin fleet store suite skipped: redis-server or PostgreSQL not installed")
            return
        }
        dir = Files.createTempDirectory("agent-contracts-kotlin-fleet-").toFile()
        redisPort = freePort()
        startRedis(redisServer)
        pgPort = freePort()
        val asRoot = System.getProperty("user.name") == "root"
        if (asRoot) run("chown", "postgres:postgres", dir.path)
        val data = File(dir, "pg").path
        runPg(asRoot, File(pgBin, "initdb").path, "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        startPg(asRoot)
    }

    @AfterAll
    fun stopServers() {
        redis?.destroyForcibly()?.waitFor()
        if (pgBin != null && ::dir.isInitialized) runCatching { runPg(System.getProperty("user.name") == "root", File(pgBin, "pg_ctl").path, "-D", File(dir, "pg").path, "-m", "fast", "-w", "stop") }
        if (::dir.isInitialized) dir.deleteRecursively()
    }

    private fun servers() = assumeTrue(redis != null, "servers not available")

    private fun redisStore(prefix: String, port: Int = redisPort) = RedisReplayStore("redis://127.0.0.1:$port", keyPrefix = prefix, timeoutMs = 5000)

    private fun pgStore(table: String, port: Int = pgPort) = PostgresReplayStore("jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres", table = table, timeoutMs = 5000)

    private fun stores(tag: String): List<ReplayStore> = listOf(redisStore("kt-$tag:"), pgStore("kt_$tag"))

    @Test
    fun `records a key once per scope and tells distinct pairs apart`() = runBlocking {
        servers()
        for (store in stores("contract")) {
            val now = System.currentTimeMillis()
            assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "k", now + 60_000, now))
            assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord("s", "k", now + 60_000, now))
            assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("ab", "c", now + 60_000, now))
            assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "bc", now + 60_000, now))
            (store as AutoCloseable).close()
        }
    }

    @Test
    fun `the Kotlin and TypeScript Redis stores share one key layout`() {
        servers()
        // The key the TypeScript RedisReplayStore writes for ("scope", "key"): base64url in a hash tag.
        redisStore("agent-contracts:replay:").use { assertEquals("agent-contracts:replay:{c2NvcGU}:a2V5", it.redisKey("scope", "key")) }
    }

    @Test
    fun `four racing workers record each key exactly once`() = runBlocking {
        servers()
        for (make in listOf({ redisStore("kt-race:") as ReplayStore }, { pgStore("kt_race") as ReplayStore })) {
            val workers = List(4) { make() }
            val keys = List(60) { "key-$it" }
            val now = System.currentTimeMillis()
            val outcomes = workers.map { store -> async(Dispatchers.IO) { keys.map { store.checkAndRecord("race", it, now + 60_000, System.currentTimeMillis()) } } }.awaitAll()
            for (i in keys.indices) {
                val column = outcomes.map { it[i] }
                assertEquals(1, column.count { it == RecordOutcome.RECORDED }, "key ${keys[i]}: $column")
                assertEquals(3, column.count { it == RecordOutcome.REPLAYED })
            }
            workers.forEach { (it as AutoCloseable).close() }
        }
    }

    @Test
    fun `records survive a crash and restart of each server`() = runBlocking {
        servers()
        val now = System.currentTimeMillis()
        redisStore("kt-restart:").use { s -> repeat(20) { assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("r", "k$it", now + 120_000, System.currentTimeMillis())) } }
        pgStore("kt_restart").use { s -> repeat(20) { assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("r", "k$it", now + 120_000, System.currentTimeMillis())) } }
        redis!!.destroyForcibly().waitFor() // SIGKILL: only the AOF remains
        startRedis(listOf("/usr/bin/redis-server", "/usr/local/bin/redis-server").map(::File).first { it.canExecute() })
        val asRoot = System.getProperty("user.name") == "root"
        runPg(asRoot, File(pgBin, "pg_ctl").path, "-D", File(dir, "pg").path, "-m", "immediate", "-w", "stop")
        startPg(asRoot)
        redisStore("kt-restart:").use { s -> repeat(20) { assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("r", "k$it", now + 120_000, System.currentTimeMillis())) } }
        pgStore("kt_restart").use { s -> repeat(20) { assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("r", "k$it", now + 120_000, System.currentTimeMillis())) } }
    }

    @Test
    fun `the guard refuses with store-unavailable when the server is down`() = runBlocking {
        servers()
        val closed = freePort()
        val message = buildJsonObject {
            put("request_id", JsonPrimitive("r-down"))
            put("provider_id", JsonPrimitive("p"))
            put("expires_at", JsonPrimitive(Instant.now().plusSeconds(60).toString()))
        }
        val down = listOf(
            { PostgresReplayStore("jdbc:postgresql://127.0.0.1:$closed/postgres?user=postgres", timeoutMs = 1000) as ReplayStore },
            { runCatching { RedisReplayStore("redis://127.0.0.1:$closed", timeoutMs = 1000) as ReplayStore }.getOrElse { e -> ThrowingStore(e) } },
        )
        for (make in down) {
            val decision = ReplayGuard(declaration, make(), java.time.Clock.systemUTC()).admit(message)
            assertTrue(decision is ReplayDecision.Rejected && decision.code == ReplayRejectCode.STORE_UNAVAILABLE, "got $decision")
        }
    }

    @Test
    fun `an approval token is spent once per request id on every store`() = runBlocking {
        servers()
        val declaration = ApprovalTokenDeclaration(version = 1, maxLifetimeSeconds = 1800, clockSkewSeconds = 60, minTtlSeconds = 60, maxTtlSeconds = 1800, defaultTtlSeconds = 600, minSecretBytes = 32)
        val secret = "0123456789abcdef0123456789abcdef".toByteArray()
        val now = System.currentTimeMillis()
        for (store in listOf(InMemoryReplayStore(), redisStore("kt-spend:"), pgStore("kt_spend"))) {
            val requestId = "req-${System.nanoTime()}"
            val minted = ApprovalToken.mintApprovalToken(declaration, MintApprovalInput(action = "delete", resourceId = "r1", actorId = "alice", requestId = requestId), secret, now)
            val claims = (minted as ApprovalTokenResult.Valid).claims
            val replicas = listOf(async(Dispatchers.IO) { spendApprovalToken(claims, store, now, declaration) }, async(Dispatchers.IO) { spendApprovalToken(claims, store, now, declaration) }).awaitAll()
            assertEquals(1, replicas.count { it == ApprovalSpendResult.Spent }, "$replicas")
            assertEquals(ApprovalSpendCode.ALREADY_USED, (replicas.first { it != ApprovalSpendResult.Spent } as ApprovalSpendResult.Refused).code)
            (store as? AutoCloseable)?.close()
        }
    }

    @Test
    fun `inbox bookmarks only move forward on every store`() = runBlocking {
        servers()
        val stores: List<BookmarkStore> = listOf(InMemoryBookmarkStore(), RedisBookmarkStore("redis://127.0.0.1:$redisPort", keyPrefix = "kt-bm:"), PostgresBookmarkStore("jdbc:postgresql://127.0.0.1:$pgPort/postgres?user=postgres", table = "kt_bookmarks"))
        for (store in stores) {
            val scope = "conn-${System.nanoTime()}"
            assertEquals(0L, store.position(scope))
            listOf(5L, 3L, 9L, 1L, 9L, 7L).map { async(Dispatchers.IO) { store.advance(scope, it) } }.awaitAll()
            assertEquals(9L, store.position(scope))
            assertEquals(9L, store.advance(scope, 4))
            assertTrue(runCatching { store.advance(scope, -1) }.exceptionOrNull() is IllegalArgumentException)
            (store as? AutoCloseable)?.close()
        }
    }

    private fun message(id: String, expiresAtMs: Long, provider: String = "p") = buildJsonObject {
        put("request_id", JsonPrimitive(id))
        put("provider_id", JsonPrimitive(provider))
        put("expires_at", JsonPrimitive(Instant.ofEpochMilli(expiresAtMs).toString()))
    }

    private fun outcome(d: ReplayDecision) = if (d is ReplayDecision.Rejected) d.code.wireName else "admitted"

    @Test
    fun `replicas 3 s apart with a skew of 1 s never admit one message twice, the sweep running`() = runBlocking {
        servers()
        for (kind in listOf("redis", "postgres")) {
            val tag = "kt_skew_${System.nanoTime()}"
            val open = { if (kind == "redis") redisStore("$tag:") as ReplayStore else pgStore(tag) as ReplayStore }
            val (right, fast, slow) = Triple(open(), open(), open())
            val base = java.time.Clock.systemUTC()
            val guards = mapOf(
                "right" to ReplayGuard(declaration, right, base),
                "fast" to ReplayGuard(declaration, fast, java.time.Clock.offset(base, Duration.ofSeconds(3))),
                "slow" to ReplayGuard(declaration, slow, java.time.Clock.offset(base, Duration.ofSeconds(-3))),
            )
            val t0 = System.currentTimeMillis()
            val m = message("skew-$tag", t0 + 4000)
            val seen = mutableListOf<String>()
            suspend fun attempt(who: String) {
                seen += "$who:${outcome(guards.getValue(who).admit(m))}"
                if (who == "fast") fast.evictExpired(System.currentTimeMillis() + 3000)
            }
            attempt("fast")
            Thread.sleep(maxOf(0L, t0 + 2500 - System.currentTimeMillis()))
            attempt("right")
            attempt("fast")
            attempt("right")
            Thread.sleep(maxOf(0L, t0 + 5500 - System.currentTimeMillis()))
            attempt("slow")
            attempt("fast")
            attempt("right")
            assertEquals(listOf("fast:store-unavailable", "right:admitted", "fast:expired", "right:replayed", "slow:store-unavailable", "fast:expired", "right:expired"), seen, kind)
            val refused = runCatching { slow.checkAndRecord("s", "k", t0 + 60_000, System.currentTimeMillis() - 3000) }.exceptionOrNull()
            assertTrue(refused is StoreSafetyException && refused.problem == StoreSafetyProblem.CLOCK_SKEW, "$refused")
            listOf(right, fast, slow).forEach { (it as AutoCloseable).close() }
        }
    }

    @Test
    fun `an evicting policy set at runtime makes the Redis store refuse within its check interval`() = runBlocking {
        servers()
        val admin = io.lettuce.core.RedisClient.create("redis://127.0.0.1:$redisPort")
        val commands = admin.connect().sync()
        RedisReplayStore("redis://127.0.0.1:$redisPort", keyPrefix = "kt-evict:", safety = RedisSafety(checkIntervalMs = 200)).use { store ->
            try {
                val now = System.currentTimeMillis()
                assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "a", now + 60_000, now))
                commands.configSet("maxmemory-policy", "allkeys-lru")
                Thread.sleep(300)
                val refused = runCatching { store.checkAndRecord("s", "b", now + 60_000, System.currentTimeMillis()) }.exceptionOrNull()
                assertTrue(refused is StoreSafetyException && refused.problem == StoreSafetyProblem.MAY_EVICT && refused.message!!.contains("allkeys-lru"), "$refused")
                commands.configSet("maxmemory-policy", "noeviction")
                commands.configSet("appendonly", "no")
                Thread.sleep(300)
                val volatile = runCatching { store.checkAndRecord("s", "b", now + 60_000, System.currentTimeMillis()) }.exceptionOrNull()
                assertTrue(volatile is StoreSafetyException && volatile.problem == StoreSafetyProblem.NOT_PERSISTENT, "$volatile")
                commands.configSet("appendonly", "yes")
                assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "b", now + 60_000, System.currentTimeMillis()))
            } finally {
                commands.configSet("maxmemory-policy", "noeviction")
                commands.configSet("appendonly", "yes")
                admin.shutdown()
            }
        }
    }

    @Test
    fun `the periodic check refreshes in the background, a slow check holding no caller while the last pass is fresh, and callers wait once it is an interval old`() = runBlocking {
        servers()
        val intervalMs = 4000L
        // A wide skew bound: the held caller's clock reading is a second old when its check passes, and the clock is not what this test is about.
        val safety = RedisSafety(checkIntervalMs = intervalMs, maxClockSkewMs = 30_000)
        RedisReplayStore("redis://127.0.0.1:$redisPort", keyPrefix = "kt-background:", timeoutMs = 30_000, safety = safety).use { store ->
            suspend fun record(key: String) = store.checkAndRecord("s", key, System.currentTimeMillis() + 60_000, System.currentTimeMillis())
            val beforeFirstPass = System.nanoTime()
            assertEquals(RecordOutcome.RECORDED, record("first"))
            // From now on a check is held at a gate the test opens: as slow as a check can be.
            val gate = CompletableDeferred<Unit>()
            val checking = CompletableDeferred<Unit>()
            store.beforeServerCheck = {
                checking.complete(Unit)
                gate.await()
            }
            // Half an interval after the pass, a caller starts the next check in the background.
            var n = 0
            while (!checking.isCompleted) {
                assertEquals(RecordOutcome.RECORDED, record("before-${n++}"))
                delay(50)
            }
            // The check is held, and callers still get their answers (the last pass is fresh).
            for (i in 0 until 3) assertEquals(RecordOutcome.RECORDED, record("while-checking-$i"))
            assertTrue(!gate.isCompleted)
            // Once the last pass is an interval old the store does not answer without a new one.
            delay(maxOf(0L, (beforeFirstPass + intervalMs * 1_000_000 - System.nanoTime()) / 1_000_000) + 200)
            val late = async(Dispatchers.Default) { store.checkAndRecord("s", "after-interval", System.currentTimeMillis() + 60_000, System.currentTimeMillis()) }
            assertNull(withTimeoutOrNull(1000) { late.await() }, "answered on a check older than its interval")
            gate.complete(Unit)
            assertEquals(RecordOutcome.RECORDED, late.await())
            // A background check that fails refuses the callers after it (fail closed), as the first one did.
            store.beforeServerCheck = { throw StoreSafetyException(StoreSafetyProblem.MAY_EVICT, "the check failed") }
            var refused: Throwable? = null
            for (i in 0 until 400) {
                refused = runCatching { record("until-refused-$i") }.exceptionOrNull()
                if (refused != null) break
                delay(50)
            }
            assertTrue(refused is StoreSafetyException && refused.message == "the check failed", "$refused")
        }
    }

    @Test
    fun `a borrowed connection that reconnects to a server which may evict makes the store refuse at once`() = runBlocking {
        servers()
        val binary = listOf("/usr/bin/redis-server", "/usr/local/bin/redis-server").map(::File).first { it.canExecute() }
        val port = freePort()
        val serverDir = Files.createTempDirectory(dir.toPath(), "borrowed").toFile()
        fun start(policy: String) = ProcessBuilder(binary.path, "--port", "$port", "--bind", "127.0.0.1", "--dir", serverDir.path, "--appendonly", "yes", "--save", "", "--protected-mode", "no", "--maxmemory-policy", policy)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start().also { waitForPort(port) }
        var server = start("noeviction")
        val client = io.lettuce.core.RedisClient.create("redis://127.0.0.1:$port")
        try {
            val owned = client.connect()
            // A check interval far longer than the test: only the reconnect can trigger the check.
            val store = RedisReplayStore(owned, keyPrefix = "kt-borrowed:", timeoutMs = 5000, safety = RedisSafety(checkIntervalMs = 600_000))
            val now = System.currentTimeMillis()
            assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "a", now + 60_000, now))
            // The server is replaced by one configured to evict (a failover to a differently configured replica).
            server.destroyForcibly().waitFor()
            server = start("allkeys-lru")
            val until = System.currentTimeMillis() + 20_000
            while (runCatching { owned.sync().ping() }.isFailure) {
                check(System.currentTimeMillis() < until) { "the borrowed connection never reconnected" }
                Thread.sleep(100)
            }
            val refused = runCatching { store.checkAndRecord("s", "b", now + 60_000, System.currentTimeMillis()) }.exceptionOrNull()
            assertTrue(refused is StoreSafetyException && refused.problem == StoreSafetyProblem.MAY_EVICT, "$refused")
            store.close()
            assertTrue(owned.isOpen, "closing the store leaves the application's connection open")
        } finally {
            client.shutdown()
            server.destroyForcibly().waitFor()
        }
    }

    @Test
    fun `a replica promoted after its primary died has every record acknowledged in WAIT mode`() = runBlocking {
        servers()
        val binary = listOf("/usr/bin/redis-server", "/usr/local/bin/redis-server").map(::File).first { it.canExecute() }
        val replicaPort = freePort()
        val replicaDir = Files.createTempDirectory(dir.toPath(), "replica").toFile()
        val replica = ProcessBuilder(binary.path, "--port", "$replicaPort", "--bind", "127.0.0.1", "--dir", replicaDir.path, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "no", "--replicaof", "127.0.0.1", "$redisPort")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start()
        try {
            waitForPort(replicaPort)
            val probe = io.lettuce.core.RedisClient.create("redis://127.0.0.1:$replicaPort")
            val replicaCommands = probe.connect().sync()
            val until = System.currentTimeMillis() + 20_000
            val primaryProbe = io.lettuce.core.RedisClient.create("redis://127.0.0.1:$redisPort")
            val primaryCommands = primaryProbe.connect().sync()
            // Synchronised on both ends: the replica's link is up and the primary counts it online.
            while (!replicaCommands.info("replication").contains("master_link_status:up") ||
                !Regex("slave0:[^\n]*state=online").containsMatchIn(primaryCommands.info("replication"))) {
                check(System.currentTimeMillis() < until) { "the replica never synchronised" }
                Thread.sleep(100)
            }
            primaryProbe.shutdown()
            val now = System.currentTimeMillis()
            // A deadline a loaded machine meets: 500 ms was missed once in a fresh-clone CI run.
            RedisReplayStore("redis://127.0.0.1:$redisPort", keyPrefix = "kt-failover:", timeoutMs = 10_000, safety = RedisSafety(waitReplicas = 1, waitTimeoutMs = 5000)).use { store ->
                repeat(30) { assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("f", "k$it", now + 120_000, System.currentTimeMillis())) }
            }
            redis!!.destroyForcibly().waitFor() // the primary dies
            replicaCommands.replicaofNoOne()
            RedisReplayStore("redis://127.0.0.1:$replicaPort", keyPrefix = "kt-failover:").use { promoted ->
                repeat(30) { assertEquals(RecordOutcome.REPLAYED, promoted.checkAndRecord("f", "k$it", now + 120_000, System.currentTimeMillis()), "k$it") }
            }
            probe.shutdown()
        } finally {
            replica.destroyForcibly().waitFor()
            if (redis?.isAlive != true) startRedis(binary)
        }
    }

    @Test
    fun `a 3000-character id and an id holding U+0000 get one verdict in every store`() = runBlocking {
        servers()
        val long = "x".repeat(3000)
        val withNul = "a\u0000b"
        val sqliteFile = File(dir, "odd-${System.nanoTime()}.db").path
        val stores = listOf(InMemoryReplayStore(), SqliteReplayStore(sqliteFile), redisStore("kt-odd:"), pgStore("kt_odd"))
        for (store in stores) {
            val now = System.currentTimeMillis()
            for ((scope, key) in listOf("s" to long, long to "k", "s" to withNul, "s" to "a", withNul to long)) {
                assertEquals(RecordOutcome.RECORDED, store.checkAndRecord(scope, key, now + 60_000, now), "$store ${scope.take(5)} ${key.take(5)}")
                assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord(scope, key, now + 60_000, now), "$store")
            }
            val guard = ReplayGuard(declaration, store)
            for (id in listOf(long, withNul)) {
                val m = message(id, now + 60_000, provider = withNul)
                assertEquals("admitted", outcome(guard.admit(m)), "$store")
                assertEquals("replayed", outcome(guard.admit(m)), "$store")
            }
            (store as? AutoCloseable)?.close()
        }
    }

    @Test
    fun `the record id is the TypeScript store's digest, and the migration its text`() {
        // SHA-256 of 00 00 00 00 00 00 00 01 73 6b ("s", "k"), computed with sha256sum from that definition.
        assertEquals("7f50ccf79ef391b6b0e7c23546b3292f08a5afd3dde9d881fa23188a91b08ddd", PostgresReplayStore.recordId("s", "k").joinToString("") { "%02x".format(it) })
        assertEquals("[\"a\\u0000b\",\"k\"]", PostgresReplayStore.jsonPair("a\u0000b", "k"))
    }

    /** Lettuce connects in the constructor: a refused connection is the store failing on every call. */
    private class ThrowingStore(private val error: Throwable) : ReplayStore {
        override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome = throw error as? Exception ?: RuntimeException(error)
        override suspend fun evictExpired(nowMs: Long): Int = 0
        override suspend fun size(): Int = 0
    }

    private fun startRedis(binary: File) {
        redis = ProcessBuilder(binary.path, "--port", "$redisPort", "--bind", "127.0.0.1", "--dir", dir.path, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "no")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start()
        waitForPort(redisPort)
    }

    private fun startPg(asRoot: Boolean) {
        val options = "-p $pgPort -k ${dir.path} -c listen_addresses=127.0.0.1"
        runPg(asRoot, File(pgBin, "pg_ctl").path, "-D", File(dir, "pg").path, "-o", options, "-l", File(dir, "pg.log").path, "-w", "-t", "30", "start")
    }

    private fun runPg(asRoot: Boolean, vararg command: String) = if (asRoot) run("runuser", "-u", "postgres", "--", *command) else run(*command)

    private fun run(vararg command: String) {
        val process = ProcessBuilder(*command).directory(dir).redirectErrorStream(true).start()
        val output = process.inputStream.bufferedReader().readText()
        check(process.waitFor() == 0) { "${command.joinToString(" ")} failed: $output" }
    }

    private fun freePort(): Int = ServerSocket(0).use { it.localPort }

    private fun waitForPort(port: Int) {
        val until = System.currentTimeMillis() + 20_000
        while (System.currentTimeMillis() < until) {
            if (runCatching { java.net.Socket("127.0.0.1", port).close() }.isSuccess) return
            Thread.sleep(50)
        }
        error("no server on port $port")
    }
}
