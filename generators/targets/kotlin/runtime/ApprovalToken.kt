package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.util.UUID

/** A message's `x-approval-token` (spec/meta/signing.schema.json#/$defs/ApprovalToken). */
data class ApprovalTokenDeclaration(
    val version: Int,
    val maxLifetimeSeconds: Long,
    val clockSkewSeconds: Long,
    val minTtlSeconds: Long,
    val maxTtlSeconds: Long,
    val defaultTtlSeconds: Long,
    /** Smallest accepted secret in bytes; an empty secret is KEY_MISSING. */
    val minSecretBytes: Int,
)

/** The claims of a token, as the verifier reads them (absent optional claims become null/false). */
data class ApprovalClaims(
    val v: Int,
    val exp: Long,
    val action: String,
    val resourceId: String,
    val actorId: String,
    val requestId: String,
    val choice: String?,
    val expectedChoice: String?,
    val overrideRequested: Boolean,
    val rationale: String?,
    val payload: JsonElement,
    val payloadSha256: String?,
    val nonce: String,
)

enum class ApprovalTokenErrorCode(val wireName: String) {
    INVALID_FORMAT("invalid-format"),
    SIGNATURE_NOT_BASE64URL("signature-not-base64url"),
    SIGNATURE_INVALID("signature-invalid"),
    PAYLOAD_NOT_BASE64URL("payload-not-base64url"),
    PAYLOAD_INVALID("payload-invalid"),
    VERSION_UNSUPPORTED("version-unsupported"),
    EXPIRED("expired"),
    LIFETIME_EXCEEDED("lifetime-exceeded"),
    NOT_BOUND_TO_ACTION("not-bound-to-action"),
    NOT_BOUND_TO_REQUEST("not-bound-to-request"),
    PAYLOAD_DIGEST_MISMATCH("payload-digest-mismatch"),
    EXPECTED_CHOICE_MISMATCH("expected-choice-mismatch"),
    MISSING_IDENTITY("missing-identity"),
    MINT_TTL_OUT_OF_RANGE("mint-ttl-out-of-range"),
    MINT_IDENTITY_MISSING("mint-identity-missing"),
    KEY_MISSING("key-missing"),
    KEY_TOO_SHORT("key-too-short"),
}

sealed interface ApprovalTokenResult {
    data class Valid(val claims: ApprovalClaims, val token: String) : ApprovalTokenResult

    data class Failed(val code: ApprovalTokenErrorCode, val message: String) : ApprovalTokenResult
}

/** What the minter is asked to approve; absent values are minted as the reference does. */
data class MintApprovalInput(
    val action: String,
    val resourceId: String,
    val actorId: String,
    val requestId: String,
    val choice: String? = null,
    val expectedChoice: String? = null,
    val rationale: String? = null,
    val payload: JsonElement = JsonObject(emptyMap()),
    val nonce: String = UUID.randomUUID().toString(),
)

/** The request a token must be bound to; [expectedChoice] is the authoritative current state. */
data class ApprovalBindings(val action: String, val resourceId: String, val requestId: String, val expectedChoice: String?)

/**
 * agent-service approval tokens: base64url(JCS(claims)) + "." + base64url(HMAC-SHA256(secret, ASCII
 * of the first part)). Checks run in the reference verifier's order (format, signature encoding,
 * MAC, payload encoding, claims, version, expiry, lifetime), then the bindings: approval-token.ts.
 */
object ApprovalToken {
    /** hex(SHA-256(JCS(payload))), or null for a null payload. */
    fun payloadDigest(payload: JsonElement): String? =
        if (payload is JsonNull) null else Encoding.hexEncode(Crypto.sha256(CanonicalJson.canonicalBytes(payload)))

    fun mintApprovalToken(declaration: ApprovalTokenDeclaration, input: MintApprovalInput, secret: ByteArray, nowMs: Long, ttlSeconds: Long = declaration.defaultTtlSeconds): ApprovalTokenResult {
        secretProblem(declaration, secret)?.let { return it }
        if (ttlSeconds !in declaration.minTtlSeconds..declaration.maxTtlSeconds) {
            return failed(ApprovalTokenErrorCode.MINT_TTL_OUT_OF_RANGE, "ttl must be ${declaration.minTtlSeconds}-${declaration.maxTtlSeconds} seconds")
        }
        if (input.actorId.isBlank() || input.requestId.isBlank()) {
            return failed(ApprovalTokenErrorCode.MINT_IDENTITY_MISSING, "approval requires an authenticated actor and a gateway request id")
        }
        val claims = ApprovalClaims(
            v = declaration.version,
            exp = Math.floorDiv(nowMs, 1000L) + ttlSeconds,
            action = input.action,
            resourceId = input.resourceId,
            actorId = input.actorId,
            requestId = input.requestId,
            choice = input.choice,
            expectedChoice = input.expectedChoice,
            // Recorded only; the verifier's caller re-derives it at the point of use.
            overrideRequested = input.choice != null && input.choice != input.expectedChoice,
            rationale = input.rationale,
            payload = input.payload,
            payloadSha256 = payloadDigest(input.payload),
            nonce = input.nonce,
        )
        val payloadText = Encoding.base64UrlEncode(CanonicalJson.canonicalBytes(toJson(claims)))
        val signature = Encoding.base64UrlEncode(Crypto.hmacSha256(secret, payloadText.toByteArray(Charsets.UTF_8)))
        return ApprovalTokenResult.Valid(claims, "$payloadText.$signature")
    }

