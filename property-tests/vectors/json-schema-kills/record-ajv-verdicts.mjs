// Records ajv's first error (allErrors: false, discriminator: true, ajv-formats — the options the
// TypeScript validators compile with, generators/model/schema-compiler.ts) for hand-written
// schemas and instances at the edges of the Kotlin interpreter (JsonSchemaValidator.kt): oneOf,
// contains, uniqueItems, $ref resolution, boolean subschemas, limits, messages at the root, ECMAScript
// patterns. ajv is the independent implementation; the Kotlin suite
// (JsonSchemaValidatorMutationKillsTest.kt) must agree with every verdict.
// Run: node property-tests/vectors/json-schema-kills/record-ajv-verdicts.mjs  (writes ajv-verdicts.json)
//      ... --check  (fails when the committed file differs from what ajv says now)
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { Ajv2020 } = require("ajv/dist/2020.js");
const addFormats = require("ajv-formats");

const ID = "https://kills.example/";
const obj = (props, extra = {}) => ({ type: "object", properties: props, ...extra });

/** [name, schema (its $id is added), instances, other documents] */
const cases = [
  ["oneOf: none, one, two branches pass", { oneOf: [{ type: "string", maxLength: 2 }, { type: "string", pattern: "^a" }, { type: "integer" }] },
    ["abc", "xy", "ab", "a", 5, 5.5, null, "bcd"]],
  ["oneOf: the first failing branch's error is reported when none pass", { oneOf: [{ minimum: 10 }, { maximum: 1 }] }, [5, 0, 11]],
  ["oneOf inside properties: path of the branch error", obj({ a: { oneOf: [{ type: "object", required: ["x"] }, { type: "object", required: ["y"] }] } }),
    [{ a: {} }, { a: { x: 1 } }, { a: { x: 1, y: 2 } }, { a: 3 }]],
  ["contains outside a composite keyword", { type: "array", contains: { const: 1 } }, [[], [2], [2, 3], [2, 1], [1]]],
  ["contains inside anyOf: the first item's own error", { anyOf: [{ type: "array", contains: { type: "integer", minimum: 5 } }, { type: "string" }] },
    [[1, 2], ["x", 1], [7], [1, 9], "s", []]],
  ["contains inside not and oneOf", { oneOf: [{ type: "array", contains: { const: "a" } }, { type: "array", maxItems: 1 }] },
    [["b"], ["a"], ["b", "c"], ["a", "b"]]],
  ["uniqueItems over primitives and objects", { type: "array", uniqueItems: true },
    [[], [1], [1, 2], [1, 1], [1, 2, 1], [1, 1, 2, 2], [{ a: 1 }, { a: 1 }], [{ a: 1 }, { b: 1 }], [[1], [1]], [1, "1"], [1, 1.0], [0, false], [null, null], [2, 3, 4, 2]]],
  ["uniqueItems false", { type: "array", uniqueItems: false }, [[1, 1]]],
  ["additionalProperties as a schema", obj({ a: { type: "string" } }, { additionalProperties: { type: "integer" } }),
    [{ a: "x", b: 1 }, { a: "x", b: "y" }, { b: 1, c: 2.5 }, { "x/y": "z" }, { "t~": "z" }, {}]],
  ["additionalProperties false and true", obj({ a: true }, { additionalProperties: false }), [{ a: 1 }, { b: 1 }, { a: 1, c: 2 }]],
  ["additionalProperties true", obj({ a: { type: "string" } }, { additionalProperties: true }), [{ a: "x", b: 1 }, { a: 1 }]],
  ["boolean subschemas", obj({ yes: true, no: false }, { items: false }), [{ yes: 1 }, { no: 1 }, { yes: [], no: null }]],
  ["false subschemas at the root", { allOf: [true, false] }, [1]],
  ["a false anyOf branch", { anyOf: [false, { type: "string" }] }, [1, "s"]],
  ["boolean items", { type: "array", items: true }, [[1, "a"]]],
  ["false items", { type: "array", items: false }, [[], [1]]],
  ["not", { not: { type: "string" } }, ["a", 1]],
  ["not true", { not: true }, [1]],
  ["if / then / else", { if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } }, ["a", "ab", 1, 1.5]],
  ["if / then without else", { if: { type: "string" }, then: { minLength: 2 } }, ["a", 1]],
  ["if / else without then", { if: { type: "string" }, else: { type: "integer" } }, ["a", 1.5]],
  ["limits and their messages", obj({
    s: { type: "string", minLength: 2, maxLength: 3 }, a: { type: "array", minItems: 1, maxItems: 2 },
    o: { type: "object", minProperties: 1, maxProperties: 2 }, n: { type: "number", minimum: 1, maximum: 3 },
  }), [{ s: "a" }, { s: "abcd" }, { s: "ab" }, { s: "abc" }, { s: "😀😀" }, { s: "😀😀😀😀" }, { a: [] }, { a: [1, 2, 3] }, { a: [1, 2] }, { o: {} }, { o: { a: 1, b: 2, c: 3 } }, { o: { a: 1, b: 2 } },
    { n: 0 }, { n: 4 }, { n: 1 }, { n: 3 }, { n: 3.5 }, { n: 0.999 }]],
  ["errors at the document root", { type: "object", required: ["a"], maxProperties: 1 }, [{}, { a: 1, b: 2 }, [], "x"]],
  ["root limits", { type: "string", minLength: 3 }, ["ab"]],
  ["const and enum at the root and below", obj({ c: { const: { k: [1, 2] } }, e: { enum: ["x", 2, null] } }, { const: undefined }),
    [{ c: { k: [1, 2] } }, { c: { k: [2, 1] } }, { e: null }, { e: 2.0 }, { e: "y" }]],
  ["required and dependentRequired", { type: "object", required: ["a", "b"], dependentRequired: { a: ["c", "d"], x: ["y"] } },
    [{ a: 1, b: 1 }, { b: 1 }, { a: 1, b: 1, c: 1 }, { a: 1, b: 1, c: 1, d: 1 }, { a: 1, b: 1, c: 1, d: 1, x: 1 }]],
  ["propertyNames", { type: "object", propertyNames: { maxLength: 2 } }, [{ ab: 1 }, { abc: 1 }]],
  ["types: integer, number, boolean, null, lists", obj({
    i: { type: "integer" }, n: { type: "number" }, b: { type: "boolean" }, z: { type: "null" }, l: { type: ["string", "null"] }, o: { type: "object" }, a: { type: "array" },
  }), [{ i: 2.0 }, { i: 2.5 }, { i: -3 }, { i: -0.5 }, { i: 1e300 }, { i: "1" }, { i: true }, { n: "1" }, { n: null }, { n: false }, { b: "true" }, { b: 0 }, { b: null }, { z: 0 }, { z: false },
    { l: 1 }, { l: null }, { o: [] }, { a: {} }, { b: true }, { n: -1.5e-3 }]],
  ["a type with a group's keywords: the group owns the type error", obj({ s: { type: "string", maxLength: 1 }, a: { type: "array", minItems: 1 }, o: { type: "object", required: ["x"] }, n: { type: "number", minimum: 0 } }),
    [{ s: 1 }, { a: "x" }, { o: [] }, { n: "1" }]],
  ["a type its group owns is checked after the untyped keywords", { type: "string", maxLength: 5, const: "a" }, [5, "b", "a"]],
  ["a type no group owns is checked first", { type: "string", const: "a" }, [5, "b"]],
  ["two types: checked first", { type: ["string", "null"], maxLength: 1, const: "a" }, [5, "bc", null]],
  ["the largest double is an integer", { type: "integer" }, [1.7976931348623157e308, -1.7976931348623157e308, 1.5]],
  ["keywords of another type's group are skipped", { maxLength: 1, minItems: 1, required: ["x"], minimum: 5 }, [3, 6, "ab", "a", [], [1], {}, { x: 1 }]],
  ["$ref into $defs, with escaped tokens", { $defs: { "a/b": { type: "string" }, "c~d": { type: "integer" }, plain: { $ref: "#/$defs/c~0d" } }, ...obj({ p: { $ref: "#/$defs/a~1b" }, q: { $ref: "#/$defs/plain" } }) },
    [{ p: "x", q: 1 }, { p: 1 }, { q: "x" }]],
  ["$ref to another document", obj({ r: { $ref: "other.json#/$defs/n" }, w: { $ref: "other.json" } }),
    [{ r: 1 }, { r: "x" }, { w: { k: 1 } }, { w: { k: "1" } }],
    [{ $id: `${ID}other.json`, type: "object", properties: { k: { type: "integer" } }, $defs: { n: { type: "number", maximum: 2 } } }]],
  ["$ref relative to the referenced document's base", obj({ r: { $ref: "dir/inner.json" } }),
    [{ r: 1 }, { r: "1" }],
    [{ $id: `${ID}dir/inner.json`, $ref: "leaf.json" }, { $id: `${ID}dir/leaf.json`, type: "integer" }]],
  ["allOf and anyOf", { allOf: [{ type: "object" }, { required: ["a"] }], anyOf: [{ required: ["b"] }, { required: ["c"] }] }, [{ a: 1, b: 1 }, { a: 1 }, {}, { a: 1, c: 1 }]],
  ["discriminator", {
    type: "object", required: ["kind"], discriminator: { propertyName: "kind" },
    oneOf: [{ $ref: "#/$defs/A" }, { type: "object", properties: { kind: { enum: ["b", "bb"] }, y: { type: "string" } }, required: ["kind", "y"] }],
    $defs: { A: { type: "object", properties: { kind: { const: "a" }, x: { type: "integer" } }, required: ["kind", "x"] } },
  }, [{ kind: "a", x: 1 }, { kind: "a", x: "1" }, { kind: "bb", y: "s" }, { kind: "b" }, { kind: "c" }, { kind: 1 }, {}]],
  ["patterns: ECMAScript u-mode semantics", obj({
    end: { type: "string", pattern: "^ab$" }, cls: { type: "string", pattern: "^[a-c]+$" }, neg: { type: "string", pattern: "^[^a]$" },
    amp: { type: "string", pattern: "^[a&&b]+$" }, br: { type: "string", pattern: "^[[a]+$" }, esc: { type: "string", pattern: "^\\d\\.\\s\\S$" },
    clsEsc: { type: "string", pattern: "^[\\s\\]x]+$" }, wb: { type: "string", pattern: "\\bcat\\b" }, nwb: { type: "string", pattern: "\\Bcat" },
    dot: { type: "string", pattern: "^.$" }, bs: { type: "string", pattern: "^[\\b]$" }, tail: { type: "string", pattern: "a\\$" },
    caret: { type: "string", pattern: "^[\\^]$" },
  }), [{ end: "ab" }, { end: "ab\n" }, { cls: "abc" }, { cls: "abd" }, { neg: "b" }, { neg: "a" }, { neg: "^" }, { neg: "[" }, { amp: "a&b" }, { amp: "ab&&" }, { amp: "c" },
    { br: "[a[" }, { br: "b" }, { esc: "1. x" }, { esc: "1.\u00a0x" }, { esc: "1.x x" }, { clsEsc: " ]x\u2028" }, { clsEsc: "y" }, { wb: "a cat." }, { wb: "concat" }, { nwb: "concat" }, { nwb: "a cat" },
    { dot: "\u0085" }, { dot: "\n" }, { dot: "😀" }, { bs: "\b" }, { bs: "b" }, { tail: "a$" }, { tail: "a" }, { caret: "^" }, { caret: "a" }]],
  ["formats uri and hostname", obj({ u: { type: "string", format: "uri" }, h: { type: "string", format: "hostname" } }),
    [{ u: "https://a.example/p?q#f" }, { u: "a.example" }, { u: "urn:x:y" }, { u: "/relative" }, { u: "http://[::1]/" }, { u: "https://a b/" },
      { h: "a.example" }, { h: "-a.example" }, { h: "a".repeat(64) + ".example" }, { h: "a_b" }, { h: "a.example." }, { u: 5 }]],
];

