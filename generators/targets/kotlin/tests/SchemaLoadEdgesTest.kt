package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * The Kotlin validator's load-time contract at edges the JSON-Schema-Test-Suite never reaches
 * (survivors of the kt-schema-validator PIT run): what a refusal names (location and keyword),
 * the refusals of a non-string `$id`, a keyword value of the wrong kind and an unknown `$schema`,
 * counts at Int.MAX_VALUE, percent-encoded `$ref` fragments, a base URI without a path, and an
 * ECMAScript `\p{…}` escape followed by more pattern. Expected values are JSON Schema 2020-12's
 * (core §8.2, §9.2; validation §6) and RFC 3986's (§5.2.3, §2.1), written by hand.
 */
class SchemaLoadEdgesTest {
    private fun schema(text: String) = Json.parseToJsonElement(text).jsonObject

    private fun load(vararg documents: String) = JsonSchemaValidator(documents.map(::schema))

    private fun refusal(vararg documents: String): SchemaLoadException = assertThrows { load(*documents) }

    @Test
    fun `a refusal names the schema's URI and JSON pointer, and the keyword`() {
        val e = refusal("""{"${'$'}id":"https://x.invalid/a.json","properties":{"b":{"${'$'}id":5}}}""")
        assertEquals("https://x.invalid/a.json#/properties/b", e.location)
        assertEquals("\$id", e.keyword)
    }

    @Test
    fun `a keyword value of the wrong kind is refused at the keyword`() {
        val e = refusal("""{"${'$'}id":"https://x.invalid/a.json","minLength":-1}""")
        assertEquals("https://x.invalid/a.json#/minLength", e.location)
        assertEquals("minLength", e.keyword)
        assertEquals("required", refusal("""{"${'$'}id":"https://x.invalid/a.json","required":[1]}""").keyword)
    }

    @Test
    fun `a dollar-schema that is neither 2020-12 nor a loaded document is refused`() {
        assertEquals("\$schema", refusal("""{"${'$'}id":"https://x.invalid/a.json","${'$'}schema":"https://x.invalid/other-dialect"}""").keyword)
    }

    @Test
    fun `counts run from 0 to Int MAX_VALUE inclusive`() {
        load("""{"${'$'}id":"https://x.invalid/a.json","maxLength":0,"minItems":2147483647}""")
        assertEquals("maxLength", refusal("""{"${'$'}id":"https://x.invalid/a.json","maxLength":2147483648}""").keyword)
    }

    @Test
    fun `a dollar-ref to itself that consumes nothing is an error, not a pass`() {
        val v = load("""{"${'$'}id":"https://x.invalid/a.json","${'$'}ref":"#"}""")
        assertEquals("\$ref", v.firstError("https://x.invalid/a.json", JsonPrimitive(1))?.keyword)
    }

    @Test
    fun `a percent-encoded dollar-ref fragment is decoded`() {
        val v = load("""{"${'$'}id":"https://x.invalid/a.json","${'$'}defs":{"A":{"type":"string"}},"${'$'}ref":"#/${'$'}defs/%41"}""")
        assertNull(v.firstError("https://x.invalid/a.json", JsonPrimitive("s")))
        assertEquals("type", v.firstError("https://x.invalid/a.json", JsonPrimitive(1))?.keyword)
    }

    @Test
    fun `a fragment whose escape is cut short never crashes the load`() {
        // Loaded or refused, nothing else: reading the two hex digits past the end would throw
        // StringIndexOutOfBoundsException out of the constructor.
        val thrown = runCatching { load("""{"${'$'}id":"https://x.invalid/a.json","${'$'}defs":{"A":true},"${'$'}ref":"#/${'$'}defs/%4"}""") }.exceptionOrNull()
        assertTrue(thrown == null || thrown is SchemaLoadException, thrown.toString())
    }

    @Test
    fun `a relative dollar-ref against a base with an authority and no path gets a slash`() {
        val v = load(
            """{"${'$'}id":"https://x.invalid","${'$'}ref":"b.json"}""",
            """{"${'$'}id":"https://x.invalid/b.json","type":"string"}""",
        )
        assertEquals("type", v.firstError("https://x.invalid", JsonPrimitive(1))?.keyword)
    }

    @Test
    fun `a relative dollar-ref against a base path without a slash replaces the whole path`() {
        // RFC 3986 §5.2.3: no "/" in the base path, so the merged path is the reference's alone.
        val v = load(
            """{"${'$'}id":"urn:example:root","${'$'}ref":"other"}""",
            """{"${'$'}id":"urn:other","type":"string"}""",
        )
        assertEquals("type", v.firstError("urn:example:root", JsonPrimitive(1))?.keyword)
    }

    @Test
    fun `multipleOf is exact for a divisor written with a positive exponent`() {
        // 1e1 is 10 with scale -1: 20 and 0.5e2 are multiples, 25 and 5 are not (validation §6.2.1).
        val v = load("""{"${'$'}id":"https://x.invalid/m.json","multipleOf":1e1}""")
        val verdicts = listOf("20", "5e1", "25", "5").map { v.firstError("https://x.invalid/m.json", Json.parseToJsonElement(it)) == null }
        assertEquals(listOf(true, true, false, false), verdicts)
    }

    @Test
    fun `multipleOf answers a huge negative exponent from its digits, without computing 10 to that power`() {
        // 1e-999999999 is not a multiple of 0.5; the exact test would need 10^999999998.
        val v = load("""{"${'$'}id":"https://x.invalid/m.json","multipleOf":0.5}""")
        assertEquals("multipleOf", v.firstError("https://x.invalid/m.json", Json.parseToJsonElement("1e-999999999"))?.keyword)
    }

    @Test
    fun `a property escape is followed by the rest of the pattern`() {
        val p = EcmaRegex.compile("^\\p{Lu}ab$")
        assertTrue(p.matcher("Aab").find())
        assertFalse(p.matcher("A").find())
    }
}
