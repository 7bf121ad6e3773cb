// fromAjvError and schemaFailure on hand-built ajv error objects (the shape ajv 8 documents for
// ErrorObject): an unknown member is named under either keyword, other keywords keep ajv's text.
import { describe, expect, it } from "vitest";
import { fromAjvError, schemaFailure, type CompiledValidator } from "../../generators/targets/ts/runtime/src/validation.js";

describe("fromAjvError names an unknown member", () => {
  it("under additionalProperties and under unevaluatedProperties", () => {
    expect(fromAjvError({ instancePath: "/callback", keyword: "additionalProperties", message: "must NOT have additional properties", params: { additionalProperty: "bogus" } }).message)
      .toBe('/callback unknown member "bogus"');
    expect(fromAjvError({ instancePath: "", keyword: "unevaluatedProperties", message: "must NOT have unevaluated properties", params: { unevaluatedProperty: "extra" } }).message)
      .toBe('(root) unknown member "extra"');
  });
  it("only for those keywords: another keyword with the same params keeps ajv's message", () => {
    expect(fromAjvError({ instancePath: "/a", keyword: "required", message: "must have required property 'x'", params: { additionalProperty: "x", unevaluatedProperty: "x" } }).message)
      .toBe("/a must have required property 'x'");
  });
  it("only when the member is a string; otherwise ajv's message, or 'is invalid' without one", () => {
    expect(fromAjvError({ instancePath: "/a", keyword: "additionalProperties", message: "must NOT have additional properties", params: {} }).message)
      .toBe("/a must NOT have additional properties");
    expect(fromAjvError({ instancePath: "/a", keyword: "unevaluatedProperties", params: { unevaluatedProperty: 3 } }).message).toBe("/a is invalid");
  });
});

describe("schemaFailure", () => {
  it("maps the errors left on the validator, and gives an empty list when it left none", () => {
    const validate = (() => false) as CompiledValidator;
    validate.errors = [{ instancePath: "/n", keyword: "type", message: "must be integer", params: { type: "integer" } }];
    expect(schemaFailure(validate)).toEqual({ ok: false, errors: [{ instancePath: "/n", keyword: "type", message: "/n must be integer", params: { type: "integer" } }] });
    validate.errors = null;
    expect(schemaFailure(validate)).toEqual({ ok: false, errors: [] });
  });
});
