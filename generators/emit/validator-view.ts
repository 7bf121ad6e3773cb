// The validator view of a schema: the schema as a validator needs it, without the keys a target
// has no use for (prose, examples, annotations). One walker for every target, so "which members
// are keywords and which are data" is decided once; each target says only which keywords to drop.
import type { JsonSchema, JsonValue } from "../model/types.js";

/** Keywords whose members are names chosen by the spec, each mapping to a schema. */
const NAME_MAPS = new Set(["properties", "$defs", "patternProperties", "dependentSchemas"]);

/** Keywords whose values are data (instances, names, lists of names), never schemas. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "required", "dependentRequired", "discriminator"]);

/** Prose and test data: no validator reads them. */
export const PROSE_AND_EXAMPLES: ReadonlySet<string> = new Set(["description", "examples", "x-invalid-examples", "x-source", "x-divergences"]);

/** A copy of `schema` without the keywords `drop` names, at any depth. */
export function validatorView(schema: JsonValue, drop: (keyword: string) => boolean): JsonValue {
  if (Array.isArray(schema)) return schema.map((s) => validatorView(s, drop));
  if (schema === null || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (drop(key)) continue;
    if (DATA_KEYWORDS.has(key) || key.startsWith("x-")) out[key] = value;
    else if (NAME_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, validatorView(member, drop)]));
    } else out[key] = validatorView(value, drop);
  }
  return out;
}
