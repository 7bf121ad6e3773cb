// Prints the mutation score per folder (and per file) from the last Stryker and PIT reports, and,
// with --survivors, the surviving mutants as lines in the format of survivors.md (reason left to
// write): tool, file:line:column (-end line:column for Stryker; PIT's bytecode index as the column), mutator, the replacement (JSON, whitespace folded, 80 chars). Score = detected (killed, timed out) / (detected + survived + no coverage), as Stryker
// counts it; PIT's report is counted the same way.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TS_REPORT = join(ROOT, "reports/mutation/ts/mutation.json");
const KOTLIN_REPORT = join(ROOT, "reports/mutation/kotlin/mutations.xml");
const KOTLIN_SOURCES = "generators/targets/kotlin/runtime";

/**
 * The report and the saved reports of earlier narrowed runs (<folder>/parts/*, which `make
 * mutation-ts` / `mutation-kotlin` copy there): a narrowed run reports only the files it mutated,
 * so the folders' scores are put together per file, the newest report of each file winning.
 */
function reportFiles(main) {
  const parts = join(dirname(main), "parts");
  const list = existsSync(parts) ? readdirSync(parts).filter((f) => f.endsWith(main.endsWith(".json") ? ".json" : ".xml")).map((f) => join(parts, f)) : [];
  if (existsSync(main)) list.push(main);
  return list.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/**
 * Keeps, for each file, the mutants of the last report (in `reports` order) that has any. A report
 * marked `patch` (a rerun of some lines only, MUTATE=file:line-line) instead updates the status of
 * the same mutants (place, mutator, replacement) in what came before.
 */
function newestPerFile(reports) {
  const byFile = new Map();
  const same = (a, b) => a.line === b.line && a.column === b.column && a.end === b.end && a.mutator === b.mutator && a.replacement === b.replacement;
  for (const { patch, mutants } of reports) {
    const files = new Map();
    for (const m of mutants) files.set(m.file, [...(files.get(m.file) ?? []), m]);
    for (const [file, list] of files) {
      if (!patch || !byFile.has(file)) byFile.set(file, list);
      else byFile.set(file, byFile.get(file).map((m) => list.find((p) => same(m, p)) ?? m));
    }
  }
  return [...byFile.values()].flat();
}

/** [{tool, file, line, column, mutator, status}] from whichever reports exist. */
export function readMutants() {
  const ts = reportFiles(TS_REPORT).map((path) => {
    const mutants = [];
    const patch = path.endsWith(".patch.json");
    const report = JSON.parse(readFileSync(path, "utf8"));
    for (const [file, { mutants: list }] of Object.entries(report.files)) {
      for (const m of list) {
        mutants.push({ tool: "ts", file, line: m.location.start.line, column: m.location.start.column, end: `${m.location.end.line}:${m.location.end.column}`, mutator: m.mutatorName, replacement: m.replacement ?? "", status: m.status });
      }
    }
    return { patch, mutants };
  });
  return [...newestPerFile(ts), ...newestPerFile(reportFiles(KOTLIN_REPORT).map((path) => ({ patch: false, mutants: readPit(path) })))];
}

function readPit(path) {
  const mutants = [];
  {
    const xml = readFileSync(path, "utf8");
    for (const [, attrs, body] of xml.matchAll(/<mutation ([^>]*)>([\s\S]*?)<\/mutation>/g)) {
      const tag = (name) => body.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1] ?? "";
      const status = attrs.match(/status='([A-Z_]+)'/)?.[1] ?? "";
      const mutator = tag("mutator").split(".").at(-1);
      mutants.push({
        tool: "kotlin",
        file: `${KOTLIN_SOURCES}/${tag("sourceFile")}`,
        // PIT numbers the lines of generated/kotlin's copy, which has one header line more.
        line: Number(tag("lineNumber")) - 1,
        // PIT names no column; its bytecode index tells apart mutants of one line and mutator.
        column: Number(tag("index") || 0),
        mutator: `${mutator}(${tag("mutatedMethod")})`,
        replacement: tag("description").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&").replaceAll("&#39;", "'").replaceAll("&quot;", '"'),
        status: { KILLED: "Killed", TIMED_OUT: "Timeout", SURVIVED: "Survived", NO_COVERAGE: "NoCoverage", MEMORY_ERROR: "Killed", RUN_ERROR: "RuntimeError" }[status] ?? status,
      });
    }
  }
  return mutants;
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

function score(list) {
  const detected = list.filter((m) => DETECTED.has(m.status)).length;
  const valid = detected + list.filter((m) => UNDETECTED.has(m.status)).length;
  return { detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
}

export function survivorLine(m) {
  const replacement = JSON.stringify(m.replacement.replace(/\s+/g, " ").slice(0, 80));
  return `- ${m.tool} ${m.file}:${m.line}:${m.column}${m.end ? `-${m.end}` : ""} ${m.mutator} ${replacement} ${m.status === "NoCoverage" ? "(no coverage) " : ""}— `;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mutants = readMutants();
  if (mutants.length === 0) {
    console.error("no mutation report: run `make mutation` first");
    process.exit(1);
  }
  if (process.argv.includes("--survivors")) {
    for (const m of mutants.filter((x) => UNDETECTED.has(x.status))) console.log(survivorLine(m));
  } else {
    const groups = new Map();
    for (const m of mutants) {
      for (const key of [`${m.tool} ${dirname(m.file)}/`, `${m.tool} ${m.file}`]) groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    console.log("mutation score (detected / valid mutants)");
    for (const [key, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const s = score(list);
      const folder = key.endsWith("/");
      console.log(`${folder ? "" : "  "}${s.score.toFixed(1).padStart(6)}%  ${String(s.detected).padStart(5)}/${String(s.valid).padEnd(5)} ${key}`);
    }
  }
}
