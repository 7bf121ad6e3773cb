// Runs a lifecycle state machine generated from spec/<protocol>/lifecycles/<name>.machine.yaml.
// The generated module holds the tables; this file holds the one meaning of `transition`, the
// same in every language (spec: generators/lifecycles/semantics.ts):
//   1. a terminal state refuses every event                          -> "terminal"
//   2. no transition from the state on the event                     -> "event_not_allowed"
//   3. a guard some candidate transition names has no boolean value  -> "guard_missing"
//   4. no candidate's guards all hold                                -> "guard_failed"
//   5. more than one candidate holds (exclusive guards both true)    -> "guards_conflict"
//   6. otherwise the one candidate fires: its target state and its effects.

export type RefusalReason = "terminal" | "event_not_allowed" | "guard_missing" | "guard_failed" | "guards_conflict";

/** One conjunct of a transition's guard: the guard must be true, or false when `negated`. */
export interface GuardLiteral<G extends string> {
  readonly guard: G;
  readonly negated: boolean;
}

export interface MachineTransition<S extends string, E extends string, G extends string, F extends string> {
  readonly from: S;
  readonly event: E;
  readonly to: S;
  readonly guards: readonly GuardLiteral<G>[];
  readonly effects: readonly F[];
}

export interface MachineDefinition<S extends string, E extends string, G extends string, F extends string> {
  readonly protocol: string;
  readonly name: string;
  readonly initial: S;
  readonly states: readonly S[];
  readonly terminal: readonly S[];
  readonly events: readonly E[];
  readonly guards: readonly G[];
  readonly effects: readonly F[];
  readonly transitions: readonly MachineTransition<S, E, G, F>[];
}

/** The caller's evaluation of the guards; a guard a candidate transition needs must be present. */
export type GuardValues<G extends string> = Partial<Readonly<Record<G, boolean>>>;

export interface Transitioned<S extends string, E extends string, F extends string> {
  readonly ok: true;
  readonly from: S;
  readonly event: E;
  /** The next state. */
  readonly state: S;
  /** The side effects the transition must have, in spec order. */
  readonly effects: readonly F[];
}

export interface Refused<S extends string, E extends string> {
  readonly ok: false;
  readonly from: S;
  readonly event: E;
  /** Unchanged: a refused event leaves the state as it was. */
  readonly state: S;
  readonly refusal: RefusalReason;
  /** For guard_missing the guard's name; for guard_failed the failing literal (`name` or `not name`). */
  readonly guard?: string;
}

export type TransitionOutcome<S extends string, E extends string, F extends string> = Transitioned<S, E, F> | Refused<S, E>;

export interface Machine<S extends string, E extends string, G extends string, F extends string> {
  readonly definition: MachineDefinition<S, E, G, F>;
  transition(state: S, event: E, guards?: GuardValues<G>): TransitionOutcome<S, E, F>;
  /** Events with at least one transition from `state` (guards aside), in spec order. */
  allowedEvents(state: S): readonly E[];
  isTerminal(state: S): boolean;
  isState(value: unknown): value is S;
  isEvent(value: unknown): value is E;
}

/** Thrown for a state or event name the machine does not have: a programming error, not a refusal. */
export class UnknownLifecycleNameError extends Error {
  readonly machine: string;
  readonly kind: "state" | "event";
  readonly value: unknown;

  constructor(machine: string, kind: "state" | "event", value: unknown) {
    super(`${machine}: unknown ${kind} ${JSON.stringify(value)}`);
    this.name = "UnknownLifecycleNameError";
    this.machine = machine;
    this.kind = kind;
    this.value = value;
  }
}

function literalText(literal: GuardLiteral<string>): string {
  return literal.negated ? `not ${literal.guard}` : literal.guard;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const member of Object.values(value as object)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** Builds the machine for a generated definition; the definition is deep-frozen, not copied. */
export function lifecycleMachine<S extends string, E extends string, G extends string, F extends string>(
  definition: MachineDefinition<S, E, G, F>,
): Machine<S, E, G, F> {
  deepFreeze(definition);
  const label = `${definition.protocol}/${definition.name}`;
  const stateSet = new Set<string>(definition.states);
  const eventSet = new Set<string>(definition.events);
  const terminalSet = new Set<string>(definition.terminal);
  const byPair = new Map<string, MachineTransition<S, E, G, F>[]>();
  for (const t of definition.transitions) {
    const key = `${t.from}\u0000${t.event}`;
    const list = byPair.get(key);
    if (list) list.push(t);
    else byPair.set(key, [t]);
  }
  const allowed = new Map<S, readonly E[]>();
  for (const s of definition.states) {
    allowed.set(s, Object.freeze(definition.events.filter((e) => byPair.has(`${s}\u0000${e}`))));
  }

  const isState = (value: unknown): value is S => typeof value === "string" && stateSet.has(value);
  const isEvent = (value: unknown): value is E => typeof value === "string" && eventSet.has(value);
  const checkState = (state: S): void => {
    if (!isState(state)) throw new UnknownLifecycleNameError(label, "state", state);
  };

  function transition(state: S, event: E, guards: GuardValues<G> = {}): TransitionOutcome<S, E, F> {
    checkState(state);
    if (!isEvent(event)) throw new UnknownLifecycleNameError(label, "event", event);
    const refuse = (refusal: RefusalReason, guard?: string): Refused<S, E> =>
      guard === undefined ? { ok: false, from: state, event, state, refusal } : { ok: false, from: state, event, state, refusal, guard };
    if (terminalSet.has(state)) return refuse("terminal");
    const candidates = byPair.get(`${state}\u0000${event}`);
    if (candidates === undefined) return refuse("event_not_allowed");
    const values = guards as Partial<Record<string, boolean>>;
    for (const t of candidates) {
      for (const l of t.guards) {
        if (typeof values[l.guard] !== "boolean") return refuse("guard_missing", l.guard);
      }
    }
    const holds = (t: MachineTransition<S, E, G, F>): boolean => t.guards.every((l) => values[l.guard] !== l.negated);
    const passing = candidates.filter(holds);
    if (passing.length === 0) {
      const failed = candidates[0]!.guards.find((l) => values[l.guard] === l.negated)!;
      return refuse("guard_failed", literalText(failed));
    }
    if (passing.length > 1) return refuse("guards_conflict");
    const t = passing[0]!;
    return { ok: true, from: state, event, state: t.to, effects: t.effects };
  }

  return Object.freeze({
    definition,
    transition,
    allowedEvents(state: S): readonly E[] {
      checkState(state);
      return allowed.get(state)!;
    },
    isTerminal(state: S): boolean {
      checkState(state);
      return terminalSet.has(state);
    },
    isState,
    isEvent,
  });
}

/**
 * The former name of lifecycleMachine, kept for code written against 0.1.0.
 * @deprecated Renamed lifecycleMachine, the runtime contract's name in every language (the other
 * runtimes' LifecycleMachine); see the changelog.
 */
export const defineMachine: typeof lifecycleMachine = lifecycleMachine;
