// Detector bugs the reviews of source.ts, wire-bounds.ts and wire-report.ts found: each case failed
// before its fix. Expectations are worked out by hand from JSON Schema 2020-12 (and, for SOURCE, from
// what the generators write for a field); every witness is re-checked with the tests' own ajv.
import { describe, expect, it } from "vitest";
import { compareWire } from "../compare.js";
import { loadTree } from "../tree.js";
import { baseFiles, comparePair, expectWitness, M, where, wirePair as pair, writeTree, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
const declare = (schemas: Record<string, object>): Edit => (f) => void Object.assign(props(f), structuredClone(schemas));

describe("a writer held to a const or enum meets a new keyword that refuses its values", () => {
  it("maxLength 0 beside an enum of one-letter strings: old writers' values are refused", () => {
    // enum [a, b] admits "a" and "b"; maxLength 0 admits only "": both old values now fail.
    const { wire, before, after } = pair(declare({ q: { enum: ["a", "b"] } }), declare({ q: { enum: ["a", "b"], maxLength: 0 } }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/maxLength old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("a pattern beside a const that does not match it: the const value is refused", () => {
    // const "abc" does not match ^x: every instance the old schema admits fails the new one.
    const { wire, before, after } = pair(declare({ q: { const: "abc" } }), declare({ q: { const: "abc", pattern: "^x" } }));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/q/pattern old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
    expect((wire[0]!.witness!.instance as { q: unknown }).q).toBe("abc");
  });
  it("an enum of strings made an integer: both directions break", () => {
    // Old writers send "a" (not an integer); new writers send 7 (not in the enum).
    const { wire, before, after } = pair(declare({ q: { enum: ["a", "b"] } }), declare({ q: { type: "integer" } }));
    const directions = new Set(wire.map((f) => f.direction));
    expect(directions.has("old-writer-new-reader") || directions.has("either")).toBe(true);
    expect(directions.has("new-writer-old-reader") || directions.has("either")).toBe(true);
    for (const f of wire) expectWitness(f, before, after);
    expect(wire.some((f) => f.witness!.acceptedBy === "old")).toBe(true);
    expect(wire.some((f) => f.witness!.acceptedBy === "new")).toBe(true);
  });
});

describe("only a writer held to a const or enum makes a finding need a witness", () => {
  // compareWire's findings before the witness search: `maskable` marks one that stands only with a
  // witness. The writer is the old version for old-writer-new-reader, the new one otherwise.
  const wireOf = (old: object, now: object) => {
    const before = baseFiles();
    const after = baseFiles();
    declare({ q: old })(before);
    declare({ q: now })(after);
    return compareWire(loadTree(writeTree(before)), loadTree(writeTree(after))).filter((f) => f.rule.startsWith("WIRE_BOUND"));
  };
  it("an enum opened to any string, its bound loosened: the new writers are open, so no witness is needed", () => {
    const [f, ...rest] = wireOf({ enum: ["a", "b"], maxLength: 1 }, { type: "string", maxLength: 3 });
    expect(rest).toEqual([]);
    expect([f!.direction, f!.maskable]).toEqual(["new-writer-old-reader", undefined]);
  });
  it("a string narrowed to an enum, its bound tightened: the old writers are open, so no witness is needed", () => {
    const [f, ...rest] = wireOf({ type: "string", maxLength: 3 }, { enum: ["a", "b"], maxLength: 1 });
    expect(rest).toEqual([]);
    expect([f!.direction, f!.maskable]).toEqual(["old-writer-new-reader", undefined]);
  });
  it("the old writers held to an enum, its bound tightened: the finding needs a witness", () => {
    const [f, ...rest] = wireOf({ enum: ["a", "b"] }, { enum: ["a", "b"], maxLength: 0 });
    expect(rest).toEqual([]);
    expect([f!.direction, f!.maskable]).toEqual(["old-writer-new-reader", true]);
  });
  it("the new writers held to an enum, its bound loosened: the finding needs a witness", () => {
    const [f, ...rest] = wireOf({ type: "string", minLength: 2 }, { enum: ["a", "b"] });
    expect(rest).toEqual([]);
    expect([f!.direction, f!.maskable]).toEqual(["new-writer-old-reader", true]);
  });
});

describe("a pattern rewritten around an undecided one: the witness is an old string varied", () => {
  // The lookahead puts both patterns outside regex-lang's subset and the new one does not keep the
  // old as a top-level alternative, so nothing is decided: "either", and the witness must come from
  // the strings near the old ones (case, a trailing "!", the first character dropped, a leading
  // space, doubled). Each new pattern admits the old strings and exactly one more kind.
  const cases: [string, string, string, string][] = [
    ["upper case", "a!", "A!", "A!"],
    ["lower case", "A!", "a!", "a!"],
    ["a trailing !", "a{5}", "a{5}!", "aaaaa!"],
    ["the first character dropped", "a!b", "!b", "!b"],
    ["a leading space", "a{5}", " a{5}", " aaaaa"],
    ["doubled", "a!", "a!a!", "a!a!"],
  ];
  for (const [name, body, alt, only] of cases) {
    it(`${name}: ${JSON.stringify(only)}`, () => {
      const { wire, before, after } = pair(declare({ code: { type: "string", pattern: `^(?!x)${body}$` } }), declare({ code: { type: "string", pattern: `^(?!x)(?:${body}|${alt})$` } }));
      expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern either`]);
      expectWitness(wire[0]!, before, after);
      expect((wire[0]!.witness!.instance as { code: unknown }).code).toBe(only);
    });
  }
});

describe("an absent lower bound is 0 (2020-12 validation 6.3.2, 6.4.2, 6.5.2)", () => {
  it("minItems, minLength and minProperties 0 removed or added change nothing: no finding", () => {
    const zero = { a: { type: "array", minItems: 0 }, s: { type: "string", minLength: 0 }, o: { type: "object", minProperties: 0 } };
    const unset = { a: { type: "array" }, s: { type: "string" }, o: { type: "object" } };
    expect(pair(declare(zero), declare(unset)).wire).toEqual([]);
    expect(pair(declare(unset), declare(zero)).wire).toEqual([]);
  });
  it("minItems 1 removed still breaks old readers: new writers may send []", () => {
    const { wire, before, after } = pair(declare({ a: { type: "array", minItems: 1 } }), declare({ a: { type: "array" } }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/a/minItems new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a numeric bound is placed at the keyword that changed", () => {
  it("minimum raised beside an unchanged, weaker exclusiveMinimum: at minimum", () => {
    // Old: x >= 5 (and x > 3); new: x >= 7 (and x > 3). Only minimum changed; 5 is refused now.
    const { wire, before, after } = pair(declare({ x: { type: "number", minimum: 5, exclusiveMinimum: 3 } }), declare({ x: { type: "number", minimum: 7, exclusiveMinimum: 3 } }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/x/minimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("exclusiveMaximum lowered beside an unchanged, weaker maximum: at exclusiveMaximum", () => {
    // Old: x < 10 (and x <= 20); new: x < 8. 9 is refused now.
    const { wire, before, after } = pair(declare({ x: { type: "number", maximum: 20, exclusiveMaximum: 10 } }), declare({ x: { type: "number", maximum: 20, exclusiveMaximum: 8 } }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/x/exclusiveMaximum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a pattern widened by a new alternative", () => {
  it("inside allOf, the old pattern outside regex-lang's subset: the new alternative's string is the witness", () => {
    // ^(?!x)a{5}$ admits only "aaaaa"; the new alternative ^b$ admits "b", which old readers refuse.
    // Inside allOf the finding stands only with a witness, so without one it would be lost.
    const old = "^(?!x)a{5}$";
    const { wire, before, after } = pair(declare({ w: { allOf: [{ type: "string", pattern: old }] } }), declare({ w: { allOf: [{ type: "string", pattern: `${old}|^b$` }] } }));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/w/allOf/0/pattern new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
    expect((wire[0]!.witness!.instance as { w: unknown }).w).toBe("b");
  });
});

describe("a field's language type, however deep", () => {
  const nest = (depth: number, leaf: object): object => (depth === 0 ? leaf : { type: "array", items: nest(depth - 1, leaf) });
  const sourceFindings = (old: Edit, now: Edit) => comparePair(old, now, () => {}, { witnesses: false }).findings.filter((f) => f.category === "SOURCE");
  it("a string seven and twelve arrays deep made an integer: SOURCE_FIELD_TYPE_CHANGED for each field", () => {
    // string[][][][][][][] and number[][][][][][][] are different generated types at any depth.
    const found = sourceFindings(declare({ d7: nest(7, { type: "string" }), d12: nest(12, { type: "string" }) }), declare({ d7: nest(7, { type: "integer" }), d12: nest(12, { type: "integer" }) }));
    expect(found.map((f) => `${f.rule} ${f.at.pointer}`).sort()).toEqual(["SOURCE_FIELD_TYPE_CHANGED /properties/d12", "SOURCE_FIELD_TYPE_CHANGED /properties/d7"]);
  });
  it("a field typed by a titled alias of another titled type keeps the alias's name when the other is renamed", () => {
    // Names come from titles: the field's type is Alias whatever Alias refers to, so renaming Base
    // removes the type Base and changes no field.
    const alias = (base: string): Edit => (f) => {
      f[M].$defs = { A: { title: "Alias", $ref: "#/$defs/B" }, B: { title: base, type: "string" } };
      props(f).r = { $ref: "#/$defs/A" };
    };
    expect(sourceFindings(alias("Base"), alias("Base2")).map((f) => `${f.rule} ${f.message}`)).toEqual(["SOURCE_TYPE_REMOVED type Base (p) was removed or renamed"]);
  });
  it("an untitled recursive array made an array of anything: the field's type changed", () => {
    // A = array of A has to be a named recursive type in the generated code; unknown[] is another.
    const recursive: Edit = (f) => {
      f[M].$defs = { A: { type: "array", items: { $ref: "#/$defs/A" } } };
      props(f).r = { $ref: "#/$defs/A" };
    };
    const open: Edit = (f) => void (props(f).r = { type: "array", items: {} });
    expect(sourceFindings(recursive, open).map((f) => `${f.rule} ${f.at.pointer}`)).toEqual(["SOURCE_FIELD_TYPE_CHANGED /properties/r"]);
  });
  it("an untitled $ref cycle ends (no type to name) and, unchanged, is no finding", () => {
    const cycle: Edit = (f) => {
      f[M].$defs = { A: { type: "array", items: { $ref: "#/$defs/B" } }, B: { type: "array", items: { $ref: "#/$defs/A" } } };
      props(f).r = { $ref: "#/$defs/A" };
    };
    expect(sourceFindings(cycle, cycle)).toEqual([]);
  });
});
