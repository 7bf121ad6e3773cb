// ajv 8 gets three things about 2020-12 annotations wrong, and `unevaluatedItems` and
// `unevaluatedProperties` read annotations:
// - `contains` marks every item evaluated at compile time (ajv counts evaluated items as a prefix
//   length, and a set of matched indices is not a prefix), so `unevaluatedItems` beside it checks
//   nothing;
// - the properties an `if` evaluated are counted when `if` fails too, and a lone `if` (no `then`,
//   no `else`) is skipped with its annotations;
// - items evaluated by `items` in one passing `anyOf` branch are lost when another branch is `true`.
// The schema that reads annotations is spelled so that ajv only has to merge the annotations of
// `allOf` (which it does right): every way its in-place applicators can pass becomes one `anyOf`
// disjunct, the conjunction of what passes in that way, with the unevaluated keywords on it and
// each `contains` of that way counted as an item-level alternative of `unevaluatedItems`. This is
// exact: an instance is valid iff the disjunct of the largest set of passing branches is (its
// annotations are the union the keyword reads; a smaller set only evaluates less).
// The Kotlin and Swift interpreters collect annotations as 2020-12 says and read the schemas as
// written: the spelling is ajv's only (schema-compiler.ts).
import { SchemaKeywordError } from "./runtime-keywords.js";
import type { JsonSchema, JsonValue } from "./types.js";

