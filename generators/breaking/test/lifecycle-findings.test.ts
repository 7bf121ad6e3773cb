// The LIFECYCLE findings and the SOURCE ones about generated state and event types (issue 41):
// each one's message, position and removed flag on spec-fixture.ts's machine m (a --go--> b,
// b --stop [g]--> c, c terminal), and how transitions are paired across versions. Messages and
// pointers are written by hand from the fixture; the pairing follows lifecycle.ts's documented
// passes (same edge and guards; same edge, other guards; same move and guards, other target).
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { addedTransitions, edge, matchTransitions, type Transition } from "../lifecycle.js";
import { baseFiles, MACHINE, PROTOCOL, writeTree, type Files } from "./spec-fixture.js";

function lifecycle(edit: (f: Files) => void, base: (f: Files) => void = () => {}) {
  const before = baseFiles();
  base(before);
  const after = baseFiles();
  base(after);
  edit(after);
  const { findings } = compareRoots(writeTree(before), writeTree(after));
  return findings.filter((f) => f.category === "LIFECYCLE" || ["SOURCE_LIFECYCLE_REMOVED", "SOURCE_STATE_REMOVED", "SOURCE_EVENT_REMOVED"].includes(f.rule));
}
// Findings come sorted by position, then rule id (compare.ts): LIFECYCLE_* before SOURCE_*.
const brief = (list: ReturnType<typeof lifecycle>) => list.map((f) => [f.rule, f.message, f.at.file, f.at.pointer, f.old?.pointer, f.removed]);

describe("a machine removed", () => {
  it("SOURCE and LIFECYCLE findings at the protocol file, the old machine as the old position", () => {
    expect(brief(lifecycle((f) => void delete f[MACHINE]))).toEqual([
      ["LIFECYCLE_REMOVED", "lifecycle p/m was removed", PROTOCOL, "", "", true],
      ["SOURCE_LIFECYCLE_REMOVED", "lifecycle p/m was removed", PROTOCOL, "", "", true],
    ]);
  });
  it("with its protocol gone too, both point at the old machine file", () => {
    const before = baseFiles();
    before["spec/q/protocol.yaml"] = { id: "q", title: "Q" };
    before["spec/q/lifecycles/m.machine.yaml"] = before[MACHINE];
    const { findings } = compareRoots(writeTree(before), writeTree(baseFiles()));
    expect(findings.filter((f) => f.rule === "LIFECYCLE_REMOVED").map((f) => [f.message, f.at.file, f.at.pointer, f.old?.file])).toEqual([["lifecycle q/m was removed", "spec/q/lifecycles/m.machine.yaml", "", "spec/q/lifecycles/m.machine.yaml"]]);
  });
  it("a machine of the same name in another protocol is another machine", () => {
    const moved = lifecycle((f) => {
      f["spec/q/protocol.yaml"] = { id: "q", title: "Q" };
      f["spec/q/lifecycles/m.machine.yaml"] = f[MACHINE];
      delete f[MACHINE];
    });
    expect(moved.map((f) => f.rule)).toEqual(["LIFECYCLE_REMOVED", "SOURCE_LIFECYCLE_REMOVED"]);
  });
  it("a machine of another name in the same protocol is another machine", () => {
    // n is m's twin: were machines paired by protocol alone, m would pass for n and nothing be found.
    const twin = (f: Files) => void (f["spec/p/lifecycles/n.machine.yaml"] = { ...f[MACHINE], name: "n" });
    expect(brief(lifecycle((f) => void delete f[MACHINE], twin))).toEqual([
      ["LIFECYCLE_REMOVED", "lifecycle p/m was removed", PROTOCOL, "", "", true],
      ["SOURCE_LIFECYCLE_REMOVED", "lifecycle p/m was removed", PROTOCOL, "", "", true],
    ]);
  });
});

