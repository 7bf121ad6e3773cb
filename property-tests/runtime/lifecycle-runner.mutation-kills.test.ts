// The lifecycle runner of the source runtime on a small machine written here, against the one
// meaning of `transition` that generators/lifecycles/semantics.ts states (in order: terminal,
// event_not_allowed, guard_missing, guard_failed, guards_conflict, else the one candidate fires
// with its effects in spec order), plus the name checks and the frozen definition.
import { beforeAll, describe, expect, it } from "vitest";
import { UnknownLifecycleNameError, defineMachine, lifecycleMachine, type MachineDefinition } from "../../generators/targets/ts/runtime/src/lifecycle-runner.js";

type S = "a" | "b" | "c" | "done";
type E = "go" | "stop" | "idle";
type G = "x" | "y";
type F = "f1" | "f2";
const definition = (): MachineDefinition<S, E, G, F> => ({
  protocol: "p",
  name: "m",
  initial: "a",
  states: ["a", "b", "c", "done"],
  terminal: ["done"],
  events: ["go", "stop", "idle"],
  guards: ["x", "y"],
  effects: ["f1", "f2"],
  transitions: [
    { from: "a", event: "go", to: "b", guards: [{ guard: "x", negated: false }], effects: ["f2", "f1"] },
    { from: "a", event: "go", to: "c", guards: [{ guard: "x", negated: true }, { guard: "y", negated: false }], effects: [] },
    { from: "b", event: "go", to: "c", guards: [{ guard: "x", negated: false }], effects: ["f1"] },
    { from: "b", event: "go", to: "a", guards: [{ guard: "y", negated: false }], effects: [] },
    { from: "a", event: "stop", to: "done", guards: [], effects: ["f1"] },
    { from: "c", event: "stop", to: "done", guards: [], effects: [] },
  ],
});

describe("transition", () => {
  // Built inside the tests, so a runner that throws while indexing fails them (at collection it
  // would only fail the file).
  let m: ReturnType<typeof lifecycleMachine<S, E, G, F>>;
  beforeAll(() => {
    m = lifecycleMachine(definition());
  });
  it("fires the one candidate whose guards hold, with its effects in spec order", () => {
    expect(m.transition("a", "go", { x: true, y: false })).toEqual({ ok: true, from: "a", event: "go", state: "b", effects: ["f2", "f1"] });
    expect(m.transition("a", "go", { x: false, y: true })).toEqual({ ok: true, from: "a", event: "go", state: "c", effects: [] });
    expect(m.transition("a", "stop")).toEqual({ ok: true, from: "a", event: "stop", state: "done", effects: ["f1"] });
  });
  it("1. a terminal state refuses every event, even with guards", () => {
    for (const e of ["go", "stop", "idle"] as const) expect(m.transition("done", e, { x: true, y: true })).toStrictEqual({ ok: false, from: "done", event: e, state: "done", refusal: "terminal" });
  });
  it("2. no transition on the pair", () => {
    expect(m.transition("a", "idle")).toStrictEqual({ ok: false, from: "a", event: "idle", state: "a", refusal: "event_not_allowed" });
    expect(m.transition("b", "stop", { x: true })).toEqual({ ok: false, from: "b", event: "stop", state: "b", refusal: "event_not_allowed" });
  });
  it("3. a guard any candidate names has no boolean value: its name", () => {
    expect(m.transition("a", "go", { x: true })).toEqual({ ok: false, from: "a", event: "go", state: "a", refusal: "guard_missing", guard: "y" });
    expect(m.transition("a", "go")).toEqual({ ok: false, from: "a", event: "go", state: "a", refusal: "guard_missing", guard: "x" });
    expect(m.transition("a", "go", { x: 1, y: true } as never)).toMatchObject({ refusal: "guard_missing", guard: "x" });
  });
  it("4. no candidate holds: the first candidate's failing literal", () => {
    expect(m.transition("a", "go", { x: false, y: false })).toEqual({ ok: false, from: "a", event: "go", state: "a", refusal: "guard_failed", guard: "x" });
    expect(m.transition("b", "go", { x: false, y: false })).toEqual({ ok: false, from: "b", event: "go", state: "b", refusal: "guard_failed", guard: "x" });
    const negated = lifecycleMachine({ ...definition(), transitions: [{ from: "a", event: "go", to: "b", guards: [{ guard: "y", negated: false }, { guard: "x", negated: true }], effects: [] }] });
    expect(negated.transition("a", "go", { x: true, y: true })).toMatchObject({ refusal: "guard_failed", guard: "not x" });
  });
  it("5. two candidates hold: guards_conflict, without a guard name", () => {
    expect(m.transition("b", "go", { x: true, y: true })).toStrictEqual({ ok: false, from: "b", event: "go", state: "b", refusal: "guards_conflict" });
  });
  it("an unknown state or event is a programming error naming the machine and the value", () => {
    expect(() => m.transition("zz" as S, "go")).toThrow(UnknownLifecycleNameError);
    expect(() => m.transition("zz" as S, "go")).toThrow('p/m: unknown state "zz"');
    expect(() => m.transition("a", "fly" as E)).toThrow('p/m: unknown event "fly"');
    try {
      m.transition("a", 7 as never);
    } catch (error) {
      const e = error as UnknownLifecycleNameError;
      expect([e.name, e.machine, e.kind, e.value]).toEqual(["UnknownLifecycleNameError", "p/m", "event", 7]);
    }
    expect(() => m.allowedEvents("zz" as S)).toThrow(UnknownLifecycleNameError);
    expect(() => m.isTerminal("zz" as S)).toThrow(UnknownLifecycleNameError);
  });
});

describe("queries and the definition", () => {
  let m: ReturnType<typeof lifecycleMachine<S, E, G, F>>;
  beforeAll(() => {
    m = lifecycleMachine(definition());
  });
  it("allowedEvents: events with a transition from the state, in spec order; none from terminal", () => {
    expect(m.allowedEvents("a")).toEqual(["go", "stop"]);
    expect(m.allowedEvents("b")).toEqual(["go"]);
    expect(m.allowedEvents("c")).toEqual(["stop"]);
    expect(m.allowedEvents("done")).toEqual([]);
    expect(Object.isFrozen(m.allowedEvents("a"))).toBe(true);
  });
  it("isTerminal, isState, isEvent", () => {
    expect(["a", "b", "c", "done"].map((s) => m.isTerminal(s as S))).toEqual([false, false, false, true]);
    expect([m.isState("a"), m.isState("go"), m.isState(1), m.isState(undefined)]).toEqual([true, false, false, false]);
    expect([m.isEvent("go"), m.isEvent("a"), m.isEvent(null)]).toEqual([true, false, false]);
  });
  it("the definition is deep-frozen in place (not copied), and so is the machine", () => {
    const d = definition();
    const machine = lifecycleMachine(d);
    expect(machine.definition).toBe(d);
    expect([Object.isFrozen(d), Object.isFrozen(d.transitions), Object.isFrozen(d.transitions[0]), Object.isFrozen(d.transitions[0]!.guards[0]), Object.isFrozen(d.states)]).toEqual([true, true, true, true, true]);
    expect(Object.isFrozen(machine)).toBe(true);
    // An already frozen definition is accepted as is.
    expect(lifecycleMachine(d).transition("a", "stop").ok).toBe(true);
  });
});

it("defineMachine, the name 0.1.0 shipped, is the same function as lifecycleMachine", () => {
  expect(defineMachine).toBe(lifecycleMachine);
});
