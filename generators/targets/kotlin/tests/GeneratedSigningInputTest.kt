package dev.agentcontracts.bindings

import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.runtime.HmacSha256Key
import dev.agentcontracts.runtime.HmacSha256V1
import dev.agentcontracts.runtime.HmacSha256V1Declaration
import dev.agentcontracts.runtime.HmacV1Exception
import dev.agentcontracts.runtime.HmacV1Verification
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import dev.agentcontracts.runtime.stringOrNull
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The signing-input functions generated from each x-signature declaration (build<Message>SigningInput)
 * against the outside and spec vectors (the real SDKs' signing inputs and verdicts) and against the
 * runtime's declaration interpreter, which stays the oracle for the first error on broken messages.
 * The same cases as property-tests/signing/generated-signing-input.test.ts.
 */
class GeneratedSigningInputTest {
    private class Kind(val declaration: HmacSha256V1Declaration, val input: (JsonObject) -> String, val verify: (JsonObject, HmacSha256Key) -> HmacV1Verification<JsonObject>)

    private val kinds = mapOf(
        "ActionProposal" to Kind(AgentProviderSigning.ACTION_PROPOSAL_SIGNATURE, AgentProviderSigning::buildActionProposalSigningInput, AgentProviderSigning::verifyActionProposalSignature),
        "AgentTriggerRequest" to Kind(AgentProviderSigning.AGENT_TRIGGER_REQUEST_SIGNATURE, AgentProviderSigning::buildAgentTriggerRequestSigningInput, AgentProviderSigning::verifyAgentTriggerRequestSignature),
    )

    private fun verdict(result: HmacV1Verification<JsonObject>): String = when (result) {
        is HmacV1Verification.Verified -> "valid"
        is HmacV1Verification.Rejected -> result.error.code.wireName
    }

    /** The text, or the error's code and message: what two signing-input builders must agree on. */
    private fun outcome(build: () -> String): String = try {
        "input " + build()
    } catch (failure: HmacV1Exception) {
        "error ${failure.error.code.wireName}: ${failure.error.message}"
    }

    private val outside = TestData.json("property-tests/vectors/agent-provider/computed_signature_vectors.json").jsonObject.getValue("vectors").jsonArray.map { it.jsonObject }

    @Test
    fun `outside vectors give their signing input and verdict with a prepared key`() {
        val mustFail = setOf("divergence_slash_escaped", "divergence_integral_double_rust")
        for (vector in outside) {
            val name = vector.string("name")
            val kind = kinds.getValue(if (vector.string("kind") == "proposal") "ActionProposal" else "AgentTriggerRequest")
            val message = vector.getValue("signed_object").jsonObject
            if (name !in mustFail) assertEquals(vector.string("signing_input"), kind.input(message), name)
            assertEquals(if (name in mustFail) "signature-mismatch" else "valid", verdict(kind.verify(message, HmacSha256Key(vector.string("secret_utf8")))), name)
        }
        assertEquals(10, outside.size)
    }

    @Test
    fun `spec vectors give their signing input and verdict with a prepared key`() {
        val cases = TestData.json("spec/agent-provider/vectors/hmac-sha256-v1.json").jsonObject.getValue("cases").jsonArray.map { it.jsonObject }
        for (case in cases) {
            val label = case.string("name")
            val kind = kinds.getValue(case.string("message_type"))
            val message = case.getValue("message").jsonObject
            case.stringOrNull("expected_signing_input")?.let { assertEquals(it, kind.input(message), label) }
            assertEquals(case.string("expect"), verdict(kind.verify(message, HmacSha256Key(case.string("key_utf8")))), label)
        }
    }

    @Test
    fun `every covered field absent or of every JSON kind gives the interpreter's text or first error`() {
        val replacements: List<JsonElement> = listOf(
            JsonNull, JsonPrimitive(0), JsonPrimitive(1.5), JsonPrimitive(true), JsonPrimitive(""), JsonPrimitive("x\ny=z"),
            JsonArray(emptyList()), JsonArray(listOf(JsonPrimitive(1), JsonPrimitive("a"))), JsonObject(emptyMap()),
            JsonObject(mapOf("b" to JsonPrimitive(1), "a" to JsonArray(listOf(JsonNull)))), JsonPrimitive(Double.NaN),
        )
        for ((name, kind) in kinds) {
            val base = outside.first { (it.string("kind") == "proposal") == (name == "ActionProposal") }.getValue("signed_object").jsonObject
            var checked = 0
            for (line in kind.declaration.lines) {
                val without = JsonObject(base - line.field)
                assertEquals(outcome { HmacSha256V1.hmacV1SigningInput(kind.declaration, without) }, outcome { kind.input(without) }, "$name without ${line.field}")
                for (value in replacements) {
                    val changed = JsonObject(base + (line.field to value))
                    assertEquals(outcome { HmacSha256V1.hmacV1SigningInput(kind.declaration, changed) }, outcome { kind.input(changed) }, "$name ${line.field} = $value")
                    checked++
                }
            }
            assertEquals(kind.declaration.lines.size * replacements.size, checked)
            val lines = kind.declaration.lines
            val twoBroken = JsonObject(base + (lines[1].field to JsonPrimitive(7)) + (lines.last().field to JsonPrimitive(8)))
            val first = outcome { kind.input(twoBroken) }
            assertEquals(outcome { HmacSha256V1.hmacV1SigningInput(kind.declaration, twoBroken) }, first, "$name two broken fields")
            assertEquals(true, lines[1].field in first, first)
        }
    }
}
