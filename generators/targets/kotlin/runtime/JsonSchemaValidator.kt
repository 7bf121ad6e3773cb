package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.math.BigDecimal
import java.math.BigInteger
import java.util.IdentityHashMap
import java.util.regex.Pattern

/**
 * A JSON Schema 2020-12 interpreter: every keyword of the specification's validation, applicator,
 * unevaluated and core vocabularies except `$dynamicRef`, `$dynamicAnchor` and `$vocabulary`
 * (generators/targets/runtime-keywords.json lists them), proven by the JSON-Schema-Test-Suite's
 * required 2020-12 tests (JsonSchemaTestSuiteTest). It reports the first error ajv reports
 * (allErrors: false, discriminator: true), which the spec's invalid examples declare:
 *
 * - keywords run in ajv's order: a type check first unless one type group below owns it; then the
 *   untyped keywords ($ref, const, enum, not, anyOf, oneOf, allOf, if), then the number, string,
 *   array and object groups, each in [GROUPS] order; the first failure ends the check;
 * - a failed anyOf or oneOf reports its first branch's first error, as ajv lists those first;
 * - a failed discriminator tag is reported at the tag (TypeScript's fromAjvError does the same).
 *
 * Everything that can be wrong with a schema is found when the documents are loaded and thrown
 * as a [SchemaLoadException]: a keyword it does not implement, a malformed keyword value, a
 * `$ref` that names nothing, a pattern that does not compile. Validation itself never throws.
 *
 * [remotes] are documents by retrieval URI (the test suite's http://localhost:1234/ files): one
 * is read only when a loaded schema references it, and nothing is ever fetched.
 */
class JsonSchemaValidator(documents: Map<String, JsonElement>, private val remotes: Map<String, JsonElement> = emptyMap()) {
    /** Documents that each carry an absolute `$id`. */
    constructor(documents: List<JsonObject>) : this(
        documents.associateBy { doc ->
            (doc["\$id"] as? JsonPrimitive)?.takeIf { it.isString }?.content ?: throw IllegalArgumentException("schema document without \$id")
        },
    )

    /** Schema resources by absolute URI without fragment: the documents, remotes read and every embedded `$id`. */
    private val resources = HashMap<String, JsonElement>()
    private val anchors = HashMap<String, JsonElement>()

    /** The schema every `$ref` names, found at load time, by the (identity of the) object holding the `$ref`. */
    private val refTargets = IdentityHashMap<JsonObject, JsonElement>()
    private val linted = IdentityHashMap<JsonElement, Unit>()
    private val patterns = HashMap<String, Pattern>()

    init {
        val loader = SchemaLoader()
        for ((uri, document) in documents) loader.index(document, uri, uri)
        for ((uri, document) in documents) loader.lint(document, uri, "$uri#")
        loader.drain()
        loader.problems.minByOrNull { REFUSAL_RANK.indexOf(it.keyword).let { rank -> if (rank < 0) REFUSAL_RANK.size else rank } }?.let { throw it }
    }

    /** The first error of [instance] against the document [schemaId]; null when it is valid. */
    fun firstError(schemaId: String, instance: JsonElement): ValidationError? {
        val document = resources[schemaId] ?: throw IllegalArgumentException("unknown schema $schemaId")
        return Evaluation().check(document, instance, "", composite = false, seen = null)
    }

    // --- loading -------------------------------------------------------------------------------

