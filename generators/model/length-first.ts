// maxLength runs before every other keyword of its schema in all three languages. ajv runs the
// untyped keywords ($ref, not, allOf, ...) before the string group, so `{ $ref: SafeText,
// maxLength: 120 }` would run SafeText's patterns on a 250 KB string before refusing its length.
// Rewriting such a schema as `allOf: [{ maxLength }, rest]` makes the bound come first in ajv, and
// the Kotlin and Swift interpreters read the same rewritten documents, so the first error stays
// the same everywhere (a too-long string always reports maxLength).
import type { JsonSchema, JsonValue } from "./types.js";

/** Keywords ajv evaluates before `maxLength` (its untyped group). */
const BEFORE_LENGTH = ["$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if"];
/** Keys that stay on the outer schema: identity and documentation, not assertions. */
const OUTER = new Set(["$id", "$schema", "$defs", "$comment", "$anchor", "title", "description", "examples", "default"]);
/** Keys whose values are data, not subschemas. */
const DATA_KEYS = new Set(["const", "enum", "required", "dependentRequired", "discriminator", "examples", "default", "x-invalid-examples"]);

export function lengthFirst(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(lengthFirst);
  if (node === null || typeof node !== "object") return node;
  const walked: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYS.has(key) || key.startsWith("x-")) walked[key] = value;
    else if (key === "properties" || key === "$defs" || key === "patternProperties" || key === "dependentSchemas") {
      walked[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, s]) => [name, lengthFirst(s)]));
    } else walked[key] = lengthFirst(value);
  }
  if (walked["maxLength"] === undefined || !BEFORE_LENGTH.some((k) => walked[k] !== undefined)) return walked;
  const outer: JsonSchema = {};
  const rest: JsonSchema = {};
  for (const [key, value] of Object.entries(walked)) {
    if (key === "maxLength") continue;
    if (OUTER.has(key) || key.startsWith("x-")) outer[key] = value;
    else rest[key] = value;
  }
  outer["allOf"] = [{ maxLength: walked["maxLength"]! }, rest];
  return outer;
}
