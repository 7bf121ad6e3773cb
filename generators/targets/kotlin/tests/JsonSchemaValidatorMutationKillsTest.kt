package dev.agentcontracts.runtime

import kotlinx.serialization.builtins.serializer
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * JsonSchemaValidator against ajv (the implementation the TypeScript validators compile with):
 * property-tests/vectors/json-schema-kills/ajv-verdicts.json holds ajv's first error for
 * hand-written schemas at the interpreter's edges (record-ajv-verdicts.mjs wrote it). The Kotlin
 * validator must give the same instance path and keyword, ajv's message after the path (or
 * "(root)") where it claims ajv's text, and ajv's value for every parameter it reports. The
 * second half states the Kotlin validator's own contract, where ajv has no verdict: keywords it
 * does not implement are refused at load time, at any depth.
 */
class JsonSchemaValidatorMutationKillsTest {
    /** Keywords whose message is ajv's text (the pattern message omits the pattern; dependentRequired names one property). */
    private val ajvText = setOf(
        "type", "false schema", "const", "enum", "not", "oneOf", "anyOf", "contains", "uniqueItems", "required", "additionalProperties",
        "maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "format", "discriminator",
    )

    /** Parameters the Kotlin errors carry, each with ajv's name and value (minimum/maximum carry none). */
    private val paramNames = listOf("type", "limit", "missingProperty", "additionalProperty", "property", "i", "j", "pattern", "error", "tag")

    private fun where(path: String) = path.ifEmpty { "(root)" }

    private fun describe(path: String, keyword: String, message: String, params: Map<String, String>, ajvParams: Set<String>): String {
        val text = if (keyword in ajvText) " | $message" else ""
        val kept = paramNames.filter { it in ajvParams && !(it == "limit" && keyword in setOf("minimum", "maximum")) }
        return "$path $keyword$text | " + kept.joinToString { "$it=${params[it]}" }
    }

    @Test
    fun `ajv's first error for every recorded instance`() {
        val counter = CaseCounter("json-schema kills (ajv verdicts)")
        val mismatches = ArrayList<String>()
        for (case in TestData.cases("property-tests/vectors/json-schema-kills/ajv-verdicts.json")) {
            val schema = case.getValue("schema").jsonObject
            val validator = JsonSchemaValidator(listOf(schema) + case.getValue("documents").jsonArray.map { it.jsonObject })
            for (instance in case.getValue("instances").jsonArray.map { it.jsonObject }) {
                val data = instance.getValue("data")
                val actual = validator.firstError(schema.string("\$id"), data)
                val valid = instance.getValue("valid").jsonPrimitive.content == "true"
                counter.count(if (valid) "valid" else "invalid")
                if (valid) {
                    if (actual != null) mismatches += "${case.string("name")} $data: ajv valid, Kotlin ${actual.instancePath} ${actual.keyword}"
                    continue
                }
                val ajvParams = instance.getValue("params").jsonObject.mapValues { it.value.jsonPrimitive.content }
                val keyword = instance.string("keyword")
                // A failed discriminator mapping is reported at the tag, as TypeScript's fromAjvError does.
                val path = instance.string("instancePath") +
                    if (keyword == "discriminator" && ajvParams["error"] == "mapping") "/${escapeToken(ajvParams.getValue("tag"))}" else ""
                val expected = describe(path, keyword, "${where(path)} ${instance.string("message")}", ajvParams, ajvParams.keys)
                val got = actual?.let { describe(it.instancePath, it.keyword, it.message, it.params, ajvParams.keys) } ?: "valid"
                if (got != expected) mismatches += "${case.string("name")} $data:\n  ajv    $expected\n  Kotlin $got"
            }
        }
        counter.finish()
        assertEquals(218, counter.total, "every recorded instance is checked")
        assertEquals("", mismatches.joinToString("\n"), "${mismatches.size} mismatches")
    }

    private fun schema(json: String): JsonObject = Json.parseToJsonElement(json).jsonObject

