// WIRE: schema inclusion. For each pair of schemas at the same place in the old and the new spec,
// it asks "is every instance the old one accepts accepted by the new one (old writers, new
// readers), and the reverse (new writers, old readers)?" over the keyword subset the spec uses.
// Each "no" becomes a finding with the instance path where the two differ and candidate values;
// witness.ts turns those into a concrete instance checked with ajv on both sides.
//
// Assumption (documented in the README): a property name an object did not declare was not sent
// by old writers, so declaring it as optional in an open object is compatible.
import type { JsonValue } from "../model/types.js";
import { canonical, deepEqual, finding, position, type Candidate, type Direction, type Finding, type PathToken } from "./finding.js";
import { STRING_POOL, stringsOfLength, synth } from "./synth.js";
import { isObj, resolveRef, type Located, type Obj, type SpecTree } from "./tree.js";

const ANNOTATIONS = new Set(["title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id", "$defs", "definitions"]);
const HANDLED = new Set([
  "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "pattern", "format",
  "oneOf", "anyOf", "allOf", "discriminator",
  "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
]);
/** A property name no schema declares, for witnesses about additionalProperties. */
export const EXTRA_PROPERTY = "zzUndeclared";

interface Ctx {
  oldTree: SpecTree;
  newTree: SpecTree;
  oldRoot: Located | null;
  newRoot: Located | null;
  out: Finding[];
  visited: Set<string>;
  /** Inside an intersection (allOf, then/else, siblings of $ref): a sibling may mask a change. */
  masked?: boolean;
}

const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
const at = (loc: Located, suffix: string, schema: JsonValue | undefined): Located => ({ doc: loc.doc, pointer: loc.pointer + suffix, schema: schema === undefined ? {} : schema });

/** Compares two root schemas (a message, a common file, or one $defs entry) and returns the WIRE findings. */
export function compareSchemas(oldTree: SpecTree, newTree: SpecTree, o: Located, n: Located): Finding[] {
  const ctx: Ctx = { oldTree, newTree, oldRoot: o, newRoot: n, out: [], visited: new Set() };
  cmp(ctx, o, n, []);
  return ctx.out;
}

const VALUE_CONSTRAINT_RULES = new Set(["WIRE_TYPE_CHANGED", "WIRE_PATTERN_CHANGED", "WIRE_FORMAT_CHANGED", "WIRE_BOUND_TIGHTENED", "WIRE_BOUND_LOOSENED"]);
const closedValues = (s: JsonValue): boolean => isObj(s) && (s.const !== undefined || Array.isArray(s.enum));

function report(ctx: Ctx, rule: string, o: Located, n: Located, keyword: string, message: string, path: PathToken[], direction: Direction, candidates: Candidate[], removed = false): void {
  // A writer limited to a const or enum cannot send what a length, pattern or type change is
  // about; the value sets themselves are compared by compareValues.
  if (VALUE_CONSTRAINT_RULES.has(rule)) {
    if (direction === "old-writer-new-reader" && closedValues(o.schema)) return;
    if (direction === "new-writer-old-reader" && closedValues(n.schema)) return;
  }
  const suffix = keyword === "" ? "" : `/${esc(keyword)}`;
  ctx.out.push(
    finding(rule, position(n, n.pointer + suffix), message, {
      old: position(o, o.pointer + suffix),
      removed,
      direction,
      witnessRequest: { oldRoot: ctx.oldRoot, newRoot: ctx.newRoot, path, candidates, direction },
      ...(ctx.masked ? { maskable: true } : {}),
    }),
  );
}

const sets = (vs: JsonValue[]): Candidate[] => vs.map((v) => ({ set: v }));
const sample = (tree: SpecTree, loc: Located) => sets(synth(tree, loc));
const pool = (): Candidate[] => sets([...STRING_POOL, 0, 1, -1, 1.5, true, null, {}, []]);
const jsonType = (v: JsonValue): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
/** The declared type set, else the one a const or enum implies; undefined: any type. */
const typesOf = (s: Obj): string[] | undefined => {
  if (Array.isArray(s.type)) return s.type.map(String);
  if (typeof s.type === "string") return [s.type];
  if (s.const !== undefined) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
  return undefined;
};

