package dev.agentcontracts.runtime

import dev.agentcontracts.agentprovider.AgentProviderSigning
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/**
 * hmac-sha256-v1 refusals with their codes and messages (the same ones the TypeScript runtime gives,
 * property-tests/runtime/hmac-sha256-v1.mutation-kills.test.ts), with the MAC recomputed by
 * javax.crypto on a declaration written here; and the spec's key source for ActionProposal
 * (spec/agent-provider/messages/ActionProposal.yaml x-signature.key).
 */
class HmacV1MutationKillsTest {
    private val decl = HmacSha256V1Declaration(
        algorithmId = "hmac-sha256-v1",
        algorithmField = "signature_alg",
        signatureField = "signature",
        lineSeparator = "\n",
        lines = listOf(HmacV1Line("v", "version", HmacV1Line.Value.STRING), HmacV1Line("id", "proposal_id", HmacV1Line.Value.STRING, JsonPrimitive(""))),
        keySource = "binding",
        keyField = "secret",
    )
    private val key = "k3y".toByteArray()
    private fun mac(text: String): String {
        val m = Mac.getInstance("HmacSHA256")
        m.init(SecretKeySpec(key, "HmacSHA256"))
        return Base64.getEncoder().withoutPadding().encodeToString(m.doFinal(text.toByteArray()))
    }
    private fun message(vararg pairs: Pair<String, String>) = JsonObject(pairs.associate { (k, v) -> k to JsonPrimitive(v) })
    private val signed = message("version" to "1", "proposal_id" to "p=1", "signature_alg" to "hmac-sha256-v1", "signature" to mac("v=1\nid=p=1"))

    @Test
    fun `a signature verifies and sign writes the MAC javax crypto computes`() {
        assertNull(HmacSha256V1.verify(decl, signed, key))
        val result = HmacSha256V1.signHmacV1(decl, message("version" to "1"), key) as HmacV1SignResult.Signed
        assertEquals(mac("v=1\nid="), result.signature)
        assertEquals(JsonPrimitive("hmac-sha256-v1"), result.message["signature_alg"])
    }

    @Test
    fun `each refusal, its code and message`() {
        fun verify(m: JsonObject, k: ByteArray = key) = HmacSha256V1.verify(decl, m, k)?.let { it.code.wireName to it.message }
        assertEquals("unsigned" to "message carries no signature", verify(JsonObject(signed - "signature")))
        assertEquals("unsigned" to "message carries no signature", verify(JsonObject(signed + ("signature" to JsonPrimitive("")))))
        assertEquals("algorithm-mismatch" to "signature_alg is not hmac-sha256-v1", verify(JsonObject(signed + ("signature_alg" to JsonPrimitive("x")))))
        assertEquals("key-missing" to "verification key is empty", verify(signed, ByteArray(0)))
        assertEquals("signature-encoding" to "signature is not 32 bytes of unpadded standard base64", verify(JsonObject(signed + ("signature" to JsonPrimitive("AAAA")))))
        assertEquals("covered-field-missing" to "covered field version is missing", verify(JsonObject(signed - "version")))
        assertEquals("covered-field-not-string" to "covered field version is not a string", verify(JsonObject(signed + ("version" to JsonPrimitive(1)))))
        assertEquals("signature-mismatch" to "signature does not match", verify(JsonObject(signed + ("version" to JsonPrimitive("2")))))
        val failed = HmacSha256V1.signHmacV1(decl, message("version" to "1"), ByteArray(0)) as HmacV1SignResult.Failed
        assertEquals(HmacV1Error(HmacV1ErrorCode.KEY_MISSING, "signing key is empty"), failed.error)
        assertEquals("signing key is empty", failed.error.message)
    }

    @Test
    fun `ActionProposal is keyed by the install binding's host_shared_secret`() {
        assertEquals("install-binding", AgentProviderSigning.ACTION_PROPOSAL_SIGNATURE.keySource)
        assertEquals("host_shared_secret", AgentProviderSigning.ACTION_PROPOSAL_SIGNATURE.keyField)
        assertEquals("binding", decl.keySource)
        assertEquals("secret", decl.keyField)
    }

