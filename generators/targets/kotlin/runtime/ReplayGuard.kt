package dev.agentcontracts.runtime

import kotlinx.serialization.SerializationStrategy
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.longOrNull
import kotlinx.coroutines.CancellationException
import java.time.Clock
import java.time.LocalDateTime
import java.time.YearMonth
import java.time.ZoneOffset

/** The `x-replay` annotation (spec/meta/signing.schema.json#/$defs/Replay). */
data class ReplayDeclaration(
    /** Fields whose values together form the single-use key, e.g. ["request_id"]. */
    val keyFields: List<String>,
    /** Fields naming the instance the key is unique within, e.g. ["provider_id", "host_instance_id"]. */
    val scopeFields: List<String>,
    /** Expiry field. */
    val expiresAtField: String,
    /** Creation field, checked against the clock for messages from the future. */
    val notBeforeField: String? = null,
    /** Clock tolerance: how far ahead created_at may be, and how long past expiry records are kept. */
    val skewSeconds: Long,
    /** Optional ceiling on expires_at - now, which bounds how long records are kept. */
    val maxLifetimeSeconds: Long? = null,
    /** How the time fields are written: RFC 3339 strings (default) or integer Unix seconds. */
    val timeFormat: ReplayTimeFormat = ReplayTimeFormat.RFC3339,
)

enum class ReplayTimeFormat(val wireName: String) {
    RFC3339("rfc3339"),
    UNIX_SECONDS("unix-seconds"),
}

enum class ReplayRejectCode(val wireName: String) {
    FIELD_MISSING("field-missing"),
    INVALID_TIMESTAMP("invalid-timestamp"),
    EXPIRED("expired"),
    NOT_YET_VALID("not-yet-valid"),
    LIFETIME_EXCEEDED("lifetime-exceeded"),
    REPLAYED("replayed"),
    CAPACITY_EXCEEDED("capacity-exceeded"),
    STORE_UNAVAILABLE("store-unavailable"),
}

sealed interface ReplayDecision {
    data object Admitted : ReplayDecision
    data class Rejected(val code: ReplayRejectCode, val message: String) : ReplayDecision
}

enum class RecordOutcome { RECORDED, REPLAYED, FULL }

/**
 * Where admitted keys are kept: the once-only primitive. Implementations must make check and
 * record one atomic step, across processes and machines when the store is shared (Redis,
 * PostgreSQL). Suspending, so network stores fit; a store that cannot answer throws, and the guard
 * then refuses (fail closed).
 */
interface ReplayStore {
    /**
     * Records (scope, key) until [retainUntilMs] and returns RECORDED, or REPLAYED if a record for
     * it is still held at [nowMs], or FULL if no room can be made without dropping a live one.
     */
    suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome

    /** Drops records whose retention has passed; returns how many. */
    suspend fun evictExpired(nowMs: Long): Int

    /** Records currently held. */
    suspend fun size(): Int
}

/**
 * Admits each message once. It rejects expired and not-yet-valid messages first, then records
 * the key atomically. Expiry is strict (as in every real SDK), but a record is kept until expiry
 * plus the skew: longer than the message itself is accepted, so dropping the record can never
 * readmit a still-valid message, even if the clock steps back by up to the skew.
 */
