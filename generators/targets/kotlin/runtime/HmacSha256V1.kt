package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/** One line of the hmac-sha256-v1 signing input (spec/meta/signing.schema.json#/$defs/SigningLine). */
data class HmacV1Line(val name: String, val field: String, val value: Value, val default: JsonElement? = null) {
    enum class Value(val wireName: String) {
        /** The field's string value verbatim. */
        STRING("string"),

        /** base64-std-nopad(SHA-256(RFC 8785 bytes of the field's value)). */
        SHA256_JCS_BASE64_STD_NOPAD("sha256-jcs-base64-std-nopad"),
    }
}

/** A message's `x-signature` with scheme hmac-sha256-v1: which lines, the fields, the key's source. */
data class HmacSha256V1Declaration(
    val algorithmId: String,
    val algorithmField: String,
    val signatureField: String,
    val lineSeparator: String,
    val lines: List<HmacV1Line>,
    /** The record that holds the secret (e.g. install-binding) and its field: documentation for callers. */
    val keySource: String,
    val keyField: String,
)

enum class HmacV1ErrorCode(val wireName: String) {
    UNSIGNED("unsigned"),
    ALGORITHM_MISMATCH("algorithm-mismatch"),
    KEY_MISSING("key-missing"),
    COVERED_FIELD_MISSING("covered-field-missing"),
    COVERED_FIELD_NOT_STRING("covered-field-not-string"),
    HASHED_FIELD_NOT_JSON("hashed-field-not-json"),
    SIGNATURE_ENCODING("signature-encoding"),
    SIGNATURE_MISMATCH("signature-mismatch"),
}

data class HmacV1Error(val code: HmacV1ErrorCode, val message: String)

class HmacV1Exception(val error: HmacV1Error) : IllegalArgumentException("${error.code.wireName}: ${error.message}")

sealed interface HmacV1SignResult {
    /** [message] with the algorithm and signature fields set; [signature] is the latter's value. */
    data class Signed(val message: JsonObject, val signature: String) : HmacV1SignResult

    data class Failed(val error: HmacV1Error) : HmacV1SignResult
}

/** What verifying a signed message says: it holds (with the message), or why it does not. Never null. */
sealed interface HmacV1Verification<out T> {
    data class Verified<T>(val message: T) : HmacV1Verification<T>

    data class Rejected(val error: HmacV1Error) : HmacV1Verification<Nothing>
}

/**
 * The agent-provider `hmac-sha256-v1` scheme, driven entirely by the declaration: `name=value`
 * lines joined by the separator, no escaping, a digest line as base64-std-nopad(SHA-256(JCS)),
 * the MAC as base64-std-nopad(HMAC-SHA256(utf8(secret), utf8(lines))). Same checks, in the same
 * order, as the TypeScript runtime's signing-hmac-v1.ts.
 */
object HmacSha256V1 {
    /** The exact text that is MACed; throws [HmacV1Exception] when a covered field is missing or malformed. */
    fun hmacV1SigningInput(declaration: HmacSha256V1Declaration, message: JsonObject): String =
        declaration.lines.joinToString(declaration.lineSeparator) { line ->
            val value = when (line.value) {
                HmacV1Line.Value.STRING -> stringLine(message, line.field, line.default)
                HmacV1Line.Value.SHA256_JCS_BASE64_STD_NOPAD -> digestLine(message, line.field, line.default)
            }
            "${line.name}=$value"
        }

    /**
     * A `string` line's value: the field's string (or [default] when the field is absent). Used by
     * [hmacV1SigningInput] and by the signing-input functions generated from each declaration, so both
     * refuse the same field with the same error.
     */
    fun stringLine(message: JsonObject, field: String, default: JsonElement?): String {
        val raw = message[field] ?: default ?: fail(HmacV1ErrorCode.COVERED_FIELD_MISSING, "covered field $field is missing")
        return (raw as? JsonPrimitive)?.takeIf { it.isString }?.content
            ?: fail(HmacV1ErrorCode.COVERED_FIELD_NOT_STRING, "covered field $field is not a string")
    }

    /** A digest line's value: [jcsSha256Base64] of the field (or of [default] when it is absent); as [stringLine]. */
    fun digestLine(message: JsonObject, field: String, default: JsonElement?): String {
        val raw = message[field] ?: default ?: fail(HmacV1ErrorCode.COVERED_FIELD_MISSING, "covered field $field is missing")
        return try {
            jcsSha256Base64(raw)
        } catch (error: CanonicalJsonException) {
            fail(HmacV1ErrorCode.HASHED_FIELD_NOT_JSON, "field $field cannot be canonicalized: ${error.code.wireName}")
        }
    }

    /** base64-std-nopad(SHA-256(JCS(value))): the value of a digest line. */
    fun jcsSha256Base64(value: JsonElement): String = Encoding.base64StdNoPadEncode(Crypto.sha256(CanonicalJson.canonicalBytes(value)))

    /** Signs a copy of [message]: the algorithm field, then the signature field, are set last. */
    fun signHmacV1(declaration: HmacSha256V1Declaration, message: JsonObject, key: ByteArray): HmacV1SignResult =
        signHmacV1(declaration, message, HmacSha256Key(key))

