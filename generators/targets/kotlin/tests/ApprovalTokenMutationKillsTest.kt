package dev.agentcontracts.runtime

import dev.agentcontracts.agentservice.AgentServiceSigning
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/**
 * Approval tokens against the reference verifier's table (research/agent-service-contract-recovered.md
 * § 2.3: the checks in order, each with its exact message; § 2.1: claim types, v a u8, exp an i64
 * read as a JSON number; § 2.3: TTL 60-1800 s, default 600, lifetime 1800 + 60 s, "exp == now
 * passes"). Tokens with hand-picked claims are built here with javax.crypto's HMAC and
 * java.util.Base64 over claim text written by hand, not with the minter under test. The Kotlin twin
 * of property-tests/runtime/approval-token.mutation-kills.test.ts.
 */
class ApprovalTokenMutationKillsTest {
    private val secret = "s".repeat(32).toByteArray()
    private val now = 1_700_000_000L // seconds
    private val b64url = Base64.getUrlEncoder().withoutPadding()

    // sha256("{}"), quoted in § 2.2.
    private val emptyDigest = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"

    /** Claim values as JSON text; a null value leaves the claim out. */
    private val base = linkedMapOf(
        "action" to "\"set_ticket_priority\"", "actor_id" to "\"human-1\"", "choice" to "\"high\"", "exp" to "${now + 600}",
        "expected_choice" to "\"low\"", "nonce" to "\"n-1\"", "override_requested" to "true", "payload" to "{}",
        "payload_sha256" to "\"$emptyDigest\"", "rationale" to "\"because\"", "request_id" to "\"req-1\"", "resource_id" to "\"T-1\"", "v" to "1",
    )
    private val bindings = ApprovalBindings("set_ticket_priority", "T-1", "req-1", "low")

    private fun mac(message: String, key: ByteArray = secret): ByteArray =
        Mac.getInstance("HmacSHA256").apply { init(SecretKeySpec(key, "HmacSHA256")) }.doFinal(message.toByteArray(Charsets.US_ASCII))

    private fun signed(payloadPart: String) = "$payloadPart.${b64url.encodeToString(mac(payloadPart))}"

    private fun token(vararg changes: Pair<String, String?>): String {
        val claims = LinkedHashMap<String, String?>(base).apply { changes.forEach { (k, v) -> put(k, v) } }
        val text = claims.entries.filter { it.value != null }.joinToString(",", "{", "}") { "\"${it.key}\":${it.value}" }
        return signed(b64url.encodeToString(text.toByteArray(Charsets.UTF_8)))
    }

    private fun decode(t: String, nowMs: Long = now * 1000) = AgentServiceSigning.decodeApprovalTokenClaimsToken(t, secret, nowMs)
    private fun verify(t: String, b: ApprovalBindings = bindings) = AgentServiceSigning.verifyApprovalTokenClaimsToken(t, secret, b, now * 1000)
    private fun err(r: ApprovalTokenResult): Pair<String, String> = when (r) {
        is ApprovalTokenResult.Valid -> "valid" to ""
        is ApprovalTokenResult.Failed -> r.code.wireName to r.message
    }
    private fun code(r: ApprovalTokenResult) = err(r).first

    @Test
    fun `a well-formed token decodes to its claims, override_requested as stated and false when absent`() {
        val valid = decode(token()) as ApprovalTokenResult.Valid
        val c = valid.claims
        assertEquals(listOf(1L, now + 600), listOf(c.v.toLong(), c.exp))
        assertEquals(listOf("set_ticket_priority", "T-1", "human-1", "req-1", "n-1"), listOf(c.action, c.resourceId, c.actorId, c.requestId, c.nonce))
        assertEquals(listOf("high", "low", "because", emptyDigest), listOf(c.choice, c.expectedChoice, c.rationale, c.payloadSha256))
        assertTrue(c.overrideRequested)
        assertFalse((decode(token("override_requested" to "false")) as ApprovalTokenResult.Valid).claims.overrideRequested)
        assertFalse((decode(token("override_requested" to null)) as ApprovalTokenResult.Valid).claims.overrideRequested, "default false")
        assertEquals("valid" to "", err(verify(token())))
    }

    @Test
    fun `decode - each check in the reference order, with its message`() {
        val good = token()
        val (payload, signature) = good.split(".")
        assertEquals("invalid-format" to "approval token has invalid format", err(decode(payload + signature)))
        assertEquals("signature-not-base64url" to "approval token signature is not base64url", err(decode("$payload.$signature=")))
        assertEquals("signature-invalid" to "approval token signature is invalid", err(decode("$payload.${b64url.encodeToString(ByteArray(32))}")))
        assertEquals("signature-invalid" to "approval token signature is invalid", err(decode("$payload.${signature.take(40)}")))
        assertEquals("payload-not-base64url" to "approval token payload is not base64url", err(decode(signed("e30="))))
        for (claims in listOf("[1]", "\"x\"", "null")) {
            assertEquals("payload-invalid" to "approval token payload is invalid", err(decode(signed(b64url.encodeToString(claims.toByteArray())))), claims)
        }
        // split_once('.'): a leading dot is an empty payload, MAC-checked, then not a claim set.
        assertEquals("payload-invalid" to "approval token payload is invalid", err(decode(signed(""))))
    }

