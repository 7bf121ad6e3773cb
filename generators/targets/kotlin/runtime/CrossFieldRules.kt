package dev.agentcontracts.runtime

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/**
 * A message's x-rules: cross-field rules JSON Schema cannot state (spec/README.md). A rule applies
 * only when the pointers it names hold non-null values; a broken one is reported at its first
 * pointer. Same semantics as the TypeScript runtime's rules.ts.
 */
sealed interface CrossFieldRule {
    val id: String
    val message: String
    val kind: String

    data class Equal(override val id: String, override val message: String, val left: String, val right: String) : CrossFieldRule {
        override val kind get() = "equal"
    }

    data class UrlOriginIn(override val id: String, override val message: String, val url: String, val list: String) : CrossFieldRule {
        override val kind get() = "urlOriginIn"
    }

    data class SemverLte(override val id: String, override val message: String, val lower: String, val upper: String) : CrossFieldRule {
        override val kind get() = "semverLte"
    }

    data class SemverRangeIncludes(
        override val id: String,
        override val message: String,
        val min: String,
        val max: String,
        val version: String,
    ) : CrossFieldRule {
        override val kind get() = "semverRangeIncludes"
    }

    data class UniqueBy(override val id: String, override val message: String, val array: String, val key: String) : CrossFieldRule {
        override val kind get() = "uniqueBy"
    }

    data class LastItemEquals(
        override val id: String,
        override val message: String,
        val array: String,
        val key: String,
        val value: String,
    ) : CrossFieldRule {
        override val kind get() = "lastItemEquals"
    }

    data class NoSecrets(override val id: String, override val message: String, val text: String) : CrossFieldRule {
        override val kind get() = "noSecrets"
    }

    data class WhatwgUrl(override val id: String, override val message: String, val url: String, val form: String) : CrossFieldRule {
        override val kind get() = "whatwgUrl"
    }
}

/**
 * The one semantic definition of each rule kind, over values already resolved from the message.
 * Both evaluations call these: the reference interpreter [CrossFieldRules.check], which resolves
 * each rule's pointers per call, and the straight-line code the generator writes into each
 * `<Protocol>Validators` object. Absent and JSON null both arrive as null (the rule does not
 * apply). A kind that names one pointer to report returns whether the rule is broken; kinds that
 * can point into an array return the suffix to append to the rule's pointer (null: holds).
 */
object RuleKinds {
    fun equalBroken(left: JsonElement?, right: JsonElement?): Boolean = left != null && (right == null || !jsonEquals(left, right))

    fun urlOriginInBroken(url: JsonElement?, list: JsonElement?): Boolean {
        val text = url.stringOrNull() ?: return false
        val items = list as? JsonArray ?: return false
        val origin = WhatwgOrigin.of(text) ?: return true
        return items.none { it is JsonPrimitive && it.isString && it.content == origin }
    }

    fun semverLteBroken(lower: JsonElement?, upper: JsonElement?): Boolean {
        val low = lower.stringOrNull() ?: return false
        val high = upper.stringOrNull() ?: return false
        return (Semver.compare(low, high) ?: 1) > 0
    }

    fun semverRangeIncludesBroken(min: JsonElement?, max: JsonElement?, version: String): Boolean {
        val low = min.stringOrNull() ?: return false
        val high = max.stringOrNull() ?: return false
        val lowCompare = Semver.compare(low, version)
        val highCompare = Semver.compare(version, high)
        return !(lowCompare != null && highCompare != null && lowCompare <= 0 && highCompare <= 0)
    }

    /** `/<i>/<key>` of the first item whose [key] repeats an earlier item's. */
    fun uniqueBy(array: JsonElement?, key: String): String? {
        val items = array as? JsonArray ?: return null
        val seen = ArrayList<JsonElement>()
        for ((i, item) in items.withIndex()) {
            val value = (item as? JsonObject)?.get(key)?.takeUnless { it is JsonNull } ?: continue
            if (seen.any { jsonEquals(it, value) }) return "/$i/$key"
            seen.add(value)
        }
        return null
    }

    /** `/<last>/<key>` when the last item's [key] is not the string [value]. */
    fun lastItemEquals(array: JsonElement?, key: String, value: String): String? {
        val items = array as? JsonArray ?: return null
        if (items.isEmpty()) return null
        return if ((items.last() as? JsonObject)?.get(key).stringOrNull() == value) null else "/${items.size - 1}/$key"
    }

    fun noSecrets(text: JsonElement?): String? = firstFailing(text) { !SecretText.contains(it) }

    fun whatwgUrl(url: JsonElement?, form: String): String? = firstFailing(url) { WhatwgUrl.check(it, form) }

