// The Swift validator emitter against hand-written expectations: RFC 3986's own reference
// resolution examples (section 5.4), function names after JSON pointers, and the typed errors a
// schema the runtime would refuse gets at generation. That the generated code gives the
// interpreter's errors is the XCTest CompiledValidatorTests (every shared case) and `make drivers`.
import { describe, expect, it } from "vitest";
import { generateSwiftValidators, SwiftValidatorError } from "./emit-validators.js";
import { resolveUri } from "./schema-uri.js";

describe("RFC 3986 reference resolution (section 5.4, base http://a/b/c/d;p?q)", () => {
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
    ["..", "http://a/b/"],
    ["../g", "http://a/b/g"],
    ["../..", "http://a/"],
    ["../../g", "http://a/g"],
    ["../../../g", "http://a/g"],
    ["/./g", "http://a/g"],
    ["g.", "http://a/b/c/g."],
    ["g/../h", "http://a/b/c/h"],
    ["g;x=1/../y", "http://a/b/c/y"],
  ])("%s resolves to %s", (reference, expected) => expect(resolveUri(reference, base)).toBe(expected));
});

const ID = "https://example.test/schemas/demo/Thing.json";

function swift(schema: object): string {
  return generateSwiftValidators([{ $id: ID, ...schema }]).validators[0]!.text;
}

describe("generated Swift validators", () => {
  it("names the enum after the document and each function after its schema's JSON pointer, in lowerCamelCase", () => {
    const text = swift({ type: "object", properties: { "a-b": { $ref: "#/$defs/Name" } }, $defs: { Name: { type: "string", minLength: 1 } } });
    expect(text).toContain("public enum DemoThingSchema {");
    expect(text).toContain(`/// ${ID}#/properties/a-b\n    static func propertiesAB(`);
    expect(text).toContain(`/// ${ID}#/$defs/Name\n    static func defsName(`);
    expect(text).toContain("let outcome = defsName(value, composite, depth + 1)");
  });

  it("gives a schema named like a Swift keyword (`/if`, `/else`) a name Swift accepts", () => {
    const text = swift({ if: { required: ["a"] }, then: { required: ["b"] }, else: { required: ["c"] } });
    expect(text).toContain("static func atIf(");
    expect(text).toContain("static func then(");
    expect(text).toContain("static func atElse(");
  });

  it("collects annotations only when some schema has unevaluatedProperties or unevaluatedItems", () => {
    expect(swift({ properties: { a: { type: "string" } } })).not.toContain("evaluated");
    const tracked = swift({ properties: { a: { type: "string" } }, unevaluatedProperties: false });
    expect(tracked).toContain('evaluated.properties.append("a")');
    expect(tracked).toContain("!evaluated.hasProperty(member.key)");
  });

  it("calls a schema of another document through that document's enum", () => {
    const [, other] = generateSwiftValidators([
      { $id: "https://example.test/schemas/common/types.json", $defs: { Id: { type: "string" } } },
      { $id: ID, properties: { id: { $ref: "../common/types.json#/$defs/Id" } } },
    ]).validators;
    expect(other!.text).toContain("CommonTypesSchema.defsID(value, composite, depth + 1)");
  });

  it.each([
    [{ $ref: "#/$defs/Missing" }, `${ID}#: cannot resolve $ref #/$defs/Missing`],
    [{ properties: { a: { $ref: "Other.json" } } }, `${ID}#/properties/a: cannot resolve $ref Other.json`],
    [{ $ref: "https://json-schema.org/draft/2020-12/schema" }, "the 2020-12 meta-schema uses $dynamicRef"],
    [{ type: "object", discriminator: { propertyName: "kind" }, oneOf: [{ properties: { kind: { type: "string" } } }] }, 'discriminator "kind": no oneOf branch names a string tag'],
  ])("refuses %j with a typed error naming the document and pointer", (schema, message) => {
    expect(() => swift(schema)).toThrow(SwiftValidatorError);
    expect(() => swift(schema)).toThrow(message);
  });
});
