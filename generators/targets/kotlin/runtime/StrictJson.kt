package dev.agentcontracts.runtime

import kotlinx.serialization.ExperimentalSerializationApi
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.JsonUnquotedLiteral
import java.nio.ByteBuffer
import java.nio.CharBuffer
import java.nio.charset.CodingErrorAction

/** Why untrusted JSON was refused. [wireName] is the code in spec/common/vectors/strict-json.json. */
enum class StrictJsonErrorCode(val wireName: String) {
    TOO_LARGE("too-large"),
    INVALID_UTF8("invalid-utf8"),
    BOM("bom"),
    LONE_SURROGATE("lone-surrogate"),
    UNEXPECTED_END("unexpected-end"),
    UNEXPECTED_CHARACTER("unexpected-character"),
    NON_JSON_LITERAL("non-json-literal"),
    INVALID_NUMBER("invalid-number"),
    NUMBER_OUT_OF_RANGE("number-out-of-range"),
    NUMBER_NOT_EXACT("number-not-exact"),
    INVALID_STRING("invalid-string"),
    DUPLICATE_KEY("duplicate-key"),
    TOO_DEEP("too-deep"),
    TRAILING_DATA("trailing-data"),
}

/** [offset] counts bytes for byte input and UTF-16 code units for string input. */
class StrictJsonException(val code: StrictJsonErrorCode, val offset: Int, val reason: String) :
    IllegalArgumentException("$reason (at offset $offset)")

/** Limits that bound the work an untrusted document can cause. */
data class StrictJsonLimits(
    /** Largest accepted input, in UTF-8 bytes. */
    val maxBytes: Int = StrictJson.DEFAULT_MAX_BYTES,
    /** Deepest accepted nesting of arrays and objects (a top-level scalar has depth 0). */
    val maxDepth: Int = StrictJson.DEFAULT_MAX_DEPTH,
) {
    init {
        require(maxBytes >= 0) { "maxBytes must not be negative" }
        // The parser recurses once per level; this bound keeps it far from the thread stack size.
        require(maxDepth in 0..StrictJson.MAX_SUPPORTED_DEPTH) { "maxDepth must be in 0..${StrictJson.MAX_SUPPORTED_DEPTH}" }
    }
}

/**
 * A strict parser for untrusted JSON. Lenient parsers accept duplicate keys (last wins), lone
 * surrogates and integers they silently round; two parties reading the same bytes then see
 * different values, which breaks any signature or hash taken over them. This one refuses those,
 * a BOM, NaN/Infinity and anything past the limits, with a typed [StrictJsonException].
 *
 * Objects keep member order. Numbers come back as literals in ECMAScript form (`12.0` → `12`,
 * `-0` → `0`), so equal numbers compare equal and integral values decode into Int/Long fields.
 */
object StrictJson {
    const val DEFAULT_MAX_BYTES: Int = 4 * 1024 * 1024
    const val DEFAULT_MAX_DEPTH: Int = 64
    const val MAX_SUPPORTED_DEPTH: Int = 1000

    /** Parses UTF-8 bytes, the form messages arrive in; offsets in errors count bytes. */
    fun parseStrictJson(bytes: ByteArray, limits: StrictJsonLimits = StrictJsonLimits()): JsonElement {
        if (bytes.size > limits.maxBytes) throw StrictJsonException(StrictJsonErrorCode.TOO_LARGE, 0, "input is larger than ${limits.maxBytes} bytes")
        val text = decodeUtf8(bytes)
        try {
            return parseText(text, limits)
        } catch (error: StrictJsonException) {
            // Report where the problem is in the caller's bytes, not in the decoded string.
            val byteOffset = utf8Length(text, error.offset.coerceAtMost(text.length))
            throw StrictJsonException(error.code, byteOffset, error.reason)
        }
    }

    /** Parses a string; offsets in errors count UTF-16 code units. */
    fun parseStrictJson(text: String, limits: StrictJsonLimits = StrictJsonLimits()): JsonElement {
        if (text.length > limits.maxBytes || utf8Length(text, text.length) > limits.maxBytes) {
            throw StrictJsonException(StrictJsonErrorCode.TOO_LARGE, 0, "input is larger than ${limits.maxBytes} bytes")
        }
        // Byte input cannot hold a raw lone surrogate (the decoder refuses it); a String can.
        val surrogate = findLoneSurrogate(text)
        if (surrogate >= 0) throw StrictJsonException(StrictJsonErrorCode.LONE_SURROGATE, surrogate, "raw lone surrogate in input")
        return parseText(text, limits)
    }