function cmp(ctx: Ctx, o: Located, n: Located, path: PathToken[]): void {
  const os = o.schema;
  const ns = n.schema;
  if (!isObj(os) || !isObj(ns)) {
    if (!deepEqual(os, ns)) report(ctx, "WIRE_SCHEMA_CHANGED", o, n, "", `schema changed from ${short(os)} to ${short(ns)}`, path, "either", [...sample(ctx.oldTree, o), ...sample(ctx.newTree, n), ...pool()]);
    return;
  }
  // Keywords beside a $ref apply together with its target: compare them on their own as well.
  const siblings = (x: Obj) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== "$ref" && !ANNOTATIONS.has(k) && !k.startsWith("x-")));
  if ((typeof os.$ref === "string" || typeof ns.$ref === "string") && (Object.keys(siblings(os)).length > 0 || Object.keys(siblings(ns)).length > 0)) {
    cmp({ ...ctx, masked: true }, { ...o, schema: siblings(os) }, { ...n, schema: siblings(ns) }, path);
  }
  const oref = typeof os.$ref === "string" ? resolveRef(ctx.oldTree, o.doc, os.$ref) : undefined;
  const nref = typeof ns.$ref === "string" ? resolveRef(ctx.newTree, n.doc, ns.$ref) : undefined;
  if (oref && nref) {
    // The same target on both sides is compared once, where it is defined.
    if (oref.uri === nref.uri) return;
    const key = `${oref.uri} ${nref.uri}`;
    if (ctx.visited.has(key)) return;
    ctx.visited.add(key);
    const inner: Finding[] = [];
    cmp({ ...ctx, out: inner }, oref, nref, path);
    const first = inner[0];
    if (first) {
      ctx.out.push({
        ...finding("WIRE_REF_CHANGED", position(n, `${n.pointer}/$ref`), `$ref ${String(os.$ref)} became ${String(ns.$ref)}, which differs: ${first.message} (${first.rule})`),
        old: position(o, `${o.pointer}/$ref`),
        direction: first.direction,
        witnessRequest: first.witnessRequest,
      });
    }
    return;
  }
  if (oref) return cmp(ctx, oref, n, path);
  if (nref) return cmp(ctx, o, nref, path);
  if (typeof os.$ref === "string" || typeof ns.$ref === "string") return; // unresolvable: ref-resolves reports it

  compareTypes(ctx, o, n, os, ns, path);
  compareValues(ctx, o, n, os, ns, path);
  compareObject(ctx, o, n, os, ns, path);
  if (os.items !== undefined || ns.items !== undefined) cmp(ctx, at(o, "/items", os.items), at(n, "/items", ns.items), [...path, 0]);
  compareBounds(ctx, o, n, os, ns, path);
  compareStrings(ctx, o, n, os, ns, path);
  compareUnions(ctx, o, n, os, ns, path);
  // With the same `if`, the same instances take each branch: then and else compare pairwise.
  const sameIf = os.if !== undefined && deepEqual(os.if, ns.if);
  if (sameIf) for (const key of ["then", "else"]) if (os[key] !== undefined || ns[key] !== undefined) cmp({ ...ctx, masked: true }, at(o, `/${key}`, os[key]), at(n, `/${key}`, ns[key]), path);
  for (const key of new Set([...Object.keys(os), ...Object.keys(ns)])) {
    if (HANDLED.has(key) || ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (sameIf && (key === "if" || key === "then" || key === "else")) continue;
    if (!deepEqual(os[key], ns[key])) {
      report(ctx, "WIRE_SCHEMA_CHANGED", o, n, key, `${key} changed from ${short(os[key])} to ${short(ns[key])}; not provably compatible`, path, "either", [...sample(ctx.oldTree, o), ...sample(ctx.newTree, n), ...pool()]);
    }
  }
}

function covered(t: string, set: string[]): boolean {
  return set.includes(t) || (t === "integer" && set.includes("number"));
}

const TYPE_SAMPLES: Record<string, JsonValue[]> = { string: ["x"], integer: [1], number: [1.5, 1], boolean: [true], null: [null], object: [{}], array: [[]] };
const ALL_TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"];

/** The type set of a union whose every branch declares one. */
function unionTypes(tree: SpecTree, loc: Located, depth = 0): string[] | undefined {
  const s = loc.schema;
  if (!isObj(s) || depth > 4) return undefined;
  if (typeof s.$ref === "string") {
    const t = resolveRef(tree, loc.doc, s.$ref);
    return t ? unionTypes(tree, t, depth + 1) : undefined;
  }
  const own = typesOf(s);
  if (own) return own;
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (!branches) return undefined;
  const all: string[] = [];
  for (const [i, b] of branches.entries()) {
    const t = unionTypes(tree, at(loc, `/${Array.isArray(s.oneOf) ? "oneOf" : "anyOf"}/${i}`, b), depth + 1);
    if (!t) return undefined;
    all.push(...t);
  }
  return [...new Set(all)];
}

