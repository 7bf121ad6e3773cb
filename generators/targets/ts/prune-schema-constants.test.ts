// Cutting ajv's schema constants down to what its code reads: hand-written standalone snippets
// in ajv's own shapes (a `properties` object looked up with hasOwnProperty, an error's
// allowedValues read through a member chain); the generated validators run the spec's vectors
// in property-tests/spec-data with the result.
import { describe, expect, it } from "vitest";
import { pruneSchemaConstants } from "./prune-schema-constants.js";

const HAS_OWN = "const func0 = Object.prototype.hasOwnProperty;";

function constant(code: string, name: string): unknown {
  const line = code.split("\n").find((l) => l.startsWith(`const ${name} = `))!;
  return JSON.parse(line.slice(`const ${name} = `.length, -1));
}

describe("pruneSchemaConstants", () => {
  it("keeps only the members read, and only the keys of an object read by hasOwnProperty", () => {
    const schema = { $id: "x", "x-rules": [{ id: "r" }], properties: { a: { type: "string", pattern: "^a$" }, kind: { enum: ["p", "q"] } }, allOf: [{ a: 1 }, { then: { enum: [1] } }] };
    const code = [HAS_OWN, `const schema3 = ${JSON.stringify(schema)};`, "function v(d){if(!(func0.call(schema3.properties, k))){}", "e={allowedValues: schema3.properties.kind.enum};f={allowedValues: schema3.allOf[1].then.enum};}"].join("\n");
    expect(constant(pruneSchemaConstants(code), "schema3")).toEqual({ properties: { a: 0, kind: { enum: ["p", "q"] } }, allOf: [null, { then: { enum: [1] } }] });
  });

  it("keeps a constant whole when it is read whole, or through a member it does not have", () => {
    const schema = { enum: [1, 2], title: "t" };
    for (const use of ["return schema4;", "return schema4.enum.length;", "return schema4.missing;"]) {
      const code = `const schema4 = ${JSON.stringify(schema)};\nfunction v(){${use}}`;
      const kept = constant(pruneSchemaConstants(code), "schema4");
      expect(kept, use).toEqual(use === "return schema4.enum.length;" ? { enum: [1, 2] } : schema);
    }
  });

  it("keeps a member named __proto__ a member", () => {
    const code = `${HAS_OWN}\nconst schema5 = {"properties":{"__proto__":{"type":"string"},"b":{}}};\nfunction v(){func0.call(schema5.properties, k);}`;
    const out = pruneSchemaConstants(code);
    expect(out).toContain(`const schema5 = {"properties":{"__proto__":0,"b":0}};`);
  });

  it("leaves code without schema constants as it is, and does not confuse schema12 with schema1", () => {
    expect(pruneSchemaConstants("function v(){return 1;}")).toBe("function v(){return 1;}");
    const code = `const schema1 = {"a":1,"b":2};\nconst schema12 = {"c":3};\nfunction v(){return schema12.c + schema1.a;}`;
    const out = pruneSchemaConstants(code);
    expect([constant(out, "schema1"), constant(out, "schema12")]).toEqual([{ a: 1 }, { c: 3 }]);
  });
});
