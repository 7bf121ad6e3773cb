package dev.agentcontracts.bindings

import dev.agentcontracts.Protocols
import dev.agentcontracts.runtime.CaseCounter
import dev.agentcontracts.runtime.LifecycleMachine
import dev.agentcontracts.runtime.LifecycleName
import dev.agentcontracts.runtime.Outcome
import dev.agentcontracts.runtime.StrictJson
import dev.agentcontracts.runtime.string
import dev.agentcontracts.runtime.stringOrNull
import dev.agentcontracts.agentconnector.lifecycles.TrustLifecycle
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Replays the language-neutral paths suites (spec/<protocol>/lifecycles/<name>.paths.json, copied
 * as test resources) through the generated machines: every step must give the outcome the suite
 * expects, state, effects, refusal reason and guard alike.
 */
class LifecyclePathsTest {
    @Test
    fun `every paths case replays step by step`() {
        val counter = CaseCounter("lifecycle paths")
        var steps = 0
        for ((key, machine) in Protocols.lifecycles) {
            val resource = javaClass.getResourceAsStream("/lifecycles/$key.paths.json") ?: error("paths of $key missing: run the generator")
            val suite = resource.use { StrictJson.parse(it.readBytes()) }.jsonObject
            assertEquals(machine.states.map { it.wireName }, suite.getValue("states").jsonArray.map { it.jsonPrimitive.content }, "$key states")
            assertEquals(machine.events.map { it.wireName }, suite.getValue("events").jsonArray.map { it.jsonPrimitive.content }, "$key events")
            assertEquals(machine.initial.wireName, suite.string("initial"), "$key initial")
            for (case in suite.getValue("cases").jsonArray.map { it.jsonObject }) {
                replay(machine, "$key ${case.string("id")}", case)
                counter.count(machine.protocol)
                steps += case.getValue("steps").jsonArray.size
            }
        }
        println("[lifecycle paths] ${Protocols.lifecycles.size} machines, $steps steps replayed")
        counter.finish()
    }

    private fun replay(machine: LifecycleMachine<*, *, *, *>, label: String, case: JsonObject) {
        var state = machine.initial.wireName
        for ((index, step) in case.getValue("steps").jsonArray.map { it.jsonObject }.withIndex()) {
            val guards = step.getValue("guards").jsonObject.mapValues { it.value.jsonPrimitive.boolean }
            val outcome = machine.transitionByName(state, step.string("event"), guards)
            val expect = step.getValue("expect").jsonObject
            assertEquals(describe(expect), describe(outcome), "$label step $index")
            if (outcome is Outcome.Moved<*, *>) state = (outcome.to as LifecycleName).wireName
        }
    }

    private fun describe(expect: JsonObject): String = if (expect.getValue("ok").jsonPrimitive.boolean) {
        "moved to ${expect.string("state")} effects ${expect.getValue("effects").jsonArray.map { it.jsonPrimitive.content }}"
    } else {
        "refused ${expect.string("refusal")} guard ${expect.stringOrNull("guard")}"
    }

    private fun describe(outcome: Outcome<*, *>): String = when (outcome) {
        is Outcome.Moved<*, *> -> "moved to ${(outcome.to as LifecycleName).wireName} effects ${outcome.effects.map { (it as LifecycleName).wireName }}"
        is Outcome.Refused -> "refused ${outcome.reason.wireName} guard ${outcome.guard}"
    }

    @Test
    fun `the typed API refuses and moves with enum values`() {
        val moved = TrustLifecycle.transition(TrustLifecycle.State.IMPORTED, TrustLifecycle.Event.APPROVE)
        assertEquals(Outcome.Moved(TrustLifecycle.State.APPROVED, listOf(TrustLifecycle.Effect.AUDIT_APPROVED)), moved)
        assertEquals(true, TrustLifecycle.isTerminal(TrustLifecycle.State.REMOVED))
        assertEquals(emptyList<TrustLifecycle.Event>(), TrustLifecycle.allowedEvents(TrustLifecycle.State.REMOVED))
        val refused = TrustLifecycle.transition(TrustLifecycle.State.REMOVED, TrustLifecycle.Event.APPROVE)
        assertEquals(Outcome.Refused(dev.agentcontracts.runtime.RefusalReason.TERMINAL), refused)
    }
}
