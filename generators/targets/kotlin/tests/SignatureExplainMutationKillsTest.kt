package dev.agentcontracts.bindings

import dev.agentcontracts.agentprovider.AgentProviderSigning
import dev.agentcontracts.runtime.HmacSha256V1
import dev.agentcontracts.runtime.SignatureDiagnosis
import dev.agentcontracts.runtime.SignatureExplanation
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonException
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.security.MessageDigest
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/**
 * SignatureExplain.kt (the doctor's steps) on messages written by hand and signed here with
 * javax.crypto over the signing input protocol.yaml's x-signature declaration of AgentTriggerRequest
 * states (request_id … host_instance_id, payload as payload_sha256 = base64 of SHA-256 of the
 * hashed text): every field of the explanation and of each diagnosis is asserted, with the
 * expectations written from the dialect table (ported from the TypeScript twin's
 * signature-doctor.mutation-kills.test.ts).
 */
class SignatureExplainMutationKillsTest {
    private val key = "secret-1".toByteArray()
    private val serde = "canonical-json-dialect-serde-json"
    private val serde140 = "canonical-json-dialect-serde-json-1-0-140"
    private val aosp = "canonical-json-dialect-aosp-org-json"
    private val orgJson = "canonical-json-dialect-org-json-20240303"

    private fun b64(bytes: ByteArray) = Base64.getEncoder().withoutPadding().encodeToString(bytes)

    // HMAC pads a key with zero bytes to the block size, so the one-byte key 0x00 MACs as the
    // empty key does (SecretKeySpec refuses an empty array).
    private fun mac(input: String, k: ByteArray = key): String = Mac.getInstance("HmacSHA256").run {
        init(SecretKeySpec(if (k.isEmpty()) byteArrayOf(0) else k, "HmacSHA256"))
        b64(doFinal(input.toByteArray(Charsets.UTF_8)))
    }

    /** The trigger's signing input with [hashed] as the bytes the signer hashed for payload. */
    private fun input(hashed: String, requestId: String = "r-1", source: String = "s") = listOf(
        "request_id=$requestId", "provider_id=provider.app", "agent_id=agent.a", "message=m", "source=$source", "event_type=e",
        "payload_sha256=" + b64(MessageDigest.getInstance("SHA-256").digest(hashed.toByteArray(Charsets.UTF_8))),
        "created_at=2026-05-27T00:00:00Z", "expires_at=2030-01-01T00:00:00Z", "nonce=n-1", "idempotency_key=i-1", "host_instance_id=h-1",
    ).joinToString("\n")

    /** A trigger's JSON text; a member whose value is null is left out. [duplicate] repeats protocol_version, which strict parsing refuses. */
    private fun text(
        signature: String?, payload: String? = """{"x":1}""", requestId: String? = "\"r-1\"", source: String? = "\"s\"",
        algorithm: String? = "\"hmac-sha256-v1\"", duplicate: Boolean = false,
    ): String {
        val members = listOf(
            "protocol_version" to "2", "request_id" to requestId, "provider_id" to "\"provider.app\"", "agent_id" to "\"agent.a\"", "message" to "\"m\"",
            "source" to source, "event_type" to "\"e\"", "payload" to payload, "created_at" to "\"2026-05-27T00:00:00Z\"",
            "expires_at" to "\"2030-01-01T00:00:00Z\"", "nonce" to "\"n-1\"", "idempotency_key" to "\"i-1\"", "host_instance_id" to "\"h-1\"",
            "signature_algorithm" to algorithm, "signature" to signature,
        ).filter { it.second != null }.map { "\"${it.first}\":${it.second}" }
        return (if (duplicate) listOf("\"protocol_version\":2") + members else members).joinToString(",", "{", "}")
    }

    private fun explain(text: String, k: ByteArray = key): SignatureExplanation = AgentProviderSigning.explainAgentTriggerRequestSignature(text, k)
    private fun SignatureDiagnosis.fields() = listOf(divergence, dialect, field, offset, rfc8785, text)
    private fun SignatureExplanation.fields() = listOf(verified, reasonCode, diagnoses.map { it.divergence }, signingInput)

