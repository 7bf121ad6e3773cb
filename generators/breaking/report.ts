// Text and JSON renderings of a comparison. One line per finding or change:
// `file:line:col pointer [RULE_ID] (severity) message`, then a one-line summary. The severity is
// `breaking` for every finding (its status says when it is waived), `compatible` or
// `documentation` for a change that breaks no one.
import type { Change } from "./changes.js";
import type { Finding, Position } from "./finding.js";
import { CATEGORIES, RULES, CATEGORY_PURPOSE } from "./rules.js";

const where = (p: Position) => `${p.file}:${p.line}:${p.column} ${p.pointer === "" ? "/" : p.pointer}`;

export function findingLine(f: Finding): string {
  const moved = f.old && (f.old.file !== f.at.file || f.old.pointer !== f.at.pointer);
  const old = f.old && moved && (f.removed || f.old.file !== f.at.file) ? ` (was at ${where(f.old)})` : "";
  const status = f.status === "breaking" ? "" : ` {${f.status}: ${f.reason ?? ""}}`;
  return `${where(f.at)} [${f.rule}] (breaking) ${f.message}${old}${status}`;
}

export function changeLine(c: Change): string {
  return `${where(c.at)} [${c.kind}] (${c.severity}) ${c.message}`;
}

function changeSummary(changes: Change[]): string {
  const compatible = changes.filter((c) => c.severity === "compatible").length;
  return `changes: ${compatible} compatible, ${changes.length - compatible} documentation`;
}

export function witnessLine(f: Finding): string | undefined {
  if (f.category !== "WIRE") return undefined;
  if (!f.witness) return "    witness: none found (the difference is reported without a concrete instance)";
  const other = f.witness.acceptedBy === "old" ? "new" : "old";
  return `    witness (${f.witness.acceptedBy} accepts, ${other} rejects): ${JSON.stringify(f.witness.instance)}`;
}

export function summarize(findings: Finding[]): { breaking: number; byCategory: Record<string, number>; waived: Record<string, number> } {
  const byCategory: Record<string, number> = {};
  const waived: Record<string, number> = {};
  let breaking = 0;
  for (const f of findings) {
    if (f.status === "breaking") {
      breaking++;
      byCategory[f.category] = (byCategory[f.category] ?? 0) + 1;
    } else waived[f.status] = (waived[f.status] ?? 0) + 1;
  }
  return { breaking, byCategory, waived };
}

export function textReport(findings: Finding[], label: string, options: { witness?: boolean; all?: boolean; changes?: Change[] }): string[] {
  const lines: string[] = [];
  for (const f of findings) {
    if (f.status === "not-enforced" && !options.all) continue;
    lines.push(findingLine(f));
    const w = options.witness ? witnessLine(f) : undefined;
    if (w) lines.push(w);
  }
  if (options.changes && options.changes.length > 0) {
    for (const c of options.changes) lines.push(changeLine(c));
    lines.push(changeSummary(options.changes));
  }
  const s = summarize(findings);
  const cats = CATEGORIES.filter((c) => s.byCategory[c]).map((c) => `${c} ${s.byCategory[c]}`).join(", ");
  const waived = Object.entries(s.waived).map(([k, v]) => `${v} ${k}`).join(", ");
  lines.push(
    s.breaking === 0
      ? `breaking: no breaking changes against ${label}${waived ? ` (${waived})` : ""}`
      : `breaking: ${s.breaking} breaking change${s.breaking === 1 ? "" : "s"} against ${label} (${cats})${waived ? `; also ${waived}` : ""}`,
  );
  return lines;
}

export function jsonReport(findings: Finding[], label: string, enforce: string, changes: Change[] = [], version?: object[]): object {
  return {
    against: label,
    enforce,
    summary: { ...summarize(findings), compatible: changes.filter((c) => c.severity === "compatible").length, documentation: changes.filter((c) => c.severity === "documentation").length },
    findings: findings.map(({ witnessRequest: _w, ...f }) => ({ ...f, severity: "breaking" })),
    changes,
    ...(version ? { version } : {}),
  };
}

export function rulesTable(): string[] {
  const lines: string[] = [];
  for (const c of CATEGORIES) {
    lines.push(`${c}: ${CATEGORY_PURPOSE[c]}`);
    for (const r of RULES.filter((x) => x.category === c)) lines.push(`  ${r.id.padEnd(34)} ${r.purpose}`);
  }
  return lines;
}
