package dev.agentcontracts.runtime

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

/** SqliteReplayStore's decisions, capacity and reopening; the killed-process test is SqliteReplayCrashTest. */
class SqliteReplayStoreTest {
    @TempDir
    lateinit var dir: Path

    private fun store(name: String = "replay.db", maxEntries: Int = 1_000, perScope: Int = 1_000) =
        SqliteReplayStore(dir.resolve(name).toString(), maxEntries = maxEntries, maxEntriesPerScope = perScope)

    @Test
    fun `check and record, replay, reuse after retention, and a restart keeps the records`() = runBlocking {
        store().use { s ->
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("scope", "k1", retainUntilMs = 2_000, nowMs = 1_000))
            assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("scope", "k1", retainUntilMs = 3_000, nowMs = 1_500))
            // Another scope is another record.
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("other", "k1", retainUntilMs = 2_000, nowMs = 1_500))
            // Past its retention the record is reused, not refused.
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("scope", "k1", retainUntilMs = 9_000, nowMs = 2_000))
            assertEquals(2, s.size())
        }
        store().use { s ->
            assertEquals(2, s.size(), "both records are on disk after reopening")
            assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("scope", "k1", retainUntilMs = 9_500, nowMs = 2_500), "after reopening the file")
            assertEquals(1, s.size(), "the sweep in passing dropped the other scope's expired record")
            assertEquals(1, s.evictExpired(nowMs = 20_000))
            assertEquals(0, s.size())
        }
    }

    @Test
    fun `full stores and scopes refuse, after evicting what has expired`() = runBlocking {
        store(maxEntries = 2, perScope = 2).use { s ->
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("a", "1", 10_000, 1_000))
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("b", "1", 1_500, 1_000))
            assertEquals(RecordOutcome.FULL, s.checkAndRecord("c", "1", 10_000, 1_100), "both records live")
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("c", "1", 10_000, 2_000), "b's record expired and was evicted")
            assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("a", "1", 10_000, 2_000), "a full store still says replayed for a held key")
        }
        store(name = "quota.db", maxEntries = 100, perScope = 1).use { s ->
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("a", "1", 10_000, 1_000))
            assertEquals(RecordOutcome.FULL, s.checkAndRecord("a", "2", 10_000, 1_000), "scope a at its quota")
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("b", "1", 10_000, 1_000), "other scopes are not locked out")
        }
    }
}
