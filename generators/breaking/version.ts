// The version bump a comparison calls for (issue 39), by Semantic Versioning 2.0.0 for the project
// (spec/project.yaml's `version`, written into every package): a breaking finding calls for a
// major bump, any other change (an addition, a waived finding) for a minor one, documentation
// alone for a patch. Below 1.0.0 the positions shift down one, as npm's caret ranges and Cargo
// read them (^0.1.0 admits 0.1.x only): breaking -> 0.(y+1).0, anything else -> 0.y.(z+1).
// A WIRE or LIFECYCLE break also calls for a new wire `version` in the protocol.yaml of every
// protocol it touches (a change in spec/common touches them all).
import type { Change } from "./changes.js";
import type { Finding } from "./finding.js";
import { isObj, type SpecTree } from "./tree.js";

export type Bump = "major" | "minor" | "patch" | "none";

export function requiredBump(findings: Finding[], changes: Change[]): { bump: Bump; why: string } {
  const breaking = findings.filter((f) => f.status === "breaking").length;
  if (breaking > 0) return { bump: "major", why: `${breaking} breaking change${breaking === 1 ? "" : "s"}` };
  const compatible = findings.length + changes.filter((c) => c.severity === "compatible").length;
  if (compatible > 0) return { bump: "minor", why: `${compatible} compatible change${compatible === 1 ? "" : "s"}${findings.length > 0 ? ` (${findings.length} of them waived findings)` : ""}` };
  const docs = changes.length;
  if (docs > 0) return { bump: "patch", why: `${docs} documentation change${docs === 1 ? "" : "s"}` };
  return { bump: "none", why: "no change" };
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemver(v: string): { major: number; minor: number; patch: number; pre?: string } | undefined {
  const m = SEMVER.exec(v);
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] } : undefined;
}

/** SemVer 2.0.0 precedence (§11): build metadata ignored, a prerelease before its release. */
export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) throw new Error(`not a semantic version: ${!x ? a : b}`);
  const d = x.major - y.major || x.minor - y.minor || x.patch - y.patch;
  if (d !== 0) return Math.sign(d);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  // SemVer 2.0.0 §11.4: identifier by identifier; numeric ones as numbers and below alphanumeric ones.
  const a1 = x.pre.split(".");
  const b1 = y.pre.split(".");
  for (let i = 0; i < Math.min(a1.length, b1.length); i++) {
    const [p, q] = [a1[i]!, b1[i]!];
    if (p === q) continue;
    const [pn, qn] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (pn && qn) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return Math.sign(a1.length - b1.length);
}

/** The smallest version after `from` that the bump allows. */
export function bumpVersion(from: string, bump: Bump): string {
  const v = parseSemver(from);
  if (!v) throw new Error(`not a semantic version: ${from}`);
  const { major, minor, patch } = v;
  if (bump === "none") return `${major}.${minor}.${patch}`;
  if (major === 0) return bump === "major" ? `0.${minor + 1}.0` : `0.${minor}.${patch + 1}`;
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

export const projectVersion = (tree: SpecTree): string | undefined => {
  const v = tree.project && isObj(tree.project.value) && isObj(tree.project.value.project) ? tree.project.value.project.version : undefined;
  return typeof v === "string" ? v : undefined;
};

export const wireVersion = (tree: SpecTree, protocol: string): string | undefined => {
  const f = tree.protocols.get(protocol);
  const v = f && isObj(f.value) ? f.value.version : undefined;
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
};

export interface VersionCheck {
  /** What the version is checked for: "project" or a protocol id (its wire version). */
  subject: string;
  file: string;
  bump: Bump;
  why: string;
  /** The version compared against, the least version the changes call for, the one the spec has. */
  from: string;
  suggested: string;
  current: string;
  /** current is lower than suggested (or cannot be read): `--suggest-version` fails. */
  tooLow: boolean;
}

/** A wire version is an integer ("2") bumped by one, or a semantic version bumped major. */
function nextWire(from: string): string {
  if (/^\d+$/.test(from)) return String(Number(from) + 1);
  return parseSemver(from) ? bumpVersion(from, "major") : `${from}+1`;
}
const wireLower = (current: string, suggested: string) =>
  /^\d+$/.test(current) && /^\d+$/.test(suggested) ? Number(current) < Number(suggested) : parseSemver(current) && parseSemver(suggested) ? compareSemver(current, suggested) < 0 : current !== suggested;

export function versionChecks(oldTree: SpecTree, newTree: SpecTree, findings: Finding[], changes: Change[]): VersionCheck[] {
  const out: VersionCheck[] = [];
  const { bump, why } = requiredBump(findings, changes);
  const from = projectVersion(oldTree);
  const current = projectVersion(newTree);
  if (from !== undefined && parseSemver(from)) {
    const suggested = bumpVersion(from, bump);
    const tooLow = current === undefined || !parseSemver(current) || compareSemver(current, suggested) < 0;
    out.push({ subject: "project", file: "spec/project.yaml", bump, why, from, suggested, current: current ?? "(none)", tooLow });
  }
  const wireBreaks = findings.filter((f) => f.status === "breaking" && (f.category === "WIRE" || f.category === "LIFECYCLE"));
  for (const protocol of [...newTree.protocols.keys()].sort()) {
    const touching = wireBreaks.filter((f) => [f.at.file, f.old?.file].some((file) => file !== undefined && (file.startsWith(`spec/${protocol}/`) || file.startsWith("spec/common/"))));
    if (touching.length === 0) continue;
    const was = wireVersion(oldTree, protocol);
    if (was === undefined) continue;
    const now = wireVersion(newTree, protocol) ?? "(none)";
    const suggested = nextWire(was);
    out.push({ subject: protocol, file: `spec/${protocol}/protocol.yaml`, bump: "major", why: `${touching.length} WIRE/LIFECYCLE break${touching.length === 1 ? "" : "s"}`, from: was, suggested, current: now, tooLow: wireLower(now, suggested) });
  }
  return out;
}

export function versionLines(checks: VersionCheck[]): string[] {
  return checks.map((c) => {
    const name = c.subject === "project" ? "version" : `wire version of ${c.subject}`;
    const verdict = c.tooLow ? `${c.file} has ${c.current}: lower than ${c.suggested}, raise it` : `${c.file} has ${c.current}: ok`;
    return `${name}: ${c.bump === "none" ? "no bump" : `${c.bump} bump`} (${c.why}) from ${c.from}: at least ${c.suggested}; ${verdict}`;
  });
}
