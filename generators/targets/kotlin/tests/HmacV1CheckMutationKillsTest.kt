package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.security.MessageDigest
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/**
 * HmacSha256V1.verifyHmacV1 (verify as a result that names success) and jcsSha256Base64 (a digest
 * line's value) on a two-line declaration, with every MAC and digest computed here with
 * javax.crypto over the signing input written by hand (protocol hmac-sha256-v1: name=value lines,
 * a hashed field as base64 without padding of SHA-256 of its RFC 8785 text).
 */
class HmacV1CheckMutationKillsTest {
    private val declaration = HmacSha256V1Declaration(
        algorithmId = "hmac-sha256-v1", algorithmField = "alg", signatureField = "sig", lineSeparator = "\n",
        lines = listOf(HmacV1Line("a", "a", HmacV1Line.Value.STRING), HmacV1Line("b_sha256", "b", HmacV1Line.Value.SHA256_JCS_BASE64_STD_NOPAD)),
        keySource = "test", keyField = "secret",
    )
    private val key = "k".repeat(32).toByteArray()
    private fun b64(bytes: ByteArray) = Base64.getEncoder().withoutPadding().encodeToString(bytes)
    private fun sha256(text: String) = MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8))
    private fun mac(input: String) = Mac.getInstance("HmacSHA256").run { init(SecretKeySpec(key, "HmacSHA256")); b64(doFinal(input.toByteArray(Charsets.UTF_8))) }

    private fun message(sig: String): JsonObject = buildJsonObject {
        put("a", "x")
        putJsonObject("b") { put("z", 2); put("y", 1) }
        put("alg", "hmac-sha256-v1")
        put("sig", sig)
    }

    @Test
    fun `check names success with the value it was given, and a refusal with its error`() {
        val good = message(mac("a=x\nb_sha256=" + b64(sha256("""{"y":1,"z":2}"""))))
        assertEquals(HmacV1Verification.Verified("payload"), HmacSha256V1.verifyHmacV1(declaration, good, key, "payload"))
        val bad = message(mac("a=y\nb_sha256=" + b64(sha256("""{"y":1,"z":2}"""))))
        val rejected = HmacSha256V1.verifyHmacV1(declaration, bad, key, "payload")
        assertEquals(HmacV1ErrorCode.SIGNATURE_MISMATCH, (rejected as HmacV1Verification.Rejected).error.code)
    }

    @Test
    fun `a digest line is SHA-256 of the RFC 8785 text, base64 without padding`() {
        val value = buildJsonObject { put("b", 2); put("a", JsonPrimitive("é/\u0001")); put("c", 1.5) }
        assertEquals(b64(sha256("{\"a\":\"é/\\u0001\",\"b\":2,\"c\":1.5}")), HmacSha256V1.jcsSha256Base64(value))
        assertEquals(b64(sha256("[]")), HmacSha256V1.jcsSha256Base64(kotlinx.serialization.json.JsonArray(emptyList())))
    }
}
