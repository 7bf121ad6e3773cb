//! The one meaning of a lifecycle transition, the same in every language
//! (generators/lifecycles/semantics.ts). Generated machines hold only tables.
//!   1. a terminal state refuses every event                          -> terminal
//!   2. no transition from the state on the event                     -> event_not_allowed
//!   3. a guard some candidate transition names has no value          -> guard_missing
//!   4. no candidate's guards all hold                                -> guard_failed
//!   5. more than one candidate holds (exclusive guards both true)    -> guards_conflict
//!   6. otherwise the one candidate fires: its target state and its effects.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

/// Why a transition was refused; `as_str` is the word every language uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalReason {
    Terminal,
    EventNotAllowed,
    GuardMissing,
    GuardFailed,
    GuardsConflict,
}

impl RefusalReason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Terminal => "terminal",
            Self::EventNotAllowed => "event_not_allowed",
            Self::GuardMissing => "guard_missing",
            Self::GuardFailed => "guard_failed",
            Self::GuardsConflict => "guards_conflict",
        }
    }
}

/// A name on the wire: states, events, guards and effects are enums with a snake_case or camelCase text.
pub trait LifecycleName: Copy + Eq + Hash + Debug + 'static {
    const ALL: &'static [Self];
    fn as_str(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|value| value.as_str() == name)
    }
}

/// One conjunct of a transition's guards: the guard must hold, or must not when `negated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardLiteral<G> {
    pub guard: G,
    pub negated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition<S: 'static, E: 'static, G: 'static, F: 'static> {
    pub from: S,
    pub event: E,
    pub to: S,
    /// All must hold, in this order; the first that fails is reported.
    pub guards: &'static [GuardLiteral<G>],
    /// Side effects the transition must have, in spec order.
    pub effects: &'static [F],
}

/// The event fired: the next state and the effects to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transitioned<S, F: 'static> {
    pub to: S,
    pub effects: &'static [F],
}

/// The event was refused; the state is unchanged. `guard` names the missing guard, or the failing
/// literal (`name` or `not name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub reason: RefusalReason,
    pub guard: Option<String>,
}

/// The transition table type of a machine.
pub type TransitionTable<M> = &'static [Transition<<M as LifecycleMachine>::State, <M as LifecycleMachine>::Event, <M as LifecycleMachine>::Guard, <M as LifecycleMachine>::Effect>];

/// A state machine generated from spec/<protocol>/lifecycles/<name>.machine.yaml.
pub trait LifecycleMachine {
    type State: LifecycleName;
    type Event: LifecycleName;
    type Guard: LifecycleName;
    type Effect: LifecycleName;
    const PROTOCOL: &'static str;
    const NAME: &'static str;
    const INITIAL: Self::State;
    const TERMINAL: &'static [Self::State];
    /// In spec order.
    const TRANSITIONS: TransitionTable<Self>;

    fn is_terminal(state: Self::State) -> bool {
        Self::TERMINAL.contains(&state)
    }

    /// Events with at least one transition from `state` (guards aside), in declaration order.
    fn allowed_events(state: Self::State) -> Vec<Self::Event> {
        Self::Event::ALL.iter().copied().filter(|event| Self::TRANSITIONS.iter().any(|t| t.from == state && t.event == *event)).collect()
    }

    /// Applies `event` in `state`; `guards` holds the caller's value of each guard the candidates name.
    fn transition(state: Self::State, event: Self::Event, guards: &HashMap<Self::Guard, bool>) -> Result<Transitioned<Self::State, Self::Effect>, Refused> {
        if Self::is_terminal(state) {
            return Err(Refused { reason: RefusalReason::Terminal, guard: None });
        }
        let candidates: Vec<_> = Self::TRANSITIONS.iter().filter(|t| t.from == state && t.event == event).collect();
        let Some(first) = candidates.first() else {
            return Err(Refused { reason: RefusalReason::EventNotAllowed, guard: None });
        };
        for candidate in &candidates {
            if let Some(literal) = candidate.guards.iter().find(|literal| !guards.contains_key(&literal.guard)) {
                return Err(Refused { reason: RefusalReason::GuardMissing, guard: Some(literal.guard.as_str().to_string()) });
            }
        }
        let holds = |literal: &GuardLiteral<Self::Guard>| guards.get(&literal.guard) != Some(&literal.negated);
        let passing: Vec<_> = candidates.iter().filter(|candidate| candidate.guards.iter().all(holds)).collect();
        match passing.as_slice() {
            [] => {
                let failed = first.guards.iter().find(|literal| !holds(literal));
                let text = failed.map(|literal| format!("{}{}", if literal.negated { "not " } else { "" }, literal.guard.as_str()));
                Err(Refused { reason: RefusalReason::GuardFailed, guard: text })
            }
            [one] => Ok(Transitioned { to: one.to, effects: one.effects }),
            _ => Err(Refused { reason: RefusalReason::GuardsConflict, guard: None }),
        }
    }
}
