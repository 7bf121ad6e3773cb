package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonPrimitive
import java.math.BigDecimal
import java.math.BigInteger

/**
 * What the generated schema checks (`<Protocol>Schemas`, from generators/targets/kotlin/
 * emit-schema-code.ts) call: the JSON type tests, the errors in the words of the interpreter
 * (JsonSchemaValidator, itself in ajv's), and the keywords that loop over an instance (contains,
 * uniqueItems, oneOf's count), each with the interpreter's semantics.
 * GeneratedSchemasDifferentialTest compares the two on every shared case, error text included.
 */
internal object SchemaChecks {
    fun where(path: String): String = path.ifEmpty { "(root)" }

    fun schemaError(path: String, keyword: String, message: String, params: Map<String, String> = emptyMap()) =
        ValidationError(path, keyword, "${where(path)} $message", params)

    /** [types] as the schema lists them, joined by commas. */
    fun typeError(path: String, types: String) = schemaError(path, "type", "must be $types", mapOf("type" to types))

    // Nullable like every other check, so `falseSchema(at)?.let { return it }` compiles under -Werror.
    fun falseSchema(path: String): ValidationError? = ValidationError(path, "false schema", "${where(path)} boolean schema is false")

    fun limitError(path: String, keyword: String, message: String, limit: String) = schemaError(path, keyword, message, mapOf("limit" to limit))

    fun requiredError(path: String, name: String) = schemaError(path, "required", "must have required property '$name'", mapOf("missingProperty" to name))

    fun dependentRequiredError(path: String, name: String, missing: String) =
        schemaError(path, "dependentRequired", "must have property $missing when property $name is present", mapOf("property" to name, "missingProperty" to missing))

    fun discriminatorTagError(path: String, tag: String) =
        schemaError(path, "discriminator", "tag \"$tag\" must be string", mapOf("error" to "tag", "tag" to tag))

    /** An unknown tag value is reported at the tag, as TypeScript's fromAjvError does. */
    fun discriminatorMappingError(path: String, tag: String) =
        schemaError("$path/${escapeToken(tag)}", "discriminator", "value of tag \"$tag\" must be in oneOf", mapOf("error" to "mapping", "tag" to tag))

    fun child(path: String, name: String): String = "$path/${escapeToken(name)}"

    fun isJsonString(data: JsonElement): Boolean = data is JsonPrimitive && data.isString

    fun isJsonString(data: JsonElement, value: String): Boolean = data is JsonPrimitive && data.isString && data.content == value

    fun isJsonBoolean(data: JsonElement): Boolean = data is JsonPrimitive && !data.isString && data !is JsonNull && (data.content == "true" || data.content == "false")

    fun isJsonNumber(data: JsonElement): Boolean = data is JsonPrimitive && !data.isString && data !is JsonNull && data.content != "true" && data.content != "false"

    fun isJsonInteger(data: JsonElement): Boolean = isJsonNumber(data) && (data as JsonPrimitive).content.toDouble().let { it.isFinite() && it % 1.0 == 0.0 }

    /** Unicode code points, as JSON Schema counts a string's length. */
    fun codePoints(text: String): Int = text.codePointCount(0, text.length)

    /** A constant of a schema (const, enum), read by the strict parser as the interpreter reads the schema documents. */
    fun jsonLiteral(text: String): JsonElement = StrictJson.parseStrictJson(text.toByteArray(Charsets.UTF_8))

    /** Whether the number [data] is an integer multiple of [divisor] (> 0); false for a number BigDecimal cannot hold. */
    fun isMultipleOf(data: JsonElement, divisor: BigDecimal): Boolean {
        val value = try {
            BigDecimal((data as JsonPrimitive).content)
        } catch (_: NumberFormatException) {
            return false // an exponent past Int range: no multiple of anything here
        }
        return isMultiple(value, divisor)
    }

    /**
     * Whether [value] is an integer multiple of [divisor] (> 0), exactly: with value = m1·10^-s1 and
     * divisor = m2·10^-s2, the quotient is (m1/m2)·10^(s2-s1). Modular arithmetic keeps an exponent
     * like 1e308 or 1e-400 from costing more than its digits.
     */
    fun isMultiple(value: BigDecimal, divisor: BigDecimal): Boolean {
        val m1 = value.unscaledValue()
        if (m1.signum() == 0) return true
        val m2 = divisor.unscaledValue().abs()
        val k = divisor.scale().toLong() - value.scale().toLong()
        if (k >= 0) return m1.mod(m2).multiply(BigInteger.TEN.modPow(BigInteger.valueOf(k), m2)).mod(m2).signum() == 0
        // k < 0: m1 must be a multiple of m2·10^-k, which is larger than m1 when -k exceeds m1's digits.
        if (-k > m1.abs().toString().length) return false
        return m1.mod(m2.multiply(BigInteger.TEN.pow((-k).toInt()))).signum() == 0
    }

    /**
     * oneOf from each branch's result in order: valid when exactly one passed; else the first failed
     * branch's error seen before counting stopped at a second pass, or oneOf's own error.
     */
    fun oneOfError(path: String, vararg branches: ValidationError?): ValidationError? {
        var first: ValidationError? = null
        var count = 0
        for (error in branches) {
            if (error == null) count++ else if (first == null) first = error
            if (count > 1) break
        }
        if (count == 1) return null
        return first ?: schemaError(path, "oneOf", "must match exactly one schema in oneOf")
    }

    /**
     * contains with minContains/maxContains ([minText]/[maxText] as the schema writes them). Outside
     * a composite keyword ajv replaces the items' errors by its own; inside one the first item's error stands.
     */
    inline fun containsError(
        items: JsonArray,
        path: String,
        composite: Boolean,
        min: Double,
        minText: String,
        max: Double?,
        maxText: String?,
        check: (JsonElement, String) -> ValidationError?,
    ): ValidationError? {
        var first: ValidationError? = null
        var count = 0
        for (i in items.indices) {
            val error = check(items[i], "$path/$i")
            if (error == null) {
                count++
                if (max == null && count >= min) return null
            } else if (first == null) {
                first = error
            }
        }
        if (max != null && count > max) {
            return schemaError(path, "contains", "must contain at most $maxText valid item(s)", mapOf("maxContains" to maxText!!))
        }
        if (count >= min) return null
        return (if (composite) first else null) ?: schemaError(path, "contains", "must contain at least $minText valid item(s)", mapOf("minContains" to minText))
    }

    /** uniqueItems: ajv's params name the later item i and the earlier one j; its message lists the earlier first. */
    fun duplicateItemsError(items: JsonArray, path: String): ValidationError? {
        for (j in items.indices.reversed()) {
            for (i in 0 until j) {
                if (jsonEquals(items[i], items[j])) {
                    return schemaError(path, "uniqueItems", "must NOT have duplicate items (items ## $i and $j are identical)", mapOf("i" to "$j", "j" to "$i"))
                }
            }
        }
        return null
    }
}