function compareTypes(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const ot = unionTypes(ctx.oldTree, o);
  const nt = unionTypes(ctx.newTree, n);
  if (!ot && !nt) return;
  const oAll = ot ?? ALL_TYPES;
  const nAll = nt ?? ALL_TYPES;
  const lost = oAll.filter((t) => !covered(t, nAll) || (t === "number" && !nAll.includes("number")));
  const gained = nAll.filter((t) => !covered(t, oAll) || (t === "number" && !oAll.includes("number")));
  const show = (t: string[] | undefined) => (t ? t.join("|") : "any");
  if (lost.length > 0) {
    report(ctx, "WIRE_TYPE_CHANGED", o, n, "type", `type narrowed from ${show(ot)} to ${show(nt)}: new readers reject old ${lost.join(", ")} values`, path, "old-writer-new-reader", [...sets(lost.flatMap((t) => TYPE_SAMPLES[t] ?? [])), ...sample(ctx.oldTree, o)]);
  }
  if (gained.length > 0) {
    report(ctx, "WIRE_TYPE_CHANGED", o, n, "type", `type widened from ${show(ot)} to ${show(nt)}: old readers reject new ${gained.join(", ")} values`, path, "new-writer-old-reader", [...sets(gained.flatMap((t) => TYPE_SAMPLES[t] ?? [])), ...sample(ctx.newTree, n)]);
  }
}

/** const and enum as one closed value set (const x is enum [x]). */
function compareValues(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const values = (s: Obj): JsonValue[] | undefined => (s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined);
  const ov = values(os);
  const nv = values(ns);
  if (!ov && !nv) return;
  const usesConst = os.const !== undefined || ns.const !== undefined;
  const keyword = ns.const !== undefined || os.const !== undefined ? "const" : "enum";
  const show = (v: JsonValue[] | undefined) => (v ? v.map((x) => JSON.stringify(x)).join(", ") : "any value");
  if (ov && nv) {
    const nKeys = new Set(nv.map(canonical));
    const oKeys = new Set(ov.map(canonical));
    const lost = ov.filter((v) => !nKeys.has(canonical(v)));
    const gained = nv.filter((v) => !oKeys.has(canonical(v)));
    if (usesConst && (lost.length > 0 || gained.length > 0)) {
      report(ctx, "WIRE_CONST_CHANGED", o, n, keyword, `allowed value changed from ${show(ov)} to ${show(nv)}`, path, "either", sets([...lost, ...gained]));
      return;
    }
    if (lost.length > 0) report(ctx, "WIRE_ENUM_VALUE_REMOVED", o, n, "enum", `enum value ${show(lost)} removed: new readers reject it from old writers`, path, "old-writer-new-reader", sets(lost));
    if (gained.length > 0) report(ctx, "WIRE_ENUM_VALUE_ADDED", o, n, "enum", `enum value ${show(gained)} added: old readers reject it from new writers`, path, "new-writer-old-reader", sets(gained));
    return;
  }
  const rule = usesConst ? "WIRE_CONST_CHANGED" : ov ? "WIRE_ENUM_VALUE_ADDED" : "WIRE_ENUM_VALUE_REMOVED";
  if (ov) report(ctx, rule, o, n, keyword, `the closed value set ${show(ov)} was dropped: old readers reject other values from new writers`, path, "new-writer-old-reader", [...sample(ctx.newTree, n), ...pool()]);
  else report(ctx, rule, o, n, keyword, `values are now restricted to ${show(nv)}: new readers reject other values from old writers`, path, "old-writer-new-reader", [...sample(ctx.oldTree, o), ...pool()]);
}

