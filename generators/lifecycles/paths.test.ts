// The paths suite of one small machine, written out by hand from the rules in paths.ts's header and
// semantics.ts's numbered list (not produced by the builder and pasted): every (state, event) pair,
// the shortest prefix to each state, guard values that make exactly one transition fire, and the
// guard_missing / guard_failed / guards_conflict refusals where they exist. Compared as bytes, so
// the order of cases, keys and guard names is checked too.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import type { Lifecycle } from "../model/lifecycle.js";
import { loadLifecycles } from "./load.js";
import { buildPaths, guardsFor, pathsFiles, renderPaths } from "./paths.js";

function machine(name: string, text: string): Lifecycle {
  const root = mkdtempSync(`${tmpdir()}/agent-contracts-paths-`);
  mkdirSync(`${root}/spec/demo/lifecycles`, { recursive: true });
  writeFileSync(`${root}/spec/demo/lifecycles/${name}.machine.yaml`, text);
  const { lifecycles, errors } = loadLifecycles(root, "demo");
  expect(errors).toEqual([]);
  return lifecycles[0]!;
}

// Guards are declared h before g, while the transitions name g first: the suite lists guard values
// in declared order.
const GATE = [
  "name: gate",
  "title: Gate",
  "description: A gate.",
  "role: keeper",
  "initial: a",
  "states:",
  "  a: { description: A., terminal: false }",
  "  b: { description: B., terminal: false }",
  "  done: { description: Done., terminal: true }",
  "events:",
  "  go: { description: Go. }",
  "  stop: { description: Stop. }",
  "guards:",
  "  h: { description: H. }",
  "  g: { description: G. }",
  "mutuallyExclusive:",
  "  - [g, h]",
  "effects:",
  "  log: { description: Log. }",
  "transitions:",
  "  - { from: a, event: go, to: b, effects: [log] }",
  "  - { from: a, event: stop, to: a, guard: not g }",
  "  - { from: b, event: stop, to: done, guard: g }",
  "  - { from: b, event: stop, to: a, guard: h }",
  "",
].join("\n");

const GO = { event: "go", guards: {}, expect: { ok: true, state: "b", effects: ["log"] } };
const STOP_TO_DONE = { event: "stop", guards: { h: false, g: true }, expect: { ok: true, state: "done", effects: [] } };
const c = (id: string, kind: string, steps: object[]) => {
  const [state, event] = id.split(".");
  return { id, state, event, kind, steps };
};
const refused = (state: string, refusal: string, guard?: string) => ({ ok: false, state, refusal, ...(guard === undefined ? {} : { guard }) });

const EXPECTED = {
  format: 1,
  protocol: "demo",
  lifecycle: "gate",
  source: "spec/demo/lifecycles/gate.machine.yaml",
  initial: "a",
  states: ["a", "b", "done"],
  events: ["go", "stop"],
  coverage: { pairs: 6, covered: 6, cases: 12 },
  cases: [
    c("a.go.0", "transition", [GO]),
    c("a.stop.0", "transition", [{ event: "stop", guards: { g: false }, expect: { ok: true, state: "a", effects: [] } }]),
    c("a.stop.1", "refusal", [{ event: "stop", guards: {}, expect: refused("a", "guard_missing", "g") }]),
    // The only failing assignment: g holds, so `not g` fails (named as written).
    c("a.stop.2", "refusal", [{ event: "stop", guards: { g: true }, expect: refused("a", "guard_failed", "not g") }]),
    c("b.go.0", "refusal", [GO, { event: "go", guards: {}, expect: refused("b", "event_not_allowed") }]),
    c("b.stop.0", "transition", [GO, STOP_TO_DONE]),
    c("b.stop.1", "transition", [GO, { event: "stop", guards: { h: true, g: false }, expect: { ok: true, state: "a", effects: [] } }]),
    // Missing: the first candidate's first guard (g), not the first declared (h).
    c("b.stop.2", "refusal", [GO, { event: "stop", guards: {}, expect: refused("b", "guard_missing", "g") }]),
    c("b.stop.3", "refusal", [GO, { event: "stop", guards: { h: false, g: false }, expect: refused("b", "guard_failed", "g") }]),
    c("b.stop.4", "refusal", [GO, { event: "stop", guards: { h: true, g: true }, expect: refused("b", "guards_conflict") }]),
    c("done.go.0", "refusal", [GO, STOP_TO_DONE, { event: "go", guards: {}, expect: refused("done", "terminal") }]),
    c("done.stop.0", "refusal", [GO, STOP_TO_DONE, { event: "stop", guards: {}, expect: refused("done", "terminal") }]),
  ],
};

