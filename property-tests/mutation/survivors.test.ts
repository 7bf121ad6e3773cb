// The committed survivor list (property-tests/mutation/survivors.md) is in the report's format:
// one line per surviving mutant, `- <ts|kotlin> <file>:<line>:<column>[-<end>] <mutator> "<replacement>" — <reason>`,
// naming a runtime file and a line that exist, with a reason, no duplicates. When a mutation
// report is present (after `make mutation`), the list and the report's survivors are the same set.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readMutants, survivorLine } from "./summary.mjs";
import { ROOT } from "../signing/helpers.js";

const FILE = join(ROOT, "property-tests/mutation/survivors.md");
const LINE = /^- (ts|kotlin) (\S+):(\d+):(\d+(?:-\d+:\d+)?) (\S+) ("(?:[^"\\]|\\.)*") (?:\(no coverage\) )?— (.+)$/;
const text = readFileSync(FILE, "utf8");
const entries = text.split("\n").filter((l) => l.startsWith("- "));

describe("survivors.md", () => {
  it("every entry is one line in the report format, with a reason", () => {
    for (const line of entries) {
      const m = LINE.exec(line);
      expect(m, line).not.toBeNull();
      expect(m![7]!.trim().length, `${line}: no reason`).toBeGreaterThanOrEqual(10);
    }
  });
  it("every entry names a runtime source file and a line inside it", () => {
    for (const line of entries) {
      const [, tool, file, lineNo] = LINE.exec(line)!;
      expect(file!.startsWith(tool === "ts" ? "generators/targets/ts/runtime/src/" : "generators/targets/kotlin/runtime/"), line).toBe(true);
      expect(existsSync(join(ROOT, file!)), line).toBe(true);
      const length = readFileSync(join(ROOT, file!), "utf8").split("\n").length;
      // PIT numbers Kotlin's inlined standard-library code with lines past the end of the file
      // (the class's SMAP); such an entry must say so.
      if (tool === "kotlin" && Number(lineNo) > length) expect(line, "a line past the end must be inlined code").toMatch(/inlined/);
      else expect(Number(lineNo), line).toBeLessThanOrEqual(length);
    }
  });
  it("has no duplicate entries", () => {
    const keys = entries.map((l) => l.split(" — ")[0]);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it("the format is the one summary.mjs writes", () => {
    const sample = survivorLine({ tool: "ts", file: "generators/targets/ts/runtime/src/crypto.ts", line: 1, column: 2, mutator: "BlockStatement", replacement: "{}", status: "Survived" });
    expect(LINE.test(`${sample}equivalent because of a reason`)).toBe(true);
  });
  const reported = readMutants().filter((m) => m.status === "Survived" || m.status === "NoCoverage");
  // A narrowed run (MUTATE=...) reports only some files: compare those.
  const files = new Set<string>(readMutants().map((m) => m.file));
  it.runIf(files.size > 0)("matches the last report's survivors in the files it covers (run after make mutation)", () => {
    const listed = entries.map((l) => l.split(" — ")[0]!.replace(" (no coverage)", "")).filter((l) => files.has(l.split(" ")[2]!.replace(/:.*$/, ""))).sort();
    const want = reported.map((m) => survivorLine(m).split(" — ")[0]!.replace(" (no coverage)", "")).sort();
    expect(listed).toEqual(want);
  });
});
