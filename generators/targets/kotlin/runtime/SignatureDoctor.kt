package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import java.math.BigDecimal
import java.math.BigInteger

/**
 * One recorded platform JSON writer (a divergence's `canonicalization` entry). Used only to
 * explain a signature that fails under RFC 8785, never to accept one. Same meaning as the
 * TypeScript runtime's canonical-dialects.ts.
 */
data class CanonicalizationDialect(
    val divergence: String,
    val name: String,
    val numbers: String,
    val exponentPlus: Boolean,
    val integerTokens: List<String>,
    val keyOrder: String,
    val escapeSlash: String,
    val escapeRanges: List<IntRange>,
    val duplicateKeys: String,
    val absentHashedField: String,
) {
    companion object {
        /** The dialects as the generator writes them: a JSON array of canonicalization entries. */
        fun listFromJson(text: String): List<CanonicalizationDialect> = StrictJson.parseStrictJson(text.toByteArray()).jsonArray.map { element ->
            val o = element.jsonObject
            fun s(key: String) = o.getValue(key).jsonPrimitive.content
            CanonicalizationDialect(
                divergence = s("divergence"), name = s("name"), numbers = s("numbers"),
                exponentPlus = o["exponentPlus"]?.jsonPrimitive?.content == "true",
                integerTokens = o.getValue("integerTokens").jsonArray.map { it.jsonPrimitive.content },
                keyOrder = s("keyOrder"), escapeSlash = s("escapeSlash"),
                escapeRanges = o.getValue("escapeRanges").jsonArray.map { r -> r.jsonArray[0].jsonPrimitive.content.toInt()..r.jsonArray[1].jsonPrimitive.content.toInt() },
                duplicateKeys = s("duplicateKeys"), absentHashedField = o["absentHashedField"]?.jsonPrimitive?.content ?: "refuse",
            )
        }
    }
}

/** JSON text as tokens: numbers keep their lexeme, objects every member in order. */
sealed interface LexValue {
    data class Num(val lexeme: String) : LexValue
    data class Str(val value: String) : LexValue
    data class Lit(val value: String) : LexValue
    data class Arr(val items: List<LexValue>) : LexValue
    data class Obj(val members: List<Pair<String, LexValue>>) : LexValue
}

object CanonicalDialects {
    private const val MAX_DEPTH = 64
    private val NUMBER = Regex("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")

