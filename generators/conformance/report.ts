// The conformance result file (`conformance --report FILE`): one run of one implementation and
// version against one protocol's cases, with counts per category (the case file, `group`) and
// every case's outcome. The docs site's compatibility page reads a folder of them side by side,
// so the reader checks each file against REPORT_SCHEMA (and a size bound, before parsing) and
// names the file and JSON pointer of what is wrong.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { RunSummary } from "./runner.js";
import type { CaseStatus, LoadedSuite } from "./types.js";

export const REPORT_FORMAT = "agent-contracts conformance report 1";
/** Largest result file the reader accepts (a suite has hundreds of cases, not millions). */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface ConformanceReport {
  format: typeof REPORT_FORMAT;
  implementation: { name: string; version: string };
  protocol: string;
  specVersion: string;
  serverState: string;
  totals: Counts;
  /** By category (the case file's group), in the suite's file order. */
  categories: Record<string, Counts>;
  cases: { id: string; category: string; status: CaseStatus; code?: string; detail?: string }[];
}

const counts = { type: "object", additionalProperties: false, required: ["passed", "failed", "skipped"], properties: { passed: { type: "integer", minimum: 0 }, failed: { type: "integer", minimum: 0 }, skipped: { type: "integer", minimum: 0 } } };
const text = (max: number) => ({ type: "string", minLength: 1, maxLength: max });

export const REPORT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["format", "implementation", "protocol", "specVersion", "serverState", "totals", "categories", "cases"],
  properties: {
    format: { const: REPORT_FORMAT },
    implementation: { type: "object", additionalProperties: false, required: ["name", "version"], properties: { name: text(100), version: text(100) } },
    protocol: text(100),
    specVersion: text(100),
    serverState: text(100),
    totals: counts,
    categories: { type: "object", maxProperties: 1000, additionalProperties: counts },
    cases: {
      type: "array",
      maxItems: 100000,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "category", "status"],
        properties: { id: text(200), category: text(200), status: { enum: ["pass", "fail", "skip"] }, code: text(100), detail: { type: "string", maxLength: 10000 } },
      },
    },
  },
} as const;

export function conformanceReport(
  suite: LoadedSuite,
  summary: RunSummary,
  about: { implementation: string; implementationVersion: string; serverState: string; specVersion: string },
): ConformanceReport {
  const categories: Record<string, Counts> = {};
  for (const f of suite.files) categories[f.file.group] ??= { passed: 0, failed: 0, skipped: 0 };
  for (const r of summary.results) {
    const c = (categories[r.group] ??= { passed: 0, failed: 0, skipped: 0 });
    if (r.status === "pass") c.passed++;
    else if (r.status === "fail") c.failed++;
    else c.skipped++;
  }
  // Categories none of whose cases ran (--tags, --case) are left out rather than shown as 0/0/0.
  for (const [name, c] of Object.entries(categories)) if (c.passed + c.failed + c.skipped === 0) delete categories[name];
  return {
    format: REPORT_FORMAT,
    implementation: { name: about.implementation, version: about.implementationVersion },
    protocol: suite.protocol,
    specVersion: about.specVersion,
    serverState: about.serverState,
    totals: { passed: summary.passed, failed: summary.failed, skipped: summary.skipped },
    categories,
    cases: summary.results.map((r) => ({
      id: r.id,
      category: r.group,
      status: r.status,
      ...(r.code === undefined ? {} : { code: r.code }),
      ...(r.detail === undefined ? {} : { detail: r.detail.slice(0, 10000) }),
    })),
  };
}

/** Writes the report (relative paths from `cwd`) through a temporary file, so a reader never sees half of one. */
export function writeReportFile(path: string, report: ConformanceReport, cwd: string): void {
  const target = resolve(cwd, path);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(temporary, target);
}

/** A result file that cannot be shown, with the file and the JSON pointer of the problem. */
export class ReportFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    detail: string,
  ) {
    super(`${file} ${pointer || "/"} ${detail}`);
  }
}

let validateReport: ReturnType<Ajv2020["compile"]> | undefined;

export function readReportFile(path: string, shownAs: string = path): ConformanceReport {
  const size = statSync(path).size;
  if (size > MAX_REPORT_BYTES) throw new ReportFileError(shownAs, "", `report-too-large: ${size} bytes, the limit is ${MAX_REPORT_BYTES}`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ReportFileError(shownAs, "", `not JSON: ${(error as Error).message}`);
  }
  validateReport ??= new Ajv2020({ strict: true }).compile(REPORT_SCHEMA);
  if (!validateReport(value)) {
    const e = validateReport.errors![0]!;
    throw new ReportFileError(shownAs, e.instancePath, `not a conformance report: ${e.message ?? "invalid"}`);
  }
  const report = value as ConformanceReport;
  const sum = (c: Counts): number => c.passed + c.failed + c.skipped;
  const categoryTotal = Object.values(report.categories).reduce((n, c) => n + sum(c), 0);
  if (categoryTotal !== sum(report.totals) || report.cases.length !== sum(report.totals)) {
    throw new ReportFileError(shownAs, "/totals", `the totals (${sum(report.totals)}) disagree with the categories (${categoryTotal}) or the cases (${report.cases.length})`);
  }
  return report;
}