function verdicts() {
  return cases.map(([name, body, instances, others = []]) => {
    const schema = { $id: `${ID}${name.replace(/[^a-z0-9]+/gi, "-")}.json`, ...JSON.parse(JSON.stringify(body)) };
    const ajv = new Ajv2020({ discriminator: true, allErrors: false, strict: false });
    addFormats(ajv);
    for (const doc of others) ajv.addSchema(doc);
    const validate = ajv.compile(schema);
    return {
      name, schema, documents: others,
      instances: instances.map((data) => {
        if (validate(data)) return { data, valid: true };
        const [e] = validate.errors;
        const params = Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : String(v)]));
        return { data, valid: false, instancePath: e.instancePath, keyword: e.keyword, message: e.message, params };
      }),
    };
  });
}

const out = fileURLToPath(new URL("ajv-verdicts.json", import.meta.url));
const text = JSON.stringify({
  source: `ajv ${require("ajv/package.json").version} + ajv-formats ${require("ajv-formats/package.json").version}, recorded by record-ajv-verdicts.mjs`,
  cases: verdicts(),
}, null, 1) + "\n";
if (process.argv.includes("--check")) {
  if (readFileSync(out, "utf8") !== text) { console.error("ajv-verdicts.json is stale: rerun record-ajv-verdicts.mjs"); process.exit(1); }
} else writeFileSync(out, text);
