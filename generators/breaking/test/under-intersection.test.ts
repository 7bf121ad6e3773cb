// underIntersection (compare.ts) decides which WIRE differences need a witness before they count:
// those under allOf, then or else, where a sibling may still reject what one part now admits. Each
// row is worked out by hand from JSON Schema 2020-12's applicators: which keywords hold a schema
// (items, not, if, contains, …), a map of named schemas (properties, $defs, dependentSchemas, …)
// or a list of them (anyOf, oneOf, prefixItems); a name or index is never a keyword.
import { describe, expect, it } from "vitest";
import { compareRoots, underIntersection } from "../compare.js";
import { baseFiles, OPEN, writeTree, type Files } from "./spec-fixture.js";

const ROWS: [string, boolean][] = [
  // Through each keyword that holds one schema, into an intersection.
  ["/items/allOf/0", true],
  ["/additionalProperties/then", true],
  ["/not/else", true],
  ["/if/allOf/1", true],
  ["/contains/then/minimum", true],
  ["/propertyNames/allOf/0", true],
  ["/unevaluatedItems/then", true],
  ["/unevaluatedProperties/else", true],
  // Through each map of named schemas: the name is skipped, whatever it spells.
  ["/patternProperties/^a$/allOf/0", true],
  ["/patternProperties/then/maxLength", false],
  ["/definitions/x/then", true],
  ["/definitions/else/type", false],
  ["/dependentSchemas/a/else", true],
  ["/dependentSchemas/allOf/required", false],
  // Through each list of schemas: the index is skipped.
  ["/oneOf/1/allOf/0", true],
  ["/prefixItems/0/then", true],
  ["/anyOf/0/properties/then/type", false],
  // After a keyword whose value is data, the rest is data.
  ["/enum/0", false],
  ["/default/then", false],
  ["/dependentRequired/then", false],
];

describe("underIntersection", () => {
  it.each(ROWS)("%s: %s", (pointer, expected) => {
    expect(underIntersection(pointer)).toBe(expected);
  });
});

describe("only WIRE findings need a witness under an intersection", () => {
  it("a SOURCE finding under allOf stays: an enum case removed changes the generated type, witness or not", () => {
    const k = (values: string[]) => (f: Files) => void (f[OPEN].allOf = [{ properties: { k: { enum: values } } }]);
    const before = baseFiles();
    const after = baseFiles();
    k(["a", "b"])(before);
    k(["a"])(after);
    const { findings } = compareRoots(writeTree(before), writeTree(after));
    // The WIRE side (WIRE_ENUM_VALUE_REMOVED, witness {k: "b"}) makes the witness pass run at all.
    expect(findings.map((f) => [f.rule, f.at.pointer]).sort()).toEqual([
      ["SOURCE_ENUM_CASE_REMOVED", "/allOf/0/properties/k/enum"],
      ["WIRE_ENUM_VALUE_REMOVED", "/allOf/0/properties/k/enum"],
    ]);
  });
});