    @Test
    fun `a float token 1_0 hashed as the dialects write it differs from RFC 8785's 1 at byte 1`() {
        val r = explain(text("\"${mac(input("1.0"))}\"", payload = "1.0"))
        assertEquals("signature-mismatch", r.reasonCode)
        assertEquals(HmacSha256V1.verify(AgentProviderSigning.AGENT_TRIGGER_REQUEST_SIGNATURE, StrictJson.parseStrictJson(text("\"${mac(input("1.0"))}\"", payload = "1.0")).jsonObject, key)!!.message, r.reasonMessage)
        assertFalse(r.reasonMessage.isNullOrEmpty())
        // serde_json (ryu), AOSP (Double.toString) and org.json 20240303 (BigDecimal) all write 1.0; JSONSerialization writes 1.
        assertEquals(
            listOf(
                listOf(serde, "Rust host, serde_json 1.0.154", "payload", 1, "1", "1.0"),
                listOf(serde140, "Rust host, serde_json 1.0.140", "payload", 1, "1", "1.0"),
                listOf(aosp, "Android provider SDK, AOSP org.json", "payload", 1, "1", "1.0"),
                listOf(orgJson, "Android provider SDK, org.json 20240303", "payload", 1, "1", "1.0"),
            ),
            r.diagnoses.map { it.fields() },
        )
        assertEquals(input("1"), r.signingInput)
    }

