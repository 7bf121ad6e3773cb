package dev.agentcontracts.runtime

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.math.BigDecimal

/**
 * SchemaChecks, the helpers the generated `<Protocol>Schemas` checks call, on their own: the
 * keywords no schema of this repository's spec reaches through a generated check (multipleOf, a
 * oneOf without a discriminator, a child path under additionalProperties), and the edges of the
 * ones it does (the JSON type tests, uniqueItems with the duplicate at an end of the array).
 *
 * Expected verdicts are hand-written from JSON Schema 2020-12 (validation §6.2.1 multipleOf: the
 * quotient is an integer; §6.1.1 type: integer is any number with a zero fractional part; §6.4.3
 * uniqueItems; core §10.2.1.3 oneOf) and RFC 6901 §3 (~0, ~1), and the error texts, parameters
 * and which error comes first from ajv 8 (Ajv2020) run on the same schema and instance, the
 * validator whose words the Kotlin runtime uses. Where ajv and mathematics part (a number below
 * the smallest double, which ajv reads as 0) the table follows mathematics, as the interpreter does.
 */
class SchemaChecksTest {
    private fun json(text: String): JsonElement = Json.parseToJsonElement(text)

    private fun multiple(value: String, divisor: String) = SchemaChecks.isMultipleOf(json(value), BigDecimal(divisor))

    @Test
    fun `multipleOf - the quotient is an integer, exactly, whatever the scales`() {
        // value, divisor, is value / divisor an integer (worked by hand).
        val table = listOf(
            Triple("10", "2", true), // JSON-Schema-Test-Suite multipleOf "by int"
            Triple("7", "2", false),
            Triple("-10", "2", true),
            Triple("-7", "2", false),
            Triple("0", "1.5", true), // "by number": zero is a multiple of anything
            Triple("4.5", "1.5", true),
            Triple("35", "1.5", false),
            Triple("0.0075", "0.0001", true), // "by small number"
            Triple("0.00751", "0.0001", false),
            Triple("0.3", "0.2", false), // same scale: 3 / 2
            Triple("10", "0.5", true), // divisor has more decimals than the value: 100 / 5
            Triple("7.5", "0.25", true), // 750 / 25
            Triple("4.50", "0.5", true), // value has more decimals than the divisor: 450 / 50
            Triple("-1.50", "0.5", true),
            Triple("0.25", "0.5", false), // 25 / 50
            Triple("0.75", "0.5", false), // 75 / 50: two digits, one decimal more than the divisor
            Triple("20", "1e1", true), // a negative scale on the divisor: 20 / 10
            Triple("25", "1e1", false),
            Triple("1e1", "2", true), // a negative scale on the value: 10 / 2
            Triple("1e1", "3", false),
            Triple("1e-5", "3", false),
            Triple("12391239123", "1e-8", true), // "small multiple of large integer"
            // 10^-999999999 / 0.5 = 2·10^-999999999, not an integer; answered from the digits
            // (1 digit, 999999998 decimals more than the divisor), not by computing 10^999999998.
            Triple("1e-999999999", "0.5", false),
        )
        for ((value, divisor, expected) in table) {
            assertEquals(expected, multiple(value, divisor), "$value multipleOf $divisor")
        }
    }

    @Test
    fun `multipleOf - a number BigDecimal cannot hold is no multiple (ajv reads 1e2147483648 as Infinity and fails it too)`() {
        assertEquals(false, multiple("1e2147483648", "2"))
        assertEquals(false, multiple("-1e2147483648", "0.5"))
    }

    @Test
    fun `the JSON type tests`() {
        // text, string, boolean, number, integer (validation §6.1.1; 1.0 is an integer).
        val table = listOf(
            listOf("\"1\"", true, false, false, false),
            listOf("\"true\"", true, false, false, false),
            listOf("true", false, true, false, false),
            listOf("false", false, true, false, false),
            listOf("null", false, false, false, false),
            listOf("1", false, false, true, true),
            listOf("-1", false, false, true, true),
            listOf("1.0", false, false, true, true),
            listOf("1.5", false, false, true, false),
            listOf("-0.5", false, false, true, false),
            listOf("1e308", false, false, true, true),
            // The largest double, an integer: ajv accepts it as one too.
            listOf("1.7976931348623157e308", false, false, true, true),
            listOf("-1.7976931348623157e308", false, false, true, true),
            listOf("[]", false, false, false, false),
            listOf("{}", false, false, false, false),
        )
        for (row in table) {
            val data = json(row[0] as String)
            assertEquals(row[1], SchemaChecks.isJsonString(data), "string ${row[0]}")
            assertEquals(row[2], SchemaChecks.isJsonBoolean(data), "boolean ${row[0]}")
            assertEquals(row[3], SchemaChecks.isJsonNumber(data), "number ${row[0]}")
            assertEquals(row[4], SchemaChecks.isJsonInteger(data), "integer ${row[0]}")
        }
        assertEquals(true, SchemaChecks.isJsonString(JsonPrimitive("a"), "a"))
        assertEquals(false, SchemaChecks.isJsonString(JsonPrimitive("a"), "b"))
        assertEquals(false, SchemaChecks.isJsonString(JsonPrimitive(1), "1"))
    }