function compareObject(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const op = isObj(os.properties) ? os.properties : {};
  const np = isObj(ns.properties) ? ns.properties : {};
  const oClosed = os.additionalProperties === false;
  const nClosed = ns.additionalProperties === false;
  for (const name of Object.keys(op)) {
    const oChild = at(o, `/properties/${esc(name)}`, op[name]);
    if (name in np) cmp(ctx, oChild, at(n, `/properties/${esc(name)}`, np[name]), [...path, name]);
    else if (nClosed) report(ctx, "WIRE_FIELD_REMOVED", oChild, at(n, "/properties", ns.properties), "", `property ${name} removed from a closed object: new readers reject old instances that carry it`, [...path, name], "old-writer-new-reader", sample(ctx.oldTree, oChild), true);
  }
  for (const name of Object.keys(np)) {
    if (name in op || !oClosed) continue;
    const nChild = at(n, `/properties/${esc(name)}`, np[name]);
    report(ctx, "WIRE_PROPERTY_ADDED_CLOSED", at(o, "/properties", os.properties), nChild, "", `property ${name} added to a closed object: old readers reject new instances that carry it`, [...path, name], "new-writer-old-reader", sample(ctx.newTree, nChild));
  }
  const or = new Set(Array.isArray(os.required) ? os.required.map(String) : []);
  const nr = new Set(Array.isArray(ns.required) ? ns.required.map(String) : []);
  for (const name of nr) if (!or.has(name)) report(ctx, "WIRE_REQUIRED_ADDED", o, n, "required", `${name} is now required: new readers reject old instances without it`, [...path, name], "old-writer-new-reader", [{ remove: true }]);
  for (const name of or) if (!nr.has(name)) report(ctx, "WIRE_REQUIRED_REMOVED", o, n, "required", `${name} is no longer required: old readers reject new instances without it`, [...path, name], "new-writer-old-reader", [{ remove: true }]);

  const extra = [...path, EXTRA_PROPERTY];
  const extraValues = sets(["x", 1, {}]);
  const oAp = os.additionalProperties;
  const nAp = ns.additionalProperties;
  if (!oClosed && nClosed) report(ctx, "WIRE_OBJECT_CLOSED", o, n, "additionalProperties", "additionalProperties closed: new readers reject undeclared properties old writers may send", extra, "old-writer-new-reader", isObj(oAp) ? sample(ctx.oldTree, at(o, "/additionalProperties", oAp)) : extraValues);
  else if (oClosed && !nClosed) report(ctx, "WIRE_OBJECT_OPENED", o, n, "additionalProperties", "additionalProperties opened: old readers reject undeclared properties new writers may send", extra, "new-writer-old-reader", isObj(nAp) ? sample(ctx.newTree, at(n, "/additionalProperties", nAp)) : extraValues);
  else if (isObj(oAp) || isObj(nAp)) {
    if (!oClosed && !nClosed) cmp(ctx, at(o, "/additionalProperties", oAp === true ? {} : oAp), at(n, "/additionalProperties", nAp === true ? {} : nAp), extra);
  }
}

const LOWER = ["minLength", "minItems", "minProperties"] as const;
const UPPER = ["maxLength", "maxItems", "maxProperties"] as const;

