// One test for every language's shared-case driver (README.md beside this file): the cases come
// from the spec's data (cases.ts), each driver (TypeScript, Kotlin, Swift) answers all of them in
// one process, and every verdict must equal the spec's and every other language's. A failure
// names the case and the language. Runs by `make drivers` (in `make test`), not in the main vitest
// run: it compiles the Kotlin, Swift and Rust packages. AGENT_CONTRACTS_DRIVER_PROJECTS (folders with
// spec/ and generated/, separated by ":") picks the projects; by default this repository.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RUNTIME_CONTRACT, type ContractId, type RuntimeLanguage } from "../../generators/emit/runtime-contract.js";
import { loadModel } from "../../generators/pipeline.js";
import { sharedCases, type DriverCase, type Verdict } from "./cases.js";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/**
 * For this repository, at least as many cases of each kind as the per-language suites the drivers
 * replaced read (Kotlin's ValidationExamplesTest 140 + 226, ValidationDifferentialTest 4595,
 * LifecyclePathsTest 530; Swift's ExampleTests, LifecycleTests and CanonicalJSONTests 15 JCS
 * vectors), so a case source that silently stops being read fails here.
 */
const REPOSITORY_FLOOR: Record<string, number> = { example: 140, "invalid-example": 226, mutation: 4595, lifecycle: 530, jcs: 15, rfc8785: 6, "es6-number": 10_000, "strict-json": 50, "fuzz-parse": 154, "fuzz-rfc3339": 19, "fuzz-validate": 1516, "fuzz-reproducer": 7, "hmac-verify": 33, "hmac-sign": 13, "content-id": 9, "approval-token": 22 };
const PROJECTS = (process.env["AGENT_CONTRACTS_DRIVER_PROJECTS"] ?? ROOT).split(":").filter((p) => p !== "");
/**
 * AGENT_CONTRACTS_DRIVER_FULL=1 (make examples): each language's own suites run in the same build
 * as its driver (Maven `test`, swift-test.sh's whole run), so an example costs one Maven run and
 * one Swift build. Without it the drivers only (make test runs the suites by make kotlin/swift).
 */
const FULL = process.env["AGENT_CONTRACTS_DRIVER_FULL"] === "1";

interface Answers {
  language: string;
  verdicts: Map<string, Verdict>;
  /** The cases this language was not given, since its runtime lacks a function they call (casesFor). */
  notAsked?: ReadonlySet<string>;
}

/** The runtime-contract functions a case kind calls, where a runtime may lack them (the contract's null). */
const KIND_NEEDS: Partial<Record<DriverCase["kind"], readonly ContractId[]>> = { "approval-token": ["approvalDecode", "approvalVerify"] };

/**
 * The cases `language`'s driver is given: every case but those of a kind that calls a function its
 * runtime does not offer (generators/emit/runtime-contract.ts), with one line saying which and why.
 */
