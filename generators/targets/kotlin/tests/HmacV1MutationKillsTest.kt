package dev.agentcontracts.runtime

import dev.agentcontracts.agentprovider.AgentProviderSigning
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
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
        val result = HmacSha256V1.sign(decl, message("version" to "1"), key) as HmacV1SignResult.Signed
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
        val failed = HmacSha256V1.sign(decl, message("version" to "1"), ByteArray(0)) as HmacV1SignResult.Failed
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
}
