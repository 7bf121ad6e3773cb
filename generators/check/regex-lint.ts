// Lint: every `pattern` (and `patternProperties` key) in the spec runs in linear time on a
// backtracking engine (ajv's RegExp, java.util.regex, NSRegularExpression), proven by recheck's
// automata-based checker rather than a home-made heuristic. A schema validator runs patterns on
// untrusted text, so one super-linear pattern is a denial of service in every language.
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import type { SpecError } from "../model/types.js";
import { reporter, walkSchemas } from "./lints.js";

interface RecheckDiagnostics {
  status: "safe" | "vulnerable" | "unknown";
  complexity?: { type: string; summary: string };
  attack?: { pattern: string };
  error?: { kind: string };
}

export interface RegexVerdict {
  /** "linear" (or "safe": constant), otherwise what recheck found or why it could not decide. */
  complexity: string;
  linear: boolean;
  /** recheck's attack string, as JavaScript source, when it found one. */
  attack?: string;
}

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const RECHECK_VERSION = (require("recheck/package.json") as { version: string }).version;
const CACHE_FILE = join(ROOT, "node_modules", ".cache", "agent-contracts", `recheck-${RECHECK_VERSION}.json`);
// A fixed seed: recheck falls back to fuzzing for large patterns, and a lint must not flap.
const PARAMS = { timeout: 30_000, randomSeed: 20261201 };

let cache: Map<string, RegexVerdict> | undefined;

function loadCache(): Map<string, RegexVerdict> {
  if (cache) return cache;
  cache = new Map();
  try {
    if (existsSync(CACHE_FILE)) for (const [k, v] of Object.entries(JSON.parse(readFileSync(CACHE_FILE, "utf8")) as Record<string, RegexVerdict>)) cache.set(k, v);
  } catch {
    // A damaged cache is only lost time: every verdict is computed again.
  }
  return cache;
}

function saveCache(): void {
  try {
    mkdirSync(dirname(CACHE_FILE), { recursive: true });
    writeFileSync(CACHE_FILE, JSON.stringify(Object.fromEntries(loadCache())));
  } catch {
    // A read-only node_modules only costs time.
  }
}

/**
 * The branches of a top-level alternation. Each start position tries every branch in turn and
 * nothing follows the alternation, so the whole is linear exactly when every branch is; checking
 * branches one by one keeps recheck's automaton within its budget for long filters.
 */
export function topLevelBranches(source: string): string[] {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") { i++; continue; }
    if (inClass) { if (c === "]") inClass = false; continue; }
    if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) { branches.push(source.slice(start, i)); start = i + 1; }
  }
  branches.push(source.slice(start));
  return branches;
}

function checkOne(source: string): RegexVerdict {
  const known = loadCache().get(source);
  if (known) return known;
  // The pure Scala.js backend runs in this process: no JVM, no native binary, no network.
  const saved = process.env["RECHECK_SYNC_BACKEND"];
  process.env["RECHECK_SYNC_BACKEND"] = "pure";
  let d: RecheckDiagnostics;
  try {
    d = (require("recheck") as { checkSync: (s: string, f: string, p: object) => RecheckDiagnostics }).checkSync(source, "u", PARAMS);
  } finally {
    if (saved === undefined) delete process.env["RECHECK_SYNC_BACKEND"];
    else process.env["RECHECK_SYNC_BACKEND"] = saved;
  }
  const complexity = d.status === "unknown" ? `unknown (${d.error?.kind ?? "no verdict"})` : (d.complexity?.summary ?? d.status);
  const verdict: RegexVerdict = { complexity, linear: d.status === "safe" && (d.complexity?.type === "safe" || d.complexity?.type === "linear") };
  if (d.attack) verdict.attack = d.attack.pattern;
  loadCache().set(source, verdict);
  saveCache();
  return verdict;
}

/** recheck's verdict on [source] (flag `u`, as ajv compiles patterns), branch by branch. */
export function regexVerdict(source: string): RegexVerdict {
  const branches = topLevelBranches(source);
  if (branches.length === 1) return checkOne(source);
  for (const branch of branches) {
    const v = checkOne(branch);
    if (!v.linear) return { ...v, complexity: `${v.complexity} in branch ${branch}` };
  }
  return { complexity: "linear", linear: true };
}

/** Every pattern of a schema file with its pointer: `pattern` values and `patternProperties` keys. */
export function patternsOf(file: SpecFile): { pointer: string; source: string }[] {
  const found: { pointer: string; source: string }[] = [];
  walkSchemas(file.value, "", (schema, pointer) => {
    if (typeof schema["pattern"] === "string") found.push({ pointer: joinPointer(pointer, "pattern"), source: schema["pattern"] });
    const props = schema["patternProperties"];
    if (props && typeof props === "object" && !Array.isArray(props)) {
      for (const key of Object.keys(props)) found.push({ pointer: joinPointer(pointer, "patternProperties", key), source: key });
    }
  });
  return found;
}

export function lintLinearPatterns(file: SpecFile, errors: SpecError[]): void {
  const report = reporter(file, "linear-regex", errors);
  for (const { pointer, source } of patternsOf(file)) {
    const v = regexVerdict(source);
    if (!v.linear) report(pointer, `pattern is not linear-time (recheck: ${v.complexity}${v.attack ? `; attack ${v.attack}` : ""}): bound its repetitions or anchor it`);
  }
}
