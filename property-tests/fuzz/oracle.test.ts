// The fuzz corpus's expected verdicts (TypeScript's, replayed by Kotlin and Swift) against an
// independent oracle: Python's json module with duplicate names refused, and the jsonschema package
// on the same schemas (property-tests/oracle-vectors/fuzz-corpus: the verdicts, the script that made
// them and a README). Install-free: the oracle's verdicts are committed data. Every case agrees,
// or differs in one of the ways listed here, each for a stated reason and in the stated direction
// (this project refuses what the oracle accepts); every listed way occurs.
import { describe, expect, it } from "vitest";
import type { CorpusFile } from "./corpus.js";
import { readJson } from "../signing/helpers.js";

interface OracleCase { file: string; name: string; parse: "ok" | "error"; reason?: string; schema?: "valid" | "invalid"; errors?: string[] }
const oracle = readJson<{ about: Record<string, string>; cases: OracleCase[] }>("property-tests/oracle-vectors/fuzz-corpus/verdicts.json");
const FILES = ["strict-json", "validators", "reproducers"] as const;
const corpus = Object.fromEntries(FILES.map((f) => [f, readJson<CorpusFile>(`property-tests/fuzz/corpus/${f}.json`)]));
const byKey = new Map(oracle.cases.map((c) => [`${c.file} ${c.name}`, c]));

/** Where this project is stricter than the oracle, by the project's verdict code, and why. */
const DIFFERENCES: Record<string, string> = {
  "lone-surrogate": "a \\uD800-\\uDFFF escape without its pair: I-JSON (RFC 7493 §2.1) forbids it and RFC 8785 cannot write it; Python's json returns the lone surrogate in a str",
  "number-not-exact": "a number no IEEE 754 double names exactly (I-JSON §2.2): Python reads it as an int or a rounded float",
  "number-out-of-range": "a number beyond the double range (1e400): Python's json reads it as inf",
  "too-deep": "nesting past the project's depth limit (512), a bound on work: Python's json has only its recursion limit (about 1000)",
  "x-rule": "a cross-field rule (x-rules in the message schema), which JSON Schema cannot express, so jsonschema does not check it",
};

type Verdict = "ok" | "error" | "valid" | "invalid";
/** The project's verdict class and the code a difference is listed under. */
function project(c: CorpusFile["cases"][number]): { verdict: Verdict; code: string } {
  if (c.kind === "parse") return c.expect === "ok" ? { verdict: "ok", code: "ok" } : { verdict: "error", code: c.expect };
  if (c.expect === "valid") return { verdict: "valid", code: "valid" };
  if (c.expect.startsWith("json ")) return { verdict: "error", code: c.expect.slice(5) };
  const [, keyword] = c.expect.split(" ");
  return { verdict: "invalid", code: keyword! };
}
const oracleVerdict = (o: OracleCase, kind: string): Verdict => (o.parse === "error" ? "error" : kind === "parse" ? "ok" : o.schema!);

describe("the oracle's verdicts", () => {
  it("cover exactly the corpus's cases (rerun make-verdicts.py after regenerating the corpus)", () => {
    const names = FILES.flatMap((f) => corpus[f]!.cases.map((c) => `${f} ${c.name}`)).sort();
    expect(oracle.cases.filter((c) => c.file !== "hmac-sha256-v1").map((c) => `${c.file} ${c.name}`).sort()).toEqual(names);
    expect(oracle.about["jsonschema"]).toMatch(/^\d+\.\d+/);
  });

  const seen = new Map<string, number>();
  it.each(FILES)("%s: every case agrees with the oracle or differs in a listed way", (file) => {
    const unexplained: string[] = [];
    for (const c of corpus[file]!.cases) {
      const o = byKey.get(`${file} ${c.name}`)!;
      const mine = project(c);
      const theirs = oracleVerdict(o, c.kind);
      if (mine.verdict === theirs) {
        // Both refuse the message: the project's first error is at a place the oracle also names
        // (the same instance path, or one inside or around it: a oneOf reports at the union).
        if (mine.verdict === "invalid") {
          const at = c.expect.split(" ")[0]!;
          const paths = o.errors!.map((e) => e.split(" ")[0]!);
          if (!paths.some((p) => p === at || p.startsWith(`${at}/`) || at.startsWith(`${p}/`) || p === "")) unexplained.push(`${c.name}: ${c.expect} vs ${o.errors!.join("; ")}`);
        }
        continue;
      }
      const code = mine.code === "x-rule" || c.expect.includes(" x-rule ") ? "x-rule" : mine.code;
      // The only direction explained: this project refuses what the oracle accepts.
      const stricter = (mine.verdict === "error" && theirs !== "error") || (mine.verdict === "invalid" && theirs === "valid");
      if (DIFFERENCES[code] === undefined || !stricter) unexplained.push(`${c.name}: project ${c.expect}, oracle ${theirs}${o.reason ? ` (${o.reason})` : ""}`);
      else seen.set(code, (seen.get(code) ?? 0) + 1);
    }
    expect(unexplained).toEqual([]);
  });
  it("every listed difference occurs", () => {
    expect(Object.keys(DIFFERENCES).filter((code) => !seen.has(code))).toEqual([]);
  });
});
