// WIRE comparison (wire.ts: refusedMembers, unionTypes, compareTypes, compareValues,
// compareObject), one test per behaviour a user hits. Every expectation is worked out by hand from
// JSON Schema 2020-12 (which instances each side accepts); witnesses are re-checked with the
// fixture's own ajv, not the tool's.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { baseFiles, expectWitness, M, OPEN, writeTree, type Files } from "./spec-fixture.js";

type Edit = (f: Files) => void;

function run(before: Edit, after: Edit): { findings: Finding[]; before: Files; after: Files } {
  const b = baseFiles();
  const a = baseFiles();
  before(b);
  after(a);
  return { ...compareRoots(writeTree(b), writeTree(a)), before: b, after: a };
}

const wire = (fs: Finding[], rule: string) => fs.filter((f) => f.rule === rule);
/** A property `p` of the open message Open, with the given schema on each side. */
const p = (schema: object): Edit => (f) => void (f[OPEN].properties.p = structuredClone(schema));
const P = "/properties/p";

/** The one finding of `rule`, checked for place, direction and a witness that separates the versions. */
function one(r: ReturnType<typeof run>, rule: string, pointer: string, direction: string): Finding {
  const fs = wire(r.findings, rule);
  expect(fs.map((f) => `${f.at.pointer} ${f.direction}`)).toEqual([`${pointer} ${direction}`]);
  expectWitness(fs[0]!, r.before, r.after);
  return fs[0]!;
}

describe("propertyNames added: the witness is an object with a member name the new readers refuse", () => {
  // Old `m` takes any member names; the new one refuses some. Old writers may send those names, so
  // the change breaks old-writer/new-reader, shown by an object carrying one refused name.
  const rows: { name: string; pn: object; ap?: object; max?: number }[] = [
    { name: "a name the pattern's class refuses (only `<sample>!` is refused)", pn: { pattern: "^[a-z0-9-]*$" } },
    { name: "digits refused (only `0` is)", pn: { pattern: "^[a-z!-]*$" } },
    { name: "dashes refused (only `-` is)", pn: { pattern: "^[a-z0-9!]*$" } },
    { name: "a closed name list where `!` is allowed but `a!` is not", pn: { pattern: "^(a|!|0|-)$" } },
    { name: "a pattern the sampler cannot walk (a named group): names may not start with `!`", pn: { pattern: "^(?<h>[^!]).*$" } },
    { name: "a names list excluded with not", pn: { not: { enum: ["secret"] } } },
    // Member values must pass additionalProperties on both sides: a non-empty string, then an integer.
    { name: "values must be non-empty strings", pn: { pattern: "^[a-z]*$" }, ap: { type: "string", minLength: 1 } },
    { name: "values must be integers", pn: { pattern: "^[a-z]*$" }, ap: { type: "integer" } },
    // At most one member on both sides: the witness may carry the refused member and nothing else.
    { name: "at most one member", pn: { pattern: "^[a-z0-9-]*$" }, max: 1 },
  ];
  it.each(rows)("$name", ({ pn, ap, max }: { pn: object; ap?: object; max?: number }) => {
    const old = { ...(ap ? { additionalProperties: ap } : {}), ...(max ? { maxProperties: max } : {}) };
    const r = run(p(old), p({ ...old, propertyNames: pn }));
    one(r, "WIRE_SCHEMA_CHANGED", `${P}/propertyNames`, "old-writer-new-reader");
  });

  it("at a message root with a required member, the refused name rides on an instance old readers accept", () => {
    // Open requires `a` on both sides: `{ secret: "x" }` alone is rejected by both, so the witness
    // must add the refused member to an instance that carries `a`.
    const req: Edit = (f) => void (f[OPEN].required = ["a"]);
    const r = run(req, (f) => (req(f), void (f[OPEN].propertyNames = { not: { const: "secret" } })));
    one(r, "WIRE_SCHEMA_CHANGED", "/propertyNames", "old-writer-new-reader");
  });
});

