// The changelog of the spec (issue 39): per version, per protocol, what was added, changed, removed
// and what breaks. Computed from the releases recorded in the repository (releases.json, each with
// its spec bundle releases/<version>.spec.json, so no git history is needed) and the spec as it is
// now (the next version while spec/project.yaml's version is not released yet). Generation renders
// it into every package and the docs site (generators/targets/release).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME_LANGUAGES, RUNTIME_RENAMES } from "../emit/runtime-contract.js";
import { BundleError, materializeBundle, parseBundle } from "./bundle.js";
import type { Change } from "./changes.js";
import { compareTrees } from "./compare.js";
import type { Finding, Position } from "./finding.js";
import { readReleases, RELEASES_FILE } from "./release.mjs";
import { loadTree, type SpecTree } from "./tree.js";
import { projectVersion, requiredBump, type Bump } from "./version.js";

export const RELEASE_BUNDLES_DIR = "releases";
export const bundlePath = (version: string) => `${RELEASE_BUNDLES_DIR}/${version}.spec.json`;

export const SECTIONS = ["breaking", "added", "changed", "removed"] as const;
export type Section = (typeof SECTIONS)[number];

export interface ChangelogItem {
  /** RULE_ID of a finding, or the kind of a compatible change. */
  id: string;
  at: Position;
  message: string;
  /** A finding waived by spec/breaking.yaml: its status and reason. */
  waived?: string;
}

export interface ChangelogVersion {
  version: string;
  /** The commit a recorded release was cut from; absent for the unreleased spec. */
  commit?: string;
  released: boolean;
  /** The version compared against; absent for the first recorded release. */
  previous?: string;
  bump?: Bump;
  /** Protocol id ("common" for spec/common, "project" for spec/project.yaml and spec/breaking.yaml) -> sections. */
  protocols: Record<string, Record<Section, ChangelogItem[]>>;
}

export interface SpecChangelog {
  project: string;
  versions: ChangelogVersion[];
}

/** A recorded release that cannot be read; `file` is the one to fix (releases.json or a bundle). */
export class ChangelogError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

