// The generated schema checks (generators/targets/ts/emit-schema-code.ts) over the hand-written
// helpers they call (runtime/src/schema-checks.ts, imported from source so a mutant there is what
// runs), on small schemas that reach every helper and keyword, against ajv compiled at run time
// from the same schema (createSchemaCompiler: the generator's settings), the oracle: the verdict
// and the first error (path, keyword, message, params) must be ajv's. The expectations come from
// ajv, never from the code under test.
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import * as formats from "ajv-formats/dist/formats.js";
import { PROSE_AND_EXAMPLES, validatorView } from "../../generators/emit/validator-view.js";
import { lengthFirst } from "../../generators/model/length-first.js";
import { createSchemaCompiler } from "../../generators/model/schema-compiler.js";
import type { JsonSchema, JsonValue } from "../../generators/model/types.js";
import { printSchemaCode } from "../../generators/targets/ts/emit-schema-code.js";
import * as checks from "../../generators/targets/ts/runtime/src/schema-checks.js";
import { fromAjvError, type AjvLikeError, type ValidationError } from "../../generators/targets/ts/runtime/src/validation.js";
import { TsFile } from "../../generators/targets/ts/ts-file.js";

type Check = (value: unknown) => ValidationError[] | undefined;

const BASE = "https://example.test/schemas/";
const fullFormats = (formats as unknown as { fullFormats: Record<string, unknown> }).fullFormats;

/** The generated check of `schema`, evaluated with the helpers of the source runtime. */
function generated(name: string, schema: JsonSchema): Check {
  const file = new TsFile("p/validators.ts", []);
  const document = validatorView(lengthFirst({ $id: `${BASE}${name}.json`, ...schema }), (k) => PROSE_AND_EXAMPLES.has(k));
  printSchemaCode(file, [document], [{ name, id: `${BASE}${name}.json` }]);
  // esbuild strips the types (milliseconds, where loading the TypeScript compiler costs a second per fresh module graph).
  const js = transformSync(file.render(), { loader: "ts", format: "esm", target: "es2022" }).code;
  // The module's imports become parameters; its exported check is returned.
  const body = js.replace(/^import [\s\S]*?from "[^"]+";$/gm, "").replace(/^export \{[\s\S]*?\};$/gm, "").replace(/^export function /gm, "function ");
  const scope = { ...checks, fromAjvError, ...Object.fromEntries(Object.entries(fullFormats).map(([k, v]) => [`formats_fullFormats_${k}`, v])) };
  const names = Object.keys(scope).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function(...names, `${body}\nreturn check${name};`) as (...args: unknown[]) => Check;
  return make(...names.map((k) => (scope as Record<string, unknown>)[k]));
}

/** ajv's verdict and its first error, or its whole list when `whole`. */
function oracle(name: string, schema: JsonSchema, whole: boolean): Check {
  const id = `${BASE}${name}.json`;
  const validate = createSchemaCompiler([{ $id: id, ...schema }]).getSchema(id)!;
  return (value) => (validate(value) ? undefined : (validate.errors ?? []).slice(0, whole ? undefined : 1).map((e) => fromAjvError(e as AjvLikeError)));
}

const S = { type: "string" } as const;
/**
 * Pairs of items that are not equal in JSON though a looser equality would take them for equal: a
 * scalar and an object with no members (either order), null and an object, an object and an array
 * with no members, an array or object that is a prefix or part of the other (the later item, which
 * uniqueItems compares first, the shorter).
 */
const DISTINCT: JsonValue[] = [[{}, 1], [1, {}], [{}, ""], [{}, null], [[], {}], [{}, []], [[1, 2], [1]], [{ a: 1, b: 2 }, { a: 1 }]];
/**
 * Each schema with instances that pass and fail it in different ways. `whole`: the check's whole
 * list must be ajv's (where the generated check promises more than the first error: propertyNames'
 * naming error after the name's own).
 */
