// all-errors.ts at its edges: a limit of exactly 1, the RangeError's words, the limit passed on by
// parseAllErrors, positions of a JSON error in byte input, and a schema validator that reports
// failure without an error list. Expected values are counted by hand from the inputs.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parseAllErrors, validateAllErrors } from "../../generators/targets/ts/runtime/src/all-errors.js";
import { runValidator, type CompiledValidator } from "../../generators/targets/ts/runtime/src/validation.js";

const schema = { type: "object", additionalProperties: false, required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "integer" } } };
const first = new Ajv2020({ allErrors: false }).compile(schema) as unknown as CompiledValidator;
const all = new Ajv2020({ allErrors: true }).compile(schema) as unknown as CompiledValidator;
const validate = (value: unknown) => runValidator(first, () => [], value);
const bad = { a: 1, b: "x", c: true }; // three schema errors

describe("limits", () => {
  it("maxErrors 1 is allowed and cuts to one", () => {
    const r = validateAllErrors(all, validate, bad, { maxErrors: 1 });
    expect(r.ok ? undefined : [r.errors.length, r.truncated]).toEqual([1, true]);
  });
  it("the default keeps all three, untruncated", () => {
    const r = validateAllErrors(all, validate, bad);
    expect(r.ok ? undefined : [r.errors.length, r.truncated]).toEqual([3, false]);
  });
  it("a bad limit names itself", () => {
    expect(() => validateAllErrors(all, validate, bad, { maxErrors: 0 })).toThrow("maxErrors must be a positive integer, not 0");
    expect(() => validateAllErrors(all, validate, bad, { maxErrors: 2 ** 53 })).toThrow("maxErrors must be a positive integer, not 9007199254740992");
    expect(validateAllErrors(all, validate, bad, { maxErrors: 2 ** 53 - 1 }).ok).toBe(false);
  });
  it("parseAllErrors passes the limit on to validation", () => {
    const r = parseAllErrors(all, validate, JSON.stringify(bad), { maxErrors: 2 });
    expect(r.ok ? undefined : [r.errors.length, r.truncated]).toEqual([2, true]);
  });
});

describe("parseAllErrors", () => {
  it("a JSON error in bytes is placed by its byte offset", () => {
    const r = parseAllErrors(all, validate, new TextEncoder().encode('{"é":\n 1,}'));
    expect(r).toEqual({
      ok: false,
      errors: [{ instancePath: "", keyword: "json", message: "invalid JSON at line 2, column 4: trailing comma (at offset 10)", params: { code: "unexpected-character", offset: 10, line: 2, column: 4 } }],
      truncated: false,
    });
  });
  it("a valid message is returned as the validator returns it", () => {
    expect(parseAllErrors(all, validate, '{"a":"s","b":1}')).toEqual({ ok: true, value: { a: "s", b: 1 } });
  });
  it("a schema validator that fails without errors gives an empty list", () => {
    const failing = Object.assign(() => false, { errors: null }) as unknown as CompiledValidator;
    expect(validateAllErrors(failing, validate, {})).toEqual({ ok: false, errors: [], truncated: false });
  });
});