export function casesFor(language: RuntimeLanguage, cases: readonly DriverCase[]): { asked: DriverCase[]; notAsked: Set<string>; why: string[] } {
  const lacks = (kind: DriverCase["kind"]) => (KIND_NEEDS[kind] ?? []).filter((id) => RUNTIME_CONTRACT.find((e) => e.id === id)![language] === null);
  const asked: DriverCase[] = [];
  const notAsked = new Set<string>();
  const why = new Map<string, string>();
  for (const c of cases) {
    const missing = lacks(c.kind);
    if (missing.length === 0) asked.push(c);
    else {
      notAsked.add(c.id);
      why.set(c.kind, `its runtime offers no ${missing.map((id) => RUNTIME_CONTRACT.find((e) => e.id === id)!.name).join(", ")}`);
    }
  }
  return { asked, notAsked, why: [...why].map(([kind, reason]) => `${language}: not asked the ${[...notAsked].filter((id) => id.startsWith(`${kind} `)).length} ${kind} cases: ${reason} (generators/emit/runtime-contract.ts)`) };
}

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  const r = spawnSync(command, args, { encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  process.stdout.write(r.stdout.split("\n").filter((l) => /^(kotlin|swift)|Executed|skipped/.test(l)).join("\n"));
}

function read(file: string, language: string): Answers {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { language: string; verdicts: { id: string; verdict: Verdict }[] };
  if (parsed.language !== language) throw new Error(`${file}: written by the ${parsed.language} driver, expected ${language}`);
  const verdicts = new Map<string, Verdict>();
  for (const v of parsed.verdicts) {
    if (verdicts.has(v.id)) throw new Error(`${language} driver answered ${v.id} twice`);
    verdicts.set(v.id, v.verdict);
  }
  return { language, verdicts };
}

/** Each driver's answers, or a line saying why the Swift or Rust driver could not run here (never on CI: SWIFT_REQUIRE=1, RUST_REQUIRE=1). */
function runDrivers(project: string, casesFile: string, scratch: string): Answers[] {
  const answers: Answers[] = [];
  const tsOut = join(scratch, "ts.json");
  run("node", [join(ROOT, "property-tests/drivers/ts-driver.mjs"), join(project, "generated/ts"), casesFile, tsOut]);
  answers.push(read(tsOut, "ts"));

  const kotlinOut = join(scratch, "kotlin.json");
  run("bash", [join(ROOT, "generators/targets/kotlin/toolchain/driver.sh"), join(project, "generated/kotlin"), casesFile, kotlinOut], FULL ? { DRIVER_MAVEN_GOAL: "test" } : {});
  answers.push(read(kotlinOut, "kotlin"));

  // The Swift build runs with the package folder as its working folder (in the Debian root, the
  // package is the only folder bind-mounted in), so the case and verdict files live in its .build.
  const swiftPackage = join(project, "generated/swift");
  const swiftScratch = join(swiftPackage, ".build/shared-cases");
  mkdirSync(swiftScratch, { recursive: true });
  writeFileSync(join(swiftScratch, "cases.json"), readFileSync(casesFile));
  rmSync(join(swiftScratch, "verdicts.json"), { force: true });
  const files = `AGENT_CONTRACTS_DRIVER_CASES=${swiftScratch}/cases.json AGENT_CONTRACTS_DRIVER_VERDICTS=${swiftScratch}/verdicts.json`;
  // FULL: swift-test.sh's whole build and test run (library strict, every test), the driver among them.
  const swiftEnv = FULL ? { SWIFT_TEST_ENV: files } : { SWIFT_COMMAND: `swift build --build-tests && env ${files} swift test --skip-build --filter SharedCaseDriverTests` };
  const r = spawnSync("bash", [join(ROOT, "generators/targets/swift/toolchain/swift-test.sh"), swiftPackage], { encoding: "utf8", env: { ...process.env, ...swiftEnv, SWIFT_CONSUMER: "0" }, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`swift-test.sh exited ${r.status}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  const skipped = /^Swift suite skipped: (.*)$/m.exec(r.stdout);
  if (skipped !== null) console.log(`Swift driver skipped: ${skipped[1]}`);
  else answers.push(read(join(swiftScratch, "verdicts.json"), "swift"));

  // FULL: the crate's whole cargo-test.sh run (build, clippy -D warnings, every test) first.
  const rustOut = join(scratch, "rust.json");
  const rustCases = casesFor("rust", (JSON.parse(readFileSync(casesFile, "utf8")) as { cases: DriverCase[] }).cases);
  for (const line of rustCases.why) console.log(line);
  const rustCasesFile = join(scratch, "rust-cases.json");
  writeFileSync(rustCasesFile, JSON.stringify({ cases: rustCases.asked }));
  const rust = spawnSync("bash", [join(ROOT, "generators/targets/rust/toolchain/driver.sh"), join(project, "generated/rust"), rustCasesFile, rustOut], { encoding: "utf8", env: { ...process.env, ...(FULL ? { DRIVER_FULL: "1" } : {}) }, maxBuffer: 256 * 1024 * 1024 });
  if (rust.status !== 0) throw new Error(`rust driver.sh exited ${rust.status}:\n${rust.stdout.slice(-4000)}\n${rust.stderr.slice(-4000)}`);
  const rustSkipped = /^Rust driver skipped: (.*)$/m.exec(rust.stdout);
  if (rustSkipped !== null) console.log(rustSkipped[0]);
  else answers.push({ ...read(rustOut, "rust"), notAsked: rustCases.notAsked });
  return answers;
}

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
