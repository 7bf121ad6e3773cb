package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.nio.file.Files
import kotlin.io.path.name

class CanonicalJsonTest {
    /** RFC 8785's own input/output pairs (cyberphone/json-canonicalization testdata). */
    @Test
    fun `rfc 8785 testdata pairs`() {
        val counter = CaseCounter("jcs testdata")
        val inputs = Files.list(TestData.path("property-tests/vectors/jcs/testdata/input")).use { paths ->
            paths.filter { it.name.endsWith(".json") }.sorted().toList()
        }
        for (input in inputs) {
            val expected = TestData.bytes("property-tests/vectors/jcs/testdata/output/${input.name}")
            val expectedHex = String(TestData.bytes("property-tests/vectors/jcs/testdata/outhex/${input.name.removeSuffix(".json")}.txt"))
            val actual = CanonicalJson.canonicalBytes(StrictJson.parseStrictJson(Files.readAllBytes(input)))
            assertArrayEquals(expected, actual, "canonical bytes of ${input.name}")
            assertEquals(expectedHex.trim().split(Regex("\\s+")).joinToString(""), Encoding.hexEncode(actual), "outhex of ${input.name}")
            counter.count("pair")
        }
        counter.finish()
        assertEquals(6, counter.total, "the six upstream pairs")
    }

    /** ES6 Number::toString on the first 100,000 lines of the upstream number corpus (the generator carries the gzip file as text). */
    @Test
    fun `es6 number lines`() {
        val counter = CaseCounter("jcs es6numbers")
        val failures = mutableListOf<String>()
        val file = TestData.path("property-tests/vectors/jcs/es6numbers/es6testfile_100000.txt")
        Files.newBufferedReader(file).useLines { lines ->
            for (line in lines) {
                val comma = line.indexOf(',')
                val value = Double.fromBits(java.lang.Long.parseUnsignedLong(line.substring(0, comma), 16))
                val expected = line.substring(comma + 1)
                val actual = CanonicalJson.serializeNumber(value)
                if (actual != expected && failures.size < 20) failures += "$line -> $actual"
                counter.count(
                    when {
                        'e' in expected -> "exponent"
                        '.' in expected -> "fraction"
                        else -> "integer"
                    },
                )
            }
        }
        counter.finish()
        assertEquals(100_000, counter.total, "lines in the 100k file")
        assertEquals(emptyList<String>(), failures)
    }

    /** spec/common/vectors/jcs.json: the same cases the TypeScript runtime checks. */
    @Test
    fun `shared jcs vectors`() {
        val counter = CaseCounter("spec jcs")
        for (case in TestData.cases("spec/common/vectors/jcs.json")) {
            val name = case.string("name")
            val canonical = CanonicalJson.canonicalize(StrictJson.parseStrictJson(case.string("input")))
            assertEquals(case.string("canonical"), canonical, name)
            assertEquals(case.string("sha256_hex"), Crypto.sha256Hex(canonical), name)
            counter.count("canonical+sha256")
        }
        counter.finish()
    }

    @Test
    fun `members are ordered by UTF-16 code units, not code points`() {
        // U+1F600 is D83D DE00 in UTF-16, so it sorts before U+E000 although its code point is larger.
        val value = buildJsonObject {
            put("\uE000", 1)
            put("\uD83D\uDE00", 2)
            put("a", 3)
        }
        assertEquals("{\"a\":3,\"\uD83D\uDE00\":2,\"\uE000\":1}", CanonicalJson.canonicalize(value))
    }

    @Test
    fun `strings escape only quote, backslash and C0 controls`() {
        assertEquals("\"\\u0000\\u001f\\b\\t\\n\\f\\r\\\"\\\\/\u007f\u2028é\"", CanonicalJson.serializeString("\u0000\u001f\b\t\n\u000c\r\"\\/\u007f\u2028é"))
    }

    @Test
    fun `values without a canonical form are refused with a code`() {
        fun code(block: () -> Unit) = assertThrows<CanonicalJsonException> { block() }.code
        assertEquals(CanonicalJsonErrorCode.LONE_SURROGATE, code { CanonicalJson.canonicalize(JsonPrimitive("a\uD800")) })
        assertEquals(CanonicalJsonErrorCode.LONE_SURROGATE, code { CanonicalJson.canonicalize(JsonObject(mapOf("\uDC00" to JsonPrimitive(1)))) })
        assertEquals(CanonicalJsonErrorCode.NON_FINITE_NUMBER, code { CanonicalJson.canonicalize(JsonPrimitive(Double.NaN)) })
        assertEquals(CanonicalJsonErrorCode.NON_FINITE_NUMBER, code { CanonicalJson.canonicalize(JsonPrimitive(Double.NEGATIVE_INFINITY)) })
        // 2^63 - 1 has no double: signing it would sign 9223372036854775808 instead.
        assertEquals(CanonicalJsonErrorCode.NUMBER_NOT_EXACT, code { CanonicalJson.canonicalize(JsonPrimitive(Long.MAX_VALUE)) })
        var deep: kotlinx.serialization.json.JsonElement = JsonArray(emptyList())
        repeat(CanonicalJson.MAX_DEPTH) { deep = JsonArray(listOf(deep)) }
        assertEquals(CanonicalJsonErrorCode.TOO_DEEP, code { CanonicalJson.canonicalize(deep) })
    }

