// What each compatible or documentation change says and where it points (issue 41): the release
// notes and the changelog print these lines. changes.test.ts proves each kind is found; here each
// message, pointer and the edges of the walk (nested nodes, escaped names, value lists skipped,
// documentation added, changed and removed, with or without its node) are written by hand from
// spec-fixture.ts's files.
import { describe, expect, it } from "vitest";
import { CHANGE_KINDS } from "../changes.js";
import { compareRoots } from "../compare.js";
import { baseFiles, M, MACHINE, OPEN, PROTOCOL, TYPES, writeTree, type Files } from "./spec-fixture.js";

function changes(edit: (f: Files) => void, base: (f: Files) => void = () => {}) {
  const b = baseFiles();
  base(b);
  const a = baseFiles();
  base(a);
  edit(a);
  return compareRoots(writeTree(b), writeTree(a)).changes.map((c) => [c.kind, c.severity, c.at.file, c.at.pointer, c.message]);
}

describe("compatible changes: messages and places", () => {
  it("a message and a common schema file added", () => {
    expect(changes((f) => void (f["spec/p/messages/New.yaml"] = { $id: "https://agent-contracts.dev/schemas/p/New.json", title: "New", type: "string" }))).toEqual([["MESSAGE_ADDED", "compatible", "spec/p/messages/New.yaml", "", "message p/New added"]]);
    expect(changes((f) => void (f["spec/common/more.yaml"] = { $id: "https://agent-contracts.dev/schemas/common/more.json", title: "More", $defs: {} }))).toEqual([["DEFINITION_ADDED", "compatible", "spec/common/more.yaml", "", "schema file common/more added"]]);
  });
  it("a field added at the root names no place; one added deeper names its node's pointer", () => {
    expect(changes((f) => void (f[OPEN].properties.b = { type: "string" }))).toEqual([["FIELD_ADDED", "compatible", OPEN, "/properties/b", "field b added in p/Open"]]);
    const nested = (extra: object) => (f: Files) => void (f[OPEN].properties.a = { type: "object", properties: { x: { type: "string" }, ...extra } });
    expect(changes(nested({ "y/z": { type: "string" } }), nested({}))).toEqual([["FIELD_ADDED", "compatible", OPEN, "/properties/a/properties/y~1z", "field y/z added at /properties/a in p/Open"]]);
  });
  it("a $defs entry added, in a common file and inside a message", () => {
    expect(changes((f) => void (f[TYPES].$defs.Lower = { title: "Lower", type: "string" }))).toEqual([["DEFINITION_ADDED", "compatible", TYPES, "/$defs/Lower", "definition Lower added in common/types"]]);
  });
  it("enum values added where no reader rejects them: one value, several values", () => {
    const tolerant = (f: Files) => void (f["spec/breaking.yaml"] = { breaking: { tolerantReaders: [{ at: M, reason: "readers ship first" }] } });
    const added = changes((f) => void f[M].properties.kind.enum.push("c"), tolerant);
    // A finding (WIRE_ENUM_VALUE_ADDED, waived) describes it: the change is left to the finding.
    expect(added).toEqual([]);
    // Under allOf beside a sibling that admits only "x", no reader rejects anything new: no
    // witness, so no finding, and the addition is a compatible change.
    const pinned = (values: string[]) => (f: Files) => void (f[OPEN].properties.a = { allOf: [{ enum: ["x"] }, { enum: values }] });
    expect(changes(pinned(["x", "y", "z"]), pinned(["x"]))).toEqual([["ENUM_VALUE_ADDED", "compatible", OPEN, "/properties/a/allOf/1/enum", 'enum values "y", "z" added in p/Open']]);
    expect(changes(pinned(["x", "y"]), pinned(["x"]))).toEqual([["ENUM_VALUE_ADDED", "compatible", OPEN, "/properties/a/allOf/1/enum", 'enum value "y" added in p/Open']]);
    expect(changes(pinned(["y", "x"]), pinned(["x", "y"]))).toEqual([]);
  });
  it("a constant, a lifecycle, a state, an event, a transition added; a guard dropped", () => {
    expect(changes((f) => void f[PROTOCOL].constants[0].items.push({ name: "C", value: "c" }))).toEqual([["CONSTANT_ADDED", "compatible", PROTOCOL, "/constants/0/items/2", "constant p g.C added"]]);
    expect(changes((f) => void f[PROTOCOL].constants.push({ group: "h", items: [{ name: "A", value: "a" }] }))).toEqual([["CONSTANT_ADDED", "compatible", PROTOCOL, "/constants/1/items/0", "constant p h.A added"]]);
    expect(changes((f) => void (f["spec/p/lifecycles/n.machine.yaml"] = { ...f[MACHINE], name: "n" }))).toEqual([["LIFECYCLE_ADDED", "compatible", "spec/p/lifecycles/n.machine.yaml", "", "lifecycle p/n added"]]);
    expect(changes((f) => void (f[MACHINE].states["d/e"] = { description: "D" }))).toEqual([["STATE_ADDED", "compatible", MACHINE, "/states/d~1e", "p/m: state d/e added"]]);
    expect(changes((f) => void (f[MACHINE].events.pause = { description: "p" }))).toEqual([["EVENT_ADDED", "compatible", MACHINE, "/events/pause", "p/m: event pause added"]]);
    expect(changes((f) => void f[MACHINE].transitions.push({ from: "a", event: "stop", to: "c", guard: "h" }))).toEqual([["TRANSITION_ADDED", "compatible", MACHINE, "/transitions/2", "p/m: a --stop [h]--> c added"]]);
    expect(changes((f) => void (f[MACHINE].transitions[1].guard = []), (f) => void (f[MACHINE].transitions[1].guard = ["g", "h"]))).toEqual([["GUARD_REMOVED", "compatible", MACHINE, "/transitions/1", "p/m: b --stop [g, h]--> c lost guard g and h"]]);
  });
  it("a kept transition whose guards are unchanged, or gained one, is no compatible change", () => {
    expect(changes((f) => void f[MACHINE].transitions.reverse())).toEqual([]);
  });
});

