// The Compatibility page: conformance result files (docs-site/compatibility/*.json, written by
// `agent-contracts conformance <protocol> --url URL --report FILE`) side by side, one table per
// protocol, one column per implementation and version, one row per category (case file) with
// passed / failed / skipped, then the failed cases of each column. It is a guide page (Markdown
// rendered by the site like docs-site/guides/*.md), so it takes its place in the navigation as
// every guide does. Everything taken from a result file is escaped for Markdown.
import type { ConformanceReport } from "../../conformance/report.js";

export const COMPATIBILITY_GUIDE = "compatibility";

/** Markdown text of `s` as inline content: every punctuation Markdown or a table cell reads is escaped. */
function md(s: string): string {
  return s.replace(/[\\`*_{}\[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
}

const cell = (c: { passed: number; failed: number; skipped: number } | undefined): string => (c === undefined ? "—" : `${c.passed} / ${c.failed} / ${c.skipped}`);

/** The page's Markdown for `reports` (each with the file it came from), or undefined when there are none. */
export function compatibilityMarkdown(reports: readonly { file: string; report: ConformanceReport }[]): string | undefined {
  if (reports.length === 0) return undefined;
  const lines = [
    "# Compatibility",
    "",
    "Conformance results of implementations of the protocols, side by side. Each column is one run of",
    "`agent-contracts conformance <protocol> --url URL --report FILE` against one implementation and",
    "version (the files are in `docs-site/compatibility/`); each cell counts that category's cases",
    "**passed / failed / skipped** (a case is skipped when it needs another server state).",
  ];
  const protocols = [...new Set(reports.map((r) => r.report.protocol))].sort();
  for (const protocol of protocols) {
    const columns = reports
      .filter((r) => r.report.protocol === protocol)
      .sort((a, b) => a.report.implementation.name.localeCompare(b.report.implementation.name) || a.report.implementation.version.localeCompare(b.report.implementation.version) || a.file.localeCompare(b.file));
    const categories: string[] = [];
    for (const c of columns) for (const name of Object.keys(c.report.categories)) if (!categories.includes(name)) categories.push(name);
    const heading = (c: (typeof columns)[number]): string =>
      `${md(c.report.implementation.name)} ${md(c.report.implementation.version)} (spec ${md(c.report.specVersion)}, ${md(c.report.serverState)})`;
    lines.push("", `## ${md(protocol)}`, "", `| category | ${columns.map(heading).join(" | ")} |`, `| --- | ${columns.map(() => "---").join(" | ")} |`);
    for (const name of categories) lines.push(`| ${md(name)} | ${columns.map((c) => cell(c.report.categories[name])).join(" | ")} |`);
    lines.push(`| **total** | ${columns.map((c) => `**${cell(c.report.totals)}**`).join(" | ")} |`);
    for (const c of columns) {
      const failed = c.report.cases.filter((x) => x.status === "fail");
      if (failed.length === 0) continue;
      lines.push("", `Failed for ${heading(c)}:`, "");
      for (const f of failed) lines.push(`- \`${f.id.replace(/`/g, "'")}\` (${md(f.category)})${f.code === undefined ? "" : `: ${md(f.code)}`}`);
    }
    lines.push("", `Source files: ${columns.map((c) => `\`${c.file.replace(/`/g, "'")}\``).join(", ")}.`);
  }
  return `${lines.join("\n")}\n`;
}
