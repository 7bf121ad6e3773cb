// Two docs pages from generators/breaking: the rule table (breaking-rules.html) and the spec
// changelog (spec-changelog.html): every commit of this repository that touched spec/, compared
// with its parent, computed from git at build time. Bounded: only commits touching spec/, at most
// MAX_COMMITS of them, each version extracted once.
import { execFileSync } from "node:child_process";
import Handlebars from "handlebars";
import { fromRevision, type SpecSource } from "../../breaking/against.js";
import { compareTrees } from "../../breaking/compare.js";
import { loadTree, type SpecTree } from "../../breaking/tree.js";
import type { Change } from "../../breaking/changes.js";
import type { Finding } from "../../breaking/finding.js";
import { CATEGORIES, CATEGORY_PURPOSE, RULES } from "../../breaking/rules.js";
import { escapeHtml } from "./html.js";

export const CHANGELOG_PAGE = "spec-changelog.html";
export const RULES_PAGE = "breaking-rules.html";
/** Older commits are left off (and the page says how many) so the docs build stays bounded. */
export const MAX_COMMITS = 40;

export interface ChangelogEntry {
  sha: string;
  date: string;
  subject: string;
  /** Empty for the first commit (nothing to compare with). */
  parent?: string;
  findings: Finding[];
  /** Compatible and documentation changes (additions, edited descriptions): no one is broken. */
  changes: Change[];
  error?: string;
}

export type Changelog = { available: true; entries: ChangelogEntry[]; leftOff: number } | { available: false; reason: string };

export function specChangelog(root: string, max = MAX_COMMITS): Changelog {
  let log: string;
  let total = 0;
  try {
    // First parent only: what landed on this branch, one entry per merge, not every work-in-progress
    // commit of a merged branch (some of which never parsed).
    total = Number(execFileSync("git", ["-C", root, "rev-list", "--first-parent", "--count", "HEAD", "--", "spec"], { stdio: ["ignore", "pipe", "pipe"] }).toString().trim());
    log = execFileSync("git", ["-C", root, "log", "--first-parent", `--max-count=${max}`, "--format=%H%x09%P%x09%ad%x09%s", "--date=short", "--", "spec"], { stdio: ["ignore", "pipe", "pipe"] }).toString();
  } catch (error) {
    return { available: false, reason: `git history is not available here (${(error as Error).message.split("\n")[0]})` };
  }
  const commits = log.trim().split("\n").filter(Boolean).map((line) => {
    const [sha = "", parents = "", date = "", ...subject] = line.split("\t");
    return { sha, parent: parents.split(" ")[0] || undefined, date, subject: subject.join("\t") };
  });
  if (commits.length === 0) return { available: false, reason: "git history has no commit touching spec/ (a shallow clone?)" };
  const sources = new Map<string, SpecSource>();
  const trees = new Map<string, SpecTree>();
  const open = (sha: string): SpecTree => {
    if (!trees.has(sha)) {
      const source = fromRevision(root, sha, sha);
      sources.set(sha, source);
      trees.set(sha, loadTree(source.root));
    }
    return trees.get(sha)!;
  };
  const entries: ChangelogEntry[] = [];
  try {
    for (const c of commits) {
      if (!c.parent) {
        entries.push({ ...c, parent: undefined, findings: [], changes: [] });
        continue;
      }
      try {
        const before = open(c.parent);
        const after = open(c.sha);
        const errors = before.errors.length + after.errors.length;
        const { findings, changes } = compareTrees(before, after);
        entries.push({ ...c, findings, changes, error: errors > 0 ? `${errors} spec file(s) do not parse` : undefined });
      } catch (error) {
        entries.push({ ...c, findings: [], changes: [], error: (error as Error).message.split("\n")[0] });
      }
    }
  } finally {
    for (const s of sources.values()) s.cleanup();
  }
  return { available: true, entries, leftOff: Math.max(0, total - entries.length) };
}

const e = escapeHtml;

function layout(templates: Record<string, string>, page: string, title: string, body: string): string {
  const hbs = Handlebars.create();
  const nav = [
    { label: "Home", href: "index.html", current: false },
    { label: "Spec changelog", href: CHANGELOG_PAGE, current: page === CHANGELOG_PAGE },
    { label: "Breaking-change rules", href: RULES_PAGE, current: page === RULES_PAGE },
  ];
  return hbs.compile(templates.layout ?? "{{body}}")({ title, root: "", nav, breadcrumbs: [{ label: "Home", href: "index.html" }, { label: title }], body: new Handlebars.SafeString(body), scripts: [] });
}

