// Every section of every source document is in the coverage table, and every section the table
// names really is in its document.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../generators/pipeline.js";
import { REPO_ROOT } from "../../generators/test/fixture.js";

const GITHUB_PAGE_CHROME = new Set(["Skip to content", "Latest commit", "History", "File metadata and controls", "Raw"]);

/** A heading in these plain-text documents: a short capitalised line between blank lines. */
function headings(text: string): string[] {
  const lines = text.split("\n").map((l) => l.trim());
  return lines.filter((line, i) => {
    if (line === "" || line.split(/\s+/).length > 7 || /[.:,;)]$/.test(line) || !/^[A-Z]/.test(line)) return false;
    if (/[{}"=<>`/[\]]|->/.test(line) || GITHUB_PAGE_CHROME.has(line)) return false;
    return (lines[i - 1] ?? "") === "" && (lines[i + 1] ?? "") === "";
  });
}

const result = loadModel(REPO_ROOT);
if (!result.ok) throw new Error("spec has errors");

describe("coverage of the source documents", () => {
  for (const protocol of result.model.protocols) {
    const text = readFileSync(`${REPO_ROOT}/property-tests/vectors/protocols/${protocol.document}`, "utf8");
    const titles = protocol.sections.map((s) => s.title);
    it(`${protocol.id}: every heading of ${protocol.document} has a section`, () => {
      expect(headings(text).filter((h) => !titles.includes(h))).toEqual([]);
    });
    it(`${protocol.id}: every section title occurs in ${protocol.document}`, () => {
      expect(titles.length).toBeGreaterThan(0);
      expect(titles.filter((t) => !text.includes(t))).toEqual([]);
    });
    it(`${protocol.id}: no section is uncovered`, () => {
      expect(protocol.sections.filter((s) => s.coveredBy.length === 0)).toEqual([]);
    });
  }
});
