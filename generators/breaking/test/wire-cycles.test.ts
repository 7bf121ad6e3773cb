// A recursive schema compared with one that is not: the comparison must end (it recursed until the
// stack ran out: a $ref on one side only was followed again at every level), and still report
// what JSON Schema 2020-12 says changed. Every witness is re-checked with the tests' own ajv.
import { describe, expect, it } from "vitest";
import { expectWitness, M, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
/** r is A, an array whose items are A again: it admits only arrays of arrays, down to []. */
const recursive: Edit = (f) => {
  f[M].$defs = { A: { type: "array", items: { $ref: "#/$defs/A" } } };
  props(f).r = { $ref: "#/$defs/A" };
};
const open: Edit = (f) => void (props(f).r = { type: "array", items: {} });

describe("a recursive schema against a plain one", () => {
  it("recursive arrays opened to arrays of anything: old readers refuse [1]", () => {
    // The items were A (type array) and are now {} (any type): a widened type at r's items.
    const { wire, before, after } = pair(recursive, open);
    expect(wire.map(where)).toEqual([`WIRE_TYPE_CHANGED ${M}#/properties/r/items/type new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("arrays of anything narrowed to recursive arrays: new readers refuse [1]", () => {
    // The same narrowing, placed where the new version says "array": A's type.
    const { wire, before, after } = pair(open, recursive);
    expect(wire.map(where)).toEqual([`WIRE_TYPE_CHANGED ${M}#/$defs/A/type old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("two properties that leave the same $ref for the same inline schema are both reported", () => {
    // Only a comparison already in progress stops: siblings are compared each on its own.
    const refs: Edit = (f) => Object.assign(props(f), { p1: { $ref: "../common/types.json#/$defs/Id" }, p2: { $ref: "../common/types.json#/$defs/Id" } });
    const inline: Edit = (f) => Object.assign(props(f), { p1: { type: "string" }, p2: { type: "string" } });
    const { wire, before, after } = pair(refs, inline);
    expect(wire.map((f) => f.at.pointer.split("/")[2]).sort()).toEqual(["p1", "p2"]);
    for (const f of wire) expectWitness(f, before, after);
  });
  it("the same recursive schema on both sides is no finding", () => {
    expect(pair(recursive, recursive).wire).toEqual([]);
  });
});
