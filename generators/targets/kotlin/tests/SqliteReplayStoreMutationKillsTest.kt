package dev.agentcontracts.runtime

import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.lang.reflect.InvocationTargetException
import java.lang.reflect.Proxy
import java.nio.file.Path
import java.sql.Connection
import java.sql.Driver
import java.sql.DriverManager
import java.sql.PreparedStatement
import java.sql.ResultSet
import java.sql.SQLException
import java.sql.Statement
import java.util.Collections
import java.util.IdentityHashMap
import java.util.Properties
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * SqliteReplayStore's edges: the constructor's bounds, the missing-driver message, the sweep that
 * is due at exactly its instant, close(), and the JDBC handle discipline (every statement and
 * result set the store opens is closed before the call returns, the connection by close()),
 * observed through a driver that wraps the SQLite driver and records each handle it hands out.
 */
class SqliteReplayStoreMutationKillsTest {
    @TempDir
    lateinit var dir: Path

    private fun path(name: String = "replay.db") = dir.resolve(name).toString()

    /** Runs [block] with the SQLite driver replaced by [replacement] (null: no driver at all), then restores it. */
    private inline fun <T> withDriver(noinline replacement: ((Driver) -> Driver)?, block: () -> T): T {
        val sqlite = DriverManager.getDriver("jdbc:sqlite:")
        DriverManager.deregisterDriver(sqlite)
        val installed = replacement?.invoke(sqlite)?.also(DriverManager::registerDriver)
        try {
            return block()
        } finally {
            installed?.let(DriverManager::deregisterDriver)
            DriverManager.registerDriver(sqlite)
        }
    }

    /** Hands out the SQLite driver's connections wrapped so that every handle opened through them is recorded until closed. */
    private class TrackingDriver(private val real: Driver) : Driver by real {
        val open: MutableSet<Any> = Collections.newSetFromMap(IdentityHashMap())
        val opened = mutableListOf<String>()

        /** The next prepareStatement of the upsert throws, once. */
        @Volatile var failUpsert = false

        override fun connect(url: String, info: Properties): Connection? = real.connect(url, info)?.let { track(it, Connection::class.java) }

        @Suppress("UNCHECKED_CAST")
        private fun <T : Any> track(target: T, type: Class<T>): T {
            lateinit var proxy: T
            proxy = Proxy.newProxyInstance(type.classLoader, arrayOf(type)) { _, method, args ->
                if (method.name == "close") synchronized(open) { open.remove(proxy) }
                if (failUpsert && method.name == "prepareStatement" && (args?.firstOrNull() as? String)?.startsWith("INSERT INTO replay_records") == true) {
                    failUpsert = false
                    throw SQLException("injected")
                }
                val result = try {
                    method.invoke(target, *(args ?: emptyArray()))
                } catch (e: InvocationTargetException) {
                    throw e.targetException
                }
                when (method.returnType) {
                    Statement::class.java, PreparedStatement::class.java, ResultSet::class.java ->
                        result?.let { track(it, method.returnType as Class<Any>) }
                    else -> result
                }
            } as T
            synchronized(open) {
                open.add(proxy)
                opened.add(type.simpleName)
            }
            return proxy
        }

        fun openKinds(): List<String> = synchronized(open) { open.map { h -> listOf(Connection::class.java, PreparedStatement::class.java, Statement::class.java, ResultSet::class.java).first { it.isInstance(h) }.simpleName }.sorted() }
    }