describe("type changes: what was lost or gained, named in the message", () => {
  it("a nullable number made non-null loses only null", () => {
    const r = run(p({ type: ["number", "null"] }), p({ type: "number" }));
    const f = one(r, "WIRE_TYPE_CHANGED", `${P}/type`, "old-writer-new-reader");
    // The message is what tells the user which values old writers may still send.
    expect(f.message).toBe("type narrowed from number|null to number: new readers reject old null values");
    expect(f.witness!.instance).toMatchObject({ p: null });
  });

  it("string|boolean replaced by number|null: narrowed and widened, each naming its types", () => {
    const r = run(p({ type: ["string", "boolean"] }), p({ type: ["number", "null"] }));
    const fs = wire(r.findings, "WIRE_TYPE_CHANGED");
    expect(fs.map((f) => [f.at.pointer, f.direction, f.message])).toEqual([
      [`${P}/type`, "old-writer-new-reader", "type narrowed from string|boolean to number|null: new readers reject old string, boolean values"],
      [`${P}/type`, "new-writer-old-reader", "type widened from string|boolean to number|null: old readers reject new number, null values"],
    ]);
    for (const f of fs) expectWitness(f, r.before, r.after);
  });

  it("an untyped field given a type: every other JSON type is lost", () => {
    const r = run(p({}), p({ type: "string" }));
    const f = one(r, "WIRE_TYPE_CHANGED", `${P}/type`, "old-writer-new-reader");
    expect(f.message).toBe("type narrowed from any to string: new readers reject old number, integer, boolean, null, object, array values");
  });

  it("a typed field whose type is dropped: every other JSON type is gained", () => {
    const r = run(p({ type: "string" }), p({}));
    const f = one(r, "WIRE_TYPE_CHANGED", `${P}/type`, "new-writer-old-reader");
    expect(f.message).toBe("type widened from string to any: old readers reject new number, integer, boolean, null, object, array values");
  });

  // Old is untyped, the new type list leaves out exactly one JSON type: the witness must be a value
  // of that type. The old schema's own samples are strings (or, with properties, objects), so for
  // the other types only a sample of the lost type can show it.
  const all = ["string", "number", "boolean", "null", "object", "array"];
  // The old schema's other keywords still apply to values of the lost type (minLength to strings,
  // maxItems to arrays, not to all): the witness must be a value of that type old readers accept.
  const rows = [
    { lost: "string", old: { properties: { q: { type: "integer" } } }, also: "" },
    { lost: "string", old: { properties: { q: { type: "integer" } }, minLength: 1 }, also: " of at least one character" },
    { lost: "boolean", old: {}, also: "" },
    { lost: "boolean", old: { not: { const: false } }, also: " other than false" },
    { lost: "null", old: {}, also: "" },
    { lost: "object", old: {}, also: "" },
    { lost: "array", old: {}, also: "" },
    { lost: "array", old: { maxItems: 0 }, also: " that is empty" },
  ];
  it.each(rows)("untyped, then every type but $lost: a $lost value$also is the witness", ({ lost, old }) => {
    const r = run(p(old), p({ ...old, type: all.filter((t) => t !== lost) }));
    const f = one(r, "WIRE_TYPE_CHANGED", `${P}/type`, "old-writer-new-reader");
    const v = (f.witness!.instance as { p: unknown }).p;
    expect(v === null ? "null" : Array.isArray(v) ? "array" : typeof v).toBe(lost);
  });
});

describe("union types: a union whose every branch declares a type is that type set", () => {
  const defs = (d: object): Edit => (f) => void (f[OPEN].$defs = structuredClone(d));

  it("a nullable string written as oneOf through a chain of $refs equals type [string, null]", () => {
    // Branch -> T1 -> T2 -> T3: the type is found four levels down, within the lookup's depth.
    const chain = defs({ T1: { $ref: "#/$defs/T2" }, T2: { $ref: "#/$defs/T3" }, T3: { type: "string" } });
    const r = run((f) => (chain(f), p({ oneOf: [{ $ref: "#/$defs/T1" }, { type: "null" }] })(f)), (f) => (chain(f), p({ type: ["string", "null"] })(f)));
    expect(wire(r.findings, "WIRE_TYPE_CHANGED")).toEqual([]);
  });

  it("type [string, null] rewritten as anyOf of a $ref and null is no type change", () => {
    const str = defs({ Str: { type: "string" } });
    const r = run((f) => (str(f), p({ type: ["string", "null"] })(f)), (f) => (str(f), p({ anyOf: [{ $ref: "#/$defs/Str" }, { type: "null" }] })(f)));
    expect(wire(r.findings, "WIRE_TYPE_CHANGED")).toEqual([]);
  });

  it("a recursive union (a branch refers back to the union) is compared without running away", () => {
    const list = defs({ L: { anyOf: [{ type: "null" }, { $ref: "#/$defs/L" }] } });
    // Inline at p (a $ref to the same target on both sides is compared once, where it is defined).
    const field = p({ anyOf: [{ type: "string" }, { $ref: "#/$defs/L" }] });
    const r = run((f) => (list(f), field(f)), (f) => (list(f), field(f), void (f[OPEN].description = "Reworded.")));
    expect(r.findings).toEqual([]);
  });

  it("a union with an untyped branch takes any type: string widened to it", () => {
    // {minimum: 0} accepts every non-number, and numbers from 0: new writers may send 1.5.
    const r = run(p({ type: "string" }), p({ anyOf: [{ type: "string" }, { minimum: 0 }] }));
    const fs = wire(r.findings, "WIRE_TYPE_CHANGED");
    expect(fs.map((f) => [f.at.pointer, f.direction])).toEqual([[`${P}/type`, "new-writer-old-reader"]]);
    expectWitness(fs[0]!, r.before, r.after);
  });
});