    @Test
    fun `a key that matches no dialect - no diagnosis, and RFC 8785's signing input`() {
        val r = explain(text("\"${mac(input("""{"x":1}"""))}\""), "wrong-key".toByteArray())
        assertEquals(listOf(false, "signature-mismatch", listOf<String>(), input("""{"x":1}""")), r.fields())
        // An empty key is never tried against the dialects, even on a message an empty key signed.
        val empty = explain(text("\"${mac(input("""{"x":1}"""), ByteArray(0))}\"", duplicate = true), ByteArray(0))
        assertEquals(listOf(false, "duplicate-key", listOf<String>(), null), empty.fields())
        val emptyStrict = explain(text("\"${mac(input("""{"x":1}"""), ByteArray(0))}\""), ByteArray(0))
        assertEquals(listOf(false, "key-missing", listOf<String>()), emptyStrict.fields().take(3))
    }

    @Test
    fun `a verified message has no reason, no diagnosis and no signing input`() {
        val r = explain(text("\"${mac(input("""{"x":1}"""))}\""))
        assertEquals(listOf(true, null, listOf<String>(), null), r.fields())
        assertNull(r.reasonMessage)
    }

    @Test
    fun `text that is not JSON or not an object - the code, a message, no signing input, no diagnosis`() {
        val broken = "{\"a\":"
        val r = explain(broken)
        val thrown = assertThrows<StrictJsonException> { StrictJson.parseStrictJson(broken.toByteArray()) }
        assertEquals(listOf(false, "unexpected-end", listOf<String>(), null), r.fields())
        assertEquals(thrown.reason, r.reasonMessage)
        assertFalse(r.reasonMessage.isNullOrEmpty())
        val array = explain("[1]")
        assertEquals(listOf(false, "not-an-object", listOf<String>(), null), array.fields())
        assertFalse(array.reasonMessage.isNullOrEmpty())
    }

    @Test
    fun `a duplicated top-level member - only the last-wins dialects read the message`() {
        val t = text("\"${mac(input("""{"x":1}"""))}\"", duplicate = true)
        val r = explain(t)
        assertEquals(listOf(false, "duplicate-key", listOf(serde, serde140, aosp), null), r.fields())
        assertEquals(assertThrows<StrictJsonException> { StrictJson.parseStrictJson(t.toByteArray()) }.reason, r.reasonMessage)
        // RFC 8785 refused the text, so it has no bytes for payload: the field is named with the dialect's text and no offset.
        for (d in r.diagnoses) assertEquals(listOf("payload", null, null, """{"x":1}"""), d.fields().drop(2))
    }

    @Test
    fun `an absent field with a default (source) is read as its default`() {
        val r = explain(text("\"${mac(input("""{"x":1}""", source = ""))}\"", source = null, duplicate = true))
        assertEquals(listOf(serde, serde140, aosp), r.diagnoses.map { it.divergence })
        // A default other than the recorded "" does not match: the signer hashed source=s.
        assertEquals(listOf<String>(), explain(text("\"${mac(input("""{"x":1}"""))}\"", source = null, duplicate = true)).diagnoses.map { it.divergence })
    }

    @Test
    fun `an absent hashed field - serde_json writes null for it, the others refuse`() {
        val r = explain(text("\"${mac(input("null"))}\"", payload = null))
        assertEquals(listOf(false, "covered-field-missing", listOf(serde, serde140), null), r.fields())
        assertEquals(
            listOf(listOf(serde, "Rust host, serde_json 1.0.154", "payload", null, null, "null"), listOf(serde140, "Rust host, serde_json 1.0.140", "payload", null, null, "null")),
            r.diagnoses.map { it.fields() },
        )
    }

    @Test
    fun `a covered string field sent as a number or a literal is no dialect's string`() {
        assertEquals(listOf<String>(), explain(text("\"${mac(input("""{"x":1}""", requestId = "5"))}\"", requestId = "5", duplicate = true)).diagnoses)
        assertEquals(listOf<String>(), explain(text("\"${mac(input("""{"x":1}""", requestId = "true"))}\"", requestId = "true", duplicate = true)).diagnoses)
        // The same message with the string token is diagnosed: only the token's type refused it above.
        assertEquals(3, explain(text("\"${mac(input("""{"x":1}""", requestId = "5"))}\"", requestId = "\"5\"", duplicate = true)).diagnoses.size)
    }

    @Test
    fun `a signature that is not 32 bytes, not a string, absent or under another algorithm is never diagnosed`() {
        val sig = mac(input("""{"x":1}"""))
        assertEquals(3, explain(text("\"$sig\"", duplicate = true)).diagnoses.size)
        for (t in listOf(
            text("\"${sig.take(40)}\"", duplicate = true), text("12", duplicate = true), text(null, duplicate = true),
            text("\"$sig\"", algorithm = "\"hmac-sha256-v2\"", duplicate = true), text("\"$sig\"", algorithm = "1", duplicate = true),
            text("\"$sig\"", algorithm = null, duplicate = true), text("\"!!!\"", duplicate = true),
        )) assertEquals(listOf<SignatureDiagnosis>(), explain(t).diagnoses, t)
    }

    @Test
    fun `a number past the double range is a refusal, not a crash, and only org_json 20240303 writes it`() {
        // 1e400: the strict parser refuses it; serde_json refuses the token, AOSP org.json and
        // JSONSerialization hold it as an infinite double they cannot write; org.json 20240303
        // keeps the BigDecimal and writes 1E+400, so a message it signed is diagnosed (the duplicate
        // member is there because it refuses duplicates).
        val r = explain(text("\"${mac(input("""{"x":1e400}"""))}\"", payload = """{"x":1e400}"""))
        assertEquals(listOf(false, "number-out-of-range", listOf<String>(), null), r.fields())
        val signed = explain(text("\"${mac(input("""{"x":1E+400}"""))}\"", payload = """{"x":1e400}"""))
        assertEquals(listOf(false, "number-out-of-range", listOf(orgJson), null), signed.fields())
        assertEquals(listOf("payload", null, null, """{"x":1E+400}"""), signed.diagnoses.single().fields().drop(2))
        // A 400-digit integer is exact for org.json but infinite as the double a signer held.
        val huge = "1" + "0".repeat(400)
        assertEquals(listOf(orgJson), explain(text("\"${mac(input("""{"x":$huge}"""))}\"", payload = """{"x":$huge}""")).diagnoses.map { it.divergence })
        assertEquals(listOf<String>(), explain(text("\"${mac(input("""{"x":1.0E400}"""))}\"", payload = """{"x":$huge}""")).diagnoses.map { it.divergence })
    }

    @Test
    fun `the real Rust-host 1e16 trigger - its texts and the first differing byte`() {
        val c = TestData.json("spec/agent-provider/vectors/signature-doctor.json").jsonObject.getValue("cases").let { it as kotlinx.serialization.json.JsonArray }
            .map { it.jsonObject }.first { it.string("name").startsWith("rust-host-signed-edge-cases #10:") }
        val r = explain(c.string("text"), c.string("key_utf8").toByteArray())
        assertEquals(listOf(serde, "Rust host, serde_json 1.0.154", "payload", 6, "{\"x\":10000000000000000}", "{\"x\":1e+16}"), r.diagnoses.single().fields())
        assertEquals(listOf("request_id=edge-trigger-10", "provider_id=provider.app"), r.signingInput!!.split("\n").take(2))
        assertTrue(r.reasonMessage!!.isNotEmpty())
    }
}