    /** Decodes and authenticates [token] at [nowMs]; the first failing check in reference order. */
    fun decodeApprovalToken(declaration: ApprovalTokenDeclaration, token: String, secret: ByteArray, nowMs: Long): ApprovalTokenResult {
        secretProblem(declaration, secret)?.let { return it }
        val dot = token.indexOf('.')
        if (dot < 0) return failed(ApprovalTokenErrorCode.INVALID_FORMAT, "approval token has invalid format")
        val payloadText = token.substring(0, dot)
        val signature = Encoding.base64UrlDecode(token.substring(dot + 1))
            ?: return failed(ApprovalTokenErrorCode.SIGNATURE_NOT_BASE64URL, "approval token signature is not base64url")
        if (!Crypto.constantTimeEquals(signature, Crypto.hmacSha256(secret, payloadText.toByteArray(Charsets.UTF_8)))) {
            return failed(ApprovalTokenErrorCode.SIGNATURE_INVALID, "approval token signature is invalid")
        }
        val payloadBytes = Encoding.base64UrlDecode(payloadText)
            ?: return failed(ApprovalTokenErrorCode.PAYLOAD_NOT_BASE64URL, "approval token payload is not base64url")
        val claims = try {
            readClaims(StrictJson.parseStrictJson(payloadBytes))
        } catch (_: StrictJsonException) {
            null
        } ?: return failed(ApprovalTokenErrorCode.PAYLOAD_INVALID, "approval token payload is invalid")
        if (claims.v != declaration.version) return failed(ApprovalTokenErrorCode.VERSION_UNSUPPORTED, "approval token version is not supported")
        val now = Math.floorDiv(nowMs, 1000L)
        if (claims.exp < now) return failed(ApprovalTokenErrorCode.EXPIRED, "approval token has expired")
        if (claims.exp - now > declaration.maxLifetimeSeconds + declaration.clockSkewSeconds) {
            return failed(ApprovalTokenErrorCode.LIFETIME_EXCEEDED, "approval token lifetime exceeds the maximum this server accepts")
        }
        return ApprovalTokenResult.Valid(claims, token)
    }

    /** [decodeApprovalToken], then the checks that bind the token to this request, in reference order. */
    fun verifyApprovalToken(declaration: ApprovalTokenDeclaration, token: String, secret: ByteArray, bindings: ApprovalBindings, nowMs: Long): ApprovalTokenResult {
        val decoded = decodeApprovalToken(declaration, token, secret, nowMs)
        val c = (decoded as? ApprovalTokenResult.Valid)?.claims ?: return decoded
        if (c.action != bindings.action || c.resourceId != bindings.resourceId) {
            return failed(ApprovalTokenErrorCode.NOT_BOUND_TO_ACTION, "approval token is not bound to this action and resource")
        }
        if (c.requestId != bindings.requestId) return failed(ApprovalTokenErrorCode.NOT_BOUND_TO_REQUEST, "approval token is not bound to this authenticated request")
        val digest = try {
            payloadDigest(c.payload)
        } catch (_: CanonicalJsonException) {
            ""
        }
        if (c.payloadSha256 != digest) return failed(ApprovalTokenErrorCode.PAYLOAD_DIGEST_MISMATCH, "approval token payload does not match its own signature")
        if (c.expectedChoice != bindings.expectedChoice) {
            return failed(ApprovalTokenErrorCode.EXPECTED_CHOICE_MISMATCH, "approval token was issued against a different authoritative choice")
        }
        if (c.actorId.isBlank() || c.requestId.isBlank() || c.nonce.isBlank()) {
            return failed(ApprovalTokenErrorCode.MISSING_IDENTITY, "approval token is missing audit identity or request correlation")
        }
        return decoded
    }