describe("closed value sets (const, enum): rule, place, direction and the values named", () => {
  it("an enum added to a free string restricts it", () => {
    const r = run(p({ type: "string" }), p({ type: "string", enum: ["a", "b"] }));
    const f = one(r, "WIRE_ENUM_VALUE_REMOVED", `${P}/enum`, "old-writer-new-reader");
    expect(f.message).toBe('values are now restricted to "a", "b": new readers reject other values from old writers');
  });

  it("an enum dropped frees the value", () => {
    const r = run(p({ enum: ["a", "b"] }), p({ type: "string", pattern: "^[0-9]+$" }));
    const f = one(r, "WIRE_ENUM_VALUE_ADDED", `${P}/enum`, "new-writer-old-reader");
    expect(f.old!.pointer).toBe(`${P}/enum`);
    expect(f.message).toBe('the closed value set "a", "b" was dropped: old readers reject other values from new writers');
  });

  it("a const dropped is a const change, placed at the old const", () => {
    const r = run(p({ const: "v1" }), p({ type: "string" }));
    const f = one(r, "WIRE_CONST_CHANGED", `${P}/const`, "new-writer-old-reader");
    expect(f.old!.pointer).toBe(`${P}/const`);
  });

  it("a const added is a const change, placed at the new const", () => {
    const r = run(p({ type: "string" }), p({ const: "v1" }));
    one(r, "WIRE_CONST_CHANGED", `${P}/const`, "old-writer-new-reader");
  });

  it("enum [a, b] narrowed to const a: a const change either way, naming both sets", () => {
    const r = run(p({ enum: ["a", "b"] }), p({ const: "a" }));
    const f = one(r, "WIRE_CONST_CHANGED", `${P}/const`, "either");
    expect(f.message).toBe('allowed value changed from "a", "b" to "a"');
  });

  it("const a widened to enum [a, b]: a const change, placed at the old const", () => {
    const r = run(p({ const: "a" }), p({ enum: ["a", "b"] }));
    const f = one(r, "WIRE_CONST_CHANGED", `${P}/const`, "either");
    expect(f.old!.pointer).toBe(`${P}/const`);
    expect(f.message).toBe('allowed value changed from "a" to "a", "b"');
  });

  // Inside a list, the synthesized instances hold only the first item value, so they agree on both
  // sides: the witness must put the value in question into the item.
  const list = (items: object) => p({ type: "array", items });
  it("a list item's enum narrowed to a const: the removed value is the witness", () => {
    const r = run(list({ enum: ["a", "b"] }), list({ const: "a" }));
    const f = one(r, "WIRE_CONST_CHANGED", `${P}/items/const`, "either");
    expect(f.witness!.instance).toMatchObject({ p: ["b"] });
  });
  it("a list item's enum dropped, and one added", () => {
    one(run(list({ enum: ["a", "b"] }), list({ type: "string" })), "WIRE_ENUM_VALUE_ADDED", `${P}/items/enum`, "new-writer-old-reader");
    one(run(list({ type: "string" }), list({ enum: ["a", "b"] })), "WIRE_ENUM_VALUE_REMOVED", `${P}/items/enum`, "old-writer-new-reader");
  });

  it("enum values removed and added are named in their messages", () => {
    const removed = run(p({ enum: ["a", "b", "c"] }), p({ enum: ["a"] }));
    expect(one(removed, "WIRE_ENUM_VALUE_REMOVED", `${P}/enum`, "old-writer-new-reader").message).toBe('enum value "b", "c" removed: new readers reject it from old writers');
    const added = run(p({ enum: ["a"] }), p({ enum: ["a", "b", "c"] }));
    expect(one(added, "WIRE_ENUM_VALUE_ADDED", `${P}/enum`, "new-writer-old-reader").message).toBe('enum value "b", "c" added: old readers reject it from new writers');
  });
});

