// WIRE: lengths, sizes, counts, numeric ranges, patterns and formats.
import type { JsonValue } from "../model/types.js";
import type { Candidate, PathToken } from "./finding.js";
import { STRING_POOL, stringsOfLength, synth } from "./synth.js";
import { comparePatterns } from "./regex-lang.js";
import { sampleForPattern } from "./regex-sample.js";
import type { Located, Obj, SpecTree } from "./tree.js";
import { at, report, sample, sets, type Ctx } from "./wire-report.js";

const LOWER = ["minLength", "minItems", "minProperties"] as const;
const UPPER = ["maxLength", "maxItems", "maxProperties"] as const;

export function compareBounds(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
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
    const lower = (LOWER as readonly string[]).includes(kw);
    // An absent lower bound is 0 (2020-12 validation 6.3.2, 6.4.2, 6.5.2).
    if (lower ? (a ?? 0) === (b ?? 0) : a === b) continue;
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
    // The keyword that changed; when both did (one replaced by the other), the exclusive one.
    const [inc, exc] = side === "lower" ? (["minimum", "exclusiveMinimum"] as const) : (["maximum", "exclusiveMaximum"] as const);
    const kw = num(os[exc]) === num(ns[exc]) ? inc : exc;
    const show = (x: typeof a) => (x ? `${x.ex ? (side === "lower" ? ">" : "<") : side === "lower" ? ">=" : "<="} ${x.v}` : "unbounded");
    const near = (x: { v: number; ex: boolean } | undefined, other: typeof a): JsonValue[] => {
      if (x) return [x.v, x.v + sign, x.v + sign * 0.5, x.v - sign, x.v - sign * 0.5];
      // No bound on this side: values just past the other side's bound, then far past it.
      const v = other ? other.v : 0;
      return [v - sign, v - sign * 0.5, v, v - sign * 10];
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

export function compareStrings(ctx: Ctx, o: Located, n: Located, os: Obj, ns: Obj, path: PathToken[]): void {
  const op = typeof os.pattern === "string" ? os.pattern : undefined;
  const np = typeof ns.pattern === "string" ? ns.pattern : undefined;
  if (op !== np) {
    const cands = stringCandidates(ctx, o, n);
    // A missing pattern is the empty one, which admits every string.
    const rel = comparePatterns(op ?? "", np ?? "");
    if (rel !== undefined) {
      const separating = sets([rel.oldOnly, rel.newOnly, ...rel.more].filter((x): x is string => x !== null));
      const show = (x: string | undefined) => (x === undefined ? "none" : JSON.stringify(x));
      const change = op === undefined ? `pattern ${show(np)} added,` : np === undefined ? `pattern ${show(op)} removed,` : `pattern ${show(op)} -> ${show(np)}`;
      if (rel.oldOnly === null && rel.newOnly === null) {
        // Proven to admit exactly the same strings (e.g. a rewrite against catastrophic backtracking): nothing to report.
      } else if (rel.oldOnly === null) {
        report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `${change} loosened: old readers reject some new strings, such as ${JSON.stringify(rel.newOnly)}`, path, "new-writer-old-reader", [...separating, ...cands]);
      } else if (rel.newOnly === null) {
        report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `${change} tightened: new readers reject some old strings, such as ${JSON.stringify(rel.oldOnly)}`, path, "old-writer-new-reader", [...separating, ...cands]);
      } else {
        report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `${change} changed both ways: new readers reject ${JSON.stringify(rel.oldOnly)}, old readers reject ${JSON.stringify(rel.newOnly)}`, path, "either", [...separating, ...cands]);
      }
    } else if (op !== undefined && (np === undefined || patternIncludes(op, np))) {
      // What the new alternatives match is where a separating string is most likely.
      const added = np === undefined ? [] : splitAlternatives(np).filter((alt) => !patternIncludes(op, alt));
      const fromAdded = sets(added.flatMap((alt) => [0, 1, 2, 3, 4].map((v) => sampleForPattern(alt, v))).filter((x): x is string => x !== undefined));
      report(ctx, "WIRE_PATTERN_CHANGED", o, n, "pattern", `pattern loosened from ${JSON.stringify(op)} to ${np === undefined ? "none" : JSON.stringify(np)} (the old pattern is kept as an alternative): old readers reject some new strings`, path, "new-writer-old-reader", [...fromAdded, ...cands]);
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