class ReplayGuard(
    private val declaration: ReplayDeclaration,
    private val store: ReplayStore,
    private val clock: Clock = Clock.systemUTC(),
) {
    /** Run it after the signature check, so forged messages leave no record. */
    suspend fun admit(message: JsonObject): ReplayDecision {
        val d = declaration
        val keyParts = d.keyFields.map { field -> stringField(message, field) ?: return missing(field) }
        val scopeParts = d.scopeFields.map { field -> stringField(message, field) ?: return missing(field) }
        val expiresField = timestampField(message, d.expiresAtField)
            ?: return rejected(ReplayRejectCode.INVALID_TIMESTAMP, "${d.expiresAtField} is not a ${d.timeFormat.wireName} time")
        // Unix-seconds expiry is inclusive (the approval token's exp == now passes): valid through that second.
        val expiresAt = if (d.timeFormat == ReplayTimeFormat.UNIX_SECONDS) expiresField + 1000 else expiresField
        val now = clock.millis()
        val skewMs = d.skewSeconds * 1000
        if (now >= expiresAt) return rejected(ReplayRejectCode.EXPIRED, "message has expired")
        if (d.notBeforeField != null) {
            val createdAt = timestampField(message, d.notBeforeField)
                ?: return rejected(ReplayRejectCode.INVALID_TIMESTAMP, "${d.notBeforeField} is not a ${d.timeFormat.wireName} time")
            if (createdAt > now + skewMs) return rejected(ReplayRejectCode.NOT_YET_VALID, "message was created in the future")
        }
        if (d.maxLifetimeSeconds != null && expiresAt - now > (d.maxLifetimeSeconds + d.skewSeconds) * 1000) {
            return rejected(ReplayRejectCode.LIFETIME_EXCEEDED, "message expires further ahead than this receiver accepts")
        }
        val outcome = try {
            store.checkAndRecord(joinKey(scopeParts), joinKey(keyParts), expiresAt + skewMs, now)
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            // Fail closed: a message the store could not record is refused, whatever the trouble.
            return rejected(ReplayRejectCode.STORE_UNAVAILABLE, "replay store did not answer: ${e.javaClass.simpleName}")
        }
        return when (outcome) {
            RecordOutcome.RECORDED -> ReplayDecision.Admitted
            RecordOutcome.REPLAYED -> rejected(ReplayRejectCode.REPLAYED, "message was already accepted")
            RecordOutcome.FULL -> rejected(ReplayRejectCode.CAPACITY_EXCEEDED, "replay store is full of unexpired records")
        }
    }

    private fun stringField(message: JsonObject, field: String): String? =
        (message[field] as? JsonPrimitive)?.takeIf { it.isString && it.content.isNotEmpty() }?.content

    private fun timestampField(message: JsonObject, field: String): Long? {
        val value = message[field] as? JsonPrimitive ?: return null
        return when (declaration.timeFormat) {
            ReplayTimeFormat.RFC3339 -> value.takeIf { it.isString }?.let { parseRfc3339(it.content) }
            // JavaScript's safe integers, as the TypeScript guard accepts (Number.isSafeInteger).
            ReplayTimeFormat.UNIX_SECONDS -> value.takeUnless { it.isString }?.longOrNull?.takeIf { it in -MAX_SAFE_INTEGER..MAX_SAFE_INTEGER }?.times(1000)
        }
    }

    private fun missing(field: String) = rejected(ReplayRejectCode.FIELD_MISSING, "$field is missing or empty")

    private fun rejected(code: ReplayRejectCode, message: String) = ReplayDecision.Rejected(code, message)

    private companion object {
        const val MAX_SAFE_INTEGER = 9_007_199_254_740_991L
    }
}

/**
 * A [ReplayGuard] for one message class, what the generated `create<Message>ReplayGuard`
 * factories return: [admit] takes the typed message and checks the same JSON the wire carries.
 */
class TypedReplayGuard<T>(private val guard: ReplayGuard, private val serializer: SerializationStrategy<T>) {
    /** Run it after the signature check, so forged messages leave no record. */
    suspend fun admit(message: T): ReplayDecision = guard.admit(Json.encodeToJsonElement(serializer, message).jsonObject)

    /** The same decision for a message held as JSON (e.g. as received). */
    suspend fun admitJson(message: JsonObject): ReplayDecision = guard.admit(message)
}

/**
 * In-memory store. Memory is bounded by [maxEntries]: when full it first evicts expired records
 * and, if none are, refuses the new message rather than forget a live one (fail closed). Each
 * scope may hold at most [maxEntriesPerScope] records, so one sender with a valid key cannot fill
 * the store and lock the others out.
 * Thread-safe: every operation holds the store's lock, which makes check-and-record atomic.
 */
