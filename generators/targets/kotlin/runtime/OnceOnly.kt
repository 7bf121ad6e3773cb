package dev.agentcontracts.runtime

import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonPrimitive

// The other once-only state of the protocols, on the same stores as replay (ReplayStore: memory,
// Redis, PostgreSQL), with the TypeScript runtime's scopes and keys so services in both languages
// share one server: an approval token is spent once per request id, and an inbox bookmark only
// moves forward.

/** The once-only store scope of spent approval tokens (key: JSON [request_id]), as in TypeScript. */
const val APPROVAL_TOKEN_USE_SCOPE = "agent-service/approval-token"

enum class ApprovalSpendCode(val wireName: String) {
    ALREADY_USED("already-used"),
    STORE_FULL("store-full"),
    STORE_UNAVAILABLE("store-unavailable"),
}

sealed interface ApprovalSpendResult {
    data object Spent : ApprovalSpendResult
    data class Refused(val code: ApprovalSpendCode, val message: String) : ApprovalSpendResult
}

/**
 * Spends a token whose claims [ApprovalToken.verifyApprovalToken] accepted: the first call for its request id
 * succeeds, every later one (on any replica sharing [store]) is refused with ALREADY_USED. The
 * record is kept until exp plus the declared skew, after which the token is refused as expired.
 */
suspend fun spendApprovalToken(claims: ApprovalClaims, store: ReplayStore, nowMs: Long, declaration: ApprovalTokenDeclaration): ApprovalSpendResult {
    val retainUntilMs = (claims.exp + 1 + declaration.clockSkewSeconds) * 1000
    val outcome = try {
        store.checkAndRecord(APPROVAL_TOKEN_USE_SCOPE, JsonArray(listOf(JsonPrimitive(claims.requestId))).toString(), retainUntilMs, nowMs)
    } catch (e: CancellationException) {
        throw e
    } catch (e: Exception) {
        return ApprovalSpendResult.Refused(ApprovalSpendCode.STORE_UNAVAILABLE, "once-only store did not answer: ${e.javaClass.simpleName}")
    }
    return when (outcome) {
        RecordOutcome.RECORDED -> ApprovalSpendResult.Spent
        RecordOutcome.FULL -> ApprovalSpendResult.Refused(ApprovalSpendCode.STORE_FULL, "once-only store is full of unexpired records")
        RecordOutcome.REPLAYED -> ApprovalSpendResult.Refused(ApprovalSpendCode.ALREADY_USED, "approval token was already used for this request")
    }
}

/** Where an inbox handler keeps its bookmark (provider-integration inbox-handling): forward only. */
interface BookmarkStore {
    /** The bookmark of [scope] (0 when none was saved). */
    suspend fun position(scope: String): Long

    /** Moves the bookmark to [sequence] if that is further; returns the bookmark afterwards. */
    suspend fun advance(scope: String, sequence: Long): Long
}

internal fun requireSequence(sequence: Long) = require(sequence in 0..MAX_SAFE_SEQUENCE) { "an inbox sequence is a non-negative safe integer, not $sequence" }

private const val MAX_SAFE_SEQUENCE = 9_007_199_254_740_991L

class InMemoryBookmarkStore : BookmarkStore {
    private val lock = Mutex()
    private val bookmarks = HashMap<String, Long>()

    override suspend fun position(scope: String): Long = lock.withLock { bookmarks[scope] ?: 0 }

    override suspend fun advance(scope: String, sequence: Long): Long {
        requireSequence(sequence)
        return lock.withLock { maxOf(bookmarks[scope] ?: 0, sequence).also { bookmarks[scope] = it } }
    }
}
