package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The pieces of the validator where Java and ECMAScript (or WHATWG) semantics differ. */
class ValidatorRuntimeTest {
    private fun finds(pattern: String, text: String) = EcmaRegex.compile(pattern).matcher(text).find()

    @Test
    fun `patterns keep their ECMAScript meaning on java util regex`() {
        assertFalse(finds("^[a-z]+$", "abc\n"), "\$ is the end of input, not before a final line break")
        assertTrue(finds("^[a-z]+$", "abc"))
        assertTrue(finds("\\s", "\u00a0"), "\\s includes NBSP")
        assertTrue(finds("\\s", "\ufeff"), "\\s includes BOM")
        assertFalse(finds("\\s", "\u0085"), "\\s excludes NEL")
        assertFalse(finds("^[^/\\s:@]+$", "a b"))
        assertTrue(finds("\\bsk-", "x sk-"))
        assertFalse(finds("\\bsk-", "ésk-".substring(1).let { "a$it" }), "\\b is an ASCII word boundary")
        assertFalse(finds("^a.b$", "a\u2028b"))
        assertTrue(finds("^a.b$", "a\u0085b"), ". matches NEL in ECMAScript")
        assertTrue(finds("^[A-Za-z_$.]+$", "a\$b"), "\$ inside a class is literal")
        assertTrue(finds("^[[]$", "["), "[ inside a class is literal")
    }

    @Test
    fun `WHATWG origins of the URLs a urlOriginIn rule sees`() {
        assertEquals("https://api.example.com", WhatwgOrigin.of("https://API.Example.com:443/v1?q=1#f"))
        assertEquals("https://api.example.com:8443", WhatwgOrigin.of("https://user:pw@api.example.com:8443/"))
        assertEquals("http://localhost", WhatwgOrigin.of("HTTP://localhost:80"))
        assertEquals("https://[::1]:8080", WhatwgOrigin.of("https://[::1]:8080/x"))
        assertNull(WhatwgOrigin.of("mailto:a@example.com"), "opaque origin")
        assertNull(WhatwgOrigin.of("https://"), "no host")
        assertNull(WhatwgOrigin.of("https://a b.com/"), "forbidden host code point")
        assertNull(WhatwgOrigin.of("https://example.com:99999/"), "port out of range")
    }

    @Test
    fun `SemVer precedence`() {
        assertEquals(-1, Semver.compare("1.0.0-alpha", "1.0.0"))
        assertEquals(-1, Semver.compare("1.0.0-alpha.1", "1.0.0-alpha.beta"))
        assertEquals(1, Semver.compare("10.0.0", "9.99.99"))
        assertEquals(0, Semver.compare("1.0.0+build.1", "1.0.0+build.2"))
        assertNull(Semver.compare("1.0", "1.0.0"))
        assertNull(Semver.compare("1.0.0-01", "1.0.0-1"), "numeric identifiers have no leading zero")
    }

    @Test
    fun `a keyword the interpreter does not implement is refused at load time`() {
        val schema = StrictJson.parseStrictJson("""{"${'$'}id":"urn:x","type":"object","properties":{"a":{"${'$'}dynamicRef":"#meta"}}}""").jsonObject
        val error = assertThrows(SchemaLoadException::class.java) { JsonSchemaValidator(listOf(schema)) }
        assertEquals("urn:x#/properties/a: keyword ${'$'}dynamicRef is not supported by the Kotlin validator", error.message)
    }

    @Test
    fun `numbers compare by value and objects regardless of member order`() {
        assertTrue(jsonEquals(JsonPrimitive(1), JsonPrimitive(1.0)))
        assertFalse(jsonEquals(JsonPrimitive(1), JsonPrimitive("1")))
        assertTrue(jsonEquals(StrictJson.parseStrictJson("""{"a":1,"b":[true,null]}"""), StrictJson.parseStrictJson("""{"b":[true,null],"a":1}""")))
        assertFalse(jsonEquals(StrictJson.parseStrictJson("""{"a":1}"""), JsonObject(emptyMap())))
    }
}