    private fun parseText(text: String, limits: StrictJsonLimits): JsonElement {
        if (text.startsWith('\uFEFF')) throw StrictJsonException(StrictJsonErrorCode.BOM, 0, "input starts with a byte order mark")
        return StrictJsonParser(text, limits.maxDepth).parseDocument()
    }

    /** Decodes strictly: overlong forms, encoded surrogates and truncated sequences are errors. */
    private fun decodeUtf8(bytes: ByteArray): String {
        val decoder = Charsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
        val input = ByteBuffer.wrap(bytes)
        val output = CharBuffer.allocate(bytes.size) // UTF-8 never yields more chars than bytes.
        val result = decoder.decode(input, output, true)
        if (result.isError) throw StrictJsonException(StrictJsonErrorCode.INVALID_UTF8, input.position(), "input is not valid UTF-8")
        decoder.flush(output)
        output.flip()
        return output.toString()
    }

    /** UTF-8 length of text[0, end) without encoding it. */
    internal fun utf8Length(text: String, end: Int): Int {
        var length = 0
        var i = 0
        while (i < end) {
            val c = text[i]
            length += when {
                c.code < 0x80 -> 1
                c.code < 0x800 -> 2
                c.isHighSurrogate() && i + 1 < end && text[i + 1].isLowSurrogate() -> { i++; 4 }
                else -> 3
            }
            i++
        }
        return length
    }

    // The names 0.1.0 shipped, kept as deprecated aliases since the runtime contract named these as every language does.
    @Deprecated("renamed to parseStrictJson, the runtime contract's name", ReplaceWith("parseStrictJson(bytes, limits)"))
    fun parse(bytes: ByteArray, limits: StrictJsonLimits = StrictJsonLimits()): JsonElement = parseStrictJson(bytes, limits)

    @Deprecated("renamed to parseStrictJson, the runtime contract's name", ReplaceWith("parseStrictJson(text, limits)"))
    fun parse(text: String, limits: StrictJsonLimits = StrictJsonLimits()): JsonElement = parseStrictJson(text, limits)
}

/** Recursive descent over a decoded document; recursion depth is bounded by maxDepth. */
private class StrictJsonParser(private val text: String, private val maxDepth: Int) {
    private var index = 0

    fun parseDocument(): JsonElement {
        skipWhitespace()
        val value = parseValue(0)
        skipWhitespace()
        if (index < text.length) fail(StrictJsonErrorCode.TRAILING_DATA, "data after the JSON value")
        return value
    }

    private fun fail(code: StrictJsonErrorCode, reason: String, at: Int = index): Nothing =
        throw StrictJsonException(code, at, reason)

    private fun peek(): Int = if (index < text.length) text[index].code else -1

    private fun skipWhitespace() {
        while (index < text.length) {
            when (text[index]) {
                ' ', '\t', '\n', '\r' -> index++
                else -> return
            }
        }
    }

    /** [depth] counts the containers already open around this value. */
    private fun parseValue(depth: Int): JsonElement {
        return when (peek()) {
            '{'.code -> parseObject(depth)
            '['.code -> parseArray(depth)
            '"'.code -> JsonPrimitive(parseString())
            '-'.code, in '0'.code..'9'.code -> parseNumber()
            else -> parseLiteral()
        }
    }

    private fun openContainer(depth: Int) {
        if (depth >= maxDepth) fail(StrictJsonErrorCode.TOO_DEEP, "nesting deeper than $maxDepth")
        index++
        skipWhitespace()
    }

    private fun parseArray(depth: Int): JsonArray {
        openContainer(depth)
        val items = ArrayList<JsonElement>()
        if (peek() == ']'.code) {
            index++
            return JsonArray(items)
        }
        while (true) {
            skipWhitespace()
            items.add(parseValue(depth + 1))
            if (afterMember(']')) return JsonArray(items)
        }
    }

