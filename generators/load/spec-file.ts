// Reads one spec file (YAML or JSON) into plain JSON data and keeps a map from JSON pointer to
// line/column, so every later stage can report `file:line:col pointer message`.
import { readFileSync } from "node:fs";
import { LineCounter, isMap, isScalar, isSeq, type Node } from "yaml";
import type { JsonValue, SpecError } from "../model/types.js";
import { numberNotShared } from "../emit/number-literal.js";
import { duplicateKeyErrors } from "./duplicate-keys.js";
import { admitSpecFile, MAX_SPEC_DEPTH, parseWithDepthLimit, resolveInsideSpec, specReadBudget, type SpecReadBudget } from "./spec-guard.js";
import { readPlainJson } from "./spec-json.js";
import { readPlainYaml } from "./spec-yaml.js";

export interface SpecFile {
  /** Path relative to the repository root. */
  file: string;
  value: JsonValue;
  locate(pointer: string): { line: number; column: number };
}

export type SpecFileResult = { ok: true; spec: SpecFile } | { ok: false; errors: SpecError[] };

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  return base + tokens.map((t) => "/" + escapePointerToken(String(t))).join("");
}

/**
 * Reads and parses `relativePath` (under spec/) in `root`. YAML must be plain JSON data: no
 * anchors, no tags, no duplicate keys. Before a byte is read (spec-guard.ts): no link on the way
 * may lead outside spec/, the file must be a regular file within the size limit, and `budget`
 * (shared by every read of one load) must have room for it.
 */
export function readSpecFile(root: string, relativePath: string, budget: SpecReadBudget = specReadBudget()): SpecFileResult {
  const where = resolveInsideSpec(root, relativePath);
  if (!where.ok) return { ok: false, errors: [where.error] };
  let text: string;
  try {
    const refused = admitSpecFile(relativePath, where.real, budget);
    if (refused !== undefined) return { ok: false, errors: [refused] };
    text = readFileSync(where.real, "utf8");
  } catch (error) {
    return fail(relativePath, 1, 1, "", `cannot read file: ${(error as Error).message}`, "io");
  }
  return parseSpecText(relativePath, text);
}

// One generate reads the same spec text more than once: the current spec for the model, again
// for the release target's tree (loadTree), and the release bundles' files, mostly unchanged. A
// parse is a pure function of the path and the text, so it is kept and shared: the values are
// frozen (deeply), so no reader can change what another reader sees. Bounded: cleared when full.
const parsedTexts = new Map<string, SpecFileResult>();
const MAX_PARSED_TEXTS = 4096;

export function parseSpecText(file: string, text: string): SpecFileResult {
  const key = `${file}\u0000${text}`;
  const known = parsedTexts.get(key);
  if (known !== undefined) return known;
  const result = parseSpecTextOnce(file, text);
  if (result.ok) deepFreeze(result.spec.value);
  if (parsedTexts.size >= MAX_PARSED_TEXTS) parsedTexts.clear();
  parsedTexts.set(key, result);
  return result;
}

function deepFreeze(value: JsonValue): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Array.isArray(value) ? value : Object.values(value)) deepFreeze(child);
}

function parseSpecTextOnce(file: string, text: string): SpecFileResult {
  const plain = file.endsWith(".json") ? readPlainJson(text, MAX_SPEC_DEPTH) : readPlainYaml(text, MAX_SPEC_DEPTH);
  if (plain !== undefined) return { ok: true, spec: { file, value: plain.value, locate: locator(plain.offsets, lineCounterOf(text)) } };
  return parseSpecTextWithYaml(file, text);
}

/** The lines of `text` as the YAML parser counts them (a line starts at 0 and after each LF). */
function lineCounterOf(text: string): LineCounter {
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineCounter.addNewLine(i + 1);
  return lineCounter;
}

/** Each pointer's line and column, falling back to the nearest ancestor that has a position (e.g. a missing property). */
function locator(offsets: ReadonlyMap<string, number>, lineCounter: LineCounter): (pointer: string) => { line: number; column: number } {
  return (pointer) => {
    let p = pointer;
    for (;;) {
      const offset = offsets.get(p);
      if (offset !== undefined) {
        const pos = lineCounter.linePos(offset);
        return { line: pos.line, column: pos.col };
      }
      if (p === "") return { line: 1, column: 1 };
      p = p.slice(0, p.lastIndexOf("/"));
    }
  };
}

