// The committed corpus still gets TypeScript's verdicts (the Kotlin and Swift suites compare
// theirs to the same `expect`), the corpus is what corpus.ts builds, and the calendar rule is
// checked against an independent count of days.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../generators/test/fixture.js";
import { buildCorpus, type CorpusFile, verdict } from "./corpus.js";

const read = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, "property-tests/fuzz/corpus", name), "utf8")) as CorpusFile;
const FILES = ["strict-json.json", "validators.json", "reproducers.json", "rfc3339.json"];

describe("fuzz corpus", () => {
  it("is what corpus.ts builds (run property-tests/fuzz/write-corpus.ts after changing it)", () => {
    const built = buildCorpus();
    expect(Object.keys(built).sort()).toEqual([...FILES].sort());
    for (const name of FILES) expect(read(name)).toEqual(built[name]);
  });
  for (const name of FILES) {
    it(`${name}: every case gets its recorded verdict, without an exception`, () => {
      const file = read(name);
      expect(file.cases.length).toBeGreaterThan(0);
      const wrong = file.cases.filter((c) => verdict(c) !== c.expect).map((c) => `${c.name}: ${verdict(c)} != ${c.expect}`);
      expect(wrong).toEqual([]);
    });
  }
  it("the review's reproducers are refused for the right reason", () => {
    const byName = Object.fromEntries(read("reproducers.json").cases.map((c) => [c.name, c.expect]));
    expect(byName["defect 1: 40k scheme characters in SafeText label"]).toBe("/label maxLength");
    expect(byName["defect 3: protocol_version 1e19"]).toBe("/protocol_version maximum");
    expect(byName["defect 6: a number in a string+pattern field"]).toBe("/connectorVersion type");
    expect(byName["defect 6: a number in a string+format field (format uri)"]).toBe("/callback_url type");
  });
  it("year 0000 is a leap year (RFC 3339 appendix C, proleptic Gregorian): days counted independently", () => {
    // 0001-01-01 is 719162 days before 1970-01-01 (365 * 1969 + 477 leap days); year 0 has 366 days.
    const day = 86_400_000;
    const year1 = -719_162 * day;
    const expected: Record<string, string> = {
      "0001-01-01T00:00:00Z": String(year1),
      "0000-01-01T00:00:00Z": String(year1 - 366 * day),
      "0000-02-29T00:00:00Z": String(year1 - (366 - 59) * day),
      "0000-03-01T00:00:00Z": String(year1 - (366 - 60) * day),
      "0100-02-29T00:00:00Z": "null",
      "1900-02-29T00:00:00Z": "null",
    };
    const got = Object.fromEntries(read("rfc3339.json").cases.filter((c) => c.name in expected).map((c) => [c.name, c.expect]));
    expect(got).toEqual(expected);
  });
});