    /** Parses JSON keeping number lexemes and duplicate members; null when the text is not JSON. */
    fun parseLexical(text: String): LexValue? {
        var i = 0
        fun ws() { while (i < text.length && text[i] in " \t\n\r") i++ }
        fun str(): String? {
            if (i >= text.length || text[i] != '"') return null
            i++
            val out = StringBuilder()
            while (i < text.length) {
                val c = text[i++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' -> {
                        if (i >= text.length) return null
                        when (val e = text[i++]) {
                            '"', '\\', '/' -> out.append(e)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                val hex = text.substring(i, minOf(i + 4, text.length))
                                // ASCII hex only: Char.isDigit and toInt(16) also take other scripts' digits ('\u0661').
                                if (hex.length != 4 || !hex.all { it in '0'..'9' || it in 'a'..'f' || it in 'A'..'F' }) return null
                                out.append(hex.toInt(16).toChar()); i += 4
                            }
                            else -> return null
                        }
                    }
                    c < ' ' -> return null
                    else -> out.append(c)
                }
            }
            return null
        }
        fun value(depth: Int): LexValue? {
            if (depth > MAX_DEPTH) return null
            ws()
            if (i >= text.length) return null
            val c = text[i]
            if (c == '{' || c == '[') {
                i++
                val isObject = c == '{'
                val close = if (isObject) '}' else ']'
                val members = mutableListOf<Pair<String, LexValue>>()
                val items = mutableListOf<LexValue>()
                ws()
                if (i < text.length && text[i] == close) { i++; return if (isObject) LexValue.Obj(members) else LexValue.Arr(items) }
                while (true) {
                    ws()
                    var key = ""
                    if (isObject) {
                        key = str() ?: return null
                        ws()
                        if (i >= text.length || text[i++] != ':') return null
                    }
                    val v = value(depth + 1) ?: return null
                    if (isObject) members.add(key to v) else items.add(v)
                    ws()
                    if (i >= text.length) return null
                    val sep = text[i++]
                    if (sep == ',') continue
                    if (sep == close) return if (isObject) LexValue.Obj(members) else LexValue.Arr(items)
                    return null
                }
            }
            if (c == '"') return str()?.let { LexValue.Str(it) }
            NUMBER.matchAt(text, i)?.let { i += it.value.length; return LexValue.Num(it.value) }
            for (literal in listOf("true", "false", "null")) if (text.startsWith(literal, i)) { i += literal.length; return LexValue.Lit(literal) }
            return null
        }
        val result = value(0)
        ws()
        return if (result != null && i == text.length) result else null
    }

    // Shortest round-trip digits (from the RFC 8785 writer) and the decimal point's position.
    private fun shortest(x: Double): Pair<String, Int> {
        val d = BigDecimal(Es6Number.format(Math.abs(x))).stripTrailingZeros()
        val digits = d.unscaledValue().toString()
        return digits to digits.length - d.scale()
    }

    private fun ryuLayout(x: Double, plus: Boolean): String {
        if (x == 0.0) return if (1.0 / x < 0) "-0.0" else "0.0"
        val sign = if (x < 0) "-" else ""
        val (digits, point) = shortest(x)
        val n = digits.length
        if (point in n..16) return sign + digits + "0".repeat(point - n) + ".0"
        if (point in 1..16) return sign + digits.substring(0, point) + "." + digits.substring(point)
        if (point in -4..0) return sign + "0." + "0".repeat(-point) + digits
        val exp = point - 1
        return sign + digits[0] + (if (n > 1) "." + digits.substring(1) else "") + "e" + (if (plus && exp > 0) "+" else "") + exp
    }

    /** Java Double.toString with shortest digits (JDK 19+): plain in [1e-3, 1e7), else d.dddEn. */
    fun javaDoubleToString(x: Double): String {
        if (x == 0.0) return if (1.0 / x < 0) "-0.0" else "0.0"
        val sign = if (x < 0) "-" else ""
        val (digits, point) = shortest(x)
        val n = digits.length
        val abs = Math.abs(x)
        if (abs >= 1e-3 && abs < 1e7) {
            if (point <= 0) return sign + "0." + "0".repeat(-point) + digits
            if (point >= n) return sign + digits + "0".repeat(point - n) + ".0"
            return sign + digits.substring(0, point) + "." + digits.substring(point)
        }
        return sign + digits[0] + "." + (if (n > 1) digits.substring(1) else "0") + "E" + (point - 1)
    }

    private val LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE)
    private val LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE)
    private val U64_MAX = BigInteger.TWO.pow(64) - BigInteger.ONE

    /**
     * How [dialect] writes one number token, or null when it would hold the token as a double and
     * the double is infinite (1e400): no recorded writer emits one (serde_json refuses the token,
     * org.json throws "Forbidden numeric value", RFC 8785 has no form for it), so the dialect
     * cannot have signed it.
     */
    fun formatNumberToken(lexeme: String, dialect: CanonicalizationDialect, integers: String): String? {
        val value = lexeme.toDouble()
        val integer = lexeme.all { it in '0'..'9' || it == '-' }
        val big = if (integer) BigInteger(lexeme) else null
        fun double(layout: (Double) -> String): String? = if (value.isFinite()) layout(value) else null
        return when (dialect.numbers) {
            "serde-json" -> if (big != null && lexeme != "-0" && big >= LONG_MIN && big <= U64_MAX) big.toString() else double { ryuLayout(it, dialect.exponentPlus) }
            "java-double" -> if (big != null && integers == "exact" && big >= LONG_MIN && big <= LONG_MAX) big.toString() else double(::javaDoubleToString)
            "java-bigdecimal" -> when {
                lexeme == "-0" -> "-0.0"
                big != null -> if (integers == "exact") big.toString() else double(::javaDoubleToString)
                value == 0.0 && lexeme.startsWith("-") -> "-0.0"
                else -> BigDecimal(lexeme).toString()
            }
            else -> double(CanonicalJson::serializeNumber)
        }
    }

    private fun quote(s: String, dialect: CanonicalizationDialect): String {
        val out = StringBuilder("\"")
        for ((i, c) in s.withIndex()) {
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\b' -> out.append("\\b")
                c == '\t' -> out.append("\\t")
                c == '\n' -> out.append("\\n")
                c == '\u000C' -> out.append("\\f")
                c == '\r' -> out.append("\\r")
                c.code < 0x20 || dialect.escapeRanges.any { c.code in it } -> out.append("\\u").append(c.code.toString(16).padStart(4, '0'))
                c == '/' && (dialect.escapeSlash == "all" || (dialect.escapeSlash == "after-lt" && i > 0 && s[i - 1] == '<')) -> out.append("\\/")
                else -> out.append(c)
            }
        }
        return out.append('"').toString()
    }

    private val codePointOrder = Comparator<String> { a, b ->
        val x = a.codePoints().toArray()
        val y = b.codePoints().toArray()
        for (k in 0 until minOf(x.size, y.size)) if (x[k] != y[k]) return@Comparator x[k] - y[k]
        x.size - y.size
    }

    /** The text [dialect] would hash for [value], or null when it refuses it (duplicate keys). */
    fun render(value: LexValue, dialect: CanonicalizationDialect, integers: String): String? = when (value) {
        is LexValue.Num -> formatNumberToken(value.lexeme, dialect, integers)
        is LexValue.Str -> quote(value.value, dialect)
        is LexValue.Lit -> value.value
        is LexValue.Arr -> value.items.map { render(it, dialect, integers) ?: return null }.joinToString(",", "[", "]")
        is LexValue.Obj -> {
            val members = LinkedHashMap<String, LexValue>()
            for ((key, member) in value.members) {
                if (members.containsKey(key) && dialect.duplicateKeys == "reject") return null
                members[key] = member
            }
            val keys = if (dialect.keyOrder == "utf16") members.keys.sorted() else members.keys.sortedWith(codePointOrder)
            keys.map { quote(it, dialect) + ":" + (render(members.getValue(it), dialect, integers) ?: return null) }.joinToString(",", "{", "}")
        }
    }

    fun fromJson(value: JsonElement): LexValue = when (value) {
        is JsonObject -> LexValue.Obj(value.entries.map { it.key to fromJson(it.value) })
        is JsonArray -> LexValue.Arr(value.map(::fromJson))
        is JsonPrimitive -> if (value.isString) LexValue.Str(value.content) else if (value.content in setOf("true", "false", "null")) LexValue.Lit(value.content) else LexValue.Num(value.content)
    }
}