describe("documentation", () => {
  it("added, changed and removed, each at its place; removed points at the node that lost it", () => {
    expect(changes((f) => void (f[OPEN].properties.a.description = "The a."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", OPEN, "/properties/a/description", "description added"]]);
    expect(changes((f) => void (f[M].description = "Reworded."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "/description", "description changed"]]);
    expect(changes((f) => void delete f[M].description)).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "", "description removed"]]);
    expect(changes((f) => void delete f[M].properties.name.$comment, (f) => void (f[M].properties.name.$comment = "c"))).toEqual([["DOCUMENTATION_CHANGED", "documentation", M, "/properties/name", "$comment removed"]]);
  });
  it("every documentation key counts; other keys do not", () => {
    for (const key of ["x-source", "x-invalid-examples", "x-divergences", "x-document"]) {
      expect(changes((f) => void (f[OPEN][key] = ["v2"]), (f) => void (f[OPEN][key] = ["v1"])), key).toEqual([["DOCUMENTATION_CHANGED", "documentation", OPEN, `/${key}`, `${key} changed`]]);
    }
    expect(changes((f) => void (f[OPEN].title2 = "x"))).toEqual([]);
  });
  it("a documented node added or removed with its documentation is no documentation change", () => {
    expect(changes((f) => void (f[OPEN].properties.b = { type: "string", description: "B." })).map((c) => c[0])).toEqual(["FIELD_ADDED"]);
    const withB = (f: Files) => void (f[OPEN].properties.b = { type: "string", description: "B." });
    expect(changes((f) => void delete f[OPEN].properties.b, withB).filter((c) => c[0] === "DOCUMENTATION_CHANGED")).toEqual([]);
  });
  it("a key with / or ~ is named unescaped, pointed at escaped", () => {
    const doc = (text: string) => (f: Files) => void (f[OPEN].properties["a/b~c"] = { type: "string", description: text });
    expect(changes(doc("new"), doc("old"))).toEqual([["DOCUMENTATION_CHANGED", "documentation", OPEN, "/properties/a~1b~0c/description", "description changed"]]);
  });
  it("documentation in protocol.yaml, a machine and project.yaml", () => {
    expect(changes((f) => void (f[PROTOCOL].constants[0].items[0].description = "The A."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", PROTOCOL, "/constants/0/items/0/description", "description added"]]);
    expect(changes((f) => void (f[MACHINE].description = "Reworded."))).toEqual([["DOCUMENTATION_CHANGED", "documentation", MACHINE, "/description", "description changed"]]);
    const project = (d: string) => (f: Files) => void (f["spec/project.yaml"] = { project: { name: "fixture", version: "1.0.0", description: d } });
    expect(changes(project("new"), project("old"))).toEqual([["DOCUMENTATION_CHANGED", "documentation", "spec/project.yaml", "/project/description", "description changed"]]);
  });
});

describe("the walk over schema nodes", () => {
  it("nodes under x- keywords and value lists are not walked: no field added there", () => {
    const under = (key: string) => (extra: object) => (f: Files) => void (f[OPEN][key] = { type: "object", properties: { a: { type: "string" }, ...extra } });
    for (const key of ["x-extra", "default", "const"]) {
      expect(changes(under(key)({ b: { type: "string" } }), under(key)({})).filter((c) => c[0] === "FIELD_ADDED"), key).toEqual([]);
    }
    expect(changes(under("not")({ b: { type: "string" } }), under("not")({})).filter((c) => c[0] === "FIELD_ADDED").map((c) => c[3])).toEqual(["/not/properties/b"]);
  });
  it("nodes inside arrays (anyOf branches) are walked at their index", () => {
    const branch = (extra: object) => (f: Files) => void (f[OPEN].properties.a = { anyOf: [{ type: "string" }, { type: "object", properties: { x: { type: "string" }, ...extra } }] });
    expect(changes(branch({ y: { type: "string" } }), branch({})).filter((c) => c[0] === "FIELD_ADDED").map((c) => [c[3], c[4]])).toEqual([["/properties/a/anyOf/1/properties/y", "field y added at /properties/a/anyOf/1 in p/Open"]]);
  });
  it("a node new in this version (no old object at its place) reports nothing inside it", () => {
    expect(changes((f) => void (f[OPEN].properties.b = { type: "object", properties: { c: { type: "string" } } }))).toEqual([["FIELD_ADDED", "compatible", OPEN, "/properties/b", "field b added in p/Open"]]);
  });
});

describe("the list", () => {
  it("sorted by file, then line, then kind; each kind once per place", () => {
    const list = changes((f) => {
      f[MACHINE].states.d = { description: "D" };
      f[OPEN].properties.b = { type: "string" };
      f[OPEN].properties.a.description = "A.";
      f[PROTOCOL].constants[0].items.push({ name: "C", value: "c" });
    });
    expect(list.map((c) => [c[2], c[3]])).toEqual([
      [OPEN, "/properties/a/description"],
      [OPEN, "/properties/b"],
      [MACHINE, "/states/d"],
      [PROTOCOL, "/constants/0/items/2"],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0)));
  });
  it("every kind has a description the changelog prints", () => {
    for (const [kind, text] of Object.entries(CHANGE_KINDS)) expect(text, kind).toMatch(/^[A-Z].{15,}\.$/);
  });
});
