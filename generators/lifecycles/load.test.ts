// The lifecycles stage: the spec's machines load clean, and every lint is proven by a broken
// fixture (generators/lifecycles/fixtures/<lint>/) reported at the right line and pointer.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { guardsExclusive, loadLifecycles } from "./load.js";
import { buildPaths } from "./paths.js";
import { allowedEvents, evaluate } from "./semantics.js";
import type { GuardLiteral } from "../model/lifecycle.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));
const FILE = "spec/demo/lifecycles/door.machine.yaml";

describe("spec lifecycles", () => {
  it.each([
    ["agent-connector", 1],
    ["agent-provider", 4],
    ["provider-integration", 2],
    ["agent-service", 4],
  ] as const)("%s loads without errors (%i machines)", (id, count) => {
    const result = loadLifecycles(ROOT, id);
    expect(result.errors).toEqual([]);
    expect(result.lifecycles).toHaveLength(count);
    for (const l of result.lifecycles) {
      expect(l.protocol).toBe(id);
      expect(l.location.file).toBe(`spec/${id}/lifecycles/${l.name}.machine.yaml`);
    }
  });

  it("a protocol without a lifecycles folder has none and no errors", () => {
    expect(loadLifecycles(ROOT, "no-such-protocol")).toEqual({ lifecycles: [], errors: [] });
  });

  it("the trust machine is document 004's drawing, with installed -> revoked recorded as a divergence", () => {
    const trust = loadLifecycles(ROOT, "agent-connector").lifecycles.find((l) => l.name === "trust")!;
    const edges = trust.transitions.map((t) => `${t.from} -${t.event}-> ${t.to}`);
    expect(edges).toEqual([
      "imported -approve-> approved",
      "approved -install-> installed",
      "disabled -install-> installed",
      "installed -disable-> disabled",
      "imported -revoke-> revoked",
      "approved -revoke-> revoked",
      "disabled -revoke-> revoked",
      "imported -remove-> removed",
      "approved -remove-> removed",
      "disabled -remove-> removed",
      "revoked -remove-> removed",
      "approved -upgrade-> installed",
    ]);
    expect(trust.divergences.map((d) => d.id)).toContain("installed-to-revoked");
    expect(evaluate(trust, "installed", "revoke", {})).toEqual({ ok: false, state: "installed", refusal: "event_not_allowed" });
    expect(evaluate(trust, "approved", "remove", { inUse: true })).toEqual({ ok: false, state: "approved", refusal: "guard_failed", guard: "not inUse" });
    expect(evaluate(trust, "approved", "upgrade", { upgradeTarget: true, previousInUse: true })).toMatchObject({ ok: false, refusal: "guard_failed", guard: "not previousInUse" });
  });

  it("message-ref resolves against the protocol's message names when given", () => {
    const names = new Set(["AuditLogEntry"]);
    expect(loadLifecycles(ROOT, "agent-connector", { messageNames: names }).errors).toEqual([]);
    const errors = loadLifecycles(ROOT, "agent-connector", { messageNames: new Set() }).errors;
    expect(errors.length).toBe(6);
    expect(new Set(errors.map((e) => e.lint))).toEqual(new Set(["message-ref"]));
  });
});