    @Test
    fun `version - v is a u8 that must be 1`() {
        assertEquals("version-unsupported" to "approval token version is not supported", err(decode(token("v" to "2"))))
        assertEquals("version-unsupported", code(decode(token("v" to "0"))), "0 is a u8")
        assertEquals("version-unsupported", code(decode(token("v" to "255"))), "255 is a u8")
        for (v in listOf("-1", "256", "1.5", "\"1\"", "null")) assertEquals("payload-invalid", code(decode(token("v" to v))), v)
        assertEquals("payload-invalid", code(decode(token("v" to null))), "v is required")
    }

    @Test
    fun `expiry and lifetime`() {
        assertEquals("valid", code(decode(token("exp" to "$now"))), "exp == now passes")
        assertEquals("expired" to "approval token has expired", err(decode(token("exp" to "${now - 1}"))))
        assertEquals("valid", code(decode(token("exp" to "$now"), nowMs = now * 1000 + 999)), "now is floored to seconds")
        assertEquals("valid", code(decode(token("exp" to "${now + 1860}"))))
        assertEquals("valid", code(decode(token("exp" to "${now + 1830}"))), "+1800+30 accepted")
        assertEquals("lifetime-exceeded" to "approval token lifetime exceeds the maximum this server accepts", err(decode(token("exp" to "${now + 1861}"))))
        assertEquals("lifetime-exceeded", code(decode(token("exp" to "${now + 2400}"))), "+1800+600 refused")
        // exp is an i64 read from a JSON number: the largest integer a double holds exactly still parses.
        assertEquals("lifetime-exceeded", code(decode(token("exp" to "9007199254740991"))))
        assertEquals("expired", code(decode(token("exp" to "-9007199254740991"))))
        // Beyond +-(2^53 - 1) is refused: the spec bounds every integer to the I-JSON range (spec/README.md, integer-range).
        for (exp in listOf("${now}.5", "\"$now\"", "null", "9007199254740992")) assertEquals("payload-invalid", code(decode(token("exp" to exp))), exp)
    }

    @Test
    fun `claim types - required strings, nullable strings, a bool, unknown claims ignored`() {
        for (k in listOf("action", "resource_id", "actor_id", "request_id", "nonce")) {
            assertEquals("payload-invalid", code(decode(token(k to null))), "missing $k")
            assertEquals("payload-invalid", code(decode(token(k to "1"))), "numeric $k")
        }
        for (k in listOf("choice", "expected_choice", "rationale", "payload_sha256")) {
            assertEquals("payload-invalid", code(decode(token(k to "7"))), "numeric $k")
            assertEquals("payload-invalid", code(decode(token(k to "{}"))), "object $k")
        }
        val absent = (decode(token("choice" to null, "expected_choice" to null, "rationale" to null, "payload_sha256" to null, "payload" to null)) as ApprovalTokenResult.Valid).claims
        assertEquals(listOf<String?>(null, null, null, null), listOf(absent.choice, absent.expectedChoice, absent.rationale, absent.payloadSha256))
        assertEquals(kotlinx.serialization.json.JsonNull, absent.payload, "an absent payload reads as null")
        for (o in listOf("\"yes\"", "1", "null", "[]")) assertEquals("payload-invalid", code(decode(token("override_requested" to o))), o)
        assertEquals("valid", code(decode(token("extra" to "1"))))
    }

    @Test
    fun `verify - each binding in order, with its message`() {
        val t = token()
        assertEquals("not-bound-to-action" to "approval token is not bound to this action and resource", err(verify(t, bindings.copy(action = "other"))))
        assertEquals("not-bound-to-action", code(verify(t, bindings.copy(resourceId = "T-2"))))
        assertEquals("not-bound-to-request" to "approval token is not bound to this authenticated request", err(verify(t, bindings.copy(requestId = "req-2"))))
        assertEquals("expected-choice-mismatch" to "approval token was issued against a different authoritative choice", err(verify(t, bindings.copy(expectedChoice = "high"))))
        assertEquals("expected-choice-mismatch", code(verify(t, bindings.copy(expectedChoice = null))))
        assertEquals("payload-digest-mismatch" to "approval token payload does not match its own signature", err(verify(token("payload_sha256" to "\"${emptyDigest.replace('4', '5')}\""))))
        assertEquals("valid", code(verify(token("payload" to "null", "payload_sha256" to "null"))))
        assertEquals("payload-digest-mismatch", code(verify(token("payload" to "null"))))
        assertEquals("payload-digest-mismatch", code(verify(token("payload_sha256" to "null"))))
        val missing = "missing-identity" to "approval token is missing audit identity or request correlation"
        assertEquals(missing, err(verify(token("actor_id" to "\" \""))))
        assertEquals(missing, err(verify(token("nonce" to "\"\\t\""))))
        assertEquals(missing, err(verify(token("request_id" to "\" \""), bindings.copy(requestId = " "))))
        assertEquals("expired", code(verify(token("exp" to "${now - 5}"))), "a decode failure is returned as is")
    }

