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
  it("a protocol's summary edited is documentation (protocol.yaml's summary is prose for readers)", () => {
    const r = changes((f) => void (f[PROTOCOL].summary = "Reworded."), (f) => void (f[PROTOCOL].summary = "P, in short."));
    expect(r.changes.map((c) => [c.kind, c.severity, c.at.file, c.at.pointer])).toEqual([["DOCUMENTATION_CHANGED", "documentation", PROTOCOL, "/summary"]]);
  });
  it("a documentation key removed together with its node is not reported apart from the node", () => {
    // Guard h is on no transition: dropping it (and its description) breaks no one and adds nothing.
    expect(changes((f) => void delete f[MACHINE].guards.h).changes).toEqual([]);
  });
  it("values under examples and enum are instances, not schemas: a properties member added there is no field", () => {
    const example = (properties: object) => (f: Files) => void (f[OPEN].examples = [{ a: "x", properties }]);
    expect(changes(example({ p: 1, q: 2 }), example({ p: 1 })).changes.map((c) => [c.kind, c.at.pointer])).toEqual([["DOCUMENTATION_CHANGED", "/examples"]]);
    // The enum value changed is reported by the findings (a value added and one removed), nothing else.
    const value = (properties: object) => (f: Files) => void (f[OPEN].properties.a = { enum: [{ properties }] });
    const r = changes(value({ p: 1, q: 2 }), value({ p: 1 }));
    expect(r.findings.map((f) => f.rule).sort()).toEqual(["SOURCE_ENUM_CASE_REMOVED", "WIRE_ENUM_VALUE_ADDED", "WIRE_ENUM_VALUE_REMOVED"]);
    expect(r.changes).toEqual([]);
  });
  it("a properties or enum keyword that disappears is no addition (the findings report the loosening)", () => {
    const props = changes((f) => void delete f[OPEN].properties);
    expect(props.findings.map((f) => f.rule)).toEqual(["SOURCE_FIELD_REMOVED"]);
    expect(props.changes).toEqual([]);
    const values = changes((f) => void delete f[M].properties.kind.enum);
    expect(values.findings.map((f) => f.rule)).toContain("WIRE_ENUM_VALUE_ADDED");
    expect(values.changes).toEqual([]);
  });
  it("a constants group without items (the meta-schema requires them) adds no constant and hides no other", () => {
    expect(kinds((f) => void f[PROTOCOL].constants.push({ group: "h" }))).toEqual([]);
    expect(kinds((f) => void (f[PROTOCOL].constants.push({ group: "h" }), f[PROTOCOL].constants[0].items.push({ name: "C", value: "c" })))).toEqual([["CONSTANT_ADDED", "compatible", PROTOCOL, "/constants/0/items/2"]]);
  });
  it("a lifecycle is matched by protocol and name: m in a new protocol q is a lifecycle added", () => {
    const q = (f: Files) => void ((f["spec/q/protocol.yaml"] = { id: "q", title: "Q", constants: [] }), (f["spec/q/lifecycles/m.machine.yaml"] = { ...f[MACHINE] }));
    expect(kinds(q)).toEqual([["LIFECYCLE_ADDED", "compatible", "spec/q/lifecycles/m.machine.yaml", ""]]);
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
  it("only a finding in the change's own file covers it: b added to the closed M and to the open Open", () => {
    const r = changes((f) => void ((f[M].properties.b = { type: "string" }), (f[OPEN].properties.b = { type: "string" })));
    expect(r.findings.map((f) => [f.rule, f.at.file, f.at.pointer])).toEqual([["WIRE_PROPERTY_ADDED_CLOSED", M, "/properties/b"]]);
    expect(r.changes.map((c) => [c.kind, c.at.file, c.at.pointer])).toEqual([["FIELD_ADDED", OPEN, "/properties/b"]]);
  });
  it("a finding below a change's place covers it: a's description dropped as a is tightened", () => {
    const r = changes((f) => void (f[OPEN].properties.a = { type: "string", maxLength: 3 }), (f) => void (f[OPEN].properties.a.description = "A."));
    expect(r.findings.map((f) => [f.rule, f.at.pointer])).toEqual([["WIRE_BOUND_TIGHTENED", "/properties/a/maxLength"]]);
    expect(r.changes).toEqual([]);
  });
  it("at one place, kinds in order: a transition's description and its guard dropped", () => {
    const r = changes((f) => void (delete f[MACHINE].transitions[1].guard, delete f[MACHINE].transitions[1].description), (f) => void (f[MACHINE].transitions[1].description = "b to c"));
    expect(r.changes.map((c) => [c.kind, c.at.pointer])).toEqual([
      ["DOCUMENTATION_CHANGED", "/transitions/1"],
      ["GUARD_REMOVED", "/transitions/1"],
    ]);
  });
  it("changes of one kind at one line and column keep the order they were found in (the sort is stable)", () => {
    // In block YAML the root and its first key both sit at 1:1. What a file's documentation now
    // says is gathered before what it lost.
    const open = (description: string, extra: string) => (f: Files) =>
      void (f[OPEN] = `description: ${description}\n${extra}$id: https://agent-contracts.dev/schemas/p/Open.json\ntitle: Open\ntype: object\n`);
    const r = changes(open("New.", ""), open("Old.", "$comment: c\n"));
    expect(r.changes.map((c) => [c.kind, c.at.line, c.at.column, c.at.pointer, c.message])).toEqual([
      ["DOCUMENTATION_CHANGED", 1, 1, "/description", "description changed"],
      ["DOCUMENTATION_CHANGED", 1, 1, "", "$comment removed"],
    ]);
  });
  it("changes come in file, line, column, kind order", () => {
    // Gathered schema files first, then protocols, then lifecycles; each file's documentation
    // before its additions: this edit puts each of those out of order.
    const r = changes(
      (f) => {
        f[TYPES].$defs.Lower = { title: "Lower", type: "string" };
        f[OPEN].properties.b = { type: "string" };
        f[OPEN].description = "Open to new fields.";
        // D takes C's index: the constant added and C's description gone from that index share a place.
        f[PROTOCOL].constants[0].items.splice(2, 0, { name: "D", value: "d" });
        delete f[PROTOCOL].constants[0].items[3].description;
        f[MACHINE].states.d = { description: "D" };
      },
      (f) => void f[PROTOCOL].constants[0].items.push({ name: "C", value: "c", description: "see" }),
    );
    expect(r.findings.filter((f) => f.status === "breaking")).toEqual([]);
    // Open.yaml's properties come before its description, added as the file's last key.
    expect(r.changes.map((c) => [c.kind, c.at.file, c.at.pointer])).toEqual([
      ["DEFINITION_ADDED", TYPES, "/$defs/Lower"],
      ["STATE_ADDED", MACHINE, "/states/d"],
      ["FIELD_ADDED", OPEN, "/properties/b"],
      ["DOCUMENTATION_CHANGED", OPEN, "/description"],
      ["CONSTANT_ADDED", PROTOCOL, "/constants/0/items/2"],
      ["DOCUMENTATION_CHANGED", PROTOCOL, "/constants/0/items/2"],
    ]);
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
