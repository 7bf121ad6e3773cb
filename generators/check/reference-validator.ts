// The reference verdict on an instance: ajv built as createSchemaCompiler builds it, then the
// message's x-rules. The check stage judges the spec's examples with it and the model computes
// the differential validation cases with it. It runs the TypeScript runtime's evaluator, the one
// the generated TS package ships, so "what the spec means" is never a second implementation.
import { createSchemaCompiler } from "../model/schema-compiler.js";
import type { CrossFieldRule, JsonSchema } from "../model/types.js";
import { checkRules } from "../targets/ts/runtime/src/rules.js";
import { runValidator, type CompiledValidator, type ValidationResult } from "../targets/ts/runtime/src/validation.js";

export type { CompiledValidator } from "../targets/ts/runtime/src/validation.js";

/** One compiled schema and its rules, run the way the generated validateX functions run them. */
export function referenceCheck(validate: CompiledValidator, rules: readonly CrossFieldRule[], value: unknown): ValidationResult<unknown> {
  return runValidator(validate, (v) => checkRules(v, rules as never), value);
}

/** Compiles the schemas once; the result validates an instance against the schema with `$id` id. */
export function referenceValidator(schemas: readonly JsonSchema[]): (id: string, rules: readonly CrossFieldRule[], value: unknown) => ValidationResult<unknown> {
  const ajv = createSchemaCompiler(schemas);
  return (id, rules, value) => {
    const validate = ajv.getSchema(id) as CompiledValidator | undefined;
    if (validate === undefined) throw new Error(`no compiled schema ${id}`);
    return referenceCheck(validate, rules, value);
  };
}
