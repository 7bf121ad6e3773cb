// LIFECYCLE findings on a state and event with several guarded transitions (issue 39): removing one
// names its guard and points at its own line, not at a sibling that "now leads" elsewhere. The
// expected lines are counted here from the fixture file as written, not taken from the tool.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { baseFiles, MACHINE, writeTree, type Files } from "./spec-fixture.js";

/** pending --submit--> one of three ends, chosen by guards; as the proposal-record machine does. */
function guarded(f: Files): void {
  f[MACHINE] = {
    name: "m",
    title: "M machine",
    description: "A machine with several guarded transitions on one state and event.",
    initial: "pending",
    states: { pending: { description: "P" }, succeeded: { description: "S", terminal: true }, failed: { description: "F", terminal: true }, canceled: { description: "C", terminal: true } },
    events: { submit: { description: "submit" } },
    guards: { ok: { description: "ok" }, cancel: { description: "cancel" } },
    transitions: [
      { from: "pending", event: "submit", to: "succeeded", guard: "ok" },
      { from: "pending", event: "submit", to: "failed", guard: "not ok" },
      { from: "pending", event: "submit", to: "canceled", guard: "cancel" },
    ],
  };
}

function compare(edit: (f: Files) => void) {
  const before = baseFiles();
  guarded(before);
  const after = baseFiles();
  guarded(after);
  edit(after);
  const oldRoot = writeTree(before);
  const { findings } = compareRoots(oldRoot, writeTree(after));
  return { findings, oldText: readFileSync(`${oldRoot}/${MACHINE}`, "utf8") };
}

/** 1-based line of the first line of `text` containing every one of `parts`, after `start`. */
const lineOf = (text: string, ...parts: string[]) => text.split("\n").findIndex((l) => parts.every((p) => l.includes(p))) + 1;

describe("guarded transitions on one state and event", () => {
  it("removing one names its guard, is removed, and points at its own old line", () => {
    const { findings, oldText } = compare((f) => void f[MACHINE].transitions.pop());
    const hit = findings.filter((f) => f.rule === "LIFECYCLE_TRANSITION_REMOVED");
    expect(hit).toHaveLength(1);
    const f = hit[0]!;
    expect(f.message).toBe("p/m: pending --submit [cancel]--> canceled was removed");
    expect(f.removed).toBe(true);
    expect(f.old?.pointer).toBe("/transitions/2");
    // JSON fixture: the third transition object opens on the line after the second one closes.
    const canceledTo = lineOf(oldText, '"to": "canceled"');
    expect(f.old!.line).toBeLessThan(canceledTo);
    expect(f.old!.line).toBeGreaterThan(lineOf(oldText, '"to": "failed"'));
  });
  it("a guarded transition retargeted under the same guard now leads to the new state, at its new line", () => {
    const { findings } = compare((f) => void (f[MACHINE].transitions[2].to = "failed"));
    const hit = findings.filter((f) => f.rule === "LIFECYCLE_TRANSITION_REMOVED");
    expect(hit.map((f) => [f.message, f.at.pointer, f.removed])).toEqual([["p/m: pending --submit [cancel]--> canceled now leads to failed", "/transitions/2", false]]);
  });
  it("a guard added to one of them is LIFECYCLE_GUARD_ADDED on that transition only", () => {
    const { findings } = compare((f) => void (f[MACHINE].transitions[0].guard = ["ok", "fresh"]));
    expect(findings.filter((f) => f.category === "LIFECYCLE").map((f) => [f.rule, f.message, f.at.pointer])).toEqual([["LIFECYCLE_GUARD_ADDED", "p/m: pending --submit [ok]--> succeeded gained guard fresh", "/transitions/0"]]);
  });
  it("reordering them, or writing a guard as a one-item list, is no finding", () => {
    expect(compare((f) => void f[MACHINE].transitions.reverse()).findings).toEqual([]);
    expect(compare((f) => void (f[MACHINE].transitions[2].guard = ["cancel"])).findings).toEqual([]);
  });
});
