package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.security.MessageDigest

/**
 * AuditChain.verifyAuditChain on entries built in memory (not parsed from a log): a declaration whose genesis
 * link is not "", an entry with no RFC 8785 form (a lone surrogate a strict parser could never have
 * produced), and the head a caller stores read back member by member. Ids are SHA-256 of the
 * entry's RFC 8785 text without its id, computed here with MessageDigest over hand-written text.
 */
class AuditHeadMutationKillsTest {
    private val declaration = AuditChainDeclaration("id", "e-", "prev", "seq", genesisPrevious = "genesis")
    private fun hex(text: String) = MessageDigest.getInstance("SHA-256").digest(text.toByteArray()).joinToString("") { "%02x".format(it) }

    private fun entry(seq: Int, prev: String, note: String): JsonObject {
        val id = "e-" + hex("""{"note":"$note","prev":"$prev","seq":$seq}""")
        return buildJsonObject { put("seq", seq); put("prev", prev); put("note", note); put("id", id) }
    }

    @Test
    fun `the first entry links to the declared genesis value`() {
        val first = entry(1, "genesis", "a")
        val firstId = "e-" + hex("""{"note":"a","prev":"genesis","seq":1}""")
        val second = entry(2, firstId, "b")
        val secondId = "e-" + hex("""{"note":"b","prev":"$firstId","seq":2}""")
        val head = AuditHead(2, secondId)
        assertNull(AuditChain.verifyAuditChain(declaration, listOf(first, second), head))
        assertEquals(AuditChainErrorCode.HEAD_MISMATCH, AuditChain.verifyAuditChain(declaration, listOf(first, second), AuditHead(2, firstId))?.code)
        // A first entry linked to "" (the connector log's genesis) is not linked to this declaration's.
        val wrongGenesis = entry(1, "", "a")
        assertEquals(AuditChainErrorCode.PREVIOUS_MISMATCH to 0, AuditChain.verifyAuditChain(declaration, listOf(wrongGenesis), null, checkHead = false)?.let { it.code to it.index })
        assertEquals("genesis", declaration.genesisPrevious)
        // The head a caller keeps apart from the log, read back member by member (as it would store them).
        assertEquals(listOf(2L, secondId), listOf(head.sequence, head.eventId))
    }

    @Test
    fun `an entry with no canonical form is entry-invalid, not a crash`() {
        val lone = buildJsonObject { put("seq", 1); put("prev", "genesis"); put("note", "\uD800"); put("id", "e-x") }
        val error = AuditChain.verifyAuditChain(declaration, listOf(lone), null, checkHead = false)
        assertEquals(AuditChainErrorCode.ENTRY_INVALID to 0, error?.let { it.code to it.index })
    }
}
