package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertDoesNotThrow
import org.junit.jupiter.api.assertThrows

/**
 * The Kotlin validator (JsonSchemaValidator, KeywordValues, SchemaUri) where the issue-32 PIT run
 * left survivors the JSON-Schema-Test-Suite does not reach: RFC 3986's own resolution examples,
 * refusals of keyword values no suite schema gets wrong, a `$ref` to a location no keyword makes a
 * schema, the tie between two refusals, and ajv's texts for minContains and uniqueItems.
 *
 * Expected values: RFC 3986 §5.4 (written out there), JSON Schema 2020-12 (core §8.2.3.1, §9.2;
 * validation §6.1.1, §6.4.3, §6.4.5, §6.5.4) and, for error texts and pairs, ajv 8 (Ajv2020, no
 * item type) run on the same schema and instance.
 */
class SchemaValidatorEdgesTest {
    private val id = "https://x.invalid/e.json"

    private fun schema(body: String) = Json.parseToJsonElement("""{"${'$'}id":"$id",$body}""").jsonObject

    private fun load(body: String) = JsonSchemaValidator(listOf(schema(body)))

    private fun refusal(body: String): SchemaLoadException = assertThrows { load(body) }

    private fun json(text: String): JsonElement = Json.parseToJsonElement(text)

    @Test
    fun `references resolve as RFC 3986 section 5_4 resolves them`() {
        val base = "http://a/b/c/d;p?q"
        val table = listOf(
            // §5.4.1 normal examples
            "g:h" to "g:h", "g" to "http://a/b/c/g", "./g" to "http://a/b/c/g", "g/" to "http://a/b/c/g/",
            "/g" to "http://a/g", "//g" to "http://g", "?y" to "http://a/b/c/d;p?y", "g?y" to "http://a/b/c/g?y",
            "#s" to "http://a/b/c/d;p?q#s", "g#s" to "http://a/b/c/g#s", "g?y#s" to "http://a/b/c/g?y#s",
            ";x" to "http://a/b/c/;x", "g;x" to "http://a/b/c/g;x", "g;x?y#s" to "http://a/b/c/g;x?y#s",
            "" to "http://a/b/c/d;p?q", "." to "http://a/b/c/", "./" to "http://a/b/c/", ".." to "http://a/b/",
            "../" to "http://a/b/", "../g" to "http://a/b/g", "../.." to "http://a/", "../../" to "http://a/",
            "../../g" to "http://a/g",
            // §5.4.2 abnormal examples
            "../../../g" to "http://a/g", "../../../../g" to "http://a/g", "/./g" to "http://a/g", "/../g" to "http://a/g",
            "g." to "http://a/b/c/g.", ".g" to "http://a/b/c/.g", "g.." to "http://a/b/c/g..", "..g" to "http://a/b/c/..g",
            "./../g" to "http://a/b/g", "./g/." to "http://a/b/c/g/", "g/./h" to "http://a/b/c/g/h", "g/../h" to "http://a/b/c/h",
            "g;x=1/./y" to "http://a/b/c/g;x=1/y", "g;x=1/../y" to "http://a/b/c/y", "g?y/./x" to "http://a/b/c/g?y/./x",
            "g?y/../x" to "http://a/b/c/g?y/../x", "g#s/./x" to "http://a/b/c/g#s/./x", "g#s/../x" to "http://a/b/c/g#s/../x",
            "http:g" to "http:g",
        )
        for ((reference, expected) in table) assertEquals(expected, SchemaUri.resolve(base, reference), "\"$reference\" against $base")
    }

    @Test
    fun `an anchor is found in a document loaded under an empty retrieval URI`() {
        // core §9.2.1: "#foo" names the $anchor foo of the document itself, whatever its URI.
        val document = json("""{"${'$'}ref":"#foo","${'$'}defs":{"a":{"${'$'}anchor":"foo","type":"string"}}}""")
        val v = JsonSchemaValidator(mapOf("" to document))
        assertNull(v.firstError("", JsonPrimitive("s")))
        assertEquals("type", v.firstError("", JsonPrimitive(1))?.keyword)
    }