const CASES: { name: string; schema: JsonSchema; instances: unknown[]; whole?: boolean }[] = [
  { name: "Types", schema: { type: ["string", "null"], minLength: 2 }, instances: ["ab", "a", null, 1, true, [], {}] },
  { name: "Integer", schema: { type: "integer", minimum: 1, maximum: 10, multipleOf: 3 }, instances: [3, 6, 9, 0, 12, 4, 3.5, "3", null] },
  { name: "Exclusive", schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1.5, multipleOf: 0.5 }, instances: [0.5, 1, 0, 1.5, 0.7, -1, "x"] },
  { name: "Untyped", schema: { minimum: 2, maxLength: 3, minItems: 1, minProperties: 1 }, instances: [1, 5, "abcd", "", [], [1], {}, { a: 1 }, null] },
  { name: "Lengths", schema: { type: "string", minLength: 2, maxLength: 3 }, instances: ["ab", "abc", "abcd", "a", "", "\u{1F600}", "\u{1F600}\u{1F600}", "\u{1F600}\u{1F600}\u{1F600}\u{1F600}", "\ud83d", "a\ud83d\ude00b"] },
  // One code point or two: pairs made of the first and last high surrogates, a low surrogate after a
  // non-surrogate or after a low one, a high one before a non-surrogate (each counts alone).
  { name: "CodePoints", schema: { type: "string", maxLength: 1 }, instances: ["a", "\ud800\udc00", "\udbff\udfff", "a\udc00", "\udc00\udc00", "\ud800a", "\ud83d", "ab"] },
  { name: "Pattern", schema: { type: "string", pattern: "^[a-z]+$", format: "hostname" }, instances: ["abc", "ABC", "a-b", "abc.def", ""] },
  { name: "Uri", schema: { type: "string", format: "uri" }, instances: ["https://a.example/x", "not a uri", "a:b", ""] },
  { name: "Const", schema: { properties: { s: { const: "x" }, n: { const: 1 }, o: { const: { a: [1, 2] } }, z: { const: null } } }, instances: [{ s: "x", n: 1, o: { a: [1, 2] }, z: null }, { s: "y" }, { n: 2 }, { o: { a: [2, 1] } }, { o: { a: [1, 2], b: 1 } }, { z: false }] },
  { name: "Enum", schema: { properties: { s: { enum: ["a", "b"] }, many: { enum: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] }, mixed: { enum: [1, "1", null, { a: 1 }, [1]] }, none: { enum: [] } } }, instances: [{ s: "a", many: "j", mixed: { a: 1 } }, { s: "c" }, { many: "k" }, { many: 1 }, { mixed: [1] }, { mixed: [2] }, { mixed: true }, { none: 1 }] },
  { name: "Required", schema: { type: "object", required: ["a", "b", "constructor"], properties: { a: S } }, instances: [{ a: "x", b: 1, constructor: 1 }, { b: 1 }, { a: "x", constructor: 1 }, { a: "x", b: 1 }, { a: 1, b: 1, constructor: 1 }, [], {}] },
  // Object.prototype's members are not the instance's (ajv's ownProperties).
  { name: "InheritedRequired", schema: { type: "object", required: ["constructor"] }, instances: [{ constructor: 1 }, {}, { toString: 1 }] },
  // Values built in memory rather than parsed (validate<Message> takes any value): a member whose
  // value is undefined is absent to ajv's required, with one name or several.
  { name: "UndefinedMember", schema: { type: "object", required: ["a"] }, instances: [{ a: undefined }, { a: 1 }] },
  { name: "UndefinedMembers", schema: { type: "object", required: ["a", "b"] }, instances: [{ a: undefined, b: 1 }, { a: 1, b: undefined }, { a: 1, b: 1 }] },
  { name: "OneRequired", schema: { type: "object", required: ["a"], properties: { a: S, b: false } }, instances: [{ a: "x" }, {}, { a: "x", b: 1 }] },
  { name: "Additional", schema: { type: "object", properties: { a: S, "x/y~z": S }, patternProperties: { "^p_": { type: "integer" } }, additionalProperties: false }, instances: [{ a: "x", p_1: 1 }, { b: 1 }, { p_1: "x" }, { "x/y~z": 1 }, { a: 1 }] },
  { name: "ManyDeclared", schema: { type: "object", properties: Object.fromEntries("abcdefghij".split("").map((k) => [k, S])), additionalProperties: { type: "integer" } }, instances: [{ a: "x", z: 1 }, { z: "x" }, { "a/b": "x" }, { j: 1 }] },
  { name: "Names", schema: { type: "object", propertyNames: { maxLength: 3, pattern: "^[a-z]" }, maxProperties: 2, minProperties: 1 }, instances: [{ ab: 1 }, { abcd: 1 }, { A: 1 }, {}, { a: 1, b: 2, c: 3 }], whole: true },
  { name: "Dependent", schema: { type: "object", dependentRequired: { a: ["b"], c: ["d", "e"], f: [] }, dependentSchemas: { g: { required: ["h"] } } }, instances: [{ a: 1, b: 1 }, { a: 1 }, { c: 1, d: 1 }, { c: 1 }, { f: 1 }, { g: 1 }, { g: 1, h: 1 }] },
  { name: "Not", schema: { not: { type: "string" }, allOf: [{ minimum: 1 }, { maximum: 5 }] }, instances: [3, "x", 0, 6, null] },
  { name: "AnyOf", schema: { anyOf: [{ type: "string", minLength: 2 }, { type: "integer" }, { const: null }] }, instances: ["ab", "a", 1, 1.5, null, true] },
  { name: "OneOf", schema: { oneOf: [{ type: "integer" }, { minimum: 2 }, { type: "number", maximum: 10 }] }, instances: [1, 1.5, 3, 20.5, "x", -1.5] },
  { name: "OneOfAll", schema: { oneOf: [{ type: "number" }, { type: "number" }, { type: "number" }, { type: "string" }] }, instances: [1, "x", null] },
  { name: "IfThen", schema: { if: { properties: { k: { const: "a" } } }, then: { required: ["x"] }, else: { required: ["y"] } }, instances: [{ k: "a", x: 1 }, { k: "a" }, { k: "b", y: 1 }, { k: "b" }, 1] },
  { name: "IfOnly", schema: { if: { type: "string" }, then: { minLength: 2 } }, instances: ["ab", "a", 1] },
  { name: "Arrays", schema: { type: "array", prefixItems: [S, { type: "integer" }], items: false, minItems: 1 }, instances: [["a"], ["a", 1], ["a", 1, 2], [1], ["a", "b"], []] },
  { name: "Items", schema: { type: "array", items: { type: "string", minLength: 1 }, maxItems: 3, uniqueItems: true }, instances: [["a", "b"], ["a", "a"], ["a", "b", "a"], ["a", ""], [1], ["a", "b", "c", "d"]] },
  { name: "UniqueMixed", schema: { type: "array", items: { type: ["string", "integer"] }, uniqueItems: true }, instances: [["1", 1], ["1_", 1], [1, 2, 1], ["a", "b", "a", "b"], [true]] },
  { name: "UniquePrefix", schema: { type: "array", prefixItems: [{ type: "object" }, { type: "object" }], items: { type: "string" }, uniqueItems: true }, instances: [[{}, {}, "a"], [{}, { a: 1 }, "a", "a"], [{}, {}]] },
  { name: "UniqueDeep", schema: { type: "array", uniqueItems: true }, instances: [[{ a: 1 }, { a: 1 }], [[1], [2]], [1, "1"], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [1, 2, 1, 2], ...DISTINCT] },
  // In memory too: NaN, which ajv's deep equality (fast-deep-equal) takes as equal to NaN and to
  // nothing else, and an array with holes, which it compares by length and items as any array.
  { name: "UniqueInMemory", schema: { type: "array", uniqueItems: true }, instances: [[NaN, NaN], [1, NaN], [NaN, 1], [[NaN], [NaN]], [{ a: NaN }, { a: 1 }], [new Array(2), [undefined, undefined]], [[1], new Array(1)]] },
  { name: "Contains", schema: { type: "array", contains: { type: "integer", minimum: 2 } }, instances: [[1, 2], [1, "a"], [], [0.5]] },
  { name: "ContainsTwo", schema: { type: "array", contains: { type: "integer" }, minContains: 2 }, instances: [[1, 2], [1, "a"], ["a", 1, "b", 2], ["a"]] },
  { name: "ContainsAtMostOne", schema: { type: "array", contains: { const: 1 }, minContains: 0, maxContains: 1 }, instances: [[], [1], [1, 1], [2, 1, 2], [1, 2, 1]] },
  { name: "ContainsMinMax", schema: { type: "array", contains: { type: "integer" }, minContains: 2, maxContains: 3 }, instances: [[1, 2], [1], [1, 2, 3, 4], ["a", 1, 2], []] },
  { name: "ContainsInside", schema: { anyOf: [{ type: "array", contains: { const: 1 } }, { type: "array", contains: { const: 2 }, maxContains: 1 }] }, instances: [[1], [2], [3, 4], [2, 2], "x"] },
  { name: "ContainsTrue", schema: { type: "array", contains: true, minContains: 2 }, instances: [[1, 2], [1]] },
  { name: "FalseContains", schema: { type: "array", contains: false, minContains: 0, maxContains: 0, maxItems: 1 }, instances: [[], [1], [1, 2]] },
  { name: "ContainsFalse", schema: { anyOf: [{ type: "array", contains: false }, { type: "string" }] }, instances: [[], [1], "x"] },
  { name: "E", schema: { properties: { e: { type: "string" }, v: { enum: [[1], { a: 1 }] } } }, instances: [{ e: "x", v: [1] }, { e: 1 }, { v: [2] }] },
  {
    name: "Tagged",
    schema: {
      type: "object",
      required: ["kind"],
      discriminator: { propertyName: "kind" },
      oneOf: [
        { properties: { kind: { const: "a" }, x: S }, required: ["x"] },
        { properties: { kind: { enum: ["b", "c"] }, y: { type: "integer" } } },
      ],
    },
    instances: [{ kind: "a", x: "1" }, { kind: "a" }, { kind: "b", y: "1" }, { kind: "c" }, { kind: "d" }, { kind: 1 }, {}, "x"],
  },
];

