package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * AuditChain.appendAuditEntry against spec/agent-connector/vectors/audit-log.json: every valid
 * log there is rebuilt by appending each entry's body (the entry without its sequence, link and
 * id) in turn, and must come out as the same entries, byte for byte in canonical form, ending at
 * the stored head the case gives.
 */
class AuditAppendTest {
    private val file = "spec/agent-connector/vectors/audit-log.json"
    private val declaration = AuditChainDeclaration.CONNECTOR_LOG

    @Test
    fun `appending each body rebuilds every valid log of the vectors`() {
        var rebuilt = 0
        for (case in TestData.cases(file).filter { it.string("expect") == "valid" }) {
            val lines = case.string("text").split("\n").filter { it.isNotEmpty() }
            var head: AuditHead? = null
            for (line in lines) {
                val expected = StrictJson.parseStrictJson(line).jsonObject
                val body = JsonObject(expected - declaration.idField - declaration.sequenceField - declaration.previousField)
                val appended = AuditChain.appendAuditEntry(declaration, head, body)
                assertEquals(CanonicalJson.canonicalize(expected), CanonicalJson.canonicalize(appended.entry), case.string("name"))
                head = appended.head
            }
            val stored = case["head"] as? JsonObject
            if (stored != null) assertEquals(AuditHead(stored.getValue("sequence").jsonPrimitive.long, stored.string("eventId")), head, case.string("name"))
            if (lines.isNotEmpty()) rebuilt++
        }
        assertTrue(rebuilt > 0, "no valid log in $file")
    }

    @Test
    fun `an id in the body is replaced and the first entry links to the genesis value`() {
        val body = JsonObject(mapOf("eventId" to JsonPrimitive("connector-audit-forged"), "action" to JsonPrimitive("imported")))
        val first = AuditChain.appendAuditEntry(AuditChainDeclaration.CONNECTOR, null, body)
        assertEquals(JsonPrimitive(1L), first.entry["sequence"])
        assertEquals(JsonPrimitive(""), first.entry["previousEventId"])
        assertEquals(AuditChain.computeAuditEventId(AuditChainDeclaration.CONNECTOR, first.entry), first.head.eventId)
        assertEquals(first.head.eventId, first.entry["eventId"]?.jsonPrimitive?.content)
        val second = AuditChain.appendAuditEntry(AuditChainDeclaration.CONNECTOR, first.head, body)
        assertEquals(AuditHead(2L, second.head.eventId), second.head)
        assertEquals(JsonPrimitive(first.head.eventId), second.entry["previousEventId"])
        assertEquals(null, AuditChain.verifyAuditChain(AuditChainDeclaration.CONNECTOR, listOf(first.entry, second.entry), second.head))
    }
}
