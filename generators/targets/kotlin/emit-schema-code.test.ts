// The schema code emitter and its graph against hand-written expectations: RFC 3986's own
// resolution examples, the interpreter's keyword order (ajv's, runtime/JsonSchemaValidator.kt),
// names from locations, and the schemas it refuses or leaves to the interpreter, with where.
// What the generated Kotlin does is proven against the interpreter by the JUnit
// GeneratedSchemasDifferentialTest; this pins down the shape of the code.
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/types.js";
import { schemaCode } from "./emit-schema-code.js";
import { resolveUri, SchemaGraphError } from "../../emit/schema-graph.js";

const ID = "https://k.example/schemas/Thing.json";
const code = (schema: Record<string, JsonValue>, extra: JsonValue[] = []): string[] => schemaCode([{ $id: ID, ...schema }, ...extra], [ID]).declarations;
const fn = (lines: string[], name: string): string[] => {
  const start = lines.findIndex((l) => l.startsWith(`fun ${name}(`));
  expect(start, `fun ${name}`).toBeGreaterThanOrEqual(0);
  return lines.slice(start, lines.indexOf("}", start) + 1);
};

describe("resolveUri", () => {
  // RFC 3986 section 5.4.1 (normal examples) and 5.4.2 (abnormal), base "http://a/b/c/d;p?q".
  const base = "http://a/b/c/d;p?q";
  it.each([
    ["g:h", "g:h"],
    ["g", "http://a/b/c/g"],
    ["./g", "http://a/b/c/g"],
    ["g/", "http://a/b/c/g/"],
    ["/g", "http://a/g"],
    ["//g", "http://g"],
    ["?y", "http://a/b/c/d;p?y"],
    ["g?y", "http://a/b/c/g?y"],
    ["#s", "http://a/b/c/d;p?q#s"],
    ["g#s", "http://a/b/c/g#s"],
    [";x", "http://a/b/c/;x"],
    ["", "http://a/b/c/d;p?q"],
    [".", "http://a/b/c/"],
    ["./", "http://a/b/c/"],
    ["..", "http://a/b/"],
    ["../g", "http://a/b/g"],
    ["../..", "http://a/"],
    ["../../g", "http://a/g"],
    ["../../../g", "http://a/g"],
    ["/./g", "http://a/g"],
    ["g.", "http://a/b/c/g."],
    ["g;x=1/../y", "http://a/b/c/y"],
  ])("%s", (ref, expected) => {
    expect(resolveUri(base, ref)).toBe(expected);
  });

  it("resolves a fragment against a URN base", () => {
    expect(resolveUri("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "#/$defs/bar")).toBe("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar");
  });
});

describe("schemaCode", () => {
  it("names each function after its location and documents the location", () => {
    const lines = code({ type: "object", properties: { "request-id": { type: "string", minLength: 1 } } });
    expect(lines).toContain(`/** ${ID}#/properties/request-id */`);
    expect(fn(lines, "thingPropertiesRequestId")).toContain('    if (codePoints(text) < 1) return limitError(path, "minLength", "must NOT have fewer than 1 characters", "1")');
  });

  it("runs the untyped keywords before the type of a group that owns it, as ajv does", () => {
    const body = fn(code({ type: "string", $ref: "#/$defs/Short", pattern: "^a", $defs: { Short: { maxLength: 3 } } }), "thing");
    const ref = body.findIndex((l) => l.includes("thingDefsShort(data, path, composite)"));
    const type = body.findIndex((l) => l.includes('return typeError(path, "string")'));
    const pattern = body.findIndex((l) => l.includes("thingPattern.matcher(text)"));
    expect([ref >= 0, ref < type, type < pattern]).toEqual([true, true, true]);
  });

  it("checks the type first when no group owns it", () => {
    const body = fn(code({ type: ["string", "null"], const: "x" }), "thing");
    expect(body[1]).toBe('    if (!(isJsonString(data) || data is JsonNull)) return typeError(path, "string,null")');
  });

  it("orders the object group: required, additionalProperties, properties, dependentRequired, discriminator", () => {
    const body = fn(
      code({
        type: "object",
        required: ["kind"],
        additionalProperties: false,
        properties: { kind: { type: "string" } },
        dependentRequired: { kind: ["other"] },
        discriminator: { propertyName: "kind" },
        oneOf: [{ properties: { kind: { const: "a" } } }, { properties: { kind: { enum: ["b", "a"] } } }],
      }),
      "thing",
    ).join("\n");
    const at = (needle: string): number => body.indexOf(needle);
    expect(at('requiredError(path, "kind")')).toBeLessThan(at('"additionalProperties"'));
    expect(at('"additionalProperties"')).toBeLessThan(at('data["kind"]'));
    expect(at('data["kind"]')).toBeLessThan(at("dependentRequiredError"));
    expect(at("dependentRequiredError")).toBeLessThan(at("discriminatorTagError"));
    // A tag value two branches list picks the first; the `when` lists it once.
    expect(body).toContain('"a" -> thingOneOf0(data, path, composite)');
    expect(body).toContain('"b" -> thingOneOf1(data, path, composite)');
    expect(body).not.toContain("oneOfError");
  });

  it("gives each pattern of one schema its own constant (two patternProperties, and pattern beside them)", () => {
    // Found by the JSON-Schema-Test-Suite project (patternProperties.json): two constants of one
    // name made the generated Kotlin fail to compile.
    const lines = code({ type: "object", patternProperties: { "[0-9]{2,}": { type: "boolean" }, X_: { type: "string" } }, properties: { a: { type: "string", pattern: "^a" } } });
    const constants = lines.filter((l) => l.startsWith("private val ") && l.includes(": Pattern = "));
    const names = constants.map((l) => /^private val (\w+):/.exec(l)?.[1]);
    expect(constants.map((l) => /compile\((.*)\)$/.exec(l)?.[1])).toEqual(['"[0-9]{2,}"', '"X_"', '"^a"']);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toBe("thingPattern");
    expect(names[1]).toBe("thingPattern2");
  });
  it("calls a $ref-only subschema's target directly", () => {
    const lines = code({ properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "integer" } } });
    expect(lines.some((l) => l.startsWith("fun thingPropertiesA("))).toBe(false);
    expect(fn(lines, "thing")).toContain('        data["a"]?.let { thingDefsA(it, path + "/a", composite)?.let { error -> return error } }');
  });

  it("follows a $ref into another document, relative to the $id in force", () => {
    const other = { $id: "https://k.example/common/types.json", $defs: { Id: { type: "string" } } };
    const lines = code({ properties: { id: { $ref: "../common/types.json#/$defs/Id" } } }, [other]);
    expect(lines).toContain("/** https://k.example/common/types.json#/$defs/Id */");
    expect(fn(lines, "thing")).toContain('        data["id"]?.let { typesDefsId(it, path + "/id", composite)?.let { error -> return error } }');
  });

  it("refuses a $ref that names nothing, at the $ref", () => {
    expect(() => code({ properties: { a: { $ref: "#/$defs/Missing" } } })).toThrow(new SchemaGraphError(`${ID}#/properties/a/$ref`, "$ref #/$defs/Missing points at nothing"));
  });

  it("refuses a $ref cycle that never moves into the instance, naming where", () => {
    expect(() => code({ $defs: { A: { allOf: [{ $ref: "#/$defs/B" }] }, B: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" })).toThrow(SchemaGraphError);
    // Through a property the cycle consumes the instance: generated.
    expect(() => code({ properties: { next: { $ref: "#" } } })).not.toThrow();
  });

  it("leaves a message reaching unevaluatedProperties to the interpreter, and says where", () => {
    const result = schemaCode([{ $id: ID, properties: { a: { unevaluatedProperties: false } } }], [ID]);
    expect(result.entries.size).toBe(0);
    expect(result.interpreted.get(ID)).toBe(`${ID}#/properties/a uses unevaluatedProperties, whose annotation tracking only the interpreter does`);
  });

  it("writes nothing after a check that always fails (Kotlin would warn of unreachable code)", () => {
    const body = fn(code({ allOf: [false, { type: "string" }] }), "thing");
    expect(body).toEqual([
      "fun thing(data: JsonElement, path: String, composite: Boolean): ValidationError? {",
      "    return falseSchema(path)",
      "}",
    ]);
  });
});
