// The report formats CI systems render, shared by every command that reports (lint, validate,
// conformance; breaking may call it too): GitHub Actions workflow commands (annotations), SARIF
// 2.1.0 and JUnit XML. A command hands over either findings (something wrong at file:line:col)
// or test results (named cases that passed, failed or were skipped); each format takes both, so
// findings become failed test cases in JUnit and failed tests become results in SARIF.
// Only the text on stdout changes with --format: exit codes stay the command's own.
import { UsageError, type Io } from "./io.js";

export const REPORT_FORMATS = ["text", "github", "sarif", "junit"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Something wrong at a place in a file. Lines and columns start at 1. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  /** The rule, lint or error code (SARIF ruleId, the annotation title, the JUnit failure type). */
  ruleId: string;
  level: "error" | "warning" | "note";
  message: string;
}

/** One named case. `file` and `line`, when known, say where the case is defined. */
export interface TestResult {
  suite: string;
  name: string;
  status: "pass" | "fail" | "skip";
  /** Why it failed or was skipped. */
  message?: string;
  /** The failure code (JUnit failure type, SARIF ruleId). */
  code?: string;
  file?: string;
  line?: number;
  timeMs?: number;
}

export type ReportInput =
  | { kind: "findings"; subject: string; findings: readonly Finding[]; /** SARIF rule descriptions by rule id (else "<subject>: <id>"). */ ruleDescriptions?: Readonly<Record<string, string>> }
  | { kind: "tests"; subject: string; tests: readonly TestResult[] };

export interface ToolInfo {
  name: string;
  version: string;
  informationUri?: string;
}

/** --format's value; `allowed` lists the formats the command offers. */
export function parseReportFormat(raw: string | true | undefined, allowed: readonly ReportFormat[] = REPORT_FORMATS): ReportFormat {
  if (raw === undefined) return "text";
  if (raw === true || !(allowed as readonly string[]).includes(raw)) throw new UsageError(`--format must be one of ${allowed.join(", ")}`);
  return raw as ReportFormat;
}

/** The report in `format` (not "text": each command prints its own text), ending with a newline. */
export function formatReport(format: Exclude<ReportFormat, "text">, input: ReportInput, tool: ToolInfo): string {
  if (format === "github") return githubAnnotations(input).map((l) => `${l}\n`).join("");
  if (format === "sarif") return `${JSON.stringify(sarifLog(input, tool), null, 2)}\n`;
  return junitXml(input);
}

/** Writes a report to stdout as it is (nothing for an empty one: no findings in github format). */
export function printReport(io: Pick<Io, "out">, report: string): void {
  if (report !== "") io.out(report.endsWith("\n") ? report.slice(0, -1) : report);
}

function asFindings(input: ReportInput): Finding[] {
  if (input.kind === "findings") return [...input.findings];
  return input.tests
    .filter((t) => t.status === "fail")
    .map((t) => ({ file: t.file ?? "", line: t.line ?? 1, column: 1, ruleId: t.code ?? "failed", level: "error" as const, message: `${t.name}: ${t.message ?? "failed"}` }));
}

function asTests(input: ReportInput): TestResult[] {
  if (input.kind === "tests") return [...input.tests];
  if (input.findings.length === 0) return [{ suite: input.subject, name: `${input.subject}: no findings`, status: "pass" }];
  return input.findings.map((f) => ({
    suite: input.subject,
    name: `${f.file}:${f.line}:${f.column} ${f.ruleId}`,
    status: f.level === "error" ? "fail" : "pass",
    message: f.message,
    code: f.ruleId,
    file: f.file,
    line: f.line,
  }));
}

// GitHub Actions workflow commands: "::error file=F,line=L,col=C,title=T::message". Data escapes
// %, CR and LF; property values also ":" and ",".
const escapeData = (s: string): string => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export function githubAnnotations(input: ReportInput): string[] {
  return asFindings(input).map((f) => {
    const where = f.file === "" ? [] : [`file=${escapeProperty(f.file)}`, `line=${f.line}`, `col=${f.column}`];
    const level = f.level === "note" ? "notice" : f.level;
    return `::${level} ${[...where, `title=${escapeProperty(f.ruleId)}`].join(",")}::${escapeData(f.message)}`;
  });
}

/** A file path as a relative URI reference (forward slashes, each segment percent-encoded). */
function uriOf(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join("/");
}

export function sarifLog(input: ReportInput, tool: ToolInfo): Record<string, unknown> {
  const findings = asFindings(input);
  const ruleIds = [...new Set(findings.map((f) => f.ruleId))].sort();
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            ...(tool.informationUri === undefined ? {} : { informationUri: tool.informationUri }),
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: (input.kind === "findings" ? input.ruleDescriptions?.[id] : undefined) ?? `${input.subject}: ${id}` } })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.ruleId,
          ruleIndex: ruleIds.indexOf(f.ruleId),
          level: f.level,
          message: { text: f.message },
          ...(f.file === ""
            ? {}
            : { locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(f.file) }, region: { startLine: Math.max(1, f.line), startColumn: Math.max(1, f.column) } } }] }),
        })),
      },
    ],
  };
}

/** Text as XML character data: markup escaped, characters XML 1.0 cannot carry written as \uXXXX. */
function xmlText(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

export function junitXml(input: ReportInput): string {
  const tests = asTests(input);
  const suites = new Map<string, TestResult[]>();
  for (const t of tests) suites.set(t.suite, [...(suites.get(t.suite) ?? []), t]);
  const count = (list: readonly TestResult[], status: TestResult["status"]): number => list.filter((t) => t.status === status).length;
  const total = (list: readonly TestResult[]): number => list.reduce((n, t) => n + (t.timeMs ?? 0), 0);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlText(input.subject)}" tests="${tests.length}" failures="${count(tests, "fail")}" errors="0" skipped="${count(tests, "skip")}" time="${seconds(total(tests))}">`,
  ];
  for (const [name, list] of suites) {
    lines.push(`  <testsuite name="${xmlText(name)}" tests="${list.length}" failures="${count(list, "fail")}" errors="0" skipped="${count(list, "skip")}" time="${seconds(total(list))}">`);
    for (const t of list) {
      const file = t.file === undefined ? "" : ` file="${xmlText(t.file)}"${t.line === undefined ? "" : ` line="${t.line}"`}`;
      const open = `    <testcase classname="${xmlText(t.suite)}" name="${xmlText(t.name)}" time="${seconds(t.timeMs)}"${file}`;
      if (t.status === "pass") lines.push(`${open}/>`);
      else if (t.status === "skip") lines.push(`${open}>`, `      <skipped message="${xmlText(t.message ?? "skipped")}"/>`, `    </testcase>`);
      else {
        const message = t.message ?? "failed";
        lines.push(`${open}>`, `      <failure message="${xmlText(message.split("\n")[0]!)}" type="${xmlText(t.code ?? "failure")}">${xmlText(message)}</failure>`, `    </testcase>`);
      }
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return `${lines.join("\n")}\n`;
}
