package dev.agentcontracts.runtime

import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.yield
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset

/**
 * The once-only paths when the store or the lock really suspends, as the Redis and PostgreSQL
 * stores and a contended bookmark lock do: InMemoryReplayStore answers without suspending, so a
 * suspend function's resumed half (the result handed back after the store answered later, or the
 * store's failure rethrown there) ran in no other test. Expectations are the same as for a store
 * that answers at once (replay-guard.ts and single-use.ts codes); and a timestamp member that is
 * absent or not a scalar is invalid-timestamp, never a time.
 */
class ReplaySuspensionMutationKillsTest {
    /** The in-memory store behind a real suspension (yield dispatches and resumes later); [failure] is thrown after it. */
    private class Suspending(private val failure: Exception? = null, maxEntries: Int = 100) : ReplayStore {
        private val inner = InMemoryReplayStore(maxEntries = maxEntries)
        override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
            yield()
            failure?.let { throw it }
            return inner.checkAndRecord(scope, key, retainUntilMs, nowMs)
        }
        override suspend fun evictExpired(nowMs: Long) = inner.evictExpired(nowMs)
        override suspend fun size() = inner.size()
    }

    private val approval = ApprovalTokenDeclaration(1, 900, clockSkewSeconds = 30, minTtlSeconds = 1, maxTtlSeconds = 900, defaultTtlSeconds = 300, minSecretBytes = 32)
    private fun claims(requestId: String) = ApprovalClaims(1, 1_000, "a", "r", "u", requestId, null, null, false, null, JsonNull, null, "n")

    @Test
    fun `an approval token spent through a store that suspends`() = runBlocking {
        val store = Suspending()
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r1"), store, 500_000, approval))
        assertEquals(ApprovalSpendCode.ALREADY_USED, (spendApprovalToken(claims("r1"), store, 500_000, approval) as ApprovalSpendResult.Refused).code)
        val full = Suspending(maxEntries = 1)
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r1"), full, 0, approval))
        assertEquals(ApprovalSpendCode.STORE_FULL, (spendApprovalToken(claims("r2"), full, 0, approval) as ApprovalSpendResult.Refused).code)
        // The store's own failure, raised after it suspended, is what the refusal names.
        val down = spendApprovalToken(claims("r1"), Suspending(java.io.IOException("secret-host refused")), 0, approval) as ApprovalSpendResult.Refused
        assertEquals(ApprovalSpendCode.STORE_UNAVAILABLE, down.code)
        assertEquals("once-only store did not answer: IOException", down.message)
    }

    private val declaration = ReplayDeclaration(keyFields = listOf("id"), scopeFields = listOf("scope"), expiresAtField = "expires_at", notBeforeField = "created_at", skewSeconds = 60, maxLifetimeSeconds = 86_400, timeFormat = ReplayTimeFormat.RFC3339)
    private val clock = Clock.fixed(Instant.parse("2026-05-27T00:00:00Z"), ZoneOffset.UTC)
    private fun message(id: String, build: kotlinx.serialization.json.JsonObjectBuilder.() -> Unit = { put("expires_at", "2026-05-27T00:05:00Z"); put("created_at", "2026-05-27T00:00:00Z") }): JsonObject =
        buildJsonObject { put("id", id); put("scope", "s"); build() }

    @Test
    fun `a replay guard over a store that suspends`() = runBlocking {
        val guard = ReplayGuard(declaration, Suspending(), clock)
        assertEquals(ReplayDecision.Admitted, guard.admit(message("a")))
        assertEquals(ReplayRejectCode.REPLAYED, (guard.admit(message("a")) as ReplayDecision.Rejected).code)
        val full = ReplayGuard(declaration, Suspending(maxEntries = 1), clock)
        assertEquals(ReplayDecision.Admitted, full.admit(message("a")))
        assertEquals(ReplayRejectCode.CAPACITY_EXCEEDED, (full.admit(message("b")) as ReplayDecision.Rejected).code)
        val down = ReplayGuard(declaration, Suspending(java.io.IOException("secret-host refused")), clock).admit(message("a")) as ReplayDecision.Rejected
        assertEquals(ReplayDecision.Rejected(ReplayRejectCode.STORE_UNAVAILABLE, "replay store did not answer: IOException"), down)
        val typed = TypedReplayGuard(ReplayGuard(declaration, Suspending(), clock), JsonObject.serializer())
        assertEquals(ReplayDecision.Admitted, typed.admit(message("t")))
    }

    @Test
    fun `a timestamp member that is absent or not a scalar is invalid, in both time formats`() = runBlocking {
        val guard = ReplayGuard(declaration, InMemoryReplayStore(), clock)
        fun code(m: JsonObject) = runBlocking { (guard.admit(m) as ReplayDecision.Rejected).code }
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("a") { put("created_at", "2026-05-27T00:00:00Z") }))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("b") { putJsonObject("expires_at") { }; put("created_at", "2026-05-27T00:00:00Z") }))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("c") { put("expires_at", "2026-05-27T00:05:00Z") }))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("d") { put("expires_at", "2026-05-27T00:05:00Z"); putJsonObject("created_at") { } }))
        val unix = ReplayGuard(declaration.copy(expiresAtField = "exp", notBeforeField = "iat", timeFormat = ReplayTimeFormat.UNIX_SECONDS), InMemoryReplayStore(), clock)
        val now = clock.millis() / 1000
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, (unix.admit(message("e") { put("iat", now) }) as ReplayDecision.Rejected).code)
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, (unix.admit(message("f") { put("exp", now + 60) }) as ReplayDecision.Rejected).code)
        assertEquals(ReplayDecision.Admitted, unix.admit(message("g") { put("exp", now + 60); put("iat", now) }))
    }

    /** The store's private lock, held by the test so that a call must wait for it (the contended case). */
    private fun lockOf(store: InMemoryBookmarkStore): Mutex =
        InMemoryBookmarkStore::class.java.getDeclaredField("lock").apply { isAccessible = true }.get(store) as Mutex

    @Test
    fun `a bookmark read and moved after waiting for its lock`() = runBlocking {
        val store = InMemoryBookmarkStore()
        val lock = lockOf(store)
        lock.lock()
        val moved = async(start = CoroutineStart.UNDISPATCHED) { store.advance("s", 7) }
        val read = async(start = CoroutineStart.UNDISPATCHED) { store.position("t") }
        assertTrue(moved.isActive && read.isActive, "both calls wait for the held lock")
        lock.unlock()
        assertEquals(7L, moved.await())
        assertEquals(0L, read.await())
        lock.lock()
        val again = async(start = CoroutineStart.UNDISPATCHED) { store.position("s") }
        lock.unlock()
        assertEquals(7L, again.await())
        assertFalse(lock.isLocked)
    }

    @Test
    fun `a call cancelled while it waits for the lock changes nothing`() = runBlocking {
        val store = InMemoryBookmarkStore()
        val lock = lockOf(store)
        lock.lock()
        val moved = async(start = CoroutineStart.UNDISPATCHED) { store.advance("s", 5) }
        val read = async(start = CoroutineStart.UNDISPATCHED) { store.position("s") }
        moved.cancel()
        read.cancel()
        lock.unlock()
        moved.join()
        read.join()
        assertTrue(moved.isCancelled && read.isCancelled)
        assertFalse(lock.isLocked, "the cancelled waiters hold no lock")
        assertEquals(0L, store.position("s"))
    }
}