    private fun parseObject(depth: Int): JsonObject {
        openContainer(depth)
        val members = LinkedHashMap<String, JsonElement>()
        if (peek() == '}'.code) {
            index++
            return JsonObject(members)
        }
        while (true) {
            skipWhitespace()
            val keyStart = index
            if (peek() != '"'.code) {
                if (peek() == -1) fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside an object")
                fail(StrictJsonErrorCode.UNEXPECTED_CHARACTER, "expected a member name")
            }
            // Compared after unescaping: "a" and "\u0061" are the same name.
            val key = parseString()
            if (members.containsKey(key)) fail(StrictJsonErrorCode.DUPLICATE_KEY, "duplicate member name", keyStart)
            skipWhitespace()
            if (peek() != ':'.code) {
                if (peek() == -1) fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside an object")
                fail(StrictJsonErrorCode.UNEXPECTED_CHARACTER, "expected ':'")
            }
            index++
            skipWhitespace()
            members[key] = parseValue(depth + 1)
            if (afterMember('}')) return JsonObject(members)
        }
    }

    /** Consumes ',' (returns false) or [closer] (returns true) after an element or member. */
    private fun afterMember(closer: Char): Boolean {
        skipWhitespace()
        when (peek()) {
            ','.code -> {
                index++
                skipWhitespace()
                if (peek() == ']'.code || peek() == '}'.code) fail(StrictJsonErrorCode.UNEXPECTED_CHARACTER, "trailing comma")
                return false
            }
            closer.code -> {
                index++
                return true
            }
            -1 -> fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside a container")
            else -> fail(StrictJsonErrorCode.UNEXPECTED_CHARACTER, "expected ',' or '$closer'")
        }
    }

    private fun parseLiteral(): JsonElement {
        when {
            text.startsWith("true", index) -> { index += 4; return JsonPrimitive(true) }
            text.startsWith("false", index) -> { index += 5; return JsonPrimitive(false) }
            text.startsWith("null", index) -> { index += 4; return JsonNull }
            peek() == -1 -> fail(StrictJsonErrorCode.UNEXPECTED_END, "expected a value")
            NON_JSON_LITERAL.matchesAt(text, index) -> fail(StrictJsonErrorCode.NON_JSON_LITERAL, "not a JSON value (NaN, Infinity, quotes or sign)")
            else -> fail(StrictJsonErrorCode.UNEXPECTED_CHARACTER, "expected a value")
        }
    }

    private fun isDigit(at: Int): Boolean = at < text.length && text[at] in '0'..'9'

    private fun parseNumber(): JsonElement {
        val start = index
        var i = index
        if (text[i] == '-') i++
        when {
            i < text.length && text[i] == '0' -> i++
            isDigit(i) -> while (isDigit(i)) i++
            NEGATIVE_NON_FINITE.matchesAt(text, start) -> fail(StrictJsonErrorCode.NON_JSON_LITERAL, "not a JSON value (NaN, Infinity, quotes or sign)")
            else -> fail(StrictJsonErrorCode.INVALID_NUMBER, "malformed number")
        }
        var integerLiteral = true
        if (i < text.length && text[i] == '.' && isDigit(i + 1)) {
            integerLiteral = false
            i++
            while (isDigit(i)) i++
        }
        if (i < text.length && (text[i] == 'e' || text[i] == 'E')) {
            var j = i + 1
            if (j < text.length && (text[j] == '+' || text[j] == '-')) j++
            if (isDigit(j)) {
                integerLiteral = false
                i = j
                while (isDigit(i)) i++
            }
        }
        // "01", "1.", "1e" and "-" leave a digit, '.' or 'e' behind the longest valid prefix.
        if (i < text.length && (text[i] in '0'..'9' || text[i] == '.' || text[i] == 'e' || text[i] == 'E')) {
            fail(StrictJsonErrorCode.INVALID_NUMBER, "malformed number", start)
        }
        val literal = text.substring(start, i)
        // An integer of up to 15 characters is exact in a double and prints as itself in ECMAScript
        // form (the grammar above allows no leading zero); only "-0" prints otherwise ("0").
        if (integerLiteral && literal.length <= 15 && literal != "-0") {
            index = i
            return shortIntegerLiteral(literal)
        }
        val value = literal.toDouble() // Validated above, so Java's looser syntax never applies.
        if (!value.isFinite()) fail(StrictJsonErrorCode.NUMBER_OUT_OF_RANGE, "number overflows a double", start)
        // I-JSON (RFC 7493): an integer must survive the trip through a double, or two readers
        // may see different values.
        if (integerLiteral && !CanonicalJson.isExactInteger(literal, value)) {
            fail(StrictJsonErrorCode.NUMBER_NOT_EXACT, "integer is not exactly representable as a double", start)
        }
        index = i
        return numberLiteral(value)
    }

