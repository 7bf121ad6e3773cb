package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * StrictJson at the edges the shared vectors do not reach: RFC 8259 § 2 whitespace around every
 * structural character, § 6 digits and § 7 hex digits at the ends of their ranges, limits at exactly
 * their size, and error offsets after characters of every UTF-8 length (RFC 3629 § 3: U+007F is 1
 * byte, U+0080..U+07FF 2, U+0800..U+FFFF 3, a surrogate pair 4), all counted by hand.
 */
class StrictJsonMutationKillsTest {
    private fun codeOf(text: String, limits: StrictJsonLimits = StrictJsonLimits()): StrictJsonErrorCode =
        assertThrows<StrictJsonException> { StrictJson.parseStrictJson(text, limits) }.code

    @Test
    fun `whitespace is allowed around every structural character`() {
        assertEquals(JsonArray(emptyList()), StrictJson.parseStrictJson("[]"))
        assertEquals(JsonArray(emptyList()), StrictJson.parseStrictJson("[ ]"))
        assertEquals(JsonObject(emptyMap()), StrictJson.parseStrictJson("{\t}"))
        val two = JsonArray(listOf(JsonPrimitive(1), JsonPrimitive(2)))
        assertEquals(two, StrictJson.parseStrictJson("[\n1\t,\r2 ]"))
        assertEquals(two, StrictJson.parseStrictJson(" [1 ,2] "))
        assertEquals(JsonObject(mapOf("a" to JsonPrimitive(1), "b" to JsonPrimitive(true))), StrictJson.parseStrictJson("{ \"a\" : 1 , \"b\":true }"))
    }

    @Test
    fun `digits 0 and 9 start numbers, and a leading zero is malformed`() {
        for ((text, value) in listOf("0" to "0", "9" to "9", "12" to "12", "-5" to "-5", "1.5" to "1.5", "1e5" to "100000", "[9]" to "[9]", "[0]" to "[0]")) {
            assertEquals(value, StrictJson.parseStrictJson(text).toString(), text)
        }
        assertEquals(StrictJsonErrorCode.INVALID_NUMBER, codeOf("00"))
        assertEquals(StrictJsonErrorCode.INVALID_NUMBER, codeOf("09"))
        assertEquals(StrictJsonErrorCode.INVALID_NUMBER, codeOf("[-09]"))
        assertEquals(StrictJsonErrorCode.NUMBER_OUT_OF_RANGE, codeOf("1e400"))
        assertEquals(StrictJsonErrorCode.NUMBER_OUT_OF_RANGE, codeOf("[-1e400]"))
    }

    @Test
    fun `hex digits are 0-9, a-f and A-F, nothing next to them`() {
        assertEquals("\u09AF\u00FA", StrictJson.parseStrictJson("\"\\u09aF\\u00fA\"").jsonPrimitive.content)
        assertEquals("\u0000", StrictJson.parseStrictJson("\"\\u0000\"").jsonPrimitive.content)
        // '/' ':' '`' 'g' '@' 'G' are the characters just outside each range.
        for (bad in listOf("/", ":", "`", "g", "@", "G")) assertEquals(StrictJsonErrorCode.INVALID_STRING, codeOf("\"\\u00${bad}0\""), bad)
        assertEquals(StrictJsonErrorCode.UNEXPECTED_END, codeOf("\"a\\"))
        assertEquals(2, assertThrows<StrictJsonException> { StrictJson.parseStrictJson("\"a\\") }.offset)
    }

    @Test
    fun `a member name without its colon`() {
        assertEquals(StrictJsonErrorCode.UNEXPECTED_END, codeOf("{\"a\""))
        assertEquals(StrictJsonErrorCode.UNEXPECTED_END, codeOf("{\"a\" "))
        assertEquals(StrictJsonErrorCode.UNEXPECTED_CHARACTER, codeOf("{\"a\" 1}"))
    }

    @Test
    fun `limits hold at exactly their size`() {
        StrictJsonLimits(maxBytes = 0)
        StrictJsonLimits(maxDepth = 0)
        StrictJsonLimits(maxDepth = StrictJson.MAX_SUPPORTED_DEPTH)
        assertThrows<IllegalArgumentException> { StrictJsonLimits(maxBytes = -1) }
        assertThrows<IllegalArgumentException> { StrictJsonLimits(maxDepth = -1) }
        assertEquals(StrictJsonErrorCode.UNEXPECTED_END, assertThrows<StrictJsonException> { StrictJson.parseStrictJson(ByteArray(0), StrictJsonLimits(maxBytes = 0)) }.code)
        assertEquals("1", StrictJson.parseStrictJson("1", StrictJsonLimits(maxDepth = 0)).toString())
        assertEquals(StrictJsonErrorCode.TOO_DEEP, codeOf("[]", StrictJsonLimits(maxDepth = 0)))
        val three = StrictJsonLimits(maxBytes = 3)
        assertEquals("[1]", StrictJson.parseStrictJson("[1]".toByteArray(), three).toString())
        assertEquals("[1]", StrictJson.parseStrictJson("[1]", three).toString())
        assertEquals(StrictJsonErrorCode.TOO_LARGE, assertThrows<StrictJsonException> { StrictJson.parseStrictJson("[10]".toByteArray(), three) }.code)
        // "é" is 2 bytes, so "\"é\"" is 4 bytes in 3 UTF-16 units; U+1F600 is 4 bytes in 2 units.
        assertEquals("é", StrictJson.parseStrictJson("\"é\"", StrictJsonLimits(maxBytes = 4)).jsonPrimitive.content)
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("\"é\"", three))
        assertEquals("\uD83D\uDE00", StrictJson.parseStrictJson("\"\uD83D\uDE00\"", StrictJsonLimits(maxBytes = 6)).jsonPrimitive.content)
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("\"\uD83D\uDE00\"", StrictJsonLimits(maxBytes = 5)))
        val tooLarge = assertThrows<StrictJsonException> { StrictJson.parseStrictJson("[10]", three) }
        assertTrue(tooLarge.reason.contains("larger than 3 bytes"), tooLarge.reason)
        assertEquals("${tooLarge.reason} (at offset 0)", tooLarge.message)
    }

    @Test
    fun `a raw lone surrogate is found at index 0 and at the very end`() {
        val first = assertThrows<StrictJsonException> { StrictJson.parseStrictJson("\uDC00") }
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, first.code)
        assertEquals(0, first.offset)
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, codeOf("\"\uD800"))
    }

    @Test
    fun `byte offsets count each character's UTF-8 length`() {
        // `["X" x]`: the 'x' is at byte 4 + the UTF-8 length of X.
        for ((x, bytes) in listOf("\u007F" to 1, "\u0080" to 2, "é" to 2, "\u07FF" to 2, "\u0800" to 3, "\uFFFF" to 3, "\uD83D\uDE00" to 4)) {
            val error = assertThrows<StrictJsonException> { StrictJson.parseStrictJson("[\"$x\" x]".toByteArray(Charsets.UTF_8)) }
            assertEquals(StrictJsonErrorCode.UNEXPECTED_CHARACTER, error.code, x)
            assertEquals(4 + bytes, error.offset, "offset after U+%04X".format(x.codePointAt(0)))
        }
    }
}