    @Test
    fun `mint - TTL bounds inclusive, identity, every claim serialised`() {
        val input = MintApprovalInput("a", "r", "u", "q", nonce = "n")
        for (ttl in listOf(60L, 1800L)) {
            val minted = AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = now * 1000, ttlSeconds = ttl)
            assertEquals(now + ttl, (minted as ApprovalTokenResult.Valid).claims.exp, "ttl $ttl")
        }
        for (ttl in listOf(59L, 1801L)) {
            assertEquals("mint-ttl-out-of-range" to "ttl must be 60-1800 seconds", err(AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = now * 1000, ttlSeconds = ttl)))
        }
        assertEquals(now + 600, (AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = now * 1000 + 999) as ApprovalTokenResult.Valid).claims.exp)
        val identity = "mint-identity-missing" to "approval requires an authenticated actor and a gateway request id"
        assertEquals(identity, err(AgentServiceSigning.mintApprovalTokenClaimsToken(input.copy(actorId = ""), secret, nowMs = now * 1000)))
        assertEquals(identity, err(AgentServiceSigning.mintApprovalTokenClaimsToken(input.copy(requestId = "  "), secret, nowMs = now * 1000)))

        val chosen = input.copy(choice = "approve", expectedChoice = "deny", rationale = "because")
        val minted = AgentServiceSigning.mintApprovalTokenClaimsToken(chosen, secret, nowMs = now * 1000) as ApprovalTokenResult.Valid
        val (payloadPart, signature) = minted.token.split(".")
        assertEquals(
            "{\"action\":\"a\",\"actor_id\":\"u\",\"choice\":\"approve\",\"exp\":${now + 600},\"expected_choice\":\"deny\",\"nonce\":\"n\"," +
                "\"override_requested\":true,\"payload\":{},\"payload_sha256\":\"$emptyDigest\",\"rationale\":\"because\",\"request_id\":\"q\",\"resource_id\":\"r\",\"v\":1}",
            String(Base64.getUrlDecoder().decode(payloadPart), Charsets.UTF_8),
        )
        assertEquals(b64url.encodeToString(mac(payloadPart)), signature)
        val plain = AgentServiceSigning.mintApprovalTokenClaimsToken(input, secret, nowMs = now * 1000) as ApprovalTokenResult.Valid
        assertEquals(
            "{\"action\":\"a\",\"actor_id\":\"u\",\"choice\":null,\"exp\":${now + 600},\"expected_choice\":null,\"nonce\":\"n\"," +
                "\"override_requested\":false,\"payload\":{},\"payload_sha256\":\"$emptyDigest\",\"rationale\":null,\"request_id\":\"q\",\"resource_id\":\"r\",\"v\":1}",
            String(Base64.getUrlDecoder().decode(plain.token.substringBefore('.')), Charsets.UTF_8),
        )
        // override = choice is not None and choice != expected_choice (§ 2.2).
        fun override(i: MintApprovalInput) = (AgentServiceSigning.mintApprovalTokenClaimsToken(i, secret, nowMs = now * 1000) as ApprovalTokenResult.Valid).claims.overrideRequested
        assertFalse(override(input.copy(choice = "x", expectedChoice = "x")))
        assertTrue(override(input.copy(choice = "x", expectedChoice = null)))
        assertFalse(override(input.copy(expectedChoice = "x")))
        val nulled = AgentServiceSigning.mintApprovalTokenClaimsToken(input.copy(payload = kotlinx.serialization.json.JsonNull), secret, nowMs = now * 1000) as ApprovalTokenResult.Valid
        assertNull(nulled.claims.payloadSha256)
    }

    @Test
    fun `the secret bound - empty and short secrets are refused with messages naming the minimum`() {
        val input = MintApprovalInput("a", "r", "u", "q")
        assertEquals("key-too-short" to "approval token secret must be at least 32 bytes", err(AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(31), nowMs = now * 1000)))
        assertEquals("key-missing" to "approval token secret is empty", err(AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(0), nowMs = now * 1000)))
        assertEquals("valid", code(AgentServiceSigning.mintApprovalTokenClaimsToken(input, ByteArray(32), nowMs = now * 1000)))
        assertEquals("key-missing", code(AgentServiceSigning.decodeApprovalTokenClaimsToken("not a token", ByteArray(0), now * 1000)))
        assertEquals("key-too-short", code(AgentServiceSigning.decodeApprovalTokenClaimsToken(token(), ByteArray(31), now * 1000)))
    }
}
