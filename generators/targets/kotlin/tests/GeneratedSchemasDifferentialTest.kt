package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.MessageSchema
import dev.agentcontracts.runtime.MessageValidator
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The generated schema checks (`<Protocol>Schemas`) against the schema interpreter
 * (JsonSchemaValidator) over the same documents (the jar's schema resource): the same errors —
 * instance path, keyword, message and params — on every example, invalid example, connector
 * package vector and schema mutation of every message, schema-valid or not.
 */
class GeneratedSchemasDifferentialTest {
    @Test
    fun `generated schema checks give the interpreter's first error on every shared case`() {
        val counter = CaseCounter("generated schemas differential")
        val mismatches = ArrayList<String>()
        val keywords = sortedSetOf<String>()
        val neverFailed = sortedSetOf<String>()
        for ((protocol, validator) in Protocols.validators) {
            val interpreter = MessageValidator.fromResource(
                "/dev/agentcontracts/schemas/$protocol.json",
                validator.messages.mapValues { (_, m) -> MessageSchema(m.schemaId, m.rules, m.compiledRules) },
            )
            val instances = instancesByMessage(protocol)
            for ((name, schema) in validator.messages) {
                val generated = schema.compiledSchema ?: error("$protocol $name has no generated schema check")
                var failed = instances[name].isNullOrEmpty()
                for ((label, instance) in instances[name].orEmpty()) {
                    val expected = interpreter.errors(name, instance)
                    val actual = validator.errors(name, instance)
                    if (actual != expected) mismatches += "$protocol $name $label: interpreter $expected, generated $actual"
                    generated(instance)?.let {
                        keywords += it.keyword
                        failed = true
                    }
                    counter.count("$protocol ${if (expected.isEmpty()) "valid" else expected.first().keyword}")
                }
                if (!failed) neverFailed += "$protocol $name"
            }
        }
        counter.finish()
        assertEquals(emptyList<String>(), mismatches.take(20), "${mismatches.size} mismatches")
        // The comparison is hollow for a message whose generated check never failed (the schema
        // mutations break every message), and thin when few keywords ever failed; any spec's
        // project runs this, so the floor is what a small spec's mutations reach (7 in examples/).
        println("generated schemas differential: first errors by keyword: $keywords")
        assertEquals(emptyList<String>(), neverFailed.toList(), "messages whose generated check never failed")
        assertTrue(keywords.size >= 5, "too few keywords ever failed: $keywords")
    }
}
