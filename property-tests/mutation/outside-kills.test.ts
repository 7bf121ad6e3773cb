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
  it("keeps an operator's grouping: the mutated left side of an && chain stays one operand", () => {
    const chain = 'const x = a === "" && b && c;\n';
    const mutant = { mutatorName: "LogicalOperator", replacement: 'a === "" || b', location: { start: at(1, 11), end: at(1, 24) } };
    expect(applyMutant(chain, mutant)).toBe('const x = (a === "" || b) && c;\n');
  });
  it("leaves a switch case mutated to default: unbracketed", () => {
    const sw = "switch (t) {\n  case 1:\n    f();\n}\n";
    const mutant = { mutatorName: "ConditionalExpression", replacement: "default:", location: { start: at(2, 3), end: at(2, 10) } };
    expect(applyMutant(sw, mutant)).toBe("switch (t) {\n  default:\n    f();\n}\n");
  });
  it("refuses a line past the end", () => {
    expect(() => applyMutant(source, { replacement: "", location: { start: at(9, 1), end: at(9, 2) } })).toThrow(/line 9/);
  });
});