    @Test
    fun `a given signing-input function is what sign, verify and check MAC, with a prepared key`() {
        val fixed: (JsonObject) -> String = { "fixed input" }
        val prepared = HmacSha256Key(key)
        val signedFixed = HmacSha256V1.signHmacV1(decl, message("version" to "1"), prepared, fixed) as HmacV1SignResult.Signed
        assertEquals(mac("fixed input"), signedFixed.signature)
        val received = JsonObject(signed + ("signature" to JsonPrimitive(mac("fixed input"))))
        assertNull(HmacSha256V1.verify(decl, received, prepared, fixed))
        assertEquals(HmacV1ErrorCode.SIGNATURE_MISMATCH, HmacSha256V1.verify(decl, received, prepared)?.code)
        assertEquals(HmacV1Verification.Verified("ok"), HmacSha256V1.verifyHmacV1(decl, received, prepared, "ok", fixed))
        val refusal = HmacV1Error(HmacV1ErrorCode.COVERED_FIELD_MISSING, "from the function")
        val refuse: (JsonObject) -> String = { throw HmacV1Exception(refusal) }
        assertEquals(refusal, HmacSha256V1.verify(decl, received, prepared, refuse))
        assertEquals(HmacV1SignResult.Failed(refusal), HmacSha256V1.signHmacV1(decl, message("version" to "1"), prepared, refuse))
        assertEquals(HmacV1Verification.Rejected(refusal), HmacSha256V1.verifyHmacV1(decl, received, prepared, "ok", refuse))
        val empty = HmacSha256Key(ByteArray(0))
        assertEquals(HmacV1ErrorCode.KEY_MISSING, HmacSha256V1.verify(decl, received, empty, fixed)?.code)
        assertEquals(HmacV1SignResult.Failed(HmacV1Error(HmacV1ErrorCode.KEY_MISSING, "signing key is empty")), HmacSha256V1.signHmacV1(decl, message("version" to "1"), empty, fixed))
    }

    @Test
    fun `the line helpers the generated functions call, their value, default and each refusal`() {
        val m = JsonObject(mapOf("s" to JsonPrimitive("text"), "n" to JsonPrimitive(1), "o" to JsonObject(mapOf("b" to JsonPrimitive(1), "a" to JsonPrimitive("é")))))
        assertEquals("text", HmacSha256V1.stringLine(m, "s", null))
        assertEquals("fallback", HmacSha256V1.stringLine(m, "absent", JsonPrimitive("fallback")))
        assertEquals(HmacV1Error(HmacV1ErrorCode.COVERED_FIELD_MISSING, "covered field absent is missing"), assertThrows<HmacV1Exception> { HmacSha256V1.stringLine(m, "absent", null) }.error)
        assertEquals(HmacV1Error(HmacV1ErrorCode.COVERED_FIELD_NOT_STRING, "covered field n is not a string"), assertThrows<HmacV1Exception> { HmacSha256V1.stringLine(m, "n", null) }.error)
        // SHA-256 of the JCS text {"a":"é","b":1}, computed independently with the JDK's MessageDigest.
        val jcs = java.security.MessageDigest.getInstance("SHA-256").digest("{\"a\":\"é\",\"b\":1}".toByteArray())
        assertEquals(Base64.getEncoder().withoutPadding().encodeToString(jcs), HmacSha256V1.digestLine(m, "o", null))
        val emptyObject = java.security.MessageDigest.getInstance("SHA-256").digest("{}".toByteArray())
        assertEquals(Base64.getEncoder().withoutPadding().encodeToString(emptyObject), HmacSha256V1.digestLine(m, "absent", JsonObject(emptyMap())))
        assertEquals(HmacV1Error(HmacV1ErrorCode.COVERED_FIELD_MISSING, "covered field absent is missing"), assertThrows<HmacV1Exception> { HmacSha256V1.digestLine(m, "absent", null) }.error)
        val notJson = JsonObject(mapOf("x" to JsonPrimitive(Double.NaN)))
        assertEquals(HmacV1ErrorCode.HASHED_FIELD_NOT_JSON, assertThrows<HmacV1Exception> { HmacSha256V1.digestLine(notJson, "x", null) }.error.code)
    }
}
