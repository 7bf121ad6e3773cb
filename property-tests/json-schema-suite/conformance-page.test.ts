// The docs site's Conformance page shows the counts the runtimes' tests check (counts.json).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
type Counts = Record<string, Record<string, Record<string, number>>>;

/** Page row label, then how the cell is written from one runtime's counts of its suite. */
const ROWS: [string, string, (c: Record<string, number>) => string][] = [
  ["JSON-Schema-Test-Suite 2020-12, required: tests", "jsonSchemaTestSuite", (c) => `${c["tests"]}`],
  ["pass", "jsonSchemaTestSuite", (c) => `${c["pass"]}`],
  ["fail", "jsonSchemaTestSuite", (c) => `${c["fail"]}`],
  ["refused at load", "jsonSchemaTestSuite", (c) => `${c["refused"]}`],
  ["thrown", "jsonSchemaTestSuite", (c) => `${c["thrown"]}`],
  ["format.json: asserted", "jsonSchemaTestSuite", (c) => `${c["formatAsserted"]}`],
  ["format.json: refused", "jsonSchemaTestSuite", (c) => `${c["formatRefused"]}`],
  ["WPT URL, special schemes without a base: agree / checked", "wptUrl", (c) => `${c["agree"]} / ${c["checked"]}`],
  ["RFC 8785 reference pairs", "rfc8785", (c) => `${c["pairs"]}`],
  ["RFC 8785 ES6 number lines", "rfc8785", (c) => `${c["numberLines"]}`],
];
const COLUMNS = ["typescript", "kotlin", "swift"];

describe("docs-site/guides/conformance.md", () => {
  it("shows every runtime's committed counts, and a dash where a runtime has none", () => {
    const counts = JSON.parse(readFileSync(join(ROOT, "property-tests/json-schema-suite/counts.json"), "utf8")) as Counts;
    const page = readFileSync(join(ROOT, "docs-site/guides/conformance.md"), "utf8");
    const cells = new Map(
      page
        .split("\n")
        .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
        .map((line) => line.split("|").slice(1, -1).map((c) => c.trim()))
        .map((row) => [row[0]!, row.slice(1)] as const),
    );
    for (const [label, suite, write] of ROWS) {
      const row = cells.get(label);
      expect(row, label).toBeDefined();
      COLUMNS.forEach((runtime, i) => {
        const recorded = counts[suite]?.[runtime];
        expect(row![i], `${label} / ${runtime}`).toBe(recorded === undefined ? "—" : write(recorded));
      });
    }
  });
});