// Built once, at import: generating the code and compiling ajv call nothing of schema-checks.ts
// (a mutant there is active only when a test calls a check), so the mutants' reruns stay fast.
const BUILT = CASES.map((c) => {
  const want = oracle(c.name, c.schema, c.whole === true);
  return { ...c, check: generated(c.name, c.schema), expected: c.instances.map((i) => want(i)) };
});

describe("generated schema checks over runtime/src/schema-checks.ts, against ajv", () => {
  for (const c of BUILT) {
    it(`${c.name}: ajv's verdict and ${c.whole === true ? "whole error list" : "first error"} on each instance`, () => {
      c.instances.forEach((instance, i) => expect(c.whole === true ? c.check(instance) : c.check(instance)?.slice(0, 1), JSON.stringify(instance)).toEqual(c.expected[i]));
      expect(new Set(c.expected.map((e) => e === undefined)), "each schema is passed and failed").toEqual(new Set([true, false]));
    });
  }

  it("a schema with unevaluatedProperties, given no ajv module to fall back on, is refused at its location", () => {
    expect(() => generated("Unevaluated", { properties: { a: S }, unevaluatedProperties: false })).toThrow(/Unevaluated\.json# uses unevaluatedProperties/);
  });

  it("the helpers keep no state: an error is a fresh object each time", () => {
    const a = checks.typeError("string");
    checks.at(a, "/x");
    expect(checks.typeError("string").instancePath).toBe("");
    expect(checks.atKey(checks.falseSchema(), "a/b~c").instancePath).toBe("/a~1b~0c");
    expect(checks.atIndex(checks.falseSchema(), 3).instancePath).toBe("/3");
  });
});
