// The one meaning of a lifecycle transition, the same in every language
// (generators/lifecycles/semantics.ts). Generated machines hold only tables.
//   1. a terminal state refuses every event                          -> terminal
//   2. no transition from the state on the event                     -> event_not_allowed
//   3. a guard some candidate transition names has no value          -> guard_missing
//   4. no candidate's guards all hold                                -> guard_failed
//   5. more than one candidate holds (exclusive guards both true)    -> guards_conflict
//   6. otherwise the one candidate fires: its target state and its effects.

import Foundation

/// Why a transition was refused; `rawValue` is the word every language uses.
public enum RefusalReason: String, Sendable, CaseIterable {
    case terminal
    case eventNotAllowed = "event_not_allowed"
    case guardMissing = "guard_missing"
    case guardFailed = "guard_failed"
    case guardsConflict = "guards_conflict"
}

/// One conjunct of a transition's guards: the guard must hold, or must not when `negated` (the
/// spec's `guard` / `not guard`; Kotlin's LifecycleMachine.Literal).
public struct GuardLiteral<Guard: Hashable & Sendable>: Hashable, Sendable {
    public let `guard`: Guard
    public let negated: Bool

    public static func holds(_ guard: Guard) -> GuardLiteral {
        GuardLiteral(guard: `guard`, negated: false)
    }

    public static func not(_ guard: Guard) -> GuardLiteral {
        GuardLiteral(guard: `guard`, negated: true)
    }
}

public struct LifecycleTransition<State: Hashable & Sendable, Event: Hashable & Sendable, Guard: Hashable & Sendable, Effect: Hashable & Sendable>: Sendable {
    public let from: State
    public let event: Event
    public let to: State
    /// All must hold, in this order; the first that fails is reported.
    public let guards: [GuardLiteral<Guard>]
    /// Side effects the transition must have, in spec order.
    public let effects: [Effect]

    public init(from: State, event: Event, to: State, guards: [GuardLiteral<Guard>] = [], effects: [Effect] = []) {
        self.from = from
        self.event = event
        self.to = to
        self.guards = guards
        self.effects = effects
    }
}

public enum TransitionOutcome<State: Hashable & Sendable, Effect: Hashable & Sendable>: Equatable, Sendable {
    /// The event fired: the next state and the effects to carry out.
    case transitioned(to: State, effects: [Effect])
    /// The event was refused; the state is unchanged. `guard` names the missing guard, or the
    /// failing literal (`name` or `not name`).
    case refused(RefusalReason, guard: String?)
}

/// Names on the wire: states, events, guards and effects are string-valued enums.
public typealias LifecycleName = RawRepresentable & Hashable & CaseIterable & Sendable

/// A state machine generated from spec/<protocol>/lifecycles/<name>.machine.yaml.
public protocol LifecycleMachine {
    associatedtype State: LifecycleName where State.RawValue == String
    associatedtype Event: LifecycleName where Event.RawValue == String
    associatedtype Guard: LifecycleName where Guard.RawValue == String
    associatedtype Effect: LifecycleName where Effect.RawValue == String

    static var protocolID: String { get }
    static var name: String { get }
    static var initial: State { get }
    static var terminalStates: Set<State> { get }
    /// In spec order.
    static var transitions: [LifecycleTransition<State, Event, Guard, Effect>] { get }
}

extension LifecycleMachine {
    public static func isTerminal(_ state: State) -> Bool {
        terminalStates.contains(state)
    }

    /// Events with at least one transition from `state` (guards aside), in declaration order.
    public static func allowedEvents(in state: State) -> [Event] {
        Event.allCases.filter { event in transitions.contains { $0.from == state && $0.event == event } }
    }

    /// Applies `event` in `state`; `guards` holds the caller's value of each guard the candidates name.
    public static func transition(from state: State, on event: Event, guards: [Guard: Bool] = [:]) -> TransitionOutcome<State, Effect> {
        if terminalStates.contains(state) { return .refused(.terminal, guard: nil) }
        let candidates = transitions.filter { $0.from == state && $0.event == event }
        guard let first = candidates.first else { return .refused(.eventNotAllowed, guard: nil) }
        for candidate in candidates {
            for literal in candidate.guards where guards[literal.guard] == nil {
                return .refused(.guardMissing, guard: literal.guard.rawValue)
            }
        }
        let passing = candidates.filter { candidate in
            candidate.guards.allSatisfy { guards[$0.guard] != $0.negated }
        }
        if passing.isEmpty {
            let failed = first.guards.first { guards[$0.guard] == $0.negated }
            let text = failed.map { ($0.negated ? "not " : "") + $0.guard.rawValue }
            return .refused(.guardFailed, guard: text)
        }
        if passing.count > 1 { return .refused(.guardsConflict, guard: nil) }
        return .transitioned(to: passing[0].to, effects: passing[0].effects)
    }
}
