package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test

/**
 * generators/targets/runtime-keywords.json declares, once for the three runtimes, the keywords and
 * formats they enforce: every keyword listed loads here (with a value of the meta-schema's shape),
 * every other keyword of the 2020-12 vocabularies is refused at load time, and the formats are
 * exactly the ones Formats asserts.
 */
class RuntimeKeywordsTest {
    private val declared = TestData.json("generators/targets/runtime-keywords.json").jsonObject

    /** A value of each keyword's shape (hand-written from the 2020-12 meta-schema). */
    private val samples = mapOf(
        "\$anchor" to "\"a\"", "\$comment" to "\"c\"", "\$defs" to "{\"a\":true}", "\$id" to "\"https://k.example/id\"", "\$ref" to "\"#\"",
        "\$schema" to "\"https://json-schema.org/draft/2020-12/schema\"", "additionalProperties" to "false", "allOf" to "[true]",
        "anyOf" to "[true]", "const" to "1", "contains" to "true", "contentEncoding" to "\"base64\"", "contentMediaType" to "\"application/json\"",
        "contentSchema" to "true", "default" to "1", "dependentRequired" to "{\"a\":[\"b\"]}", "dependentSchemas" to "{\"a\":true}",
        "deprecated" to "true", "description" to "\"d\"", "discriminator" to "{\"propertyName\":\"k\"},\"oneOf\":[true]", "else" to "true",
        "enum" to "[1]", "examples" to "[1]", "exclusiveMaximum" to "1", "exclusiveMinimum" to "1", "format" to "\"uri\"", "if" to "true",
        "items" to "true", "maxContains" to "1", "maxItems" to "1", "maxLength" to "1", "maxProperties" to "1", "maximum" to "1",
        "minContains" to "1", "minItems" to "1", "minLength" to "1", "minProperties" to "1", "minimum" to "1", "multipleOf" to "2",
        "not" to "true", "oneOf" to "[true]", "pattern" to "\"a\"", "patternProperties" to "{\"a\":true}", "prefixItems" to "[true]",
        "properties" to "{\"a\":true}", "propertyNames" to "true", "readOnly" to "true", "required" to "[\"a\"]", "then" to "true",
        "title" to "\"t\"", "type" to "\"object\"", "unevaluatedItems" to "true", "unevaluatedProperties" to "true", "uniqueItems" to "true",
        "writeOnly" to "true",
    )

    /** The 2020-12 keywords no runtime implements. */
    private val refused = listOf("\$dynamicRef" to "\"#a\"", "\$dynamicAnchor" to "\"a\"", "\$vocabulary" to "{}", "dependencies" to "{}", "definitions" to "{}")

    private fun load(keyword: String, value: String): JsonSchemaValidator {
        val body = if (keyword == "\$id") "{\"\$id\":$value}" else "{\"\$id\":\"https://k.example/s\",\"$keyword\":$value}"
        return JsonSchemaValidator(listOf(Json.parseToJsonElement(body) as JsonObject))
    }

    @Test
    fun `every declared keyword loads and the others are refused`() {
        val keywords = declared.getValue("keywords").jsonArray.map { it.jsonPrimitive.content }
        assertEquals(keywords.sorted(), keywords, "runtime-keywords.json lists the keywords sorted")
        assertEquals(samples.keys.sorted(), keywords, "a sample value for each declared keyword")
        for (keyword in keywords) load(keyword, samples.getValue(keyword))
        for ((keyword, value) in refused) {
            val error = assertThrows(SchemaLoadException::class.java) { load(keyword, value) }
            assertEquals(keyword, error.keyword)
        }
    }

    @Test
    fun `the declared formats are the ones asserted`() {
        val formats = declared.getValue("formats").jsonArray.map { it.jsonPrimitive.content }
        assertEquals(Formats.NAMES.sorted(), formats)
    }
}
