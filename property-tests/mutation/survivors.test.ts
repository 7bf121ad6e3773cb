// The committed survivor list (property-tests/mutation/survivors.md) is in the report's format:
// one line per surviving mutant, `- <ts|kotlin> <file>:<line>:<column>[-<end>] <mutator> "<replacement>" — <reason>`,
// naming a mutated file and a line that exist, with a reason, no duplicates; the list and the
// committed results' survivors (property-tests/mutation/results/) are the same set.
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
      expect(file!.startsWith(tool === "ts" ? "generators/" : "generators/targets/kotlin/runtime/"), line).toBe(true);
      expect(existsSync(join(ROOT, file!)), line).toBe(true);
      const length = readFileSync(join(ROOT, file!), "utf8").split("\n").length;
      // PIT numbers Kotlin's inlined standard-library code with lines past the end of the file
      // (the class's SMAP); such an entry must say so.
      if (tool === "kotlin" && Number(lineNo) > length) expect(line, "a line past the end must be inlined code").toMatch(/inlined/);
      else expect(Number(lineNo), line).toBeLessThanOrEqual(length);
    }
  });
  // Each reason opens with its class: "equivalent" (no input tells the mutant apart), "unreachable"
  // (no input reaches it), "not a survivor in effect" (a tool artefact), "killed outside the
  // group" (a test that kills it, not yet in the group's run), or "test gap" (open debt: a mutant no
  // test kills yet, counted against the folder's score). A bound that input can fill (a cache,
  // a store) is never "equivalent": it gets a test, so no reason may concede an untested bound.
  it("every reason is classed, and none concedes an untested bound", () => {
    const CLASSES = /^(equivalent|unreachable|not a survivor in effect|killed outside the group|test gap)\b/;
    const UNTESTED_BOUND = /bound not tested|only (the private cache's )?memory|memory (grows|differs|shows)|which no test can read/i;
    for (const line of entries) {
      const reason = LINE.exec(line)![7]!;
      expect(reason, line).toMatch(CLASSES);
      expect(reason, line).not.toMatch(UNTESTED_BOUND);
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
  it("is the set of survivors in the committed results", () => {
    const reported = readMutants().filter((m) => m.status === "Survived" || m.status === "NoCoverage");
    const listed = entries.map((l) => l.split(" — ")[0]!.replace(" (no coverage)", "")).sort();
    const want = reported.map((m) => survivorLine(m).split(" — ")[0]!.replace(" (no coverage)", "")).sort();
    expect(listed.filter((l) => !want.includes(l)), "listed, but not a survivor in the results").toEqual([]);
    expect(want.filter((l) => !listed.includes(l)), "survivors in the results that survivors.md does not list").toEqual([]);
  });
});
