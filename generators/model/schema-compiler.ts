// One way to build ajv for the spec's schemas, shared by the check stage (examples) and the
// TypeScript emitter (standalone code), so both see exactly the same validation semantics.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { spellAnnotations } from "./annotation-spelling.js";
import { splitEmbeddedResources } from "./embedded-resources.js";
import { lengthFirst } from "./length-first.js";
import { checkRuntimeKeywords, runtimeKeywords } from "./runtime-keywords.js";
import type { JsonSchema, JsonValue } from "./types.js";

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020, formats: string[]) => Ajv2020;

export interface SchemaCompilerOptions {
  /** Emit standalone ESM source (TypeScript target) instead of closures. */
  codegen?: boolean;
  /** Collect every error instead of stopping at the first (the TS all-errors validators). */
  allErrors?: boolean;
  /**
   * The schemas passed the check stage's 2020-12 meta-schema check (check-spec.ts, lint
   * json-schema-2020-12), so ajv does not check them again: it would compile the meta-schema in
   * every instance (40-80 ms each, eight or more instances in one generate).
   */
  metaChecked?: boolean;
}

/**
 * Throws SchemaKeywordError (runtime-keywords.ts) for a keyword or format outside
 * generators/targets/runtime-keywords.json: what ajv would enforce but Kotlin or Swift would not.
 */
export function createSchemaCompiler(schemas: readonly JsonSchema[], options: SchemaCompilerOptions = {}): Ajv2020 {
  const declared = runtimeKeywords();
  checkRuntimeKeywords(schemas, declared);
  const ajv = new Ajv2020({
    discriminator: true,
    allErrors: options.allErrors ?? false,
    strict: true,
    // Which keywords a schema may use is decided by runtime-keywords.json (checked above), not by
    // ajv's lints on how a schema is written: 2020-12 gives "if" without "then", "minContains"
    // without "contains", tuples without "maxItems" and a property matched by both properties and
    // patternProperties a meaning, and the three runtimes give them that meaning.
    strictSchema: false,
    strictTuples: false,
    // oneOf branches and if/then name properties declared elsewhere; those are not typos.
    strictRequired: false,
    strictTypes: false,
    // `required`, `properties` and `dependentRequired` look at own members only: a parsed object
    // without "constructor" or "__proto__" must not find them on Object.prototype.
    ownProperties: true,
    validateSchema: options.metaChecked !== true,
    // Closures (the reference verdicts) skip ajv's code optimiser: it only tidies the generated
    // source, and costs about 40 % of compiling every schema; emitted source is optimised.
    code: options.codegen ? { source: true, esm: true, lines: true } : { optimize: false },
  });
  // Only the declared formats: any other is refused by checkRuntimeKeywords above.
  addFormats(ajv, [...declared.formats]);
  for (const keyword of [...collectXKeywords(schemas)].sort()) ajv.addKeyword({ keyword });
  const spelled = schemas.map((s, i) => spellAnnotations(ajvSpelling(s), typeof s["$id"] === "string" ? s["$id"] : `(document ${i})`) as JsonSchema);
  for (const schema of splitEmbeddedResources(spelled)) ajv.addSchema(lengthFirst(schema) as object);
  return ajv;
}

/** Every `x-` key used anywhere: they are annotations for ajv, checked by the meta-schemas instead. */
function collectXKeywords(schemas: readonly JsonValue[]): Set<string> {
  const found = new Set<string>();
  const walk = (node: JsonValue): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        if (key.startsWith("x-")) found.add(key);
        else walk(child);
      }
    }
  };
  schemas.forEach(walk);
  return found;
}

/**
 * Two schemas ajv cannot compile as 2020-12 means them, spelled so it can:
 * - `enum: []` allows nothing; ajv refuses to compile it, so it becomes `allOf: [false]` (beside
 *   the schema's own allOf entries);
 * - a property named "__proto__" is skipped by ajv's `properties` (it never reads that name), so it
 *   becomes the pattern property `^__proto__$`, which ajv reads from the object's own members.
 */
function ajvSpelling(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(ajvSpelling);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  const put = (target: JsonSchema, key: string, value: JsonValue): void => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const [key, value] of Object.entries(node)) {
    const data = key === "enum" || key === "const" || key === "default" || key === "examples" || key === "required" || key.startsWith("x-");
    put(out, key, data ? value : ajvSpelling(value));
  }
  if (Array.isArray(out["enum"]) && out["enum"].length === 0) {
    delete out["enum"];
    out["allOf"] = [...(Array.isArray(out["allOf"]) ? out["allOf"] : []), false];
  }
  const properties = out["properties"];
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties) && Object.hasOwn(properties, "__proto__")) {
    const kept: JsonSchema = {};
    for (const [name, schema] of Object.entries(properties)) if (name !== "__proto__") put(kept, name, schema);
    const patterns: JsonSchema = {};
    const existing = out["patternProperties"];
    if (existing !== null && typeof existing === "object" && !Array.isArray(existing)) for (const [name, schema] of Object.entries(existing)) put(patterns, name, schema);
    put(patterns, "^__proto__$", properties["__proto__"] as JsonValue);
    out["properties"] = kept;
    out["patternProperties"] = patterns;
  }
  return out;
}
