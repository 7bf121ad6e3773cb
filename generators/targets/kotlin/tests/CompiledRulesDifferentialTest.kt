package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.CrossFieldRules
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.StrictJsonLimits
import dev.agentcontracts.runtime.string
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test

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
                    for (error in reference) {
                        // A rule id is never empty (spec/meta: x-rules ids), whatever rule kind reported it.
                        if (error.params["rule"].isNullOrEmpty()) mismatches += "$protocol $name $label: an x-rule error without its rule id"
                        brokenRules += "$name/${error.params["rule"]}"
                    }
                    counter.count("$protocol ${if (reference.isEmpty()) "rules hold" else "rules broken"}")
                }
            }
            // Each invalid example that the spec declares broken by a rule is, by that rule's id.
            for ((name, expectedRule, instance) in declaredRuleBreaks(protocol)) {
                val schema = validator.messages[name] ?: continue
                val reported = CrossFieldRules.check(instance, schema.rules).map { it.params["rule"] }
                if (expectedRule !in reported) mismatches += "$protocol $name: the spec says $expectedRule breaks, the reference reports $reported"
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

    /** (message, rule id, instance) of every x-invalid-examples entry whose declared first error is an x-rule. */
    private fun declaredRuleBreaks(protocol: String): List<Triple<String, String, JsonElement>> {
        val stream = javaClass.getResourceAsStream("/examples/$protocol.json") ?: error("/examples/$protocol.json missing: run the generator")
        val messages = stream.use { StrictJson.parseStrictJson(it.readBytes(), StrictJsonLimits(maxBytes = 16 * 1024 * 1024)) }.jsonObject.getValue("messages").jsonArray
        return messages.map { it.jsonObject }.flatMap { message ->
            message["invalidExamples"]?.jsonArray.orEmpty().map { it.jsonObject }.mapNotNull { invalid ->
                val rule = invalid["error"]?.jsonObject?.get("rule")?.jsonPrimitive?.content ?: return@mapNotNull null
                Triple(message.string("name"), rule, invalid.getValue("instance"))
            }
        }
    }
}
