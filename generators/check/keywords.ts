// The JSON Schema 2020-12 vocabulary a spec may use, split into what validates (each target
// declares which of these its runtime enforces: targets/<id>/schema-support.ts) and what only
// annotates. A key in neither list (and not an x- extension, which the meta-schemas check) is a
// typo or a keyword no target knows: the unknown-keywords lint reports it at its own line.

/** Keywords that decide whether an instance is valid; a target either enforces one or the spec may not use it. */
export const VALIDATION_KEYWORDS: readonly string[] = [
  "$ref", "$dynamicRef", "$dynamicAnchor",
  "type", "const", "enum",
  "not", "anyOf", "oneOf", "allOf", "if", "then", "else",
  "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf",
  "maxLength", "minLength", "pattern", "format",
  "maxItems", "minItems", "uniqueItems", "prefixItems", "items", "contains", "maxContains", "minContains", "unevaluatedItems",
  "maxProperties", "minProperties", "required", "properties", "patternProperties", "additionalProperties", "propertyNames",
  "dependentRequired", "dependentSchemas", "unevaluatedProperties",
  // ajv's `discriminator` option (OpenAPI's keyword): one precise error for a tagged oneOf.
  "discriminator",
  // 2020-12's content vocabulary: annotations in the standard, but a reader expects them checked.
  "contentMediaType", "contentEncoding", "contentSchema",
];

/** Keywords that only describe: no runtime needs to do anything for them. */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  "$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
];

/** The `format` values some target may check; another value is an unknown format. */
export const KNOWN_FORMATS: readonly string[] = [
  "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url", "email",
  "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment", "relative-json-pointer",
  "byte", "int32", "int64", "float", "double", "password", "binary",
];

/** The JSON Schema keywords and formats one target's runtime enforces (Target.schemaSupport). */
export interface SchemaSupport {
  keywords: readonly string[];
  formats: readonly string[];
}

/**
 * The support of a runtime that implements the one keyword set of generators/targets/runtime-keywords.json
 * (TS, Kotlin and Swift do, and their tests run the JSON-Schema-Test-Suite against it): its
 * validation keywords and formats. The content vocabulary stays unenforced (the runtimes read it as
 * the annotation 2020-12 makes it), so a spec that uses it is still refused.
 */
export function runtimeKeywordSupport(declared: { keywords: readonly string[]; formats: readonly string[] }): SchemaSupport {
  const content = new Set(["contentMediaType", "contentEncoding", "contentSchema"]);
  return { keywords: declared.keywords.filter((k) => VALIDATION_KEYWORDS.includes(k) && !content.has(k)), formats: [...declared.formats] };
}

/** The closest known word within edit distance 2, for "did you mean". */
export function closestKeyword(word: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

/** Damerau-Levenshtein (optimal string alignment): a swap of two letters is one edit (maxLenght). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
