package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * Semver.compare against SemVer 2.0.0 § 11 (its example chain, build metadata ignored, identifier
 * classes) and LifecycleMachine on a machine written here against the one meaning of `transition`
 * (generators/lifecycles/semantics.ts: terminal, event_not_allowed, guard_missing, guard_failed,
 * guards_conflict, else the one candidate). The same tables as the TypeScript kill tests.
 */
class SemverLifecycleMutationKillsTest {
    @Test
    fun `the specification's example order, every pair both ways`() {
        val chain = listOf("1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0")
        for (i in chain.indices) for (j in chain.indices) assertEquals(i.compareTo(j).coerceIn(-1, 1), Semver.compare(chain[i], chain[j]), "${chain[i]} vs ${chain[j]}")
    }

    @Test
    fun `build metadata, big numbers, identifier classes, invalid text`() {
        assertEquals(0, Semver.compare("1.0.0+a.1", "1.0.0+b"))
        assertEquals(1, Semver.compare("18446744073709551616.0.0", "18446744073709551615.0.0"))
        assertEquals(-1, Semver.compare("1.0.0-2", "1.0.0-10"))
        assertEquals(-1, Semver.compare("1.0.0-B", "1.0.0-a"))
        assertEquals(1, Semver.compare("1.0.0-b9", "1.0.0-a"))
        assertEquals(-1, Semver.compare("1.0.0-10", "1.0.0-a"))
        assertEquals(1, Semver.compare("1.0.0-a", "1.0.0-10"))
        assertEquals(1, Semver.compare("1.0.0-a.b", "1.0.0-a"))
        assertEquals(-1, Semver.compare("1.0.0-a", "1.0.0-a.b"))
        assertEquals(1, Semver.compare("1.0.10", "1.0.9"))
        // SemVer 2.0.0 § 9: "Numeric identifiers MUST NOT include leading zeroes"; "0" and "0a" are valid.
        for (bad in listOf("1.0", "01.0.0", "1.00.0", "1.0.0-01", "1.0.0-alpha.01", "1.0.0-", "1.0.0+", "v1.0.0", "1.0.0-a..b", " 1.0.0", "1.0.0 ")) {
            assertNull(Semver.compare(bad, "1.0.0"), bad)
            assertNull(Semver.compare("1.0.0", bad), bad)
        }
        assertNull(Semver.compare("1.0.0-a.01", "1.0.0-b.1"), "the leading zero follows the deciding identifier")
        assertNull(Semver.compare("2.0.0-01", "1.0.0"), "the leading zero follows the deciding major")
        assertEquals(-1, Semver.compare("1.0.0-0", "1.0.0-0a"))
        assertEquals(-1, Semver.compare("1.0.0-0", "1.0.0-1"))
        assertEquals(1, Semver.compare("1.0.0-0a", "1.0.0-0"))
        assertNull(Semver.compare("1.0.0-x.01", "1.0.0-x.1"))
        assertNull(Semver.compare("1.0.0-x.1", "1.0.0-x.01"))
    }

    private enum class St(override val wireName: String) : LifecycleName { A("a"), B("b"), C("c"), DONE("done") }
    private enum class Ev(override val wireName: String) : LifecycleName { GO("go"), STOP("stop"), IDLE("idle") }
    private enum class Gd(override val wireName: String) : LifecycleName { X("x"), Y("y") }
    private enum class Ef(override val wireName: String) : LifecycleName { F1("f1"), F2("f2") }
    private fun lit(g: Gd, negated: Boolean = false) = LifecycleMachine.Literal(g, negated)
    private val m = LifecycleMachine<St, Ev, Gd, Ef>(
        protocol = "p", name = "m", initial = St.A, states = St.entries.toList(), terminal = setOf(St.DONE), events = Ev.entries.toList(), guards = Gd.entries.toList(),
        transitions = listOf(
            LifecycleMachine.Transition(St.A, Ev.GO, St.B, listOf(lit(Gd.X)), listOf(Ef.F2, Ef.F1)),
            LifecycleMachine.Transition(St.A, Ev.GO, St.C, listOf(lit(Gd.X, true), lit(Gd.Y)), emptyList()),
            LifecycleMachine.Transition(St.B, Ev.GO, St.C, listOf(lit(Gd.X)), listOf(Ef.F1)),
            LifecycleMachine.Transition(St.B, Ev.GO, St.A, listOf(lit(Gd.Y)), emptyList()),
            LifecycleMachine.Transition(St.A, Ev.STOP, St.DONE, emptyList(), listOf(Ef.F1)),
            LifecycleMachine.Transition(St.C, Ev.STOP, St.DONE, emptyList(), emptyList()),
        ),
    )

