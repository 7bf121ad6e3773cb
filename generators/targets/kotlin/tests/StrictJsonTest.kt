package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.decodeFromJsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class StrictJsonTest {
    private fun codeOf(text: String, limits: StrictJsonLimits = StrictJsonLimits()): StrictJsonErrorCode =
        assertThrows<StrictJsonException> { StrictJson.parse(text, limits) }.code

    @Test
    fun `string input refuses raw lone surrogates that bytes cannot carry`() {
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, codeOf("\"a\uD800\""))
        assertEquals(StrictJsonErrorCode.LONE_SURROGATE, codeOf("\"\uDC00\uD800\""))
        assertEquals("\uD83D\uDE00", StrictJson.parse("\"\uD83D\uDE00\"").jsonPrimitive.content)
    }

    @Test
    fun `limits are enforced before parsing`() {
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("[1, 2]", StrictJsonLimits(maxBytes = 5)))
        // Size counts UTF-8 bytes: "é" is two.
        assertEquals(StrictJsonErrorCode.TOO_LARGE, codeOf("\"éé\"", StrictJsonLimits(maxBytes = 5)))
        assertEquals(StrictJsonErrorCode.TOO_DEEP, codeOf("[[[]]]", StrictJsonLimits(maxDepth = 2)))
        StrictJson.parse("[[]]", StrictJsonLimits(maxDepth = 2))
        assertThrows<IllegalArgumentException> { StrictJsonLimits(maxDepth = StrictJson.MAX_SUPPORTED_DEPTH + 1) }
    }

    @Test
    fun `error offsets count bytes for byte input and code units for strings`() {
        val text = "{\"é\":1,\"é\":2}"
        assertEquals(7, assertThrows<StrictJsonException> { StrictJson.parse(text) }.offset)
        assertEquals(8, assertThrows<StrictJsonException> { StrictJson.parse(text.toByteArray()) }.offset)
    }

    @Test
    fun `numbers are normalised to their ECMAScript form`() {
        val parsed = StrictJson.parse("[12.0, -0, 1E2, 0.1, 1e21, 1.5e-7, 9007199254740992]")
        assertEquals("[12,0,100,0.1,1e+21,1.5e-7,9007199254740992]", parsed.toString())
        // Integral values decode into Int fields of generated classes.
        assertEquals(12, Json.decodeFromJsonElement<Int>(StrictJson.parse("12.0")))
    }

    @Test
    fun `objects keep member order and unescaped names`() {
        val parsed = StrictJson.parse("{\"b\":1,\"a\\u0041\":2,\"__proto__\":{}}") as JsonObject
        assertEquals(listOf("b", "aA", "__proto__"), parsed.keys.toList())
    }
}
