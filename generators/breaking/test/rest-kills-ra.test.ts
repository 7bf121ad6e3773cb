// SOURCE rules (source.ts): what breaks code generated from the spec. A generated type is named by
// its title, a field by its property name, and a field's type is what the generators write for it
// (README: names in TS, Kotlin and Swift come from titles; ts-types.ts: an interface per titled
// record, an alias per titled scalar, untitled shapes inline). Each expectation is worked out by
// hand from that and from JSON Schema 2020-12 (`true` and `{}` admit the same values, a list of
// types is a set, a $ref stands for the schema it names); none is read off the detector.
import { describe, expect, it } from "vitest";
import type { Finding } from "../finding.js";
import { comparePair, M, OPEN, PROTOCOL, S, U, type Files } from "./spec-fixture.js";

type Edit = (f: Files) => void;
const props = (f: Files, file = M) => f[file].properties;
const none: Edit = () => {};

/** The SOURCE findings between two versions of the base fixture. */
function source(old: Edit, now: Edit, common: Edit = none): Finding[] {
  return comparePair(old, now, common, { witnesses: false }).findings.filter((f) => f.category === "SOURCE");
}

/** A finding as rule, where it is now, where it was, removed, and the message a user acts on. */
const brief = (f: Finding) => [f.rule, `${f.at.file}#${f.at.pointer}`, f.old ? `${f.old.file}#${f.old.pointer}` : undefined, f.removed, f.message];
const rules = (fs: Finding[]) => fs.map((f) => f.rule);

/** A field's type changed: the one finding, at the field in the new version, the field in the old as old. */
const typeChanged = (file: string, pointer: string, title: string, name: string, from: string, to: string) => [
  "SOURCE_FIELD_TYPE_CHANGED",
  `${file}#${pointer}`,
  `${file}#${pointer}`,
  false,
  `field ${title}.${name} changed type: ${from} -> ${to}`,
];

describe("a generated type removed", () => {
  it("a $defs type renamed in a file that stays: reported at that file, the old definition as the old position", () => {
    const found = source(none, (f) => void (f[U].$defs.B.title = "UB2"));
    // The message names the type callers used: it is how they find what to rename.
    expect(found.map(brief)).toEqual([["SOURCE_TYPE_REMOVED", `${U}#`, `${U}#/$defs/B`, true, "type UB (p) was removed or renamed"]]);
  });
  it("a message file deleted: reported at a message file of the same protocol that the new version still has", () => {
    const found = source(none, (f) => void delete f[OPEN]);
    expect(found.map((f) => [f.rule, f.at.pointer, f.old?.file, f.old?.pointer, f.removed])).toEqual([["SOURCE_TYPE_REMOVED", "", OPEN, "", true]]);
    // The old file is gone, so `at` has to be a file of the new version; the type belonged to protocol p, not to common.
    expect([M, S, U]).toContain(found[0]!.at.file);
  });
  it("two identical titled scalars removed together: one type, reported where it is first written", () => {
    // Identical same-titled scalars are one generated alias (ts-types.ts: one declaration per title).
    const code = { title: "Code", type: "string", maxLength: 8 };
    const both = (f: Files) => {
      props(f).code = { ...code };
      props(f, OPEN).code = { ...code };
    };
    const found = source(both, none).filter((f) => f.rule === "SOURCE_TYPE_REMOVED");
    // M.yaml comes before Open.yaml: the first place Code is written is M's field.
    expect(found.map((f) => [f.old?.file, f.old?.pointer, f.message])).toEqual([[M, "/properties/code", "type Code (p) was removed or renamed"]]);
  });
});

