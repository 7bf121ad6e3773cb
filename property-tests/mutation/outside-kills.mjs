// Checks "killed outside the group" claims mechanically: applies each surviving mutant of a group's
// Stryker report to its source file, runs the named test files (not in the group's list, so the
// group's result stays current), and prints which of them fail. The file is restored after every
// mutant, also when a run is interrupted. Used while a group's survivors are reviewed, before the
// group is rerun with the new tests in its list.
//
// Usage: node property-tests/mutation/outside-kills.mjs --group <name> --test <file>[,<file>...]
//          [--file <source>] [--lines <from>-<to>] [--lock <path>]
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { survivorLine } from "./summary.mjs";
import { ROOT } from "./results.mjs";

const HELP = `usage: node property-tests/mutation/outside-kills.mjs --group <name> --test <file>[,<file>...] [--file <source>] [--lines <from>-<to>] [--lock <path>]
  For each mutant that survived in reports/mutation/<name>/mutation.json (of --file only, when given),
  applies it to the source, runs vitest on the test files and prints "killed" or "survived" with the
  mutant's survivors.md key. Refuses when a source differs from the one the report was made from.
  --lines  only mutants that start on these lines of the source
  --lock   run each mutant under flock(1) on this path (other processes that import the sources use it too)`;

function parseArgs(argv) {
  const args = { tests: [], file: undefined, group: undefined, lock: undefined, one: undefined, lines: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") return { help: true };
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value\n${HELP}`);
    if (a === "--group") args.group = value;
    else if (a === "--test") args.tests.push(...value.split(","));
    else if (a === "--file") args.file = value;
    else if (a === "--lock") args.lock = value;
    else if (a === "--lines") args.lines = /^(\d+)-(\d+)$/.exec(value)?.slice(1).map(Number) ?? (() => { throw new Error(`--lines takes from-to, not ${value}`); })();
    else if (a === "--one") args.one = value; // internal: one mutant, already under the lock
    else throw new Error(`unknown option ${a}\n${HELP}`);
  }
  if (!args.group || args.tests.length === 0) throw new Error(`--group and --test are required\n${HELP}`);
  return args;
}

/** Offset of a 1-based line and column in text. */
function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) throw new Error(`line ${line} is past the end of the file`);
    offset = next + 1;
  }
  return offset + column - 1;
}

// Stryker replaces a node of the syntax tree, so an operator's replacement keeps its grouping:
// `a === "" && b && c` with `a === "" && b` mutated is `(a === "" || b) && c`. Spliced as text,
// the replacement needs the brackets the tree gave it. (A switch case, "default:", is no expression.)
const EXPRESSION_MUTATORS = new Set(["LogicalOperator", "EqualityOperator", "ArithmeticOperator", "ConditionalExpression", "MethodExpression"]);

export function applyMutant(source, mutant) {
  const from = offsetOf(source, mutant.location.start);
  const to = offsetOf(source, mutant.location.end);
  const grouped = EXPRESSION_MUTATORS.has(mutant.mutatorName) && !mutant.replacement.endsWith(":");
  return source.slice(0, from) + (grouped ? `(${mutant.replacement})` : mutant.replacement) + source.slice(to);
}

function runTests(tests) {
  const r = spawnSync(join(ROOT, "node_modules/.bin/vitest"), ["run", ...tests, "--bail=1", "--reporter=dot"], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
  return verdictOf(r);
}

/**
 * A mutant is killed only when vitest ran and reported a failed test or suite. A run cut off by
 * the deadline or a signal decides nothing: on a loaded machine a slow run once read as a kill.
 */
export function verdictOf({ status, signal, error, stdout = "", stderr = "" }) {
  if (status === 0) return "survived";
  // eslint-disable-next-line no-control-regex -- vitest colours its summary when FORCE_COLOR is set.
  const output = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  if (status === 1 && /\b(Test Files|Tests)\b[^\n]*\b\d+ failed\b/.test(output)) return "killed";
  throw new Error(`undecided: vitest ended with ${error ? `${error.message}` : signal ? `signal ${signal}` : `status ${status}`} and no failed test in its report`);
}

/** Applies one mutant, runs the tests, restores the file; under flock(1) when a lock is named. */
function runMutant(args, file, id) {
  if (args.lock !== undefined && args.one === undefined) {
    const self = ["node", process.argv[1], "--group", args.group, "--test", args.tests.join(","), "--file", file, "--one", id];
    const r = spawnSync("flock", [args.lock, ...self], { cwd: ROOT, encoding: "utf8", timeout: 900_000 });
    const verdict = /^(killed|survived)$/m.exec(r.stdout ?? "")?.[1];
    if (verdict === undefined) throw new Error(`mutant ${id} of ${file}: ${r.stderr || r.error}`);
    return verdict;
  }
  const path = join(ROOT, file);
  const { source, mutants } = readReport(args.group).files[file];
  const m = mutants.find((x) => x.id === id);
  const restore = () => writeFileSync(path, source);
  process.once("SIGINT", () => (restore(), process.exit(130)));
  try {
    writeFileSync(path, applyMutant(source, m));
    return runTests(args.tests);
  } finally {
    restore();
  }
}

const readReport = (group) => JSON.parse(readFileSync(join(ROOT, "reports/mutation", group, "mutation.json"), "utf8"));

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) return console.log(HELP);
  if (args.one !== undefined) return console.log(runMutant(args, args.file, args.one));
  for (const [file, { source, mutants }] of Object.entries(readReport(args.group).files)) {
    if (args.file !== undefined && file !== args.file) continue;
    if (readFileSync(join(ROOT, file), "utf8") !== source) throw new Error(`${file} differs from the source the report was made from`);
    const inLines = (m) => args.lines === undefined || (m.location.start.line >= args.lines[0] && m.location.start.line <= args.lines[1]);
    for (const m of mutants.filter((x) => (x.status === "Survived" || x.status === "NoCoverage") && inLines(x))) {
      const { start, end } = m.location;
      const key = survivorLine({ tool: "ts", file, line: start.line, column: start.column, end: `${end.line}:${end.column}`, mutator: m.mutatorName, replacement: m.replacement ?? "", status: m.status }).replace(/ — $/, "");
      console.log(`${runMutant(args, file, m.id)} ${key}`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
