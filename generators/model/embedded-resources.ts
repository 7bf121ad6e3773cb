// Schema resources embedded in a document (a subschema with its own `$id`) handed to ajv as
// documents of their own. ajv resolves a `$ref` beside an embedded `$id` against the wrong base and
// recurses without end (JSON-Schema-Test-Suite ref.json: "refs with relative uris and defs", "URN
// ref with nested pointer ref"); a `$ref` to the resource's absolute id has the same meaning in
// 2020-12 (annotations included) and ajv resolves it correctly.
// (The spec's own schemas embed no resources: this changes nothing in generated/.)
import type { JsonSchema, JsonValue } from "./types.js";

const SINGLE = new Set(["additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["$defs", "dependentSchemas", "patternProperties", "properties"]);

function resolve(reference: string, base: string | undefined): string {
  try {
    return new URL(reference, base).href;
  } catch {
    return reference; // an absolute URN, or no base to resolve against: as written
  }
}

/** The documents with every embedded resource replaced by a `$ref` to it, and the resources appended. */
export function splitEmbeddedResources(documents: readonly JsonSchema[]): JsonSchema[] {
  const extracted: JsonSchema[] = [];
  const walk = (node: JsonValue, base: string | undefined, root: boolean): JsonValue => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    const id = typeof node["$id"] === "string" ? resolve(node["$id"], base) : undefined;
    const here = id ?? base;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      let walked: JsonValue = value;
      if (SINGLE.has(key)) walked = walk(value, here, false);
      else if (LIST.has(key) && Array.isArray(value)) walked = value.map((v) => walk(v, here, false));
      else if (MAP.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        walked = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, walk(v, here, false)]));
      }
      Object.defineProperty(out, key, { value: walked, enumerable: true, writable: true, configurable: true });
    }
    // Only a resource with a `$ref` inside meets the bug; one without stays where it is (ajv does
    // not find an `$anchor` at the root of a document it was given, only inside one).
    if (root || id === undefined || !JSON.stringify(out).includes('"$ref"')) return out;
    out["$id"] = id;
    extracted.push(out);
    return { $ref: id };
  };
  const roots = documents.map((d) => walk(d, undefined, true) as JsonSchema);
  return [...roots, ...extracted];
}
