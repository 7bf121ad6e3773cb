// What a rule reports. `at` is the position in the current spec (or the nearest surviving
// ancestor), `old` the position in the version compared against.
import type { JsonValue } from "../model/types.js";
import type { Category } from "./rules.js";
import { RULES_BY_ID } from "./rules.js";
import type { Located } from "./tree.js";

export interface Position {
  file: string;
  line: number;
  column: number;
  pointer: string;
}

/** Who is hurt: a new reader given what an old writer sends, or an old reader given what a new writer sends. */
export type Direction = "old-writer-new-reader" | "new-writer-old-reader" | "either";

export type PathToken = string | number;
/** A value to put at the finding's instance path, or the instruction to remove what is there. */
export type Candidate = { set: JsonValue } | { remove: true };

/** Where a WIRE finding's witness is searched: the compared root schemas and the instance path. */
export interface WitnessRequest {
  oldRoot: Located | null;
  newRoot: Located | null;
  path: PathToken[];
  candidates: Candidate[];
  direction: Direction;
}

export interface Witness {
  instance: JsonValue;
  acceptedBy: "old" | "new";
}

export interface Finding {
  rule: string;
  category: Category;
  at: Position;
  old?: Position;
  /** True when the item no longer exists in the current spec: the old position is where it was. */
  removed: boolean;
  message: string;
  direction?: Direction;
  witnessRequest?: WitnessRequest;
  witness?: Witness | null;
  /** "breaking", or why it is not counted. */
  /** Found inside an intersection: reported only when a witness confirms it. */
  maskable?: boolean;
  status: "breaking" | "excepted" | "unstable" | "tolerant-reader" | "not-enforced";
  reason?: string;
}

export function position(loc: { doc: { file: { file: string; locate(p: string): { line: number; column: number } } } }, pointer: string): Position {
  const { line, column } = loc.doc.file.locate(pointer);
  return { file: loc.doc.file.file, line, column, pointer };
}

export function filePosition(file: { file: string; locate(p: string): { line: number; column: number } }, pointer: string): Position {
  const { line, column } = file.locate(pointer);
  return { file: file.file, line, column, pointer };
}

export function finding(rule: string, at: Position, message: string, extra: Partial<Finding> = {}): Finding {
  const r = RULES_BY_ID.get(rule);
  if (!r) throw new Error(`breaking: unknown rule ${rule}`);
  return { rule, category: r.category, at, removed: false, message, status: "breaking", ...extra };
}

export function canonical(v: JsonValue | undefined): string {
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

export const deepEqual = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => canonical(a) === canonical(b);
