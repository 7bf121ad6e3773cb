// The Kotlin type mapper on hand-written schemas, each with the Kotlin declaration a reviewer
// expects from the rules in kotlin-types.ts's header: string/boolean/number map to String/Boolean/
// Double, an integer whose minimum and maximum fit 32 bits to Int and any other to Long, arrays to
// List<T>, `null` branches to `?`, string enums to enum classes, `oneOf` + discriminator and anyOf
// keyed by a const to sealed unions, free-form objects to JsonObject, untyped values to JsonElement.
// No spec file is read: the schemas are written here.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/types.js";
import { kotlinDeclarations, type KotlinDeclaration, type KotlinProperty } from "./kotlin-types.js";

const BASE = "https://agent-contracts.dev/schemas/demo/";

function declare(messages: Record<string, JsonSchema>, shared: Record<string, JsonSchema> = {}): KotlinDeclaration[] {
  const list = Object.entries(messages).map(([name, schema]) => ({ name, id: `${BASE}${name}.json`, schema, location: { file: `spec/demo/${name}.yaml` } }));
  const model = { shared: Object.entries(shared).map(([name, schema]) => ({ name, id: `${BASE}common/${name}.json`, schema, location: { file: `spec/common/${name}.yaml` } })) };
  return kotlinDeclarations(model as never, { messages: list } as never, list as never);
}
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({ type: "object", additionalProperties: false, required, properties });
function properties(schema: Record<string, JsonSchema>, required?: string[]): Record<string, Partial<KotlinProperty>> {
  const [first] = declare({ Demo: { title: "Demo", ...object(schema, required) } });
  if (first?.kind !== "class") throw new Error("no class");
  return Object.fromEntries(first.properties.map((p) => [p.wireName, p]));
}
const typeOf = (schema: JsonSchema, required = true): string | undefined => properties({ x: schema }, required ? ["x"] : [])["x"]!.type;
const refused = (messages: Record<string, JsonSchema>, shared?: Record<string, JsonSchema>) => () => declare(messages, shared);

