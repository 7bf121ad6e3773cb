package dev.agentcontracts.runtime

/** A state, event, guard or effect of a generated lifecycle: its name in the spec and on the wire. */
interface LifecycleName {
    val wireName: String
}

/** Why `transition` refused; the same words in every language (generators/lifecycles/types.ts). */
enum class RefusalReason(val wireName: String) {
    TERMINAL("terminal"),
    EVENT_NOT_ALLOWED("event_not_allowed"),
    GUARD_MISSING("guard_missing"),
    GUARD_FAILED("guard_failed"),
    GUARDS_CONFLICT("guards_conflict"),
}

sealed interface Outcome<out S, out F> {
    /** The transition fired: the next state and the effects it must have, in spec order. */
    data class Moved<S, F>(val to: S, val effects: List<F>) : Outcome<S, F>

    /**
     * The event was refused and the state is unchanged. [guard] is, for guard_missing, the guard's
     * name; for guard_failed, the failing literal (`name` or `not name`).
     */
    data class Refused(val reason: RefusalReason, val guard: String? = null) : Outcome<Nothing, Nothing>
}

/**
 * A lifecycle state machine generated from spec/<protocol>/lifecycles/<name>.machine.yaml. The
 * generated object holds the tables; this class holds the one meaning of `transition`, the same
 * as generators/lifecycles/semantics.ts and the TypeScript lifecycle-runner:
 *
 * 1. a terminal state refuses every event (terminal);
 * 2. no transition from the state on the event (event_not_allowed);
 * 3. a guard some candidate names has no value (guard_missing, the first in spec order);
 * 4. no candidate's guards all hold (guard_failed, the first candidate's first failing literal);
 * 5. more than one candidate holds (guards_conflict);
 * 6. otherwise the one candidate fires.
 */
class LifecycleMachine<S : LifecycleName, E : LifecycleName, G : LifecycleName, F : LifecycleName>(
    val protocol: String,
    val name: String,
    val initial: S,
    val states: List<S>,
    val terminal: Set<S>,
    val events: List<E>,
    val guards: List<G>,
    val transitions: List<Transition<S, E, G, F>>,
) {
    data class Literal<G : LifecycleName>(val guard: G, val negated: Boolean = false) {
        val text: String get() = if (negated) "not ${guard.wireName}" else guard.wireName
    }

    data class Transition<S, E, G : LifecycleName, F>(val from: S, val event: E, val to: S, val guards: List<Literal<G>>, val effects: List<F>)

    private val byPair: Map<Pair<S, E>, List<Transition<S, E, G, F>>> = transitions.groupBy { it.from to it.event }

    fun transition(state: S, event: E, guardValues: Map<G, Boolean> = emptyMap()): Outcome<S, F> {
        if (state in terminal) return Outcome.Refused(RefusalReason.TERMINAL)
        val candidates = byPair[state to event] ?: return Outcome.Refused(RefusalReason.EVENT_NOT_ALLOWED)
        for (candidate in candidates) {
            val missing = candidate.guards.firstOrNull { it.guard !in guardValues }
            if (missing != null) return Outcome.Refused(RefusalReason.GUARD_MISSING, missing.guard.wireName)
        }
        val passing = candidates.filter { t -> t.guards.all { guardValues.getValue(it.guard) != it.negated } }
        return when (passing.size) {
            0 -> Outcome.Refused(RefusalReason.GUARD_FAILED, candidates.first().guards.first { guardValues.getValue(it.guard) == it.negated }.text)
            1 -> Outcome.Moved(passing.single().to, passing.single().effects)
            else -> Outcome.Refused(RefusalReason.GUARDS_CONFLICT)
        }
    }

    /** Events with at least one transition from [state] (guards aside), in spec order. */
    fun allowedEvents(state: S): List<E> = events.filter { (state to it) in byPair }

    fun isTerminal(state: S): Boolean = state in terminal

    fun state(wireName: String): S = states.firstOrNull { it.wireName == wireName } ?: unknown("state", wireName)

    fun event(wireName: String): E = events.firstOrNull { it.wireName == wireName } ?: unknown("event", wireName)

    fun guard(wireName: String): G = guards.firstOrNull { it.wireName == wireName } ?: unknown("guard", wireName)

    /** [transition] by wire names, for callers holding strings (a name the machine lacks throws). */
    fun transitionByName(state: String, event: String, guardValues: Map<String, Boolean>): Outcome<S, F> =
        transition(state(state), event(event), guardValues.mapKeys { guard(it.key) })

    private fun unknown(kind: String, wireName: String): Nothing =
        throw IllegalArgumentException("$protocol/$name: unknown $kind \"$wireName\"")
}