    private inner class SchemaLoader {
        /** Every refusal: the one thrown is the first by [REFUSAL_RANK], then in document order. */
        val problems = ArrayList<SchemaLoadException>()
        private val pending = ArrayDeque<Triple<JsonElement, String, String>>()

        fun refuse(at: String, keyword: String, reason: String) {
            problems += SchemaLoadException(at, keyword, reason)
        }

        /** Registers [schema]'s resources (`$id`) and anchors under [base], the URI in force. */
        fun index(schema: JsonElement, base: String, retrieval: String) {
            if (schema !is JsonObject) {
                resources.putIfAbsent(retrieval, schema)
                return
            }
            resources.putIfAbsent(retrieval, schema)
            indexSubschema(schema, base)
        }

        private fun indexSubschema(schema: JsonElement, outer: String) {
            if (schema !is JsonObject) return
            var base = outer
            (schema["\$id"] as? JsonPrimitive)?.takeIf { it.isString }?.let {
                base = SchemaUri.withoutFragment(SchemaUri.resolve(outer, it.content))
                resources.putIfAbsent(base, schema)
            }
            (schema["\$anchor"] as? JsonPrimitive)?.takeIf { it.isString }?.let { anchors.putIfAbsent("$base#${it.content}", schema) }
            forEachSubschema(schema) { sub, _ -> indexSubschema(sub, base) }
        }

        /** Lints the remotes and stray targets references reached, until none is left. */
        fun drain() {
            while (pending.isNotEmpty()) {
                val (schema, base, at) = pending.removeFirst()
                lint(schema, base, at)
            }
        }

        fun lint(schema: JsonElement, outer: String, at: String) {
            if (linted.put(schema, Unit) != null) return
            if (schema is JsonPrimitive && !schema.isString && schema.content in setOf("true", "false")) return
            if (schema !is JsonObject) return refuse(at, "schema", "a schema must be an object or a boolean")
            var base = outer
            (schema["\$id"] as? JsonPrimitive)?.let { id ->
                if (!id.isString) return refuse(at, "\$id", "\$id must be a string")
                base = SchemaUri.withoutFragment(SchemaUri.resolve(outer, id.content))
            }
            for ((keyword, value) in schema) {
                if (keyword !in KNOWN_KEYWORDS) {
                    refuse(at, keyword, "keyword $keyword is not supported by the Kotlin validator")
                    continue
                }
                val problem = KeywordValues.problem(keyword, value)
                if (problem != null) {
                    refuse("$at/${escapeToken(keyword)}", keyword, problem)
                    continue
                }
                when (keyword) {
                    "\$ref" -> reference(schema, base, value.string, at)
                    "\$schema" -> metaSchema(SchemaUri.resolve(base, value.string), at)
                    "pattern" -> compile(value.string, "$at/pattern")
                    "patternProperties" -> value.obj.keys.forEach { compile(it, "$at/patternProperties") }
                    "format" -> if (value.string !in Formats.NAMES) refuse(at, "format", "format ${value.string} is not supported")
                    "discriminator" -> if ("oneOf" !in schema) refuse(at, "discriminator", "discriminator needs oneOf beside it")
                }
            }
            forEachSubschema(schema) { sub, pointer -> lint(sub, base, "$at/$pointer") }
        }

        private fun compile(source: String, at: String) {
            if (source in patterns) return
            try {
                patterns[source] = EcmaRegex.compile(source)
            } catch (e: IllegalArgumentException) { // PatternSyntaxException is one
                refuse(at, "pattern", "pattern does not compile: ${e.message?.lineSequence()?.first()}")
            }
        }

        /** A registered remote named as `$schema` is read like a reference: its keywords must be ones this validator implements. */
        private fun metaSchema(uri: String, at: String) {
            val id = SchemaUri.withoutFragment(uri)
            if (id in remotes) document(id)
            else if (id !in OWN_DIALECT) refuse(at, "\$schema", "\$schema $uri is neither JSON Schema 2020-12 nor a loaded document")
        }

        private fun reference(holder: JsonObject, base: String, ref: String, at: String) {
            val uri = SchemaUri.resolve(base, ref)
            val id = SchemaUri.withoutFragment(uri)
            if (id.startsWith(META_SCHEMA_PREFIX)) {
                return refuse(at, "\$dynamicRef", "\$ref $ref names the 2020-12 meta-schema, which is built on \$dynamicRef (not supported)")
            }
            val document = document(id) ?: return refuse(at, "\$ref", "\$ref $ref names no loaded schema")
            val fragment = SchemaUri.fragment(uri)
            val target: JsonElement? = when {
                fragment == null || fragment.isEmpty() -> document
                fragment.startsWith("/") -> pointer(document, fragment)
                else -> anchors["$id#$fragment"]
            }
            if (target == null || !(target is JsonObject || (target is JsonPrimitive && !target.isString && target.content in setOf("true", "false")))) {
                return refuse(at, "\$ref", "\$ref $ref points at nothing")
            }
            refTargets[holder] = target
            if (target !in linted) pending.add(Triple(target, id, uri))
        }

        /** The document or embedded resource [id]; a registered remote is indexed and linted the first time. */
        private fun document(id: String): JsonElement? {
            resources[id]?.let { return it }
            val remote = remotes[id] ?: return null
            index(remote, id, id)
            pending.add(Triple(remote, id, "$id#"))
            return remote
        }

        private fun pointer(document: JsonElement, pointer: String): JsonElement? {
            var target: JsonElement = document
            for (token in pointer.split('/').drop(1)) {
                val key = token.replace("~1", "/").replace("~0", "~")
                target = when (target) {
                    is JsonObject -> target[key]
                    is JsonArray -> key.toIntOrNull()?.takeIf { it in target.indices && key == it.toString() }?.let { target[it] }
                    else -> null
                } ?: return null
            }
            return target
        }
    }

