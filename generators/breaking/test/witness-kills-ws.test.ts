// Candidate instances (synth.ts) and the witness search (witness.ts), checked from outside for the
// cases the 2026-12-06 rerun of the breaking-witness group left open. Every instance is judged by
// the fixture's own ajv (JSON Schema 2020-12 with formats), every string for a pattern by RegExp
// "u" (ECMA-262, as ajv compiles patterns), every witness on both versions; JSON values come from
// RFC 8259 (no undefined anywhere) and instance paths from RFC 6901 (a token on an object names a
// member, also when it is all digits).
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/types.js";
import type { Candidate, PathToken } from "../finding.js";
import { stringsOfLength, synth } from "../synth.js";
import { loadTree, type Located } from "../tree.js";
import { apply, findWitness, Validators } from "../witness.js";
import { accepts, writeTree, type Files } from "./spec-fixture.js";
import { expectSeparates, FILE, filesWith, locAt, request, versions } from "./witness-fixture.js";


/** synth's instances for one schema, each with the fixture ajv's verdict. */
function offered(schema: object): { values: JsonValue[]; accepted: JsonValue[] } {
  const files = filesWith({ $defs: { s: schema } });
  const tree = loadTree(writeTree(files));
  const values = synth(tree, locAt(tree, "/$defs/s"));
  return { values, accepted: values.filter((v) => accepts(files, FILE, "/$defs/s", v)) };
}

// Syntax characters (ECMA-262 SyntaxCharacter) are escaped; nothing else may be under "u".
const literal = (s: string) => s.replace(/[\^$\\.*+?()[\]{}|]/g, "\\$&");

describe("a pattern that admits one literal string gets that string", () => {
  // The named group stops the walked sample, and a literal written out in full names no length
  // through a {n} quantifier: for a string that is not one character repeated, only the string
  // itself (kept in the pool because real patterns spell out versions, URLs, dates and digests)
  // satisfies the pattern. A literal is a common pattern for a fixed version or origin.
  const LITERALS = [
    "1", "a1", "abc", "ABC", "a-b", "a_b", "a.b", "a b", "", "!",
    "1.0.0", "0.1.0", "2.0.0-rc.1", "https://example.com", "https://example.com/a", "http://example.com/a", "user@example.com",
    "2024-01-01T00:00:00Z", "2024-01-01", "00000000-0000-4000-8000-000000000000", "127.0.0.1", "example.com",
    "a".repeat(64), "f".repeat(64), "0".repeat(64), "A".repeat(64), "a".repeat(32),
  ];
  it.each(LITERALS.map((s) => [s.length > 20 ? `${s.slice(0, 12)}… (${s.length})` : JSON.stringify(s), s]))("%s", (_, s) => {
    const pattern = `^(?<s>${literal(s)})$`;
    expect(new RegExp(pattern, "u").test(s), "the table's pattern admits its string").toBe(true);
    const { values, accepted } = offered({ type: "string", pattern });
    expect(accepted, JSON.stringify(values)).toEqual([s]);
  });
});

describe("synth offers instances the schema accepts", () => {
  const CASES: [string, object][] = [
    // A string that must not be one of two sentinels: the second fill string is needed, and no
    // minLength means one character, not none.
    ["string outside two sentinels", { type: "string", not: { enum: ["", "a"] } }],
    // An item of any value inside an array whose `contains` wants a non-empty string.
    ["any item, a non-empty string contained", { type: "array", items: true, contains: { type: "string", minLength: 1 } }],
    // No `items`: any item is allowed, and `contains` asks for an integer.
    ["no items, an integer contained", { type: "array", contains: { type: "integer" } }],
    // Without uniqueItems the same item twice is what `contains` with minContains 2 needs.
    ["the same item twice", { type: "array", items: { enum: ["a", "b"] }, minItems: 2, contains: { const: "a" }, minContains: 2 }],
    // An item schema reached only through a $ref synth cannot follow (a plain-name fragment to an
    // $anchor): an empty array is valid, an invented item is not.
    ["items behind an $anchor", { type: "array", items: { $ref: "#int" }, $defs: { i: { $anchor: "int", type: "integer", minimum: 5 } } }],
    // prefixItems judges item 0 (2020-12 `items` applies only after it): the items schema's
    // own fallback string, of its minLength, is valid there; none or a shorter one is not.
    ["item 0 under prefixItems", { type: "array", minItems: 1, prefixItems: [{ type: "string", minLength: 3 }], items: { type: "string", minLength: 3, pattern: "^(?<q>q)+$" } }],
  ];
  it.each(CASES)("%s", (_, schema) => {
    const { values, accepted } = offered(schema);
    expect(accepted.length, JSON.stringify(values)).toBeGreaterThan(0);
  });

  // An optional member whose only valid value is the k-th of four, the constraint written in an
  // allOf beside the properties (synth reads only `properties`): variant k must carry it.
  it.each([1, 2, 3, 4])("an optional member valid only at its value %i", (k) => {
    const { values, accepted } = offered({ type: "object", minProperties: 1, properties: { x: { enum: [1, 2, 3, 4] } }, allOf: [{ properties: { x: { const: k } } }] });
    expect(accepted, JSON.stringify(values)).toContainEqual({ x: k });
  });

  it("a pattern with a {n} quantifier that also admits the empty string: every offer is valid", () => {
    // The quantifier names length 3; "" is admitted by the pattern but refused by `not`, and three
    // other strings the pattern admits are there to be offered first.
    const { values, accepted } = offered({ type: "string", pattern: "^(?<s>a{3}|1|a1|)$", not: { const: "" } });
    expect(values.length).toBeGreaterThan(0);
    expect(accepted, JSON.stringify(values)).toEqual(values);
  });
});

