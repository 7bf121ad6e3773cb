// refused.json is what the rule in suite.ts gives (the rule is the agreement; the file is what
// each runtime's test compares its refusals with).
import { describe, expect, it } from "vitest";
import { committedRefusals, computeRefusals, refusalOf } from "./suite.js";

describe("refused.json", () => {
  it("lists exactly the groups the refusal rule refuses", () => {
    expect(committedRefusals()).toEqual(computeRefusals());
  });

  it("the rule looks at the schema and the documents it references, and names the first keyword", () => {
    const remotes = new Map<string, unknown>([
      ["http://localhost:1234/uses-anchor.json", { $dynamicAnchor: "a", $vocabulary: {} }],
      ["http://localhost:1234/plain.json", { type: "string" }],
    ]);
    expect(refusalOf({ $ref: "http://localhost:1234/plain.json" }, remotes, new Map())).toBeUndefined();
    expect(refusalOf({ $ref: "http://localhost:1234/uses-anchor.json" }, remotes, new Map())).toBe("$dynamicAnchor");
    expect(refusalOf({ $schema: "http://localhost:1234/uses-anchor.json" }, remotes, new Map())).toBe("$dynamicAnchor");
    expect(refusalOf({ items: { $dynamicRef: "#a" }, $defs: { x: { $dynamicAnchor: "a" } } }, remotes, new Map())).toBe("$dynamicRef");
    // Data is not schema: a `const` holding the keyword's name as a member uses nothing.
    expect(refusalOf({ const: { $dynamicRef: "#a" } }, remotes, new Map())).toBeUndefined();
  });
});
