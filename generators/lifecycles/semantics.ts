// What `transition(state, event, guards)` means, stated once on the IR. The paths builder derives
// every expected outcome from this; each language's generated machine must agree with it.
//
// 1. A terminal state refuses every event (`terminal`).
// 2. No transition from the state on the event: `event_not_allowed`.
// 3. A guard named by any candidate transition has no value: `guard_missing` (first in file order).
// 4. No candidate's guards all hold: `guard_failed`, naming the first failing literal of the first
//    candidate.
// 5. More than one candidate holds (the caller's guard values break a declared exclusion):
//    `guards_conflict`.
// 6. Otherwise the one candidate fires: the next state and its effects, in file order.
import type { Lifecycle, LifecycleTransition, RefusalReason } from "../model/lifecycle.js";
import { literalText } from "../model/lifecycle.js";

export type GuardValues = Readonly<Record<string, boolean>>;

export type Outcome =
  | { ok: true; state: string; effects: string[]; transition: LifecycleTransition }
  | { ok: false; state: string; refusal: RefusalReason; guard?: string };

export function candidates(lifecycle: Lifecycle, state: string, event: string): LifecycleTransition[] {
  return lifecycle.transitions.filter((t) => t.from === state && t.event === event);
}

export function evaluate(lifecycle: Lifecycle, state: string, event: string, guards: GuardValues): Outcome {
  const s = lifecycle.states.find((x) => x.name === state);
  if (!s) throw new RangeError(`unknown state ${state}`);
  if (!lifecycle.events.some((e) => e.name === event)) throw new RangeError(`unknown event ${event}`);
  if (s.terminal) return { ok: false, state, refusal: "terminal" };
  const list = candidates(lifecycle, state, event);
  if (list.length === 0) return { ok: false, state, refusal: "event_not_allowed" };
  for (const t of list) {
    for (const l of t.guards) {
      if (typeof guards[l.guard] !== "boolean") return { ok: false, state, refusal: "guard_missing", guard: l.guard };
    }
  }
  const holds = (t: LifecycleTransition): boolean => t.guards.every((l) => guards[l.guard] !== l.negated);
  const passing = list.filter(holds);
  if (passing.length === 0) {
    const failed = list[0]!.guards.find((l) => guards[l.guard] === l.negated)!;
    return { ok: false, state, refusal: "guard_failed", guard: literalText(failed) };
  }
  if (passing.length > 1) return { ok: false, state, refusal: "guards_conflict" };
  const t = passing[0]!;
  return { ok: true, state: t.to, effects: [...t.effects], transition: t };
}

/** Events with at least one transition from `state`, in the order events are declared. */
export function allowedEvents(lifecycle: Lifecycle, state: string): string[] {
  return lifecycle.events.filter((e) => lifecycle.transitions.some((t) => t.from === state && t.event === e.name)).map((e) => e.name);
}
