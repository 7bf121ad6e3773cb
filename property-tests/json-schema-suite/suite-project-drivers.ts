// `make suite-generated`: the JSON-Schema-Test-Suite project (suite-project.ts) generated into a
// temporary folder, and every expressed test run through the generated TypeScript, Kotlin, Swift
// and Rust packages by the shared-case drivers (property-tests/drivers/run-drivers.ts: one Maven
// compile, one Swift build, one cargo build). Writes each language's count of tests that get the
// suite's verdict, and the ones that do not, into generated-suite.json (`languages`), and exits 1
// when any test differs from the suite. A language whose toolchain is missing is reported by its
// driver's "skipped" line and left out of the file (CI sets SWIFT_REQUIRE=1 and RUST_REQUIRE=1).
//
//   node --import tsx property-tests/json-schema-suite/suite-project-drivers.ts [--keep]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runDrivers } from "../drivers/run-drivers.js";
import { suiteDisagreements } from "./suite-verdicts.js";
import { suiteCases, writeCheckedSuiteProject } from "./suite-project.js";

const HELP = `usage: node --import tsx property-tests/json-schema-suite/suite-project-drivers.ts [--keep]
  Generates the JSON-Schema-Test-Suite spec project into a temporary folder, runs its tests through
  every language's generated validators and records the counts in generated-suite.json.
  --keep   leave the temporary folder (its path is printed)`;

const ROOT = resolve(import.meta.dirname, "../..");
const RECORD = join(import.meta.dirname, "generated-suite.json");

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return 0;
  }
  const unknown = argv.filter((a) => a !== "--keep");
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]}\n${HELP}`);
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-suite-project-"));
  try {
    const { messages } = await writeCheckedSuiteProject(work);
    const cases = suiteCases(messages);
    const generate = spawnSync(process.execPath, [join(ROOT, "bin/agent-contracts.mjs"), "generate", "--spec", work], { encoding: "utf8", stdio: ["ignore", "inherit", "inherit"] });
    if (generate.status !== 0) throw new Error(`generate --spec ${work} exited ${generate.status}`);
    symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
    const casesFile = join(work, "cases.json");
    writeFileSync(casesFile, JSON.stringify({ cases: cases.map(({ valid: _valid, ...c }) => c) }));
    const answers = runDrivers(work, casesFile, work);
    const record = JSON.parse(readFileSync(RECORD, "utf8")) as { languages: Record<string, unknown> };
    let differing = 0;
    for (const a of answers) {
      const verdicts = new Map([...a.verdicts].map(([id, v]) => [id, typeof v === "string" ? v : JSON.stringify(v)]));
      const disagree = suiteDisagreements(cases, verdicts);
      differing += disagree.length;
      record.languages[a.language] = { cases: cases.length, agree: cases.length - disagree.length, disagree };
      console.log(`${a.language}: ${cases.length - disagree.length} of ${cases.length} tests of ${messages.length} groups get the suite's verdict`);
      for (const line of disagree) console.log(`  ${line}`);
    }
    writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
    return differing === 0 ? 0 : 1;
  } finally {
    if (argv.includes("--keep")) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
