// WIRE comparison (wire.ts, compareObject and compareUnions) where what is reported depends on
// whether a difference sits inside an intersection or behind a map. Each expectation (rule,
// direction, place) is worked out by hand from JSON Schema 2020-12 for the edit in question; every
// witness is re-checked with the tests' own ajv (expectWitness), never taken from the detector.
import { describe, expect, it } from "vitest";
import { expectWitness, M, OPEN, TYPES, U, where, wirePair as pair, type Edit } from "./spec-fixture.js";

const REF = (name: string) => `../common/types.json#/$defs/${name}`;
const none: Edit = () => {};

describe("a one-branch allOf inside a retargeted $ref", () => {
  // Id and Id3 differ only in the bound of their single allOf branch; the maxLength beside the
  // allOf applies to the same instances (2020-12 core 10.2.1.1: allOf is an intersection).
  const defs = (outer: number): Edit => (f) =>
    void Object.assign(f[TYPES].$defs, {
      Id: { title: "Id", type: "string", maxLength: outer, allOf: [{ type: "string", maxLength: 5 }] },
      Id3: { title: "Id3", type: "string", maxLength: outer, allOf: [{ type: "string", maxLength: 10 }] },
    });
  const retarget: Edit = (f) => void (f[M].properties.ref = { $ref: REF("Id3") });

  it("the branch's looser bound is masked by the outer maxLength 3: no finding", () => {
    // Old: length <= min(3, 5); new: length <= min(3, 10). Both are length <= 3, so no instance
    // tells the versions apart and nothing may be reported as breaking.
    const { wire } = pair(none, retarget, defs(3));
    expect(wire).toEqual([]);
  });
  it("with an outer maxLength 20 the branch bound shows: the $ref change is reported with a witness", () => {
    // Old: length <= 5; new: length <= 10: a 6-character id from a new writer fails old readers.
    const { wire, before, after } = pair(none, retarget, defs(20));
    expect(wire.map(where)).toEqual([`WIRE_REF_CHANGED ${M}#/properties/ref/$ref new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a member checked against the other side's map, behind a retargeted $ref", () => {
  // Old target declares p (integer) beside a string map; new target drops p, so p falls to the
  // map and must be a string (2020-12 core 10.3.2.3). maxProperties also loosens 5 -> 10.
  const defs: Edit = (f) =>
    void Object.assign(f[TYPES].$defs, {
      Id: { title: "Id", type: "object", properties: { p: { type: "integer" } }, additionalProperties: { type: "string" }, maxProperties: 5 },
      Id3: { title: "Id3", type: "object", additionalProperties: { type: "string" }, maxProperties: 10 },
    });
  const retarget: Edit = (f) => void (f[M].properties.ref = { $ref: REF("Id3") });

  it("the $ref change names the member p narrowed from integer to string, old writers to new readers", () => {
    // No patternProperties could claim p, so the p difference is definite: the finding names it
    // (not the maxProperties one) and takes its direction. The message is what the user reads to
    // learn which member broke, so its text is asserted.
    const { wire, before, after } = pair(none, retarget, defs);
    expect(wire.map(where)).toEqual([`WIRE_REF_CHANGED ${M}#/properties/ref/$ref old-writer-new-reader`]);
    expect(wire[0]!.message).toContain("type narrowed from integer to string");
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.acceptedBy).toBe("old");
  });
});

describe("an open object with patternProperties closed", () => {
  it("old writers' non-empty string under a ^zz name fails new readers", () => {
    // Old: names matching ^zz carry a non-empty string, other names anything. New: no
    // patternProperties and additionalProperties false, so any undeclared member is refused.
    // An undeclared ^zz member with a non-empty string passes old and fails new; "" would fail
    // old's minLength 1, and 1 or {} its type.
    const old: Edit = (f) => void (f[OPEN].patternProperties = { "^zz": { type: "string", minLength: 1 } });
    const now: Edit = (f) => void (f[OPEN].additionalProperties = false);
    const { wire, before, after } = pair(old, now);
    const closed = wire.filter((f) => f.rule === "WIRE_OBJECT_CLOSED");
    expect(closed.map(where)).toEqual([`WIRE_OBJECT_CLOSED ${OPEN}#/additionalProperties old-writer-new-reader`]);
    expectWitness(closed[0]!, before, after);
  });
});

describe("a member of a closed object whose full instances exceed maxProperties", () => {
  // W is closed and allows at most 2 members, so an instance carrying a, b and c is refused by
  // both versions (2020-12 validation 6.5.1): only an instance with a and b shows what b's
  // removal or addition changes.
  const W = "spec/p/messages/W.yaml";
  const w = (names: string[]): Edit => (f) =>
    void (f[W] = {
      $id: "https://agent-contracts.dev/schemas/p/W.json",
      title: "W",
      type: "object",
      additionalProperties: false,
      required: ["a"],
      maxProperties: 2,
      properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    });

  it("b removed: old writers' {a, b} fails new readers", () => {
    const { wire, before, after } = pair(w(["a", "b", "c"]), w(["a", "c"]));
    expect(wire.map(where)).toEqual([`WIRE_FIELD_REMOVED ${W}#/properties old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.instance).toHaveProperty("b");
  });
  it("b added: new writers' {a, b} fails old readers", () => {
    const { wire, before, after } = pair(w(["a", "c"]), w(["a", "b", "c"]));
    expect(wire.map(where)).toEqual([`WIRE_PROPERTY_ADDED_CLOSED ${W}#/properties/b new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.instance).toHaveProperty("b");
  });
});

describe("a discriminated oneOf branch without a const or enum for the discriminator", () => {
  it("does not stop the comparison: a tightened bound in another message is still reported", () => {
    // Such a branch is not a valid tagged union (ajv's discriminator and the spec model both want
    // a const or enum there), but a spec under edit can hold one; the other messages' breaks must
    // still be found. M's name: maxLength 10 -> 5 refuses old 6-10 character names.
    const branch: Edit = (f) => void f[U].oneOf.push({ type: "object", required: ["type"], properties: { type: { type: "string" }, z: { type: "string" } } });
    const shorter: Edit = (f) => void (f[M].properties.name.maxLength = 5);
    const { wire, before, after } = pair(none, (f) => {
      branch(f);
      shorter(f);
    });
    const inM = wire.filter((f) => f.at.file === M);
    expect(inM.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/name/maxLength old-writer-new-reader`]);
    expectWitness(inM[0]!, before, after);
  });
});
