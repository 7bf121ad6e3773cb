package dev.agentcontracts.bindings

import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.runtime.CanonicalDialects
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/**
 * The signature doctor on the Rust host's and Android SDK's signed messages: the same verdicts as
 * the TypeScript doctor from the same vector file (expectations hand-written from the real runs).
 */
class SignatureDoctorTest {
    @Test
    fun `each real message verifies or names the dialects it was signed with`() {
        val cases = TestData.json("spec/agent-provider/vectors/signature-doctor.json").jsonObject.getValue("cases").jsonArray
        assertEquals(68, cases.size)
        for (element in cases) {
            val c = element.jsonObject
            val key = c.string("key_utf8").toByteArray(Charsets.UTF_8)
            val result = when (c.string("message_type")) {
                "AgentTriggerRequest" -> AgentProviderSigning.explainAgentTriggerRequestSignature(c.string("text"), key)
                else -> AgentProviderSigning.explainActionProposalSignature(c.string("text"), key)
            }
            val expect = c.getValue("expect")
            val actual = if (result.verified) "verified" else "${result.reasonCode} ${result.diagnoses.map { it.divergence }}"
            val wanted = if (expect is JsonPrimitive) expect.content else {
                val o = expect.jsonObject
                "${o.string("reason")} ${o.getValue("diagnoses").jsonArray.map { it.jsonPrimitive.content }}"
            }
            assertEquals(wanted, actual, c.string("name"))
        }
    }

    @Test
    fun `a 1e16 float signed by the Rust host differs at the byte RFC 8785 writes as a digit`() {
        val c = TestData.json("spec/agent-provider/vectors/signature-doctor.json").jsonObject.getValue("cases").jsonArray
            .map { it.jsonObject }.first { it.string("name").startsWith("rust-host-signed-edge-cases #10:") }
        val d = AgentProviderSigning.explainAgentTriggerRequestSignature(c.string("text"), c.string("key_utf8").toByteArray()).diagnoses.first()
        assertEquals(listOf("payload", 6, "{\"x\":10000000000000000}", "{\"x\":1e+16}"), listOf(d.field, d.offset, d.rfc8785, d.text))
    }

    @Test
    fun `text that is not JSON is refused with its code, not a crash`() {
        val r = AgentProviderSigning.explainActionProposalSignature("{\"a\":", "k".toByteArray())
        assertEquals("unexpected-end", r.reasonCode)
        for (bad in listOf("", "{", "[1,]", "\"\\x\"", "01", "{\"a\" 1}", "[".repeat(100) + "]".repeat(100))) assertNull(CanonicalDialects.parseLexical(bad), bad)
    }
}