    private fun load(vararg documents: String) = JsonSchemaValidator(documents.map(::schema))

    @Test
    fun `a keyword it does not implement is refused at every depth`() {
        val nests = listOf(
            "{\"not\":%s}", "{\"if\":%s}", "{\"then\":%s}", "{\"else\":%s}", "{\"items\":%s}", "{\"contains\":%s}", "{\"propertyNames\":%s}",
            "{\"additionalProperties\":%s}", "{\"properties\":{\"a\":%s}}", "{\"\$defs\":{\"a\":%s}}", "{\"allOf\":[true,%s]}", "{\"anyOf\":[%s]}", "{\"oneOf\":[%s]}",
            "{\"not\":{\"items\":%s}}", "{\"prefixItems\":[%s]}", "{\"patternProperties\":{\"a\":%s}}", "{\"dependentSchemas\":{\"a\":%s}}",
            "{\"unevaluatedProperties\":%s}", "{\"unevaluatedItems\":%s}", "{\"contentSchema\":%s}",
        )
        for (nest in nests) {
            val body = nest.format("{\"\$dynamicAnchor\":\"m\"}")
            val error = assertThrows(SchemaLoadException::class.java, { load("{\"\$id\":\"https://k.example/a\",${body.substring(1)}") }, body)
            assertTrue(error.message!!.contains("keyword \$dynamicAnchor is not supported"), "$body: ${error.message}")
            assertEquals("\$dynamicAnchor", error.keyword, body)
            // The same nesting with a supported keyword loads.
            load("{\"\$id\":\"https://k.example/a\",${nest.format("{\"minLength\":1}").substring(1)}")
        }
    }

    @Test
    fun `a schema is an object or a JSON boolean, never a string or number`() {
        for (bad in listOf("\"true\"", "\"false\"", "1", "null", "[]")) {
            val error = assertThrows(IllegalArgumentException::class.java, { load("{\"\$id\":\"https://k.example/a\",\"properties\":{\"a\":$bad}}") }, bad)
            assertEquals("https://k.example/a#/properties/a: a schema must be an object or a boolean", error.message, bad)
        }
        val booleans = load("{\"\$id\":\"https://k.example/b\",\"properties\":{\"t\":true,\"f\":false}}")
        assertNull(booleans.firstError("https://k.example/b", schema("{\"t\":1}")))
        assertEquals("/f", booleans.firstError("https://k.example/b", schema("{\"f\":1}"))?.instancePath)
    }

    @Test
    fun `formats - the two the spec uses load, any other is refused`() {
        load("{\"\$id\":\"https://k.example/a\",\"properties\":{\"u\":{\"format\":\"uri\"},\"h\":{\"format\":\"hostname\"}}}")
        for (format in listOf("email", "date-time", "uri-reference", "URI")) {
            val error = assertThrows(IllegalArgumentException::class.java) { load("{\"\$id\":\"https://k.example/a\",\"format\":\"$format\"}") }
            assertEquals("https://k.example/a#: format $format is not supported", error.message)
        }
    }

    @Test
    fun `a pattern ending in a lone backslash is refused when loaded (ECMAScript refuses it too)`() {
        for (pattern in listOf("a\\\\", "\\\\", "[a\\\\")) {
            val error = assertThrows(IllegalArgumentException::class.java) { load("{\"\$id\":\"https://k.example/a\",\"items\":{\"pattern\":\"$pattern\"}}") }
            assertTrue(error.message!!.endsWith("pattern does not compile: pattern ends with a lone backslash: ${pattern.replace("\\\\", "\\")}"), error.message)
        }
        assertTrue(EcmaRegex.compile("a\\\\").matcher("a\\").find(), "an escaped backslash is not lone")
    }

