// Where the witness search has nothing of a schema's own to start from, and escapes ECMA-262
// refuses. A root synth cannot instantiate (allOf nested past synth's depth: each allOf is a level)
// leaves the search only the empty object; its expectations come from JSON Schema 2020-12 (the
// fixture's ajv judges every witness). Pattern expectations come from ECMA-262 under the u flag,
// checked against RegExp itself.
import { describe, expect, it } from "vitest";
import { comparePatterns } from "../regex-lang.js";
import { synth } from "../synth.js";
import { findWitness } from "../witness.js";
import { compiles, expectRelation } from "./pattern-check.js";
import { expectSeparates, request, versions } from "./witness-fixture.js";

/** allOf nested k deep around `inner`: every level admits what `inner` admits. */
const nestedAllOf = (k: number, inner: object): object => (k === 0 ? inner : { allOf: [nestedAllOf(k - 1, inner)] });
const uninstantiable = (inner: object) => ({ type: "object", allOf: [nestedAllOf(12, inner)] });

describe("a root synth cannot instantiate", () => {
  it("gives synth nothing, on both versions", () => {
    const v = versions(uninstantiable({ type: "object" }), uninstantiable({ type: "object", properties: { n: { type: "string" } } }));
    expect(synth(v.ot, v.oldRoot)).toEqual([]);
    expect(synth(v.nt, v.newRoot)).toEqual([]);
  });
  it("still gets a witness: the candidate goes into an empty object", () => {
    // Old: any object. New: n must be a string. {n: 1} is old-valid and new-invalid.
    const v = versions(uninstantiable({ type: "object" }), uninstantiable({ type: "object", properties: { n: { type: "string" } } }));
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], [{ set: 1 }], "old-writer-new-reader"), v.ov, v.nv);
    expect(w?.instance).toEqual({ n: 1 });
    expectSeparates(w, v.b, v.a);
  });
  it("a removed message: the other side's empty object still carries the candidate", () => {
    const v = versions(uninstantiable({ type: "object" }), { type: "object" });
    const w = findWitness(request(v.oldRoot, null, ["n"], [{ set: 1 }], "old-writer-new-reader"), v.ov, v.nv);
    expect(w).toEqual({ instance: { n: 1 }, acceptedBy: "old" });
  });
});

describe("objects nest exactly as deep as synth goes", () => {
  it("eleven levels: the root and ten below it", () => {
    // d0 is {c: d1}, d1 is {c: d2}, ...: synth reaches depth 10 and no further, so the deepest
    // instance nests eleven objects (0 through 10), however deep the schema goes.
    const nested = { $ref: "#/$defs/d0", $defs: Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`d${i}`, i === 40 ? { const: "end" } : { type: "object", properties: { c: { $ref: `#/$defs/d${i + 1}` } } }])) };
    const v = versions(nested, nested);
    const depthOf = (x: unknown): number => (x !== null && typeof x === "object" ? 1 + Math.max(0, ...Object.values(x).map(depthOf)) : 0);
    expect(Math.max(...synth(v.ot, v.oldRoot).map(depthOf))).toBe(11);
  });
});

describe("escapes ECMA-262 refuses under the u flag are not decided", () => {
  // \x needs two hex digits, \u four (or braces), and a low surrogate after a high one needs all
  // four of its own: each of these is a SyntaxError for RegExp with the u flag.
  it.each(["^\\xg12$", "^\\x4g$", "^\\u0g1234$", "^\\uD83D\\uDC0g$"])("%s", (p) => {
    expect(compiles(p), "RegExp refuses it").toBe(false);
    expect(comparePatterns(p, "^a$")).toBeUndefined();
  });
});

describe("escapes read as ECMA-262 reads them", () => {
  it.each([
    // A high surrogate followed by anything but a \u low surrogate stays one code point alone.
    ["^\\uD83Dx\\uDE00$", "^\\u{D83D}x\\u{DE00}$", false, false],
    // The complement of the last code point is everything below it.
    ["^[^\\u{10FFFF}]$", "^[\\0-\\u{10FFFE}]$", false, false],
    ["^[^\\u{10FFFF}]$", "^[\\0-\\u{10FFFF}]$", false, true],
  ] as const)("%s vs %s", (a, b, oldOnly, newOnly) => {
    expect(compiles(a) && compiles(b)).toBe(true);
    expectRelation(a, b, oldOnly, newOnly);
  });
});
