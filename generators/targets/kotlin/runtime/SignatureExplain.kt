package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject

/** One dialect under which the received signature verifies (a diagnosis, never acceptance). */
data class SignatureDiagnosis(
    val divergence: String,
    val dialect: String,
    /** The hashed field whose bytes differ, or null when they equal RFC 8785's and only the parse differs. */
    val field: String?,
    /** UTF-8 byte offset of the first difference, or null when RFC 8785 refuses the value. */
    val offset: Int?,
    val rfc8785: String?,
    val text: String?,
)

/** [reasonCode] is null when the signature verified under RFC 8785. */
data class SignatureExplanation(
    val reasonCode: String?,
    val reasonMessage: String?,
    val diagnoses: List<SignatureDiagnosis>,
    val signingInput: String?,
) {
    val verified: Boolean get() = reasonCode == null
}

/** The signature doctor: the same steps as the TypeScript runtime's signature-doctor.ts. */
object SignatureDoctor {
    private fun member(message: LexValue, key: String): LexValue? = (message as? LexValue.Obj)?.members?.lastOrNull { it.first == key }?.second

    private fun dialectInput(declaration: HmacSha256V1Declaration, message: LexValue, dialect: CanonicalizationDialect, integers: String): Pair<String, Map<String, String>>? {
        // A parser that refuses duplicate keys refuses the whole message, not only its hashed values.
        if (dialect.duplicateKeys == "reject" && message is LexValue.Obj) {
            val names = HashSet<String>()
            if (!message.members.all { names.add(it.first) }) return null
        }
        val hashed = LinkedHashMap<String, String>()
        val lines = declaration.lines.map { line ->
            val absent = if (line.value != HmacV1Line.Value.STRING && dialect.absentHashedField == "null") LexValue.Lit("null") else null
            val raw = member(message, line.field) ?: line.default?.let(CanonicalDialects::fromJson) ?: absent ?: return null
            if (line.value == HmacV1Line.Value.STRING) {
                "${line.name}=${(raw as? LexValue.Str)?.value ?: return null}"
            } else {
                val text = CanonicalDialects.render(raw, dialect, integers) ?: return null
                hashed[line.field] = text
                "${line.name}=${Encoding.base64StdNoPadEncode(Crypto.sha256(text))}"
            }
        }
        return lines.joinToString(declaration.lineSeparator) to hashed
    }

    private fun utf8Difference(a: String, b: String): Int {
        val x = a.toByteArray(Charsets.UTF_8)
        val y = b.toByteArray(Charsets.UTF_8)
        var i = 0
        while (i < x.size && i < y.size && x[i] == y[i]) i++
        return i
    }

    /** Verifies [text] under RFC 8785 and, when that fails, tries each recorded dialect on the received tokens. */
    fun explain(declaration: HmacSha256V1Declaration, dialects: List<CanonicalizationDialect>, text: String, key: ByteArray): SignatureExplanation {
        var reasonCode: String
        var reasonMessage: String
        var signingInput: String? = null
        val jcsTexts = HashMap<String, String>()
        try {
            val value = StrictJson.parseStrictJson(text.toByteArray(Charsets.UTF_8))
            val message = value as? JsonObject ?: return SignatureExplanation("not-an-object", "a signed message must be a JSON object", emptyList(), null)
            val error = HmacSha256V1.verify(declaration, message, key) ?: return SignatureExplanation(null, null, emptyList(), null)
            reasonCode = error.code.wireName
            reasonMessage = error.message
            signingInput = try { HmacSha256V1.hmacV1SigningInput(declaration, message) } catch (_: HmacV1Exception) { null }
            for (line in declaration.lines) {
                val raw = message[line.field] ?: line.default
                if (line.value != HmacV1Line.Value.STRING && raw != null) {
                    try { jcsTexts[line.field] = CanonicalJson.canonicalize(raw) } catch (_: CanonicalJsonException) { }
                }
            }
        } catch (failure: StrictJsonException) {
            reasonCode = failure.code.wireName
            reasonMessage = failure.reason
        }
        val diagnoses = mutableListOf<SignatureDiagnosis>()
        val message = CanonicalDialects.parseLexical(text)
        val signature = (message?.let { member(it, declaration.signatureField) } as? LexValue.Str)?.value
        val algorithm = (message?.let { member(it, declaration.algorithmField) } as? LexValue.Str)?.value
        val received = signature?.let(Encoding::base64StdNoPadDecode)
        if (message != null && received != null && received.size == 32 && algorithm == declaration.algorithmId && key.isNotEmpty()) {
            for (dialect in dialects) {
                for (integers in dialect.integerTokens) {
                    val (input, hashed) = dialectInput(declaration, message, dialect, integers) ?: continue
                    if (!Crypto.constantTimeEquals(received, Crypto.hmacSha256(key, input.toByteArray(Charsets.UTF_8)))) continue
                    var diagnosis = SignatureDiagnosis(dialect.divergence, dialect.name, null, null, null, null)
                    for ((field, dialectText) in hashed) {
                        val jcs = jcsTexts[field]
                        if (jcs == dialectText) continue
                        diagnosis = diagnosis.copy(field = field, offset = jcs?.let { utf8Difference(it, dialectText) }, rfc8785 = jcs, text = dialectText)
                        break
                    }
                    diagnoses.add(diagnosis)
                    break
                }
            }
        }
        return SignatureExplanation(reasonCode, reasonMessage, diagnoses, signingInput)
    }
}