describe("scalars and arrays", () => {
  it.each([
    [{ type: "string" }, "String"],
    [{ type: "boolean" }, "Boolean"],
    [{ type: "number" }, "Double"],
    [{ type: "integer", minimum: 0, maximum: 100 }, "Int"],
    [{ type: "integer", minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }, "Int"],
    [{ type: "integer", minimum: -(2 ** 31) - 1, maximum: 0 }, "Long"],
    [{ type: "integer", minimum: 0, maximum: 2 ** 31 }, "Long"],
    [{ type: "integer", minimum: 0 }, "Long"],
    [{ type: "integer", maximum: 10 }, "Long"],
    [{ type: "integer" }, "Long"],
    [{ type: "array", items: { type: "string" } }, "List<String>"],
    [{ type: "array" }, "List<JsonElement>"],
    [{ type: "array", items: { type: ["string", "null"] } }, "List<String?>"],
    [{ type: "array", items: { type: "array", items: { type: "boolean" } } }, "List<List<Boolean>>"],
    [{ type: "object" }, "JsonObject"],
    [{}, "JsonElement"],
    [{ anyOf: [{ type: "string" }, { type: "integer" }] }, "JsonElement"],
    [{ anyOf: [{ type: "string" }] }, "JsonElement"],
    [{ allOf: [{ $ref: "#/$defs/T" }, { pattern: "^x" }] }, "String"],
    [{ allOf: [{ minLength: 1 }, { type: "integer" }] }, "Long"],
    [{ allOf: [{ minLength: 1 }, {}] }, "JsonElement"],
    [{ type: "object", allOf: [{ type: "string" }] }, "JsonObject"],
    [{ $ref: "#/$defs/T" }, "String"],
    [{ $ref: "#/$defs/a~1b~0c" }, "Boolean"],
    [{ $ref: "#/$defs/with%20space" }, "Double"],
  ] as [JsonSchema, string][])("%j is %s", (schema, kotlin) => {
    const [first] = declare({ Demo: { title: "Demo", ...object({ x: schema }), $defs: { T: { type: "string" }, "a/b~c": { type: "boolean" }, "with space": { type: "number" } } } });
    expect(first?.kind === "class" && first.properties[0]!.type).toBe(kotlin);
  });

  it("makes nullable and optional properties `?`", () => {
    expect(typeOf({ type: ["integer", "null"], minimum: 0, maximum: 1 })).toBe("Int?");
    expect(typeOf({ type: ["null", "string"] })).toBe("String?");
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("String?");
    expect(typeOf({ oneOf: [{ type: "null" }, { type: "boolean" }] })).toBe("Boolean?");
    expect(typeOf({ type: "string" }, false)).toBe("String?");
    // A null branch may carry a description (an annotation, as in every language: model/shapes.ts);
    // any other keyword makes it no null branch, and so do two null branches or three.
    expect(typeOf({ anyOf: [{ type: "null", description: "none" }, { type: "string" }] })).toBe("String?");
    expect(typeOf({ anyOf: [{ type: "null", minLength: 1 }, { type: "string" }] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [{ type: "null" }, { type: "null" }] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [{ type: "null" }, { type: "string" }, { type: "boolean" }] })).toBe("JsonElement");
    const p = properties({ req: { type: "string" }, opt: { type: "string" } }, ["req"]);
    expect([p["req"]!.optional, p["opt"]!.optional]).toEqual([false, true]);
  });

  it("refuses types with no single Kotlin type", () => {
    expect(() => typeOf({ type: ["string", "integer"] })).toThrow(`spec/demo/Demo.yaml /properties/x/type: type ["string","integer"] is no single type`);
    expect(() => typeOf({ type: ["string", "null", "integer"] })).toThrow(/is no single type/);
    expect(() => typeOf({ type: ["string"] })).toThrow(/is no single type/);
    expect(() => typeOf({ type: "date" })).toThrow(`spec/demo/Demo.yaml /properties/x/type: type date has no type shape`);
    expect(() => typeOf({ type: "array", items: 42 as never })).toThrow(`spec/demo/Demo.yaml /properties/x: expected a schema at items`);
    // Boolean subschemas are schemas: true and false both have the shape of any value.
    expect(typeOf({ type: "array", items: true as never })).toEqual(typeOf({ type: "array" }));
    expect(typeOf({ type: "array", items: false as never })).toEqual(typeOf({ type: "array" }));
    expect(() => typeOf({ type: "array", items: [] as never })).toThrow(/expected a schema at items/);
    expect(() => typeOf({ type: "array", items: "string" as never })).toThrow(/expected a schema at items/);
    expect(() => typeOf(null as never)).toThrow(`spec/demo/Demo.yaml /: expected a schema at properties/x`);
    expect(refused({ Demo: object({ "a/b~": 42 as never }) })).toThrow(`spec/demo/Demo.yaml /: expected a schema at properties/a/b~`);
  });
});

