// How a WIRE difference becomes a finding (wire-report.ts): which keywords are annotations, how a
// member name is written into the finding's pointer, the writer held to a const or enum, the type
// set a const or enum implies, and the fallback candidates every "not provably compatible" finding
// is searched with. Each expectation (rule, direction, place) is worked out by hand from JSON
// Schema 2020-12 for the edit in question; every witness is re-checked with the tests' own ajv.
import { describe, expect, it } from "vitest";
import { expectWitness, M, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
const none: Edit = () => {};
/** Both versions declare `schemas`' property names; the old one with `old`, the new with `now`. */
const declare = (schemas: Record<string, object>): Edit => (f) => void Object.assign(props(f), structuredClone(schemas));

describe("annotations", () => {
  it("annotation keywords added to a property change no instance's validity: no WIRE finding", () => {
    // 2020-12 meta-data and core keywords: examples, default, deprecated, readOnly, writeOnly are
    // annotations; $schema/$id make an embedded resource of the same schema; definitions holds
    // schemas nothing refers to. None of them makes ajv accept or refuse anything else.
    const annotated: Edit = (f) =>
      void Object.assign(props(f).name, {
        examples: ["abc"],
        default: "abc",
        deprecated: true,
        readOnly: true,
        writeOnly: false,
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://agent-contracts.dev/schemas/p/M-name.json",
        definitions: { Unused: { type: "integer" } },
      });
    const { wire } = pair(none, annotated);
    expect(wire).toEqual([]);
  });
});

describe("member names in pointers", () => {
  it("a bound tightened on a property named with / and ~ is placed at the escaped pointer (RFC 6901)", () => {
    // JSON Pointer writes ~ as ~0 and / as ~1, so the member "a/b~c" is the token a~1b~0c.
    const odd = (maxLength: number): Edit => declare({ "a/b~c": { type: "string", maxLength } });
    const { wire, before, after } = pair(odd(5), odd(3));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/a~1b~0c/maxLength old-writer-new-reader`]);
    expect(wire[0]!.old!.pointer).toBe("/properties/a~1b~0c/maxLength");
    expectWitness(wire[0]!, before, after);
  });
});

describe("a writer held to a const or enum", () => {
  it("length, pattern, format and type changes its values already meet are no finding, the old writer held", () => {
    // Each old side admits only its listed values; each new side admits those same values, so no
    // instance separates the versions (maxLength 1 admits "a" and "b"; ^[a-z]$ matches both;
    // user@example.com is an email; "a" and "b" are strings).
    const old = declare({
      e1: { enum: ["a", "b"] },
      e2: { enum: ["a", "b"] },
      e3: { enum: ["user@example.com"] },
      e4: { enum: ["a", "b"], type: ["string", "integer"] },
    });
    const now = declare({
      e1: { enum: ["a", "b"], maxLength: 1 },
      e2: { enum: ["a", "b"], pattern: "^[a-z]$" },
      e3: { enum: ["user@example.com"], format: "email" },
      e4: { enum: ["a", "b"] },
    });
    expect(pair(old, now).wire).toEqual([]);
  });
  it("a length bound and a type widening the new writer's const already meets are no finding", () => {
    // The new side admits only "v1", which the old side (at most 5 characters; any string or
    // null) admits too: nothing a new writer sends is refused.
    const old = declare({ c1: { const: "v1", maxLength: 5 }, c2: { const: "v1" } });
    const now = declare({ c1: { const: "v1" }, c2: { const: "v1", type: ["string", "null"] } });
    expect(pair(old, now).wire).toEqual([]);
  });
  it("an enum opened to any string: its bound loosened still counts for the new writers", () => {
    // Old readers take "a" or "b" of length <= 1; new writers may send "aa", which the old
    // maxLength refuses. The old side's enum does not limit what new writers send.
    const { wire, before, after } = pair(declare({ e: { enum: ["a", "b"], maxLength: 1 } }), declare({ e: { type: "string", maxLength: 3 } }));
    expect(wire.map(where).sort()).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/e/maxLength new-writer-old-reader`, `WIRE_ENUM_VALUE_ADDED ${M}#/properties/e/enum new-writer-old-reader`]);
    for (const f of wire) expectWitness(f, before, after);
    // A bound loosened removes nothing: the changelog lists it as breaking, not as removed.
    expect(wire.map((f) => f.removed)).toEqual([false, false]);
  });
  it("a string narrowed to an enum: its bound tightened still counts for the old writers", () => {
    // Old writers may send "aa" (maxLength 3); the new maxLength 1 refuses it. The new side's enum
    // does not limit what old writers send.
    const { wire, before, after } = pair(declare({ e: { type: "string", maxLength: 3 } }), declare({ e: { enum: ["a", "b"], maxLength: 1 } }));
    expect(wire.map(where).sort()).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/e/maxLength old-writer-new-reader`, `WIRE_ENUM_VALUE_REMOVED ${M}#/properties/e/enum old-writer-new-reader`]);
    for (const f of wire) expectWitness(f, before, after);
    expect(wire.map((f) => f.removed)).toEqual([false, false]);
  });
});

