package dev.agentcontracts.bindings

import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonLimits
import dev.agentcontracts.runtime.TestData
import dev.agentcontracts.runtime.string
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import java.nio.file.Files

/** Anchors the resource lookups of the differential tests' shared instances (compiled rules, generated schema checks). */
private object SharedInstances

/** Message name → labelled instances: examples, invalid examples, mutations, vectors. */
internal fun instancesByMessage(protocol: String): Map<String, List<Pair<String, JsonElement>>> {
    val out = HashMap<String, MutableList<Pair<String, JsonElement>>>()
    fun add(name: String, label: String, value: JsonElement) {
        out.getOrPut(name) { ArrayList() } += label to value
    }
    val limits = StrictJsonLimits(maxBytes = 16 * 1024 * 1024)
    fun resource(path: String) = (SharedInstances::class.java.getResourceAsStream(path) ?: error("$path missing: run the generator")).use { StrictJson.parseStrictJson(it.readBytes(), limits) }.jsonObject
    for (message in resource("/examples/$protocol.json").getValue("messages").jsonArray.map { it.jsonObject }) {
        val name = message.string("name")
        message["examples"]?.jsonArray?.forEachIndexed { i, e -> add(name, "example $i", e) }
        message["invalidExamples"]?.jsonArray?.forEachIndexed { i, e -> add(name, "invalid example $i", e.jsonObject.getValue("instance")) }
    }
    for (message in resource("/validation-cases/$protocol.json").getValue("messages").jsonArray.map { it.jsonObject }) {
        val name = message.string("name")
        val base = message.getValue("base")
        for (case in message.getValue("cases").jsonArray.map { it.jsonArray }) {
            val pointer = case[0].jsonPrimitive.content
            add(name, "mutation $pointer ${case[1]}", patched(base, pointer, (case[1] as? JsonArray)?.single()))
        }
    }
    if (protocol == "agent-connector") {
        // Real packages, valid and invalid (several break exactly one rule).
        for (kind in listOf("valid", "invalid")) {
            Files.list(TestData.path("property-tests/vectors/agent-connector/generated/$kind")).use { files ->
                for (file in files.sorted().toList()) {
                    if (!file.fileName.toString().endsWith(".package.json")) continue
                    val value = runCatching { StrictJson.parseStrictJson(Files.readAllBytes(file)) }.getOrNull() ?: continue
                    add("ConnectorPackage", "$kind/${file.fileName}", value)
                }
            }
        }
    }
    return out
}

/** [base] with the value at [pointer] replaced by [value], or removed when [value] is null. */
private fun patched(base: JsonElement, pointer: String, value: JsonElement?): JsonElement {
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
