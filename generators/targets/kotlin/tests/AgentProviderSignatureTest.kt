package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * hmac-sha256-v1 of the agent provider protocol, checked against the vectors computed from the
 * real SDKs' test inputs (property-tests/vectors/agent-provider/computed_signature_vectors.json).
 * The signing input is rebuilt here by hand from the research notes (§3.1), independently of the
 * generated signer (AgentProviderSigning, built from x-signature), which SigningVectorsTest checks.
 */
class AgentProviderSignatureTest {
    /** Signing-input lines in order: (line name, message field, hashed as JCS SHA-256). */
    private val proposalLines = lines(
        "request_id", "provider_id", "agent_id", "action_id", "tool_name", "arguments_sha256=arguments",
        "created_at", "expires_at", "nonce", "idempotency_key", "risk", "confirmation_policy", "host_instance_id",
    )
    private val triggerLines = lines(
        "request_id", "provider_id", "agent_id", "message", "source", "event_type", "payload_sha256=payload",
        "created_at", "expires_at", "nonce", "idempotency_key", "host_instance_id",
    )

    /** Signed by platforms whose canonical JSON is not RFC 8785 (escaped '/', Rust's `12.0`). */
    private val mustNotVerify = setOf("divergence_slash_escaped", "divergence_integral_double_rust")

    private data class Line(val name: String, val field: String, val hashed: Boolean)

    private fun lines(vararg specs: String): List<Line> = specs.map { spec ->
        val (name, field) = if ('=' in spec) spec.split('=') else listOf(spec, spec)
        Line(name, field, name != field)
    }

    private fun signingInput(message: JsonObject, lines: List<Line>): String = lines.joinToString("\n") { line ->
        val value = if (line.hashed) {
            Encoding.base64StdNoPadEncode(Crypto.sha256(CanonicalJson.canonicalBytes(message.getValue(line.field))))
        } else {
            message.string(line.field)
        }
        "${line.name}=$value"
    }

    @Test
    fun `computed signature vectors verify exactly where JCS agrees`() {
        val counter = CaseCounter("agent-provider hmac-sha256-v1")
        val vectors = TestData.json("property-tests/vectors/agent-provider/computed_signature_vectors.json")
            .jsonObject.getValue("vectors").jsonArray.map { it.jsonObject }
        for (vector in vectors) {
            val name = vector.string("name")
            val message = vector.getValue("signed_object").jsonObject
            val lines = when (val kind = vector.string("kind")) {
                "proposal" -> proposalLines
                "trigger" -> triggerLines
                else -> error("$name: unknown kind $kind")
            }
            val input = signingInput(message, lines)
            val mac = Crypto.hmacSha256(vector.string("secret_utf8").toByteArray(), input.toByteArray())
            val given = Encoding.base64StdNoPadDecode(message.string("signature")) ?: error("$name: signature is not unpadded base64")
            val verifies = Crypto.constantTimeEquals(mac, given)
            val shouldVerify = name !in mustNotVerify
            assertEquals(shouldVerify, verifies, name)
            if (shouldVerify) {
                // Same bytes as the reference computation, line for line.
                assertEquals(vector.string("signing_input"), input, name)
                assertEquals(vector.string("expected_signature"), Encoding.base64StdNoPadEncode(mac), name)
            }
            counter.count("${vector.string("kind")}-${if (verifies) "verified" else "refused"}")
        }
        counter.finish()
        assertEquals(8, vectors.count { it.string("name") !in mustNotVerify }, "vectors that must verify")
        assertEquals(mustNotVerify, vectors.map { it.string("name") }.filter { it in mustNotVerify }.toSet())
    }
}
