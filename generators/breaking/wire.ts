// WIRE: schema inclusion. For each pair of schemas at the same place in the old and the new spec,
// it asks "is every instance the old one accepts accepted by the new one (old writers, new
// readers), and the reverse (new writers, old readers)?" over the keyword subset the spec uses.
// Each "no" becomes a finding with the instance path where the two differ and candidate values;
// witness.ts turns those into a concrete instance checked with ajv on both sides.
//
// Assumption (documented in the README): a property name an object did not declare was not sent
// by old writers, so declaring it as optional in an open object is compatible.
import type { JsonValue } from "../model/types.js";
import { canonical, deepEqual, finding, position, type Candidate, type Finding, type PathToken } from "./finding.js";
import { synth } from "./synth.js";
import { isObj, resolveRef, type Located, type Obj, type SpecTree } from "./tree.js";
import { sampleForPattern } from "./regex-sample.js";
import { compareBounds, compareStrings } from "./wire-bounds.js";
import { ANNOTATIONS, at, esc, pool, report, sample, sets, typesOf, type Ctx } from "./wire-report.js";

const HANDLED = new Set([
  "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "pattern", "format",
  "oneOf", "anyOf", "allOf", "discriminator",
  "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
]);
/** Keywords that only ever add a condition: written on one side only, they restrict that side. */
const RESTRICTING = new Set(["propertyNames", "uniqueItems", "multipleOf", "contains", "minContains", "maxContains", "dependentRequired", "dependentSchemas", "patternProperties", "prefixItems", "unevaluatedProperties", "unevaluatedItems"]);
/** A property name no schema declares, for witnesses about additionalProperties. */
export const EXTRA_PROPERTY = "zzUndeclared";

/** Compares two root schemas (a message, a common file, or one $defs entry) and returns the WIRE findings. */
export function compareSchemas(oldTree: SpecTree, newTree: SpecTree, o: Located, n: Located): Finding[] {
  const ctx: Ctx = { oldTree, newTree, oldRoot: o, newRoot: n, out: [], visited: new Set() };
  cmp(ctx, o, n, []);
  return ctx.out;
}

function cmp(ctx: Ctx, o: Located, n: Located, path: PathToken[]): void {
  const os = o.schema;
  const ns = n.schema;
  if (!isObj(os) || !isObj(ns)) {
    if (!deepEqual(os, ns)) report(ctx, "WIRE_SCHEMA_CHANGED", o, n, "", `schema changed from ${short(os)} to ${short(ns)}`, path, "either", [...sample(ctx.oldTree, o), ...sample(ctx.newTree, n), ...pool()]);
    return;
  }
  // Keywords beside a $ref apply together with its target: compare them on their own as well.
  const siblings = (x: Obj) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== "$ref" && !ANNOTATIONS.has(k) && !k.startsWith("x-")));
  // Only keywords beside a $ref make an intersection; a $ref on one side only, alone, is its target.
  const besideRef = (x: Obj) => typeof x.$ref === "string" && Object.keys(siblings(x)).length > 0;
  const beside = besideRef(os) || besideRef(ns);
  if (beside) cmp({ ...ctx, masked: true }, { ...o, schema: siblings(os) }, { ...n, schema: siblings(ns) }, path);
  // With keywords beside it, a $ref's target is one side of an intersection, compared masked too.
  const refCtx: Ctx = beside ? { ...ctx, masked: true } : ctx;
  const oref = typeof os.$ref === "string" ? resolveRef(ctx.oldTree, o.doc, os.$ref) : undefined;
  const nref = typeof ns.$ref === "string" ? resolveRef(ctx.newTree, n.doc, ns.$ref) : undefined;
  if (oref && nref) {
    // The same target on both sides is compared once, where it is defined.
    if (oref.uri === nref.uri) return;
    const key = `${oref.uri} ${nref.uri}`;
    if (ctx.visited.has(key)) return;
    ctx.visited.add(key);
    const inner: Finding[] = [];
    cmp({ ...refCtx, out: inner }, oref, nref, path);
    // A difference that needs no witness is the one to name; if every one needs a witness, so does the $ref's.
    const first = inner.find((f) => !f.maskable) ?? inner[0];
    if (first) {
      ctx.out.push({
        ...finding("WIRE_REF_CHANGED", position(n, `${n.pointer}/$ref`), `$ref ${String(os.$ref)} became ${String(ns.$ref)}, which differs: ${first.message} (${first.rule})`),
        old: position(o, `${o.pointer}/$ref`),
        direction: first.direction,
        witnessRequest: first.witnessRequest,
        ...(first.maskable ? { maskable: true } : {}),
      });
    }
    return;
  }
  // A $ref on one side only: a recursive target meets the same other side again at every level
  // (an open array's items are {} however deep), so a pair already being compared stops there.
  if (oref || nref) {
    const key = oref ? `active ${oref.uri} = ${n.doc.id} ${canonical(ns)}` : `active ${o.doc.id} ${canonical(os)} = ${nref!.uri}`;
    if (ctx.visited.has(key)) return;
    ctx.visited.add(key);
    cmp(refCtx, oref ?? o, nref ?? n, path);
    ctx.visited.delete(key);
    return;
  }
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
  compareNot(ctx, o, n, os, ns, path);
  for (const key of new Set([...Object.keys(os), ...Object.keys(ns)])) {
    if (key === "not") continue; // compareNot
    if (HANDLED.has(key) || ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (sameIf && (key === "if" || key === "then" || key === "else")) continue;
    if (deepEqual(os[key], ns[key])) continue;
    const candidates = [...conditionCandidates(ctx, o, n, os, ns, key), ...sample(ctx.oldTree, o), ...sample(ctx.newTree, n), ...pool()];
    // A condition added beside others is an intersection: the siblings may already impose it (a
    // propertyNames added as a closed object opens), so it counts only with a witness.
    if (RESTRICTING.has(key) && os[key] === undefined) {
      report({ ...ctx, masked: true }, "WIRE_SCHEMA_CHANGED", o, n, key, `${key} ${short(ns[key])} added: new readers may reject some old instances (not reasoned about further)`, path, "old-writer-new-reader", candidates);
    } else if (RESTRICTING.has(key) && ns[key] === undefined) {
      report({ ...ctx, masked: true }, "WIRE_SCHEMA_CHANGED", o, n, key, `${key} ${short(os[key])} removed: old readers may reject some new instances (not reasoned about further)`, path, "new-writer-old-reader", candidates);
    } else {
      report(ctx, "WIRE_SCHEMA_CHANGED", o, n, key, `${key} changed from ${short(os[key])} to ${short(ns[key])}; not provably compatible`, path, "either", candidates);
    }
  }
}

