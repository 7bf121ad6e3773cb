// Compatible and documentation changes (issue 39): each kind on a fixture edit written by hand, the
// severity each is reported with, nothing on an unchanged tree, and no change reported twice when a
// breaking finding already describes it. The version table follows SemVer 2.0.0's text (§4, §11)
// and npm's caret ranges for 0.y.z, not the code.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { bumpVersion, compareSemver, requiredBump } from "../version.js";
import { baseFiles, M, MACHINE, OPEN, PROTOCOL, TYPES, writeTree, type Files } from "./spec-fixture.js";

function changes(edit: (f: Files) => void, before: (f: Files) => void = () => {}) {
  const b = baseFiles();
  before(b);
  const a = baseFiles();
  before(a);
  edit(a);
  return compareRoots(writeTree(b), writeTree(a));
}
const kinds = (edit: (f: Files) => void) => changes(edit).changes.map((c) => [c.kind, c.severity, c.at.file, c.at.pointer]);

describe("compatible changes", () => {
  it("none on an unchanged tree", () => {
    expect(changes(() => {}).changes).toEqual([]);
  });
  it.each([
    ["MESSAGE_ADDED", (f: Files): void => void (f["spec/p/messages/New.yaml"] = { $id: "https://agent-contracts.dev/schemas/p/New.json", title: "New", type: "string" }), "spec/p/messages/New.yaml", ""],
    ["FIELD_ADDED", (f: Files): void => void (f[OPEN].properties.b = { type: "string", description: "B." }), OPEN, "/properties/b"],
    ["DEFINITION_ADDED", (f: Files): void => void (f[TYPES].$defs.Lower = { title: "Lower", type: "string" }), TYPES, "/$defs/Lower"],
    ["CONSTANT_ADDED", (f: Files): void => void f[PROTOCOL].constants[0].items.push({ name: "C", value: "c" }), PROTOCOL, "/constants/0/items/2"],
    ["LIFECYCLE_ADDED", (f: Files): void => void (f["spec/p/lifecycles/n.machine.yaml"] = { ...f[MACHINE], name: "n" }), "spec/p/lifecycles/n.machine.yaml", ""],
    ["STATE_ADDED", (f: Files): void => void (f[MACHINE].states.d = { description: "D" }), MACHINE, "/states/d"],
    ["EVENT_ADDED", (f: Files): void => void (f[MACHINE].events.pause = { description: "p" }), MACHINE, "/events/pause"],
    ["TRANSITION_ADDED", (f: Files): void => void f[MACHINE].transitions.push({ from: "a", event: "stop", to: "c", guard: "h" }), MACHINE, "/transitions/2"],
    ["GUARD_REMOVED", (f: Files): void => void delete f[MACHINE].transitions[1].guard, MACHINE, "/transitions/1"],
  ] as const)("%s is compatible, at the added item", (kind, edit, file, pointer) => {
    const r = changes(edit);
    expect(r.findings.filter((f) => f.status === "breaking")).toEqual([]);
    expect(r.changes.map((c) => [c.kind, c.severity, c.at.file, c.at.pointer])).toEqual([[kind, "compatible", file, pointer]]);
  });
  it("a description, an example or a $comment edited is documentation", () => {
    expect(kinds((f) => void (f[M].description = "Reworded."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "/description"]]);
    expect(kinds((f) => void (f[M].properties.count.$comment = "counted"))).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "/properties/count/$comment"]]);
    expect(kinds((f) => void (f[M].examples[0].name = "xyz"))).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "/examples"]]);
    expect(kinds((f) => void (f[MACHINE].states.a.description = "Start."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", MACHINE, "/states/a/description"]]);
  });
  it("a field's description comes with the field: one FIELD_ADDED, no documentation change", () => {
    expect(kinds((f) => void (f[OPEN].properties.b = { type: "string", description: "B." })).map((k) => k[0])).toEqual(["FIELD_ADDED"]);
  });
  it("an addition a finding describes is left to the finding (a field in a closed object, an enum value old readers reject)", () => {
    const closed = changes((f) => void (f[M].properties.extra = { type: "string" }));
    expect(closed.findings.map((f) => f.rule)).toContain("WIRE_PROPERTY_ADDED_CLOSED");
    expect(closed.changes).toEqual([]);
    const value = changes((f) => void f[M].properties.kind.enum.push("c"));
    expect(value.findings.map((f) => f.rule)).toContain("WIRE_ENUM_VALUE_ADDED");
    expect(value.changes).toEqual([]);
  });
});

describe("the version a comparison calls for", () => {
  it("breaking: major; a compatible change or a waived finding: minor; documentation: patch; nothing: none", () => {
    expect(requiredBump(changes((f) => void (f[M].properties.kind.enum = ["a"])).findings, []).bump).toBe("major");
    const added = changes((f) => void (f[MACHINE].states.d = { description: "D" }));
    expect(requiredBump(added.findings, added.changes).bump).toBe("minor");
    const tolerant = changes((f) => void (f[M].properties.kind.enum.push("c"), (f["spec/breaking.yaml"] = { breaking: { tolerantReaders: [{ at: M, reason: "readers first" }] } })));
    expect(tolerant.findings.map((f) => f.status)).toEqual(["tolerant-reader"]);
    expect(requiredBump(tolerant.findings, tolerant.changes).bump).toBe("minor");
    const docs = changes((f) => void (f[M].description = "Reworded."));
    expect(requiredBump(docs.findings, docs.changes).bump).toBe("patch");
    expect(requiredBump([], []).bump).toBe("none");
  });
  it.each([
    ["1.2.3", "major", "2.0.0"],
    ["1.2.3", "minor", "1.3.0"],
    ["1.2.3", "patch", "1.2.4"],
    ["1.2.3", "none", "1.2.3"],
    ["1.2.3-rc.1", "patch", "1.2.4"],
    // Below 1.0.0 (SemVer §4; npm's ^0.1.0 admits 0.1.x only): breaking moves the minor number.
    ["0.1.0", "major", "0.2.0"],
    ["0.1.0", "minor", "0.1.1"],
    ["0.1.0", "patch", "0.1.1"],
  ] as const)("%s with a %s bump is at least %s", (from, bump, to) => {
    expect(bumpVersion(from, bump)).toBe(to);
  });
  it("precedence is SemVer §11's example chain", () => {
    const chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1"];
    for (let i = 1; i < chain.length; i++) {
      expect(compareSemver(chain[i - 1]!, chain[i]!), `${chain[i - 1]} < ${chain[i]}`).toBe(-1);
      expect(compareSemver(chain[i]!, chain[i - 1]!)).toBe(1);
    }
    expect(compareSemver("1.0.0+build.5", "1.0.0")).toBe(0);
  });
});
