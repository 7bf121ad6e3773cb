// The fast path's scan (strict-json-check.ts) at its edges, next to
// strict-json-check.mutation-kills.test.ts (same path() helper): the depth count through every
// closer, strings with escapes ending at their own quote, a member named "undefined" counted once,
// and an escaped high surrogate paired only by a \u escape. Expectations written by hand from RFC
// 8259 and the file's comments.
import { describe, expect, it } from "vitest";
import { path, recordJsonParse } from "./fast-path-probe.js";

recordJsonParse();

describe("the scan's depth count and escape walk at their edges", () => {
  it("depth is counted through every closer and past characters between the openers", () => {
    // One member, nested past the limit: the scan must not report its member count as a pass.
    expect(path('{"a":[[]]}', { maxDepth: 2 })).toBe("error too-deep");
    // Digits and commas between the openers change nothing: four levels are too deep for 3.
    expect(path("[1,[1,[1,[1]]]]", { maxDepth: 3 })).toBe("error too-deep");
    expect(path("[1,[1,[1,[1]]]]", { maxDepth: 4 })).toBe("fast");
    // '}' lowers the depth as ']' does: siblings never add up.
    expect(path('{"a":{},"b":{},"c":{"d":{}}}', { maxDepth: 3 })).toBe("fast");
    expect(path("[[],[],[],[[]]]", { maxDepth: 3 })).toBe("fast");
  });
  it("a string with an escape after its first character ends at its own closing quote", () => {
    // ':' inside the string is no member separator; the document has no members at all.
    expect(path('["x\\n:", "y"]')).toBe("fast");
    expect(path('{"k":"x\\t:y","l":"z"}')).toBe("fast");
  });
  it("a member named \"undefined\" is counted once", () => {
    expect(path('{"undefined":{"a":1}}')).toBe("fast");
    expect(path('{"b":2,"undefined":[{"c":3}]}')).toBe("fast");
  });
  it("an escaped high surrogate is paired only by a following \\u escape", () => {
    // Valid JSON (JSON.parse reads a lone surrogate), which the strict parser refuses.
    expect(path('["\\ud800xudc00"]')).toBe("error lone-surrogate");
    expect(path('["\\ud800\\ndc00"]')).toBe("error lone-surrogate");
  });
});
