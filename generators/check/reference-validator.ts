// The reference verdict on an instance: ajv built as createSchemaCompiler builds it, then the
// message's x-rules. The check stage judges the spec's examples with it and the model computes
// the differential validation cases with it. It runs the TypeScript runtime's evaluator, the one
// the generated TS package ships, so "what the spec means" is never a second implementation.
import type { Ajv2020 } from "ajv/dist/2020.js";
import { createSchemaCompiler } from "../model/schema-compiler.js";
import type { CrossFieldRule, JsonSchema } from "../model/types.js";
import { checkRules } from "../targets/ts/runtime/src/rules.js";
import { runValidator, type CompiledValidator, type ValidationResult } from "../targets/ts/runtime/src/validation.js";

export type { CompiledValidator } from "../targets/ts/runtime/src/validation.js";

/** One compiled schema and its rules, run the way the generated validateX functions run them. */
export function referenceCheck(validate: CompiledValidator, rules: readonly CrossFieldRule[], value: unknown): ValidationResult<unknown> {
  return runValidator(validate, (v) => checkRules(v, rules as never), value);
}

// The check stage compiles every schema of the spec to judge its examples, and the model then
// asks for the same schemas (the same objects: the model holds the loaded files' values) to
// compute its validation cases: one compile serves both, which was about 0.3 s of a cold generate.
// Keyed by identity: loaded schemas are never changed in place after loading; a request naming a
// schema object the cached compile does not hold compiles afresh.
const compiled = new WeakMap<object, { members: WeakSet<object>; ajv: Ajv2020 }>();

/** ajv as createSchemaCompiler builds it for `schemas`, reusing the compile of a list that held every one of these objects. */
export function referenceCompiler(schemas: readonly JsonSchema[]): Ajv2020 {
  const first = schemas[0];
  const cached = first === undefined ? undefined : compiled.get(first);
  if (cached !== undefined && schemas.every((s) => cached.members.has(s))) return cached.ajv;
  // Its callers run after the check stage's meta-schema check: checkExamples only when every
  // file passed it, the model only from a spec without errors.
  const ajv = createSchemaCompiler(schemas, { metaChecked: true });
  if (first !== undefined) compiled.set(first, { members: new WeakSet(schemas), ajv });
  return ajv;
}

/** Compiles the schemas once; the result validates an instance against the schema with `$id` id. */
export function referenceValidator(schemas: readonly JsonSchema[]): (id: string, rules: readonly CrossFieldRule[], value: unknown) => ValidationResult<unknown> {
  const ajv = referenceCompiler(schemas);
  return (id, rules, value) => {
    const validate = ajv.getSchema(id) as CompiledValidator | undefined;
    if (validate === undefined) throw new Error(`no compiled schema ${id}`);
    return referenceCheck(validate, rules, value);
  };
}
