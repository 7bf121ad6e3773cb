// The mutation groups and their committed results: what run.mjs writes and summary.mjs and the
// tests read. A result is one JSON file per group with one mutant per line, so a rerun's diff shows
// which mutants changed status.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const GROUPS_DIR = join(ROOT, "property-tests/mutation/groups");
export const RESULTS_DIR = join(ROOT, "property-tests/mutation/results");
const KOTLIN_SOURCES = "generators/targets/kotlin/runtime";

const FIELDS = { stryker: ["mutate", "tests"], pit: ["sources", "classes", "tests"] };
// A Stryker `mutate` entry may name lines of a file (Stryker's mutation range, `path:from-to`), so a
// file too slow to mutate in one run is split into groups of its own lines.
const LINE_RANGE = /^(.+):(\d+)-(\d+)$/;

/** The file and the lines (1-based, inclusive; the whole file when no range) a `mutate` entry names. */
export function mutateRange(entry) {
  const m = LINE_RANGE.exec(entry);
  return m ? { path: m[1], from: Number(m[2]), to: Number(m[3]) } : { path: entry, from: 1, to: Infinity };
}

/** Every group file, checked: a known tool, non-empty lists, every named file present. */
export function loadGroups() {
  return readdirSync(GROUPS_DIR).filter((f) => f.endsWith(".json")).sort().map((f) => {
    const where = `property-tests/mutation/groups/${f}`;
    const group = JSON.parse(readFileSync(join(GROUPS_DIR, f), "utf8"));
    const fields = FIELDS[group.tool];
    if (!fields) throw new Error(`${where}: /tool must be "stryker" or "pit"`);
    const allowed = new Set(["tool", "note", ...fields, ...(group.tool === "stryker" ? ["timeoutMS"] : [])]);
    for (const key of Object.keys(group)) if (!allowed.has(key)) throw new Error(`${where}: unknown member "${key}"`);
    if (group.timeoutMS !== undefined && !(Number.isInteger(group.timeoutMS) && group.timeoutMS >= 1000)) throw new Error(`${where}: /timeoutMS must be an integer number of milliseconds, at least 1000`);
    for (const field of fields) {
      const list = group[field];
      if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === "string")) throw new Error(`${where}: /${field} must be a non-empty list of strings`);
      for (const [i, entry] of list.entries()) {
        if (field === "classes") continue;
        const { path, from, to } = field === "mutate" ? mutateRange(entry) : { path: entry, from: 1, to: Infinity };
        if (!existsSync(join(ROOT, path))) throw new Error(`${where}: /${field}/${i}: ${path} does not exist`);
        if (!(from >= 1 && from <= to)) throw new Error(`${where}: /${field}/${i}: lines ${from}-${to} are not a range`);
      }
    }
    const ranges = group.tool === "stryker" ? group.mutate.map(mutateRange) : group.sources.map((path) => ({ path, from: 1, to: Infinity }));
    return { ...group, name: f.replace(/\.json$/, ""), files: [...new Set(ranges.map((r) => r.path))], ranges };
  });
}

const sha256 = (path) => createHash("sha256").update(readFileSync(join(ROOT, path))).digest("hex");

/** The hashes a result is computed from: the mutated files and the test files. */
export function groupStamp(group) {
  const hashes = (list) => Object.fromEntries([...list].sort().map((p) => [p, sha256(p)]));
  return { sources: hashes(group.files), tests: hashes(group.tests) };
}

export function readResult(name) {
  const path = join(RESULTS_DIR, `${name}.json`);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

/** "missing", "stale" (a mutated or test file differs from the one recorded) or "current". */
export function resultState(group) {
  const result = readResult(group.name);
  if (result === undefined) return "missing";
  const stamp = groupStamp(group);
  return JSON.stringify({ sources: result.sources, tests: result.tests }) === JSON.stringify(stamp) ? "current" : "stale";
}

export function writeResult(group, stamp, mutants) {
  const lines = mutants
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.mutator < b.mutator ? -1 : 1)))
    .map((m) => `    ${JSON.stringify(m)}`);
  const head = { group: group.name, tool: group.tool, sources: stamp.sources, tests: stamp.tests };
  const text = `${JSON.stringify(head, null, 2).replace(/\n}$/, "")},\n  "mutants": [\n${lines.join(",\n")}\n  ]\n}\n`;
  writeFileSync(join(RESULTS_DIR, `${group.name}.json`), text);
}

/** Mutants of a Stryker JSON report (mutation-testing-report-schema). */
export function readStrykerReport(path) {
  const report = JSON.parse(readFileSync(path, "utf8"));
  const mutants = [];
  for (const [file, { mutants: list }] of Object.entries(report.files)) {
    for (const m of list) {
      const { start, end } = m.location;
      mutants.push({ tool: "ts", file, line: start.line, column: start.column, end: `${end.line}:${end.column}`, mutator: m.mutatorName, replacement: m.replacement ?? "", status: m.status });
    }
  }
  return mutants;
}

const PIT_STATUS = { KILLED: "Killed", TIMED_OUT: "Timeout", SURVIVED: "Survived", NO_COVERAGE: "NoCoverage", MEMORY_ERROR: "Killed", RUN_ERROR: "RuntimeError" };
const unescapeXml = (s) => s.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** Mutants of a PIT mutations.xml, named by the hand-written source under generators/. */
export function readPitReport(path) {
  const mutants = [];
  const xml = readFileSync(path, "utf8");
  for (const [, attrs, body] of xml.matchAll(/<mutation ([^>]*)>([\s\S]*?)<\/mutation>/g)) {
    const tag = (name) => body.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1] ?? "";
    const status = attrs.match(/status='([A-Z_]+)'/)?.[1] ?? "";
    if (!(status in PIT_STATUS)) throw new Error(`${path}: unknown PIT status "${status}"`);
    mutants.push({
      tool: "kotlin",
      file: `${KOTLIN_SOURCES}/${tag("sourceFile")}`,
      // PIT numbers the lines of generated/kotlin's copy, which has one header line more.
      line: Number(tag("lineNumber")) - 1,
      // PIT names no column; its bytecode index tells apart mutants of one line and mutator.
      column: Number(tag("index") || 0),
      mutator: `${tag("mutator").split(".").at(-1)}(${tag("mutatedMethod")})`,
      replacement: unescapeXml(tag("description")),
      status: PIT_STATUS[status],
    });
  }
  return mutants;
}

/** Every committed result's mutants, with the group each came from. */
export function readAllMutants() {
  if (!existsSync(RESULTS_DIR)) return [];
  return readdirSync(RESULTS_DIR).filter((f) => f.endsWith(".json")).sort().flatMap((f) => {
    const result = JSON.parse(readFileSync(join(RESULTS_DIR, f), "utf8"));
    return result.mutants.map((m) => ({ ...m, group: result.group }));
  });
}
