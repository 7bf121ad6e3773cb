// ajv-esm.ts: the ES module helpers it writes in place of ajv's CommonJS ones must answer exactly
// as ajv's (the oracle: ajv/dist/runtime/ucs2length and ajv/dist/runtime/equal, which ajv's own
// compiled validators call) on random JSON values and strings with lone surrogates; and the
// rewrite refuses a require() it has no rule for instead of leaving it in the output.
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-ignore: generated JavaScript without declarations
import { equal } from "../../../generated/ts/ajv-runtime/equal.js";
// @ts-ignore: generated JavaScript without declarations
import { ucs2length } from "../../../generated/ts/ajv-runtime/ucs2length.js";
import { type AjvHelper, standaloneAsEsm } from "./ajv-esm.js";

const require = createRequire(import.meta.url);
const ajvUcs2length = (require("ajv/dist/runtime/ucs2length") as { default: (s: string) => number }).default;
const ajvEqual = (require("ajv/dist/runtime/equal") as { default: (a: unknown, b: unknown) => boolean }).default;

const json = fc.jsonValue({ maxDepth: 3 });
const units = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 }).map((codes) => String.fromCharCode(...codes));

describe("helpers written as ES modules agree with ajv's", () => {
  it("ucs2length on any UTF-16 text, lone surrogates included", () => {
    for (const text of ["", "a", "\u00e9", "\ud83d\ude00", "\ud800", "\udc00", "\ud800a", "\udc00\ud800", "a\ud83d\ude00b\ud800"]) expect(ucs2length(text), JSON.stringify(text)).toBe(ajvUcs2length(text));
    fc.assert(fc.property(units, (text) => ucs2length(text) === ajvUcs2length(text)), { numRuns: 2000, seed: 33 });
  });
  it("equal on JSON values: a value and its copy, and two unrelated values", () => {
    fc.assert(fc.property(json, (value) => equal(value, structuredClone(value)) === true && ajvEqual(value, structuredClone(value)) === true), { numRuns: 500, seed: 33 });
    fc.assert(fc.property(json, json, (a, b) => equal(a, b) === ajvEqual(a, b)), { numRuns: 2000, seed: 33 });
    const cases: [unknown, unknown][] = [[[], {}], [{}, []], [[1, 2], [2, 1]], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [{ a: undefined }, { b: undefined }], [0, -0], [null, {}], ["1", 1], [[null], [undefined]]];
    for (const [a, b] of cases) expect(equal(a, b), JSON.stringify([a, b])).toBe(ajvEqual(a, b));
  });
});

describe("standaloneAsEsm", () => {
  it("imports each helper from its module and leaves no require() or schemaPath", () => {
    const helpers = new Map<string, AjvHelper>();
    const code = `"use strict";export const validateX = validate1;const func0 = require("ajv/dist/runtime/ucs2length").default;const f1 = require("ajv-formats/dist/formats").fullFormats.uri;
function validate1(data){const evaluated0 = validate1.evaluated;validate1.errors = [{instancePath:"",schemaPath:"#/type",keyword:"type",params:{},message:"m"}];return func0(data) > 1 && f1(data);}
validate1.evaluated = {"props":true};
const pattern0 = new RegExp("^a$", "u");`;
    const out = standaloneAsEsm(code, helpers);
    expect(out).toContain(`import { formats_fullFormats_uri } from "../ajv-runtime/formats.js";`);
    expect(out).toContain(`import { ucs2length } from "../ajv-runtime/ucs2length.js";`);
    expect(out).toContain("const validate1Evaluated = {\"props\":true};");
    expect(out).toContain("const evaluated0 = validate1Evaluated;");
    expect(out).toContain("const pattern0 = /* @__PURE__ */ new RegExp(");
    expect(out).not.toMatch(/require\(|schemaPath|\.evaluated\b/);
    expect([...helpers.keys()].sort()).toEqual(["formats_fullFormats_uri", "ucs2length"]);
  });
  it("refuses a require() it has no rule for, and a member of ajv's helpers other than .default", () => {
    expect(() => standaloneAsEsm(`const f = require("fast-uri").parse;`, new Map())).toThrow(/no ESM import rule/);
    expect(() => standaloneAsEsm(`const f = require("ajv/dist/runtime/equal").other;`, new Map())).toThrow(/only \.default/);
  });
});
