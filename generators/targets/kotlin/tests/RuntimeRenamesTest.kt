package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertInstanceOf
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The names 0.1.0 shipped (kept as deprecated aliases when 0.1.1 gave every function the runtime
 * contract's name, generators/emit/runtime-contract.ts) still do what the contract's name does:
 * each alias, on inputs where the result is not trivial (a refusal and an acceptance, a non-null
 * error), answers as the function it was renamed to.
 * This suite is the one caller of the deprecated names, hence its @Suppress.
 */
@Suppress("DEPRECATION")
class RuntimeRenamesTest {
    private val hmac = HmacSha256V1Declaration(
        algorithmId = "hmac-sha256-v1", algorithmField = "alg", signatureField = "sig", lineSeparator = "\n",
        lines = listOf(HmacV1Line("a", "a", HmacV1Line.Value.STRING), HmacV1Line("b_sha256", "b", HmacV1Line.Value.SHA256_JCS_BASE64_STD_NOPAD)),
        keySource = "test", keyField = "secret",
    )
    private val key = "k".repeat(32).toByteArray()
    private val message = buildJsonObject { put("a", "x"); put("b", 1) }

    @Test
    fun `StrictJson parse is parseStrictJson, on bytes and on text`() {
        val text = """{"b":[1,2.50,"é"],"a":null}"""
        assertEquals(StrictJson.parseStrictJson(text.toByteArray()), StrictJson.parse(text.toByteArray()))
        assertEquals(StrictJson.parseStrictJson(text), StrictJson.parse(text))
        val tight = StrictJsonLimits(maxDepth = 1)
        val refused = runCatching { StrictJson.parse("[[1]]", tight) }.exceptionOrNull()
        assertEquals(StrictJsonErrorCode.TOO_DEEP, (refused as StrictJsonException).code)
        assertEquals(StrictJsonErrorCode.TOO_DEEP, (runCatching { StrictJson.parse("[[1]]".toByteArray(), tight) }.exceptionOrNull() as StrictJsonException).code)
    }

    @Test
    fun `HmacSha256V1 signingInput, sign and check are hmacV1SigningInput, signHmacV1 and verifyHmacV1`() {
        assertEquals(HmacSha256V1.hmacV1SigningInput(hmac, message), HmacSha256V1.signingInput(hmac, message))
        val signed = HmacSha256V1.signHmacV1(hmac, message, key)
        assertInstanceOf(HmacV1SignResult.Signed::class.java, signed)
        assertEquals(signed, HmacSha256V1.sign(hmac, message, key))
        assertEquals(signed, HmacSha256V1.sign(hmac, message, HmacSha256Key(key)))
        val custom: (JsonObject) -> String = { "custom" }
        assertEquals(HmacSha256V1.signHmacV1(hmac, message, HmacSha256Key(key), custom), HmacSha256V1.sign(hmac, message, HmacSha256Key(key), custom))
        val good = (signed as HmacV1SignResult.Signed).message
        val bad = JsonObject(good + ("a" to JsonPrimitive("y")))
        for (candidate in listOf(good, bad)) {
            assertEquals(HmacSha256V1.verifyHmacV1(hmac, candidate, key, "v"), HmacSha256V1.check(hmac, candidate, key, "v"))
            assertEquals(HmacSha256V1.verifyHmacV1(hmac, candidate, HmacSha256Key(key), "v"), HmacSha256V1.check(hmac, candidate, HmacSha256Key(key), "v"))
            assertEquals(HmacSha256V1.verifyHmacV1(hmac, candidate, HmacSha256Key(key), "v", custom), HmacSha256V1.check(hmac, candidate, HmacSha256Key(key), "v", custom))
        }
        assertInstanceOf(HmacV1Verification.Verified::class.java, HmacSha256V1.check(hmac, good, key, "v"))
        assertInstanceOf(HmacV1Verification.Rejected::class.java, HmacSha256V1.check(hmac, bad, key, "v"))
    }

    @Test
    fun `ContentAddress computeId, verifyId and importAs are computeContentId, verifyContentId and importCanonicalRecord`() {
        val declaration = ContentAddressDeclaration(idField = "id", prefix = "rec-")
        val body = buildJsonObject { put("name", "n") }
        val id = ContentAddress.computeContentId(declaration, body)
        assertEquals(id, ContentAddress.computeId(declaration, body))
        val addressed = JsonObject(body + ("id" to JsonPrimitive(id)))
        val forged = JsonObject(body + ("id" to JsonPrimitive("rec-0")))
        assertTrue(ContentAddress.verifyId(declaration, addressed))
        assertFalse(ContentAddress.verifyId(declaration, forged))
        for (record in listOf(addressed, forged)) {
            val bytes = record.toString().toByteArray()
            val renamed = ContentAddress.importCanonicalRecord(declaration, bytes, JsonObject.serializer()) { true }
            assertEquals(renamed, ContentAddress.importAs(declaration, bytes, JsonObject.serializer()) { true })
        }
        assertInstanceOf(ContentImport.Imported::class.java, ContentAddress.importAs(declaration, addressed.toString().toByteArray(), JsonObject.serializer()) { true })
    }

    @Test
    fun `AuditChain computeEventId, verify and verifyLog are computeAuditEventId, verifyAuditChain and verifyAuditLog`() {
        val declaration = AuditChainDeclaration("eventId", "ev-", "previousEventId", "sequence", "")
        val first = AuditChain.appendAuditEntry(declaration, null, buildJsonObject { put("what", "a") })
        val entry = first.entry
        assertEquals(AuditChain.computeAuditEventId(declaration, entry), AuditChain.computeEventId(declaration, entry))
        val entries: List<JsonElement> = listOf(entry)
        assertEquals(null, AuditChain.verify(declaration, entries, first.head))
        val wrongHead = AuditChain.verify(declaration, entries, null)
        assertNotNull(wrongHead)
        assertEquals(AuditChain.verifyAuditChain(declaration, entries, null), wrongHead)
        assertEquals(AuditChain.verifyAuditChain(declaration, entries, null, checkHead = false), AuditChain.verify(declaration, entries, null, checkHead = false))
        val log = "$entry\n".toByteArray()
        assertEquals(null, AuditChain.verifyLog(declaration, log, first.head))
        assertNotNull(AuditChain.verifyLog(declaration, log, null))
        assertEquals(AuditChain.verifyAuditLog(declaration, log, null), AuditChain.verifyLog(declaration, log, null))
        assertEquals(AuditChain.verifyAuditLog(declaration, log, null, checkHead = false), AuditChain.verifyLog(declaration, log, null, checkHead = false))
    }

    @Test
    fun `ApprovalToken mint, decode and verify are mintApprovalToken, decodeApprovalToken and verifyApprovalToken`() {
        val declaration = ApprovalTokenDeclaration(
            version = 1, maxLifetimeSeconds = 1800, clockSkewSeconds = 60, minTtlSeconds = 60, maxTtlSeconds = 1800,
            defaultTtlSeconds = 600, minSecretBytes = 32,
        )
        val secret = "s".repeat(32).toByteArray()
        val nowMs = 1_700_000_000_000L
        val input = MintApprovalInput("act", "res", "actor", "req", expectedChoice = "low", nonce = "n-1")
        val minted = ApprovalToken.mintApprovalToken(declaration, input, secret, nowMs)
        assertInstanceOf(ApprovalTokenResult.Valid::class.java, minted)
        assertEquals(minted, ApprovalToken.mint(declaration, input, secret, nowMs))
        assertEquals(ApprovalToken.mintApprovalToken(declaration, input, secret, nowMs, 120), ApprovalToken.mint(declaration, input, secret, nowMs, 120))
        assertEquals(ApprovalToken.mintApprovalToken(declaration, input, secret, nowMs, 1), ApprovalToken.mint(declaration, input, secret, nowMs, 1))
        val token = (minted as ApprovalTokenResult.Valid).token
        for (candidate in listOf(token, token.dropLast(2))) {
            assertEquals(ApprovalToken.decodeApprovalToken(declaration, candidate, secret, nowMs), ApprovalToken.decode(declaration, candidate, secret, nowMs))
        }
        assertInstanceOf(ApprovalTokenResult.Valid::class.java, ApprovalToken.decode(declaration, token, secret, nowMs))
        for (bindings in listOf(ApprovalBindings("act", "res", "req", "low"), ApprovalBindings("act", "res", "other", "low"))) {
            assertEquals(ApprovalToken.verifyApprovalToken(declaration, token, secret, bindings, nowMs), ApprovalToken.verify(declaration, token, secret, bindings, nowMs))
        }
        assertInstanceOf(ApprovalTokenResult.Valid::class.java, ApprovalToken.verify(declaration, token, secret, ApprovalBindings("act", "res", "req", "low"), nowMs))
    }
}