describe("names and properties", () => {
  it("names properties in camelCase, backticks keywords, keeps wire names and descriptions", () => {
    const p = properties({ request_id: { type: "string", description: "The id." }, when: { type: "string" }, "2fa": { type: "boolean" } });
    expect(p["request_id"]).toEqual({ wireName: "request_id", name: "requestId", type: "String", optional: false, description: "The id." });
    expect(p["when"]!.name).toBe("`when`");
    expect(p["2fa"]!.name).toBe("`2fa`");
  });
  it("refuses two wire names that become one Kotlin property", () => {
    expect(refused({ Demo: { title: "Demo", ...object({ "a-b": { type: "string" }, a_b: { type: "string" } }) } })).toThrow("Kotlin class Demo (Demo): 'a-b' and 'a_b' both become 'aB'");
  });
  it("declares a class, or an object when there are no properties, open unless additionalProperties is false", () => {
    const [closed] = declare({ Demo: { title: "Demo", description: "A demo.", ...object({ a: { type: "string" } }) } });
    expect(closed).toMatchObject({ kind: "class", name: "Demo", description: "A demo.", open: false, parents: [], file: "Demo" });
    const [open] = declare({ Demo: { type: "object", properties: { a: { type: "string" } } } });
    expect(open).toMatchObject({ kind: "class", name: "Demo", open: true });
    expect(open?.kind === "class" && open.properties[0]!.type).toBe("String?");
    const [empty] = declare({ Empty: { type: "object", properties: {}, additionalProperties: false } });
    expect(empty).toEqual({ kind: "object", name: "Empty", description: undefined, open: false, parents: [], file: "Empty" });
  });
  it("names an inline type by its owner and property, a titled one by its title", () => {
    const out = declare({ Demo: object({ inner: object({ deep: object({ z: { type: "string" } }) }), titled: { title: "Named", ...object({ y: { type: "string" } }) } }) });
    expect(out.map((d) => d.name)).toEqual(["Demo", "DemoInner", "DemoInnerDeep", "Named"]);
    expect(out.map((d) => d.file)).toEqual(["Demo", "Demo", "Demo", "Demo"]);
  });
  it("declares a schema reached twice once, and refuses two schemas with one name", () => {
    const shared = { Point: { title: "Point", ...object({ x: { type: "number" } }) } };
    const out = declare({ A: object({ p: { $ref: "common/Point.json" } }), B: object({ q: { $ref: "common/Point.json" }, r: { $ref: "common/Point.json" } }) }, shared);
    expect(out.map((d) => `${d.name}@${d.file}`)).toEqual(["A@A", "Point@Point", "B@B"]);
    expect(refused({ A: object({ p: { title: "Same", ...object({ x: { type: "string" } }) }, q: { title: "Same", ...object({ y: { type: "string" } }) } }) })).toThrow(
      `spec/demo/A.yaml /properties/q: Kotlin name Same is also taken by spec/demo/A.yaml /properties/p; give one of them another title`,
    );
  });
  it("types a recursive reference by the class it is in", () => {
    const [node] = declare({ Node: object({ children: { type: "array", items: { $ref: "#" } } }) });
    expect(node?.kind === "class" && node.properties[0]!.type).toBe("List<Node>");
  });
  it("refuses references to nothing and messages that are no class", () => {
    expect(refused({ A: object({ p: { $ref: "common/Missing.json" } }) })).toThrow(`spec/demo/A.yaml /properties/p: $ref common/Missing.json names no known schema document`);
    expect(refused({ A: object({ p: { $ref: "#/$defs/none" } }) })).toThrow("$ref #/$defs/none points at nothing");
    expect(refused({ A: { ...object({ p: { $ref: "#/$defs/T/x" } }), $defs: { T: { type: "string" } } } })).toThrow("$ref #/$defs/T/x points at nothing");
    expect(refused({ A: { ...object({ p: { $ref: "#/$defs/T/0" } }), $defs: { T: [{ type: "string" }] as never } } })).toThrow("points at nothing");
    expect(refused({ A: { type: "string" } })).toThrow("spec/demo/A.yaml /: a message must be an object with properties, a tagged union or a string enum (got string)");
  });
});

describe("enums and constants", () => {
  it("declares string enums with SCREAMING_SNAKE constants", () => {
    const out = declare({ Demo: object({ mode: { enum: ["not-started", "in_progress", "2xx"], description: "Mode." }, kind: { title: "Kind", enum: ["a"] } }) });
    expect(out[1]).toEqual({ kind: "enum", name: "DemoMode", description: "Mode.", file: "Demo", values: [{ constant: "NOT_STARTED", wire: "not-started" }, { constant: "IN_PROGRESS", wire: "in_progress" }, { constant: "V_2XX", wire: "2xx" }] });
    expect(out[2]?.name).toBe("Kind");
    expect(out[2]).toEqual({ kind: "enum", name: "Kind", file: "Demo", values: [{ constant: "A", wire: "a" }] });
    expect(out[2]).not.toHaveProperty("closed");
    expect(() => typeOf({ enum: ["a", 1] })).toThrow("spec/demo/Demo.yaml /properties/x/enum: only an enum of strings (and null) has a type shape");
    expect(() => typeOf({ enum: ["a-b", "a_b"] })).toThrow("Kotlin enum DemoX (Demo): 'a-b' and 'a_b' both become 'A_B'");
  });
  it("fixes a required const in the class body and keeps an optional one a nullable parameter", () => {
    const p = properties({ s: { const: "v$1" }, t: { const: true }, f: { const: false }, i: { const: 7 }, l: { const: 2 ** 40 }, neg: { const: -(2 ** 31) }, o: { const: "x" } }, ["s", "t", "f", "i", "l", "neg"]);
    expect([p["s"]!.type, p["s"]!.constLiteral]).toEqual(["String", '"v\\$1"']);
    expect([p["t"]!.type, p["t"]!.constLiteral]).toEqual(["Boolean", "true"]);
    expect(p["f"]!.constLiteral).toBe("false");
    expect([p["i"]!.type, p["i"]!.constLiteral]).toEqual(["Int", "7"]);
    expect([p["l"]!.type, p["l"]!.constLiteral]).toEqual(["Long", "1099511627776L"]);
    expect([p["neg"]!.type, p["neg"]!.constLiteral]).toEqual(["Int", "-2147483648"]);
    expect(p["o"]).toEqual({ wireName: "o", name: "o", type: "String?", optional: true, description: undefined });
    expect(() => typeOf({ const: 1.5 })).toThrow(/properties\/x: const 1.5 has no Kotlin constant form/);
    expect(() => typeOf({ const: null })).toThrow(/const null has no Kotlin constant form/);
  });
});