    @Test
    fun `child paths escape the member name as RFC 6901 says, and the root reads as (root)`() {
        assertEquals("/a/b~0c~1d", SchemaChecks.child("/a", "b~c/d"))
        assertEquals("/~01", SchemaChecks.child("", "~1"))
        assertEquals("/", SchemaChecks.child("", ""))
        assertEquals("(root)", SchemaChecks.where(""))
        assertEquals("/x", SchemaChecks.where("/x"))
        assertEquals(ValidationError("/x", "required", "/x must have required property 'y'", mapOf("missingProperty" to "y")), SchemaChecks.requiredError("/x", "y"))
    }

    private val typeFails = ValidationError("", "type", "(root) must be integer", mapOf("type" to "integer"))
    private val minimumFails = ValidationError("", "minimum", "(root) must be >= 2", mapOf("limit" to "2"))
    private val maximumFails = ValidationError("", "maximum", "(root) must be <= 0", mapOf("limit" to "0"))
    private val oneOfFails = ValidationError("", "oneOf", "(root) must match exactly one schema in oneOf")

    @Test
    fun `oneOf - exactly one branch passes, else ajv's first error`() {
        // Each row: the branches' results for one instance of ajv's schema (null: the branch passed),
        // and ajv's first error for that instance (null: valid).
        // oneOf [integer, minimum 2]
        assertNull(SchemaChecks.oneOfError("", null, minimumFails), "1: only the first passes")
        assertNull(SchemaChecks.oneOfError("", typeFails, null), "2.5: only the second passes")
        assertEquals(oneOfFails, SchemaChecks.oneOfError("", null, null), "3: both pass")
        assertEquals(typeFails, SchemaChecks.oneOfError("", typeFails, minimumFails), "1.5: none passes, the first branch's error")
        // oneOf [integer, minimum 2, maximum 0]
        assertEquals(oneOfFails, SchemaChecks.oneOfError("", null, null, maximumFails), "3: two pass before the third fails")
        assertNull(SchemaChecks.oneOfError("", typeFails, null, maximumFails), "2.5")
        assertEquals(minimumFails, SchemaChecks.oneOfError("", null, minimumFails, null), "-1: the first and third pass")
        assertEquals(typeFails, SchemaChecks.oneOfError("", typeFails, minimumFails, maximumFails), "1.5: none passes")
        assertNull(SchemaChecks.oneOfError("", typeFails, minimumFails, null), "-0.5: only the last passes")
        // oneOf [minimum 2, integer, maximum 0]
        assertEquals(minimumFails, SchemaChecks.oneOfError("", minimumFails, typeFails, maximumFails), "1.5")
        assertEquals(oneOfFails, SchemaChecks.oneOfError("", null, null, maximumFails), "3")
        assertEquals(oneOfFails.copy(instancePath = "/p", message = "/p must match exactly one schema in oneOf"), SchemaChecks.oneOfError("/p", null, null))
    }

    private fun duplicate(items: String) = SchemaChecks.duplicateItemsError(json(items).jsonArray, "")

    private fun duplicateError(earlier: Int, later: Int) = ValidationError(
        "",
        "uniqueItems",
        "(root) must NOT have duplicate items (items ## $earlier and $later are identical)",
        mapOf("i" to "$later", "j" to "$earlier"),
    )

    @Test
    fun `uniqueItems - ajv's pair, the duplicate at either end of the array`() {
        assertEquals(duplicateError(0, 3), duplicate("[1,2,3,1]"))
        assertEquals(duplicateError(0, 1), duplicate("[1,1]"))
        assertEquals(duplicateError(1, 2), duplicate("[1,2,2]"))
        assertEquals(duplicateError(0, 2), duplicate("[2,1,2,3]"))
        assertEquals(duplicateError(1, 3), duplicate("[1,2,1,2]"))
        assertEquals(duplicateError(0, 1), duplicate("""[{"a":1},{"a":1.0}]"""))
        assertNull(duplicate("[1,2,3]"))
        assertNull(duplicate("[]"))
        assertNull(duplicate("[1]"))
    }

    private fun contains(items: String, min: Double, max: Double?, composite: Boolean = false): ValidationError? =
        SchemaChecks.containsError(json(items).jsonArray, "", composite, min, min.toInt().toString(), max, max?.toInt()?.toString()) { item, path ->
            if (SchemaChecks.isJsonString(item)) null else ValidationError(path, "type", "$path must be string", mapOf("type" to "string"))
        }

    @Test
    fun `contains with minContains and maxContains (the body is inlined into its callers)`() {
        // contains {type: string}; ajv's verdicts, and its texts where the runtime words them as ajv does.
        assertNull(contains("""[1,"a"]""", 1.0, null))
        assertEquals(ValidationError("", "contains", "(root) must contain at least 1 valid item(s)", mapOf("minContains" to "1")), contains("[1,2]", 1.0, null))
        assertEquals(ValidationError("/0", "type", "/0 must be string", mapOf("type" to "string")), contains("[1,2]", 1.0, null, composite = true))
        assertNull(contains("""["a",1,"b"]""", 2.0, 2.0))
        assertNull(contains("[]", 0.0, null))
        // With maxContains ajv words one message for both bounds ("must contain at least 1 and no more
        // than 2 valid item(s)"); the runtime names the bound that failed, so only the verdict is ajv's.
        assertEquals("contains", contains("""["a","b","c"]""", 1.0, 2.0)?.keyword)
        assertEquals("contains", contains("""["a",1]""", 2.0, 3.0)?.keyword)
    }

    @Test
    fun `a false schema fails every value, at the path it is given`() {
        val error = SchemaChecks.falseSchema("/a")
        assertEquals("false schema", error?.keyword)
        assertEquals("/a", error?.instancePath)
    }
}