    /**
     * [signHmacV1] with a prepared key; [input] builds the signing input (the message type's generated
     * function; the declaration's interpreter when not given) and throws [HmacV1Exception] as [hmacV1SigningInput] does.
     */
    fun signHmacV1(
        declaration: HmacSha256V1Declaration,
        message: JsonObject,
        key: HmacSha256Key,
        input: (JsonObject) -> String = { hmacV1SigningInput(declaration, it) },
    ): HmacV1SignResult = try {
        if (key.isEmpty) fail(HmacV1ErrorCode.KEY_MISSING, "signing key is empty")
        val signature = Encoding.base64StdNoPadEncode(key.mac(input(message).toByteArray()))
        // Like the TypeScript signer: a field already present keeps its place, a new one is appended.
        val signed = LinkedHashMap(message)
        signed[declaration.algorithmField] = JsonPrimitive(declaration.algorithmId)
        signed[declaration.signatureField] = JsonPrimitive(signature)
        HmacV1SignResult.Signed(JsonObject(signed), signature)
    } catch (failure: HmacV1Exception) {
        HmacV1SignResult.Failed(failure.error)
    }

    /** Verifies [message] exactly as it arrived; null when the signature holds. Constant-time MAC compare. */
    fun verify(declaration: HmacSha256V1Declaration, message: JsonObject, key: ByteArray): HmacV1Error? =
        verify(declaration, message, HmacSha256Key(key))

    /** [verify] with a prepared key; [input] as for [signHmacV1]. */
    fun verify(
        declaration: HmacSha256V1Declaration,
        message: JsonObject,
        key: HmacSha256Key,
        input: (JsonObject) -> String = { hmacV1SigningInput(declaration, it) },
    ): HmacV1Error? = try {
        val signatureText = (message[declaration.signatureField] as? JsonPrimitive)?.takeIf { it.isString && it.content.isNotEmpty() }?.content
            ?: fail(HmacV1ErrorCode.UNSIGNED, "message carries no signature")
        val algorithm = message[declaration.algorithmField] as? JsonPrimitive
        if (algorithm == null || !algorithm.isString || algorithm.content != declaration.algorithmId) {
            fail(HmacV1ErrorCode.ALGORITHM_MISMATCH, "${declaration.algorithmField} is not ${declaration.algorithmId}")
        }
        if (key.isEmpty) fail(HmacV1ErrorCode.KEY_MISSING, "verification key is empty")
        val received = Encoding.base64StdNoPadDecode(signatureText)?.takeIf { it.size == 32 }
            ?: fail(HmacV1ErrorCode.SIGNATURE_ENCODING, "signature is not 32 bytes of unpadded standard base64")
        val expected = key.mac(input(message).toByteArray())
        if (!Crypto.constantTimeEquals(received, expected)) fail(HmacV1ErrorCode.SIGNATURE_MISMATCH, "signature does not match")
        null
    } catch (failure: HmacV1Exception) {
        failure.error
    }

    /** [verify] as a result that names success: [HmacV1Verification.Verified] carries [verified]. */
    fun <T> verifyHmacV1(declaration: HmacSha256V1Declaration, message: JsonObject, key: ByteArray, verified: T): HmacV1Verification<T> =
        verifyHmacV1(declaration, message, HmacSha256Key(key), verified)

    /** [verifyHmacV1] with a prepared key; [input] as for [signHmacV1]. */
    fun <T> verifyHmacV1(
        declaration: HmacSha256V1Declaration,
        message: JsonObject,
        key: HmacSha256Key,
        verified: T,
        input: (JsonObject) -> String = { hmacV1SigningInput(declaration, it) },
    ): HmacV1Verification<T> =
        when (val error = verify(declaration, message, key, input)) {
            null -> HmacV1Verification.Verified(verified)
            else -> HmacV1Verification.Rejected(error)
        }

    private fun fail(code: HmacV1ErrorCode, message: String): Nothing = throw HmacV1Exception(HmacV1Error(code, message))

    // The names 0.1.0 shipped, kept as deprecated aliases since the runtime contract named these as every language does.
    @Deprecated("renamed to hmacV1SigningInput, the runtime contract's name", ReplaceWith("hmacV1SigningInput(declaration, message)"))
    fun signingInput(declaration: HmacSha256V1Declaration, message: JsonObject): String = hmacV1SigningInput(declaration, message)

    @Deprecated("renamed to signHmacV1, the runtime contract's name", ReplaceWith("signHmacV1(declaration, message, key)"))
    fun sign(declaration: HmacSha256V1Declaration, message: JsonObject, key: ByteArray): HmacV1SignResult = signHmacV1(declaration, message, key)

    @Deprecated("renamed to signHmacV1, the runtime contract's name", ReplaceWith("signHmacV1(declaration, message, key, input)"))
    fun sign(
        declaration: HmacSha256V1Declaration,
        message: JsonObject,
        key: HmacSha256Key,
        input: (JsonObject) -> String = { hmacV1SigningInput(declaration, it) },
    ): HmacV1SignResult = signHmacV1(declaration, message, key, input)

    @Deprecated("renamed to verifyHmacV1, the runtime contract's name", ReplaceWith("verifyHmacV1(declaration, message, key, verified)"))
    fun <T> check(declaration: HmacSha256V1Declaration, message: JsonObject, key: ByteArray, verified: T): HmacV1Verification<T> =
        verifyHmacV1(declaration, message, key, verified)

    @Deprecated("renamed to verifyHmacV1, the runtime contract's name", ReplaceWith("verifyHmacV1(declaration, message, key, verified, input)"))
    fun <T> check(
        declaration: HmacSha256V1Declaration,
        message: JsonObject,
        key: HmacSha256Key,
        verified: T,
        input: (JsonObject) -> String = { hmacV1SigningInput(declaration, it) },
    ): HmacV1Verification<T> = verifyHmacV1(declaration, message, key, verified, input)
}
