package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.CrossFieldRules
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
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

/**
 * The x-rules compiled into each `<Protocol>Validators` object (straight-line code) against the
 * reference evaluation (CrossFieldRules.check, which resolves the same rules' pointers per call):
 * the same errors, in the same order, on every example, invalid example, connector package
 * vector and schema mutation of the messages that have rules, schema-valid or not.
 */
class CompiledRulesDifferentialTest {
    @Test
    fun `compiled rules give the reference evaluation's errors on every shared case`() {
        val counter = CaseCounter("compiled rules differential")
        val mismatches = ArrayList<String>()
        val brokenRules = sortedSetOf<String>()
        var compiledMessages = 0
        for ((protocol, validator) in Protocols.validators) {
            val instances = instancesByMessage(protocol)
            for ((name, schema) in validator.messages) {
                if (schema.rules.isEmpty()) continue
                val compiled = schema.compiledRules ?: error("$protocol $name has rules but no compiled check")
                compiledMessages++
                for ((label, instance) in instances[name].orEmpty()) {
                    val reference = CrossFieldRules.check(instance, schema.rules)
                    val actual = compiled(instance)
                    if (actual != reference) mismatches += "$protocol $name $label: reference $reference, compiled $actual"
                    reference.forEach { brokenRules += "$name/${it.params["rule"]}" }
                    counter.count("$protocol ${if (reference.isEmpty()) "rules hold" else "rules broken"}")
                }
            }
        }
        counter.finish()
        assertEquals(emptyList<String>(), mismatches.take(20), "${mismatches.size} mismatches")
        assertTrue(compiledMessages >= 5, "only $compiledMessages messages have compiled rules")
        // Every rule kind the spec uses must have been seen broken, or the comparison is hollow.
        println("compiled rules differential: broken at least once: $brokenRules")
        assertTrue(brokenRules.size >= 8, "too few rules ever broken: $brokenRules")
    }
}