/**
 * A `not` added excludes instances the new readers now reject; a `not` removed readmits them for
 * new writers. Candidates are instances of the excluded schema (a pattern's sample string first).
 * A `not` changed on both sides stays WIRE_SCHEMA_CHANGED, with both sides' excluded instances.
 */
function compareNot(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const excluded = (tree: SpecTree, loc: Located, s: Obj): Candidate[] => {
    const not = at(loc, "/not", s.not);
    const pattern = isObj(s.not) && typeof s.not.pattern === "string" ? s.not.pattern : undefined;
    const samples = pattern === undefined ? [] : [0, 1, 2].map((v) => sampleForPattern(pattern, v)).filter((x): x is string => x !== undefined);
    return sets([...samples, ...samples.map((x) => `${x}${x}`), ...synth(tree, not)]);
  };
  if (os.not === undefined && ns.not !== undefined) {
    report(ctx, "WIRE_SCHEMA_CHANGED", o, n, "not", `not ${short(ns.not)} added: new readers reject old instances it matches`, path, "old-writer-new-reader", [...excluded(ctx.newTree, n, ns), ...sample(ctx.oldTree, o)]);
  } else if (os.not !== undefined && ns.not === undefined) {
    report(ctx, "WIRE_SCHEMA_CHANGED", o, n, "not", `not ${short(os.not)} removed: old readers reject new instances it matches`, path, "new-writer-old-reader", [...excluded(ctx.oldTree, o, os), ...sample(ctx.newTree, n)]);
  } else if (os.not !== undefined && !deepEqual(os.not, ns.not)) {
    report(ctx, "WIRE_SCHEMA_CHANGED", o, n, "not", `not changed from ${short(os.not)} to ${short(ns.not)}; not provably compatible`, path, "either", [...excluded(ctx.oldTree, o, os), ...excluded(ctx.newTree, n, ns), ...pool()]);
  }
}

/**
 * The longest name or array a witness candidate is built to (one past a bound): a bound above it
 * gets no built candidate, so a difference there is reported only when another candidate or an
 * example shows it. Keeps a hostile spec's maxContains of 1e9 from allocating.
 */
const MAX_BUILT_LENGTH = 4096;

/**
 * Instances that a condition-only keyword of either side may refuse, built from both sides'
 * instances: the witness search needs them when no example breaks the condition.
 */
