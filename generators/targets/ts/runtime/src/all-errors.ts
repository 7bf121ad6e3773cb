// Every error of an invalid message, not only the first (issue 17): for a person fixing a file,
// who would otherwise fix one error per run. The default validators stop at the first error
// (cheapest for untrusted input); these run a second set of precompiled validators built with
// ajv's allErrors, and only when asked. The list is cut at `maxErrors` (default 100): ajv has no
// early stop, so the bound on the work is the parser's input limit (4 MiB), and the cut bounds
// what is returned and printed.
import { parseStrictJson } from "./strict-json.js";
import { lineColumn } from "./text-position.js";
import { fromAjvError, type CompiledValidator, type ValidationError, type ValidationResult } from "./validation.js";

export const DEFAULT_MAX_ERRORS = 100;

export interface AllErrorsOptions {
  /** At most this many errors are returned (default 100, at least 1); `truncated` says when more were found. */
  maxErrors?: number;
}

export type AllErrorsResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[]; truncated: boolean };

function limitOf(options: AllErrorsOptions): number {
  const max = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxErrors must be a positive integer, not ${String(max)}`);
  return max;
}

function cut<T>(errors: readonly ValidationError[], max: number): AllErrorsResult<T> {
  return { ok: false, errors: errors.slice(0, max), truncated: errors.length > max };
}

/**
 * Schema errors from the all-errors validator; when the schema holds, the message's own
 * validator (schema, then every cross-field rule) decides, so a valid value is exactly what
 * the default validator accepts.
 */
export function validateAllErrors<T>(schemaAll: CompiledValidator, validate: (value: unknown) => ValidationResult<T>, value: unknown, options: AllErrorsOptions = {}): AllErrorsResult<T> {
  const max = limitOf(options);
  if (!schemaAll(value)) return cut((schemaAll.errors ?? []).map(fromAjvError), max);
  const result = validate(value);
  return result.ok ? result : cut(result.errors, max);
}

/** Strict parse (one error: parsing stops there), then validateAllErrors. */
export function parseAllErrors<T>(schemaAll: CompiledValidator, validate: (value: unknown) => ValidationResult<T>, input: string | Uint8Array, options: AllErrorsOptions = {}): AllErrorsResult<T> {
  const max = limitOf(options);
  const parsed = parseStrictJson(input);
  if (!parsed.ok) {
    const { code, offset, message } = parsed.error;
    const { line, column } = lineColumn(input, offset);
    return { ok: false, errors: [{ instancePath: "", keyword: "json", message: `invalid JSON at line ${line}, column ${column}: ${message}`, params: { code, offset, line, column } }], truncated: false };
  }
  return validateAllErrors(schemaAll, validate, parsed.value, { maxErrors: max });
}
