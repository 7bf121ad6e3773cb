package dev.agentcontracts.runtime

import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.time.Clock
import java.time.Instant
import java.time.ZoneId
import java.time.ZoneOffset
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

// The guard suspends (network stores); these tests drive it from plain JUnit threads.
private fun ReplayGuard.admitBlocking(message: JsonObject): ReplayDecision = runBlocking { admit(message) }

class ReplayGuardTest {
    /** A clock the test moves by hand. */
    private class TestClock(var now: Instant) : Clock() {
        override fun getZone(): ZoneId = ZoneOffset.UTC
        override fun withZone(zone: ZoneId): Clock = this
        override fun instant(): Instant = now
    }

    /** The x-replay declaration of ActionProposal, as the spec vectors state it. */
    private val declaration: ReplayDeclaration by lazy {
        val replay = TestData.json("spec/agent-provider/vectors/hmac-sha256-v1.json")
            .jsonObject.getValue("replay").jsonObject.getValue("ActionProposal").jsonObject
        ReplayDeclaration(
            keyFields = replay.getValue("keyFields").jsonArray.map { it.jsonPrimitive.content },
            scopeFields = replay.getValue("scopeFields").jsonArray.map { it.jsonPrimitive.content },
            expiresAtField = replay.string("expiresAtField"),
            notBeforeField = replay.stringOrNull("notBeforeField"),
            skewSeconds = replay.getValue("skewSeconds").jsonPrimitive.long,
        )
    }

    private val clock = TestClock(Instant.parse("2026-05-27T00:05:00Z"))

    private fun proposal(requestId: String = "request-1", provider: String = "wallet.provider", expiresAt: String = "2026-05-27T00:10:00Z", createdAt: String = "2026-05-27T00:00:00Z"): JsonObject =
        buildJsonObject {
            put("request_id", requestId)
            put("provider_id", provider)
            put("host_instance_id", "host-instance-1")
            put("created_at", createdAt)
            put("expires_at", expiresAt)
        }

    private fun rejection(decision: ReplayDecision): ReplayRejectCode? = (decision as? ReplayDecision.Rejected)?.code

