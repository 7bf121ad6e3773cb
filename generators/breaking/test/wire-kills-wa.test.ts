// WIRE comparison (wire.ts, cmp and conditionCandidates): which difference a changed $ref is
// reported with, and the instances built for condition keywords when no example or generated
// instance breaks the condition. Each expectation (rule, direction, place, and which instances
// separate the versions) is worked out by hand from JSON Schema 2020-12; every witness is
// re-checked with the tests' own ajv (expectWitness), never taken from the detector.
import { describe, expect, it } from "vitest";
import { accepts, expectWitness, M, TYPES, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const none: Edit = () => {};
const props = (f: Files) => f[M].properties;
const defs = (f: Files) => f[TYPES].$defs;

describe("multipleOf changed where only a larger multiple lies in range", () => {
  // count is an integer in [min, 10]. The multiples each version admits (hand-listed below) make
  // the witness a specific multiple: neither 1 multiple nor anything an example or a generated
  // count (the minimum) carries separates the versions, so a witness must come from the larger
  // multiples of the old or new value.
  const rows: [string, number, number, number, number[]][] = [
    // [5,10]: old (3) admits 6, 9; new (2) admits 6, 8, 10: 9 is old-only, 8 and 10 new-only, and 9 = 3 * 3.
    ["[5,10], 3 -> 2: the old-only 9 is three times the old multiple", 5, 3, 2, [8, 9, 10]],
    // [7,10]: old (4) admits 8 only; new (5) admits 10 only: 8 = 2 * 4 and 10 = 2 * 5 are the witnesses.
    ["[7,10], 4 -> 5: 8 and 10 are twice the old and the new multiple", 7, 4, 5, [8, 10]],
  ];
  it.each(rows)("%s", (_name, min, before, after, separating) => {
    const { wire, before: b, after: a } = pair(
      (f) => void (props(f).count.multipleOf = before),
      (f) => void (props(f).count.multipleOf = after),
      (f) => void (props(f).count.minimum = min),
    );
    // Both versions keep multipleOf, so neither side's set contains the other's: either way.
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/multipleOf either`]);
    expectWitness(wire[0]!, b, a);
    expect(separating).toContain((wire[0]!.witness!.instance as { count: number }).count);
  });
});

describe("an array-only condition added to a schema whose instances are not arrays", () => {
  it("uniqueItems added to the integer count constrains nothing: no finding", () => {
    // 2020-12 validation §6.4.3: uniqueItems constrains arrays; an integer passes it either way,
    // so old and new count admit the same values and nothing is breaking.
    const { wire } = pair(none, (f) => void (props(f).count.uniqueItems = true));
    expect(wire.map(where)).toEqual([]);
  });
});

describe("a $ref retargeted: the difference reported is the one that needs no witness", () => {
  // Old ref -> Id, new ref -> Id3, each the same in both versions, so only M's ref differs.
  // Id excludes "abc" (not); Id3 drops that exclusion and adds then {maxLength: 5} under
  // if {minLength: 3}, which its own maxLength 4 already implies. So Id's instances are all Id3's
  // (no old writer breaks a new reader), and "abc" is one Id3 admits and Id refuses: new writers
  // break old readers.
  const base = { type: "string", pattern: "^[a-z0-9-]+$", maxLength: 4, if: { minLength: 3 } };
  const common: Edit = (f) => {
    defs(f).Id = { title: "Id", ...base, not: { const: "abc" } };
    defs(f).Id3 = { title: "Id3", ...base, then: { maxLength: 5 } };
  };
  it("not removed beside a then that adds nothing: new-writer-old-reader, with a witness", () => {
    const { wire, before, after } = pair(none, (f) => void (props(f).ref.$ref = "../common/types.json#/$defs/Id3"), common);
    expect(wire.map(where)).toEqual([`WIRE_REF_CHANGED ${M}#/properties/ref/$ref new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.acceptedBy).toBe("new");
  });
});

describe("an x- annotation beside a $ref does not turn the $ref into an intersection", () => {
  // x- keys are extensions, not assertions: {$ref, x-doc} admits exactly what its target admits, so
  // a retargeted $ref must be reported as for a lone $ref, also when no instance is found for it.
  const base = { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } };
  const common: Edit = (f) => {
    defs(f).O1 = { title: "O1", ...base, dependentSchemas: { a: { required: ["b"] } } };
    defs(f).O2 = { title: "O2", ...base, dependentSchemas: { a: { required: ["c"] } } };
    props(f).o = { $ref: "../common/types.json#/$defs/O1", "x-doc": "an annotated object" };
  };
  it("dependentSchemas a -> b retargeted to a -> c: reported both ways at the $ref", () => {
    const { wire, before, after } = pair(none, (f) => void (props(f).o.$ref = "../common/types.json#/$defs/O2"), common);
    // 2020-12 core §10.2.2.4: with a present, O1 requires b and O2 requires c. Hand-built instances
    // show both directions, since the detector's candidates carry a only beside b and c together.
    const msg = (o: Record<string, string>) => ({ kind: "a", name: "abc", o });
    expect([accepts(before, M, "", msg({ a: "x", b: "y" })), accepts(after, M, "", msg({ a: "x", b: "y" }))]).toEqual([true, false]);
    expect([accepts(before, M, "", msg({ a: "x", c: "z" })), accepts(after, M, "", msg({ a: "x", c: "z" }))]).toEqual([false, true]);
    expect(wire.map(where)).toEqual([`WIRE_REF_CHANGED ${M}#/properties/o/$ref either`]);
  });
});

describe("a keyword that changes nothing is not reported beside a change that has a witness", () => {
  // Each row adds a keyword whose value 2020-12 defines as imposing nothing, together with a real
  // tightening of the same schema. Only the tightening is breaking; an instance that shows it
  // must not be taken as a witness for the idle keyword.
  const rows: [string, Edit, Edit, string][] = [
    // §6.4.3: uniqueItems false: every array passes. maxItems 5 -> 1 refuses two-tag arrays.
    ["uniqueItems false added while maxItems 5 -> 1", (f) => void (props(f).tags.maxItems = 5), (f) => void Object.assign(props(f).tags, { uniqueItems: false, maxItems: 1 }), `${M}#/properties/tags/maxItems`],
    // Core §11.2 and §4.3.2: unevaluatedItems true applies the always-passing schema true to items.
    ["unevaluatedItems true added while maxItems 5 -> 1", (f) => void (props(f).tags.maxItems = 5), (f) => void Object.assign(props(f).tags, { unevaluatedItems: true, maxItems: 1 }), `${M}#/properties/tags/maxItems`],
    // §6.4.5: an absent minContains behaves as 1, so minContains 1 beside contains adds nothing.
    ["minContains 1 added beside contains while maxItems 5 -> 1", (f) => void (props(f).tags.contains = { type: "string" }), (f) => void Object.assign(props(f).tags, { contains: { type: "string" }, minContains: 1, maxItems: 1 }), `${M}#/properties/tags/maxItems`],
    // §6.4: array keywords pass every non-array, so minContains on the integer count adds nothing;
    // maximum 10 -> 2 refuses 3..10.
    ["minContains 1 added to the integer count while maximum 10 -> 2", none, (f) => void Object.assign(props(f).count, { minContains: 1, maximum: 2 }), `${M}#/properties/count/maximum`],
  ];
  it.each(rows)("%s", (_name, old, now, place) => {
    const { wire, before, after } = pair(old, now);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${place} old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});