describe("edges the mutation run found", () => {
  it("keeps shapes that only look like types as they are", () => {
    expect(typeOf({ type: "integer", minimum: "0" as never, maximum: 5 })).toBe("Long");
    expect(typeOf({ oneOf: [{ type: "string" }, { type: "integer" }], discriminator: null as never })).toBe("JsonElement");
    expect(typeOf({ oneOf: [{ type: "string" }, { type: "integer" }] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [object({ k: { const: "a" } })] })).toBe("JsonElement");
    expect(properties({ x: { type: "string", description: 5 as never } })["x"]!.description).toBeUndefined();
  });
  it("an enum is open unless the spec gives x-closed-enum, whose reason it carries", () => {
    const out = declare({ Demo: object({ role: { enum: ["user"], "x-closed-enum": "No peer may send another role." }, mode: { enum: ["a"] } }) });
    expect(out[1]).toEqual({ kind: "enum", name: "DemoRole", file: "Demo", values: [{ constant: "USER", wire: "user" }], closed: "No peer may send another role." });
    expect(out[2]).not.toHaveProperty("closed");
  });

  it("types enum and union properties without `?` when required", () => {
    const p = properties({
      mode: { enum: ["a"] },
      ev: { oneOf: [object({ type: { const: "a" } })], discriminator: { propertyName: "type" } },
      res: { anyOf: [object({ ok: { const: true } }), object({ ok: { const: false } })] },
      list: { type: "array", items: object({ a: { type: "string" } }) },
    });
    expect([p["mode"]!.type, p["ev"]!.type, p["res"]!.type, p["list"]!.type]).toEqual(["DemoMode", "DemoEv", "DemoRes", "List<DemoListItem>"]);
  });
  it("points errors at the schema, JSON-pointer escaped", () => {
    const at = "spec/demo/Demo.yaml ";
    expect(refused({ Demo: object({ "a/b~": { type: "array", items: 42 as never } }) })).toThrow(`${at}/properties/a~1b~0: expected a schema at items`);
    expect(refused({ Demo: { ...object({ x: { $ref: "#/$defs/Bad" } }), $defs: { Bad: { type: "date" } } } })).toThrow(`${at}/$defs/Bad/type: type date has no type shape`);
    expect(refused({ Demo: object({ x: { allOf: [{}, { type: "date" }] } }) })).toThrow(`${at}/properties/x/allOf/1/type: type date`);
    expect(refused({ Demo: object({ x: { anyOf: [{ type: "string" }, { $ref: "#/$defs/none" }] } }) })).toThrow(`${at}/properties/x/anyOf/1: $ref #/$defs/none points at nothing`);
    expect(refused({ Demo: { oneOf: [object({ type: { $ref: "#/$defs/none" } })], discriminator: { propertyName: "type" } } })).toThrow(`${at}/oneOf/0/properties/type: $ref`);
    expect(refused({ Demo: { ...object({ x: { $ref: "#/$defs/T/length" } }), $defs: { T: "abc" as never } } })).toThrow("points at nothing");
    expect(refused({ Demo: { ...object({ x: { $ref: "#/$defs/T/x" } }), $defs: { T: null as never } } })).toThrow("points at nothing");
    expect(refused({ Demo: { oneOf: [{ type: "string", properties: { type: { const: "a" } } }], discriminator: { propertyName: "type" } } })).toThrow(`${at}/oneOf/0: oneOf branch must be an object with properties`);
  });
  it("declares a union reached twice once, its branches with one parent each", () => {
    const shared = { U: { title: "U", oneOf: [object({ type: { const: "a" } })], discriminator: { propertyName: "type" } } };
    const out = declare({ A: object({ p: { $ref: "common/U.json" }, q: { $ref: "common/U.json" } }) }, shared);
    expect(out.filter((d) => d.name === "U")).toHaveLength(1);
    expect(out.find((d) => d.name === "UA")).toMatchObject({ parents: ["U"] });
  });
});

