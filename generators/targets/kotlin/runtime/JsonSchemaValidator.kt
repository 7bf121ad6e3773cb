package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.net.URI
import java.util.concurrent.ConcurrentHashMap
import java.util.regex.Pattern

/**
 * A JSON Schema 2020-12 interpreter for the keywords the spec uses. It reports the first error
 * ajv reports (allErrors: false, discriminator: true), which the spec's invalid examples declare:
 *
 * - keywords run in ajv's order: a type check first unless one type group below owns it; then the
 *   untyped keywords ($ref, const, enum, not, anyOf, oneOf, allOf, if), then the number, string,
 *   array and object groups, each in [GROUPS] order; the first failure ends the check;
 * - a failed anyOf or oneOf reports its first branch's first error, as ajv lists those first;
 * - a failed discriminator tag is reported at the tag (TypeScript's fromAjvError does the same).
 *
 * A keyword it does not implement is refused when the documents are loaded, never skipped.
 */
class JsonSchemaValidator(documents: List<JsonObject>) {
    private val documents: Map<String, JsonObject> = documents.associateBy { doc ->
        (doc["\$id"] as? JsonPrimitive)?.takeIf { it.isString }?.content ?: throw IllegalArgumentException("schema document without \$id")
    }
    private val patterns = HashMap<String, Pattern>()

    init {
        for ((id, document) in this.documents) lint(document, "$id#", id)
    }

    /** The first error of [instance] against the document [schemaId]; null when it is valid. */
    fun firstError(schemaId: String, instance: JsonElement): ValidationError? {
        val document = documents[schemaId] ?: throw IllegalArgumentException("unknown schema $schemaId")
        return check(document, schemaId, instance, "", composite = false)
    }

    // --- loading -------------------------------------------------------------------------------

    /** [base]: the document id a `$ref` here resolves against (as [check] resolves it). */
    private fun lint(schema: JsonElement, at: String, base: String) {
        if (schema is JsonPrimitive && !schema.isString && schema.content in setOf("true", "false")) return
        require(schema is JsonObject) { "$at: a schema must be an object or a boolean" }
        for ((keyword, value) in schema) {
            require(keyword in KNOWN_KEYWORDS) { "$at: keyword $keyword is not supported by the Kotlin validator" }
            when (keyword) {
                "properties", "\$defs" -> (value as JsonObject).forEach { (name, sub) -> lint(sub, "$at/$keyword/$name", base) }
                "allOf", "anyOf", "oneOf" -> (value as JsonArray).forEachIndexed { i, sub -> lint(sub, "$at/$keyword/$i", base) }
                in SUBSCHEMA_KEYWORDS -> lint(value, "$at/$keyword", base)
                // A reference that names nothing is refused with the schema, not met at validation.
                "\$ref" -> try {
                    resolveUncached(base, value.string)
                } catch (unresolved: IllegalStateException) {
                    throw IllegalArgumentException("$at: ${unresolved.message}")
                }
                "pattern" -> patterns.getOrPut(value.string) { EcmaRegex.compile(value.string) }
                "format" -> require(value.string in Formats.NAMES) { "$at: format ${value.string} is not supported" }
            }
        }
    }

    // --- evaluation ----------------------------------------------------------------------------

    /** [composite] is true inside anyOf/oneOf/not/if/contains, where ajv collects errors. */
    private fun check(schema: JsonElement, base: String, data: JsonElement, path: String, composite: Boolean): ValidationError? {
        if (schema !is JsonObject) {
            return if (schema.string == "true") null else ValidationError(path, "false schema", "${where(path)} boolean schema is false")
        }
        val types = when (val type = schema["type"]) {
            null -> emptyList()
            is JsonArray -> type.map { it.string }
            else -> listOf(type.string)
        }
        val groupOwnsType = types.size == 1 && GROUPS.any { it.type == types[0] && it.appliesTo(schema) }
        if (types.isNotEmpty() && !groupOwnsType && types.none { hasType(data, it) }) return typeError(path, types)
        val cx = Context(schema, base, data, path, composite)
        for (group in GROUPS) {
            if (!group.appliesTo(schema)) continue
            if (group.type == null || hasType(data, group.type)) {
                for (keyword in group.keywords) {
                    if (keyword in schema) cx.keyword(keyword)?.let { return it }
                }
            } else if (groupOwnsType && types[0] == group.type) {
                return typeError(path, types)
            }
        }
        return null
    }

