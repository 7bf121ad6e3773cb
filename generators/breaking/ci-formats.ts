// `breaking --format github|sarif` (issue 35): every change at its file:line:col in the forms CI
// renders. GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub
// Actions": `::error file=F,line=L,col=C,title=T::message`) and a SARIF 2.1.0 log (OASIS SARIF
// 2.1.0: version, runs[].tool.driver.rules, results[] with ruleId, level, message.text and a
// physicalLocation region). A breaking finding is an error; a waived finding, a compatible change
// and a documentation change are notes, so the exit code (breaking only) and the levels agree.
// Helper mock's generators/cli/report-formats.ts does the same for lint, validate and conformance;
// the two meet at merge.
import type { Change } from "./changes.js";
import { CHANGE_KINDS } from "./changes.js";
import type { Finding } from "./finding.js";
import { RULES_BY_ID } from "./rules.js";

export const CI_FORMATS = ["github", "sarif"] as const;
export type CiFormat = (typeof CI_FORMATS)[number];

interface Located {
  ruleId: string;
  level: "error" | "note";
  file: string;
  line: number;
  column: number;
  message: string;
}

function located(findings: Finding[], changes: Change[]): Located[] {
  return [
    ...findings.map((f) => ({
      ruleId: f.rule,
      level: f.status === "breaking" ? ("error" as const) : ("note" as const),
      ...f.at,
      message: `${f.message}${f.status === "breaking" ? "" : ` (${f.status}: ${f.reason ?? ""})`}`,
    })),
    ...changes.map((c) => ({ ruleId: c.kind, level: "note" as const, ...c.at, message: `${c.severity}: ${c.message}` })),
  ];
}

// Workflow-command escaping: data escapes %, CR, LF; a property value also ":" and ",".
const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export function githubLines(findings: Finding[], changes: Change[]): string[] {
  return located(findings, changes).map((l) => `::${l.level === "error" ? "error" : "notice"} file=${property(l.file)},line=${l.line},col=${l.column},title=${property(l.ruleId)}::${data(l.message)}`);
}

export function sarifLog(findings: Finding[], changes: Change[], version: string): object {
  const all = located(findings, changes);
  const ids = [...new Set(all.map((l) => l.ruleId))].sort();
  const describe = (id: string) => RULES_BY_ID.get(id)?.purpose ?? CHANGE_KINDS[id as keyof typeof CHANGE_KINDS] ?? id;
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "agent-contracts breaking", version, informationUri: "https://agent-contracts.dev/breaking-rules.html", rules: ids.map((id) => ({ id, shortDescription: { text: describe(id) } })) } },
        results: all.map((l) => ({
          ruleId: l.ruleId,
          ruleIndex: ids.indexOf(l.ruleId),
          level: l.level,
          message: { text: l.message },
          locations: [{ physicalLocation: { artifactLocation: { uri: l.file.split("/").map(encodeURIComponent).join("/") }, region: { startLine: Math.max(1, l.line), startColumn: Math.max(1, l.column) } } }],
        })),
      },
    ],
  };
}
