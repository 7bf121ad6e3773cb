// applyMutant places a Stryker replacement by the report's 1-based lines and columns, end
// exclusive (mutation-testing-report-schema); the expected texts are written by hand.
import { describe, expect, it } from "vitest";
import { applyMutant, verdictOf } from "./outside-kills.mjs";

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

describe("verdictOf", () => {
  // vitest's own summary lines (4.x, dot reporter), copied from runs by hand.
  const failed = " Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 234 passed (235)\n";
  it("a clean run is a survivor", () => {
    expect(verdictOf({ status: 0, stdout: " Test Files  4 passed (4)\n" })).toBe("survived");
  });
  it("a failed test is a kill", () => {
    expect(verdictOf({ status: 1, stdout: failed })).toBe("killed");
  });
  it("a failed test is a kill when the summary is coloured too", () => {
    expect(verdictOf({ status: 1, stdout: "\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m\x1b[1m\x1b[32m3 passed\x1b[39m\x1b[22m\x1b[90m (4)\x1b[39m\n" })).toBe("killed");
  });
  it("a run cut off by the deadline decides nothing", () => {
    expect(() => verdictOf({ status: null, signal: "SIGTERM", error: new Error("spawnSync vitest ETIMEDOUT"), stdout: "" })).toThrow(/undecided: vitest ended with spawnSync vitest ETIMEDOUT/);
  });
  it("a non-zero exit without a failed test in the report decides nothing", () => {
    expect(() => verdictOf({ status: 1, stdout: "", stderr: "Error: Cannot find module 'vitest'" })).toThrow(/undecided/);
  });
});