    private fun parseString(): String {
        // Most strings hold no escape: they are cut out of the text in one substring, and the
        // builder is made only at the first backslash.
        var out: StringBuilder? = null
        var i = index + 1
        var runStart = i
        while (true) {
            if (i >= text.length) fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside a string", i)
            val c = text[i]
            if (c == '"') {
                index = i + 1
                if (out == null) return text.substring(runStart, i)
                out.append(text, runStart, i)
                return out.toString()
            }
            if (c < ' ') fail(StrictJsonErrorCode.INVALID_STRING, "unescaped control character in string", i)
            if (c != '\\') {
                i++
                continue
            }
            if (out == null) out = StringBuilder()
            out.append(text, runStart, i)
            if (i + 1 >= text.length) fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside a string", i)
            when (text[i + 1]) {
                '"' -> out.append('"')
                '\\' -> out.append('\\')
                '/' -> out.append('/')
                'b' -> out.append('\b')
                'f' -> out.append('\u000C')
                'n' -> out.append('\n')
                'r' -> out.append('\r')
                't' -> out.append('\t')
                'u' -> {
                    i = appendUnicodeEscape(i, out)
                    runStart = i
                    continue
                }
                else -> fail(StrictJsonErrorCode.INVALID_STRING, "invalid escape sequence", i)
            }
            i += 2
            runStart = i
        }
    }

    /** Appends the \uXXXX escape at [at] (a pair for astral characters); returns the next index. */
    private fun appendUnicodeEscape(at: Int, out: StringBuilder): Int {
        val unit = readHex4(at + 2)
        return when {
            Character.isHighSurrogate(unit.toChar()) -> {
                val hasLow = text.startsWith("\\u", at + 6)
                val low = if (hasLow) readHex4(at + 8) else -1
                if (low < 0 || !Character.isLowSurrogate(low.toChar())) {
                    fail(StrictJsonErrorCode.LONE_SURROGATE, "escaped high surrogate without a low surrogate", at)
                }
                out.append(unit.toChar()).append(low.toChar())
                at + 12
            }
            Character.isLowSurrogate(unit.toChar()) ->
                fail(StrictJsonErrorCode.LONE_SURROGATE, "escaped low surrogate without a high surrogate", at)
            else -> {
                out.append(unit.toChar())
                at + 6
            }
        }
    }

    private fun readHex4(at: Int): Int {
        val end = minOf(at + 4, text.length)
        val digits = text.substring(at.coerceAtMost(end), end)
        val wellFormedPrefix = digits.all { it.isHexDigit() }
        if (digits.length == 4 && wellFormedPrefix) return digits.toInt(16)
        // Only a well-formed prefix cut off by the end of input is "unexpected end".
        if (wellFormedPrefix) fail(StrictJsonErrorCode.UNEXPECTED_END, "input ends inside a \\u escape", at)
        fail(StrictJsonErrorCode.INVALID_STRING, "invalid \\u escape", at)
    }

    private fun Char.isHexDigit(): Boolean = this in '0'..'9' || this in 'a'..'f' || this in 'A'..'F'

    private companion object {
        val NON_JSON_LITERAL = Regex("NaN|[+-]?Infinity|undefined|'|\\+")
        val NEGATIVE_NON_FINITE = Regex("-(?:Infinity|NaN)")
    }
}

/** A number as a literal in ECMAScript form, the same text the canonicalizer writes. */
@OptIn(ExperimentalSerializationApi::class)
internal fun numberLiteral(value: Double): JsonPrimitive = JsonUnquotedLiteral(Es6Number.format(value))

/** An integer literal of at most 15 characters other than "-0": already the text [numberLiteral] would write. */
@OptIn(ExperimentalSerializationApi::class)
private fun shortIntegerLiteral(literal: String): JsonPrimitive = JsonUnquotedLiteral(literal)