    /** A string (or each string item of an array) must pass [ok]: "" for the value itself, `/<i>` for an item. */
    private inline fun firstFailing(target: JsonElement?, ok: (String) -> Boolean): String? {
        if (target == null) return null
        target.stringOrNull()?.let { return if (ok(it)) null else "" }
        val items = target as? JsonArray ?: return null
        for ((i, item) in items.withIndex()) {
            val text = item.stringOrNull() ?: continue
            if (!ok(text)) return "/$i"
        }
        return null
    }

    private fun JsonElement?.stringOrNull(): String? = (this as? JsonPrimitive)?.takeIf { it.isString }?.content
}

/** One step of a pointer in generated rule code: an object member (a non-object gives null). */
fun JsonElement?.member(name: String): JsonElement? = (this as? JsonObject)?.get(name)

/** An array-index step: the item of an array, or the member of that name of an object (as RFC 6901). */
fun JsonElement?.itemOrMember(index: Int, name: String): JsonElement? = when (this) {
    is JsonArray -> getOrNull(index)
    is JsonObject -> get(name)
    else -> null
}

/** The end of a pointer: JSON null counts as absent. */
fun JsonElement?.present(): JsonElement? = this?.takeUnless { it is JsonNull }

object CrossFieldRules {
    /** The reference evaluation: every broken rule, in declaration order, pointers resolved per call. */
    fun check(value: JsonElement, rules: List<CrossFieldRule>): List<ValidationError> = rules.mapNotNull { rule ->
        evaluate(value, rule)?.let { at -> error(rule, at) }
    }

    /** The error a broken [rule] gives at [at]; generated rule code reports through it too. */
    fun error(rule: CrossFieldRule, at: String): ValidationError =
        ValidationError(at, "x-rule", "${at.ifEmpty { "(root)" }} ${rule.message}", mapOf("rule" to rule.id, "kind" to rule.kind))

    /** The pointer to report when [rule] is broken; null when it holds or does not apply. */
    private fun evaluate(value: JsonElement, rule: CrossFieldRule): String? = when (rule) {
        is CrossFieldRule.Equal -> rule.left.takeIf { RuleKinds.equalBroken(at(value, rule.left), at(value, rule.right)) }
        is CrossFieldRule.UrlOriginIn -> rule.url.takeIf { RuleKinds.urlOriginInBroken(at(value, rule.url), at(value, rule.list)) }
        is CrossFieldRule.SemverLte -> rule.lower.takeIf { RuleKinds.semverLteBroken(at(value, rule.lower), at(value, rule.upper)) }
        is CrossFieldRule.SemverRangeIncludes -> rule.min.takeIf { RuleKinds.semverRangeIncludesBroken(at(value, rule.min), at(value, rule.max), rule.version) }
        is CrossFieldRule.UniqueBy -> RuleKinds.uniqueBy(at(value, rule.array), rule.key)?.let { rule.array + it }
        is CrossFieldRule.LastItemEquals -> RuleKinds.lastItemEquals(at(value, rule.array), rule.key, rule.value)?.let { rule.array + it }
        is CrossFieldRule.NoSecrets -> RuleKinds.noSecrets(at(value, rule.text))?.let { rule.text + it }
        is CrossFieldRule.WhatwgUrl -> RuleKinds.whatwgUrl(at(value, rule.url), rule.form)?.let { rule.url + it }
    }

    /** Resolves a JSON pointer; absent and null both give null, so the rule does not apply. */
    private fun at(value: JsonElement, pointer: String): JsonElement? {
        var current: JsonElement = value
        if (pointer.isNotEmpty()) {
            for (raw in pointer.substring(1).split('/')) {
                val token = raw.replace("~1", "/").replace("~0", "~")
                current = when (current) {
                    is JsonArray -> if (ARRAY_INDEX.matches(token)) current.getOrNull(token.toInt()) else null
                    is JsonObject -> current[token]
                    else -> null
                } ?: return null
            }
        }
        return current.takeUnless { it is JsonNull }
    }

    private val ARRAY_INDEX = Regex("0|[1-9][0-9]{0,8}")
}

/** JSON equality: numbers by value (`1` equals `1.0`), objects regardless of member order. */
fun jsonEquals(a: JsonElement, b: JsonElement): Boolean = when {
    a is JsonObject && b is JsonObject -> a.size == b.size && a.all { (key, value) -> b[key]?.let { jsonEquals(value, it) } ?: false }
    a is JsonArray && b is JsonArray -> a.size == b.size && a.indices.all { jsonEquals(a[it], b[it]) }
    a is JsonNull || b is JsonNull -> a is JsonNull && b is JsonNull
    a is JsonPrimitive && b is JsonPrimitive -> when {
        a.isString || b.isString -> a.isString == b.isString && a.content == b.content
        a.content == b.content -> true
        isLiteral(a) || isLiteral(b) -> false
        else -> a.content.toDouble() == b.content.toDouble()
    }
    else -> false
}

private fun isLiteral(p: JsonPrimitive) = p.content == "true" || p.content == "false"