function conditionCandidates(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, key: string): Candidate[] {
  if (key === "propertyNames") return refusedMembers(ctx, o, n, os, ns);
  const instances = [...synth(ctx.oldTree, o), ...synth(ctx.newTree, n)];
  const arrays = instances.filter((x): x is JsonValue[] => Array.isArray(x) && x.length > 0);
  const out: JsonValue[] = [];
  for (const v of [os[key], ns[key]]) {
    if (key === "multipleOf" && typeof v === "number" && v > 0) out.push(v, 2 * v, 3 * v);
    // A repeated item: uniqueItems refuses it, and maxContains counts it once more than allowed.
    if (key === "uniqueItems" && v === true) out.push(...arrays.map((a) => [...a, a[0]!]));
    if (key === "maxContains" && typeof v === "number" && v >= 0 && v < MAX_BUILT_LENGTH) out.push(...arrays.map((a) => Array.from({ length: v + 1 }, () => a[0]!)));
    // The trigger present and what it makes required absent: dependentRequired lists the names,
    // dependentSchemas' subschema holds them in its own `required`.
    if ((key === "dependentRequired" || key === "dependentSchemas") && isObj(v)) {
      for (const [trigger, deps] of Object.entries(v)) {
        const required = Array.isArray(deps) ? deps : isObj(deps) && Array.isArray(deps.required) ? deps.required : [];
        for (const x of instances.filter(isObj)) {
          const y: Obj = { ...x, [trigger]: x[trigger] ?? "x" };
          for (const d of required) delete y[String(d)];
          out.push(y);
        }
      }
    }
  }
  return sets(out);
}

/** Objects of either side with one more member, named as a propertyNames schema (or its `not`) suggests. */
function refusedMembers(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj): Candidate[] {
  const names: string[] = [];
  for (const [tree, loc, s] of [[ctx.oldTree, o, os], [ctx.newTree, n, ns]] as const) {
    const pn = s.propertyNames;
    if (!isObj(pn)) continue;
    if (isObj(pn.not)) names.push(...synth(tree, at(loc, "/propertyNames/not", pn.not), 20).filter((v): v is string => typeof v === "string"));
    if (typeof pn.pattern === "string") names.push(`${sampleForPattern(pn.pattern) ?? ""}!`, "0", "-", "", "A", "_", " ", EXTRA_PROPERTY);
    // One character past a length bound (names are counted in code points, as maxLength counts).
    if (typeof pn.maxLength === "number" && pn.maxLength >= 0 && pn.maxLength < MAX_BUILT_LENGTH) names.push("a".repeat(pn.maxLength + 1));
    if (typeof pn.minLength === "number" && pn.minLength > 0 && pn.minLength <= MAX_BUILT_LENGTH) names.push("a".repeat(pn.minLength - 1));
    // A fixed set of names, or a format: an ordinary name is outside it ("a" is no uuid, date or email).
    if (pn.const !== undefined || Array.isArray(pn.enum) || typeof pn.format === "string") names.push(EXTRA_PROPERTY, "a");
  }
  const objects = [...synth(ctx.oldTree, o), ...synth(ctx.newTree, n)].filter(isObj);
  return sets(names.flatMap((name) => (objects.length > 0 ? objects : [{}]).flatMap((x) => [{ ...x, [name]: "x" }, { ...x, [name]: 1 }])));
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
  // A map (additionalProperties a schema) takes any member name, so a name one side declares and
  // the other does not is checked against that side's value schema. A patternProperties entry may
  // claim the name instead, so there the difference counts only with a witness.
  const oAp = os.additionalProperties;
  const nAp = ns.additionalProperties;
  const viaMap: Ctx = { ...ctx, masked: ctx.masked || os.patternProperties !== undefined || ns.patternProperties !== undefined };
  for (const name of Object.keys(op)) {
    const oChild = at(o, `/properties/${esc(name)}`, op[name]);
    if (name in np) cmp(ctx, oChild, at(n, `/properties/${esc(name)}`, np[name]), [...path, name]);
    else if (nClosed) report(ctx, "WIRE_FIELD_REMOVED", oChild, at(n, "/properties", ns.properties), "", `property ${name} removed from a closed object: new readers reject old instances that carry it`, [...path, name], "old-writer-new-reader", sample(ctx.oldTree, oChild), true);
    else if (isObj(nAp)) cmp(viaMap, oChild, at(n, "/additionalProperties", nAp), [...path, name]);
  }
  for (const name of Object.keys(np)) {
    if (name in op) continue;
    const nChild = at(n, `/properties/${esc(name)}`, np[name]);
    if (oClosed) report(ctx, "WIRE_PROPERTY_ADDED_CLOSED", at(o, "/properties", os.properties), nChild, "", `property ${name} added to a closed object: old readers reject new instances that carry it`, [...path, name], "new-writer-old-reader", sample(ctx.newTree, nChild));
    else if (isObj(oAp)) cmp(viaMap, at(o, "/additionalProperties", oAp), nChild, [...path, name]);
  }
  const or = new Set(Array.isArray(os.required) ? os.required.map(String) : []);
  const nr = new Set(Array.isArray(ns.required) ? ns.required.map(String) : []);
  for (const name of nr) if (!or.has(name)) report(ctx, "WIRE_REQUIRED_ADDED", o, n, "required", `${name} is now required: new readers reject old instances without it`, [...path, name], "old-writer-new-reader", [{ remove: true }]);
  for (const name of or) if (!nr.has(name)) report(ctx, "WIRE_REQUIRED_REMOVED", o, n, "required", `${name} is no longer required: old readers reject new instances without it`, [...path, name], "new-writer-old-reader", [{ remove: true }]);

  const extra = [...path, undeclaredName(os, ns)];
  const extraValues = sets(["x", 1, {}]);
  if (!oClosed && nClosed) report(ctx, "WIRE_OBJECT_CLOSED", o, n, "additionalProperties", "additionalProperties closed: new readers reject undeclared properties old writers may send", extra, "old-writer-new-reader", isObj(oAp) ? sample(ctx.oldTree, at(o, "/additionalProperties", oAp)) : extraValues);
  else if (oClosed && !nClosed) report(ctx, "WIRE_OBJECT_OPENED", o, n, "additionalProperties", "additionalProperties opened: old readers reject undeclared properties new writers may send", extra, "new-writer-old-reader", isObj(nAp) ? sample(ctx.newTree, at(n, "/additionalProperties", nAp)) : extraValues);
  else if (isObj(oAp) || isObj(nAp)) {
    if (!oClosed && !nClosed) cmp(ctx, at(o, "/additionalProperties", oAp === true ? {} : oAp), at(n, "/additionalProperties", nAp === true ? {} : nAp), extra);
  }
}

