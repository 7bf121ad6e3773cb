// Property tests (fast-check, fixed seed, bounded runs): random closed/open object schemas with
// random edits. Compatible edits yield no finding; each breaking edit yields its rule; every WIRE
// finding carries a witness that a separate ajv confirms one version accepts and the other rejects.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { expectWitness, writeTree, type Files } from "./spec-fixture.js";

const FILE = "spec/p/messages/R.yaml";
const NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta"];
const RUNS = { numRuns: 30, seed: 20261201 };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

const stringLeaf = fc.record({
  type: fc.constant("string"),
  minLength: fc.integer({ min: 0, max: 3 }),
  maxLength: fc.integer({ min: 6, max: 12 }),
  pattern: fc.constantFrom("^[a-z]+$", "^[a-z0-9-]+$"),
}, { requiredKeys: ["type", "minLength", "maxLength"] });
const intLeaf = fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: 0, max: 5 }), maximum: fc.integer({ min: 10, max: 20 }) });
const enumLeaf = fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e"), { minLength: 2, maxLength: 4 }).map((e) => ({ enum: e }));
const boolLeaf = fc.constant({ type: "boolean" });
const leaf = fc.oneof(stringLeaf, intLeaf, enumLeaf, boolLeaf);

const objectSchema = fc
  .record({
    props: fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), leaf), { minLength: 2, maxLength: 5, selector: (t) => t[0] }),
    requiredMask: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    closed: fc.boolean(),
  })
  .map(({ props, requiredMask, closed }): Schema => ({
    $id: "https://agent-contracts.dev/schemas/p/R.json",
    title: "R",
    type: "object",
    ...(closed ? { additionalProperties: false } : { "x-open": "test" }),
    required: props.filter((_, i) => requiredMask[i]).map(([n]) => n),
    properties: Object.fromEntries(props.map(([n, s]) => [n, { ...s }])),
  }));

const files = (schema: Schema): Files => ({ "spec/p/protocol.yaml": { id: "p" }, [FILE]: schema, "spec/breaking.yaml": { breaking: { enforce: "WIRE" } } });

function compare(before: Schema, after: Schema) {
  const b = files(before);
  const a = files(after);
  return { ...compareRoots(writeTree(b), writeTree(a)), b, a };
}

type Edit = { name: string; rule?: string; apply(s: Schema, pick: number): boolean };
const propNames = (s: Schema) => Object.keys(s.properties);
const nth = <T>(xs: T[], i: number) => xs[i % xs.length]!;

const COMPATIBLE: Edit[] = [
  { name: "describe a property", apply: (s, i) => ((s.properties[nth(propNames(s), i)].description = "Reworded."), true) },
  { name: "reorder properties", apply: (s) => ((s.properties = Object.fromEntries(Object.entries(s.properties).reverse())), true) },
  { name: "reorder required", apply: (s) => (s.required.reverse(), true) },
  { name: "reorder an enum", apply: (s) => { const e = (Object.values(s.properties) as Schema[]).find((p) => Array.isArray(p.enum)); if (!e) return false; e.enum.reverse(); return true; } },
  { name: "add an optional field to an open object", apply: (s) => { if (s.additionalProperties === false) return false; s.properties.added = { type: "string" }; return true; } },
  { name: "add a $comment", apply: (s) => ((s.$comment = "note"), true) },
];

const leafWith = (s: Schema, i: number, test: (p: Schema) => boolean): Schema | undefined => {
  const matching = propNames(s).map((n) => s.properties[n]).filter(test);
  return matching.length ? nth(matching, i) : undefined;
};

const BREAKING: Edit[] = [
  { name: "remove an enum value", rule: "WIRE_ENUM_VALUE_REMOVED", apply: (s, i) => { const p = leafWith(s, i, (x) => Array.isArray(x.enum)); if (!p) return false; p.enum.pop(); return true; } },
  { name: "add an enum value", rule: "WIRE_ENUM_VALUE_ADDED", apply: (s, i) => { const p = leafWith(s, i, (x) => Array.isArray(x.enum)); if (!p) return false; p.enum.push("zz"); return true; } },
  { name: "raise minLength", rule: "WIRE_BOUND_TIGHTENED", apply: (s, i) => { const p = leafWith(s, i, (x) => x.type === "string"); if (!p) return false; p.minLength += 2; return true; } },
  { name: "raise maximum", rule: "WIRE_BOUND_LOOSENED", apply: (s, i) => { const p = leafWith(s, i, (x) => x.type === "integer"); if (!p) return false; p.maximum += 5; return true; } },
  { name: "change a type", rule: "WIRE_TYPE_CHANGED", apply: (s, i) => { const p = leafWith(s, i, (x) => x.type === "boolean"); if (!p) return false; p.type = "integer"; return true; } },
  { name: "make a field required", rule: "WIRE_REQUIRED_ADDED", apply: (s, i) => { const opt = propNames(s).filter((n) => !s.required.includes(n)); if (!opt.length) return false; s.required.push(nth(opt, i)); return true; } },
  { name: "remove a field of a closed object", rule: "WIRE_FIELD_REMOVED", apply: (s, i) => { if (s.additionalProperties !== false) return false; const n = nth(propNames(s), i); delete s.properties[n]; s.required = s.required.filter((r: string) => r !== n); return true; } },
  { name: "add a field to a closed object", rule: "WIRE_PROPERTY_ADDED_CLOSED", apply: (s) => { if (s.additionalProperties !== false) return false; s.properties.added = { type: "string" }; return true; } },
  { name: "close an open object", rule: "WIRE_OBJECT_CLOSED", apply: (s) => { if (s.additionalProperties === false) return false; s.additionalProperties = false; return true; } },
];

describe("random compatible edits", () => {
  it("find nothing", () => {
    fc.assert(
      fc.property(objectSchema, fc.array(fc.tuple(fc.integer({ min: 0, max: COMPATIBLE.length - 1 }), fc.nat(10)), { minLength: 1, maxLength: 3 }), (schema, edits) => {
        const after = structuredClone(schema);
        for (const [e, pick] of edits) COMPATIBLE[e]!.apply(after, pick);
        const { findings } = compare(schema, after);
        expect(findings.filter((f) => f.status === "breaking").map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe("random breaking edits", () => {
  it("find the right rule, each WIRE finding with a witness", () => {
    let applied = 0;
    fc.assert(
      fc.property(objectSchema, fc.integer({ min: 0, max: BREAKING.length - 1 }), fc.nat(10), (schema, e, pick) => {
        const after = structuredClone(schema);
        const edit = BREAKING[e]!;
        if (!edit.apply(after, pick)) return;
        applied++;
        const { findings, b, a } = compare(schema, after);
        expect(findings.map((f) => f.rule), edit.name).toContain(edit.rule);
        for (const f of findings.filter((x) => x.category === "WIRE")) expectWitness(f, b, a);
      }),
      { ...RUNS, numRuns: 60 },
    );
    expect(applied).toBeGreaterThan(20);
  });
});
