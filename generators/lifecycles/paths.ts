// Builds spec/<protocol>/lifecycles/<name>.paths.json: a language-neutral suite of event
// sequences that covers every (state, event) pair of a machine, allowed transitions and refusals,
// with the outcome each step must have. Every language's machine replays it.
//
// Each case starts in the initial state, walks the shortest path (in file order) to its state, then
// applies its event once. For a pair with transitions there is one case per transition (guards set
// so that exactly it fires), and where possible one with no guard values (`guard_missing`), one
// where no guard holds (`guard_failed`) and one where two exclusive guards both hold
// (`guards_conflict`). A pair without transitions gets one refusal case.
import type { JsonValue, OutputFile } from "../model/types.js";
import { candidates, evaluate, type GuardValues } from "./semantics.js";
import type { Lifecycle, LifecycleTransition } from "../model/lifecycle.js";

export const PATHS_FORMAT_VERSION = 1;

interface Step {
  event: string;
  guards: Record<string, boolean>;
  expect: { [key: string]: JsonValue };
}

function guardNamesAt(lifecycle: Lifecycle, state: string, event: string): string[] {
  const names = new Set<string>();
  for (const t of candidates(lifecycle, state, event)) for (const l of t.guards) names.add(l.guard);
  // Declared order keeps the bytes stable and readable.
  return lifecycle.guards.map((g) => g.name).filter((g) => names.has(g));
}

/** Guard values under which exactly `t` fires. */
export function guardsFor(lifecycle: Lifecycle, t: LifecycleTransition): Record<string, boolean> {
  const values: Record<string, boolean> = {};
  for (const g of guardNamesAt(lifecycle, t.from, t.event)) values[g] = false;
  for (const l of t.guards) values[l.guard] = !l.negated;
  const out = evaluate(lifecycle, t.from, t.event, values);
  if (!out.ok || out.transition !== t) {
    throw new Error(`${lifecycle.protocol}/${lifecycle.name}: no guard values make only the transition ${t.from} --${t.event}--> ${t.to} fire`);
  }
  return values;
}

function* assignments(names: string[]): Generator<Record<string, boolean>> {
  const n = names.length;
  for (let bits = 0; bits < 1 << n; bits++) {
    const values: Record<string, boolean> = {};
    names.forEach((g, i) => (values[g] = (bits & (1 << i)) !== 0));
    yield values;
  }
}

function expectation(lifecycle: Lifecycle, state: string, event: string, guards: GuardValues): { [key: string]: JsonValue } {
  const out = evaluate(lifecycle, state, event, guards);
  if (out.ok) return { ok: true, state: out.state, effects: out.effects };
  return out.guard === undefined ? { ok: false, state: out.state, refusal: out.refusal } : { ok: false, state: out.state, refusal: out.refusal, guard: out.guard };
}

/** Shortest event path (as steps) from the initial state to every reachable state. */
function prefixes(lifecycle: Lifecycle): Map<string, Step[]> {
  const paths = new Map<string, Step[]>([[lifecycle.initial, []]]);
  const queue = [lifecycle.initial];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const t of lifecycle.transitions) {
      if (t.from !== s || paths.has(t.to)) continue;
      const guards = guardsFor(lifecycle, t);
      paths.set(t.to, [...paths.get(s)!, { event: t.event, guards, expect: expectation(lifecycle, s, t.event, guards) }]);
      queue.push(t.to);
    }
  }
  return paths;
}

/** The paths document for one lifecycle. Deterministic: same IR, same value. */
export function buildPaths(lifecycle: Lifecycle): JsonValue {
  const prefix = prefixes(lifecycle);
  const cases: JsonValue[] = [];
  let covered = 0;
  for (const state of lifecycle.states) {
    const steps = prefix.get(state.name);
    if (!steps) throw new Error(`${lifecycle.protocol}/${lifecycle.name}: state ${state.name} is unreachable`);
    for (const event of lifecycle.events) {
      const before = cases.length;
      const add = (kind: string, guards: Record<string, boolean>): void => {
        const last: Step = { event: event.name, guards, expect: expectation(lifecycle, state.name, event.name, guards) };
        cases.push({
          id: `${state.name}.${event.name}.${cases.length - before}`,
          state: state.name,
          event: event.name,
          kind,
          steps: [...steps, last] as unknown as JsonValue,
        });
      };
      const list = state.terminal ? [] : candidates(lifecycle, state.name, event.name);
      if (list.length === 0) {
        add("refusal", {});
      } else {
        for (const t of list) add("transition", guardsFor(lifecycle, t));
        const names = guardNamesAt(lifecycle, state.name, event.name);
        if (names.length > 0) {
          add("refusal", {});
          const all = [...assignments(names)];
          const failing = all.find((g) => {
            const o = evaluate(lifecycle, state.name, event.name, g);
            return !o.ok && o.refusal === "guard_failed";
          });
          if (failing) add("refusal", failing);
          const conflicting = all.find((g) => {
            const o = evaluate(lifecycle, state.name, event.name, g);
            return !o.ok && o.refusal === "guards_conflict";
          });
          if (conflicting) add("refusal", conflicting);
        }
      }
      if (cases.length > before) covered++;
    }
  }
  const pairs = lifecycle.states.length * lifecycle.events.length;
  return {
    format: PATHS_FORMAT_VERSION,
    protocol: lifecycle.protocol,
    lifecycle: lifecycle.name,
    source: lifecycle.location.file,
    initial: lifecycle.initial,
    states: lifecycle.states.map((s) => s.name),
    events: lifecycle.events.map((e) => e.name),
    coverage: { pairs, covered, cases: cases.length },
    cases,
  };
}

/** Path of the paths file, relative to the repository root. */
export function pathsFilePath(lifecycle: Lifecycle): string {
  return `spec/${lifecycle.protocol}/lifecycles/${lifecycle.name}.paths.json`;
}

/** The exact bytes of the paths file: 2-space JSON and a trailing newline. */
export function renderPaths(lifecycle: Lifecycle): string {
  return JSON.stringify(buildPaths(lifecycle), null, 2) + "\n";
}

/** The paths file of every lifecycle given, sorted by path (relative to the repository root). */
export function pathsFiles(lifecycles: readonly Lifecycle[]): OutputFile[] {
  return lifecycles
    .map((l) => ({ path: pathsFilePath(l), contents: renderPaths(l), sources: [l.location.file] }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}