    // --- evaluation ----------------------------------------------------------------------------

    /** What the keywords at one instance location evaluated: the input of unevaluatedProperties/Items. */
    private class Evaluated {
        val properties = HashSet<String>()
        var allProperties = false
        val items = HashSet<Int>()
        var allItems = false

        fun add(other: Evaluated) {
            properties += other.properties
            allProperties = allProperties || other.allProperties
            items += other.items
            allItems = allItems || other.allItems
        }
    }

    /** One validation call: the references being followed (a cycle that makes no progress is an error, not a stack overflow). */
    private inner class Evaluation {
        private val following = ArrayList<Pair<JsonObject, String>>()

        /**
         * [composite] is true inside anyOf/oneOf/not/if/contains, where ajv collects errors.
         * [seen] collects what this schema evaluates at this instance location when an enclosing
         * schema has unevaluatedProperties/Items; null otherwise.
         */
        fun check(schema: JsonElement, data: JsonElement, path: String, composite: Boolean, seen: Evaluated?): ValidationError? {
            if (schema !is JsonObject) {
                return if (schema.string == "true") null else ValidationError(path, "false schema", "${where(path)} boolean schema is false")
            }
            val own = if ("unevaluatedProperties" in schema || "unevaluatedItems" in schema) Evaluated() else seen
            val types = when (val type = schema["type"]) {
                null -> emptyList()
                is JsonArray -> type.map { it.string }
                else -> listOf(type.string)
            }
            val groupOwnsType = types.size == 1 && GROUPS.any { it.type == types[0] && it.appliesTo(schema) }
            if (types.isNotEmpty() && !groupOwnsType && types.none { hasType(data, it) }) return typeError(path, types)
            val cx = Context(this, schema, data, path, composite, own)
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
            if (seen != null && own !== seen) seen.add(own!!)
            return null
        }

        fun follow(holder: JsonObject, data: JsonElement, path: String, composite: Boolean, seen: Evaluated?): ValidationError? {
            val target = refTargets.getValue(holder)
            if (following.any { it.first === holder && it.second == path }) {
                return ValidationError(path, "\$ref", "${where(path)} \$ref ${holder.getValue("\$ref").string} refers back to itself without consuming the instance")
            }
            following.add(holder to path)
            try {
                return check(target, data, path, composite, seen)
            } finally {
                following.removeAt(following.size - 1)
            }
        }
    }

    private fun typeError(path: String, types: List<String>) =
        ValidationError(path, "type", "${where(path)} must be ${types.joinToString(",")}", mapOf("type" to types.joinToString(",")))

