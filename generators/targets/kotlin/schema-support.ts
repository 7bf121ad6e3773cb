// What the Kotlin runtime enforces: the keywords JsonSchemaValidator.kt implements (its GROUPS,
// SUBSCHEMA_KEYWORDS and `type`) and the formats of Formats.kt (Formats.NAMES). The validator
// refuses any other keyword when its documents load; `generate` refuses it first, at its line.
import type { SchemaSupport } from "../../check/keywords.js";

export const KOTLIN_SCHEMA_SUPPORT: SchemaSupport = {
  keywords: [
    "$ref",
    "type", "const", "enum",
    "not", "anyOf", "oneOf", "allOf", "if", "then", "else",
    "maximum", "minimum",
    "maxLength", "minLength", "pattern", "format",
    "maxItems", "minItems", "uniqueItems", "items", "contains",
    "maxProperties", "minProperties", "required", "properties", "additionalProperties", "propertyNames",
    "dependentRequired",
    "discriminator",
  ],
  formats: ["uri", "hostname"],
};
