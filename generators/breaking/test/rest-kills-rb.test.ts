// Bounds (wire-bounds.ts compareBounds): lengths, item counts and numeric ranges, including
// exclusiveMinimum/exclusiveMaximum written alone or beside minimum/maximum. Each expectation (rule,
// direction, place) is worked out by hand from JSON Schema 2020-12 (6.2.2-6.2.5, 6.3.1-2,
// 6.4.1-2): "minimum 5, exclusiveMinimum 2" admits exactly x >= 5, and so on. Every witness is
// re-checked with the tests' own ajv (expectWitness), never taken from the detector.
import { describe, expect, it } from "vitest";
import { expectWitness, M, wirePair, where, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
const none: Edit = () => {};
/** `q`: a number property no example carries, so only the finding's candidates can set it. */
const q = (schema: object): Edit => (f) => void (props(f).q = schema);
/** count as the base fixture has it. */
const base = { type: "integer", minimum: 0, maximum: 10 };
const count = (schema: object): Edit => (f) => void (props(f).count = schema);

describe("item counts and lengths", () => {
  it("maxItems 5 -> 2: new readers reject a three-item tags array", () => {
    // The example and every generated instance carry at most one tag, which both versions
    // accept: only a candidate array of three strings (the new bound plus one) separates.
    const { wire, before, after } = wirePair(none, (f) => void (props(f).tags.maxItems = 2));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/tags/maxItems old-writer-new-reader`]);
    // The old and new values are what the reader acts on; the message is where they are shown.
    expect(wire[0]!.message).toBe("maxItems 5 -> 2: new readers reject some old instances");
    expectWitness(wire[0]!, before, after);
    const tags = (wire[0]!.witness!.instance as { tags: unknown[] }).tags;
    expect(tags).toHaveLength(3);
  });
  it("maxItems 5 dropped: old readers reject a six-item tags array", () => {
    const { wire, before, after } = wirePair(none, (f) => void delete props(f).tags.maxItems);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/tags/maxItems new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("maxItems 5 -> unset: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("minItems 3 -> 1 loosens: old readers reject a one-tag array a new writer sends", () => {
    const { wire, before, after } = wirePair((f) => void (props(f).tags.minItems = 3), (f) => void (props(f).tags.minItems = 1));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/tags/minItems new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("minItems 3 -> 1: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("minLength unset -> 4 on a string with no pattern tightens: new readers reject a short string", () => {
    const { wire, before, after } = wirePair(q({ type: "string" }), q({ type: "string", minLength: 4 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/minLength old-writer-new-reader`]);
    expect(wire[0]!.message).toBe("minLength unset -> 4: new readers reject some old instances");
    expectWitness(wire[0]!, before, after);
  });
});

