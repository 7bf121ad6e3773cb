// Runs every language's shared-case driver (README.md beside this file) on one case file of one
// project: TypeScript, Kotlin (one JVM), Swift (one XCTest process) and Rust (one process). Used by
// drivers.test.ts (make drivers, make examples) and by the JSON-Schema-Test-Suite project
// (property-tests/json-schema-suite/suite-project-drivers.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RUNTIME_CONTRACT, type ContractId, type RuntimeLanguage } from "../../generators/emit/runtime-contract.js";
import type { DriverCase, Verdict } from "./cases.js";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/**
 * AGENT_CONTRACTS_DRIVER_FULL=1 (make examples): each language's own suites run in the same build
 * as its driver (Maven `test`, swift-test.sh's whole run), so an example costs one Maven run and
 * one Swift build. Without it the drivers only (make test runs the suites by make kotlin/swift).
 */
const FULL = process.env["AGENT_CONTRACTS_DRIVER_FULL"] === "1";

export interface Answers {
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
export function runDrivers(project: string, casesFile: string, scratch: string): Answers[] {
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

