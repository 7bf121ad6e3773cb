// Which members of a schema are keywords (dropped when asked) and which are names or data (kept):
// a hand-written table, one row per position a dropped word can appear in.
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/types.js";
import { PROSE_AND_EXAMPLES, validatorView } from "./validator-view.js";

const dropProse = (k: string): boolean => PROSE_AND_EXAMPLES.has(k) || k === "title";

const table: [what: string, input: JsonValue, expected: JsonValue][] = [
  ["a keyword at the root", { type: "string", description: "d", title: "T" }, { type: "string" }],
  ["a property named like a keyword", { properties: { description: { type: "string", description: "d" } } }, { properties: { description: { type: "string" } } }],
  ["a $defs entry named like a keyword", { $defs: { title: { type: "integer", title: "x" } } }, { $defs: { title: { type: "integer" } } }],
  ["a patternProperties name", { patternProperties: { "^description$": { description: "d" } } }, { patternProperties: { "^description$": {} } }],
  ["a const holding keyword-like members", { const: { title: 1, description: "kept" } }, { const: { title: 1, description: "kept" } }],
  ["an enum member", { enum: [{ description: "kept" }, "title"] }, { enum: [{ description: "kept" }, "title"] }],
  ["a default value", { default: { description: "kept" } }, { default: { description: "kept" } }],
  ["required names", { required: ["description", "title"] }, { required: ["description", "title"] }],
  ["subschemas in arrays", { oneOf: [{ title: "A", type: "object" }, { description: "b" }] }, { oneOf: [{ type: "object" }, {}] }],
  ["items and nested objects", { items: { properties: { a: { examples: [1], type: "number" } } } }, { items: { properties: { a: { type: "number" } } } }],
  ["a dependentSchemas name", { dependentSchemas: { title: { title: "x", minProperties: 1 } } }, { dependentSchemas: { title: { minProperties: 1 } } }],
  ["dependentRequired names", { dependentRequired: { a: ["title"] } }, { dependentRequired: { a: ["title"] } }],
  ["a discriminator", { discriminator: { propertyName: "title", mapping: { description: "x" } } }, { discriminator: { propertyName: "title", mapping: { description: "x" } } }],
  ["a name map that is not an object is walked as a schema", { properties: [{ title: "a" }] }, { properties: [{}] }],
  ["a null name map is kept", { properties: null }, { properties: null }],
  ["a name map that is a string is kept", { properties: "ab", $defs: 3 }, { properties: "ab", $defs: 3 }],
  ["a patternProperties name that is a keyword", { patternProperties: { title: { title: "x" } } }, { patternProperties: { title: {} } }],
  ["a dependentRequired name that is a keyword", { dependentRequired: { title: ["description"] } }, { dependentRequired: { title: ["description"] } }],
  ["an unknown keyword (even one named \"\") is walked as a schema", { "": { description: "d", type: "string" }, other: { title: "t" } }, { "": { type: "string" }, other: {} }],
  ["scalars and null", { minimum: 1, pattern: "^a$", nullable: null, flag: true }, { minimum: 1, pattern: "^a$", nullable: null, flag: true }],
  ["x- annotations the rule keeps, verbatim", { "x-rules": [{ id: "r", description: "kept" }], "x-source": [] }, { "x-rules": [{ id: "r", description: "kept" }] }],
];

describe("validatorView", () => {
  it.each(table)("%s", (_what, input, expected) => {
    expect(validatorView(input, dropProse)).toEqual(expected);
  });

  it("drops exactly the prose and test data keywords", () => {
    expect([...PROSE_AND_EXAMPLES].sort()).toEqual(["description", "examples", "x-divergences", "x-invalid-examples", "x-source"]);
  });

  it("keeps examples as data when they are not dropped", () => {
    expect(validatorView({ examples: [{ title: "kept" }] }, (k) => k === "title")).toEqual({ examples: [{ title: "kept" }] });
  });

  it("drops every x- key when the target asks", () => {
    expect(validatorView({ "x-rules": [], "x-open": "why", type: "object" }, (k) => k.startsWith("x-"))).toEqual({ type: "object" });
  });

  it("does not modify its input", () => {
    const input = { properties: { a: { description: "d" } } };
    validatorView(input, dropProse);
    expect(input).toEqual({ properties: { a: { description: "d" } } });
  });
});
