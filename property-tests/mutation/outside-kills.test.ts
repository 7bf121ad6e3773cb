// applyMutant places a Stryker replacement by the report's 1-based lines and columns, end
// exclusive (mutation-testing-report-schema); the expected texts are written by hand.
import { describe, expect, it } from "vitest";
import { applyMutant } from "./outside-kills.mjs";

const at = (line: number, column: number) => ({ line, column });

describe("applyMutant", () => {
  const source = 'const a = "x";\nif (a === "x") {\n  f();\n}\n';
  it("replaces a range on one line", () => {
    expect(applyMutant(source, { replacement: '""', location: { start: at(1, 11), end: at(1, 14) } })).toBe('const a = "";\nif (a === "x") {\n  f();\n}\n');
  });
  it("replaces a range across lines", () => {
    expect(applyMutant(source, { replacement: "{}", location: { start: at(2, 16), end: at(4, 2) } })).toBe('const a = "x";\nif (a === "x") {}\n');
  });
  it("refuses a line past the end", () => {
    expect(() => applyMutant(source, { replacement: "", location: { start: at(9, 1), end: at(9, 2) } })).toThrow(/line 9/);
  });
});
