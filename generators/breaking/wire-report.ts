// What the WIRE comparison shares: its context and how a difference becomes a finding.
import type { JsonValue } from "../model/types.js";
import { finding, position, type Candidate, type Direction, type Finding, type PathToken } from "./finding.js";
import { STRING_POOL, synth } from "./synth.js";
import { isObj, type Located, type Obj, type SpecTree } from "./tree.js";

export const ANNOTATIONS = new Set(["title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id", "$defs", "definitions"]);

export interface Ctx {
  oldTree: SpecTree;
  newTree: SpecTree;
  oldRoot: Located | null;
  newRoot: Located | null;
  out: Finding[];
  visited: Set<string>;
  /** Inside an intersection (allOf, then/else, siblings of $ref): a sibling may mask a change. */
  masked?: boolean;
}

export const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
export const at = (loc: Located, suffix: string, schema: JsonValue | undefined): Located => ({ doc: loc.doc, pointer: loc.pointer + suffix, schema: schema === undefined ? {} : schema });

const VALUE_CONSTRAINT_RULES = new Set(["WIRE_TYPE_CHANGED", "WIRE_PATTERN_CHANGED", "WIRE_FORMAT_CHANGED", "WIRE_BOUND_TIGHTENED", "WIRE_BOUND_LOOSENED"]);
const closedValues = (s: JsonValue): boolean => isObj(s) && (s.const !== undefined || Array.isArray(s.enum));

export function report(ctx: Ctx, rule: string, o: Located, n: Located, keyword: string, message: string, path: PathToken[], direction: Direction, candidates: Candidate[], removed = false): void {
  // A writer limited to a const or enum sends only its listed values: a length, pattern or type
  // change breaks it only if one of them is refused, so the finding stands only with a witness.
  const closedWriter =
    VALUE_CONSTRAINT_RULES.has(rule) && ((direction === "old-writer-new-reader" && closedValues(o.schema)) || (direction === "new-writer-old-reader" && closedValues(n.schema)));
  const suffix = keyword === "" ? "" : `/${esc(keyword)}`;
  ctx.out.push(
    finding(rule, position(n, n.pointer + suffix), message, {
      old: position(o, o.pointer + suffix),
      removed,
      direction,
      witnessRequest: { oldRoot: ctx.oldRoot, newRoot: ctx.newRoot, path, candidates, direction },
      ...(ctx.masked || closedWriter ? { maskable: true } : {}),
    }),
  );
}

export const sets = (vs: JsonValue[]): Candidate[] => vs.map((v) => ({ set: v }));
export const sample = (tree: SpecTree, loc: Located) => sets(synth(tree, loc));
export const pool = (): Candidate[] => sets([...STRING_POOL, 0, 1, -1, 1.5, true, null, {}, []]);
export const jsonType = (v: JsonValue): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
/** The declared type set, else the one a const or enum implies; undefined: any type. */
export const typesOf = (s: Obj): string[] | undefined => {
  if (Array.isArray(s.type)) return s.type.map(String);
  if (typeof s.type === "string") return [s.type];
  if (s.const !== undefined) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
  return undefined;
};

