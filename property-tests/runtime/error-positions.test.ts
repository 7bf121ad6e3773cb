// The runtime's error positions and all-errors validation, against the runtime sources (so
// mutation testing sees them). Every expected value is counted by hand from the input beside it.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_ERRORS, parseAllErrors, validateAllErrors } from "../../generators/targets/ts/runtime/src/all-errors.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { describeJsonError, duplicateKeyMessage, lineColumn } from "../../generators/targets/ts/runtime/src/text-position.js";
import { runValidator, type CompiledValidator } from "../../generators/targets/ts/runtime/src/validation.js";

describe("lineColumn (1-based; columns in code points; offsets in bytes for bytes)", () => {
  const table: [string | Uint8Array, number, number, number][] = [
    ["abc", 0, 1, 1],
    ["abc", 2, 1, 3],
    ["a\nbc", 2, 2, 1],
    ["a\nbc", 3, 2, 2],
    ["a\r\nb", 3, 2, 1],
    ["\u{1F600}x", 2, 1, 2], // the emoji is two UTF-16 units, one column
    [Buffer.from("é\nxé!", "utf8"), 6, 2, 3], // é is two bytes: "\n" at byte 2, "x" at 3, "é" at 4-5, "!" at 6
  ];
  for (const [input, offset, line, column] of table) {
    it(`${JSON.stringify(typeof input === "string" ? input : Buffer.from(input).toString("utf8"))} @ ${offset} -> ${line}:${column}`, () => {
      expect(lineColumn(input, offset)).toEqual({ line, column });
    });
  }
  it("the strict parser's duplicate-key error names the key (shortened when long)", () => {
    const r = parseStrictJson(`{"${"k".repeat(70)}":1,"${"k".repeat(70)}":2}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe(`duplicate member name "${"k".repeat(64)}…" (at offset 76)`);
  });
});

describe("describeJsonError and duplicateKeyMessage", () => {
  it("a duplicate key on line 2 is described with its line and column", () => {
    const input = '{"a": 1,\n "a": 2}';
    const r = parseStrictJson(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(describeJsonError(input, r.error)).toBe('line 2, column 2: duplicate member name "a" (at offset 10)');
  });
  it("control characters in a key stay visible; 64 characters are kept whole", () => {
    expect(duplicateKeyMessage("a\nb")).toBe('duplicate member name "a\\nb"');
    expect(duplicateKeyMessage("x".repeat(64))).toBe(`duplicate member name "${"x".repeat(64)}"`);
  });
});

describe("validateAllErrors / parseAllErrors", () => {
  const schema = { type: "object", additionalProperties: false, required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "integer" } } };
  const first = new Ajv2020({ allErrors: false }).compile(schema) as unknown as CompiledValidator;
  const all = new Ajv2020({ allErrors: true }).compile(schema) as unknown as CompiledValidator;
  const noEvenB = (value: unknown) => ((value as { b: number }).b % 2 === 0 ? [{ instancePath: "/b", keyword: "x-rule", message: "/b must be odd", params: {} }] : []);
  const validate = (value: unknown) => runValidator(first, noEvenB, value);
  const bad = { a: 1, b: "x", c: true }; // three schema errors: /a type, /b type, c unknown

  it("reports every schema error, in ajv's order, with the unknown member named", () => {
    const r = validateAllErrors(all, validate, bad);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.message).sort()).toEqual(['(root) unknown member "c"', "/a must be string", "/b must be integer"]);
      expect(r.truncated).toBe(false);
    }
  });
  it("the first-error validator alone reports one", () => {
    const r = validate(bad);
    expect(r.ok ? 0 : r.errors.length).toBe(1);
  });
  it("cuts at maxErrors and says so; rejects a limit below 1 or not an integer", () => {
    const r = validateAllErrors(all, validate, bad, { maxErrors: 2 });
    expect(r.ok ? undefined : { n: r.errors.length, truncated: r.truncated }).toEqual({ n: 2, truncated: true });
    const exact = validateAllErrors(all, validate, bad, { maxErrors: 3 });
    expect(exact.ok ? undefined : { n: exact.errors.length, truncated: exact.truncated }).toEqual({ n: 3, truncated: false });
    for (const maxErrors of [0, -1, 1.5, Number.NaN]) expect(() => validateAllErrors(all, validate, bad, { maxErrors })).toThrow(RangeError);
    expect(DEFAULT_MAX_ERRORS).toBe(100);
  });
  it("a schema-valid value goes on to the rules; a valid one is returned as is", () => {
    const ruled = validateAllErrors(all, validate, { a: "s", b: 2 });
    expect(ruled).toEqual({ ok: false, errors: [{ instancePath: "/b", keyword: "x-rule", message: "/b must be odd", params: {} }], truncated: false });
    expect(validateAllErrors(all, validate, { a: "s", b: 3 })).toEqual({ ok: true, value: { a: "s", b: 3 } });
  });
  it("parseAllErrors: a JSON error is one error with its line and column; valid JSON is validated", () => {
    const r = parseAllErrors(all, validate, '{"a": "s",\n"a": 1}');
    expect(r).toEqual({
      ok: false,
      errors: [{ instancePath: "", keyword: "json", message: 'invalid JSON at line 2, column 1: duplicate member name "a" (at offset 11)', params: { code: "duplicate-key", offset: 11, line: 2, column: 1 } }],
      truncated: false,
    });
    const parsed = parseAllErrors(all, validate, new TextEncoder().encode(JSON.stringify(bad)));
    expect(parsed.ok ? 0 : parsed.errors.length).toBe(3);
    expect(() => parseAllErrors(all, validate, "{}", { maxErrors: 0 })).toThrow(RangeError);
  });
});