describe("objects: members, required, closing and maps", () => {
  it("a property removed from a closed object", () => {
    const r = run(() => {}, (f) => void delete f[M].properties.count);
    const f = one(r, "WIRE_FIELD_REMOVED", "/properties", "old-writer-new-reader");
    expect([f.old!.pointer, f.removed]).toEqual(["/properties/count", true]);
  });

  it("a property added to a closed object names it", () => {
    const r = run(() => {}, (f) => void (f[M].properties.extra = { type: "string" }));
    const f = one(r, "WIRE_PROPERTY_ADDED_CLOSED", "/properties/extra", "new-writer-old-reader");
    expect(f.old!.pointer).toBe("/properties");
    expect(f.message).toBe("property extra added to a closed object: old readers reject new instances that carry it");
  });

  it("a declared property folded into a map is compared with the map's value schema", () => {
    // integer n against string values: old {n: 1} is refused by the new side, new {n: "x"} by the old.
    const declared = p({ type: "object", properties: { n: { type: "integer" } }, additionalProperties: { type: "string" } });
    const map = p({ type: "object", additionalProperties: { type: "string" } });
    const places = (r: ReturnType<typeof run>) => {
      const fs = wire(r.findings, "WIRE_TYPE_CHANGED");
      for (const f of fs) expectWitness(f, r.before, r.after);
      return fs.map((f) => [f.at.pointer, f.old!.pointer, f.direction]);
    };
    expect(places(run(declared, map))).toEqual([
      [`${P}/additionalProperties/type`, `${P}/properties/n/type`, "old-writer-new-reader"],
      [`${P}/additionalProperties/type`, `${P}/properties/n/type`, "new-writer-old-reader"],
    ]);
    expect(places(run(map, declared))).toEqual([
      [`${P}/properties/n/type`, `${P}/additionalProperties/type`, "old-writer-new-reader"],
      [`${P}/properties/n/type`, `${P}/additionalProperties/type`, "new-writer-old-reader"],
    ]);
  });

  // A fixed key moved between patternProperties and properties: the pattern claims the name, so
  // the map's value schema never applies to it and both versions accept the same instances.
  const pp = { type: "object", patternProperties: { "^n$": { type: "integer" } }, additionalProperties: { type: "string" } };
  const props = { type: "object", properties: { n: { type: "integer" } }, additionalProperties: { type: "string" } };
  it("a key moved from properties to patternProperties: nothing breaks", () => {
    expect(run(p(props), p(pp)).findings).toEqual([]);
  });
  it("a key moved from patternProperties to properties: nothing breaks", () => {
    expect(run(p(pp), p(props)).findings).toEqual([]);
  });

  // minProperties: 1 means an empty options object is refused on both sides, so the witness must
  // drop the member from an instance that keeps another one.
  const opts = (required?: string[]) => p({ type: "object", minProperties: 1, properties: { a: { type: "string" }, b: { type: "string" } }, ...(required ? { required } : {}) });
  it("a member made required", () => {
    const r = run(opts(), opts(["a"]));
    const f = one(r, "WIRE_REQUIRED_ADDED", `${P}/required`, "old-writer-new-reader");
    expect(f.message).toBe("a is now required: new readers reject old instances without it");
  });
  it("a member no longer required", () => {
    const r = run(opts(["a"]), opts());
    const f = one(r, "WIRE_REQUIRED_REMOVED", `${P}/required`, "new-writer-old-reader");
    expect(f.message).toBe("a is no longer required: old readers reject new instances without it");
  });

  it("an open object closed, and a closed one opened", () => {
    const closed = run(() => {}, (f) => void (f[OPEN].additionalProperties = false));
    expect(one(closed, "WIRE_OBJECT_CLOSED", "/additionalProperties", "old-writer-new-reader").message).toBe(
      "additionalProperties closed: new readers reject undeclared properties old writers may send",
    );
    const opened = run(() => {}, (f) => void delete f[M].additionalProperties);
    expect(one(opened, "WIRE_OBJECT_OPENED", "/additionalProperties", "new-writer-old-reader").message).toBe(
      "additionalProperties opened: old readers reject undeclared properties new writers may send",
    );
  });

  it("undeclared members' values: true (any) versus a schema, both ways", () => {
    const anyValue = p({ type: "object", additionalProperties: true });
    const strings = p({ type: "object", additionalProperties: { type: "string" } });
    const absent = p({ type: "object" });
    for (const [before, after, direction] of [
      [anyValue, strings, "old-writer-new-reader"],
      [absent, strings, "old-writer-new-reader"],
      [strings, anyValue, "new-writer-old-reader"],
    ] as const) {
      const r = run(before, after);
      expect(one(r, "WIRE_TYPE_CHANGED", `${P}/additionalProperties/type`, direction).old!.pointer).toBe(`${P}/additionalProperties/type`);
    }
  });
});
