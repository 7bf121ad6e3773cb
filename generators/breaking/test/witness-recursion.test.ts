// A schema ajv cannot evaluate: `A: {allOf: [{$ref: A}], type: string}` refers to itself without
// reaching into the instance, so validating anything against it recurses until the stack runs out.
// The breaking detector threw that RangeError out of `compare`; now such a side has no verdict, so
// no instance is a witness through it, and the finding stands with "witness: none found".
import { describe, expect, it } from "vitest";
import { loadTree } from "../tree.js";
import { Validators } from "../witness.js";
import { accepts, baseFiles, comparePair, M, where, writeTree, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
const selfAllOf: Edit = (f) => {
  f[M].$defs = { A: { allOf: [{ $ref: "#/$defs/A" }], type: "string" } };
  props(f).r = { $ref: "#/$defs/A" };
};
const object: Edit = (f) => void (props(f).r = { type: "object" });
const example = { kind: "a", name: "abc" };

describe("a schema that refers to itself without reaching into the instance", () => {
  it("has no verdict on an instance that reaches it, and a verdict on one that does not", () => {
    const files = baseFiles();
    selfAllOf(files);
    const tree = loadTree(writeTree(files));
    const check = new Validators(tree).of({ doc: tree.schemas.find((d) => d.file.file === M)!, pointer: "", schema: files[M] })!;
    expect(check({ ...example, r: "x" })).toBeUndefined();
    // Without r, A is never reached: M's own keywords decide (required kind and name are there).
    expect(check(example)).toBe(true);
    expect(check({ name: "abc" })).toBe(false);
  });
  it("an object property made that schema: its strings have no verdict, but {} is refused by its type alone", () => {
    // A still says type string, which ajv checks before the allOf: {} is refused without recursing,
    // so old writers' {} is a witness; new writers' strings reach the allOf, so that direction has none.
    const { findings, before, after } = comparePair(object, selfAllOf);
    const wire = findings.filter((f) => f.category === "WIRE" && f.rule === "WIRE_TYPE_CHANGED");
    expect(wire.map(where).sort()).toEqual([`WIRE_TYPE_CHANGED ${M}#/$defs/A/type new-writer-old-reader`, `WIRE_TYPE_CHANGED ${M}#/$defs/A/type old-writer-new-reader`]);
    const [loosened, narrowed] = [...wire].sort((a, b) => where(a).localeCompare(where(b)));
    expect(loosened!.witness ?? null).toBeNull();
    expect(narrowed!.witness!.instance).toMatchObject({ r: {} });
    expect(narrowed!.witness!.acceptedBy).toBe("old");
    expect(accepts(after, M, "", narrowed!.witness!.instance)).toBe(false);
    expect(accepts(before, M, "", narrowed!.witness!.instance)).toBe(true);
  });
  it("a string property made that schema: nothing is shown, so the allOf it gained (an intersection) is no finding", () => {
    // Both versions refuse every non-string; on strings only the old one has a verdict. The only
    // WIRE difference is the allOf, which counts only with a witness, and none can be shown.
    const string: Edit = (f) => void (props(f).r = { type: "string" });
    expect(comparePair(string, selfAllOf).findings.filter((f) => f.category === "WIRE")).toEqual([]);
  });
});
