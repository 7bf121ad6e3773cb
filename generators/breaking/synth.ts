// Small valid-looking instances of a schema, used as the starting points and the values of
// witness instances. Nothing here has to be right: every witness is checked with ajv against both
// schemas before it is printed, so this only needs to be good at guessing.
import type { JsonValue } from "../model/types.js";
import { sampleForPattern } from "./regex-sample.js";
import { isObj, resolveRef, type Located, type SpecTree } from "./tree.js";

const FORMAT_SAMPLES: Record<string, string[]> = {
  "date-time": ["2024-01-01T00:00:00Z"],
  date: ["2024-01-01"],
  time: ["00:00:00Z"],
  uri: ["https://example.com/a"],
  "uri-reference": ["https://example.com/a"],
  url: ["https://example.com/a"],
  email: ["user@example.com"],
  uuid: ["00000000-0000-4000-8000-000000000000"],
  ipv4: ["127.0.0.1"],
  ipv6: ["::1"],
  hostname: ["example.com"],
};

/** Strings tried when a pattern or format has to be satisfied, or broken. */
export const STRING_POOL: readonly string[] = [
  "a", "x", "A", "0", "1", "a1", "abc", "ABC", "a-b", "a_b", "a.b", "a b", "-", " ", "", "!",
  "1.0.0", "0.1.0", "2.0.0-rc.1", "https://example.com", "https://example.com/a", "http://example.com/a", "user@example.com",
  "2024-01-01T00:00:00Z", "2024-01-01", "00000000-0000-4000-8000-000000000000", "127.0.0.1", "example.com",
  "a".repeat(64), "f".repeat(64), "0".repeat(64), "A".repeat(64), "a".repeat(32),
];
const FILL_CHARS = ["a", "0", "f", "A", "x", "-", "_", " ", "."];