function compareBounds(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const num = (v: JsonValue | undefined) => (typeof v === "number" ? v : undefined);
  const stringsOrItems = (s: Obj, loc: Located, tree: SpecTree, length: number, kw: string): Candidate[] => {
    if (kw.endsWith("Length")) return sets(stringsOfLength(length, s.pattern));
    if (kw.endsWith("Items")) {
      const item = synth(tree, at(loc, "/items", s.items))[0] ?? 1;
      return sets([Array.from({ length }, () => item)]);
    }
    return [];
  };
  for (const kw of [...LOWER, ...UPPER]) {
    const a = num(os[kw]);
    const b = num(ns[kw]);
    if (a === b) continue;
    const lower = (LOWER as readonly string[]).includes(kw);
    const tightened = lower ? (a ?? 0) < (b ?? 0) : (b ?? Infinity) < (a ?? Infinity);
    const desc = `${kw} ${a ?? "unset"} -> ${b ?? "unset"}`;
    if (tightened) {
      const len = lower ? (a ?? 0) : (b ?? 0) + 1;
      report(ctx, "WIRE_BOUND_TIGHTENED", o, n, kw, `${desc}: new readers reject some old instances`, path, "old-writer-new-reader", [...stringsOrItems(os, o, ctx.oldTree, len, kw), ...sample(ctx.oldTree, o)]);
    } else {
      const len = lower ? (b ?? 0) : (a ?? 0) + 1;
      report(ctx, "WIRE_BOUND_LOOSENED", o, n, kw, `${desc}: old readers reject some new instances`, path, "new-writer-old-reader", [...stringsOrItems(ns, n, ctx.newTree, len, kw), ...sample(ctx.newTree, n)]);
    }
  }
  // Numbers: a lower bound is (value, exclusive); compare the effective bounds.
  const bound = (s: Obj, side: "lower" | "upper"): { v: number; ex: boolean } | undefined => {
    const inc = num(s[side === "lower" ? "minimum" : "maximum"]);
    const exc = num(s[side === "lower" ? "exclusiveMinimum" : "exclusiveMaximum"]);
    if (inc === undefined && exc === undefined) return undefined;
    if (inc === undefined) return { v: exc!, ex: true };
    if (exc === undefined) return { v: inc, ex: false };
    const excTighter = side === "lower" ? exc >= inc : exc <= inc;
    return excTighter ? { v: exc, ex: true } : { v: inc, ex: false };
  };
  for (const side of ["lower", "upper"] as const) {
    const a = bound(os, side);
    const b = bound(ns, side);
    if (a?.v === b?.v && a?.ex === b?.ex) continue;
    const sign = side === "lower" ? 1 : -1;
    // Positive when b is stricter than a.
    const stricter = (x: typeof a, y: typeof a): boolean => {
      if (!y) return false;
      if (!x) return true;
      return sign * (y.v - x.v) > 0 || (y.v === x.v && y.ex && !x.ex);
    };
    const kw = side === "lower" ? (ns.exclusiveMinimum !== undefined || os.exclusiveMinimum !== undefined ? "exclusiveMinimum" : "minimum") : ns.exclusiveMaximum !== undefined || os.exclusiveMaximum !== undefined ? "exclusiveMaximum" : "maximum";
    const show = (x: typeof a) => (x ? `${x.ex ? (side === "lower" ? ">" : "<") : side === "lower" ? ">=" : "<="} ${x.v}` : "unbounded");
    const near = (x: { v: number; ex: boolean } | undefined, other: typeof a): JsonValue[] => {
      const base = x?.v ?? (other ? other.v - sign * 10 : 0);
      return [base, base + sign, base + sign * 0.5, base - sign, base - sign * 0.5];
    };
    if (stricter(a, b)) report(ctx, "WIRE_BOUND_TIGHTENED", o, n, kw, `${side} bound ${show(a)} -> ${show(b)}: new readers reject some old instances`, path, "old-writer-new-reader", sets(near(a, b)));
    else if (stricter(b, a)) report(ctx, "WIRE_BOUND_LOOSENED", o, n, kw, `${side} bound ${show(a)} -> ${show(b)}: old readers reject some new instances`, path, "new-writer-old-reader", sets(near(b, a)));
  }
}

/** True when `wider` is a top-level alternation one of whose branches is exactly `narrower`. */
export function patternIncludes(narrower: string, wider: string): boolean {
  if (narrower === wider) return true;
  return splitAlternatives(wider).some((alt) => alt === narrower || alt === `(?:${narrower})` || alt === `(${narrower})`);
}

function splitAlternatives(p: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(p.slice(start, i));
      start = i + 1;
    }
  }
  out.push(p.slice(start));
  return out;
}

function stringCandidates(ctx: Ctx, o: Located, n: Located): Candidate[] {
  const mutated = [...synth(ctx.oldTree, o), ...synth(ctx.newTree, n)].filter((v): v is string => typeof v === "string").flatMap((s) => [s, s.toUpperCase(), s.toLowerCase(), `${s}!`, s.slice(1), ` ${s}`, `${s}${s}`]);
  return sets([...mutated, ...STRING_POOL]);
}

function compareStrings(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const op = typeof os.pattern === "string" ? os.pattern : undefined;
  const np = typeof ns.pattern === "string" ? ns.pattern : undefined;
  if (op !== np) {
    const cands = stringCandidates(ctx, o, n);
    if (op !== undefined && (np === undefined || patternIncludes(op, np))) {
      report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `pattern loosened from ${JSON.stringify(op)} to ${np === undefined ? "none" : JSON.stringify(np)} (the old pattern is kept as an alternative): old readers reject some new strings`, path, "new-writer-old-reader", cands);
    } else if (op === undefined) {
      report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `pattern ${JSON.stringify(np)} added: new readers reject some old strings`, path, "old-writer-new-reader", cands);
    } else {
      report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `pattern changed from ${JSON.stringify(op)} to ${JSON.stringify(np)}: a changed pattern is not provably included either way`, path, "either", cands);
    }
  }
  if (os.format !== ns.format) {
    report(ctx, "WIRE_FORMAT_CHANGED", o, n, "format", `format changed from ${JSON.stringify(os.format ?? "none")} to ${JSON.stringify(ns.format ?? "none")}`, path, ns.format === undefined ? "new-writer-old-reader" : os.format === undefined ? "old-writer-new-reader" : "either", stringCandidates(ctx, o, n));
  }
}

