// Two changes at one place, and keywords written where a node had none (issue 41's review found
// both dropped). Expectations worked out by hand from the fixture's values.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { baseFiles, M, OPEN, writeTree, type Files } from "./spec-fixture.js";

function changes(edit: (f: Files) => void, before: (f: Files) => void = () => {}) {
  const b = baseFiles();
  before(b);
  const a = baseFiles();
  before(a);
  edit(a);
  return compareRoots(writeTree(b), writeTree(a));
}

describe("changes at one place, and keywords new to a node", () => {
  it("two documentation keys removed from one node are two changes, each named", () => {
    const r = changes((f) => void (delete f[M].properties.count.description, delete f[M].properties.count.$comment), (f) => void Object.assign(f[M].properties.count, { description: "How many.", $comment: "counted" }));
    expect(r.changes.map((c) => [c.kind, c.at.pointer, c.message])).toEqual([
      ["DOCUMENTATION_CHANGED", "/properties/count", "description removed"],
      ["DOCUMENTATION_CHANGED", "/properties/count", "$comment removed"],
    ]); // in the old file's order
  });
  it("a $defs written into a file that had none adds each of its entries, as properties into an object that had none", () => {
    const defs = changes((f) => void (f[OPEN].$defs = { Note: { title: "Note", type: "string" } }));
    expect(defs.changes.map((c) => [c.kind, c.severity, c.at.file, c.at.pointer])).toEqual([["DEFINITION_ADDED", "compatible", OPEN, "/$defs/Note"]]);
    const fields = changes((f) => void (f[OPEN].properties = { a: { type: "string" }, b: { type: "string" } }), (f) => void delete f[OPEN].properties);
    expect(fields.changes.map((c) => [c.kind, c.at.pointer])).toEqual([["FIELD_ADDED", "/properties/a"], ["FIELD_ADDED", "/properties/b"]]);
  });
});