    @Test
    fun `transition - each refusal in order, else the one candidate with its effects`() {
        assertEquals(Outcome.Moved(St.B, listOf(Ef.F2, Ef.F1)), m.transition(St.A, Ev.GO, mapOf(Gd.X to true, Gd.Y to false)))
        assertEquals(Outcome.Moved(St.C, emptyList<Ef>()), m.transition(St.A, Ev.GO, mapOf(Gd.X to false, Gd.Y to true)))
        assertEquals(Outcome.Refused(RefusalReason.TERMINAL), m.transition(St.DONE, Ev.GO, mapOf(Gd.X to true, Gd.Y to true)))
        assertEquals(Outcome.Refused(RefusalReason.EVENT_NOT_ALLOWED), m.transition(St.A, Ev.IDLE))
        assertEquals(Outcome.Refused(RefusalReason.GUARD_MISSING, "y"), m.transition(St.A, Ev.GO, mapOf(Gd.X to true)))
        assertEquals(Outcome.Refused(RefusalReason.GUARD_FAILED, "x"), m.transition(St.A, Ev.GO, mapOf(Gd.X to false, Gd.Y to false)))
        assertEquals(Outcome.Refused(RefusalReason.GUARDS_CONFLICT), m.transition(St.B, Ev.GO, mapOf(Gd.X to true, Gd.Y to true)))
        assertEquals(Outcome.Moved(St.DONE, listOf(Ef.F1)), m.transitionByName("a", "stop", emptyMap()))
        val negated = LifecycleMachine<St, Ev, Gd, Ef>(
            protocol = "p", name = "n", initial = St.A, states = St.entries.toList(), terminal = emptySet(), events = Ev.entries.toList(), guards = Gd.entries.toList(),
            transitions = listOf(LifecycleMachine.Transition(St.A, Ev.GO, St.B, listOf(lit(Gd.Y), lit(Gd.X, true)), emptyList())),
        )
        assertEquals(Outcome.Refused(RefusalReason.GUARD_FAILED, "not x"), negated.transition(St.A, Ev.GO, mapOf(Gd.X to true, Gd.Y to true)))
    }

    @Test
    fun `queries, names and the machine's own fields`() {
        assertEquals(listOf(Ev.GO, Ev.STOP), m.allowedEvents(St.A))
        assertEquals(listOf(Ev.GO), m.allowedEvents(St.B))
        assertEquals(emptyList<Ev>(), m.allowedEvents(St.DONE))
        assertTrue(m.isTerminal(St.DONE))
        assertFalse(m.isTerminal(St.A))
        assertEquals(St.C, m.state("c"))
        assertEquals(Ev.IDLE, m.event("idle"))
        assertEquals(Gd.Y, m.guard("y"))
        assertEquals("p/m: unknown state \"zz\"", assertThrows<IllegalArgumentException> { m.state("zz") }.message)
        assertEquals("p/m: unknown event \"fly\"", assertThrows<IllegalArgumentException> { m.event("fly") }.message)
        assertEquals("p/m: unknown guard \"w\"", assertThrows<IllegalArgumentException> { m.guard("w") }.message)
        assertEquals(listOf("p", "m"), listOf(m.protocol, m.name))
        assertEquals(setOf(St.DONE), m.terminal)
        assertEquals(Gd.entries.toList(), m.guards)
        assertEquals(6, m.transitions.size)
        assertEquals(St.A, m.transitions[0].from)
        assertEquals(Ev.GO, m.transitions[0].event)
        assertEquals("not x", lit(Gd.X, true).text)
        assertEquals("x", lit(Gd.X).text)
    }

    @Test
    fun `outcomes and the machine's lists read back what they hold`() {
        // The refusal words of generators/lifecycles/README.md (the same in every language), in its order.
        assertEquals(
            listOf("terminal", "event_not_allowed", "guard_missing", "guard_failed", "guards_conflict"),
            RefusalReason.entries.map { it.wireName },
        )
        val moved = m.transition(St.A, Ev.GO, mapOf(Gd.X to true, Gd.Y to false)) as Outcome.Moved
        assertEquals(St.B, moved.to)
        assertEquals(listOf(Ef.F2, Ef.F1), moved.effects)
        val refused = m.transition(St.A, Ev.GO, mapOf(Gd.X to true)) as Outcome.Refused
        assertEquals(RefusalReason.GUARD_MISSING, refused.reason)
        assertEquals("y", refused.guard)
        assertEquals(listOf(St.A, St.B, St.C, St.DONE), m.states)
        assertEquals(listOf(Ev.GO, Ev.STOP, Ev.IDLE), m.events)
    }
}