const owner = (file: string) => (/^spec\/([^/]+)\//.exec(file)?.[1] ?? "project");

function group(findings: Finding[], changes: Change[]): ChangelogVersion["protocols"] {
  const out: ChangelogVersion["protocols"] = {};
  const put = (section: Section, at: Position, item: ChangelogItem) => {
    const p = (out[owner(at.file)] ??= { breaking: [], added: [], changed: [], removed: [] });
    p[section].push(item);
  };
  for (const f of findings) {
    const item: ChangelogItem = { id: f.rule, at: f.at, message: f.message, ...(f.status === "breaking" ? {} : { waived: `${f.status}: ${f.reason ?? ""}` }) };
    if (f.status === "breaking") put("breaking", f.at, item);
    if (f.removed) put("removed", f.old ?? f.at, { ...item, at: f.old ?? f.at });
    else if (f.status !== "breaking") put(/_ADDED$/.test(f.rule) ? "added" : "changed", f.at, item);
  }
  for (const c of changes) put(c.kind.endsWith("_ADDED") ? "added" : "changed", c.at, { id: c.kind, at: c.at, message: c.message });
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
}

/** The changelog of the project at `root`. `current` is its spec tree, when already loaded. */
export function specChangelogFromReleases(root: string, current: SpecTree = loadTree(root)): SpecChangelog {
  const releases = existsSync(join(root, RELEASES_FILE)) ? readReleases(root) : [];
  const opened: { cleanup(): void }[] = [];
  const versions: ChangelogVersion[] = [];
  try {
    let previous: { version: string; tree: SpecTree } | undefined;
    for (const r of releases) {
      const path = join(root, bundlePath(r.version));
      if (!existsSync(path)) throw new ChangelogError(bundlePath(r.version), `missing: release ${r.version} (${RELEASES_FILE}) records its spec there (agent-contracts breaking --against ${r.commit} --write-bundle ${bundlePath(r.version)})`);
      let parsed;
      try {
        parsed = parseBundle(readFileSync(path, "utf8"), bundlePath(r.version));
      } catch (error) {
        if (error instanceof BundleError) throw new ChangelogError(bundlePath(r.version), error.message.replace(`${bundlePath(r.version)}: `, ""));
        throw error;
      }
      const bundle = materializeBundle(parsed);
      opened.push(bundle);
      const tree = loadTree(bundle.root);
      if (tree.errors.length > 0) throw new ChangelogError(bundlePath(r.version), `${tree.errors[0]!.file}:${tree.errors[0]!.line}:${tree.errors[0]!.column} ${tree.errors[0]!.message}`);
      versions.push(entry(r.version, previous, tree, r.commit));
      previous = { version: r.version, tree };
    }
    const now = projectVersion(current) ?? "unversioned";
    if (!previous || previous.version !== now) versions.push(entry(now, previous, current));
  } finally {
    for (const o of opened) o.cleanup();
  }
  return { project: projectName(current), versions: versions.reverse() };
}

function entry(version: string, previous: { version: string; tree: SpecTree } | undefined, tree: SpecTree, commit?: string): ChangelogVersion {
  const released = commit !== undefined;
  if (!previous) return { version, ...(commit ? { commit } : {}), released, protocols: {} };
  const { findings, changes } = compareTrees(previous.tree, tree);
  return { version, ...(commit ? { commit } : {}), released, previous: previous.version, bump: requiredBump(findings, changes).bump, protocols: group(findings, changes) };
}

function projectName(tree: SpecTree): string {
  const v = tree.project?.value;
  const name = v && typeof v === "object" && !Array.isArray(v) && v.project && typeof v.project === "object" && !Array.isArray(v.project) ? v.project.name : undefined;
  return typeof name === "string" ? name : "spec";
}

const TITLES: Record<Section, string> = { breaking: "Breaking", added: "Added", changed: "Changed", removed: "Removed" };

/** CHANGELOG.md: newest version first, then protocol, then section; one line per item with its place. */
export function changelogMarkdown(log: SpecChangelog): string {
  const lines = [`# Changelog of ${log.project}`, "", "Every version of the spec, newest first, from the releases recorded in `releases.json` and the spec as generated. Per protocol: what breaks (the findings of the breaking-change rules, by rule id), what was added, changed and removed.", ""];
  if (log.versions.length === 0) lines.push("No version recorded.", "");
  for (const v of log.versions) {
    lines.push(`## ${v.version}${v.released ? "" : " (unreleased)"}`, "");
    if (v.commit) lines.push(`Released from commit \`${v.commit}\`.`, "");
    if (!v.previous) {
      lines.push(v.released ? "The first recorded release." : "No release recorded before this version.", "");
      continue;
    }
    lines.push(`Compared with ${v.previous}: ${v.bump === "none" ? "no change" : `a ${v.bump} bump`}.`, "");
    const renames = RUNTIME_RENAMES.filter((r) => r.version === v.version);
    if (renames.length > 0) {
      lines.push("### Runtime API", "", "Renamed to the runtime contract's name, the same in every language modulo casing; the old name stays as a deprecated alias:", "");
      for (const r of renames) lines.push(`- ${RUNTIME_LANGUAGES[r.language]}: \`${r.from}\` is now \`${r.to}\` (\`${r.from}\` deprecated)`);
      lines.push("");
    }
    const ids = Object.keys(v.protocols);
    if (ids.length === 0) lines.push("No change.", "");
    for (const id of ids) {
      lines.push(`### ${id}`, "");
      for (const s of SECTIONS) {
        const items = v.protocols[id]![s];
        if (items.length === 0) continue;
        lines.push(`#### ${TITLES[s]}`, "");
        for (const i of items) lines.push(`- \`${i.at.file}:${i.at.line}\` ${i.message.replace(/\s+/g, " ")} (${i.id}${i.waived ? `; ${i.waived.replace(/\s+/g, " ")}` : ""})`);
        lines.push("");
      }
    }
  }
  return lines.join("\n");
}
