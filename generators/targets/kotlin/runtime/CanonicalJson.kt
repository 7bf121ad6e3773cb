package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.math.BigDecimal
import java.math.BigInteger

/** Why a value has no RFC 8785 form. [wireName] is the code the TypeScript runtime reports. */
enum class CanonicalJsonErrorCode(val wireName: String) {
    NOT_JSON("not-json"),
    NON_FINITE_NUMBER("non-finite-number"),
    NUMBER_NOT_EXACT("number-not-exact"),
    LONE_SURROGATE("lone-surrogate"),
    TOO_DEEP("too-deep"),
}

class CanonicalJsonException(val code: CanonicalJsonErrorCode, message: String) : IllegalArgumentException(message)

/**
 * RFC 8785 JSON Canonicalization Scheme over kotlinx.serialization's JSON tree. The bytes produced
 * here are what gets hashed and signed, so every rule is explicit: members sorted by UTF-16 code
 * units, numbers in ECMAScript form, strings escaped only where the RFC says.
 *
 * The tree is kotlinx's JsonElement so that generated message classes (encodeToJsonElement) and
 * the strict parser feed the canonicalizer without a second JSON model.
 */
object CanonicalJson {
    /** Deeper values than this are refused rather than risk exhausting the stack. */
    const val MAX_DEPTH: Int = 512

    /** The canonical text of [value]; throws [CanonicalJsonException] when it has none. */
    fun canonicalize(value: JsonElement): String = StringBuilder().also { write(value, it, 0) }.toString()

    /** The UTF-8 bytes of [canonicalize]: the input to every hash and MAC. */
    fun canonicalBytes(value: JsonElement): ByteArray = canonicalize(value).toByteArray(Charsets.UTF_8)

    /** ES6 Number::toString; -0 becomes 0. */
    fun serializeNumber(value: Double): String {
        if (!value.isFinite()) {
            throw CanonicalJsonException(CanonicalJsonErrorCode.NON_FINITE_NUMBER, "NaN and Infinity are not JSON numbers")
        }
        return Es6Number.format(value)
    }

    /** RFC 8785 §3.2.2.2: escape only '"', '\\' and C0 controls; everything else is written raw. */
    fun serializeString(value: String): String = StringBuilder(value.length + 2).also { writeString(value, it) }.toString()

    private fun write(value: JsonElement, out: StringBuilder, depth: Int) {
        when (value) {
            is JsonNull -> out.append("null")
            is JsonPrimitive -> writePrimitive(value, out)
            is JsonArray -> {
                checkDepth(depth)
                out.append('[')
                value.forEachIndexed { index, item ->
                    if (index > 0) out.append(',')
                    write(item, out, depth + 1)
                }
                out.append(']')
            }
            is JsonObject -> {
                checkDepth(depth)
                out.append('{')
                // String.compareTo compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
                val keys = value.keys.toTypedArray()
                keys.sort()
                keys.forEachIndexed { index, key ->
                    if (index > 0) out.append(',')
                    writeString(key, out)
                    out.append(':')
                    write(value.getValue(key), out, depth + 1)
                }
                out.append('}')
            }
        }
    }

    private fun checkDepth(depth: Int) {
        if (depth >= MAX_DEPTH) throw CanonicalJsonException(CanonicalJsonErrorCode.TOO_DEEP, "nesting deeper than $MAX_DEPTH")
    }

    private fun writePrimitive(value: JsonPrimitive, out: StringBuilder) {
        val content = value.content
        when {
            value.isString -> writeString(content, out)
            content == "true" || content == "false" -> out.append(content)
            isShortIntegerLiteral(content) -> out.append(content)
            else -> out.append(serializeNumber(numberValue(content)))
        }
    }

