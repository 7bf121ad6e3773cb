// `breaking --format github|sarif` (issue 35): every change at its file:line:col, written by the
// report writers lint, validate and conformance share (generators/cli/report-formats.ts). A
// breaking finding is an error; a waived finding, a compatible change and a documentation change
// are notes, so the exit code (breaking only) and the levels agree.
import { formatReport, type Finding as ReportFinding, type ToolInfo } from "../cli/report-formats.js";
import type { Change } from "./changes.js";
import { CHANGE_KINDS } from "./changes.js";
import type { Finding } from "./finding.js";
import { RULES_BY_ID } from "./rules.js";

export const CI_FORMATS = ["github", "sarif"] as const;
export type CiFormat = (typeof CI_FORMATS)[number];

function located(findings: Finding[], changes: Change[]): ReportFinding[] {
  return [
    ...findings.map((f) => ({
      ruleId: f.rule,
      level: f.status === "breaking" ? ("error" as const) : ("note" as const),
      file: f.at.file,
      line: f.at.line,
      column: f.at.column,
      message: `${f.message}${f.status === "breaking" ? "" : ` (${f.status}: ${f.reason ?? ""})`}`,
    })),
    ...changes.map((c) => ({ ruleId: c.kind, level: "note" as const, file: c.at.file, line: c.at.line, column: c.at.column, message: `${c.severity}: ${c.message}` })),
  ];
}

/** The report in `format`, one string ending with a newline. */
export function breakingReport(format: CiFormat, findings: Finding[], changes: Change[], version: string): string {
  const all = located(findings, changes);
  const ruleDescriptions = Object.fromEntries(all.map((l) => [l.ruleId, RULES_BY_ID.get(l.ruleId)?.purpose ?? CHANGE_KINDS[l.ruleId as keyof typeof CHANGE_KINDS] ?? l.ruleId]));
  const tool: ToolInfo = { name: "agent-contracts breaking", version };
  return formatReport(format, { kind: "findings", subject: "breaking", findings: all, ruleDescriptions }, tool);
}

/** The GitHub workflow commands, one per change. */
export function githubLines(findings: Finding[], changes: Change[]): string[] {
  return breakingReport("github", findings, changes, "").trimEnd().split("\n").filter((l) => l !== "");
}
