package dev.agentcontracts.runtime

import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset

/**
 * The once-only state without a server: spendApprovalToken and InMemoryBookmarkStore against their
 * documented contracts (spent once per request id, kept until exp + 1 s + skew, the TypeScript
 * single-use.ts scope, key and codes; a bookmark only moves forward over non-negative safe
 * integers), and ReplayGuard's unix-seconds time format (integers within JavaScript's safe range,
 * exp inclusive through its second) with the TypeScript replay-guard.ts reject codes.
 */
class OnceOnlyMutationKillsTest {
    private val declaration = ApprovalTokenDeclaration(1, 900, clockSkewSeconds = 30, minTtlSeconds = 1, maxTtlSeconds = 900, defaultTtlSeconds = 300, minSecretBytes = 32)

    private fun claims(requestId: String, exp: Long = 1_000) =
        ApprovalClaims(1, exp, "a", "r", "u", requestId, null, null, false, null, JsonNull, null, "n")

    /** Records every call, answering as the in-memory store does. */
    private class Recording : ReplayStore {
        val calls = mutableListOf<List<Any>>()
        private val inner = InMemoryReplayStore()
        override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
            calls += listOf(scope, key, retainUntilMs, nowMs)
            return inner.checkAndRecord(scope, key, retainUntilMs, nowMs)
        }
        override suspend fun evictExpired(nowMs: Long) = inner.evictExpired(nowMs)
        override suspend fun size() = inner.size()
    }

    private class Failing : ReplayStore {
        override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome = throw java.io.IOException("secret-host:6379 refused")
        override suspend fun evictExpired(nowMs: Long) = 0
        override suspend fun size() = 0
    }

    @Test
    fun `an approval token is spent once, in the TypeScript scope and key, until exp plus 1 s plus skew`() = runBlocking {
        val store = Recording()
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r1"), store, 500_000, declaration))
        // (exp 1000 + 1 + skew 30) s = 1,031,000 ms; the scope and JSON-array key of single-use.ts.
        assertEquals(listOf("agent-service/approval-token", "[\"r1\"]", 1_031_000L, 500_000L), store.calls.single())
        val again = spendApprovalToken(claims("r1"), store, 1_030_999, declaration)
        assertEquals(ApprovalSpendCode.ALREADY_USED, (again as ApprovalSpendResult.Refused).code)
        assertTrue(again.message.isNotBlank())
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r1"), store, 1_031_000, declaration))
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r2"), store, 500_000, declaration))
    }

    @Test
    fun `a full store and a failing store refuse, naming no secret`() = runBlocking {
        val full = InMemoryReplayStore(maxEntries = 1)
        assertEquals(ApprovalSpendResult.Spent, spendApprovalToken(claims("r1"), full, 0, declaration))
        val refused = spendApprovalToken(claims("r2"), full, 0, declaration) as ApprovalSpendResult.Refused
        assertEquals(ApprovalSpendCode.STORE_FULL, refused.code)
        assertTrue(refused.message.isNotBlank())
        val down = spendApprovalToken(claims("r1"), Failing(), 0, declaration) as ApprovalSpendResult.Refused
        assertEquals(ApprovalSpendCode.STORE_UNAVAILABLE, down.code)
        assertTrue(down.message.contains("IOException"), down.message)
        assertFalse(down.message.contains("secret-host"), down.message)
        assertEquals(listOf("already-used", "store-full", "store-unavailable"), ApprovalSpendCode.entries.map { it.wireName })
    }

    @Test
    fun `a bookmark only moves forward, per scope, over non-negative safe integers`() = runBlocking {
        val store = InMemoryBookmarkStore()
        assertEquals(0L, store.position("a"))
        assertEquals(5L, store.advance("a", 5))
        assertEquals(5L, store.advance("a", 3))
        assertEquals(5L, store.position("a"))
        assertEquals(0L, store.position("b"))
        assertEquals(0L, store.advance("b", 0))
        assertEquals(9_007_199_254_740_991L, store.advance("b", 9_007_199_254_740_991L))
        assertThrows<IllegalArgumentException> { runBlocking { store.advance("c", -1) } }
        assertThrows<IllegalArgumentException> { runBlocking { store.advance("c", 9_007_199_254_740_992L) } }
        assertEquals(0L, store.position("c"))
    }

    private val unixDeclaration = ReplayDeclaration(keyFields = listOf("id"), scopeFields = emptyList(), expiresAtField = "exp", notBeforeField = "iat", skewSeconds = 10, timeFormat = ReplayTimeFormat.UNIX_SECONDS)
    private val clock = Clock.fixed(Instant.ofEpochSecond(1_000), ZoneOffset.UTC)

    private fun message(id: String, exp: Any, iat: Any = 990L): JsonObject = buildJsonObject {
        put("id", id)
        if (exp is Long) put("exp", exp) else put("exp", exp.toString())
        if (iat is Long) put("iat", iat) else put("iat", iat.toString())
    }

    private fun decide(guard: ReplayGuard, message: JsonObject) = runBlocking { guard.admit(message) }

    @Test
    fun `unix-seconds times are safe integers, exp valid through its own second`() {
        val store = Recording()
        val guard = ReplayGuard(unixDeclaration, store, clock)
        assertEquals(ReplayDecision.Admitted, decide(guard, message("a", 1_000L)))
        // exp 1000 s is valid through 1000.999 s; the record is kept until then plus the 10 s skew.
        assertEquals(listOf(1_011_000L, 1_000_000L), store.calls.single().drop(2))
        fun code(m: JsonObject) = (decide(guard, m) as ReplayDecision.Rejected).code
        assertEquals(ReplayRejectCode.EXPIRED, code(message("b", 999L)))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("c", "2000")))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("d", 9_007_199_254_740_992L)))
        assertEquals(ReplayRejectCode.INVALID_TIMESTAMP, code(message("e", 2_000L, iat = -9_007_199_254_740_992L)))
        assertEquals(ReplayDecision.Admitted, decide(guard, message("f", 9_007_199_254L, iat = -9_007_199_254_740_991L)))
        assertEquals(ReplayRejectCode.NOT_YET_VALID, code(message("g", 2_000L, iat = 1_011L)))
        assertEquals(ReplayDecision.Admitted, decide(guard, message("h", 2_000L, iat = 1_010L)))
        val replayed = decide(guard, message("a", 1_000L)) as ReplayDecision.Rejected
        assertEquals(ReplayRejectCode.REPLAYED, replayed.code)
        assertTrue(replayed.message.isNotBlank())
        assertEquals("unix-seconds", ReplayTimeFormat.UNIX_SECONDS.wireName)
        assertEquals(
            listOf("field-missing", "invalid-timestamp", "expired", "not-yet-valid", "lifetime-exceeded", "replayed", "capacity-exceeded", "store-unavailable"),
            ReplayRejectCode.entries.map { it.wireName },
        )
        val typed = TypedReplayGuard(guard, JsonObject.serializer())
        assertEquals(ReplayDecision.Admitted, runBlocking { typed.admit(message("i", 2_000L)) })
        assertEquals(ReplayRejectCode.REPLAYED, (runBlocking { typed.admitJson(message("i", 2_000L)) } as ReplayDecision.Rejected).code)
    }
}
