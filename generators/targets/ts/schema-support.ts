// What the TypeScript (ajv through generators/model/schema-compiler.ts, which refuses the rest) runtime enforces: the one keyword set declared in
// generators/targets/runtime-keywords.json, which its tests hold it to (the JSON-Schema-Test-Suite
// runs against it in every language). Any other keyword or format is refused by `generate` at its line.
import { runtimeKeywordSupport, type SchemaSupport } from "../../check/keywords.js";
import { runtimeKeywords } from "../../model/runtime-keywords.js";

export const TS_SCHEMA_SUPPORT: SchemaSupport = runtimeKeywordSupport(runtimeKeywords());