describe("lint fixtures", () => {
  const cases: [fixture: string, lint: string, line: number, pointer: string, message: RegExp][] = [
    ["syntax", "syntax", 9, "/states/ajar", /aliases are not allowed/],
    ["meta-schema", "meta-schema", 8, "/states/closed", /required property 'terminal'/],
    ["meta-schema-unknown-key", "meta-schema", 13, "/transitions/0", /additional properties: "when"/],
    ["name-matches-file", "name-matches-file", 1, "/name", /must equal the file name "door"/],
    ["lifecycle-ref", "lifecycle-ref", 13, "/transitions/0/to", /"shattered" is not declared/],
    ["message-ref", "message-ref", 11, "/events/kick/message", /"DoorKick" is not a message/],
    ["reachable", "reachable", 9, "/states/open", /not reachable/],
    ["terminal-no-exit", "terminal-no-exit", 15, "/transitions/1", /terminal state "broken" has an outgoing transition/],
    ["reaches-terminal", "reaches-terminal", 9, "/states/open", /cannot reach a terminal state/],
    ["deterministic", "deterministic", 17, "/transitions/1", /not declared mutually exclusive/],
    ["event-used", "event-used", 12, "/events/knock", /used by no transition/],
    ["guard-used", "guard-used", 13, "/guards/strong", /used by no transition/],
    ["effect-used", "effect-used", 13, "/effects/log", /used by no transition/],
  ];

  it.each(cases)("%s trips [%s] at line %i %s", (fixture, lint, line, pointer, message) => {
    const result = loadLifecycles(`${FIXTURES}/${fixture}`, "demo", { messageNames: new Set(["DoorPush"]) });
    expect(result.lifecycles).toEqual([]);
    expect(result.errors.length).toBeGreaterThan(0);
    const first = result.errors[0]!;
    expect(first).toMatchObject({ file: FILE, lint, line, pointer });
    expect(first.message).toMatch(message);
    expect(first.column).toBeGreaterThan(0);
  });

  it("reaches-terminal names every stuck state", () => {
    const result = loadLifecycles(`${FIXTURES}/reaches-terminal`, "demo");
    expect(result.errors.map((e) => e.pointer)).toEqual(["/states/open", "/states/swinging"]);
  });

  it("file-name flags a stray file and a paths file without its machine, and still loads the machine", () => {
    const result = loadLifecycles(`${FIXTURES}/file-name`, "demo");
    expect(result.errors).toMatchObject([
      { file: "spec/demo/lifecycles/door.yaml", lint: "file-name" },
      { file: "spec/demo/lifecycles/window.paths.json", lint: "file-name" },
    ]);
    expect(result.lifecycles.map((l) => l.name)).toEqual(["door"]);
  });

  it("the valid fixture uses every feature and loads clean; its paths cover every pair", () => {
    const result = loadLifecycles(`${FIXTURES}/valid`, "demo", { messageNames: new Set(["DoorPush"]) });
    expect(result.errors).toEqual([]);
    const door = result.lifecycles[0]!;
    expect(door.transitions.length).toBe(9);
    expect(door.states.find((s) => s.name === "open")!.longLived).toBe(true);
    const paths = buildPaths(door) as { coverage: { pairs: number; covered: number }; cases: { id: string; steps: { expect: unknown }[] }[] };
    expect(paths.coverage).toMatchObject({ pairs: 16, covered: 16 });
    const last = (id: string): unknown => paths.cases.find((c) => c.id === id)!.steps.at(-1)!.expect;
    expect(last("closed.kick.2")).toEqual({ ok: false, state: "closed", refusal: "guard_missing", guard: "strong" });
    expect(last("closed.kick.3")).toEqual({ ok: false, state: "closed", refusal: "guard_failed", guard: "strong" });
    expect(last("closed.kick.4")).toEqual({ ok: false, state: "closed", refusal: "guards_conflict" });
    expect(last("broken.push.0")).toEqual({ ok: false, state: "broken", refusal: "terminal" });
    expect(last("open.lock.0")).toEqual({ ok: false, state: "open", refusal: "event_not_allowed" });
  });

  it("allowedEvents lists, in declaration order, the events with a transition from the state; unknown names throw", () => {
    const door = loadLifecycles(`${FIXTURES}/valid`, "demo", { messageNames: new Set(["DoorPush"]) }).lifecycles[0]!;
    // By hand from the fixture's transitions (events declared push, lock, unlock, kick).
    expect(allowedEvents(door, "closed")).toEqual(["push", "lock", "kick"]);
    expect(allowedEvents(door, "open")).toEqual(["push"]);
    expect(allowedEvents(door, "locked")).toEqual(["unlock", "kick"]);
    expect(allowedEvents(door, "broken")).toEqual([]);
    expect(() => evaluate(door, "ajar", "push", {})).toThrow(new RangeError("unknown state ajar"));
    expect(() => evaluate(door, "closed", "slam", {})).toThrow(new RangeError("unknown event slam"));
  });

  it("a terminal state cannot be declared long-lived", () => {
    const result = loadLifecycles(`${FIXTURES}/long-lived-terminal`, "demo");
    expect(result.errors).toMatchObject([{ file: FILE, lint: "reaches-terminal", line: 12, pointer: "/states/broken/longLived" }]);
  });
});

describe("guard exclusivity", () => {
  const lit = (text: string): GuardLiteral => (text.startsWith("not ") ? { guard: text.slice(4), negated: true } : { guard: text, negated: false });
  const ex = (a: string[], b: string[], groups: string[][] = []): boolean => guardsExclusive(a.map(lit), b.map(lit), groups);
  it("g and not g are exclusive; unrelated guards are not; declared groups are", () => {
    expect(ex(["a"], ["not a"])).toBe(true);
    expect(ex(["a", "b"], ["b", "not a"])).toBe(true);
    expect(ex(["a"], ["b"])).toBe(false);
    expect(ex([], [])).toBe(false);
    expect(ex(["a"], [])).toBe(false);
    expect(ex(["a"], ["b"], [["a", "b", "c"]])).toBe(true);
    expect(ex(["not a"], ["not b"], [["a", "b"]])).toBe(false);
  });
});