    @Test
    fun `admits once per scope and refuses the replay`() {
        val guard = ReplayGuard(declaration, InMemoryReplayStore(), clock)
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal()))
        assertEquals(ReplayRejectCode.REPLAYED, rejection(guard.admitBlocking(proposal())))
        // The same request id from another provider is a different message.
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(provider = "other.provider")))
    }

    @Test
    fun `one scope at its quota does not lock out another`() {
        val guard = ReplayGuard(declaration, InMemoryReplayStore(maxEntries = 100, maxEntriesPerScope = 10), clock)
        for (i in 0 until 10) assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(requestId = "g-$i", provider = "greedy")))
        assertEquals(ReplayRejectCode.CAPACITY_EXCEEDED, rejection(guard.admitBlocking(proposal(requestId = "g-10", provider = "greedy"))))
        assertEquals(ReplayRejectCode.REPLAYED, rejection(guard.admitBlocking(proposal(requestId = "g-3", provider = "greedy"))))
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(requestId = "p-0", provider = "polite")))
        clock.now = Instant.parse("2026-05-27T00:11:01Z")
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(requestId = "g-11", provider = "greedy", createdAt = "2026-05-27T00:11:00Z", expiresAt = "2026-05-27T00:20:00Z")))
    }

    @Test
    fun `time rules come before the store`() {
        val store = InMemoryReplayStore()
        val guard = ReplayGuard(declaration, store, clock)
        assertEquals(ReplayRejectCode.EXPIRED, rejection(guard.admitBlocking(proposal(expiresAt = "2026-05-27T00:05:00Z"))))
        // created_at may be ahead by the declared skew (60 s), not more.
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(requestId = "r2", createdAt = "2026-05-27T00:06:00Z")))
        assertEquals(ReplayRejectCode.NOT_YET_VALID, rejection(guard.admitBlocking(proposal(requestId = "r3", createdAt = "2026-05-27T00:06:01Z"))))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, rejection(guard.admitBlocking(proposal(requestId = "r4", expiresAt = "2026-05-27 00:10:00Z"))))
        assertEquals(ReplayRejectCode.FIELD_MISSING, rejection(guard.admitBlocking(proposal(requestId = ""))))
        val noScope = JsonObject(proposal().filterKeys { it != "host_instance_id" })
        assertEquals(ReplayRejectCode.FIELD_MISSING, rejection(guard.admitBlocking(noScope)))
        val numericId = JsonObject(proposal() + ("request_id" to JsonPrimitive(7)))
        assertEquals(ReplayRejectCode.FIELD_MISSING, rejection(guard.admitBlocking(numericId)))
        assertEquals(1, runBlocking { store.size() }, "refused messages leave no record")
    }

    @Test
    fun `lifetime ceiling bounds how long records are kept`() {
        val guard = ReplayGuard(declaration.copy(maxLifetimeSeconds = 300), InMemoryReplayStore(), clock)
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(expiresAt = "2026-05-27T00:11:00Z")))
        assertEquals(ReplayRejectCode.LIFETIME_EXCEEDED, rejection(guard.admitBlocking(proposal(requestId = "r2", expiresAt = "2026-05-27T00:11:01Z"))))
    }

    @Test
    fun `records outlive expiry by the skew, then are evicted`() {
        val store = InMemoryReplayStore(maxEntries = 1)
        val guard = ReplayGuard(declaration, store, clock)
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal()))
        // Full of a live record: fail closed rather than forget it.
        assertEquals(ReplayRejectCode.CAPACITY_EXCEEDED, rejection(guard.admitBlocking(proposal(requestId = "r2"))))
        // After expiry the message itself is refused as expired; its record is still held.
        clock.now = Instant.parse("2026-05-27T00:10:30Z")
        assertEquals(0, runBlocking { store.evictExpired(clock.millis()) })
        // Past expiry + skew the record goes and the room is reused.
        clock.now = Instant.parse("2026-05-27T00:11:00Z")
        assertEquals(ReplayDecision.Admitted, guard.admitBlocking(proposal(requestId = "r3", expiresAt = "2026-05-27T00:20:00Z")))
        assertEquals(1, runBlocking { store.size() })
    }

    @Test
    fun `check and record is atomic under contention`() {
        val guard = ReplayGuard(declaration, InMemoryReplayStore(), clock)
        val threads = 8
        val pool = Executors.newFixedThreadPool(threads)
        val start = CountDownLatch(1)
        try {
            val results = (1..threads * 25).map {
                pool.submit<ReplayDecision> {
                    start.await()
                    guard.admitBlocking(proposal(requestId = "request-${it % 25}"))
                }
            }
            start.countDown()
            val admitted = results.count { it.get(10, TimeUnit.SECONDS) == ReplayDecision.Admitted }
            assertEquals(25, admitted, "each of the 25 request ids is admitted exactly once")
        } finally {
            pool.shutdownNow()
        }
    }

    @Test
    fun `every valid signed vector is admitted at its own clock and expires after its expires_at`() {
        // The clock is a parameter: no vector depends on today's date (two trigger vectors expired in May 2026).
        val spec = TestData.json("spec/agent-provider/vectors/hmac-sha256-v1.json").jsonObject
        var checked = 0
        for (element in spec.getValue("cases").jsonArray) {
            val c = element.jsonObject
            if (c.getValue("expect").jsonPrimitive.content != "valid") continue
            val message = c.getValue("message").jsonObject
            val replay = spec.getValue("replay").jsonObject.getValue(c.getValue("message_type").jsonPrimitive.content).jsonObject
            val d = ReplayDeclaration(
                keyFields = replay.getValue("keyFields").jsonArray.map { it.jsonPrimitive.content },
                scopeFields = replay.getValue("scopeFields").jsonArray.map { it.jsonPrimitive.content },
                expiresAtField = replay.string("expiresAtField"),
                notBeforeField = replay.stringOrNull("notBeforeField"),
                skewSeconds = replay.getValue("skewSeconds").jsonPrimitive.long,
            )
            val created = parseRfc3339(message.getValue("created_at").jsonPrimitive.content) ?: continue
            val expires = parseRfc3339(message.getValue("expires_at").jsonPrimitive.content) ?: continue
            val name = c.getValue("name").jsonPrimitive.content
            assertEquals(ReplayDecision.Admitted, ReplayGuard(d, InMemoryReplayStore(), TestClock(Instant.ofEpochMilli(created))).admitBlocking(message), name)
            val late = TestClock(Instant.ofEpochMilli(expires + d.skewSeconds * 1000 + 1000))
            assertEquals(ReplayRejectCode.EXPIRED, rejection(ReplayGuard(d, InMemoryReplayStore(), late).admitBlocking(message)), name)
            checked++
        }
        assert(checked > 5) { "only $checked signed vectors" }
    }

    @Test
    fun `rfc 3339 parsing is strict`() {
        assertEquals(Instant.parse("2026-05-27T00:00:00Z").toEpochMilli(), parseRfc3339("2026-05-27T00:00:00Z"))
        assertEquals(Instant.parse("2026-05-26T22:30:00.123Z").toEpochMilli(), parseRfc3339("2026-05-27T00:00:00.123999+01:30"))
        assertEquals(Instant.parse("2026-05-27T00:00:00Z").toEpochMilli(), parseRfc3339("2026-05-27t00:00:00z"))
        assertEquals(Instant.parse("2024-02-29T00:00:00Z").toEpochMilli(), parseRfc3339("2024-02-29T00:00:00Z"))
        for (bad in listOf("2026-05-27 00:00:00Z", "2026-12-31T23:59:60Z", "2025-02-29T00:00:00Z", "2026-05-27T00:00:00", "2026-13-01T00:00:00Z", "2026-05-27T00:00:00.Z", "2026-05-27T24:00:00Z")) {
            assertNull(parseRfc3339(bad), bad)
        }
    }
}