describe("synth offers JSON values only", () => {
  // RFC 8259 has no undefined: a member with no instance is left out, not set to undefined.
  it.each([
    ["a member that admits nothing", { type: "object", properties: { a: { const: 1 }, gone: false } }],
    ["a member behind an $anchor", { type: "object", properties: { a: { const: 1 }, r: { $ref: "#n" } }, $defs: { n: { $anchor: "n", type: "integer" } } }],
  ])("%s", (_, schema) => {
    const { values } = offered(schema);
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) expect(JSON.parse(JSON.stringify(v)), JSON.stringify(v)).toStrictEqual(v);
  });
});

describe("stringsOfLength with a pattern", () => {
  it("offers two strings of the length where two fill characters match", () => {
    // "aaa" and "fff" both match; a length finding then has a second string when the pattern
    // changes beside the bound.
    const out = stringsOfLength(3, "^[a-z]+$");
    expect(new Set(out).size).toBe(2);
    for (const s of out) expect([s.length, new RegExp("^[a-z]+$", "u").test(s)]).toEqual([3, true]);
  });

  // A sign or a space the pattern puts in front (behind a named group, so the walk stops): no
  // fill run matches, and the only seed to grow is the one-character pool string itself.
  it.each([
    ["^(?<s>-)a*$", 3, "-aa"],
    ["^(?<s> )a*$", 3, " aa"],
  ] as const)("%s at length %i gives a string, e.g. %j", (pattern, length, example) => {
    expect(new RegExp(pattern, "u").test(example), "the table's example").toBe(true);
    const out = stringsOfLength(length, pattern);
    expect(out.length).toBeGreaterThan(0);
    for (const s of out) expect([s.length, new RegExp(pattern, "u").test(s)]).toEqual([length, true]);
  });

  it("a pattern that admits the word \"undefined\" but no fill run does not throw", () => {
    // No fill character repeated matches (an "n" is needed); the walk stops at the named group.
    const pattern = "^(?<w>[a-z]*n[a-z]*)$";
    expect(() => stringsOfLength(4, pattern)).not.toThrow();
    const out = stringsOfLength(4, pattern);
    for (const s of out) expect([s.length, new RegExp(pattern, "u").test(s)]).toEqual([4, true]);
  });
});

describe("apply follows RFC 6901 on objects", () => {
  // A token on an object is a member name, all digits or not.
  const TABLE: [JsonValue, PathToken[], Candidate, JsonValue][] = [
    [{}, [0], { set: 1 }, { "0": 1 }],
    [{ "0": 1, a: 2 }, [0], { remove: true }, { a: 2 }],
  ];
  it.each(TABLE)("%j at %j with %j", (base, path, c, expected) => {
    expect(apply(base, path, c)).toStrictEqual(expected);
  });
});

describe("findWitness", () => {
  it("a root's third example is a base when only it separates the versions", () => {
    // n: number before, integer after; of the examples only the third carries 1.5.
    const v = versions(
      { type: "object", properties: { n: { type: "number" } }, examples: [{}, { m: 1 }, { n: 1.5 }] },
      { type: "object", properties: { n: { type: "integer" } } },
    );
    const w = findWitness(request(v.oldRoot, v.newRoot, [], [], "old-writer-new-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("a removed message synth cannot instantiate: the candidate goes into an empty object", () => {
    // allOf nested deeper than synth goes (each allOf is a level; a $ref chain adds none) gives no
    // base of its own, and the removed version none either; the member candidate must still land in {}.
    const nestedAllOf = (k: number): object => (k === 0 ? { type: "object" } : { allOf: [nestedAllOf(k - 1)] });
    const v = versions({ type: "object", allOf: [nestedAllOf(12)] }, { type: "object" });
    expect(synth(v.ot, v.oldRoot)).toEqual([]);
    const w = findWitness(request(v.oldRoot, null, ["n"], [{ set: 1 }], "old-writer-new-reader"), v.ov, v.nv);
    expect(w).toEqual({ instance: { n: 1 }, acceptedBy: "old" });
  });

  it("a message file that is a list, not a schema, accepts nothing", () => {
    // JSON Schema 2020-12 (4.3): a schema is an object or a boolean, so an old commit's list file
    // validates no instance, and "a" is no witness that the old version accepted it.
    const b: Files = { "spec/p/protocol.yaml": { id: "p" }, [FILE]: [{ type: "string" }] };
    const a = filesWith({ type: "object" });
    const ot = loadTree(writeTree(b));
    const nt = loadTree(writeTree(a));
    const oldRoot: Located = { doc: ot.schemas.find((d) => d.file.file.endsWith("T.yaml"))!, pointer: "", schema: null as never };
    oldRoot.schema = oldRoot.doc.file.value;
    const newRoot = locAt(nt, "");
    expect(Array.isArray(oldRoot.schema)).toBe(true);
    expect(findWitness(request(oldRoot, newRoot, [], [{ set: "a" }], "old-writer-new-reader"), new Validators(ot), new Validators(nt))).toBeNull();
  });

  it("a root that stops accepting any value: the witness is a JSON value, not a removed root", () => {
    // Path [] with a remove candidate means no instance at all, which is not a witness.
    const v = versions({}, { type: "object" });
    const w = findWitness(request(v.oldRoot, v.newRoot, [], [{ remove: true }], "old-writer-new-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
    expect(w!.acceptedBy).toBe("old");
  });
});