describe("the type a const or enum implies", () => {
  it("a typed property restricted to one value of that type is a const change, not a type change", () => {
    // 2020-12 validation 6.1.1: "v1" is a string, null a null, [] an array, 1 an integer (a number
    // with a zero fractional part), 1.5 a number. Each new const is of the old type, so only the
    // value set narrows: WIRE_CONST_CHANGED, new readers refusing other old values.
    const old = declare({ p1: { type: "string" }, p2: { type: "null" }, p3: { type: "array" }, p4: { type: "integer" }, p5: { type: "number" } });
    const now = declare({ p1: { const: "v1" }, p2: { const: null }, p3: { const: [] }, p4: { const: 1 }, p5: { const: 1.5 } });
    const { wire, before, after } = pair(old, now);
    expect(wire.map(where).sort()).toEqual(["p1", "p2", "p3", "p4", "p5"].map((p) => `WIRE_CONST_CHANGED ${M}#/properties/${p}/const old-writer-new-reader`));
    for (const f of wire) expectWitness(f, before, after);
  });
  it("a number restricted to an integer const narrows the type too: old writers' 1.5 is refused", () => {
    // const 1 implies type integer, a narrowing of number: new readers refuse every non-integer.
    const { wire, before, after } = pair(declare({ p: { type: "number" } }), declare({ p: { const: 1 } }));
    expect(wire.map(where).sort()).toEqual([`WIRE_CONST_CHANGED ${M}#/properties/p/const old-writer-new-reader`, `WIRE_TYPE_CHANGED ${M}#/properties/p/type old-writer-new-reader`]);
    for (const f of wire) expectWitness(f, before, after);
  });
  it("a union of a const and an enum made the type list they imply: only the new writers' other values break", () => {
    // anyOf [const "a", enum [1, 2]] admits "a", 1, 2: types string and integer, as the new
    // type list. Old writers' values all pass the new schema; new writers' "x" fails the old one.
    const { wire, before, after } = pair(declare({ u: { anyOf: [{ const: "a" }, { enum: [1, 2] }] } }), declare({ u: { type: ["string", "integer"] } }));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/u/anyOf either`]);
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.acceptedBy).toBe("new");
  });
});

describe("candidates of a change not reasoned about", () => {
  // An `if` with `then: false` added refuses exactly what the `if` matches. Each `if` matches one
  // value only the fallback candidates hold (-1, true, []), so only they can be the witness.
  const conds = {
    neg: { if: { type: "number", maximum: -0.5 }, then: false },
    yes: { if: { const: true }, then: false },
    empty: { if: { type: "array", maxItems: 0 }, then: false },
  };
  it("if/then added: each finding has a witness old readers accept and new readers refuse", () => {
    const { wire, before, after } = pair(declare({ neg: {}, yes: {}, empty: {} }), declare(conds));
    expect(wire.map(where).sort()).toEqual(
      ["empty", "neg", "yes"].flatMap((p) => [`WIRE_SCHEMA_CHANGED ${M}#/properties/${p}/if either`, `WIRE_SCHEMA_CHANGED ${M}#/properties/${p}/then either`]),
    );
    for (const f of wire) {
      expectWitness(f, before, after);
      expect(f.witness!.acceptedBy).toBe("old");
    }
    const value = (p: string) => wire.filter((f) => f.at.pointer.startsWith(`/properties/${p}/`)).map((f) => (f.witness!.instance as Record<string, unknown>)[p]);
    expect(value("neg")).toEqual([-1, -1]);
    expect(value("yes")).toEqual([true, true]);
    expect(value("empty")).toEqual([[], []]);
  });
});
