package dev.agentcontracts.runtime

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.time.OffsetDateTime

/**
 * parseRfc3339 against java.time's own RFC 3339 reader (an independent parser) and RFC 3339 § 5.6's
 * ranges at their edges; InMemoryReplayStore's bounds at their edges: a key is replayed while its
 * record is held (until > now), a full store evicts expired records before refusing, and the quotas
 * count exactly.
 */
class ReplayStoreMutationKillsTest {
    private fun javaTime(text: String): Long = OffsetDateTime.parse(text).toInstant().toEpochMilli()

    @Test
    fun `valid timestamps read as java time reads them, fractions truncated to milliseconds`() {
        for (text in listOf(
            "2026-08-10T00:00:00Z", "2026-08-10T23:59:59Z", "2026-12-31T23:59:59.999Z", "2024-02-29T12:00:00Z", "2026-01-01T00:00:00.1Z",
            "2026-01-01t00:00:00z", "2026-01-01T00:00:00+18:00", "2026-01-01T00:00:00-17:59", "2026-01-01T00:00:00-00:00", "2026-04-30T10:20:30.123456789+05:30",
            "2026-01-31T00:00:00Z", "2026-02-28T00:00:00Z", "0001-01-01T00:00:00Z",
        )) {
            assertEquals(javaTime(text.uppercase()), parseRfc3339(text), text)
        }
        assertEquals(1_786_320_000_100L, parseRfc3339("2026-08-10T00:00:00.1Z"))
        // RFC 3339 allows offsets java.time refuses (past 18 h): 23:59 ahead of UTC is 00:01 the day before.
        assertEquals(1_786_320_000_000L - (23 * 60 + 59) * 60_000L, parseRfc3339("2026-08-10T00:00:00+23:59"))
        assertEquals(1_786_320_000_000L + (23 * 60 + 59) * 60_000L, parseRfc3339("2026-08-10T00:00:00-23:59"))
        assertEquals(1_786_320_000_123L, parseRfc3339("2026-08-10T00:00:00.1239Z"))
    }

    @Test
    fun `out of range fields are refused at the first value past the edge`() {
        for (text in listOf(
            "2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-08-00T00:00:00Z", "2026-08-32T00:00:00Z", "2023-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-08-10T24:00:00Z", "2026-08-10T23:60:00Z", "2026-08-10T23:59:60Z", "2026-08-10T00:00:00+24:00", "2026-08-10T00:00:00+00:60",
            "2026-08-10 00:00:00Z", "2026-08-10T00:00:00", "2026-08-10T00:00:00.Z", "2026-08-10T00:00:00.1234567890Z",
        )) {
            assertNull(parseRfc3339(text), text)
        }
    }

    @Test
    fun `a key is replayed while held, recorded again once its time has passed`() = runBlocking {
        val store = InMemoryReplayStore()
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "k", 2_000, 1_000))
        assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord("s", "k", 9_000, 1_999))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "k", 5_000, 2_000))
        // The record now runs to 5 000: still replayed at 4 999.
        assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord("s", "k", 9_000, 4_999))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("t", "k", 5_000, 2_000))
        assertEquals(2, store.size())
        assertEquals(0, store.evictExpired(4_999))
        assertEquals(2, store.evictExpired(5_000))
        assertEquals(0, store.size())
    }

    @Test
    fun `pairs whose texts run together are still distinct records`() = runBlocking {
        // Each pair concatenates to the same text as the one before it, with or without a separator.
        val store = InMemoryReplayStore()
        for ((scope, key) in listOf("ab" to "c", "a" to "bc", "a:b" to "c", "a" to "b:c", "1:a" to "b", "" to "1:ab")) {
            assertEquals(RecordOutcome.RECORDED, store.checkAndRecord(scope, key, 9_000, 1_000), "$scope / $key")
        }
        assertEquals(6, store.size())
        assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord("a", "bc", 9_000, 1_000))
    }

    @Test
    fun `an expired record swept on the same call is recorded again, then held`() = runBlocking {
        val store = InMemoryReplayStore()
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "k", 2_000, 1_000))
        // 70 000 is past the sweep interval (60 s after the first call): the sweep drops s/k first.
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("s", "k", 90_000, 70_000))
        assertEquals(RecordOutcome.REPLAYED, store.checkAndRecord("s", "k", 99_000, 80_000))
        assertEquals(1, store.size())
    }

    @Test
    fun `a full store evicts expired records first, and counts the quotas exactly`() = runBlocking {
        val store = InMemoryReplayStore(maxEntries = 3, maxEntriesPerScope = 2)
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "1", 10_000, 0))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "2", 20_000, 0))
        assertEquals(RecordOutcome.FULL, store.checkAndRecord("a", "3", 20_000, 0))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("b", "1", 20_000, 0))
        assertEquals(RecordOutcome.FULL, store.checkAndRecord("c", "1", 20_000, 0))
        // At 10 000 a/1 has expired: it is evicted to make room, in its scope and in the total.
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "3", 20_000, 10_000))
        assertEquals(3, store.size())
        assertEquals(RecordOutcome.FULL, store.checkAndRecord("c", "1", 30_000, 10_000))
        assertEquals(3, store.evictExpired(20_000))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "4", 30_000, 20_000))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "5", 30_000, 20_000))
        assertEquals(RecordOutcome.FULL, store.checkAndRecord("a", "6", 30_000, 20_000))
    }

    @Test
    fun `an eviction that leaves a scope with records keeps counting its quota`() = runBlocking {
        val store = InMemoryReplayStore(maxEntries = 10, maxEntriesPerScope = 2)
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "1", 10_000, 0))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "2", 20_000, 0))
        assertEquals(1, store.evictExpired(10_000))
        assertEquals(RecordOutcome.RECORDED, store.checkAndRecord("a", "3", 20_000, 10_000))
        // a/2 and a/3 are live: the scope is at its quota.
        assertEquals(RecordOutcome.FULL, store.checkAndRecord("a", "4", 20_000, 10_000))
    }

    @Test
    fun `the periodic sweep drops expired records without a full store`() = runBlocking {
        val store = InMemoryReplayStore()
        for (i in 0 until 5) store.checkAndRecord("s", "k$i", 1_000, 0)
        assertEquals(5, store.size())
        // The first call swept at 0; the next sweep is due a minute later.
        store.checkAndRecord("s", "x", 100_000, 59_999)
        assertEquals(6, store.size())
        store.checkAndRecord("s", "y", 100_000, 60_000)
        assertEquals(2, store.size())
    }

    @Test
    fun `bounds must be positive`() {
        assertThrows<IllegalArgumentException> { InMemoryReplayStore(maxEntries = 0) }
        assertThrows<IllegalArgumentException> { InMemoryReplayStore(maxEntries = 10, maxEntriesPerScope = 0) }
        InMemoryReplayStore(maxEntries = 1, maxEntriesPerScope = 1)
        assertEquals(1, InMemoryReplayStore(maxEntries = 1).let { runBlocking { it.checkAndRecord("s", "k", 5, 0); it.size() } })
    }
}
