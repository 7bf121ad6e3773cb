// The respelling of schemas whose unevaluated keywords read annotations ajv does not collect.
// Verdicts are hand-written from JSON Schema 2020-12 (core §10.3.1.3, §11: annotations of failing
// subschemas are dropped; `contains` annotates the indices it matched); the suite's cases run in
// property-tests/json-schema-suite/ts-validator.test.ts.
import { describe, expect, it } from "vitest";
import { MAX_DISJUNCTS, spellAnnotations } from "./annotation-spelling.js";
import { SchemaKeywordError } from "./runtime-keywords.js";
import { createSchemaCompiler } from "./schema-compiler.js";
import type { JsonSchema, JsonValue } from "./types.js";

function verdicts(schema: JsonSchema, instances: JsonValue[]): boolean[] {
  const validate = createSchemaCompiler([{ $id: "https://x.invalid/s", ...schema }]).getSchema("https://x.invalid/s")!;
  return instances.map((i) => validate(i) === true);
}

function refusal(schema: JsonSchema): SchemaKeywordError {
  try {
    spellAnnotations(schema, "doc");
  } catch (error) {
    if (error instanceof SchemaKeywordError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("annotation spelling", () => {
  it("leaves a schema without unevaluated keywords as it is", () => {
    const schema = { if: { contains: { const: 1 } }, then: { anyOf: [{ items: true }, true] } };
    expect(spellAnnotations(schema, "doc")).toEqual(schema);
  });

  it("counts what contains matched in the oneOf branch that passed, and only there", () => {
    const schema = { oneOf: [{ contains: { const: 1 } }, { contains: { const: 2 } }], unevaluatedItems: false };
    // [1, 3]: 3 matched by no contains; [1, 2]: both branches pass, oneOf fails.
    expect(verdicts(schema, [[1], [1, 1], [2], [1, 3], [1, 2], []])).toEqual([true, true, true, false, false, false]);
  });

  it("drops the annotations of an if that failed, keeps those of a then and an else taken", () => {
    const schema = { if: { properties: { a: { const: 1 } }, required: ["a"] }, then: { properties: { b: true } }, else: { properties: { c: true } }, unevaluatedProperties: false };
    expect(verdicts(schema, [{ a: 1, b: 0 }, { a: 2, c: 0 }, { a: 2 }, { a: 1, c: 0 }, { c: 0 }])).toEqual([true, false, false, false, true]);
  });

  it("keeps contains's minContains and maxContains as assertions", () => {
    const schema = { contains: { type: "string" }, minContains: 2, maxContains: 3, unevaluatedItems: { type: "number" } };
    expect(verdicts(schema, [["a", "b"], ["a", 1], ["a", "b", "c", "d"], ["a", "b", 1], ["a", "b", null]])).toEqual([true, false, false, true, false]);
  });

  it("refuses, with document, pointer and keyword, a branch it would duplicate that carries $id", () => {
    const e = refusal({ anyOf: [{ $id: "https://x.invalid/b", contains: true }, true], unevaluatedItems: false });
    expect([e.document, e.pointer, e.keyword]).toEqual(["doc", "/anyOf/0", "unevaluatedItems"]);
  });

  it("names unevaluatedProperties when that is the keyword reading the annotations", () => {
    const e = refusal({ if: { $id: "https://x.invalid/c", properties: { a: true } }, unevaluatedProperties: false });
    expect([e.pointer, e.keyword]).toEqual(["/if", "unevaluatedProperties"]);
  });

  it(`refuses more than ${MAX_DISJUNCTS} ways for its branches to pass`, () => {
    const branches = Array.from({ length: 7 }, (_, i) => ({ contains: { const: i } }));
    const e = refusal({ properties: { list: { anyOf: branches, unevaluatedItems: false } } });
    expect([e.pointer, e.keyword]).toEqual(["/properties/list", "unevaluatedItems"]);
  });
});