    @Test
    fun `keyword values of the wrong kind that no suite schema has are refused`() {
        // validation §6.5.4: dependentRequired maps names to arrays of strings; §6.1.1: type names JSON types.
        assertEquals("dependentRequired", refusal(""""dependentRequired":{"a":["b",1]}""").keyword)
        assertEquals("dependentRequired", refusal(""""dependentRequired":{"a":["b"],"c":[2]}""").keyword)
        assertEquals("type", refusal(""""type":["string",5]""").keyword)
        assertEquals("type", refusal(""""type":["string","text"]""").keyword)
        assertEquals("required", refusal(""""required":["a",1]""").keyword)
        assertDoesNotThrow { load(""""dependentRequired":{"a":["b","c"],"d":[]},"type":["string","null"],"required":["a","b"]""") }
        assertDoesNotThrow { load(""""dependentRequired":{},"required":[]""") }
    }

    @Test
    fun `a discriminator without oneOf, an unknown format and a bad property pattern are refused at load`() {
        assertEquals("discriminator", refusal(""""discriminator":{"propertyName":"t"}""").keyword)
        assertEquals("format", refusal(""""format":"no-such-format"""").keyword)
        assertEquals("pattern", refusal(""""patternProperties":{"(":{}}""").keyword)
        assertEquals("pattern", refusal(""""pattern":"["""").keyword)
        assertDoesNotThrow { load(""""discriminator":{"propertyName":"t"},"oneOf":[{"properties":{"t":{"const":"a"}}}]""") }
    }

    @Test
    fun `a dollar-ref to a location no keyword makes a schema is read as a schema`() {
        // core §8.2.3.1: the target of a $ref is a schema wherever it is; here under "default", an annotation.
        val v = load(""""${'$'}ref":"#/default","default":{"pattern":"^a"}""")
        assertNull(v.firstError(id, JsonPrimitive("ab")))
        assertEquals("pattern", v.firstError(id, JsonPrimitive("b"))?.keyword)
        assertEquals("minLength", refusal(""""${'$'}ref":"#/default","default":{"minLength":-1}""").keyword)
    }

    @Test
    fun `of two refusals of the same rank the first in document order is thrown`() {
        assertEquals("minLength", refusal(""""minLength":-1,"maxLength":-1""").keyword)
        assertEquals("maxLength", refusal(""""maxLength":-1,"minLength":-1""").keyword)
    }

    @Test
    fun `minContains and uniqueItems in ajv's words`() {
        // ajv: {"contains":{"type":"string"},"minContains":2} on ["a",1].
        val contains = load(""""contains":{"type":"string"},"minContains":2""")
        assertEquals(
            ValidationError("", "contains", "(root) must contain at least 2 valid item(s)", mapOf("minContains" to "2")),
            contains.firstError(id, json("""["a",1]""")),
        )
        assertNull(contains.firstError(id, json("""["a",1,"b"]""")))
        // ajv: {"uniqueItems":true}; the pair names the duplicate at either end of the array.
        val unique = load(""""uniqueItems":true""")
        for ((items, pair) in listOf("[1,2,3,1]" to (0 to 3), "[1,1]" to (0 to 1), "[1,2,2]" to (1 to 2), "[2,1,2,3]" to (0 to 2), "[1,2,1,2]" to (1 to 3))) {
            val (earlier, later) = pair
            assertEquals(
                ValidationError("", "uniqueItems", "(root) must NOT have duplicate items (items ## $earlier and $later are identical)", mapOf("i" to "$later", "j" to "$earlier")),
                unique.firstError(id, json(items)),
                items,
            )
        }
        assertNull(unique.firstError(id, json("[1,2,3]")))
    }

    @Test
    fun `a dollar-ref chain and a recursive dollar-ref at deeper paths are no loops`() {
        val chain = load(""""${'$'}ref":"#/${'$'}defs/a","${'$'}defs":{"a":{"${'$'}ref":"#/${'$'}defs/b"},"b":{"type":"string"}}""")
        assertNull(chain.firstError(id, JsonPrimitive("s")))
        assertEquals("type", chain.firstError(id, JsonPrimitive(1))?.keyword)
        val tree = load(""""type":"object","properties":{"a":{"${'$'}ref":"#"}},"additionalProperties":false""")
        assertNull(tree.firstError(id, json("""{"a":{"a":{"a":{}}}}""")))
        assertEquals("additionalProperties", tree.firstError(id, json("""{"a":{"a":{"b":1}}}"""))?.keyword)
    }
}
