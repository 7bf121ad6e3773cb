// `make mutation`: runs the mutation groups (property-tests/mutation/groups/*.json) whose committed
// results are stale, and writes each group's result to property-tests/mutation/results/<group>.json.
//
// A group names the files it mutates and the tests that may kill their mutants:
//   {"tool": "stryker", "mutate": [".../strict-json.ts"], "tests": ["property-tests/.../x.test.ts"]}
//   {"tool": "pit", "sources": [".../Semver.kt"], "classes": ["dev.agentcontracts.runtime.Semver*"],
//    "tests": ["generators/targets/kotlin/tests/SemverTest.kt"]}
// A result records the SHA-256 of every mutated file and test file it was computed from, so a fresh
// clone knows which results still describe its sources, and reruns only the groups that changed
// (Stryker also keeps its incremental file under reports/, which makes a rerun of a group cheap).
//
// Usage: node property-tests/mutation/run.mjs [--all] [--tool stryker|pit] [--list] [group ...]
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GROUPS_DIR, ROOT, groupStamp, loadGroups, readPitReport, readResult, readStrykerReport, resultState, writeResult } from "./results.mjs";

const HELP = `usage: node property-tests/mutation/run.mjs [--all] [--tool stryker|pit] [--list] [group ...]
  Runs each mutation group whose result in property-tests/mutation/results/ is missing or stale
  (a mutated file or a test file changed since), then writes the result. Commit the results.
  --all      rerun every selected group, stale or not (Stryker still reuses reports/ incremental data)
  --force    with --all: Stryker retests every mutant (no incremental reuse)
  --tool T   only groups of tool T
  --list     print each group and whether its result is current, run nothing`;

function parseArgs(argv) {
  const args = { all: false, force: false, list: false, tool: undefined, names: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") return { help: true };
    else if (a === "--all") args.all = true;
    else if (a === "--force") args.force = true;
    else if (a === "--list") args.list = true;
    else if (a === "--tool") args.tool = argv[++i];
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}\n${HELP}`);
    else args.names.push(a);
  }
  if (args.tool !== undefined && args.tool !== "stryker" && args.tool !== "pit") throw new Error(`--tool must be stryker or pit, not ${args.tool}`);
  return args;
}

function run(command, args, env) {
  console.log(`$ ${[command, ...args].join(" ")}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${command} exited with ${r.status ?? r.signal}`);
}

function runStryker(group, force) {
  const out = `reports/mutation/${group.name}`;
  run("nice", ["npx", "stryker", "run", "property-tests/mutation/stryker.config.mjs", ...(force ? ["--force"] : [])], {
    MUTATE: group.mutate.join(","),
    MUTATION_TESTS: group.tests.join(","),
    STRYKER_OUT: out,
    ...(group.timeoutMS !== undefined ? { STRYKER_TIMEOUT_MS: String(group.timeoutMS) } : {}),
  });
  return readStrykerReport(join(ROOT, out, "mutation.json"));
}

function runPit(group) {
  const classOf = (path) => {
    const pkg = /^package\s+([\w.]+)/m.exec(readFileSync(join(ROOT, path), "utf8"))?.[1];
    if (!pkg) throw new Error(`${path}: no package line`);
    return `${pkg}.${path.split("/").at(-1).replace(/\.kt$/, "")}`;
  };
  run("nice", ["mvn", "-B", "-ntp", "-f", "generated/kotlin/pom.xml", "-P", "mutation", "-Dkotlin.compiler.incremental=true", "test-compile", "org.pitest:pitest-maven:mutationCoverage",
    `-DtargetClasses=${group.classes.join(",")}`, `-DtargetTests=${group.tests.map(classOf).join(",")}`]);
  const report = join(ROOT, "reports/mutation/kotlin/mutations.xml");
  mkdirSync(join(ROOT, "reports/mutation/kotlin/groups"), { recursive: true });
  copyFileSync(report, join(ROOT, `reports/mutation/kotlin/groups/${group.name}.xml`));
  const mutants = readPitReport(report);
  const outside = mutants.filter((m) => !group.sources.includes(m.file));
  if (outside.length > 0) throw new Error(`group ${group.name}: PIT mutated ${outside[0].file}, which the group's "sources" do not list`);
  return mutants;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) return console.log(HELP);
  let groups = loadGroups();
  const unknown = args.names.filter((n) => !groups.some((g) => g.name === n));
  if (unknown.length > 0) throw new Error(`no mutation group ${unknown.join(", ")} in ${GROUPS_DIR} (known: ${groups.map((g) => g.name).join(", ")})`);
  if (args.names.length > 0) groups = groups.filter((g) => args.names.includes(g.name));
  if (args.tool) groups = groups.filter((g) => g.tool === args.tool);
  for (const group of groups) {
    const state = resultState(group);
    if (args.list) {
      console.log(`${state.padEnd(8)} ${group.tool.padEnd(7)} ${group.name}`);
      continue;
    }
    if (state === "current" && !args.all) {
      console.log(`mutation group ${group.name}: current, not rerun`);
      continue;
    }
    const stamp = groupStamp(group);
    // Stryker's vitest runner reports no test locations, so its incremental mode cannot see a
    // changed test: a group whose tests changed is retested in full, and so is a group with no
    // result yet (its incremental file, if any, is from a run whose tests nobody recorded).
    const previous = readResult(group.name);
    const testsChanged = previous === undefined || JSON.stringify(previous.tests) !== JSON.stringify(stamp.tests);
    const mutants = group.tool === "stryker" ? runStryker(group, args.force || testsChanged) : runPit(group);
    // A file edited while its group ran would be recorded with a stamp its mutants do not describe.
    if (JSON.stringify(groupStamp(group)) !== JSON.stringify(stamp)) throw new Error(`group ${group.name}: a source or test file changed during the run; run it again`);
    writeResult(group, stamp, mutants);
    console.log(`mutation group ${group.name}: ${mutants.length} mutants written`);
  }
}

try {
  if (!existsSync(GROUPS_DIR)) throw new Error(`${GROUPS_DIR} is missing`);
  main();
} catch (error) {
  console.error(`mutation: ${error.message}`);
  process.exit(1);
}