    @Test
    fun `capacity bounds - 1 is allowed, 0 is refused`() {
        SqliteReplayStore(path("one.db"), maxEntries = 1, maxEntriesPerScope = 1).use { s ->
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("a", "1", 10_000, 1_000))
            assertEquals(RecordOutcome.FULL, s.checkAndRecordNow("a", "2", 10_000, 1_000))
        }
        val total = assertThrows(IllegalArgumentException::class.java) { SqliteReplayStore(path("zero.db"), maxEntries = 0, maxEntriesPerScope = 1) }
        assertEquals("maxEntries must be positive", total.message)
        val scope = assertThrows(IllegalArgumentException::class.java) { SqliteReplayStore(path("zero.db"), maxEntries = 1, maxEntriesPerScope = 0) }
        assertEquals("maxEntriesPerScope must be positive", scope.message)
    }

    @Test
    fun `without the SQLite driver the store says which dependency to add`() {
        val error = withDriver(null) { assertThrows(IllegalStateException::class.java) { SqliteReplayStore(path()) } }
        assertEquals("SqliteReplayStore needs the SQLite JDBC driver: add org.xerial:sqlite-jdbc to your dependencies", error.message)
        assertTrue(error.cause is SQLException)
    }

    @Test
    fun `other connection failures are passed on as they are`() {
        // A database file inside a folder that does not exist cannot be opened.
        val error = assertThrows(SQLException::class.java) { SqliteReplayStore(dir.resolve("missing/folder/replay.db").toString()) }
        assertNotNull(error.message)
    }

    @Test
    fun `the sweep is due at exactly nextSweepMs`() = runBlocking {
        SqliteReplayStore(path(), sweepIntervalMs = 1_000).use { s ->
            // The first call sweeps and sets the next sweep to 1_000 + 1_000.
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("s", "a", retainUntilMs = 1_500, nowMs = 1_000))
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("s", "b", retainUntilMs = 9_000, nowMs = 1_999))
            assertEquals(2, s.size(), "no sweep before its instant")
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("s", "c", retainUntilMs = 9_000, nowMs = 2_000))
            assertEquals(2, s.size(), "the sweep at 2_000 dropped a (retained until 1_500)")
        }
    }

    @Test
    fun `a call cancelled before the IO dispatcher runs it records and evicts nothing`() = runBlocking {
        SqliteReplayStore(path()).use { s ->
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("s", "old", retainUntilMs = 1_000, nowMs = 500))
            // Occupy every thread Dispatchers.IO may use (kotlinx.coroutines: 64 or the core count, unless set), so
            // the store's withContext(Dispatchers.IO) blocks wait in its queue while their callers are cancelled.
            val parallelism = System.getProperty("kotlinx.coroutines.io.parallelism")?.toInt() ?: maxOf(64, Runtime.getRuntime().availableProcessors())
            val started = CountDownLatch(parallelism)
            val release = CountDownLatch(1)
            val blockers = List(parallelism) { launch(Dispatchers.IO) { started.countDown(); release.await() } }
            val calls = try {
                assertTrue(started.await(60, TimeUnit.SECONDS), "every IO thread is busy")
                val record = launch(start = CoroutineStart.UNDISPATCHED) { s.checkAndRecord("s", "new", retainUntilMs = 10_000, nowMs = 600) }
                val evict = launch(start = CoroutineStart.UNDISPATCHED) { s.evictExpired(nowMs = 5_000) }
                record.cancel()
                evict.cancel()
                listOf(record, evict)
            } finally {
                release.countDown()
            }
            (blockers + calls).joinAll()
            assertTrue(calls.all { it.isCancelled })
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("s", "new", retainUntilMs = 10_000, nowMs = 700), "the cancelled check-and-record recorded nothing")
            assertEquals(2, s.size(), "the cancelled eviction removed nothing")
        }
    }

    @Test
    fun `every statement and result set is closed before each call returns, and close() closes the connection`() = runBlocking {
        val driver = withDriver({ TrackingDriver(it) }) {
            val tracking = DriverManager.getDriver("jdbc:sqlite:") as TrackingDriver
            val s = SqliteReplayStore(path(), maxEntries = 2, maxEntriesPerScope = 2)
            assertEquals(listOf("Connection"), tracking.openKinds(), "after the constructor")
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("a", "1", 10_000, 1_000))
            assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("a", "1", 10_000, 1_000))
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecord("b", "1", 1_500, 1_000))
            // Full: the capacity counts, the eviction and the held-record check all run.
            assertEquals(RecordOutcome.FULL, s.checkAndRecord("c", "1", 10_000, 1_100))
            assertEquals(RecordOutcome.REPLAYED, s.checkAndRecord("a", "1", 10_000, 1_200))
            assertEquals(listOf("Connection"), tracking.openKinds(), "after check-and-record")
            assertEquals(2, s.size())
            assertEquals(1, s.evictExpired(5_000))
            assertEquals(listOf("Connection"), tracking.openKinds(), "after size and evictExpired")
            // A statement failing inside the transaction: rolled back through a statement that is closed too.
            tracking.failUpsert = true
            val injected = assertThrows(SQLException::class.java) { s.checkAndRecordNow("a", "2", 10_000, 5_000) }
            assertEquals("injected", injected.message)
            assertEquals(listOf("Connection"), tracking.openKinds(), "after a failed check-and-record")
            assertEquals(RecordOutcome.RECORDED, s.checkAndRecordNow("a", "2", 10_000, 5_000), "the failed transaction was rolled back")
            s.close()
            assertEquals(emptyList<String>(), tracking.openKinds(), "after close")
            assertThrows(SQLException::class.java) { s.checkAndRecordNow("a", "3", 10_000, 6_000) }
            tracking
        }
        assertTrue(driver.opened.count { it == "ResultSet" } >= 4, "result sets were opened and tracked: ${driver.opened}")
    }
}
