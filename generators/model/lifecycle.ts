// The lifecycle part of the IR: one checked state machine per
// spec/<protocol>/lifecycles/<name>.machine.yaml. Emitters and the paths builder read only this.
import type { Divergence, DocumentRef, SourceLocation } from "./source.js";

export interface LifecycleState {
  /** snake_case; the state's name on the wire and in every language. */
  name: string;
  description: string;
  terminal: boolean;
  /** Declared long-lived: a non-terminal state that need not reach a terminal one. */
  longLived: boolean;
  location: SourceLocation;
}

export interface LifecycleEvent {
  /** snake_case. */
  name: string;
  description: string;
  /** The message (spec/<protocol>/messages/<Name>.yaml) that carries the event, if any. */
  message?: string;
  location: SourceLocation;
}

/** A named condition the caller evaluates; its meaning is the description. camelCase. */
export interface LifecycleGuard {
  name: string;
  description: string;
  location: SourceLocation;
}

/** A side effect a transition must have (e.g. "append audit entry"). camelCase. */
export interface LifecycleEffect {
  name: string;
  description: string;
  location: SourceLocation;
}

/** One conjunct of a transition's guard: `name` or `not name`. */
export interface GuardLiteral {
  guard: string;
  negated: boolean;
}

export interface LifecycleTransition {
  from: string;
  event: string;
  to: string;
  /** All must hold (in this order; the first that fails is reported). Empty: unguarded. */
  guards: GuardLiteral[];
  effects: string[];
  description?: string;
  /** Where the transition is written (a `from` list expands to one transition per state). */
  location: SourceLocation;
}

export interface Lifecycle {
  kind: "lifecycle";
  protocol: string;
  /** kebab-case; equals the file name without `.machine.yaml`. */
  name: string;
  title: string;
  description: string;
  /** Whose state this is (host, provider, agent, runtime, ...). */
  role: string;
  initial: string;
  /** In file order. */
  states: LifecycleState[];
  events: LifecycleEvent[];
  guards: LifecycleGuard[];
  effects: LifecycleEffect[];
  /** Groups of guards of which at most one holds at a time (declared by the spec). */
  mutuallyExclusive: string[][];
  /** In file order, `from` lists expanded in their order. */
  transitions: LifecycleTransition[];
  divergences: Divergence[];
  sources: DocumentRef[];
  location: SourceLocation;
}

/** Why `transition(state, event, guards)` refused; the same words in every language. */
export type RefusalReason = "terminal" | "event_not_allowed" | "guard_missing" | "guard_failed" | "guards_conflict";

export const REFUSAL_REASONS: readonly RefusalReason[] = [
  "terminal",
  "event_not_allowed",
  "guard_missing",
  "guard_failed",
  "guards_conflict",
];

export function literalText(literal: GuardLiteral): string {
  return literal.negated ? `not ${literal.guard}` : literal.guard;
}
