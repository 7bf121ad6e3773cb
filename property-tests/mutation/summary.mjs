// Prints the mutation score per folder (and per file) from the committed group results
// (property-tests/mutation/results/, written by run.mjs), and, with --survivors, the surviving
// mutants as lines in the format of survivors.md (reason left to write): tool, file:line:column
// (-end line:column for Stryker; PIT's bytecode index as the column), mutator, the replacement
// (JSON, whitespace folded, 80 chars). Score = detected (killed, timed out) / (detected + survived +
// no coverage), as Stryker counts it; PIT's report is counted the same way.
// --check exits non-zero when a score is under its goal (issue 16: TS runtime 90%, Kotlin runtime
// 85%; issue 41: generators/conformance, generators/lifecycles and generators/breaking 90%) or a group's result is
// missing or stale.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { loadGroups, readAllMutants, resultState } from "./results.mjs";

export const GOALS = {
  "ts generators/targets/ts/runtime/src/": 90,
  "kotlin generators/targets/kotlin/runtime/": 85,
  // Issue 41: the tools around the runtime, with the runtime's goal.
  "ts generators/conformance/": 90,
  "ts generators/lifecycles/": 90,
  "ts generators/breaking/": 90,
};
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** [{tool, file, line, column, end?, mutator, replacement, status, group}] of every result. */
export function readMutants() {
  return readAllMutants();
}

export function score(list) {
  const detected = list.filter((m) => DETECTED.has(m.status)).length;
  const valid = detected + list.filter((m) => UNDETECTED.has(m.status)).length;
  return { detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
}

export function survivorLine(m) {
  const replacement = JSON.stringify(m.replacement.replace(/\s+/g, " ").slice(0, 80));
  return `- ${m.tool} ${m.file}:${m.line}:${m.column}${m.end ? `-${m.end}` : ""} ${m.mutator} ${replacement} ${m.status === "NoCoverage" ? "(no coverage) " : ""}— `;
}

/** Score lines per folder and file, and the goals missed. */
export function scoreTable(mutants) {
  const groups = new Map();
  for (const m of mutants) {
    for (const key of [`${m.tool} ${dirname(m.file)}/`, `${m.tool} ${m.file}`]) groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const lines = [];
  const missed = [];
  for (const [key, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const s = score(list);
    const folder = key.endsWith("/");
    const goal = GOALS[key];
    if (goal !== undefined && s.score < goal) missed.push(`${key}: ${s.score.toFixed(1)}% < ${goal}%`);
    lines.push(`${folder ? "" : "  "}${s.score.toFixed(1).padStart(6)}%  ${String(s.detected).padStart(5)}/${String(s.valid).padEnd(5)} ${key}${goal !== undefined ? `   (goal ${goal}%)` : ""}`);
  }
  for (const key of Object.keys(GOALS)) if (!groups.has(key)) missed.push(`${key}: no result`);
  return { lines, missed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mutants = readMutants();
  if (process.argv.includes("--survivors")) {
    for (const m of mutants.filter((x) => UNDETECTED.has(x.status))) console.log(survivorLine(m));
  } else {
    const { lines, missed } = scoreTable(mutants);
    console.log("mutation score (detected / valid mutants)");
    for (const line of lines) console.log(line);
    const stale = loadGroups().map((g) => [g.name, resultState(g)]).filter(([, state]) => state !== "current");
    for (const [name, state] of stale) console.log(`group ${name}: result ${state} (run: node property-tests/mutation/run.mjs ${name})`);
    for (const line of missed) console.log(`goal missed: ${line}`);
    if (process.argv.includes("--check") && (missed.length > 0 || stale.length > 0)) process.exit(1);
  }
}