/** The discriminator value each branch fixes, or undefined when the branch does not fix one. */
function branchValues(tree: SpecTree, loc: Located, prop: string, depth = 0): string[] | undefined {
  const s = loc.schema;
  if (!isObj(s) || depth > 5) return undefined;
  if (typeof s.$ref === "string") {
    const t = resolveRef(tree, loc.doc, s.$ref);
    return t ? branchValues(tree, t, prop, depth + 1) : undefined;
  }
  const p = isObj(s.properties) ? s.properties[prop] : undefined;
  if (!isObj(p)) return undefined;
  if (p.const !== undefined) return [canonical(p.const)];
  return Array.isArray(p.enum) ? p.enum.map(canonical) : undefined;
}

function compareUnions(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const od = isObj(os.discriminator) ? String(os.discriminator.propertyName) : undefined;
  const nd = isObj(ns.discriminator) ? String(ns.discriminator.propertyName) : undefined;
  const both = [...sample(ctx.oldTree, o), ...sample(ctx.newTree, n)];
  if (od !== nd && Array.isArray(os.oneOf) && Array.isArray(ns.oneOf)) {
    report(ctx, "WIRE_DISCRIMINATOR_CHANGED", o, n, "discriminator", `discriminator property changed from ${od ?? "none"} to ${nd ?? "none"}`, path, "either", both);
  }
  for (const key of ["oneOf", "anyOf", "allOf"] as const) {
    const ob = Array.isArray(os[key]) ? (os[key] as JsonValue[]) : undefined;
    const nb = Array.isArray(ns[key]) ? (ns[key] as JsonValue[]) : undefined;
    if (!ob && !nb) continue;
    if (key === "oneOf" && od !== undefined && od === nd && ob && nb) {
      const index = (tree: SpecTree, loc: Located, branches: JsonValue[]) => {
        const m = new Map<string, Located>();
        branches.forEach((b, i) => {
          const bl = at(loc, `/oneOf/${i}`, b);
          for (const v of branchValues(tree, bl, od) ?? []) m.set(v, bl);
        });
        return m;
      };
      const om = index(ctx.oldTree, o, ob);
      const nm = index(ctx.newTree, n, nb);
      for (const [v, bl] of om) {
        const other = nm.get(v);
        if (other) cmp(ctx, bl, other, path);
        else report(ctx, "WIRE_DISCRIMINATOR_CHANGED", bl, at(n, "/oneOf", ns.oneOf), "", `${od} ${v} no longer selects a branch: new readers reject it from old writers`, path, "old-writer-new-reader", withValue(synth(ctx.oldTree, bl), od, v), true);
      }
      for (const [v, bl] of nm) {
        if (!om.has(v)) report(ctx, "WIRE_DISCRIMINATOR_CHANGED", at(o, "/oneOf", os.oneOf), bl, "", `${od} ${v} is a new branch: old readers reject it from new writers`, path, "new-writer-old-reader", withValue(synth(ctx.newTree, bl), od, v));
      }
      continue;
    }
    if (ob && nb && ob.length === nb.length) {
      ob.forEach((b, i) => cmp(key === "allOf" ? { ...ctx, masked: true } : ctx, at(o, `/${key}/${i}`, b), at(n, `/${key}/${i}`, nb[i]), path));
      continue;
    }
    report(ctx, "WIRE_SCHEMA_CHANGED", o, n, key, `${key} changed from ${ob?.length ?? 0} to ${nb?.length ?? 0} branches; not provably compatible`, path, "either", [...both, ...pool()]);
  }
}

/** Branch instances with the discriminator set to the value in question (a branch may allow several). */
function withValue(instances: JsonValue[], prop: string, value: string): Candidate[] {
  const v = JSON.parse(value) as JsonValue;
  return sets(instances.map((x) => (isObj(x) ? { ...x, [prop]: v } : x)));
}

function short(v: JsonValue | undefined): string {
  const s = JSON.stringify(v) ?? "nothing";
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
