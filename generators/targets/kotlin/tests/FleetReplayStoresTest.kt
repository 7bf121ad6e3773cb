package dev.agentcontracts.runtime

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.io.File
import java.net.ServerSocket
import java.nio.file.Files
import java.time.Instant

/**
 * The Kotlin Redis and PostgreSQL stores against real servers started here on loopback (data in a
 * temporary folder), never mocks: the replay contract, 4 racing workers recording each key exactly
 * once, records surviving a crash and restart, and the guard refusing when the server is down.
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
            val outcomes = workers.map { store -> async(Dispatchers.IO) { keys.map { store.checkAndRecord("race", it, now + 60_000, now) } } }.awaitAll()
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
        redisStore("kt-restart:").use { s -> repeat(20) { assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("r", "k$it", now + 120_000, now)) } }
        pgStore("kt_restart").use { s -> repeat(20) { assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("r", "k$it", now + 120_000, now)) } }
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
            val minted = ApprovalToken.mint(declaration, MintApprovalInput(action = "delete", resourceId = "r1", actorId = "alice", requestId = requestId), secret, now)
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
