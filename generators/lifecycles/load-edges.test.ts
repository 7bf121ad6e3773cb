// The lifecycle loader's and paths builder's edges that lifecycles-load's first Stryker run (issue
// 41) left alive: guard exclusivity with one literal negated or one guard twice, the deterministic
// lint's full message, a long-lived state that reaches no terminal one, members absent (not
// undefined) in the IR, a root with its own meta-schemas, a lifecycles folder that leaves the root,
// and the paths suite's choice of failing and conflicting guard values. Expectations are written
// here by hand from the rules in load.ts's and paths.ts's comments and semantics.ts's list.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GuardLiteral, Lifecycle } from "../model/lifecycle.js";
import { guardsExclusive, loadLifecycles } from "./load.js";
import { buildPaths, pathsFiles } from "./paths.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const lit = (text: string): GuardLiteral => (text.startsWith("not ") ? { guard: text.slice(4), negated: true } : { guard: text, negated: false });
const ex = (a: string[], b: string[], groups: string[][] = []): boolean => guardsExclusive(a.map(lit), b.map(lit), groups);

function root(machine: string, name = "door"): string {
  const dir = mkdtempSync(`${tmpdir()}/agent-contracts-lifecycle-edges-`);
  mkdirSync(`${dir}/spec/demo/lifecycles`, { recursive: true });
  writeFileSync(`${dir}/spec/demo/lifecycles/${name}.machine.yaml`, machine);
  return dir;
}
const head = ["name: door", "title: Door", "description: D.", "role: r", "initial: a"];

describe("guardsExclusive", () => {
  it("only g against not g, or two guards of one declared group, both unnegated", () => {
    expect(ex(["a"], ["not b"])).toBe(false);
    expect(ex(["not a"], ["b"])).toBe(false);
    expect(ex(["a"], ["a"])).toBe(false);
    expect(ex(["not a"], ["not a"])).toBe(false);
    expect(ex(["a"], ["a"], [["a", "b"]])).toBe(false);
    expect(ex(["a"], ["not b"], [["a", "b"]])).toBe(false);
    expect(ex(["a"], ["c"], [["a", "b"]])).toBe(false);
    expect(ex(["c"], ["b"], [["a", "b"]])).toBe(false);
    expect(ex(["b"], ["a"], [["a", "b"]])).toBe(true);
  });
});

describe("lint messages", () => {
  it("deterministic names both transitions' guards, or 'no guard'", () => {
    const text = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true }", "events:", "  go: { description: Go. }",
      "guards:", "  g: { description: G. }", "  h: { description: H. }",
      "transitions:", "  - { from: a, event: go, to: b }", "  - { from: a, event: go, to: b, guard: [g, not h] }", ""].join("\n");
    const errors = loadLifecycles(root(text), "demo").errors;
    expect(errors.map((e) => [e.lint, e.message])).toEqual([
      ["deterministic", 'two transitions from "a" on "go" (no guard at /transitions/0, guard [g, not h]) are not declared mutually exclusive'],
    ]);
  });

  it("a terminal state declared long-lived is named", () => {
    const text = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true, longLived: true }", "events:", "  go: { description: Go. }",
      "transitions:", "  - { from: a, event: go, to: b }", ""].join("\n");
    expect(loadLifecycles(root(text), "demo").errors.map((e) => e.message)).toEqual(['terminal state "b" cannot be long-lived']);
  });

  it("a long-lived state need not reach a terminal one; a terminal state is not asked to", () => {
    // b is long-lived and only loops; c is terminal and reached from a.
    const text = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: false, longLived: true }", "  c: { description: C., terminal: true }",
      "events:", "  go: { description: Go. }", "  stay: { description: Stay. }", "  end: { description: End. }",
      "transitions:", "  - { from: a, event: go, to: b }", "  - { from: b, event: stay, to: b }", "  - { from: a, event: end, to: c }", ""].join("\n");
    expect(loadLifecycles(root(text), "demo").errors).toEqual([]);
  });
});

describe("the IR has no member for what the file does not say", () => {
  it("an event without a message and a transition without a description have no such key", () => {
    const text = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true }", "events:", "  go: { description: Go. }",
      "transitions:", "  - { from: a, event: go, to: b }", ""].join("\n");
    const door = loadLifecycles(root(text), "demo").lifecycles[0]!;
    expect("message" in door.events[0]!).toBe(false);
    expect("description" in door.transitions[0]!).toBe(false);
  });
});