    private inner class Context(
        val run: Evaluation,
        val schema: JsonObject,
        val data: JsonElement,
        val path: String,
        val composite: Boolean,
        val seen: Evaluated?,
    ) {
        fun error(keyword: String, message: String, params: Map<String, String> = emptyMap(), at: String = path) =
            ValidationError(at, keyword, "${where(at)} $message", params)

        fun check(sub: JsonElement, value: JsonElement = data, at: String = path, composite: Boolean = this.composite, seen: Evaluated? = null) =
            run.check(sub, value, at, composite, seen)

        fun sub(keyword: String, value: JsonElement = data, at: String = path, composite: Boolean = this.composite) =
            check(schema.getValue(keyword), value, at, composite)

        fun keyword(keyword: String): ValidationError? = when (keyword) {
            "\$ref" -> run.follow(schema, data, path, composite, seen)
            "const" -> if (jsonEquals(data, schema.getValue(keyword))) null else error(keyword, "must be equal to constant")
            "enum" -> if (schema.getValue(keyword).array.any { jsonEquals(data, it) }) null else error(keyword, "must be equal to one of the allowed values")
            "not" -> if (sub(keyword, composite = true) == null) error(keyword, "must NOT be valid") else null
            "anyOf" -> anyOf()
            "oneOf" -> if ("discriminator" in schema) null else oneOf()
            "allOf" -> schema.getValue(keyword).array.firstNotNullOfOrNull { check(it, seen = seen) }
            "if" -> ifThenElse()
            "maximum" -> if (data.number <= schema.getValue(keyword).number) null else error(keyword, "must be <= ${schema.getValue(keyword)}")
            "minimum" -> if (data.number >= schema.getValue(keyword).number) null else error(keyword, "must be >= ${schema.getValue(keyword)}")
            "exclusiveMaximum" -> if (data.number < schema.getValue(keyword).number) null else error(keyword, "must be < ${schema.getValue(keyword)}")
            "exclusiveMinimum" -> if (data.number > schema.getValue(keyword).number) null else error(keyword, "must be > ${schema.getValue(keyword)}")
            "multipleOf" -> if (data.decimal?.let { isMultiple(it, schema.getValue(keyword).decimal!!) } == true) null
                else error(keyword, "must be multiple of ${schema.getValue(keyword)}", mapOf("multipleOf" to schema.getValue(keyword).toString()))
            "maxLength" -> limit(keyword, data.string.let { it.codePointCount(0, it.length) }, max = true, "characters")
            "minLength" -> limit(keyword, data.string.let { it.codePointCount(0, it.length) }, max = false, "characters")
            "pattern" -> if (patterns.getValue(schema.getValue(keyword).string).matcher(data.string).find()) null
                else error(keyword, "must match pattern", mapOf("pattern" to schema.getValue(keyword).string))
            "format" -> if (Formats.matches(schema.getValue(keyword).string, data.string)) null
                else error(keyword, "must match format \"${schema.getValue(keyword).string}\"")
            "maxItems" -> limit(keyword, data.array.size, max = true, "items")
            "minItems" -> limit(keyword, data.array.size, max = false, "items")
            "prefixItems" -> prefixItems()
            "items" -> items()
            "contains" -> contains()
            "uniqueItems" -> uniqueItems()
            "unevaluatedItems" -> unevaluatedItems()
            "maxProperties" -> limit(keyword, data.obj.size, max = true, "properties")
            "minProperties" -> limit(keyword, data.obj.size, max = false, "properties")
            "required" -> schema.getValue(keyword).array.map { it.string }.firstOrNull { it !in data.obj }
                ?.let { error(keyword, "must have required property '$it'", mapOf("missingProperty" to it)) }
            "propertyNames" -> data.obj.keys.firstNotNullOfOrNull { sub(keyword, JsonPrimitive(it), composite = true) }
            "additionalProperties" -> additionalProperties()
            "properties" -> properties()
            "patternProperties" -> patternProperties()
            "dependentRequired" -> dependentRequired()
            "dependentSchemas" -> schema.getValue(keyword).obj.entries.firstNotNullOfOrNull { (name, dependent) ->
                if (name in data.obj) check(dependent, seen = seen) else null
            }
            "unevaluatedProperties" -> unevaluatedProperties()
            "discriminator" -> discriminator()
            else -> null // annotations and keywords handled by another (then, else, minContains, maxContains)
        }

        private fun limit(keyword: String, size: Int, max: Boolean, unit: String): ValidationError? {
            val bound = schema.getValue(keyword).number
            val ok = if (max) size <= bound else size >= bound
            return if (ok) null else error(keyword, "must NOT have ${if (max) "more" else "fewer"} than ${schema.getValue(keyword)} $unit", mapOf("limit" to schema.getValue(keyword).toString()))
        }

        /** Checks [branch] where a failure is allowed: what it evaluated counts only when it passes. */
        private fun tryBranch(branch: JsonElement): Pair<ValidationError?, Evaluated?> {
            val local = seen?.let { Evaluated() }
            val error = check(branch, composite = true, seen = local)
            return error to local
        }

        private fun anyOf(): ValidationError? {
            var first: ValidationError? = null
            var passed = false
            for (branch in schema.getValue("anyOf").array) {
                val (error, local) = tryBranch(branch)
                if (error == null) {
                    passed = true
                    // Without an unevaluated* keyword to feed, the first passing branch decides.
                    if (seen == null) return null
                    seen.add(local!!)
                } else if (first == null) {
                    first = error
                }
            }
            if (passed) return null
            return first ?: error("anyOf", "must match a schema in anyOf")
        }

        private fun oneOf(): ValidationError? {
            var first: ValidationError? = null
            var passing: Evaluated? = null
            var count = 0
            for (branch in schema.getValue("oneOf").array) {
                val (error, local) = tryBranch(branch)
                if (error == null) {
                    count++
                    passing = local
                } else if (first == null) {
                    first = error
                }
                if (count > 1) break
            }
            if (count == 1) {
                passing?.let { seen?.add(it) }
                return null
            }
            return first ?: error("oneOf", "must match exactly one schema in oneOf")
        }

        private fun ifThenElse(): ValidationError? {
            val (error, local) = tryBranch(schema.getValue("if"))
            if (error == null) local?.let { seen?.add(it) }
            val clause = if (error == null) "then" else "else"
            return if (clause in schema) check(schema.getValue(clause), seen = seen) else null
        }

        private fun prefixItems(): ValidationError? {
            val prefix = schema.getValue("prefixItems").array
            val items = data.array
            for (i in 0 until minOf(prefix.size, items.size)) {
                check(prefix[i], items[i], "$path/$i")?.let { return it }
                seen?.items?.add(i)
            }
            return null
        }

        private fun items(): ValidationError? {
            val start = (schema["prefixItems"] as? JsonArray)?.size ?: 0
            val items = data.array
            for (i in start until items.size) sub("items", items[i], "$path/$i")?.let { return it }
            seen?.allItems = true
            return null
        }

        private fun contains(): ValidationError? {
            val min = (schema["minContains"] as? JsonPrimitive)?.number ?: 1.0
            val max = (schema["maxContains"] as? JsonPrimitive)?.number
            var first: ValidationError? = null
            var count = 0
            for ((i, item) in data.array.withIndex()) {
                val error = sub("contains", item, "$path/$i", composite = true)
                if (error == null) {
                    count++
                    seen?.items?.add(i)
                    if (seen == null && max == null && count >= min) return null
                } else if (first == null) {
                    first = error
                }
            }
            if (max != null && count > max) {
                return error("contains", "must contain at most ${schema.getValue("maxContains")} valid item(s)", mapOf("maxContains" to schema.getValue("maxContains").toString()))
            }
            if (count >= min) return null
            // Outside a composite keyword ajv replaces the items' errors by its own.
            val minText = schema["minContains"]?.toString() ?: "1"
            return (if (composite) first else null) ?: error("contains", "must contain at least $minText valid item(s)", mapOf("minContains" to minText))
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

        private fun unevaluatedItems(): ValidationError? {
            val evaluated = seen!! // check() gives a schema with unevaluated* its own collector
            if (!evaluated.allItems) {
                for ((i, item) in data.array.withIndex()) {
                    if (i in evaluated.items) continue
                    val sub = schema.getValue("unevaluatedItems")
                    if (sub.isFalse) return error("unevaluatedItems", "must NOT have unevaluated items", mapOf("unevaluatedItem" to "$i"), "$path/$i")
                    check(sub, item, "$path/$i")?.let { return it }
                }
            }
            evaluated.allItems = true
            return null
        }

        private fun properties(): ValidationError? {
            for ((name, propertySchema) in schema.getValue("properties").obj) {
                val value = data.obj[name] ?: continue
                check(propertySchema, value, "$path/${escapeToken(name)}")?.let { return it }
                seen?.properties?.add(name)
            }
            return null
        }

        private fun patternProperties(): ValidationError? {
            for ((source, propertySchema) in schema.getValue("patternProperties").obj) {
                val pattern = patterns.getValue(source)
                for ((name, value) in data.obj) {
                    if (!pattern.matcher(name).find()) continue
                    check(propertySchema, value, "$path/${escapeToken(name)}")?.let { return it }
                    seen?.properties?.add(name)
                }
            }
            return null
        }

        private fun additionalProperties(): ValidationError? {
            val declared = (schema["properties"] as? JsonObject)?.keys ?: emptySet()
            val declaredPatterns = (schema["patternProperties"] as? JsonObject)?.keys?.map { patterns.getValue(it) } ?: emptyList()
            val additional = schema.getValue("additionalProperties")
            for ((name, value) in data.obj) {
                if (name in declared || declaredPatterns.any { it.matcher(name).find() }) continue
                if (additional is JsonObject) {
                    check(additional, value, "$path/${escapeToken(name)}")?.let { return it }
                } else if (additional.string == "false") {
                    return error("additionalProperties", "must NOT have additional properties", mapOf("additionalProperty" to name))
                }
            }
            seen?.allProperties = true
            return null
        }

        private fun unevaluatedProperties(): ValidationError? {
            val evaluated = seen!! // check() gives a schema with unevaluated* its own collector
            if (!evaluated.allProperties) {
                for ((name, value) in data.obj) {
                    if (name in evaluated.properties) continue
                    val sub = schema.getValue("unevaluatedProperties")
                    if (sub.isFalse) return error("unevaluatedProperties", "must NOT have unevaluated properties", mapOf("unevaluatedProperty" to name))
                    check(sub, value, "$path/${escapeToken(name)}")?.let { return it }
                }
            }
            evaluated.allProperties = true
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
            return check(branches[index], seen = seen)
        }

        private fun tagValues(branch: JsonElement, tagName: String): List<String> {
            var target = followRefs(branch)
            val property = followRefs(((target as? JsonObject)?.get("properties") as? JsonObject)?.get(tagName) ?: return emptyList())
            val fixed = property as? JsonObject ?: return emptyList()
            fixed["const"]?.let { return listOfNotNull((it as? JsonPrimitive)?.takeIf { p -> p.isString }?.content) }
            return (fixed["enum"] as? JsonArray)?.mapNotNull { (it as? JsonPrimitive)?.takeIf { p -> p.isString }?.content } ?: emptyList()
        }

        /** The schema a chain of `$ref`-only hops ends at (a cycle ends where it started). */
        private fun followRefs(start: JsonElement): JsonElement {
            var target = start
            val visited = IdentityHashMap<JsonElement, Unit>()
            while (target is JsonObject && "\$ref" in target && visited.put(target, Unit) == null) target = refTargets.getValue(target)
            return target
        }
    }

    private companion object {
        class Group(val type: String?, val keywords: List<String>) {
            fun appliesTo(schema: JsonObject): Boolean = keywords.any { it in schema }
        }

        /** ajv's rule groups and keyword order (Ajv2020 with the discriminator option: `ajv.RULES.rules`). */
        val GROUPS = listOf(
            Group(null, listOf("\$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else")),
            // ajv lists `format` in the number group too, but every format the spec uses is a string
            // format, which ajv skips for numbers: a number in a string+format field is a type error.
            Group("number", listOf("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf")),
            Group("string", listOf("maxLength", "minLength", "pattern", "format")),
            Group("array", listOf("maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems", "unevaluatedItems")),
            Group(
                "object",
                listOf(
                    "maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "properties", "patternProperties",
                    "dependentRequired", "dependentSchemas", "unevaluatedProperties", "discriminator",
                ),
            ),
        )

        /** Keywords that only annotate, or are read by another keyword (minContains by contains). */
        val ANNOTATIONS = setOf(
            "\$schema", "\$id", "\$anchor", "\$defs", "\$comment", "title", "description", "default", "examples", "deprecated", "readOnly",
            "writeOnly", "contentMediaType", "contentEncoding", "contentSchema", "type", "minContains", "maxContains",
        )
        val KNOWN_KEYWORDS = GROUPS.flatMap { it.keywords }.toSet() + ANNOTATIONS

        /** Which refusal a schema that has several is reported by: the keywords the suite's refused list names, in this order. */
        val REFUSAL_RANK = listOf("\$dynamicRef", "\$dynamicAnchor", "\$vocabulary")

        /** The JSON Schema meta-schemas, never loaded: they are built on $dynamicRef. */
        const val META_SCHEMA_PREFIX = "https://json-schema.org/draft/2020-12/"
        val OWN_DIALECT = setOf("https://json-schema.org/draft/2020-12/schema")

        val SINGLE_SUBSCHEMA = listOf(
            "not", "if", "then", "else", "items", "contains", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
            "contentSchema",
        )
        val SUBSCHEMA_ARRAYS = listOf("allOf", "anyOf", "oneOf", "prefixItems")
        val SUBSCHEMA_MAPS = listOf("\$defs", "properties", "patternProperties", "dependentSchemas")

        /** Calls [visit] with each direct subschema of [schema] and its relative JSON pointer; malformed containers are skipped (KeywordValues refuses them). */
        fun forEachSubschema(schema: JsonObject, visit: (JsonElement, String) -> Unit) {
            for ((keyword, value) in schema) {
                when (keyword) {
                    in SINGLE_SUBSCHEMA -> visit(value, escapeToken(keyword))
                    in SUBSCHEMA_ARRAYS -> (value as? JsonArray)?.forEachIndexed { i, sub -> visit(sub, "$keyword/$i") }
                    in SUBSCHEMA_MAPS -> (value as? JsonObject)?.forEach { (name, sub) -> visit(sub, "${escapeToken(keyword)}/${escapeToken(name)}") }
                }
            }
        }

        fun where(path: String) = path.ifEmpty { "(root)" }

        fun hasType(data: JsonElement, type: String): Boolean = when (type) {
            "null" -> data is JsonNull
            "object" -> data is JsonObject
            "array" -> data is JsonArray
            "string" -> data is JsonPrimitive && data.isString
            "boolean" -> data is JsonPrimitive && !data.isString && data !is JsonNull && data.content in setOf("true", "false")
            "number" -> isNumber(data)
            else -> isNumber(data) && data.number.let { it.isFinite() && it % 1.0 == 0.0 } // "integer"; KeywordValues refuses any other name
        }

        fun isNumber(data: JsonElement) = data is JsonPrimitive && !data.isString && data !is JsonNull && data.content !in setOf("true", "false")

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
    }
}

internal fun escapeToken(token: String): String = token.replace("~", "~0").replace("/", "~1")

private val JsonElement.string: String get() = (this as JsonPrimitive).content
private val JsonElement.number: Double get() = (this as JsonPrimitive).content.toDouble()
/** null for a number BigDecimal cannot hold (an exponent past Int range): no multiple of anything here. */
private val JsonElement.decimal: BigDecimal? get() = try {
    BigDecimal((this as JsonPrimitive).content)
} catch (_: NumberFormatException) {
    null
}
private val JsonElement.array: JsonArray get() = this as JsonArray
private val JsonElement.obj: JsonObject get() = this as JsonObject
private val JsonElement.isFalse: Boolean get() = this is JsonPrimitive && !isString && content == "false"
