// What the Swift runtime enforces: the keywords SchemaValidator.swift (SchemaRegistry) checks and
// the formats of Formats.swift. It skips any other keyword, and treats another format as valid, so
// `generate` refuses both: a Swift binding never silently accepts what another language refuses.
import type { SchemaSupport } from "../../check/keywords.js";

export const SWIFT_SCHEMA_SUPPORT: SchemaSupport = {
  keywords: [
    "$ref",
    "type", "const", "enum",
    "not", "anyOf", "oneOf", "allOf", "if", "then", "else",
    "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf",
    "maxLength", "minLength", "pattern", "format",
    "maxItems", "minItems", "uniqueItems", "prefixItems", "items", "contains",
    "maxProperties", "minProperties", "required", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "dependentRequired",
    "discriminator",
  ],
  formats: ["hostname", "uri"],
};