describe("unions", () => {
  const event = (branches: JsonSchema[], extra: JsonSchema = {}): JsonSchema => ({ title: "Event", oneOf: branches, discriminator: { propertyName: "type" }, ...extra });
  it("declares a sealed union over a discriminator, branches named by title or tag", () => {
    const out = declare({
      Event: event([{ $ref: "#/$defs/A" }, object({ type: { enum: ["b1", "b2"] }, n: { type: "number" } })], { $defs: { A: { title: "Started", ...object({ type: { const: "a" } }) } } }),
    });
    expect(out[0]).toEqual({ kind: "union", name: "Event", description: undefined, tag: "type", tagType: "string", file: "Event", branches: [{ tagValues: ["a"], className: "Started" }, { tagValues: ["b1", "b2"], className: "EventB1" }] });
    expect(out.find((d) => d.name === "Started")).toMatchObject({ kind: "class", parents: ["Event"] });
    expect(out.find((d) => d.name === "EventB1")).toMatchObject({ kind: "class", parents: ["Event"] });
  });
  it("follows a $ref on the tag property", () => {
    const out = declare({ Event: event([object({ type: { $ref: "#/$defs/T" } })], { $defs: { T: { const: "t" } } }) });
    expect(out[0]).toMatchObject({ branches: [{ tagValues: ["t"], className: "EventT" }] });
  });
  it("declares an anyOf told apart by a boolean const as a boolean-tagged union", () => {
    const out = declare({ Result: { anyOf: [object({ ok: { const: true }, value: { type: "string" } }), object({ ok: { const: false }, error: { type: "string" } })] } });
    expect(out[0]).toMatchObject({ kind: "union", name: "Result", tag: "ok", tagType: "boolean", branches: [{ tagValues: [true], className: "ResultTrue" }, { tagValues: [false], className: "ResultFalse" }] });
    const refs = declare({ R: { anyOf: [{ $ref: "#/$defs/Y" }, { $ref: "#/$defs/N" }], $defs: { Y: object({ kind: { const: "y" } }), N: object({ kind: { const: "n" } }) } } });
    expect(refs[0]).toMatchObject({ kind: "union", tag: "kind", tagType: "string" });
    // No key whose consts differ in every branch: no union.
    expect(typeOf({ anyOf: [object({ k: { const: "a" } }), object({ k: { const: "a" } })] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [object({ k: { const: 1 } }), object({ k: { const: 2 } })] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [object({ k: { const: "a" } }), object({ j: { const: "b" } })] })).toBe("JsonElement");
    expect(typeOf({ anyOf: [object({ k: { const: "a" } }), { type: "string" }] })).toBe("JsonElement");
  });
  it("refuses unions it cannot type", () => {
    expect(refused({ Event: { oneOf: [object({ type: { const: "a" } })], discriminator: {} } })).toThrow(`spec/demo/Event.yaml /: discriminator needs a propertyName`);
    expect(refused({ Event: event([object({ type: { const: "a" } }), object({ type: { enum: ["b", "a"] } })]) })).toThrow(`spec/demo/Event.yaml /: two branches share a type value`);
    expect(refused({ R: { anyOf: [object({ ok: { const: true } }), object({ ok: { const: "no" } })] } })).toThrow("the ok values of the branches differ in type");
    expect(refused({ Event: event([{ type: "object", title: "E", properties: { type: { const: "a" } }, additionalProperties: false, required: ["type"] }, object({ other: { type: "string" } })]) })).toThrow(`spec/demo/Event.yaml /oneOf/1: branch has no type property`);
    expect(refused({ Event: event([object({ type: { type: "string" } })]) })).toThrow("the type property must be a string or boolean const, or a string enum");
    expect(refused({ Event: event([object({ type: { enum: ["a", 2] } })]) })).toThrow("the type property must be a string or boolean const, or a string enum");
    expect(refused({ Event: event([object({ type: { const: 3 } })]) })).toThrow("must be a string or boolean const");
    expect(refused({ Event: event([{ $ref: "#/$defs/E" }], { $defs: { E: { title: "Empty", type: "object", properties: { type: { const: "a" } } } } }) })).not.toThrow();
    expect(refused({ Event: event([{ properties: { type: { const: "a" } }, enum: ["x"] } as JsonSchema]) })).toThrow(`spec/demo/Event.yaml /oneOf/0: oneOf branch must be an object with properties`);
  });
});
