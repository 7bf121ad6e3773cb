package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.decodeFromJsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class StrictJsonTest {
    private fun codeOf(text: String, limits: StrictJsonLimits = StrictJsonLimits()): StrictJsonErrorCode =
        assertThrows<StrictJsonException> { StrictJson.parseStrictJson(text, limits) }.code

    @Test
    fun `string input refuses raw lone surrogates that bytes cannot carry`() {
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, codeOf("\"a\uD800\""))
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, codeOf("\"\uDC00\uD800\""))
        assertEquals("\uD83D\uDE00", StrictJson.parseStrictJson("\"\uD83D\uDE00\"").jsonPrimitive.content)
    }

    @Test
    fun `limits are enforced before parsing`() {
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("[1, 2]", StrictJsonLimits(maxBytes = 5)))
        // Size counts UTF-8 bytes: "é" is two.
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("\"éé\"", StrictJsonLimits(maxBytes = 5)))
        assertEquals(StrictJsonErrorCode.TOO_DEEP, codeOf("[[[]]]", StrictJsonLimits(maxDepth = 2)))
        StrictJson.parseStrictJson("[[]]", StrictJsonLimits(maxDepth = 2))
        assertThrows<IllegalArgumentException> { StrictJsonLimits(maxDepth = StrictJson.MAX_SUPPORTED_DEPTH + 1) }
    }

    @Test
    fun `error offsets count bytes for byte input and code units for strings`() {
        val text = "{\"é\":1,\"é\":2}"
        assertEquals(7, assertThrows<StrictJsonException> { StrictJson.parseStrictJson(text) }.offset)
        assertEquals(8, assertThrows<StrictJsonException> { StrictJson.parseStrictJson(text.toByteArray()) }.offset)
    }

    @Test
    fun `numbers are normalised to their ECMAScript form`() {
        val parsed = StrictJson.parseStrictJson("[12.0, -0, 1E2, 0.1, 1e21, 1.5e-7, 9007199254740992]")
        assertEquals("[12,0,100,0.1,1e+21,1.5e-7,9007199254740992]", parsed.toString())
        // Integral values decode into Int fields of generated classes.
        assertEquals(12, Json.decodeFromJsonElement<Int>(StrictJson.parseStrictJson("12.0")))
    }

    @Test
    fun `objects keep member order and unescaped names`() {
        val parsed = StrictJson.parseStrictJson("{\"b\":1,\"a\\u0041\":2,\"__proto__\":{}}") as JsonObject
        assertEquals(listOf("b", "aA", "__proto__"), parsed.keys.toList())
    }

    /**
     * A kill table from spec/common/vectors/strict-json.json (whose cases every runtime's shared-case
     * driver answers, property-tests/drivers) and RFC 8259: the codes as the vectors spell them, the
     * literals, \u escapes and surrogate pairs, each with its value or its error code and offset.
     */
    @Test
    fun `the vectors' codes, literals and escapes, with values and offsets`() {
        assertEquals(
            listOf("too-large", "invalid-utf8", "bom", "lone-surrogate", "unexpected-end", "unexpected-character", "non-json-literal",
                "invalid-number", "number-out-of-range", "number-not-exact", "invalid-string", "duplicate-key", "too-deep", "trailing-data"),
            StrictJsonErrorCode.entries.map { it.wireName },
        )
        assertEquals("[true,false,null]", StrictJson.parseStrictJson("[true,false,null]").toString())
        assertEquals("{\"a\":false,\"b\":null}", StrictJson.parseStrictJson("{ \"a\" : false , \"b\" : null }").toString())
        assertEquals("[false,1]", StrictJson.parseStrictJson("[false,1]").toString())
        assertEquals("[null,1]", StrictJson.parseStrictJson("[null,1]").toString())
        // "escaped surrogate pair", "high surrogate then letter", "escaped lone low surrogate", "escaped reversed pair".
        assertEquals("x\uD83D\uDE02y", StrictJson.parseStrictJson("\"x\\ud83d\\ude02y\"").jsonPrimitive.content)
        assertEquals("\u00e9\u0041", StrictJson.parseStrictJson("\"\\u00e9\\u0041\"").jsonPrimitive.content)
        for ((text, offset) in listOf("\"\\ud800A\"" to 1, "\"ab\\udc00\"" to 3, "\"\\ude02\\ud83d\"" to 1, "\"\\ud800\\u0041\"" to 1, "\"\\ud800\"" to 1)) {
            val error = assertThrows<StrictJsonException> { StrictJson.parseStrictJson(text) }
            assertEquals(StrictJsonErrorCode.LONE_SURROGATE to offset, error.code to error.offset, text)
        }
        // A key after whitespace, a duplicate after an escape: "duplicate key through escape".
        assertEquals(StrictJsonErrorCode.DUPLICATE_KEY to 8, assertThrows<StrictJsonException> { StrictJson.parseStrictJson("{\"a\":1, \"\\u0061\":2}") }.let { it.code to it.offset })
        assertEquals("{\"a\":[1,2]}", StrictJson.parseStrictJson(" \t\r\n{ \"a\" : [ 1 , 2 ] }\n").toString())
        assertSame(JsonNull, StrictJson.parseStrictJson("null"))
        assertSame(JsonNull, StrictJson.parseStrictJson("[null]").jsonArray[0])
        // Every simple escape, and a space, which is no control character.
        assertEquals("a\nb\"c\\d/e\bf\u000Cg\rh\ti j", StrictJson.parseStrictJson("\"a\\nb\\\"c\\\\d\\/e\\bf\\fg\\rh\\ti j\"").jsonPrimitive.content)
        // The vectors' refusals at the end of the input or of a token: "bare minus", "exponent without
        // digits", "unterminated string", "unquoted key", an object cut after a comma, "inexact integer 2^53+1".
        val refused = listOf("-" to "invalid-number", "1e" to "invalid-number", "1e+" to "invalid-number", "\"abc" to "unexpected-end", "{a:1}" to "unexpected-character",
            "{\"a\":1," to "unexpected-end", "9007199254740993" to "number-not-exact", "\"a\u0001b\"" to "invalid-string")
        assertEquals(refused, refused.map { (text, _) -> text to codeOf(text).wireName })
        assertEquals("1.5", StrictJson.parseStrictJson("1.5").toString())
        // Nesting counts objects as arrays: 64 open objects parse, 65 exceed the default depth.
        assertEquals(1, StrictJson.parseStrictJson("{\"a\":".repeat(64) + "1" + "}".repeat(64)).toString().count { it == '1' })
        assertEquals(StrictJsonErrorCode.TOO_DEEP, codeOf("{\"a\":".repeat(65) + "1" + "}".repeat(65)))
    }
}