describe("a count bound beside an anyOf", () => {
  // The anyOf branch declares no minItems, so the values generated from it hold one tag, which
  // neither version accepts: only an array as long as the accepting side's own bound separates.
  const tags = (minItems: number): Edit => (f) => void (props(f).tags = { minItems, anyOf: [{ type: "array", items: { type: "string" } }] });
  it("minItems 2 -> 3: new readers reject a two-tag array", () => {
    const { wire, before, after } = wirePair(tags(2), tags(3));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/tags/minItems old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("minItems 3 -> 2: old readers reject a two-tag array", () => {
    const { wire, before, after } = wirePair(tags(3), tags(2));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/tags/minItems new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a pattern the language comparison cannot decide, kept as an alternative", () => {
  // A lookahead is outside what regex-lang compares, so only the alternation's shape shows that
  // every old string still matches: the change loosens (old readers reject "1"), it is not "either".
  const old = "^(?!x)[a-z]+$";
  for (const wider of [`${old}|^[0-9]+$`, `(?:${old})|^[0-9]+$`, `(${old})|^[0-9]+$`]) {
    it(`${old} -> ${wider}: old readers reject a string of digits`, () => {
      const { wire, before, after } = wirePair((f) => void (props(f).name.pattern = old), (f) => void (props(f).name.pattern = wider));
      expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/name/pattern new-writer-old-reader`]);
      expectWitness(wire[0]!, before, after);
    });
  }
});

describe("exclusive numeric bounds", () => {
  it("minimum 0 -> exclusiveMinimum 0: new readers reject count 0", () => {
    const { wire, before, after } = wirePair(none, count({ type: "integer", exclusiveMinimum: 0, maximum: 10 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/count/exclusiveMinimum old-writer-new-reader`]);
    // ">=" against ">" is the whole change here: the message is the only place a reader sees it.
    expect(wire[0]!.message).toBe("lower bound >= 0 -> > 0: new readers reject some old instances");
    expectWitness(wire[0]!, before, after);
  });
  it("exclusiveMinimum 0 -> minimum 0: old readers reject count 0", () => {
    const { wire, before, after } = wirePair(count({ type: "integer", exclusiveMinimum: 0, maximum: 10 }), none);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMinimum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("lower bound > 0 -> >= 0: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("maximum 10 -> exclusiveMaximum 10: new readers reject count 10", () => {
    const { wire, before, after } = wirePair(none, count({ type: "integer", minimum: 0, exclusiveMaximum: 10 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/count/exclusiveMaximum old-writer-new-reader`]);
    expect(wire[0]!.message).toBe("upper bound <= 10 -> < 10: new readers reject some old instances");
    expectWitness(wire[0]!, before, after);
  });
  it("exclusiveMaximum 10 -> maximum 10: old readers reject count 10", () => {
    const { wire, before, after } = wirePair(count({ type: "integer", minimum: 0, exclusiveMaximum: 10 }), none);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMaximum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("upper bound < 10 -> <= 10: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("minimum 5 -> exclusiveMinimum 2 loosens though the new bound is exclusive: 3 is newly admitted", () => {
    const { wire, before, after } = wirePair(count({ ...base, minimum: 5 }), count({ type: "integer", exclusiveMinimum: 2, maximum: 10 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMinimum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("lower bound >= 5 -> > 2: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("an exclusive bound added where there was none on that side: new readers reject count 0", () => {
    const { wire, before, after } = wirePair(count({ type: "integer", maximum: 10 }), count({ type: "integer", exclusiveMinimum: 0, maximum: 10 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/count/exclusiveMinimum old-writer-new-reader`]);
    expect(wire[0]!.message).toBe("lower bound unbounded -> > 0: new readers reject some old instances");
    expectWitness(wire[0]!, before, after);
  });
  it("an exclusive upper bound dropped: old readers reject count 10", () => {
    const { wire, before, after } = wirePair(count({ type: "integer", minimum: 0, exclusiveMaximum: 10 }), count({ type: "integer", minimum: 0 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMaximum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("upper bound < 10 -> unbounded: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
});

describe("minimum and exclusiveMinimum together: the tighter one is the bound", () => {
  // 2020-12 applies both: x >= 5 and x > 2 is x >= 5; x <= 5 and x < 8 is x <= 5.
  it("an exclusiveMinimum looser than the minimum beside it, dropped, is no finding", () => {
    const { wire } = wirePair(count({ type: "integer", minimum: 5, exclusiveMinimum: 2, maximum: 10 }), count({ type: "integer", minimum: 5, maximum: 10 }));
    expect(wire).toEqual([]);
  });
  it("an exclusiveMaximum looser than the maximum beside it, dropped, is no finding", () => {
    const { wire } = wirePair(count({ type: "integer", minimum: 0, maximum: 5, exclusiveMaximum: 8 }), count({ type: "integer", minimum: 0, maximum: 5 }));
    expect(wire).toEqual([]);
  });
  it("minimum 5 -> 3 beside an unchanged, looser exclusiveMinimum 2: old readers reject 3", () => {
    const { wire, before, after } = wirePair(count({ ...base, minimum: 5, exclusiveMinimum: 2 }), count({ ...base, minimum: 3, exclusiveMinimum: 2 }));
    expect(wire.map((f) => [f.rule, f.at.file, f.direction])).toEqual([["WIRE_BOUND_LOOSENED", M, "new-writer-old-reader"]]);
    expect(wire[0]!.message).toBe("lower bound >= 5 -> >= 3: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("exclusiveMinimum 5 beside minimum 5, dropped: old readers reject 5", () => {
    const { wire, before, after } = wirePair(count({ ...base, minimum: 5, exclusiveMinimum: 5 }), count({ ...base, minimum: 5 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMinimum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("lower bound > 5 -> >= 5: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
  it("an exclusiveMaximum 5 tighter than maximum 10, dropped: old readers reject 5 to 10", () => {
    const { wire, before, after } = wirePair(count({ ...base, exclusiveMaximum: 5 }), none);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/exclusiveMaximum new-writer-old-reader`]);
    expect(wire[0]!.message).toBe("upper bound < 5 -> <= 10: old readers reject some new instances");
    expectWitness(wire[0]!, before, after);
  });
});

describe("numeric witnesses come from just past a bound", () => {
  // In each pair the old schema's generated value sits on a minimum that the exclusive bound
  // beside it makes invalid, and no example carries q: only a candidate value separates.
  it("exclusiveMinimum -1 -> 7.3 on an integer: 0 separates, and nothing near the new bound is an integer", () => {
    const { wire, before, after } = wirePair(q({ type: "integer", minimum: -5, exclusiveMinimum: -1 }), q({ type: "integer", exclusiveMinimum: 7.3 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/exclusiveMinimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("integer exclusiveMinimum 0 -> 1: only 1 separates", () => {
    const { wire, before, after } = wirePair(q({ type: "integer", minimum: -5, exclusiveMinimum: 0 }), q({ type: "integer", minimum: -5, exclusiveMinimum: 1 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/exclusiveMinimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("multiples of 0.5, exclusiveMinimum 0 -> 0.5: only 0.5 separates", () => {
    const s = { type: "number", multipleOf: 0.5, minimum: -5 };
    const { wire, before, after } = wirePair(q({ ...s, exclusiveMinimum: 0 }), q({ ...s, exclusiveMinimum: 0.5 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/exclusiveMinimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("multiples of 2.5, minimum 3 added: of the values below 3 only 2.5 separates", () => {
    const { wire, before, after } = wirePair(q({ type: "number", multipleOf: 2.5 }), q({ type: "number", multipleOf: 2.5, minimum: 3 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/minimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("multiples of 20, minimum 10 added: 0 separates, ten below the new bound", () => {
    const { wire, before, after } = wirePair(q({ type: "integer", multipleOf: 20 }), q({ type: "integer", multipleOf: 20, minimum: 10 }));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/q/minimum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});
