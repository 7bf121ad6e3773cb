package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.long
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** spec/agent-connector/vectors/audit-log.json: links, trust lifecycle, empty and unterminated logs, stored head. */
class AuditLogTest {
    private val file = "spec/agent-connector/vectors/audit-log.json"

    @Test
    fun `the vector file declares the runtime's CONNECTOR_LOG lifecycle`() {
        val lifecycle = TestData.json(file).jsonObject.getValue("declaration").jsonObject.getValue("lifecycle").jsonObject
        val ours = AuditChainDeclaration.CONNECTOR_LOG.lifecycle!!
        assertEquals(ours.fields, lifecycle.getValue("fields").jsonArray.map { it.jsonPrimitive.content })
        val transitions = lifecycle.getValue("transitions").jsonObject
        assertEquals(ours.transitions.keys, transitions.keys)
        for ((action, t) in transitions) {
            val o = t.jsonObject
            val expected = AuditTransition(
                o.getValue("from").jsonArray.map { it.jsonPrimitive.content },
                o.string("to"),
                o.getValue("details").jsonArray.map { it.jsonPrimitive.content },
            )
            assertEquals(expected, ours.transitions[action], action)
        }
    }

    @Test
    fun `every log gets its verdict`() {
        val counter = CaseCounter("audit-log")
        for (case in TestData.cases(file)) {
            val head = case["head"]
            val expectedHead = (head as? JsonObject)?.let { AuditHead(it.getValue("sequence").jsonPrimitive.long, it.string("eventId")) }
            val error = AuditChain.verifyAuditLog(
                AuditChainDeclaration.CONNECTOR_LOG,
                case.string("text").toByteArray(Charsets.UTF_8),
                expectedHead,
                checkHead = head != null,
            )
            assertEquals(case.string("expect"), error?.code?.wireName ?: "valid", case.string("name"))
            counter.count(case.string("expect"))
        }
        counter.finish()
        for (code in listOf("valid", "log-empty", "line-unterminated", "entry-invalid", "transition-invalid", "details-invalid", "head-mismatch", "event-id-mismatch")) {
            assertTrue(counter.countOf(code) > 0, "no case for $code")
        }
    }
}
