// The JSON-Schema-Test-Suite (draft 2020-12, required) through the validators `generate` makes,
// not the interpreters: suite-project.ts turns each test group into a message of a spec project,
// this test generates it into a temporary folder and runs every test of every expressed group
// through the generated TypeScript package with the shared-case driver (property-tests/drivers/
// ts-driver.mjs, the same one `make drivers` runs). The expected verdict is the suite's. The groups
// the project cannot express are listed in generated-suite.json with their reasons, and that list
// must be what the builder gives now, so a generator change that expresses more (or fewer) groups
// shows up in review. `suite-project-drivers.ts` runs the same cases through the Kotlin, Swift and
// Rust drivers (`make suite-generated`) and records their counts in the same file.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { suiteCases, type SuiteCase, writeCheckedSuiteProject, type Unexpressed } from "./suite-project.js";
import { suiteDisagreements } from "./suite-verdicts.js";

const ROOT = resolve(import.meta.dirname, "../..");
const RECORD = join(import.meta.dirname, "generated-suite.json");

interface Recorded {
  expressed: { groups: number; tests: number };
  unexpressed: Unexpressed[];
  languages: Record<string, { cases: number; agree: number; disagree: string[] }>;
}

describe("JSON-Schema-Test-Suite on the generated validators", () => {
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-suite-project-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const recorded = JSON.parse(readFileSync(RECORD, "utf8")) as Recorded;

  it("a verdict that differs from the suite's, or is missing or an error, is named", () => {
    const cases: SuiteCase[] = [
      { id: "a", kind: "validate", protocol: "p", message: "M", instance: {}, valid: true },
      { id: "b", kind: "validate", protocol: "p", message: "M", instance: {}, valid: false },
      { id: "c", kind: "validate", protocol: "p", message: "M", instance: {}, valid: false },
      { id: "d", kind: "validate", protocol: "p", message: "M", instance: {}, valid: true },
    ];
    const lines = suiteDisagreements(cases, new Map([["a", "/value type"], ["b", "/value minimum"], ["d", "error: boom"]]));
    expect(lines).toEqual(["a: /value type, the suite says valid", "c: no verdict", "d: error: boom"]);
  });

  it("generates the suite project and every generated TypeScript validator gives the suite's verdict", async () => {
    const { messages, unexpressed } = await writeCheckedSuiteProject(work);
    const cases = suiteCases(messages);
    // What the project expresses, and why the rest is left out, is the recorded list.
    expect({ groups: messages.length, tests: cases.length }).toEqual(recorded.expressed);
    expect(unexpressed).toEqual(recorded.unexpressed);

    const generate = spawnSync(process.execPath, [join(ROOT, "bin/agent-contracts.mjs"), "generate", "--spec", work], { encoding: "utf8" });
    expect(generate.status, generate.stderr).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
    const casesFile = join(work, "cases.json");
    const verdictsFile = join(work, "ts.json");
    writeFileSync(casesFile, JSON.stringify({ cases: cases.map(({ valid: _valid, ...c }) => c) }));
    const driver = spawnSync(process.execPath, [join(ROOT, "property-tests/drivers/ts-driver.mjs"), join(work, "generated/ts"), casesFile, verdictsFile], { encoding: "utf8" });
    expect(driver.status, driver.stderr).toBe(0);
    const answers = JSON.parse(readFileSync(verdictsFile, "utf8")) as { verdicts: { id: string; verdict: string }[] };
    const lines = suiteDisagreements(cases, new Map(answers.verdicts.map((v) => [v.id, v.verdict])));
    console.log(`JSON-Schema-Test-Suite on generated TypeScript: ${cases.length - lines.length} of ${cases.length} tests of ${messages.length} groups agree; ${unexpressed.length} groups not expressed`);
    expect(lines).toEqual(recorded.languages["ts"]?.disagree ?? []);
    expect(cases.length - lines.length).toBe(recorded.languages["ts"]?.agree);
  }, 600_000);
});