describe("buildPaths", () => {
  it("the gate machine's suite, byte for byte", () => {
    const gate = machine("gate", GATE);
    expect(buildPaths(gate)).toEqual(EXPECTED);
    expect(renderPaths(gate)).toBe(`${JSON.stringify(EXPECTED, null, 2)}\n`);
  });

  it("a pair only some states reach counts once per pair; states reached by a longer path take the shortest", () => {
    // a -> b -> c and a -> c: c's prefix is the one step a -> c even though a -> b is declared first.
    const text = [
      "name: line", "title: Line", "description: L.", "role: r", "initial: a",
      "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: false }", "  c: { description: C., terminal: true }",
      "events:", "  next: { description: N. }", "  skip: { description: S. }",
      "transitions:", "  - { from: a, event: next, to: b }", "  - { from: b, event: next, to: c }", "  - { from: a, event: skip, to: c }", "",
    ].join("\n");
    const suite = buildPaths(machine("line", text)) as { coverage: object; cases: { id: string; steps: { event: string }[] }[] };
    expect(suite.coverage).toEqual({ pairs: 6, covered: 6, cases: 6 });
    expect(suite.cases.map((x) => `${x.id}: ${x.steps.map((s) => s.event).join(" ")}`)).toEqual([
      "a.next.0: next",
      "a.skip.0: skip",
      "b.next.0: next next",
      "b.skip.0: next skip",
      "c.next.0: skip next",
      "c.skip.0: skip skip",
    ]);
  });

  it("an unreachable state (which the reachable lint refuses first) is an error naming it", () => {
    const gate = machine("gate", GATE);
    const broken: Lifecycle = { ...gate, states: [...gate.states, { ...gate.states[0]!, name: "island" }] };
    expect(() => buildPaths(broken)).toThrow(new Error("demo/gate: state island is unreachable"));
  });

  it("guardsFor: values under which exactly that transition fires, or an error when none exist", () => {
    const gate = machine("gate", GATE);
    expect(guardsFor(gate, gate.transitions[2]!)).toEqual({ h: false, g: true });
    expect(guardsFor(gate, gate.transitions[3]!)).toEqual({ h: true, g: false });
    // Two transitions with the same guards (the deterministic lint refuses this first).
    const twin = { ...gate.transitions[2]!, to: "a" };
    const broken: Lifecycle = { ...gate, transitions: [...gate.transitions, twin] };
    expect(() => guardsFor(broken, twin)).toThrow(new Error("demo/gate: no guard values make only the transition b --stop--> a fire"));
  });

  it("pathsFiles: one file per machine, sorted by path, with the machine as its source", () => {
    const gate = machine("gate", GATE);
    const other: Lifecycle = { ...gate, protocol: "alpha", location: { ...gate.location, file: "spec/alpha/lifecycles/gate.machine.yaml" } };
    const files = pathsFiles([gate, other]);
    expect(files.map((f) => [f.path, f.sources])).toEqual([
      ["spec/alpha/lifecycles/gate.paths.json", ["spec/alpha/lifecycles/gate.machine.yaml"]],
      ["spec/demo/lifecycles/gate.paths.json", ["spec/demo/lifecycles/gate.machine.yaml"]],
    ]);
    expect(files[1]!.contents).toBe(renderPaths(gate));
  });
});
