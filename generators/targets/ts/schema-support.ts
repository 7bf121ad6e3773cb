// What the TypeScript runtime enforces: ajv (Ajv2020 with the discriminator option, strict) and
// ajv-formats' full mode, compiled to standalone validators (generators/model/schema-compiler.ts).
// ajv leaves the content vocabulary (contentMediaType, contentEncoding, contentSchema) as annotations.
import type { SchemaSupport } from "../../check/keywords.js";

export const TS_SCHEMA_SUPPORT: SchemaSupport = {
  keywords: [
    "$ref", "$dynamicRef", "$dynamicAnchor",
    "type", "const", "enum",
    "not", "anyOf", "oneOf", "allOf", "if", "then", "else",
    "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf",
    "maxLength", "minLength", "pattern", "format",
    "maxItems", "minItems", "uniqueItems", "prefixItems", "items", "contains", "maxContains", "minContains", "unevaluatedItems",
    "maxProperties", "minProperties", "required", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "dependentRequired", "dependentSchemas", "unevaluatedProperties",
    "discriminator",
  ],
  formats: [
    "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url", "email",
    "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment", "relative-json-pointer",
    "byte", "int32", "int64", "float", "double", "password", "binary",
  ],
};
