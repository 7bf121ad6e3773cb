// Condition-only keywords (multipleOf, uniqueItems, maxContains, dependentRequired, propertyNames)
// added or changed where no example and no generated instance breaks the condition: the witness
// must come from instances built for the condition. Each expectation (who is hurt, and that some
// instance shows it) is worked out by hand from JSON Schema 2020-12; every witness is re-checked
// with the tests' own ajv (expectWitness).
import { describe, expect, it } from "vitest";
import { expectWitness, M, OPEN, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const none: Edit = () => {};
const props = (f: Files) => f[M].properties;

describe("a condition no example breaks still gets a witness", () => {
  it("multipleOf 2 -> 3 on count 0..10: 2 (or 4, 8, 10) is an old value new readers refuse", () => {
    const { wire, before, after } = pair((f) => void (props(f).count.multipleOf = 2), (f) => void (props(f).count.multipleOf = 3));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/multipleOf either`]);
    expectWitness(wire[0]!, before, after);
  });
  it("uniqueItems added to tags: an array with a repeated tag is refused by new readers", () => {
    const { wire, before, after } = pair(none, (f) => void (props(f).tags.uniqueItems = true));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/tags/uniqueItems old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("maxContains 1 added beside contains {type: string}: two string tags are refused", () => {
    const contains: Edit = (f) => void (props(f).tags.contains = { type: "string" });
    const { wire, before, after } = pair(none, (f) => void (props(f).tags.maxContains = 1), contains);
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/tags/maxContains old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("dependentRequired {count: [ref]} added: an instance with count and no ref is refused", () => {
    const { wire, before, after } = pair(none, (f) => void (f[M].dependentRequired = { count: ["ref"] }));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/dependentRequired old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("propertyNames added to an open object: a member name new readers refuse", () => {
  const rows: [string, object][] = [
    ["maxLength 3 (a 4-character name)", { maxLength: 3 }],
    ["minLength 2 (a 1-character name)", { minLength: 2 }],
    ["a pattern that admits !, 0, - and every sample + '!' (an upper-case name)", { pattern: "^[!0-9a-z-]*$" }],
    ["an enum of names", { enum: ["a", "b"] }],
  ];
  it.each(rows)("%s", (_name, pn) => {
    const { wire, before, after } = pair(none, (f) => void (f[OPEN].propertyNames = pn));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${OPEN}#/propertyNames old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});