    @Test
    fun `a reference to nothing is refused when loaded, with the schema's location`() {
        val refs = listOf(
            "missing.json" to "names no loaded schema", "#/\$defs/none" to "points at nothing", "#/\$defs/x/minLength/deeper" to "points at nothing",
            "#/\$defs/x/minLength" to "points at nothing", "#nowhere" to "points at nothing", "https://json-schema.org/draft/2020-12/schema" to "meta-schema",
        )
        for ((ref, reason) in refs) {
            val error = assertThrows(SchemaLoadException::class.java) {
                load("{\"\$id\":\"https://k.example/a\",\"properties\":{\"m\":{\"\$ref\":\"$ref\"}},\"\$defs\":{\"x\":{\"minLength\":1}}}")
            }
            assertTrue(error.message!!.startsWith("https://k.example/a#/properties/m: \$ref $ref ") && error.message!!.contains(reason), error.message)
        }
        val v = load("{\"\$id\":\"https://k.example/a\"}")
        assertThrows(IllegalArgumentException::class.java) { v.firstError("https://k.example/other", schema("{}")) }
    }

    /**
     * Discriminator branches whose tag property ajv would not compile (a `$ref` to the const, or
     * a boolean schema): the verdict follows oneOf's meaning, exactly one branch holds, and the
     * interpreter never throws on them.
     */
    @Test
    fun `discriminator tags behind a reference or a boolean schema`() {
        val v = load(
            """{"${'$'}id":"https://k.example/d","type":"object","discriminator":{"propertyName":"kind"},"oneOf":[
              {"type":"object","properties":{"kind":true,"x":{"type":"string"}},"required":["kind","x"]},
              {"type":"object","properties":{"kind":{"${'$'}ref":"#/${'$'}defs/B"},"y":{"type":"integer"}},"required":["kind"]}],
              "${'$'}defs":{"B":{"${'$'}ref":"#/${'$'}defs/B2"},"B2":{"const":"b"}}}""",
        )
        assertNull(v.firstError("https://k.example/d", schema("{\"kind\":\"b\"}")))
        assertEquals("/y type", v.firstError("https://k.example/d", schema("{\"kind\":\"b\",\"y\":\"1\"}"))?.let { "${it.instancePath} ${it.keyword}" })
        val unknown = v.firstError("https://k.example/d", schema("{\"kind\":\"z\",\"x\":\"s\"}"))
        assertEquals("/kind discriminator mapping", unknown?.let { "${it.instancePath} ${it.keyword} ${it.params["error"]}" })
    }

    @Test
    fun `integers by value - a whole number written with a fraction or exponent is an integer`() {
        val v = load("{\"\$id\":\"https://k.example/i\",\"type\":\"integer\"}")
        val verdicts = listOf("2.0" to true, "-0.0" to true, "1e2" to true, "1.5e1" to true, "1.25e1" to false, "0.5" to false, "-7" to true, "1E-1" to false)
        for ((text, integer) in verdicts) {
            val error = v.firstError("https://k.example/i", Json.parseToJsonElement(text))
            assertEquals(integer, error == null, text)
        }
    }

    /** Validation.kt's contract: the schema's first error, else the compiled rules when given, else the interpreted ones. */
    @Test
    fun `MessageValidator runs a message's generated schema check instead of the interpreter, and needs documents for the others`() {
        val generated = ValidationError("/g", "type", "/g from the generated check")
        val v = MessageValidator(
            null,
            mapOf(
                "Refused" to MessageSchema("https://k.example/none", emptyList(), compiledSchema = { generated }),
                "Passes" to MessageSchema("https://k.example/none", emptyList(), compiledSchema = { null }),
            ),
        )
        assertEquals(listOf(generated), v.errors("Refused", schema("{}")))
        assertEquals(emptyList<ValidationError>(), v.errors("Passes", schema("{}")))
        val missing = assertThrows(IllegalArgumentException::class.java) {
            MessageValidator(null, mapOf("Plain" to MessageSchema("https://k.example/m", emptyList()), "Passes" to v.messages.getValue("Passes")))
        }
        assertEquals("no schema documents loaded for Plain, which have no generated schema check", missing.message)
        // With documents loaded, a message's generated check still decides (the interpreter would refuse an array).
        val schemas = load("{\"\$id\":\"https://k.example/m\",\"type\":\"object\"}")
        val both = MessageValidator(schemas, mapOf("G" to MessageSchema("https://k.example/m", emptyList(), compiledSchema = { null }), "I" to MessageSchema("https://k.example/m", emptyList())))
        assertEquals(emptyList<ValidationError>(), both.errors("G", Json.parseToJsonElement("[]")))
        assertEquals(listOf(ValidationError("", "type", "(root) must be object", mapOf("type" to "object"))), both.errors("I", Json.parseToJsonElement("[]")))
    }