describe("meta-schemas", () => {
  const machine = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true }", "events:", "  go: { description: Go. }",
    "transitions:", "  - { from: a, event: go, to: b }", ""].join("\n");
  const withMeta = (edit: (schemas: Record<string, string>) => void): string => {
    const dir = root(machine);
    mkdirSync(`${dir}/spec/meta`, { recursive: true });
    const schemas: Record<string, string> = {};
    for (const f of readdirSync(`${REPO}/spec/meta`)) schemas[f] = readFileSync(`${REPO}/spec/meta/${f}`, "utf8");
    edit(schemas);
    for (const [f, text] of Object.entries(schemas)) writeFileSync(`${dir}/spec/meta/${f}`, text);
    return dir;
  };

  it("a root with its own spec/meta is checked against its own lifecycle meta-schema", () => {
    const dir = withMeta((s) => {
      const schema = JSON.parse(s["lifecycle.schema.json"]!);
      schema.required = [...schema.required, "owner"];
      schema.properties.owner = { type: "string" };
      s["lifecycle.schema.json"] = JSON.stringify(schema);
    });
    expect(loadLifecycles(dir, "demo").errors.map((e) => [e.lint, e.message])).toEqual([["meta-schema", "must have required property 'owner'"]]);
  });

  it("a file in spec/meta that is not a *.schema.json is not read as one", () => {
    const dir = withMeta((s) => void (s["README.md"] = "# not: [a schema\n"));
    expect(loadLifecycles(dir, "demo").errors).toEqual([]);
  });

  it("a meta-schema that does not parse is an error naming its file", () => {
    const dir = withMeta((s) => void (s["aaa.schema.json"] = "{ not json"));
    expect(() => loadLifecycles(dir, "demo")).toThrow(/^spec\/meta\/aaa\.schema\.json: /);
  });
});

describe("the folder", () => {
  it("a lifecycles folder that is a link out of the root is refused, not read", () => {
    const outside = root([...head, ""].join("\n"));
    const dir = mkdtempSync(`${tmpdir()}/agent-contracts-lifecycle-edges-`);
    mkdirSync(`${dir}/spec/demo`, { recursive: true });
    symlinkSync(`${outside}/spec/demo/lifecycles`, `${dir}/spec/demo/lifecycles`);
    const result = loadLifecycles(dir, "demo");
    expect(result.lifecycles).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.file).toBe("spec/demo/lifecycles");
  });
});

describe("paths: which guard values a refusal case uses", () => {
  const machine = (guards: string[], transitions: string[]): Lifecycle => {
    const text = [...head, "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true }",
      "events:", "  go: { description: Go. }", "guards:", ...guards.map((g) => `  ${g}: { description: ${g}. }`), "transitions:", ...transitions, ""].join("\n");
    const { lifecycles, errors } = loadLifecycles(root(text), "demo");
    expect(errors).toEqual([]);
    return lifecycles[0]!;
  };
  const refusals = (l: Lifecycle) =>
    (buildPaths(l) as { cases: { id: string; kind: string; steps: { guards: object; expect: { refusal?: string } }[] }[] }).cases
      .filter((c) => c.kind === "refusal" && c.id.startsWith("a.go."))
      .map((c) => [c.steps.at(-1)!.expect.refusal, c.steps.at(-1)!.guards]);

  it("the first failing assignment counting up from all false (the first declared guard the lowest bit)", () => {
    // go needs g and h: every assignment but {g, h} fails; counting up, the first is all false.
    const l = machine(["g", "h"], ["  - { from: a, event: go, to: b, guard: [g, h] }"]);
    expect(refusals(l)).toEqual([["guard_missing", {}], ["guard_failed", { g: false, h: false }]]);
  });

  it("pathsFiles sorts any number of files by path, whatever order they come in", () => {
    const l = machine(["g"], ["  - { from: a, event: go, to: b, guard: g }"]);
    const at = (protocol: string): Lifecycle => ({ ...l, protocol });
    const sorted = ["spec/a/lifecycles/door.paths.json", "spec/b/lifecycles/door.paths.json", "spec/c/lifecycles/door.paths.json"];
    expect(pathsFiles([at("a"), at("b"), at("c")]).map((f) => f.path)).toEqual(sorted);
    expect(pathsFiles([at("c"), at("a"), at("b")]).map((f) => f.path)).toEqual(sorted);
  });
});