describe("what is data, not a schema, names no type", () => {
  // Values under examples, default, const and enum are instances; x- keys are annotations. A
  // `title` member inside one is a field of an instance, so changing it removes no generated type.
  const titled = (t: string) => ({ title: t });
  for (const [what, at] of [
    ["an example", (f: Files, t: string) => void ((props(f, OPEN).title = { type: "string" }), (f[OPEN].examples = [titled(t)]))],
    ["a default", (f: Files, t: string) => void (props(f, OPEN).meta = { type: "object", default: titled(t) })],
    ["an x- annotation", (f: Files, t: string) => void (f[OPEN]["x-doc"] = titled(t))],
  ] as const) {
    it(`${what} holding {title} changed: no SOURCE finding`, () => {
      expect(source((f) => at(f, "Hello"), (f) => at(f, "Bye")).map(brief)).toEqual([]);
    });
  }
  it("a const holding {title} changed: the field's type changes, no type is removed", () => {
    const found = source((f) => void (props(f).fixed = { const: titled("Hello") }), (f) => void (props(f).fixed = { const: titled("Bye") }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/fixed", "M", "fixed", 'const {"title":"Hello"}', 'const {"title":"Bye"}')]);
  });
  it("an enum value holding {title} removed: an enum case is removed, no type", () => {
    const found = source((f) => void (props(f).kind = { enum: [titled("Hello"), "a"] }), (f) => void (props(f).kind = { enum: [titled("Bye"), "a"] }));
    expect(rules(found)).toEqual(["SOURCE_ENUM_CASE_REMOVED"]);
  });
});

describe("a field's language type", () => {
  it("a $ref to another titled type: the field's type is that type, so the message names both", () => {
    const found = source(none, (f) => void (props(f).ref.$ref = "../common/types.json#/$defs/Upper"));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/ref", "M", "ref", "type Id", "type Upper")]);
  });
  it("a $ref rewritten to name the same schema (relative to absolute): the same type, no finding", () => {
    expect(source(none, (f) => void (props(f).ref.$ref = "https://agent-contracts.dev/schemas/common/types.json#/$defs/Id"))).toEqual([]);
  });
  it("a $ref to an untitled schema stands for that schema: its type change is the field's too", () => {
    const found = source(none, (f) => void (props(f).count.type = "number"), (f) => void (props(f).alias = { $ref: "#/properties/count" }));
    expect(found.map(brief)).toEqual([
      typeChanged(M, "/properties/count", "M", "count", "integer", "number"),
      typeChanged(M, "/properties/alias", "M", "alias", "integer", "number"),
    ]);
  });
  it("a $ref outside the spec changed: the field's type is named by the reference", () => {
    const found = source((f) => void (props(f).geo = { $ref: "https://example.com/geo.json" }), (f) => void (props(f).geo = { $ref: "https://example.com/geo2.json" }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/geo", "M", "geo", "ref:https://example.com/geo.json", "ref:https://example.com/geo2.json")]);
  });
  it("an inline titled schema renamed: its type is removed and the field's type changes", () => {
    const point = (title: string) => (f: Files) => void (props(f).at = { title, type: "object", additionalProperties: false, properties: { x: { type: "integer" } } });
    const found = source(point("Point"), point("Coord"));
    expect(found.map(brief)).toEqual([
      ["SOURCE_TYPE_REMOVED", `${M}#`, `${M}#/properties/at`, true, "type Point (p) was removed or renamed"],
      typeChanged(M, "/properties/at", "M", "at", "type Point", "type Coord"),
    ]);
  });
  it("a const changed: the generated literal type changes", () => {
    const found = source(none, (f) => void (props(f).fixed.const = "v2"));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/fixed", "M", "fixed", 'const "v1"', 'const "v2"')]);
  });
  it("an enum of strings made a plain string: the generated enum type becomes a string", () => {
    const found = source((f) => void (props(f).level = { type: "string", enum: ["lo", "hi"] }), (f) => void (props(f).level = { type: "string" }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/level", "M", "level", "enum", "string")]);
  });
  it("an unconstrained field made an anyOf: the generated type becomes a union", () => {
    const found = source((f) => void (props(f).v = {}), (f) => void (props(f).v = { anyOf: [{ type: "string" }, { type: "integer" }] }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/v", "M", "v", "any", "union")]);
  });
  it("an array's item type changed: the generated element type changes", () => {
    const found = source(none, (f) => void (props(f).tags.items = { type: "integer" }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/tags", "M", "tags", "array<string>", "array<integer>")]);
  });
  it("a list of types is a set: reordered, no finding; changed, the message lists it", () => {
    expect(source((f) => void (props(f).n = { type: ["string", "null"] }), (f) => void (props(f).n = { type: ["null", "string"] }))).toEqual([]);
    const found = source((f) => void (props(f).n = { type: ["string", "null"] }), (f) => void (props(f).n = { type: "integer" }));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/n", "M", "n", "null|string", "integer")]);
  });
  it("schemas that admit the same values and generate the same type: no finding", () => {
    // 2020-12 §4.3.2: `true` is the schema {}; `properties` alone implies nothing about type, but
    // an object with properties is generated as a record either way.
    expect(source((f) => void (props(f).any = true), (f) => void (props(f).any = {}))).toEqual([]);
    expect(source((f) => void (props(f).any = {}), (f) => void (props(f).any = true))).toEqual([]);
    const obj = (extra: object) => (f: Files) => void (props(f).o = { ...extra, properties: { a: { type: "string" } } });
    expect(source(obj({}), obj({ type: "object" }))).toEqual([]);
  });
});

describe("nesting", () => {
  const nest = (depth: number, inner: object): object => (depth === 0 ? inner : { type: "array", items: nest(depth - 1, inner) });
  const arrays = (depth: number, inner: string) => `${"array<".repeat(depth)}${inner}${">".repeat(depth)}`;
  it("six arrays deep, the element type changed: still a changed field type", () => {
    const found = source((f) => void (props(f).grid = nest(6, { type: "string" })), (f) => void (props(f).grid = nest(6, { type: "integer" })));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/grid", "M", "grid", arrays(6, "string"), arrays(6, "integer"))]);
  });
  it("six arrays deep, the element $ref changed to another titled type: still a changed field type", () => {
    const ref = (name: string) => ({ $ref: `../common/types.json#/$defs/${name}` });
    const found = source((f) => void (props(f).grid = nest(6, ref("Id"))), (f) => void (props(f).grid = nest(6, ref("Upper"))));
    expect(found.map(brief)).toEqual([typeChanged(M, "/properties/grid", "M", "grid", arrays(6, "type Id"), arrays(6, "type Upper"))]);
  });
  it("an untitled schema that contains itself (an old spec may have one) is compared, not followed forever", () => {
    const list = (f: Files) => {
      f[M].$defs = { List: { type: "array", items: { $ref: "#/$defs/List" } } };
      props(f).list = { $ref: "#/$defs/List" };
    };
    expect(source(none, (f) => void (f[M].description = "Reworded."), list)).toEqual([]);
    // A field that is a reference chain back to itself, too.
    const loop = (f: Files) => {
      f[M].$defs = { Loop: { $ref: "#/$defs/Loop" } };
      props(f).loop = { $ref: "#/$defs/Loop" };
    };
    expect(source(none, (f) => void (f[M].description = "Reworded."), loop)).toEqual([]);
  });
});

describe("a message with a field named `properties` (a GeoJSON Feature)", () => {
  it("a bound of that field loosened removes no field of any type", () => {
    const found = source((f) => void (props(f).properties = { type: "object", maxProperties: 3 }), (f) => void (props(f).properties = { type: "object" }));
    expect(found.map(brief)).toEqual([]);
  });
});

describe("fields", () => {
  it("a field whose name has ~ and / removed: the old position is its escaped pointer (RFC 6901)", () => {
    const found = source((f) => void (props(f, OPEN)["a~b/c"] = { type: "string" }), none);
    expect(found.map(brief)).toEqual([["SOURCE_FIELD_REMOVED", `${OPEN}#/properties`, `${OPEN}#/properties/a~0b~1c`, true, "field Open.a~b/c was removed or renamed"]]);
  });
  it("an optional field made required, and a required field added: constructors gain a parameter", () => {
    // The message says which of the two it is: the user either passes an existing field or a new one.
    const found = source(none, (f) => {
      f[M].required.push("count", "extra");
      props(f).extra = { type: "string" };
    });
    expect(found.map(brief)).toEqual([
      ["SOURCE_FIELD_MADE_REQUIRED", `${M}#/required`, `${M}#/required`, false, "field M.count became required: constructors gain a mandatory parameter"],
      ["SOURCE_FIELD_MADE_REQUIRED", `${M}#/required`, `${M}#/required`, false, "field M.extra was added as required: constructors gain a mandatory parameter"],
    ]);
  });
});

describe("enum cases", () => {
  it("a case removed: at the enum in the new version, the old enum as the old position, the case named", () => {
    const found = source(none, (f) => void (props(f).kind.enum = ["a"]));
    expect(found.map(brief)).toEqual([["SOURCE_ENUM_CASE_REMOVED", `${M}#/properties/kind/enum`, `${M}#/properties/kind/enum`, true, 'enum case "b" was removed']]);
  });
  it("a case removed from an enum under a field whose name has ~ and /", () => {
    const en = (values: string[]) => (f: Files) => void (props(f, OPEN)["a~b/c"] = { enum: values });
    const found = source(en(["x", "y"]), en(["x"]));
    expect(found.map(brief)).toEqual([["SOURCE_ENUM_CASE_REMOVED", `${OPEN}#/properties/a~0b~1c/enum`, `${OPEN}#/properties/a~0b~1c/enum`, true, 'enum case "y" was removed']]);
  });
  it("a case removed from a message that is an enum at its root", () => {
    const FILE = "spec/p/messages/Status.yaml";
    const status = (values: string[]) => (f: Files) => void (f[FILE] = { $id: "https://agent-contracts.dev/schemas/p/Status.json", title: "Status", enum: values });
    const found = source(status(["on", "off"]), status(["on"]));
    expect(found.map(brief)).toEqual([["SOURCE_ENUM_CASE_REMOVED", `${FILE}#/enum`, `${FILE}#/enum`, true, 'enum case "off" was removed']]);
  });
});

describe("constants", () => {
  it("one constant of a group removed while another stays: at /constants, the old item as the old position", () => {
    const found = source(none, (f) => void f[PROTOCOL].constants[0].items.pop());
    expect(found.map(brief)).toEqual([["SOURCE_CONSTANT_REMOVED", `${PROTOCOL}#/constants`, `${PROTOCOL}#/constants/0/items/1`, true, "constant p g.B was removed or renamed"]]);
  });
});