    @Test
    fun `MessageValidator runs the schema first, then the compiled rules or else the interpreted ones`() {
        val schemas = load("{\"\$id\":\"https://k.example/m\",\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}")
        val rule = CrossFieldRule.Equal("same", "must equal /b", "/a", "/b")
        val compiled = ValidationError("/z", "x-rule", "/z from the compiled rules", mapOf("rule" to "compiled", "kind" to "equal"))
        val v = MessageValidator(
            schemas,
            mapOf(
                "Interpreted" to MessageSchema("https://k.example/m", listOf(rule)),
                "Compiled" to MessageSchema("https://k.example/m", listOf(rule), compiledRules = { listOf(compiled) }),
            ),
        )
        assertEquals(setOf("Interpreted", "Compiled"), v.messageNames)
        assertEquals(listOf(rule), v.messages.getValue("Interpreted").rules)
        assertEquals(listOf(ValidationError("/a", "x-rule", "/a must equal /b", mapOf("rule" to "same", "kind" to "equal"))), v.errors("Interpreted", schema("{\"a\":1,\"b\":2}")))
        assertEquals(listOf(compiled), v.errors("Compiled", schema("{\"a\":1,\"b\":2}")))
        assertEquals(listOf(ValidationError("/a", "type", "/a must be integer", mapOf("type" to "integer"))), v.errors("Compiled", schema("{\"a\":\"x\"}")))
        assertEquals(emptyList<ValidationError>(), v.errors("Interpreted", schema("{\"a\":1,\"b\":1}")))
        assertEquals(ValidationResult.Valid(schema("{\"a\":1,\"b\":1}")), v.validate("Interpreted", schema("{\"a\":1,\"b\":1}")))
        assertEquals(ValidationResult.Invalid(listOf(compiled)), v.validate("Compiled", schema("{}")))
        assertThrows(IllegalArgumentException::class.java) { v.errors("Unknown", schema("{}")) }
        // Schema-valid but not an Int: reported as data, never thrown.
        assertEquals(
            ValidationResult.Invalid(listOf(ValidationError("", "x-decode", "(root) Interpreted does not decode into its class"))),
            v.validate("Interpreted", schema("{\"a\":1,\"b\":1}"), Int.serializer()),
        )
        assertEquals("json", (v.parse("Interpreted", "{\"a\":".toByteArray(), Int.serializer()) as ValidationResult.Invalid).errors.single().keyword)
    }

    @Test
    fun `fromResource loads an array of schema documents and refuses anything else`() {
        val missing = assertThrows(IllegalStateException::class.java) { MessageValidator.fromResource("/no/such/schemas.json", emptyMap()) }
        assertEquals("schema resource /no/such/schemas.json missing", missing.message)
        val notArray = "/shared/property-tests/vectors/json-schema-kills/ajv-verdicts.json"
        val refused = assertThrows(IllegalArgumentException::class.java) { MessageValidator.fromResource(notArray, emptyMap()) }
        assertEquals("$notArray must hold an array of schema documents", refused.message)
        // A fixture of the generator's (tests/test-schemas), not a protocol's resource: every spec's project runs this.
        val id = "https://schemas.example.invalid/shelf/Bookmark.json"
        val loaded = MessageValidator.fromResource("/shared/generators/targets/kotlin/tests/test-schemas/schema-array.json", mapOf("Bookmark" to MessageSchema(id, emptyList())))
        assertEquals("type", loaded.errors("Bookmark", Json.parseToJsonElement("[]")).single().keyword)
    }
}
