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
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

/**
 * The x-rules compiled into each `<Protocol>Validators` object (straight-line code) against the
 * reference evaluation (CrossFieldRules.check, which resolves the same rules' pointers per call):
 * the same errors, in the same order, on every example, invalid example, connector package
 * vector and schema mutation of the messages that have rules, schema-valid or not. Any spec's
 * project runs it: a spec without x-rules skips it with that reason.
 */
class CompiledRulesDifferentialTest {
    @Test
    fun `compiled rules give the reference evaluation's errors on every shared case`() {
        val counter = CaseCounter("compiled rules differential")
        val mismatches = ArrayList<String>()
        val brokenRules = sortedSetOf<String>()
        var compiledMessages = 0
        val ruledMessages = sortedSetOf<String>()
        for ((protocol, validator) in Protocols.validators) {
            val instances = instancesByMessage(protocol)
            for ((name, schema) in validator.messages) {
                if (schema.rules.isEmpty()) continue
                val compiled = schema.compiledRules ?: error("$protocol $name has rules but no compiled check")
                compiledMessages++
                ruledMessages += name
                for ((label, instance) in instances[name].orEmpty()) {
                    val reference = CrossFieldRules.check(instance, schema.rules)
                    val actual = compiled(instance)
                    if (actual != reference) mismatches += "$protocol $name $label: reference $reference, compiled $actual"
                    reference.forEach { brokenRules += "$name/${it.params["rule"]}" }
                    counter.count("$protocol ${if (reference.isEmpty()) "rules hold" else "rules broken"}")
                }
            }
        }
        // Any spec: one without x-rules has nothing to compare, and says so instead of passing.
        assumeTrue(compiledMessages > 0, "no message of this spec has x-rules: no compiled rules to compare")
        counter.finish()
        assertEquals(emptyList<String>(), mismatches.take(20), "${mismatches.size} mismatches")
        // Every message with rules must have had one of them broken, or its comparison is hollow.
        println("compiled rules differential: broken at least once: $brokenRules")
        assertEquals(emptyList<String>(), ruledMessages.filter { message -> brokenRules.none { it.startsWith("$message/") } }, "messages whose rules no case breaks")
    }
}
