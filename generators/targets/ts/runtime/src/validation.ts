// The result shape every generated validateX/parseX returns, and the mapping from ajv's
// errors to it. Errors are data first (instancePath, keyword, params), text second.
import { parseStrictJson } from "./strict-json.js";
import { lineColumn } from "./text-position.js";

export interface ValidationError {
  /** JSON pointer to the offending value, e.g. `/provider/config/endpoint`. */
  instancePath: string;
  /** The JSON Schema keyword that failed, `x-rule` for a cross-field rule, `json` for a parse error. */
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

/** The subset of ajv's ErrorObject the generated validators produce. */
export interface AjvLikeError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * ajv reports a bad discriminator value at the object; point at the tag itself so the error
 * names the field that is wrong.
 */
export function fromAjvError(error: AjvLikeError): ValidationError {
  let instancePath = error.instancePath;
  if (error.keyword === "discriminator" && error.params["error"] === "mapping" && typeof error.params["tag"] === "string") {
    instancePath = `${instancePath}/${escapeToken(error.params["tag"])}`;
  }
  const where = instancePath === "" ? "(root)" : instancePath;
  return { instancePath, keyword: error.keyword, message: `${where} ${describeAjvError(error)}`, params: { ...error.params } };
}

/** ajv's text, except where it leaves out what a person needs: an unknown member is named. */
function describeAjvError(error: AjvLikeError): string {
  const member = error.params["additionalProperty"] ?? error.params["unevaluatedProperty"];
  if ((error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") && typeof member === "string") {
    return `unknown member ${JSON.stringify(member)}`;
  }
  return error.message ?? "is invalid";
}

export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Formats errors one per line, `/callback: unknown member "bogus"`, for CLIs and logs. Never
 * includes the instance's values (member names are not values).
 */
export function formatErrors(errors: readonly ValidationError[]): string {
  return errors.map(formatError).join("\n");
}

/** One error as `pointer: what is wrong` (the message without its own leading pointer). */
export function formatError(e: ValidationError): string {
  const where = e.instancePath === "" ? "(root)" : e.instancePath;
  const detail = e.message.startsWith(`${where} `) ? e.message.slice(where.length + 1) : e.message;
  return `${where}: ${detail}`;
}

/** A compiled validator as ajv emits it: returns a boolean and leaves its errors on itself. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: AjvLikeError[] | null;
}

export interface RuleChecker {
  (value: unknown): ValidationError[];
}

/** Schema first, then the cross-field rules: a rule only ever sees a schema-valid value. */
export function runValidator<T>(validate: CompiledValidator, checkRules: RuleChecker | undefined, value: unknown): ValidationResult<T> {
  if (!validate(value)) return { ok: false, errors: (validate.errors ?? []).map(fromAjvError) };
  if (checkRules === undefined) return { ok: true, value: value as T };
  const ruleErrors = checkRules(value);
  return ruleErrors.length > 0 ? { ok: false, errors: ruleErrors } : { ok: true, value: value as T };
}

/** The failed result of a schema check, from the errors ajv left on the validator. */
export function schemaFailure(validate: CompiledValidator): { ok: false; errors: ValidationError[] } {
  return { ok: false, errors: (validate.errors ?? []).map(fromAjvError) };
}

/**
 * Untrusted input is parsed strictly (duplicate keys, lone surrogates, a BOM, NaN, inexact
 * numbers, excessive depth or size are errors) before any schema sees it.
 */
export function parseAndValidate<T>(input: string | Uint8Array, validate: (value: unknown) => ValidationResult<T>): ValidationResult<T> {
  const parsed = parseStrictJson(input);
  if (!parsed.ok) {
    const { code, offset, message } = parsed.error;
    const { line, column } = lineColumn(input, offset);
    return { ok: false, errors: [{ instancePath: "", keyword: "json", message: `invalid JSON at line ${line}, column ${column}: ${message}`, params: { code, offset, line, column } }] };
  }
  return validate(parsed.value);
}
