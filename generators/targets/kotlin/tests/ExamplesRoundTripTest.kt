package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.agentconnector.ConnectorResume
import dev.agentcontracts.runtime.CanonicalJson
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.string
import kotlinx.serialization.KSerializer
import kotlinx.serialization.descriptors.SerialDescriptor
import kotlinx.serialization.descriptors.StructureKind
import kotlinx.serialization.descriptors.elementNames
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Every example in the spec decodes into its generated class and encodes back to the same
 * canonical JSON: wire names, optional members, nulls, consts and discriminated unions all
 * survive the trip. (ValidationExamplesTest checks the verdicts, invalid examples included.)
 */
class ExamplesRoundTripTest {
    @Test
    fun `spec examples round-trip through the generated classes`() {
        val counter = CaseCounter("spec examples")
        for ((protocol, serializers) in Protocols.messages) {
            val resource = javaClass.getResourceAsStream("/examples/$protocol.json") ?: error("examples of $protocol missing: run the generator")
            val fixture = resource.use { StrictJson.parse(it.readBytes()) }.jsonObject
            for (message in fixture.getValue("messages").jsonArray.map { it.jsonObject }) {
                val name = message.string("name")
                @Suppress("UNCHECKED_CAST")
                val serializer = serializers[name] as KSerializer<Any>? ?: error("no Kotlin class for $protocol $name")
                message.getValue("examples").jsonArray.forEachIndexed { index, example ->
                    val decoded = Json.decodeFromJsonElement(serializer, example)
                    val encoded = Json.encodeToJsonElement(serializer, decoded)
                    val expected = withoutUnknownMembers(example, encoded)
                    assertEquals(CanonicalJson.canonicalize(expected), CanonicalJson.canonicalize(encoded), "$protocol $name example $index")
                    counter.count(protocol)
                }
            }
        }
        counter.finish()
    }

    /**
     * An open object (x-open) keeps unknown members out of its typed surface, so they do not come
     * back; drop from [example] the object members [encoded] does not have, at every level.
     */
    private fun withoutUnknownMembers(example: JsonElement, encoded: JsonElement): JsonElement = when {
        example is JsonObject && encoded is JsonObject ->
            JsonObject(example.filterKeys { it in encoded }.mapValues { (key, value) -> withoutUnknownMembers(value, encoded.getValue(key)) })
        example is kotlinx.serialization.json.JsonArray && encoded is kotlinx.serialization.json.JsonArray && example.size == encoded.size ->
            kotlinx.serialization.json.JsonArray(example.zip(encoded) { a, b -> withoutUnknownMembers(a, b) })
        else -> example
    }

    @Test
    fun `an unknown discriminator value is refused with its pointer`() {
        val error = runCatching { Json.decodeFromString(ConnectorResume.serializer(), """{"type":"cancel","requestId":"wait-1"}""") }.exceptionOrNull()
        assertEquals("/type: unknown ConnectorResume discriminator value: cancel", error?.message)
    }
}
