// The declared keyword set (runtime-keywords.json) and the load-time refusal of anything else.
import { describe, expect, it } from "vitest";
import { checkRuntimeKeywords, runtimeKeywords, SchemaKeywordError } from "./runtime-keywords.js";
import type { JsonValue } from "./types.js";

function refusal(documents: JsonValue[]): SchemaKeywordError | undefined {
  try {
    checkRuntimeKeywords(documents);
    return undefined;
  } catch (error) {
    if (error instanceof SchemaKeywordError) return error;
    throw error;
  }
}

describe("runtime-keywords.json", () => {
  it("is sorted, without duplicates, and leaves out the keywords no runtime implements", () => {
    const { keywords, formats } = runtimeKeywords();
    for (const list of [keywords, formats]) expect([...new Set(list)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(list);
    for (const k of ["$dynamicRef", "$dynamicAnchor", "$vocabulary"]) expect(keywords).not.toContain(k);
  });
});

describe("checkRuntimeKeywords", () => {
  it("accepts the declared keywords, declared formats and x- annotations", () => {
    expect(refusal([{ $id: "https://x.invalid/a", "x-rules": [], properties: { a: { format: "uri", unevaluatedProperties: false } } }])).toBeUndefined();
  });

  it("names the document, the JSON pointer of the schema and the keyword", () => {
    const e = refusal([{ $id: "https://x.invalid/a", properties: { "a/b": { items: [{ minimumm: 1 }] } } }]);
    // `items` holds one schema: an array there is no schema, so nothing is read inside it.
    expect(e).toBeUndefined();
    const f = refusal([{ $id: "https://x.invalid/a", properties: { "a/b": { prefixItems: [{ minimumm: 1 }] } } }]);
    expect([f?.document, f?.pointer, f?.keyword]).toEqual(["https://x.invalid/a", "/properties/a~1b/prefixItems/0", "minimumm"]);
  });

  it("refuses an undeclared format as keyword format", () => {
    expect(refusal([{ format: "email" }])?.keyword).toBe("format");
  });

  it("names an unimplemented keyword first (a meta-schema reference counts as $dynamicRef), then any other", () => {
    expect(refusal([{ minimumm: 1, $ref: "https://json-schema.org/draft/2020-12/schema", $defs: { a: { $vocabulary: {} } } }])?.keyword).toBe("$dynamicRef");
    expect(refusal([{ minimumm: 1, $defs: { a: { $vocabulary: {} }, b: { $dynamicAnchor: "x" } } }])?.keyword).toBe("$dynamicAnchor");
    expect(refusal([{ minimumm: 1, $ref: "https://json-schema.org/draft/2020-12/schema" }])?.keyword).toBe("$dynamicRef");
    expect(refusal([{ minimumm: 1 }, { maximumm: 1 }])?.keyword).toBe("minimumm");
  });

  it("does not read data as schemas", () => {
    expect(refusal([{ const: { $dynamicRef: "#a" }, enum: [{ nope: 1 }], default: { nope: 2 } }])).toBeUndefined();
  });
});
