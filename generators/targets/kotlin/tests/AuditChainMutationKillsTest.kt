package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.security.MessageDigest

/**
 * The audit chain's refusals, one per rule of research A4 ("Audit entry format", "Load and replay"):
 * exact code, the 0-based index of the entry at fault and the message naming it (the same table as
 * property-tests/runtime/audit-chain.mutation-kills.test.ts). Lines are written here already in
 * canonical form (sorted keys, no spaces, ASCII), so an id is SHA-256 of the text without its id:
 * nothing of the runtime computes the expectations.
 */
class AuditChainMutationKillsTest {
    private val pkgA = "connector-package-" + "a".repeat(64)
    private val pkgB = "connector-package-" + "b".repeat(64)
    private val log = AuditChainDeclaration.CONNECTOR_LOG

    private fun sha256Hex(text: String): String =
        MessageDigest.getInstance("SHA-256").digest(text.toByteArray()).joinToString("") { "%02x".format(it) }

    private fun details(action: String): String = when (action) {
        "imported" -> """{"originFilename":"x.json","originSha256":"${"c".repeat(64)}"}"""
        "upgraded" -> """{"fromPackageId":"$pkgB"}"""
        else -> "{}"
    }

    /** Canonical lines for [steps] (packageId to action, optional details text), linked and hashed by hand. */
    private fun chain(vararg steps: Triple<String, String, String?>): List<String> {
        val lines = ArrayList<String>()
        var previous = ""
        for ((i, step) in steps.withIndex()) {
            val (pkg, action, det) = step
            val d = det ?: details(action)
            val tail = """"packageId":"$pkg","previousEventId":"$previous","recordType":"agent-connector-package-audit","schemaVersion":1,"sequence":${i + 1},"timestamp":"2026-08-10T00:00:00.000Z"}"""
            val id = "connector-audit-" + sha256Hex("""{"action":"$action","details":$d,$tail""")
            lines.add("""{"action":"$action","details":$d,"eventId":"$id",$tail""")
            previous = id
        }
        return lines
    }

