// Small valid-looking instances of a schema, used as the starting points and the values of
// witness instances. Nothing here has to be right: every witness is checked with ajv against both
// schemas before it is printed, so this only needs to be good at guessing.
import type { JsonValue } from "../model/types.js";
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
  "1.0.0", "0.1.0", "2.0.0-rc.1", "https://example.com/a", "http://example.com/a", "user@example.com",
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
  const out = FILL_CHARS.map((c) => c.repeat(Math.max(0, length))).filter((s) => !re || re.test(s));
  return out.length > 0 ? out.slice(0, 2) : [FILL_CHARS[0]!.repeat(Math.max(0, length))];
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

function child(loc: Located, schema: JsonValue, suffix: string): Located {
  return { doc: loc.doc, pointer: loc.pointer + suffix, schema };
}

function gen(ctx: Ctx, loc: Located): JsonValue[] {
  const s = loc.schema;
  if (s === true || s === undefined) return ["x", 1, {}];
  if (!isObj(s) || ctx.depth > 10) return [];
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  if (typeof s.$ref === "string") {
    const target = resolveRef(ctx.tree, loc.doc, s.$ref);
    return target ? gen(deeper, target) : [];
  }
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
      const re = regex(s.pattern);
      const fromPool = re ? STRING_POOL.filter((p) => re.test(p) && p.length >= min && (typeof s.maxLength !== "number" || p.length <= s.maxLength)) : [];
      return [...stringsOfLength(Math.max(min, 1), s.pattern), ...fromPool.slice(0, 2)];
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
      const valueOf = (name: string): JsonValue | undefined => gen(ctx, child(loc, props[name]!, `/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`))[0];
      const requiredOnly: { [k: string]: JsonValue } = {};
      const all: { [k: string]: JsonValue } = {};
      for (const name of Object.keys(props)) {
        const v = valueOf(name);
        if (v === undefined) continue;
        all[name] = v;
        if (required.has(name)) requiredOnly[name] = v;
      }
      return [all, requiredOnly];
    }
    default:
      return [];
  }
}