/** parseSpecText through the YAML library: every YAML file, and a JSON file readPlainJson leaves to it. */
export function parseSpecTextWithYaml(file: string, text: string): SpecFileResult {
  const lineCounter = new LineCounter();
  const parsed = parseWithDepthLimit(text, lineCounter, { uniqueKeys: true, prettyErrors: false, version: "1.2", schema: "core" });
  if ("tooDeep" in parsed) {
    const pos = lineCounter.linePos(parsed.tooDeep);
    return fail(file, pos.line, pos.col, "", `objects and arrays nested more than ${MAX_SPEC_DEPTH} deep (the limit for a spec file)`, "spec-too-deep");
  }
  const doc = parsed.doc;
  const errors: SpecError[] = [];
  if (doc.errors.some((e) => e.code === "DUPLICATE_KEY")) errors.push(...duplicateKeyErrors(file, text, lineCounter));
  for (const e of doc.errors) {
    if (e.code === "DUPLICATE_KEY" && errors.length > 0) continue; // named by duplicateKeyErrors
    const pos = lineCounter.linePos(e.pos[0]);
    errors.push({ file, line: pos.line, column: pos.col, pointer: "", message: e.message.split("\n")[0]!, lint: "syntax" });
  }
  if (errors.length > 0) return { ok: false, errors };

  const offsets = new Map<string, number>();
  const value = toJson(doc.contents, "", offsets, (pointer, offset, message, lint = "syntax") => {
    const pos = lineCounter.linePos(offset);
    errors.push({ file, line: pos.line, column: pos.col, pointer, message, lint });
  }, text);
  if (errors.length > 0) return { ok: false, errors };

  return { ok: true, spec: { file, value, locate: locator(offsets, lineCounter) } };
}

type Report = (pointer: string, offset: number, message: string, lint?: string) => void;

/**
 * Lint number-exact: a number every target holds exactly, as written. An integer literal beyond
 * 2^53 that no double equals (9007199254740993 would be read as 9007199254740992), and any
 * integer beyond +-(2^53 - 1) (2^63 overflows Kotlin's Long, 1e300 is no integer type's), are
 * refused here, by value and target, before any stage rounds them.
 */
function numberError(value: number, source: string): string | undefined {
  const literal = source.trim();
  if (/^-?\d+$/.test(literal) && BigInt(literal) !== BigInt(value)) {
    return `${literal} is not exactly representable as a double (TypeScript's number, and any target reading the schema as JSON): it would be read as ${BigInt(value)}`;
  }
  const refused = numberNotShared(value);
  return refused === undefined ? undefined : `${literal} ${refused}`;
}

function toJson(node: Node | null | undefined, pointer: string, offsets: Map<string, number>, report: Report, text: string): JsonValue {
  if (node == null) return null;
  offsets.set(pointer, node.range?.[0] ?? 0);
  if (node.tag && !node.tag.startsWith("tag:yaml.org,2002:")) {
    report(pointer, node.range?.[0] ?? 0, `custom YAML tag ${node.tag} is not allowed`);
  }
  if (isMap(node)) {
    const out: { [key: string]: JsonValue } = {};
    for (const pair of node.items) {
      const keyNode = pair.key as Node;
      if (!isScalar(keyNode) || typeof keyNode.value !== "string") {
        report(pointer, (keyNode as Node | null)?.range?.[0] ?? 0, "object keys must be strings");
        continue;
      }
      const child = joinPointer(pointer, keyNode.value);
      out[keyNode.value] = toJson(pair.value as Node, child, offsets, report, text);
      offsets.set(child, keyNode.range?.[0] ?? 0);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item, i) => toJson(item as Node, joinPointer(pointer, i), offsets, report, text));
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number" && Number.isFinite(v)) {
      const range = node.range ?? [0, 0];
      const problem = numberError(v, text.slice(range[0], range[1]));
      if (problem !== undefined) report(pointer, range[0], problem, "number-exact");
      return v;
    }
    report(pointer, node.range?.[0] ?? 0, `value ${String(v)} is not a JSON value`);
    return null;
  }
  report(pointer, node.range?.[0] ?? 0, "YAML aliases are not allowed; write the value out");
  return null;
}

function fail(file: string, line: number, column: number, pointer: string, message: string, lint: string): SpecFileResult {
  return { ok: false, errors: [{ file, line, column, pointer, message, lint }] };
}