function regex(pattern: unknown): RegExp | undefined {
  if (typeof pattern !== "string") return undefined;
  try {
    return new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
}

/** Strings of exactly `length` characters built from one repeated character that the pattern accepts. */
export function stringsOfLength(length: number, pattern?: unknown): string[] {
  const re = regex(pattern);
  const n = Math.max(0, length);
  const out = FILL_CHARS.map((c) => c.repeat(n)).filter((s) => !re || re.test(s));
  if (out.length > 0 || !re) return out.length > 0 ? out.slice(0, 2) : [FILL_CHARS[0]!.repeat(n)];
  // Grow a matching sample to the length by repeating one character at one place.
  const seeds = [sampleForPattern(String(pattern), 0), sampleForPattern(String(pattern), 1), ...STRING_POOL].filter((x): x is string => x !== undefined && re.test(x) && x.length <= n);
  for (const seed of seeds.slice(0, 6)) {
    for (const ch of new Set([...seed, ...FILL_CHARS])) {
      for (let pos = 0; pos <= seed.length; pos++) {
        const grown = seed.slice(0, pos) + ch.repeat(n - seed.length) + seed.slice(pos);
        if (re.test(grown)) return [grown];
      }
    }
  }
  return [];
}

/** Strings for a pattern: repeated characters at the lengths its {n} and {n,m} quantifiers name, then the pool. */
function patternStrings(pattern: string, min: number, max: number | undefined): string[] {
  const re = regex(pattern);
  if (!re) return [];
  const lengths = new Set<number>([Math.max(min, 1)]);
  for (const m of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    lengths.add(Number(m[1]));
    if (m[2]) lengths.add(Number(m[2]));
  }
  const fits = (x: string) => x.length >= min && (max === undefined || x.length <= max) && re.test(x);
  const fills = [...lengths].flatMap((n) => FILL_CHARS.map((c) => c.repeat(n)));
  const walked = [0, 1].map((v) => sampleForPattern(pattern, v)).filter((x): x is string => x !== undefined);
  // Too short for minLength: pad by repeating the walked sample's last character where that still matches.
  const padded = walked.map((x) => (x.length >= min || x === "" ? x : x + x.slice(-1).repeat(min - x.length)));
  return [...new Set([...walked, ...padded, ...fills, ...STRING_POOL])].filter(fits).slice(0, 3);
}

interface Ctx {
  tree: SpecTree;
  depth: number;
}

/** Up to `limit` instances of the schema at `loc` (one per union branch where there is a union). */
export function synth(tree: SpecTree, loc: Located, limit = 6): JsonValue[] {
  return uniq(gen({ tree, depth: 0 }, loc)).slice(0, limit);
}

function uniq(values: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = JSON.stringify(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The schema a chain of $refs ends at. A $ref adds no level to the instance, so following one
 * does not count toward the depth: a branch behind a long chain of references still gets its
 * instances. A chain that comes back to itself, or a $ref that does not resolve, admits nothing.
 */
function followRefs(tree: SpecTree, start: Located): Located | undefined {
  const visited = new Set<JsonValue>();
  let loc = start;
  while (isObj(loc.schema) && typeof loc.schema.$ref === "string") {
    if (visited.has(loc.schema)) return undefined;
    visited.add(loc.schema);
    const target = resolveRef(tree, loc.doc, loc.schema.$ref);
    if (target === undefined) return undefined;
    loc = target;
  }
  return loc;
}

function child(loc: Located, schema: JsonValue, suffix: string): Located {
  return { doc: loc.doc, pointer: loc.pointer + suffix, schema };
}

function gen(ctx: Ctx, at: Located): JsonValue[] {
  const loc = followRefs(ctx.tree, at);
  if (loc === undefined) return [];
  const s = loc.schema;
  if (s === true || s === undefined) return ["x", 1, {}];
  if (!isObj(s) || ctx.depth > 10) return [];
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  if (s.const !== undefined) return [s.const];
  if (Array.isArray(s.enum)) return s.enum.slice(0, 4);
  const examples = Array.isArray(s.examples) ? s.examples.slice(0, 2) : [];
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) return [...examples, ...branches.flatMap((b, i) => gen(deeper, child(loc, b, `/${key}/${i}`)).map((v) => mergeOwn(ctx, loc, v)))];
  }
  if (Array.isArray(s.allOf)) {
    const first = s.allOf[0];
    if (first !== undefined && !isObj(s.properties)) return [...examples, ...gen(deeper, child(loc, first, "/allOf/0"))];
  }
  const types = Array.isArray(s.type) ? s.type.map(String) : typeof s.type === "string" ? [s.type] : isObj(s.properties) ? ["object"] : s.items !== undefined ? ["array"] : ["string"];
  return [...examples, ...types.flatMap((t) => ofType(deeper, loc, s, t))];
}

/** A union inside an object that also declares properties: keep the branch's value as it is. */
function mergeOwn(_ctx: Ctx, _loc: Located, v: JsonValue): JsonValue {
  return v;
}

function ofType(ctx: Ctx, loc: Located, s: { [k: string]: JsonValue }, type: string): JsonValue[] {
  switch (type) {
    case "null":
      return [null];
    case "boolean":
      return [true];
    case "integer":
    case "number": {
      const int = type === "integer";
      const lo = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + (int ? 1 : 0.5) : undefined;
      const hi = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - (int ? 1 : 0.5) : undefined;
      let v = lo ?? (hi !== undefined ? Math.min(hi, 1) : 1);
      if (int) v = Math.ceil(v);
      return [v];
    }
    case "string": {
      if (typeof s.format === "string" && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format]!;
      const min = typeof s.minLength === "number" ? s.minLength : 1;
      const max = typeof s.maxLength === "number" ? s.maxLength : undefined;
      if (typeof s.pattern === "string") {
        const found = patternStrings(s.pattern, typeof s.minLength === "number" ? s.minLength : 0, max);
        return found.length > 0 ? found : ["a".repeat(Math.max(min, 1))];
      }
      return stringsOfLength(Math.max(min, 1));
    }
    case "array": {
      const items = s.items === undefined ? [1] : gen(ctx, child(loc, s.items, "/items"));
      const n = Math.max(typeof s.minItems === "number" ? s.minItems : 1, 1);
      const first = items[0];
      if (first === undefined) return [[]];
      // uniqueItems: different items where the schema offers them.
      return [Array.from({ length: n }, (_, i) => (s.uniqueItems === true ? items[i % items.length]! : first))];
    }
    case "object": {
      const props = isObj(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
      const valuesOf = (name: string): JsonValue[] => gen(ctx, child(loc, props[name]!, `/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`));
      const values = new Map(Object.keys(props).map((name) => [name, valuesOf(name)]));
      // Variant k takes each property's k-th value, so properties that constrain each other
      // (if/then on a sibling) meet in more than one combination.
      const variant = (k: number, onlyRequired: boolean): JsonValue => {
        const out: { [key: string]: JsonValue } = {};
        for (const [name, vs] of values) if (vs.length > 0 && (!onlyRequired || required.has(name))) out[name] = vs[k % vs.length]!;
        return out;
      };
      return [variant(0, false), variant(0, true), variant(1, false), variant(2, false), variant(3, false)];
    }
    default:
      return [];
  }
}
