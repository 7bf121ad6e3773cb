package dev.agentcontracts.runtime

import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/** A trigger-like declaration and message, as the TypeScript crash test (property-tests/runtime/replay-child.ts) uses. */
internal object CrashCase {
    val declaration = ReplayDeclaration(keyFields = listOf("request_id"), scopeFields = listOf("provider_id", "host_instance_id"), expiresAtField = "expires_at", skewSeconds = 60)
    val clock: Clock = Clock.fixed(Instant.parse("2026-05-30T00:00:00Z"), ZoneOffset.UTC)

    fun message(requestId: String): JsonObject = buildJsonObject {
        put("request_id", requestId)
        put("provider_id", "provider.app")
        put("host_instance_id", "host-1")
        put("expires_at", "2026-05-30T00:10:00Z")
    }
}

/**
 * The child JVM of the crash test: admits r-0, r-1, ... into the SQLite store at args[0] as fast as
 * it can and prints "ACK <id>" only after an admission returned (committed). The test kills it.
 */
object SqliteReplayChild {
    @JvmStatic
    fun main(args: Array<String>) = runBlocking {
        val guard = ReplayGuard(CrashCase.declaration, SqliteReplayStore(args[0]), CrashCase.clock)
        var i = 0
        while (true) {
            val id = "r-${i++}"
            when (val decision = guard.admit(CrashCase.message(id))) {
                ReplayDecision.Admitted -> println("ACK $id")
                is ReplayDecision.Rejected -> println("REJECT $id ${decision.code.wireName}")
            }
            System.out.flush()
        }
    }
}

/**
 * The durability claim across a killed process, as the TypeScript SQLite store's crash test
 * (property-tests/runtime/replay.test.ts). Its own class so that PIT (`make mutation-kotlin`),
 * which reruns the covering tests per mutant, can leave this slow two-JVM test out.
 */
class SqliteReplayCrashTest {
    @TempDir
    lateinit var dir: Path

    /**
     * Every message the child acknowledged before it was killed (SIGKILL,
     * destroyForcibly) is rejected as replayed by a new process on the same file.
     */
    @Test
    fun `records acknowledged before the process is killed stay rejected after a restart`() {
        val path = dir.resolve("crash.db").toString()
        val java = Path.of(System.getProperty("java.home"), "bin", "java").toString()
        // Surefire runs the tests from a manifest-only jar; this property holds the real test classpath.
        val classpath = System.getProperty("surefire.test.class.path") ?: System.getProperty("java.class.path")
        val child = ProcessBuilder(java, "-cp", classpath, SqliteReplayChild::class.java.name, path).redirectErrorStream(true).start()
        val acked = mutableListOf<String>()
        val reader = Executors.newSingleThreadExecutor()
        try {
            val reading = reader.submit {
                child.inputStream.bufferedReader().useLines { lines ->
                    for (line in lines) {
                        if (line.startsWith("ACK ")) synchronized(acked) { acked += line.removePrefix("ACK ") }
                        if (synchronized(acked) { acked.size } >= 300) break
                    }
                }
            }
            // Bounded: a child that never gets going fails the test instead of hanging it.
            reading.get(120, TimeUnit.SECONDS)
            child.destroyForcibly()
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child was killed")
        } finally {
            child.destroyForcibly()
            reader.shutdownNow()
        }
        assertFalse(child.exitValue() == 0, "the child did not exit normally")
        val ids = synchronized(acked) { acked.toList() }
        assertTrue(ids.size >= 300, "the child acknowledged ${ids.size} messages")
        SqliteReplayStore(path).use { store ->
            val guard = ReplayGuard(CrashCase.declaration, store, CrashCase.clock)
            runBlocking {
                for (id in ids) {
                    val decision = guard.admit(CrashCase.message(id))
                    assertEquals(ReplayRejectCode.REPLAYED, (decision as? ReplayDecision.Rejected)?.code, "$id was acknowledged before the kill")
                }
                assertEquals(ReplayDecision.Admitted, guard.admit(CrashCase.message("fresh-after-restart")), "the store still records")
            }
        }
        println("[sqlite crash] ${ids.size} acknowledged records survived the kill")
    }
}
