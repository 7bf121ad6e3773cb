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

object CrossFieldRules {
    /** Every broken rule, in declaration order. */
    fun check(value: JsonElement, rules: List<CrossFieldRule>): List<ValidationError> = rules.mapNotNull { rule ->
        evaluate(value, rule)?.let { at ->
            ValidationError(at, "x-rule", "${at.ifEmpty { "(root)" }} ${rule.message}", mapOf("rule" to rule.id, "kind" to rule.kind))
        }
    }

    /** The pointer to report when [rule] is broken; null when it holds or does not apply. */
    private fun evaluate(value: JsonElement, rule: CrossFieldRule): String? = when (rule) {
        is CrossFieldRule.Equal -> {
            val left = at(value, rule.left)
            val right = at(value, rule.right)
            if (left == null || (right != null && jsonEquals(left, right))) null else rule.left
        }
        is CrossFieldRule.UrlOriginIn -> {
            val url = at(value, rule.url).stringOrNull()
            val list = at(value, rule.list) as? JsonArray
            if (url == null || list == null) {
                null
            } else {
                val origin = WhatwgOrigin.of(url)
                if (origin != null && list.any { it is JsonPrimitive && it.isString && it.content == origin }) null else rule.url
            }
        }
        is CrossFieldRule.SemverLte -> {
            val lower = at(value, rule.lower).stringOrNull()
            val upper = at(value, rule.upper).stringOrNull()
            if (lower == null || upper == null) null else if ((Semver.compare(lower, upper) ?: 1) <= 0) null else rule.lower
        }
        is CrossFieldRule.SemverRangeIncludes -> {
            val min = at(value, rule.min).stringOrNull()
            val max = at(value, rule.max).stringOrNull()
            if (min == null || max == null) {
                null
            } else {
                val low = Semver.compare(min, rule.version)
                val high = Semver.compare(rule.version, max)
                if (low != null && high != null && low <= 0 && high <= 0) null else rule.min
            }
        }
        is CrossFieldRule.UniqueBy -> uniqueBy(value, rule)
        is CrossFieldRule.LastItemEquals -> lastItemEquals(value, rule)
        is CrossFieldRule.NoSecrets -> firstFailing(value, rule.text) { !SecretText.contains(it) }
        is CrossFieldRule.WhatwgUrl -> firstFailing(value, rule.url) { dev.agentcontracts.runtime.WhatwgUrl.check(it, rule.form) }
    }

    /** A string at [pointer] (or each string item of an array there) must pass [ok]; where it does not. */
    private fun firstFailing(value: JsonElement, pointer: String, ok: (String) -> Boolean): String? {
        val target = at(value, pointer) ?: return null
        target.stringOrNull()?.let { return if (ok(it)) null else pointer }
        val items = target as? JsonArray ?: return null
        for ((i, item) in items.withIndex()) {
            val text = item.stringOrNull() ?: continue
            if (!ok(text)) return "$pointer/$i"
        }
        return null
    }

    private fun lastItemEquals(value: JsonElement, rule: CrossFieldRule.LastItemEquals): String? {
        val items = at(value, rule.array) as? JsonArray ?: return null
        if (items.isEmpty()) return null
        return if (at(items.last(), "/${rule.key}").stringOrNull() == rule.value) null else "${rule.array}/${items.size - 1}/${rule.key}"
    }

    private fun uniqueBy(value: JsonElement, rule: CrossFieldRule.UniqueBy): String? {
        val items = at(value, rule.array) as? JsonArray ?: return null
        val seen = ArrayList<JsonElement>()
        for ((i, item) in items.withIndex()) {
            val key = at(item, "/${rule.key}") ?: continue
            if (seen.any { jsonEquals(it, key) }) return "${rule.array}/$i/${rule.key}"
            seen.add(key)
        }
        return null
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

    private fun JsonElement?.stringOrNull(): String? = (this as? JsonPrimitive)?.takeIf { it.isString }?.content

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
