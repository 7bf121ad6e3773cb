package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonLimits
import dev.agentcontracts.runtime.string
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Mutations of each message's first example (emit-validation-cases.ts), each with the first error
 * the TypeScript validator (ajv + x-rules) gives: the Kotlin validator must agree on every one,
 * beyond the errors the spec's invalid examples declare.
 */
class ValidationDifferentialTest {
    @Test
    fun `every mutation gets the TypeScript verdict and first error`() {
        val counter = CaseCounter("validation differential")
        val mismatches = ArrayList<String>()
        for ((protocol, validator) in Protocols.validators) {
            val resource = javaClass.getResourceAsStream("/validation-cases/$protocol.json") ?: error("validation cases of $protocol missing: run the generator")
            val fixture = resource.use { StrictJson.parse(it.readBytes(), StrictJsonLimits(maxBytes = 16 * 1024 * 1024)) }.jsonObject
            for (message in fixture.getValue("messages").jsonArray.map { it.jsonObject }) {
                val name = message.string("name")
                val base = message.getValue("base")
                for (case in message.getValue("cases").jsonArray.map { it.jsonArray }) {
                    val pointer = case[0].jsonPrimitive.content
                    val replacement = (case[1] as? JsonArray)?.single()
                    val expected = (case[2] as? JsonArray)?.joinToString(" ") { it.jsonPrimitive.content } ?: "valid"
                    val first = validator.errors(name, patched(base, pointer, replacement)).firstOrNull()
                    val actual = first?.let { "${it.instancePath} ${it.keyword}${it.params["rule"]?.let { rule -> " $rule" } ?: ""}" } ?: "valid"
                    if (actual != expected) mismatches += "$protocol $name $pointer ${case[1]}: expected $expected, got $actual"
                    counter.count("$protocol ${if (expected == "valid") "valid" else "invalid"}")
                }
            }
        }
        counter.finish()
        assertEquals(emptyList<String>(), mismatches.take(20), "${mismatches.size} mismatches")
    }

    /** [base] with the value at [pointer] replaced by [value], or removed when [value] is null. */
    internal fun patched(base: JsonElement, pointer: String, value: JsonElement?): JsonElement {
        if (pointer.isEmpty()) return value ?: JsonNull
        val tokens = pointer.substring(1).split('/').map { it.replace("~1", "/").replace("~0", "~") }
        fun edit(node: JsonElement, depth: Int): JsonElement {
            val token = tokens[depth]
            val last = depth == tokens.size - 1
            return when (node) {
                is JsonObject -> JsonObject(LinkedHashMap(node).also { members ->
                    when {
                        !last -> members[token] = edit(node.getValue(token), depth + 1)
                        value == null -> members.remove(token)
                        else -> members[token] = value
                    }
                })
                is JsonArray -> JsonArray(node.toMutableList().also { items ->
                    val index = token.toInt()
                    when {
                        !last -> items[index] = edit(node[index], depth + 1)
                        value == null -> items.removeAt(index)
                        else -> items[index] = value
                    }
                })
                else -> error("$pointer: no container at $token")
            }
        }
        return edit(base, 0)
    }
}
