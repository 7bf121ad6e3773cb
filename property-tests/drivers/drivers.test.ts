// One test for every language's shared-case driver (README.md beside this file): the cases come
// from the spec's data (cases.ts), each driver (TypeScript, Kotlin, Swift) answers all of them in
// one process, and every verdict must equal the spec's and every other language's. A failure
// names the case and the language. Runs by `make drivers` (in `make test`), not in the main vitest
// run: it compiles the Kotlin, Swift and Rust packages. AGENT_CONTRACTS_DRIVER_PROJECTS (folders with
// spec/ and generated/, separated by ":") picks the projects; by default this repository.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../generators/pipeline.js";
import { type DriverCase, sharedCases, type Verdict } from "./cases.js";
import { type Answers, casesFor, runDrivers } from "./run-drivers.js";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/**
 * For this repository, at least as many cases of each kind as the per-language suites the drivers
 * replaced read (Kotlin's ValidationExamplesTest 140 + 226, ValidationDifferentialTest 4595,
 * LifecyclePathsTest 530; Swift's ExampleTests, LifecycleTests and CanonicalJSONTests 15 JCS
 * vectors), so a case source that silently stops being read fails here.
 */
const REPOSITORY_FLOOR: Record<string, number> = { example: 140, "invalid-example": 226, mutation: 4595, lifecycle: 530, jcs: 15, rfc8785: 6, "es6-number": 10_000, "strict-json": 50, "fuzz-parse": 154, "fuzz-rfc3339": 19, "fuzz-validate": 1516, "fuzz-reproducer": 7, "hmac-verify": 33, "hmac-sign": 13, "content-id": 9, "approval-token": 22 };
const PROJECTS = (process.env["AGENT_CONTRACTS_DRIVER_PROJECTS"] ?? ROOT).split(":").filter((p) => p !== "");

/** Every disagreement, one line each, naming the case and the language. */
export function disagreements(expected: ReadonlyMap<string, Verdict>, answers: readonly Answers[]): string[] {
  const lines: string[] = [];
  const show = (v: Verdict | undefined) => JSON.stringify(v);
  for (const a of answers) {
    for (const id of a.verdicts.keys()) if (!expected.has(id)) lines.push(`${a.language}: answered ${id}, which is no case`);
  }
  for (const [id, want] of expected) {
    const got = answers.filter((a) => a.notAsked?.has(id) !== true).map((a) => ({ language: a.language, verdict: a.verdicts.get(id) }));
    for (const g of got) {
      if (g.verdict === undefined) lines.push(`${id}: ${g.language} gave no verdict`);
      else if (show(g.verdict) !== show(want)) lines.push(`${id}: ${g.language} says ${show(g.verdict)}, the spec says ${show(want)}`);
    }
    const distinct = new Set(got.map((g) => show(g.verdict)));
    if (distinct.size > 1) lines.push(`${id}: the languages disagree: ${got.map((g) => `${g.language} ${show(g.verdict)}`).join(", ")}`);
  }
  return lines;
}

describe("shared-case drivers", () => {
  it("a driver that answers wrongly, twice or not at all is named with the case", () => {
    const expected = new Map<string, Verdict>([["a", "valid"], ["b", ["moved x []"]]]);
    const lines = disagreements(expected, [
      { language: "ts", verdicts: new Map<string, Verdict>([["a", "valid"], ["b", ["moved x []"]]]) },
      { language: "kotlin", verdicts: new Map<string, Verdict>([["a", "/x type"], ["c", "valid"]]) },
    ]);
    expect(lines).toEqual([
      "kotlin: answered c, which is no case",
      'a: kotlin says "/x type", the spec says "valid"',
      'a: the languages disagree: ts "valid", kotlin "/x type"',
      "b: kotlin gave no verdict",
      'b: the languages disagree: ts ["moved x []"], kotlin undefined',
    ]);
  });

  it("a case whose kind calls a function a runtime lacks is not asked of that language, and only then", () => {
    const token: DriverCase = { id: "approval-token p/M t", kind: "approval-token", protocol: "p", message: "M", secret_utf8: "s", token: "t", now_unix_seconds: 0 };
    const parse: DriverCase = { id: "parse x", kind: "parse", b64: "" };
    const rust = casesFor("rust", [token, parse]);
    expect(rust.asked).toEqual([parse]);
    expect([...rust.notAsked]).toEqual([token.id]);
    expect(rust.why).toEqual(["rust: not asked the 1 approval-token cases: its runtime offers no decodeApprovalToken, verifyApprovalToken (generators/emit/runtime-contract.ts)"]);
    for (const language of ["ts", "kotlin", "swift"] as const) expect(casesFor(language, [token, parse]).asked).toEqual([token, parse]);
    const expected = new Map<string, Verdict>([[token.id, "valid"], [parse.id, "ok"]]);
    const answers = [
      { language: "ts", verdicts: new Map<string, Verdict>([[token.id, "valid"], [parse.id, "ok"]]) },
      { language: "rust", verdicts: new Map<string, Verdict>([[parse.id, "ok"]]), notAsked: rust.notAsked },
    ];
    expect(disagreements(expected, answers)).toEqual([]);
    expect(disagreements(expected, [answers[0]!, { ...answers[1]!, notAsked: new Set<string>() }])).toEqual([`${token.id}: rust gave no verdict`, `${token.id}: the languages disagree: ts "valid", rust undefined`]);
  });

  for (const project of PROJECTS) {
    it(`${project === ROOT ? "this repository" : project}: every language answers every case as the spec says`, () => {
      const model = loadModel(project);
      if (!model.ok) throw new Error(model.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
      const { cases, expected } = sharedCases(project, model.model, ROOT);
      const scratch = mkdtempSync(join(tmpdir(), "agent-contracts-drivers-"));
      try {
        const casesFile = join(scratch, "cases.json");
        writeFileSync(casesFile, JSON.stringify({ cases }));
        const counts = new Map<string, number>();
        for (const c of cases) counts.set(c.id.split(" ")[0]!, (counts.get(c.id.split(" ")[0]!) ?? 0) + 1);
        if (project === ROOT) for (const [kind, floor] of Object.entries(REPOSITORY_FLOOR)) expect(counts.get(kind) ?? 0, `${kind} cases`).toBeGreaterThanOrEqual(floor);
        const answers = runDrivers(project, casesFile, scratch);
        console.log(`shared cases: ${cases.length} (${[...counts].map(([k, n]) => `${k} ${n}`).join(", ")}) answered by ${answers.map((a) => a.language).join(", ")}`);
        const lines = disagreements(expected, answers);
        expect(lines.slice(0, 40), `${lines.length} disagreements`).toEqual([]);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }, 3_600_000);
  }
});