    private fun step(pkg: String, action: String, details: String? = null) = Triple(pkg, action, details)
    private val life = chain(step(pkgA, "imported"), step(pkgA, "approved"), step(pkgA, "installed"), step(pkgA, "disabled"), step(pkgA, "installed"))
    private fun idOf(line: String) = Regex(""""eventId":"([^"]+)"""").find(line)!!.groupValues[1]
    private fun headOf(lines: List<String>) = AuditHead(lines.size.toLong(), idOf(lines.last()))
    private fun bytes(lines: List<String>) = lines.joinToString("") { "$it\n" }.toByteArray()
    private fun verify(lines: List<String>, head: AuditHead? = headOf(lines), checkHead: Boolean = true, declaration: AuditChainDeclaration = log) =
        AuditChain.verifyAuditLog(declaration, bytes(lines), head, checkHead)?.let { Triple(it.code.wireName, it.index, it.message) }

    @Test
    fun `a valid log verifies against its head, and without a head check`() {
        assertNull(verify(life))
        assertNull(verify(life, head = null, checkHead = false))
        assertNull(verify(chain(step(pkgA, "imported"), step(pkgB, "imported"), step(pkgB, "approved"), step(pkgA, "revoked"), step(pkgB, "upgraded"), step(pkgA, "removed"))))
        val text = """{"a":1}"""
        assertEquals("connector-audit-" + sha256Hex(text), AuditChain.computeAuditEventId(log, StrictJson.parseStrictJson(text.toByteArray()) as kotlinx.serialization.json.JsonObject))
    }

    @Test
    fun `the stored head catches tail truncation and a different id`() {
        assertEquals(Triple("head-mismatch", 3, "log does not end at the stored head (entry 4)"), verify(life.take(3), headOf(life)))
        assertEquals("head-mismatch", verify(life, AuditHead(life.size.toLong(), idOf(life[0])))?.first)
        assertEquals("head-mismatch", verify(life, AuditHead(life.size.toLong() - 1, idOf(life.last())))?.first)
        assertEquals("head-mismatch", verify(life, null)?.first)
        assertEquals(AuditChainError(AuditChainErrorCode.HEAD_MISMATCH, 0, "log does not end at the stored head (entry 1)"), AuditChain.verifyAuditChain(log, emptyList(), headOf(life)))
        assertNull(AuditChain.verifyAuditChain(log, emptyList(), null))
    }

    @Test
    fun `sequence, link, genesis and id, each at its entry`() {
        assertEquals(Triple("sequence-mismatch", 1, "sequence is not the entry's position (entry 2)"), verify(listOf(life[0], life[1].replace("\"sequence\":2", "\"sequence\":3"))))
        assertEquals("sequence-mismatch", verify(listOf(life[0], life[1].replace("\"sequence\":2", "\"sequence\":\"2\"")))?.first)
        assertEquals("sequence-mismatch", verify(listOf(life[0], life[2], life[1]))?.first)
        assertEquals(Triple("previous-mismatch", 2, "link to the previous entry is broken (entry 3)"), verify(listOf(life[0], life[1], life[2].replace(idOf(life[1]), idOf(life[0])))))
        assertEquals("previous-mismatch", verify(listOf(life[0].replace("\"previousEventId\":\"\"", "\"previousEventId\":\"x\""))).let { it?.first })
        assertEquals(Triple("event-id-mismatch", 1, "entry id does not match its content (entry 2)"), verify(listOf(life[0], life[1].replace("00.000Z", "01.000Z"))))
        assertEquals(Triple("entry-invalid", 1, "entry is not an object (entry 2)"), verify(listOf(life[0], "[1]"), headOf(life)))
    }

    @Test
    fun `the log's members, the transitions and the details`() {
        assertEquals(Triple("transition-invalid", 0, "installed is not allowed from no entry (entry 1)"), verify(chain(step(pkgA, "installed"))))
        assertEquals(Triple("transition-invalid", 1, "installed is not allowed from imported (entry 2)"), verify(chain(step(pkgA, "imported"), step(pkgA, "installed"))))
        assertEquals(Triple("transition-invalid", 2, "imported is not allowed from removed (entry 3)"), verify(chain(step(pkgA, "imported"), step(pkgA, "removed"), step(pkgA, "imported"))))
        assertEquals(Triple("transition-invalid", 0, "unknown action \"exploded\" (entry 1)"), verify(chain(step(pkgA, "exploded"))))
        assertEquals(Triple("details-invalid", 0, "details of imported must have exactly [originFilename, originSha256] (entry 1)"), verify(chain(step(pkgA, "imported", """{"originFilename":"x"}"""))))
        assertEquals(Triple("details-invalid", 1, "details of approved must have exactly [] (entry 2)"), verify(chain(step(pkgA, "imported"), step(pkgA, "approved", """{"note":1}"""))))
        assertEquals("details-invalid", verify(chain(step(pkgA, "imported"), step(pkgA, "approved", "[]")))?.first)
        // Without a lifecycle only the chain is checked.
        assertNull(verify(chain(step(pkgA, "installed")), declaration = AuditChainDeclaration.CONNECTOR))
    }

    @Test
    fun `an entry with another member set or a non-string subject is entry-invalid`() {
        fun hashed(withoutId: String): String {
            val id = "connector-audit-" + sha256Hex(withoutId)
            return withoutId.replaceFirst(",\"packageId\"", ",\"eventId\":\"$id\",\"packageId\"")
        }
        val base = """{"action":"imported","details":${details("imported")},"packageId":"$pkgA","previousEventId":"","recordType":"agent-connector-package-audit","schemaVersion":1,"sequence":1,"timestamp":"t"}"""
        assertNull(verify(listOf(hashed(base))))
        val extra = base.replace("\"timestamp\":\"t\"}", "\"timestamp\":\"t\",\"z\":1}")
        assertEquals(Triple("entry-invalid", 0, "entry does not have exactly the log's members (entry 1)"), verify(listOf(hashed(extra))))
        val swapped = base.replace("\"timestamp\":\"t\"}", "\"zz\":\"t\"}")
        assertEquals("entry-invalid", verify(listOf(hashed(swapped)))?.first)
        val numeric = base.replace("\"packageId\":\"$pkgA\"", "\"packageId\":5")
        assertEquals(Triple("entry-invalid", 0, "subject or action is not a string (entry 1)"), verify(listOf(hashed(numeric))))
        val action = base.replace("\"action\":\"imported\"", "\"action\":true")
        assertEquals("entry-invalid", verify(listOf(hashed(action)))?.first)
    }

    @Test
    fun `JSON Lines - empty, unterminated, not strict JSON`() {
        assertEquals(AuditChainError(AuditChainErrorCode.LOG_EMPTY, 0, "the log file is empty"), AuditChain.verifyAuditLog(log, ByteArray(0), null))
        val text = bytes(life)
        assertEquals(AuditChainError(AuditChainErrorCode.LINE_UNTERMINATED, life.size - 1, "the last line has no line feed (entry ${life.size})"), AuditChain.verifyAuditLog(log, text.copyOf(text.size - 1), headOf(life)))
        val dup = listOf(life[0], life[1].replace("{\"action\"", "{\"action\":1,\"action\""))
        assertEquals(Triple("entry-invalid", 1, "line is not strict JSON: duplicate-key (entry 2)"), verify(dup))
        assertEquals("entry-invalid", AuditChain.verifyAuditLog(log, (life[0] + "\n\n").toByteArray(), null, checkHead = false)?.code?.wireName)
    }
}