/**
 * A member name neither version declares and both versions' propertyNames admit, for witnesses
 * about additionalProperties (a map like masked_entities admits only ^[A-Z][A-Z0-9_]*$ names).
 */
function undeclaredName(os: Obj, ns: Obj): string {
  const declared = new Set([...Object.keys(isObj(os.properties) ? os.properties : {}), ...Object.keys(isObj(ns.properties) ? ns.properties : {})]);
  const names = (s: Obj): JsonValue | undefined => s.propertyNames;
  const admits = (pn: JsonValue | undefined, name: string): boolean => {
    if (!isObj(pn)) return pn !== false;
    if (Array.isArray(pn.enum) && !pn.enum.includes(name)) return false;
    if (pn.const !== undefined && pn.const !== name) return false;
    if (typeof pn.maxLength === "number" && [...name].length > pn.maxLength) return false;
    if (typeof pn.minLength === "number" && [...name].length < pn.minLength) return false;
    try {
      return typeof pn.pattern !== "string" || new RegExp(pn.pattern, "u").test(name);
    } catch {
      return false;
    }
  };
  const candidates: string[] = [EXTRA_PROPERTY, "ZZ_UNDECLARED", "zz_undeclared", "zz-undeclared"];
  for (const pn of [names(os), names(ns)]) {
    if (!isObj(pn)) continue;
    if (Array.isArray(pn.enum)) candidates.push(...pn.enum.filter((v): v is string => typeof v === "string"));
    if (typeof pn.pattern === "string") for (let v = 0; v < 4; v++) candidates.push(sampleForPattern(pn.pattern, v) ?? "");
  }
  return candidates.find((c) => c !== "" && !declared.has(c) && admits(names(os), c) && admits(names(ns), c)) ?? EXTRA_PROPERTY;
}

/**
 * The discriminator values a branch fixes, through any chain of $refs. A chain ends at a schema
 * it has already visited (a cycle admits nothing to index), so its length is bounded by the
 * spec's own schemas, not by a depth that would leave a longer chain's branch unindexed.
 */
function branchValues(tree: SpecTree, loc: Located, prop: string, visited = new Set<JsonValue>()): string[] | undefined {
  const s = loc.schema;
  if (!isObj(s) || visited.has(s)) return undefined;
  visited.add(s);
  if (typeof s.$ref === "string") {
    const t = resolveRef(tree, loc.doc, s.$ref);
    return t ? branchValues(tree, t, prop, visited) : undefined;
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
      // allOf: another branch may already impose what one branch changed. anyOf/oneOf: another
      // branch may admit what one branch stopped admitting. Either way it counts only with a witness.
      const branchCtx: Ctx = key === "allOf" || ob.length > 1 ? { ...ctx, masked: true } : ctx;
      ob.forEach((b, i) => cmp(branchCtx, at(o, `/${key}/${i}`, b), at(n, `/${key}/${i}`, nb[i]), path));
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