describe("states, events, the initial state", () => {
  it("the initial state changed, or unset on either side", () => {
    expect(brief(lifecycle((f) => void (f[MACHINE].initial = "b")))).toEqual([["LIFECYCLE_INITIAL_CHANGED", "p/m: initial state a -> b", MACHINE, "/initial", "/initial", false]]);
    expect(lifecycle((f) => void delete f[MACHINE].initial).map((f) => f.message)).toEqual(["p/m: initial state a -> unset"]);
    expect(lifecycle((f) => void (f[MACHINE].initial = "a"), (f) => void (f[MACHINE].initial = 3)).map((f) => f.message)).toEqual(["p/m: initial state unset -> a"]);
  });
  it("a state removed: SOURCE and LIFECYCLE, at /states, the old state as the old position", () => {
    expect(brief(lifecycle((f) => void delete f[MACHINE].states.a)).filter((r) => String(r[0]).includes("STATE"))).toEqual([
      ["LIFECYCLE_STATE_REMOVED", "p/m: state a was removed or renamed", MACHINE, "/states", "/states/a", true],
      ["SOURCE_STATE_REMOVED", "p/m: state a was removed or renamed", MACHINE, "/states", "/states/a", true],
    ]);
  });
  it("a state's name with / or ~ is escaped in its pointer (RFC 6901)", () => {
    const found = lifecycle((f) => void delete f[MACHINE].states["x/y~z"], (f) => void (f[MACHINE].states["x/y~z"] = { description: "odd" }));
    expect(found.map((f) => f.old?.pointer)).toEqual(["/states/x~1y~0z", "/states/x~1y~0z"]);
  });
  it("terminal in either direction, at the state in both versions; terminal: false is not terminal", () => {
    expect(brief(lifecycle((f) => void (f[MACHINE].states.c.terminal = false)))).toEqual([["LIFECYCLE_TERMINAL_CHANGED", "p/m: state c is no longer terminal", MACHINE, "/states/c", "/states/c", false]]);
    expect(brief(lifecycle((f) => void (f[MACHINE].states.b.terminal = true)))).toEqual([["LIFECYCLE_TERMINAL_CHANGED", "p/m: state b became terminal", MACHINE, "/states/b", "/states/b", false]]);
    expect(lifecycle((f) => void (f[MACHINE].states.b.terminal = "yes"))).toEqual([]);
  });
  it("an event removed: SOURCE only (the moves on it are LIFECYCLE findings of their own)", () => {
    expect(brief(lifecycle((f) => void delete f[MACHINE].events.go))).toEqual([["SOURCE_EVENT_REMOVED", "p/m: event go was removed or renamed", MACHINE, "/events", "/events/go", true]]);
  });
});