    private fun typeError(path: String, types: List<String>) =
        ValidationError(path, "type", "${where(path)} must be ${types.joinToString(",")}", mapOf("type" to types.joinToString(",")))

    private inner class Context(val schema: JsonObject, val base: String, val data: JsonElement, val path: String, val composite: Boolean) {
        fun error(keyword: String, message: String, params: Map<String, String> = emptyMap(), at: String = path) =
            ValidationError(at, keyword, "${where(at)} $message", params)

        fun sub(keyword: String, value: JsonElement = data, at: String = path, composite: Boolean = this.composite) =
            check(schema.getValue(keyword), base, value, at, composite)

        fun keyword(keyword: String): ValidationError? = when (keyword) {
            "\$ref" -> resolve(base, schema.getValue(keyword).string).let { (target, targetBase) -> check(target, targetBase, data, path, composite) }
            "const" -> if (jsonEquals(data, schema.getValue(keyword))) null else error(keyword, "must be equal to constant")
            "enum" -> if (schema.getValue(keyword).array.any { jsonEquals(data, it) }) null else error(keyword, "must be equal to one of the allowed values")
            "not" -> if (sub(keyword, composite = true) == null) error(keyword, "must NOT be valid") else null
            "anyOf" -> anyOf()
            "oneOf" -> if ("discriminator" in schema) null else oneOf()
            "allOf" -> schema.getValue(keyword).array.firstNotNullOfOrNull { check(it, base, data, path, composite) }
            "if" -> ifThenElse()
            "maximum" -> if (data.number <= schema.getValue(keyword).number) null else error(keyword, "must be <= ${schema.getValue(keyword)}")
            "minimum" -> if (data.number >= schema.getValue(keyword).number) null else error(keyword, "must be >= ${schema.getValue(keyword)}")
            "maxLength" -> limit(keyword, data.string.let { it.codePointCount(0, it.length) }, max = true, "characters")
            "minLength" -> limit(keyword, data.string.let { it.codePointCount(0, it.length) }, max = false, "characters")
            "pattern" -> if (patterns.getValue(schema.getValue(keyword).string).matcher(data.string).find()) null
                else error(keyword, "must match pattern", mapOf("pattern" to schema.getValue(keyword).string))
            "format" -> if (Formats.matches(schema.getValue(keyword).string, data.string)) null
                else error(keyword, "must match format \"${schema.getValue(keyword).string}\"")
            "maxItems" -> limit(keyword, data.array.size, max = true, "items")
            "minItems" -> limit(keyword, data.array.size, max = false, "items")
            "items" -> data.array.withIndex().firstNotNullOfOrNull { (i, item) -> sub(keyword, item, "$path/$i") }
            "contains" -> contains()
            "uniqueItems" -> uniqueItems()
            "maxProperties" -> limit(keyword, data.obj.size, max = true, "properties")
            "minProperties" -> limit(keyword, data.obj.size, max = false, "properties")
            "required" -> schema.getValue(keyword).array.map { it.string }.firstOrNull { it !in data.obj }
                ?.let { error(keyword, "must have required property '$it'", mapOf("missingProperty" to it)) }
            "propertyNames" -> data.obj.keys.firstNotNullOfOrNull { sub(keyword, JsonPrimitive(it), composite = true) }
            "additionalProperties" -> additionalProperties()
            "properties" -> schema.getValue(keyword).obj.entries.firstNotNullOfOrNull { (name, propertySchema) ->
                data.obj[name]?.let { check(propertySchema, base, it, "$path/${escapeToken(name)}", composite) }
            }
            "dependentRequired" -> dependentRequired()
            "discriminator" -> discriminator()
            else -> null // annotations and keywords handled by another (then, else)
        }

        private fun limit(keyword: String, size: Int, max: Boolean, unit: String): ValidationError? {
            val bound = schema.getValue(keyword).number
            val ok = if (max) size <= bound else size >= bound
            return if (ok) null else error(keyword, "must NOT have ${if (max) "more" else "fewer"} than ${schema.getValue(keyword)} $unit", mapOf("limit" to schema.getValue(keyword).toString()))
        }

        private fun anyOf(): ValidationError? {
            var first: ValidationError? = null
            for (branch in schema.getValue("anyOf").array) {
                val error = check(branch, base, data, path, composite = true) ?: return null
                if (first == null) first = error
            }
            return first ?: error("anyOf", "must match a schema in anyOf")
        }

        private fun oneOf(): ValidationError? {
            var first: ValidationError? = null
            var passing = 0
            for (branch in schema.getValue("oneOf").array) {
                val error = check(branch, base, data, path, composite = true)
                if (error == null) passing++ else if (first == null) first = error
                if (passing > 1) break
            }
            if (passing == 1) return null
            return first ?: error("oneOf", "must match exactly one schema in oneOf")
        }

        private fun ifThenElse(): ValidationError? {
            val clause = if (sub("if", composite = true) == null) "then" else "else"
            return if (clause in schema) sub(clause) else null
        }

        private fun contains(): ValidationError? {
            var first: ValidationError? = null
            for ((i, item) in data.array.withIndex()) {
                val error = sub("contains", item, "$path/$i", composite = true) ?: return null
                if (first == null) first = error
            }
            // Outside a composite keyword ajv replaces the items' errors by its own.
            return (if (composite) first else null) ?: error("contains", "must contain at least 1 valid item(s)")
        }

        private fun uniqueItems(): ValidationError? {
            if (schema.getValue("uniqueItems").string != "true") return null
            val items = data.array
            for (j in items.indices.reversed()) {
                for (i in 0 until j) {
                    if (jsonEquals(items[i], items[j])) {
                        // ajv's params name the later item i and the earlier one j; its message lists the earlier first.
                        return error("uniqueItems", "must NOT have duplicate items (items ## $i and $j are identical)", mapOf("i" to "$j", "j" to "$i"))
                    }
                }
            }
            return null
        }

        private fun additionalProperties(): ValidationError? {
            val declared = (schema["properties"] as? JsonObject)?.keys ?: emptySet()
            val additional = schema.getValue("additionalProperties")
            for ((name, value) in data.obj) {
                if (name in declared) continue
                if (additional is JsonObject) {
                    check(additional, base, value, "$path/${escapeToken(name)}", composite)?.let { return it }
                } else if (additional.string == "false") {
                    return error("additionalProperties", "must NOT have additional properties", mapOf("additionalProperty" to name))
                }
            }
            return null
        }

        private fun dependentRequired(): ValidationError? {
            for ((name, dependencies) in schema.getValue("dependentRequired").obj) {
                if (name !in data.obj) continue
                val missing = dependencies.array.map { it.string }.firstOrNull { it !in data.obj } ?: continue
                return error("dependentRequired", "must have property $missing when property $name is present", mapOf("property" to name, "missingProperty" to missing))
            }
            return null
        }

        private fun discriminator(): ValidationError? {
            val tagName = schema.getValue("discriminator").obj.getValue("propertyName").string
            val tag = (data.obj[tagName] as? JsonPrimitive)?.takeIf { it.isString }?.content
                ?: return error("discriminator", "tag \"$tagName\" must be string", mapOf("error" to "tag", "tag" to tagName))
            val branches = schema.getValue("oneOf").array
            val index = branches.indexOfFirst { tag in tagValues(it, tagName) }
            if (index < 0) {
                return error("discriminator", "value of tag \"$tagName\" must be in oneOf", mapOf("error" to "mapping", "tag" to tagName), "$path/${escapeToken(tagName)}")
            }
            return check(branches[index], base, data, path, composite)
        }

        private fun tagValues(branch: JsonElement, tagName: String): List<String> {
            var (target, targetBase) = branch to base
            while (target is JsonObject && "\$ref" in target) {
                val resolved = resolve(targetBase, target.getValue("\$ref").string)
                target = resolved.first
                targetBase = resolved.second
            }
            var property = ((target as? JsonObject)?.get("properties") as? JsonObject)?.get(tagName) ?: return emptyList()
            while (property is JsonObject && "\$ref" in property) property = resolve(targetBase, property.getValue("\$ref").string).first
            val fixed = property as? JsonObject ?: return emptyList()
            fixed["const"]?.let { return listOf(it.string) }
            return (fixed["enum"] as? JsonArray)?.map { it.string } ?: emptyList()
        }
    }