function rulesBody(): string {
  const sections = CATEGORIES.map((c) => {
    const rows = RULES.filter((r) => r.category === c).map((r) => `<tr id="${e(r.id)}"><td><code>${e(r.id)}</code></td><td>${e(r.purpose)}</td></tr>`).join("\n");
    return `<h2 id="category-${c}">${c}</h2>\n<p>${e(CATEGORY_PURPOSE[c])}</p>\n<table><thead><tr><th>rule</th><th>purpose</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
  });
  return `<p><code>agent-contracts breaking --against &lt;git-ref|dir&gt;</code> compares the spec with another version and reports these rules, in categories from strictest to most lenient. Enforcing a category (<code>enforce:</code> in <code>spec/breaking.yaml</code>) enforces it and every more lenient one. WIRE findings come with a witness instance (<code>--witness</code>) that one version accepts and the other rejects, checked with ajv on both schemas. See the <a href="${CHANGELOG_PAGE}">spec changelog</a> for every change this repository made.</p>
${sections.join("\n")}`;
}

function changelogBody(log: Changelog): string {
  const intro = `<p>Every commit of this repository that changed <code>spec/</code>, newest first, with what <code>agent-contracts breaking</code> reports against its parent (<a href="${RULES_PAGE}">rules</a>). Computed from git when the site was built.</p>`;
  if (!log.available) return `${intro}\n<p class="note">${e(log.reason)}: the changelog is not shown.</p>`;
  const items = log.entries.map((c) => {
    const breaking = c.findings.filter((f) => f.status === "breaking");
    const compatible = c.changes.filter((x) => x.severity === "compatible").length;
    const others = `${compatible} compatible, ${c.changes.length - compatible} documentation`;
    const verdict = !c.parent ? "first version of the spec" : c.error ? `not compared: ${c.error}` : `${breaking.length === 0 ? "no breaking change" : `${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}`}; ${others}`;
    const rows = c.findings
      .map((f) => {
        const w = f.witness ? `<br><small>witness (${f.witness.acceptedBy} accepts): <code>${e(JSON.stringify(f.witness.instance).slice(0, 300))}</code></small>` : "";
        return `<tr><td><a href="${RULES_PAGE}#${e(f.rule)}"><code>${e(f.rule)}</code></a></td><td><code>${e(`${f.at.file}:${f.at.line}:${f.at.column}`)}</code> <code>${e(f.at.pointer || "/")}</code></td><td>${e(f.message)}${f.status === "breaking" ? "" : ` <em>(${e(f.status)}: ${e(f.reason ?? "")})</em>`}${w}</td></tr>`;
      })
      .concat(c.changes.map((x) => `<tr><td><code>${e(x.kind)}</code></td><td><code>${e(`${x.at.file}:${x.at.line}:${x.at.column}`)}</code> <code>${e(x.at.pointer || "/")}</code></td><td>${e(x.message)} <em>(${e(x.severity)})</em></td></tr>`))
      .join("\n");
    const table = rows ? `\n<table><thead><tr><th>rule</th><th>where</th><th>finding</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : "";
    return `<section id="commit-${c.sha.slice(0, 12)}">\n<h2><code>${c.sha.slice(0, 12)}</code> ${e(c.date)}</h2>\n<p>${e(c.subject)}</p>\n<p><strong>${e(verdict)}</strong></p>${table}\n</section>`;
  });
  const more = log.leftOff > 0 ? `\n<p class="note">${log.leftOff} older commit(s) touching spec/ are left off to keep the build bounded.</p>` : "";
  return `${intro}\n${items.join("\n")}${more}`;
}

/** The two pages' titles and bodies (without their h1): the site renders them with its own layout and navigation. */
export function breakingBodies(changelog: Changelog): { rules: string; changelog: string } {
  return { rules: rulesBody(), changelog: changelogBody(changelog) };
}

export const BREAKING_TITLES = { rules: "Breaking-change rules", changelog: "Spec changelog" } as const;

/** The two pages on their own (a minimal layout), for tools and tests outside the site build. */
export function breakingPages(root: string, templates: Record<string, string>, changelog: Changelog = specChangelog(root)): { path: string; contents: string }[] {
  const bodies = breakingBodies(changelog);
  return [
    { path: RULES_PAGE, contents: layout(templates, RULES_PAGE, BREAKING_TITLES.rules, `<h1>${BREAKING_TITLES.rules}</h1>\n${bodies.rules}`) },
    { path: CHANGELOG_PAGE, contents: layout(templates, CHANGELOG_PAGE, BREAKING_TITLES.changelog, `<h1>${BREAKING_TITLES.changelog}</h1>\n${bodies.changelog}`) },
  ];
}
