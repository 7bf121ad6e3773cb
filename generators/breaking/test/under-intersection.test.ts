// underIntersection (compare.ts) decides which WIRE differences need a witness before they count:
// those under allOf, then or else, where a sibling may still reject what one part now admits. Each
// row is worked out by hand from JSON Schema 2020-12's applicators: which keywords hold a schema
// (items, not, if, contains, …), a map of named schemas (properties, $defs, dependentSchemas, …)
// or a list of them (anyOf, oneOf, prefixItems); a name or index is never a keyword.
import { describe, expect, it } from "vitest";
import { underIntersection } from "../compare.js";

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
