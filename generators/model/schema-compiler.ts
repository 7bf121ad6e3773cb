// One way to build ajv for the spec's schemas, shared by the check stage (examples) and the
// TypeScript emitter (standalone code), so both see exactly the same validation semantics.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { lengthFirst } from "./length-first.js";
import type { JsonSchema, JsonValue } from "./types.js";

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface SchemaCompilerOptions {
  /** Emit standalone ESM source (TypeScript target) instead of closures. */
  codegen?: boolean;
  /** Collect every error instead of stopping at the first (the TS all-errors validators). */
  allErrors?: boolean;
}

export function createSchemaCompiler(schemas: readonly JsonSchema[], options: SchemaCompilerOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    discriminator: true,
    allErrors: options.allErrors ?? false,
    strict: true,
    // oneOf branches and if/then name properties declared elsewhere; those are not typos.
    strictRequired: false,
    strictTypes: false,
    code: options.codegen ? { source: true, esm: true, lines: true } : undefined,
  });
  addFormats(ajv);
  for (const keyword of [...collectXKeywords(schemas)].sort()) ajv.addKeyword({ keyword });
  for (const schema of schemas) ajv.addSchema(lengthFirst(schema) as object);
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