    /**
     * True for a JSON integer literal of at most 15 characters other than "-0": its double is
     * exact (below 10^15 < 2^53) and ES6 prints it as these same digits, so the literal is already
     * canonical and skips the grammar regex and the ES6 formatting (most numbers in signed messages).
     */
    internal fun isShortIntegerLiteral(content: String): Boolean {
        val length = content.length
        if (length == 0 || length > 15) return false
        val start = if (content[0] == '-') 1 else 0
        if (start == length) return false
        if (content[start] == '0') return length == 1
        for (i in start until length) {
            if (content[i] !in '0'..'9') return false
        }
        return true
    }

    private val NUMBER_GRAMMAR = Regex("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
    private val TWO_POW_53: BigInteger = BigInteger.ONE.shiftLeft(53)

    /**
     * The double a number literal denotes. JsonPrimitive(Long) or a literal can hold integers a
     * double cannot; canonicalizing those would silently sign a different number than the caller
     * holds, so they are refused (the strict parser's I-JSON rule, applied on the way out) unless
     * the literal is exactly what the double prints as.
     */
    private fun numberValue(content: String): Double {
        if (content == "NaN" || content == "Infinity" || content == "-Infinity") {
            throw CanonicalJsonException(CanonicalJsonErrorCode.NON_FINITE_NUMBER, "NaN and Infinity are not JSON numbers")
        }
        if (!NUMBER_GRAMMAR.matches(content)) {
            throw CanonicalJsonException(CanonicalJsonErrorCode.NOT_JSON, "'$content' is not a JSON number")
        }
        val number = content.toDouble()
        if (!number.isFinite()) {
            throw CanonicalJsonException(CanonicalJsonErrorCode.NON_FINITE_NUMBER, "'$content' overflows a double")
        }
        // ES6 text of a double beyond 2^53 (123456789012345680000) is already canonical: keep it.
        if (!isExactInteger(content, number) && Es6Number.format(number) != content) {
            throw CanonicalJsonException(CanonicalJsonErrorCode.NUMBER_NOT_EXACT, "integer $content is not exactly representable as a double")
        }
        return number
    }

    /** False only for an integer literal beyond 2^53 that the double does not name exactly. */
    internal fun isExactInteger(literal: String, number: Double): Boolean {
        if (literal.length <= 15 || literal.any { it == '.' || it == 'e' || it == 'E' }) return true
        val exact = BigInteger(literal)
        return exact.abs() <= TWO_POW_53 || BigDecimal(number).toBigIntegerExact() == exact
    }

    private fun writeString(value: String, out: StringBuilder) {
        val surrogate = findLoneSurrogate(value)
        if (surrogate >= 0) {
            throw CanonicalJsonException(CanonicalJsonErrorCode.LONE_SURROGATE, "string has a lone surrogate at index $surrogate")
        }
        out.append('"')
        // Characters written raw are appended a run at a time: most strings need no escape at all.
        var runStart = 0
        for (i in value.indices) {
            val char = value[i]
            if (char >= ' ' && char != '"' && char != '\\') continue
            out.append(value, runStart, i)
            when (char) {
                '"' -> out.append("\\\"")
                '\\' -> out.append("\\\\")
                '\b' -> out.append("\\b")
                '\t' -> out.append("\\t")
                '\n' -> out.append("\\n")
                '\u000C' -> out.append("\\f")
                '\r' -> out.append("\\r")
                else -> out.append("\\u00").append(HEX[char.code shr 4]).append(HEX[char.code and 0xF])
            }
            runStart = i + 1
        }
        out.append(value, runStart, value.length)
        out.append('"')
    }

    private const val HEX = "0123456789abcdef"
}

/** Index of the first unpaired UTF-16 surrogate in [text], or -1. */
fun findLoneSurrogate(text: String): Int {
    var i = 0
    while (i < text.length) {
        val unit = text[i]
        if (unit.isHighSurrogate()) {
            if (i + 1 < text.length && text[i + 1].isLowSurrogate()) {
                i += 2
                continue
            }
            return i
        }
        if (unit.isLowSurrogate()) return i
        i++
    }
    return -1
}