/** Keys that stay on the rewritten schema: identity and documentation, never duplicated. */
const IDENTITY = new Set(["$id", "$schema", "$anchor", "$dynamicAnchor", "$defs", "$comment", "title", "description", "examples", "default"]);
const CONTAINS = ["contains", "minContains", "maxContains"];
const UNEVALUATED = ["unevaluatedItems", "unevaluatedProperties"];
const SINGLE = new Set(["additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]);
const LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** More disjuncts than this is refused: the spelling would grow exponentially with the branches. */
export const MAX_DISJUNCTS = 64;

/** One way the in-place applicators pass: the schemas that all pass, and the `contains` among them. */
interface Way {
  parts: JsonValue[];
  contains: JsonValue[];
}

/** `schema` with every schema that reads annotations through a construct ajv gets wrong respelled. */
export function spellAnnotations(schema: JsonValue, document: string): JsonValue {
  return walk(schema, document, "");
}

function walk(node: JsonValue, document: string, pointer: string): JsonValue {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${escape(key)}`;
    if (SINGLE.has(key)) out[key] = walk(value, document, at);
    else if (LISTS.has(key) && Array.isArray(value)) out[key] = value.map((v, i) => walk(v, document, `${at}/${i}`));
    else if (MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, walk(v, document, `${at}/${escape(name)}`)]));
    else out[key] = value;
  }
  return needsSpelling(out) ? spell(out, document, pointer) : out;
}

function needsSpelling(schema: JsonSchema): boolean {
  const items = schema["unevaluatedItems"] !== undefined;
  const props = schema["unevaluatedProperties"] !== undefined;
  if (!items && !props) return false;
  let found = false;
  const look = (s: JsonValue, top: boolean): void => {
    if (!isObject(s) || (!top && UNEVALUATED.some((k) => s[k] !== undefined))) return;
    if (s["if"] !== undefined || (items && (s["contains"] !== undefined || s["anyOf"] !== undefined || s["oneOf"] !== undefined))) found = true;
    for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(s[key])) (s[key] as JsonValue[]).forEach((b) => look(b, false));
    for (const key of ["if", "then", "else"]) look(s[key] as JsonValue, false);
  };
  look(schema, true);
  return found;
}

function spell(schema: JsonSchema, document: string, pointer: string): JsonSchema {
  let ways: Way[];
  try {
    ways = waysOf(schema, true, document, pointer);
  } catch (error) {
    // The refusal names the keyword that reads the annotations: unevaluatedItems when present.
    if (!(error instanceof SchemaKeywordError) || schema["unevaluatedItems"] !== undefined) throw error;
    throw new SchemaKeywordError(error.document, error.pointer, "unevaluatedProperties", error.detail);
  }
  const kept: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (IDENTITY.has(key)) kept[key] = value;
  const disjuncts = ways.map((way) => {
    const d: JsonSchema = { allOf: way.parts.length > 0 ? way.parts : [true] };
    if (schema["unevaluatedItems"] !== undefined) {
      d["unevaluatedItems"] = way.contains.length === 0 ? schema["unevaluatedItems"] : { anyOf: [...way.contains, schema["unevaluatedItems"]] };
    }
    if (schema["unevaluatedProperties"] !== undefined) d["unevaluatedProperties"] = schema["unevaluatedProperties"];
    return d;
  });
  kept["anyOf"] = disjuncts;
  return kept;
}

/** Every way `schema` can pass, as conjunctions of annotation-flat parts. */
function waysOf(schema: JsonValue, top: boolean, document: string, pointer: string): Way[] {
  if (!isObject(schema)) return [{ parts: [schema], contains: [] }];
  // A schema with its own unevaluated keywords was spelled already; it is one part.
  if (!top && UNEVALUATED.some((k) => schema[k] !== undefined)) return [{ parts: [schema], contains: [] }];
  const own: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (IDENTITY.has(key) || UNEVALUATED.includes(key) || CONTAINS.includes(key)) continue;
    if (["allOf", "anyOf", "oneOf", "if", "then", "else"].includes(key)) continue;
    own[key] = value;
  }
  if (!top && Object.keys(schema).some((k) => IDENTITY.has(k) && k !== "$comment" && k !== "title" && k !== "description" && k !== "examples" && k !== "default")) {
    throw new SchemaKeywordError(document, pointer, "unevaluatedItems", "a schema with $id, $anchor or $defs under a branch that unevaluated keywords read cannot be respelled for ajv (it would be duplicated)");
  }
  let ways: Way[] = [{ parts: Object.keys(own).length > 0 ? [own] : [], contains: [] }];
  if (schema["contains"] !== undefined) {
    const assertion: JsonSchema = {};
    for (const key of CONTAINS) if (schema[key] !== undefined) assertion[key] = schema[key];
    // `not` merges no annotations: the assertion stays, ajv's "every item evaluated" goes.
    ways = product(ways, [{ parts: [{ not: { not: assertion } }], contains: [schema["contains"]] }], document, pointer);
  }
  const allOf = schema["allOf"];
  if (Array.isArray(allOf)) allOf.forEach((b, i) => (ways = product(ways, waysOf(b, false, document, `${pointer}/allOf/${i}`), document, pointer)));
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf)) {
    const branches = anyOf.map((b, i) => waysOf(b, false, document, `${pointer}/anyOf/${i}`));
    const subsets: Way[] = [];
    for (let mask = 1; mask < 1 << branches.length; mask++) {
      if (mask > MAX_DISJUNCTS) tooMany(document, pointer);
      let w: Way[] = [{ parts: [], contains: [] }];
      branches.forEach((b, i) => {
        if (mask & (1 << i)) w = product(w, b, document, pointer);
      });
      subsets.push(...w);
    }
    ways = product(ways, subsets, document, pointer);
  }
  const oneOf = schema["oneOf"];
  if (Array.isArray(oneOf)) {
    // Exactly one branch passes: the oneOf asserts that, the branch gives the annotations.
    const exactlyOne: JsonSchema = { not: { not: { oneOf } } };
    const chosen = oneOf.flatMap((b, i) => waysOf(b, false, document, `${pointer}/oneOf/${i}`));
    ways = product(ways, product([{ parts: [exactlyOne], contains: [] }], chosen, document, pointer), document, pointer);
  }
  if (schema["if"] !== undefined) {
    const condition = schema["if"];
    const passes = product(waysOf(condition, false, document, `${pointer}/if`), waysOf(schema["then"] ?? true, false, document, `${pointer}/then`), document, pointer);
    const fails = product([{ parts: [{ not: condition }], contains: [] }], waysOf(schema["else"] ?? true, false, document, `${pointer}/else`), document, pointer);
    ways = product(ways, [...passes, ...fails], document, pointer);
  }
  return ways;
}

function product(a: Way[], b: Way[], document: string, pointer: string): Way[] {
  if (a.length * b.length > MAX_DISJUNCTS) tooMany(document, pointer);
  return a.flatMap((x) => b.map((y) => ({ parts: [...x.parts, ...y.parts], contains: [...x.contains, ...y.contains] })));
}

function tooMany(document: string, pointer: string): never {
  throw new SchemaKeywordError(document, pointer, "unevaluatedItems", `the branches unevaluated keywords read here combine in more than ${MAX_DISJUNCTS} ways`);
}

function isObject(v: JsonValue | undefined): v is JsonSchema {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