    /** The schema a `$ref` names, and the base its own references resolve against. */
    // The documents never change after loading, so each (base, $ref) resolves to the same target
    // every time: remembered, because parsing URIs per call was a quarter of the interpreter's
    // time (JMH stack profile, ActionProposal). Concurrent: one validator serves every thread.
    private val resolved = ConcurrentHashMap<Pair<String, String>, Pair<JsonElement, String>>()

    private fun resolve(base: String, ref: String): Pair<JsonElement, String> =
        resolved.getOrPut(base to ref) { resolveUncached(base, ref) }

    private fun resolveUncached(base: String, ref: String): Pair<JsonElement, String> {
        val uri = URI(base).resolve(ref)
        val documentId = uri.toString().substringBefore('#')
        var target: JsonElement = documents[documentId] ?: throw IllegalStateException("$base: \$ref $ref names no loaded schema")
        val pointer = uri.fragment ?: ""
        for (token in pointer.split('/').drop(1)) {
            val key = token.replace("~1", "/").replace("~0", "~")
            target = (target as? JsonObject)?.get(key) ?: throw IllegalStateException("$base: \$ref $ref points at nothing")
        }
        return target to documentId
    }

    private companion object {
        class Group(val type: String?, val keywords: List<String>) {
            fun appliesTo(schema: JsonObject): Boolean = keywords.any { it in schema }
        }

        /** ajv's rule groups and keyword order (Ajv2020 with the discriminator option). */
        val GROUPS = listOf(
            Group(null, listOf("\$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else")),
            // ajv lists `format` in the number group too, but every format the spec uses is a string
            // format, which ajv skips for numbers: a number in a string+format field is a type error.
            Group("number", listOf("maximum", "minimum")),
            Group("string", listOf("maxLength", "minLength", "pattern", "format")),
            Group("array", listOf("maxItems", "minItems", "items", "contains", "uniqueItems")),
            Group("object", listOf("maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "dependentRequired", "discriminator")),
        )

        val SUBSCHEMA_KEYWORDS = setOf("not", "if", "then", "else", "items", "contains", "propertyNames", "additionalProperties")
        val ANNOTATIONS = setOf("\$schema", "\$id", "\$defs", "\$comment", "title", "description", "default", "examples", "type")
        val KNOWN_KEYWORDS = GROUPS.flatMap { it.keywords }.toSet() + ANNOTATIONS + SUBSCHEMA_KEYWORDS

        fun where(path: String) = path.ifEmpty { "(root)" }

        fun hasType(data: JsonElement, type: String): Boolean = when (type) {
            "null" -> data is JsonNull
            "object" -> data is JsonObject
            "array" -> data is JsonArray
            "string" -> data is JsonPrimitive && data.isString
            "boolean" -> data is JsonPrimitive && !data.isString && data !is JsonNull && data.content in setOf("true", "false")
            "number" -> isNumber(data)
            "integer" -> isNumber(data) && data.number.let { it.isFinite() && it % 1.0 == 0.0 }
            else -> throw IllegalStateException("unknown JSON type $type")
        }

        fun isNumber(data: JsonElement) = data is JsonPrimitive && !data.isString && data !is JsonNull && data.content !in setOf("true", "false")
    }
}

internal fun escapeToken(token: String): String = token.replace("~", "~0").replace("/", "~1")

private val JsonElement.string: String get() = (this as JsonPrimitive).content
private val JsonElement.number: Double get() = (this as JsonPrimitive).content.toDouble()
private val JsonElement.array: JsonArray get() = this as JsonArray
private val JsonElement.obj: JsonObject get() = this as JsonObject