    /** An empty or short secret would let anyone (or a brute force) mint valid tokens. */
    private fun secretProblem(declaration: ApprovalTokenDeclaration, secret: ByteArray): ApprovalTokenResult.Failed? = when {
        secret.isEmpty() -> failed(ApprovalTokenErrorCode.KEY_MISSING, "approval token secret is empty")
        secret.size < declaration.minSecretBytes -> failed(ApprovalTokenErrorCode.KEY_TOO_SHORT, "approval token secret must be at least ${declaration.minSecretBytes} bytes")
        else -> null
    }

    private fun failed(code: ApprovalTokenErrorCode, message: String) = ApprovalTokenResult.Failed(code, message)

    /** The claims in the shape the reference accepts, or null (payload-invalid). */
    private fun readClaims(value: JsonElement): ApprovalClaims? {
        val o = value as? JsonObject ?: return null
        fun str(key: String): String? = (o[key] as? JsonPrimitive)?.takeIf { it.isString }?.content
        fun optStr(key: String): Result<String?> = when (val member = o[key]) {
            null, JsonNull -> Result.success(null)
            is JsonPrimitive -> if (member.isString) Result.success(member.content) else Result.failure(IllegalArgumentException(key))
            else -> Result.failure(IllegalArgumentException(key))
        }
        fun number(key: String): Double? = (o[key] as? JsonPrimitive)?.takeIf { !it.isString && it !is JsonNull }?.content?.toDoubleOrNull()
        val v = number("v")?.takeIf { it % 1.0 == 0.0 && it in 0.0..255.0 } ?: return null
        val exp = number("exp")?.takeIf { it % 1.0 == 0.0 && kotlin.math.abs(it) <= MAX_SAFE_INTEGER } ?: return null
        val strings = listOf("action", "resource_id", "actor_id", "request_id", "nonce").map { str(it) ?: return null }
        val optional = listOf("choice", "expected_choice", "rationale", "payload_sha256").map { key -> optStr(key).getOrElse { return null } }
        val override = when (val member = o["override_requested"]) {
            null -> false
            is JsonPrimitive -> if (!member.isString && member.content in setOf("true", "false")) member.content == "true" else return null
            else -> return null
        }
        return ApprovalClaims(
            v = v.toInt(),
            exp = exp.toLong(),
            action = strings[0],
            resourceId = strings[1],
            actorId = strings[2],
            requestId = strings[3],
            choice = optional[0],
            expectedChoice = optional[1],
            overrideRequested = override,
            rationale = optional[2],
            payload = o["payload"] ?: JsonNull,
            payloadSha256 = optional[3],
            nonce = strings[4],
        )
    }

    private fun toJson(c: ApprovalClaims): JsonObject = JsonObject(
        linkedMapOf(
            "v" to JsonPrimitive(c.v),
            "exp" to JsonPrimitive(c.exp),
            "action" to JsonPrimitive(c.action),
            "resource_id" to JsonPrimitive(c.resourceId),
            "actor_id" to JsonPrimitive(c.actorId),
            "request_id" to JsonPrimitive(c.requestId),
            "choice" to JsonPrimitive(c.choice),
            "expected_choice" to JsonPrimitive(c.expectedChoice),
            "override_requested" to JsonPrimitive(c.overrideRequested),
            "rationale" to JsonPrimitive(c.rationale),
            "payload" to c.payload,
            "payload_sha256" to JsonPrimitive(c.payloadSha256),
            "nonce" to JsonPrimitive(c.nonce),
        ),
    )

    private const val MAX_SAFE_INTEGER = 9007199254740991.0

    // The names 0.1.0 shipped, kept as deprecated aliases since the runtime contract named these as every language does.
    @Deprecated("renamed to mintApprovalToken, the runtime contract's name", ReplaceWith("mintApprovalToken(declaration, input, secret, nowMs, ttlSeconds)"))
    fun mint(declaration: ApprovalTokenDeclaration, input: MintApprovalInput, secret: ByteArray, nowMs: Long, ttlSeconds: Long = declaration.defaultTtlSeconds): ApprovalTokenResult =
        mintApprovalToken(declaration, input, secret, nowMs, ttlSeconds)

    @Deprecated("renamed to decodeApprovalToken, the runtime contract's name", ReplaceWith("decodeApprovalToken(declaration, token, secret, nowMs)"))
    fun decode(declaration: ApprovalTokenDeclaration, token: String, secret: ByteArray, nowMs: Long): ApprovalTokenResult =
        decodeApprovalToken(declaration, token, secret, nowMs)

    @Deprecated("renamed to verifyApprovalToken, the runtime contract's name", ReplaceWith("verifyApprovalToken(declaration, token, secret, bindings, nowMs)"))
    fun verify(declaration: ApprovalTokenDeclaration, token: String, secret: ByteArray, bindings: ApprovalBindings, nowMs: Long): ApprovalTokenResult =
        verifyApprovalToken(declaration, token, secret, bindings, nowMs)
}