describe("transitions", () => {
  it("removed: at /transitions, the old transition as the old position, its edge named", () => {
    expect(brief(lifecycle((f) => void f[MACHINE].transitions.pop()))).toEqual([["LIFECYCLE_TRANSITION_REMOVED", "p/m: b --stop [g]--> c was removed", MACHINE, "/transitions", "/transitions/1", true]]);
  });
  it("retargeted: now leads to the new target, at the new transition", () => {
    expect(brief(lifecycle((f) => void (f[MACHINE].transitions[0].to = "c")))).toEqual([["LIFECYCLE_TRANSITION_REMOVED", "p/m: a --go--> b now leads to c", MACHINE, "/transitions/0", "/transitions/0", false]]);
  });
  it("guards added: each new one named, joined with and; guards dropped are no finding", () => {
    expect(brief(lifecycle((f) => void (f[MACHINE].transitions[1].guard = ["g", "h", "late"])))).toEqual([["LIFECYCLE_GUARD_ADDED", "p/m: b --stop [g]--> c gained guard h and late", MACHINE, "/transitions/1", "/transitions/1", false]]);
    expect(lifecycle((f) => void delete f[MACHINE].transitions[1].guard)).toEqual([]);
  });
  it("a transition from several states is one move per state: dropping one state removes that move only", () => {
    const several = (f: Files) => void (f[MACHINE].transitions[0].from = ["a", "b"]);
    expect(lifecycle((f) => void (f[MACHINE].transitions[0].from = ["b"]), several).map((f) => f.message)).toEqual(["p/m: a --go--> b was removed"]);
    expect(lifecycle((f) => void (f[MACHINE].transitions[0].from = ["b", "a"]), several)).toEqual([]);
  });
  it("guards are compared as written with spaces collapsed, in any order", () => {
    const guarded = (g: unknown) => (f: Files) => void (f[MACHINE].transitions[1].guard = g);
    expect(lifecycle(guarded(["not  late", "g"]), guarded(["g", "not late"]))).toEqual([]);
    expect(lifecycle(guarded(["g", " late "]), guarded("g")).map((f) => f.message)).toEqual(["p/m: b --stop [g]--> c gained guard late"]);
  });
  it("a retarget under the same guards, written in another order and spacing, names them collapsed and sorted", () => {
    const retarget = (f: Files) => void Object.assign(f[MACHINE].transitions[1], { guard: ["g", "not h"], to: "a" });
    expect(brief(lifecycle(retarget, (f) => void (f[MACHINE].transitions[1].guard = ["not   h", "g"])))).toEqual([
      ["LIFECYCLE_TRANSITION_REMOVED", "p/m: b --stop [g, not h]--> c now leads to a", MACHINE, "/transitions/1", "/transitions/1", false],
    ]);
  });
  it("entries that are no objects, and non-string guards or states, are skipped", () => {
    expect(lifecycle((f) => void f[MACHINE].transitions.push("odd", null, { from: [1, "a"], event: "go", to: "b", guard: [2] }), () => {})).toEqual([]);
  });
});

describe("matchTransitions: pairing old and new transitions", () => {
  const t = (from: string, event: string, to: string, guards: string[] = [], i = 0): Transition => ({ from, event, to, guards, pointer: `/transitions/${i}` });
  it("the same edge and guards first, so a guard-only change on one of two edges is not taken by the other", () => {
    const oldList = [t("a", "e", "b", ["x"]), t("a", "e", "b", ["y"])];
    const newList = [t("a", "e", "b", ["y"], 0), t("a", "e", "b", ["x", "z"], 1)];
    expect(matchTransitions(oldList, newList).map((m) => [m.kind, m.kind === "removed" ? null : m.now.pointer])).toEqual([["kept", "/transitions/1"], ["kept", "/transitions/0"]]);
  });
  it("a retarget keeps the guards; with other guards and another target it is removed", () => {
    expect(matchTransitions([t("a", "e", "b", ["x"])], [t("a", "e", "c", ["x"])]).map((m) => m.kind)).toEqual(["retargeted"]);
    expect(matchTransitions([t("a", "e", "b", ["x"])], [t("a", "e", "c", ["y"])]).map((m) => m.kind)).toEqual(["removed"]);
    expect(matchTransitions([t("a", "e", "b")], [t("a", "f", "b")]).map((m) => m.kind)).toEqual(["removed"]);
    expect(matchTransitions([t("a", "e", "b")], [t("c", "e", "b")]).map((m) => m.kind)).toEqual(["removed"]);
  });
  it("one new transition is never matched twice", () => {
    expect(matchTransitions([t("a", "e", "b"), t("a", "e", "b")], [t("a", "e", "b")]).map((m) => m.kind)).toEqual(["kept", "removed"]);
  });
  it("addedTransitions: the new ones no old one became", () => {
    const kept = t("a", "e", "b", [], 0);
    const added = t("b", "e", "c", [], 1);
    expect(addedTransitions([t("a", "e", "b"), t("x", "e", "y")], [kept, added])).toEqual([added]);
    expect(addedTransitions([t("a", "e", "b")], [t("a", "e", "c", [], 0)])).toEqual([]);
  });
  it("edge: guards in brackets only when there are some", () => {
    expect(edge(t("a", "go", "b"))).toBe("a --go--> b");
    expect(edge(t("a", "go", "b", ["g", "not h"]))).toBe("a --go [g, not h]--> b");
  });
});