class InMemoryReplayStore(
    private val maxEntries: Int = 100_000,
    private val maxEntriesPerScope: Int = maxOf(1, maxEntries / 10),
) : ReplayStore {
    private class Held(var until: Long, val scope: String)

    private val records = HashMap<String, Held>()
    private val perScope = HashMap<String, Int>()
    private var nextSweepMs = Long.MIN_VALUE

    init {
        require(maxEntries > 0) { "maxEntries must be positive" }
        require(maxEntriesPerScope > 0) { "maxEntriesPerScope must be positive" }
    }

    override suspend fun checkAndRecord(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome =
        checkAndRecordNow(scope, key, retainUntilMs, nowMs)

    override suspend fun evictExpired(nowMs: Long): Int = evictNow(nowMs)

    override suspend fun size(): Int = synchronized(this) { records.size }

    private fun overQuota(scope: String) = records.size >= maxEntries || (perScope[scope] ?: 0) >= maxEntriesPerScope

    /** The same decision without suspending: this store never waits on anything. */
    @Synchronized
    fun checkAndRecordNow(scope: String, key: String, retainUntilMs: Long, nowMs: Long): RecordOutcome {
        val id = recordId(scope, key)
        val held = records[id]
        if (held != null && held.until > nowMs) return RecordOutcome.REPLAYED
        var swept = false
        if (held == null && overQuota(scope)) {
            evictNow(nowMs)
            swept = true
            if (overQuota(scope)) return RecordOutcome.FULL
        } else if (nowMs >= nextSweepMs) {
            // A periodic sweep keeps memory near the live set without a scan on every call.
            evictNow(nowMs)
            swept = true
            nextSweepMs = nowMs + SWEEP_INTERVAL_MS
        }
        // Only a sweep can have dropped the expired record found above.
        val kept = if (swept) records[id] else held
        if (kept != null) {
            kept.until = retainUntilMs
        } else {
            records[id] = Held(retainUntilMs, scope)
            perScope[scope] = (perScope[scope] ?: 0) + 1
        }
        return RecordOutcome.RECORDED
    }

    @Synchronized
    private fun evictNow(nowMs: Long): Int {
        var evicted = 0
        val it = records.values.iterator()
        while (it.hasNext()) {
            val record = it.next()
            if (record.until > nowMs) continue
            it.remove()
            val n = (perScope[record.scope] ?: 1) - 1
            if (n == 0) perScope.remove(record.scope) else perScope[record.scope] = n
            evicted++
        }
        return evicted
    }

    internal companion object {
        const val SWEEP_INTERVAL_MS = 60_000L

        /**
         * The record's map key: the scope's length, then scope and key. The length makes the split
         * unambiguous, so distinct (scope, key) pairs never share a record; it is built with one
         * concatenation, where the JSON array this replaced went through kotlinx's encoder per call.
         */
        fun recordId(scope: String, key: String): String = "${scope.length}:$scope$key"
    }
}

/** Joins parts so that distinct tuples never produce the same string (a JSON array of strings). */
private fun joinKey(parts: List<String>): String = JsonArray(parts.map(::JsonPrimitive)).toString()

private val RFC3339 = Regex("""(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))""")

/**
 * Epoch milliseconds of a strict RFC 3339 timestamp, or null. No leap second, no space
 * separator: the forms every platform's parser agrees on. Fractions past milliseconds are
 * truncated, as JavaScript's Date does.
 */
fun parseRfc3339(text: String): Long? {
    val match = RFC3339.matchEntire(text) ?: return null
    val g = match.groupValues
    val year = g[1].toInt()
    val month = g[2].toInt()
    val day = g[3].toInt()
    val hour = g[4].toInt()
    val minute = g[5].toInt()
    val second = g[6].toInt()
    if (month !in 1..12 || hour > 23 || minute > 59 || second > 59) return null
    if (day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) return null
    val millis = g[7].takeIf { it.isNotEmpty() }?.drop(1)?.padEnd(3, '0')?.take(3)?.toInt() ?: 0
    val offsetMinutes = if (g[9].isEmpty()) {
        0
    } else {
        val hours = g[10].toInt()
        val minutes = g[11].toInt()
        if (hours > 23 || minutes > 59) return null
        (hours * 60 + minutes) * if (g[9] == "-") -1 else 1
    }
    val local = LocalDateTime.of(year, month, day, hour, minute, second).toEpochSecond(ZoneOffset.UTC)
    return (local - offsetMinutes * 60L) * 1000 + millis
}