    @Test
    fun `objects count toward the depth limit as arrays do`() {
        fun nested(levels: Int): kotlinx.serialization.json.JsonElement {
            var value: kotlinx.serialization.json.JsonElement = JsonPrimitive(1)
            repeat(levels) { value = JsonObject(mapOf("a" to value)) }
            return value
        }
        // MAX_DEPTH containers are allowed, one more is refused (the documented limit, as in TypeScript).
        assertEquals("{\"a\":".repeat(CanonicalJson.MAX_DEPTH) + "1" + "}".repeat(CanonicalJson.MAX_DEPTH), CanonicalJson.canonicalize(nested(CanonicalJson.MAX_DEPTH)))
        assertEquals(CanonicalJsonErrorCode.TOO_DEEP, assertThrows<CanonicalJsonException> { CanonicalJson.canonicalize(nested(CanonicalJson.MAX_DEPTH + 1)) }.code)
    }

    @Test
    fun `a lone surrogate is reported at its UTF-16 index`() {
        // Hand-counted indexes: a high surrogate without its pair, a low one alone, a pair then a lone high.
        assertEquals(2, findLoneSurrogate("ab\uD800"))
        assertEquals(3, findLoneSurrogate("abc\uDC00x"))
        assertEquals(3, findLoneSurrogate("x\uD83D\uDE00\uD83Dy"))
        assertEquals(-1, findLoneSurrogate("x\uD83D\uDE00"))
        val error = assertThrows<CanonicalJsonException> { CanonicalJson.canonicalize(JsonPrimitive("ab\uD800")) }
        assertEquals("string has a lone surrogate at index 2", error.message)
    }

    @Test
    fun `error codes carry the TypeScript runtime's wire names`() {
        // generators/targets/ts/runtime/src/canonical-json.ts CanonicalJsonErrorCode, plus Kotlin's number-not-exact.
        val expected = mapOf(
            CanonicalJsonErrorCode.NOT_JSON to "not-json", CanonicalJsonErrorCode.NON_FINITE_NUMBER to "non-finite-number",
            CanonicalJsonErrorCode.NUMBER_NOT_EXACT to "number-not-exact", CanonicalJsonErrorCode.LONE_SURROGATE to "lone-surrogate",
            CanonicalJsonErrorCode.TOO_DEEP to "too-deep",
        )
        assertEquals(expected, CanonicalJsonErrorCode.entries.associateWith { it.wireName })
        // A literal past double range is non-finite, not a silent Infinity (ES6 has no such number).
        val huge = kotlinx.serialization.json.Json.parseToJsonElement("1e400")
        assertEquals(CanonicalJsonErrorCode.NON_FINITE_NUMBER, assertThrows<CanonicalJsonException> { CanonicalJson.canonicalize(huge) }.code)
        assertEquals(CanonicalJsonErrorCode.NON_FINITE_NUMBER, assertThrows<CanonicalJsonException> { CanonicalJson.canonicalize(JsonPrimitive(Double.POSITIVE_INFINITY)) }.code)
        assertEquals("1e-7", CanonicalJson.serializeNumber(1e-7))
        assertEquals("0.00001", CanonicalJson.serializeNumber(1e-5))
    }

    @Test
    fun `numbers built in Kotlin canonicalize like parsed ones`() {
        val built = listOf(JsonPrimitive(12), JsonPrimitive(12.0), JsonPrimitive(-0.0), JsonPrimitive(1e21), JsonPrimitive(1e-7))
        assertEquals("[12,12,0,1e+21,1e-7]", CanonicalJson.canonicalize(JsonArray(built)))
        assertEquals("5e-324", CanonicalJson.serializeNumber(Double.MIN_VALUE))
        assertEquals("1.7976931348623157e+308", CanonicalJson.serializeNumber(Double.MAX_VALUE))
        assertEquals("0.000001", CanonicalJson.serializeNumber(1e-6))
        assertEquals("123456789012345680000", CanonicalJson.serializeNumber(1.2345678901234568e20))
    }

    @Test
    fun `short integer literals are written as themselves and every other literal is formatted`() {
        // Hand-written table: literal as parsed -> RFC 8785 text (ES6 Number::toString of its double).
        val written = mapOf(
            "0" to "0", "-0" to "0", "7" to "7", "-7" to "-7", "10" to "10",
            "999999999999999" to "999999999999999", "-99999999999999" to "-99999999999999",
            "1000000000000000" to "1000000000000000", "-100000000000000" to "-100000000000000",
            "1.0" to "1", "1e2" to "100", "100E-2" to "1", "9007199254740993" to null,
        )
        for ((literal, expected) in written) {
            val parsed = kotlinx.serialization.json.Json.parseToJsonElement(literal)
            if (expected == null) {
                assertEquals(CanonicalJsonErrorCode.NUMBER_NOT_EXACT, assertThrows<CanonicalJsonException> { CanonicalJson.canonicalize(parsed) }.code, literal)
            } else {
                assertEquals(expected, CanonicalJson.canonicalize(parsed), literal)
            }
        }
        for (literal in listOf("007", "-", "-01", "1a", "+1", "")) {
            assertEquals(false, CanonicalJson.isShortIntegerLiteral(literal), literal)
        }
        for (literal in listOf("0", "-1", "123456789012345", "-12345678901234")) {
            assertEquals(true, CanonicalJson.isShortIntegerLiteral(literal), literal)
        }
        assertEquals(false, CanonicalJson.isShortIntegerLiteral("1234567890123456"))
    }
}
