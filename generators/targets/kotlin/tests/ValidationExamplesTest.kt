package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonLimits
import dev.agentcontracts.runtime.string
import dev.agentcontracts.runtime.stringOrNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Every valid and invalid example of every message of every protocol, through the Kotlin
 * validators: a valid example has no error, an invalid one fails first where its
 * `x-invalid-examples[].error` says (instancePath, keyword and, for x-rules, the rule id), the
 * same first error the TypeScript validators give.
 */
class ValidationExamplesTest {
    @Test
    fun `every example gets the verdict and first error the spec declares`() {
        val counter = CaseCounter("validation examples")
        for ((protocol, validator) in Protocols.validators) {
            val resource = javaClass.getResourceAsStream("/examples/$protocol.json") ?: error("examples of $protocol missing: run the generator")
            val fixture = resource.use { StrictJson.parse(it.readBytes(), StrictJsonLimits(maxBytes = 16 * 1024 * 1024)) }.jsonObject
            val messages = fixture.getValue("messages").jsonArray.map { it.jsonObject }
            assertEquals(validator.messageNames, messages.map { it.string("name") }.toSet(), "$protocol messages")
            for (message in messages) {
                val name = message.string("name")
                message.getValue("examples").jsonArray.forEachIndexed { index, example ->
                    val errors = validator.errors(name, example)
                    assertTrue(errors.isEmpty()) { "$protocol $name example $index fails: $errors" }
                    counter.count("$protocol valid")
                }
                for (invalid in message.getValue("invalidExamples").jsonArray.map { it.jsonObject }) {
                    val label = "$protocol $name invalid example \"${invalid.string("description")}\""
                    val expected = invalid.getValue("error").jsonObject
                    val first = validator.errors(name, invalid.getValue("instance")).firstOrNull()
                    checkNotNull(first) { "$label passes" }
                    assertEquals(expectedError(expected), "${first.instancePath} ${first.keyword} ${first.params["rule"].orEmpty()}".trimEnd(), label)
                    counter.count("$protocol invalid")
                }
            }
        }
        counter.finish()
        for (protocol in Protocols.validators.keys) {
            for (kind in listOf("valid", "invalid")) assertTrue(counter.countOf("$protocol $kind") > 0, "$protocol has no $kind example")
        }
    }

    private fun expectedError(error: JsonObject): String =
        "${error.string("instancePath")} ${error.string("keyword")} ${error.stringOrNull("rule").orEmpty()}".trimEnd()
}
