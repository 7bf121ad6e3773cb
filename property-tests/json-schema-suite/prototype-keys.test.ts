// Validation of parsed input never consults Object.prototype: "__proto__", "constructor" and
// "toString" are ordinary member names to `required`, `properties` and `dependentRequired`. The
// expected verdicts are JSON Schema's (JSON-Schema-Test-Suite required.json and properties.json,
// "...whose names are Javascript object property names"), on instances read by the strict parser.
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../generators/model/schema-compiler.js";
import type { JsonSchema } from "../../generators/model/types.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";

const NAMES = ["__proto__", "constructor", "toString"];

function validator(schema: JsonSchema): (text: string) => boolean {
  const id = "http://agent-contracts.invalid/prototype-keys.json";
  const validate = createSchemaCompiler([{ $id: id, ...schema }]).getSchema(id)!;
  return (text) => {
    const parsed = parseStrictJson(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return validate(parsed.value) as boolean;
  };
}

describe("prototype member names", () => {
  it("required: an object without them lacks them; one with all of them has them", () => {
    const check = validator({ type: "object", required: NAMES });
    expect(check("{}")).toBe(false);
    for (const name of NAMES) expect(check(JSON.stringify({ [name]: 1 })), name).toBe(false);
    expect(check('{"__proto__": 1, "constructor": 2, "toString": 3}')).toBe(true);
  });

  it("properties: each name's schema applies to the member, and only when it is present", () => {
    const check = validator({ properties: Object.fromEntries(NAMES.map((n) => [n, { type: "number" }])) as JsonSchema });
    expect(check("{}")).toBe(true);
    for (const name of NAMES) {
      expect(check(`{${JSON.stringify(name)}: 12}`), name).toBe(true);
      expect(check(`{${JSON.stringify(name)}: "foo"}`), name).toBe(false);
    }
  });

  it("additionalProperties: false refuses them as unknown members", () => {
    const check = validator({ type: "object", properties: { a: {} }, additionalProperties: false });
    for (const name of NAMES) expect(check(`{${JSON.stringify(name)}: 1}`), name).toBe(false);
  });

  it("dependentRequired: an inherited name neither triggers nor satisfies a dependency", () => {
    const check = validator({ dependentRequired: { constructor: ["toString"], a: ["__proto__"] } });
    expect(check('{"a": 1}')).toBe(false);
    expect(check('{"a": 1, "__proto__": 1}')).toBe(true);
    expect(check('{"constructor": 1}')).toBe(false);
    expect(check('{"constructor": 1, "toString": 1}')).toBe(true);
  });
});
