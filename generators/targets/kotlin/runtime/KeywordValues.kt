package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.math.BigDecimal

/**
 * The shape each keyword's value must have (the 2020-12 meta-schema's rules for the keywords
 * JsonSchemaValidator implements), checked when a schema is loaded so that validation never meets
 * a value it cannot read. Subschemas themselves are checked by the loader as it reaches them.
 */
internal object KeywordValues {
    private val NUMBERS = setOf("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum")
    private val COUNTS = setOf("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "minContains", "maxContains")
    private val STRINGS = setOf(
        "pattern", "format", "\$ref", "\$schema", "\$anchor", "\$comment", "title", "description", "contentMediaType", "contentEncoding", "\$id",
    )
    private val BOOLEANS = setOf("uniqueItems", "deprecated", "readOnly", "writeOnly")
    private val SCHEMA_ARRAYS = setOf("allOf", "anyOf", "oneOf", "prefixItems")
    private val SCHEMA_MAPS = setOf("\$defs", "properties", "patternProperties", "dependentSchemas")
    private val TYPES = setOf("null", "boolean", "object", "array", "number", "string", "integer")

    /** Why [value] is not a valid value of [keyword]; null when it is (or the keyword takes any value). */
    fun problem(keyword: String, value: JsonElement): String? = when (keyword) {
        in NUMBERS -> if (number(value) != null) null else "$keyword must be a number"
        "multipleOf" -> if ((number(value)?.signum() ?: 0) > 0) null else "multipleOf must be a number greater than 0"
        in COUNTS -> if (number(value)?.let { it.signum() >= 0 && it.stripTrailingZeros().scale() <= 0 && it <= BigDecimal(Int.MAX_VALUE) } == true) null
            else "$keyword must be a non-negative integer"
        in STRINGS -> if (isString(value)) null else "$keyword must be a string"
        in BOOLEANS -> if (isBoolean(value)) null else "$keyword must be a boolean"
        in SCHEMA_ARRAYS -> if (value is JsonArray && value.isNotEmpty()) null else "$keyword must be a non-empty array of schemas"
        in SCHEMA_MAPS -> if (value is JsonObject) null else "$keyword must be an object of schemas"
        "enum" -> if (value is JsonArray) null else "enum must be an array"
        "required" -> if (stringArray(value)) null else "required must be an array of strings"
        "dependentRequired" -> if (value is JsonObject && value.values.all(::stringArray)) null else "dependentRequired must map names to arrays of strings"
        "type" -> if (typeName(value) || (value is JsonArray && value.isNotEmpty() && value.all(::typeName))) null else "type must name JSON types"
        "discriminator" -> if (value is JsonObject && (value["propertyName"]?.let(::isString) == true)) null else "discriminator must be an object with a string propertyName"
        else -> null
    }

    private fun isString(value: JsonElement) = value is JsonPrimitive && value.isString

    private fun isBoolean(value: JsonElement) = value is JsonPrimitive && !value.isString && value.content in setOf("true", "false")

    private fun stringArray(value: JsonElement) = value is JsonArray && value.all(::isString)

    private fun typeName(value: JsonElement) = isString(value) && (value as JsonPrimitive).content in TYPES

    private fun number(value: JsonElement): BigDecimal? {
        if (value !is JsonPrimitive || value.isString || value is JsonNull || isBoolean(value)) return null
        return try {
            BigDecimal(value.content)
        } catch (_: NumberFormatException) {
            null
        }
    }
}
