// The keywords and formats every runtime (TypeScript through ajv, Kotlin, Swift) enforces, declared
// once in generators/targets/runtime-keywords.json. A schema using anything else is refused before
// any validator is built for it, so no runtime silently ignores a keyword another one enforces.
import { readFileSync } from "node:fs";
import { PACKAGE_HOME } from "../write/generator-home.mjs";
import type { JsonValue } from "./types.js";

export interface RuntimeKeywords {
  keywords: readonly string[];
  formats: readonly string[];
}

export function runtimeKeywords(): RuntimeKeywords {
  return JSON.parse(readFileSync(`${PACKAGE_HOME}/generators/targets/runtime-keywords.json`, "utf8")) as RuntimeKeywords;
}

/** 2020-12 keywords no runtime implements, in the order that names a refusal when several are used. */
export const UNIMPLEMENTED_KEYWORDS = ["$dynamicRef", "$dynamicAnchor", "$vocabulary"] as const;

/** The 2020-12 meta-schema's documents: they use $dynamicRef, so a `$ref` to them is refused as such. */
const META_SCHEMA_PREFIX = "https://json-schema.org/draft/2020-12/";

/** A schema uses a keyword or format outside runtime-keywords.json. */
export class SchemaKeywordError extends Error {
  constructor(
    /** The `$id` of the document (or "(document n)" without one). */
    readonly document: string,
    /** JSON pointer to the schema object that uses it. */
    readonly pointer: string,
    /** The refused keyword ("format" for an unknown format). */
    readonly keyword: string,
    readonly detail: string,
  ) {
    super(`${document}#${pointer}: ${detail}`);
    this.name = "SchemaKeywordError";
  }
}

const SINGLE = new Set(["additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["$defs", "dependentSchemas", "patternProperties", "properties"]);

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Throws a SchemaKeywordError when a document uses what the runtimes do not enforce. Of several,
 * it names an unimplemented keyword first (in UNIMPLEMENTED_KEYWORDS order; a `$ref` to the
 * meta-schema counts as $dynamicRef), then the first other one in document order. `x-` keys are the spec's annotations.
 */
export function checkRuntimeKeywords(documents: readonly JsonValue[], declared: RuntimeKeywords = runtimeKeywords()): void {
  const keywords = new Set(declared.keywords);
  const formats = new Set(declared.formats);
  const found: SchemaKeywordError[] = [];
  documents.forEach((document, index) => {
    const name = document !== null && typeof document === "object" && !Array.isArray(document) && typeof document["$id"] === "string" ? document["$id"] : `(document ${index})`;
    const visit = (node: JsonValue, pointer: string): void => {
      if (node === null || typeof node !== "object" || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node)) {
        const at = `${pointer}/${escapeToken(key)}`;
        if (!keywords.has(key) && !key.startsWith("x-")) found.push(new SchemaKeywordError(name, pointer, key, `keyword "${key}" is not one the runtimes enforce`));
        else if (key === "format" && typeof value === "string" && !formats.has(value)) found.push(new SchemaKeywordError(name, pointer, "format", `format "${value}" is not one the runtimes assert`));
        else if (key === "$ref" && typeof value === "string" && value.startsWith(META_SCHEMA_PREFIX)) {
          found.push(new SchemaKeywordError(name, pointer, "$dynamicRef", `$ref ${value}: the 2020-12 meta-schema uses $dynamicRef, which the runtimes do not implement`));
        } else if (SINGLE.has(key)) visit(value, at);
        else if (LIST.has(key) && Array.isArray(value)) value.forEach((v, i) => visit(v, `${at}/${i}`));
        else if (MAP.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
          for (const [member, schema] of Object.entries(value)) visit(schema, `${at}/${escapeToken(member)}`);
        }
      }
    };
    visit(document, "");
  });
  // A `$ref` to the meta-schema counts as the $dynamicRef it leads to, so the three runtimes name
  // one keyword per refused case whichever document the keyword sits in.
  const first = UNIMPLEMENTED_KEYWORDS.map((k) => found.find((e) => e.keyword === k)).find((e) => e !== undefined) ?? found[0];
  if (first !== undefined) throw first;
}
