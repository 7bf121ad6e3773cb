// What the generated schema checks (<protocol>/validators.js, from generators/targets/ts/
// emit-schema-code.ts) call: the JSON type tests, ajv's errors (keyword, message and params as
// ajv 8 writes them, so fromAjvError maps them as it maps ajv's), and the keywords that loop over an
// instance (uniqueItems, contains, oneOf's count) with ajv's semantics. Each check returns the first
// error of the value it was given, or undefined; the error's instancePath is relative to that value
// and each caller puts its own step in front (at, atKey, atIndex), so nothing builds a path while a
// value is valid. generators/targets/ts/schema-code.differential.test.ts compares every first error
// with ajv's on every shared case.
import { fromAjvError, type AjvLikeError, type ValidationError } from "./validation.js";

/** An error as a generated check returns it: ajv's shape, instancePath relative to the value checked. */
export interface SchemaError extends AjvLikeError {
  message: string;
  /**
   * The error ajv reports right after this one, where its list names what the first error does
   * not: propertyNames' own error names the member whose name failed.
   */
  next?: SchemaError;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** Whether `value` has the member `name` as ajv's ownProperties reads it: its own, and not undefined. */
export function present(value: Record<string, unknown>, name: string): boolean {
  return value[name] !== undefined && hasOwnProperty.call(value, name);
}

/** ajv's object test: a non-null object that is not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** ajv's number test under strictNumbers: NaN and the infinities are not JSON numbers. */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && isFinite(value);
}

/** ajv's integer test. */
export function isInteger(value: unknown): value is number {
  return typeof value === "number" && !(value % 1) && !isNaN(value) && isFinite(value);
}

export function fail(keyword: string, message: string, params: Record<string, unknown>): SchemaError {
  return { instancePath: "", keyword, message, params };
}

/** `types` as the schema writes them: one name, or the list (ajv's message joins it with commas). */
export function typeError(types: string | readonly string[]): SchemaError {
  return fail("type", `must be ${String(types)}`, { type: types });
}

export function requiredError(name: string): SchemaError {
  return fail("required", `must have required property '${name}'`, { missingProperty: name });
}

/** The error for the first of `names` (in the schema's order) that `value` lacks, as ajv's required reports it. */
export function missingRequired(value: Record<string, unknown>, names: readonly string[]): SchemaError | undefined {
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (value[name] === undefined || !hasOwnProperty.call(value, name)) return requiredError(name);
  }
  return undefined;
}

export function additionalError(name: string): SchemaError {
  return fail("additionalProperties", "must NOT have additional properties", { additionalProperty: name });
}

export function patternError(source: string): SchemaError {
  return fail("pattern", `must match pattern "${source}"`, { pattern: source });
}

export function formatError(format: string): SchemaError {
  return fail("format", `must match format "${format}"`, { format });
}

/** maxLength, minLength, maxItems, minItems, maxProperties, minProperties. */
export function limitError(keyword: string, limit: number, unit: string): SchemaError {
  return fail(keyword, `must NOT have ${keyword.startsWith("max") ? "more" : "fewer"} than ${limit} ${unit}`, { limit });
}

/** maximum, minimum, exclusiveMaximum, exclusiveMinimum. */
export function boundError(keyword: string, comparison: string, limit: number): SchemaError {
  return fail(keyword, `must be ${comparison} ${limit}`, { comparison, limit });
}

export function constError(allowedValue: unknown): SchemaError {
  return fail("const", "must be equal to constant", { allowedValue });
}

export function enumError(allowedValues: readonly unknown[]): SchemaError {
  return fail("enum", "must be equal to one of the allowed values", { allowedValues });
}

export function falseSchema(): SchemaError {
  return fail("false schema", "boolean schema is false", {});
}

/** The caller's step in front of the error's path: `/name` already escaped. */
export function at(error: SchemaError, step: string): SchemaError {
  for (let e: SchemaError | undefined = error; e !== undefined; e = e.next) e.instancePath = step + e.instancePath;
  return error;
}

/** A member name failed propertyNames: ajv's list holds the name's first error, then propertyNames' own naming it. */
export function propertyNameError(error: SchemaError, name: string): SchemaError {
  let last = error;
  while (last.next !== undefined) last = last.next;
  last.next = fail("propertyNames", "property name must be valid", { propertyName: name });
  return error;
}

/** The errors a check returned, first to last, as the result lists them. */
export function errorList(error: SchemaError): ValidationError[] {
  const list: ValidationError[] = [];
  for (let e: SchemaError | undefined = error; e !== undefined; e = e.next) list.push(fromAjvError(e));
  return list;
}

/** A member name known only at run time, escaped as a JSON pointer token. */
export function atKey(error: SchemaError, name: string): SchemaError {
  return at(error, "/" + name.replace(/~/g, "~0").replace(/\//g, "~1"));
}

export function atIndex(error: SchemaError, index: number): SchemaError {
  return at(error, "/" + index);
}

/**
 * maxLength: a string has at least as many UTF-16 units as code points and at most twice as many,
 * so the code points are counted only when the units exceed the bound.
 */
export function maxLengthError(text: string, max: number): SchemaError | undefined {
  return text.length > max && ucs2length(text) > max ? limitError("maxLength", max, "characters") : undefined;
}

export function minLengthError(text: string, min: number): SchemaError | undefined {
  return text.length < 2 * min && ucs2length(text) < min ? limitError("minLength", min, "characters") : undefined;
}

/** A string's length in code points, as JSON Schema counts it (ajv's ucs2length): a surrogate pair is one. */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** Deep equality of JSON values (ajv's equal, fast-deep-equal, on what JSON holds). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!equal(left[i], right[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!hasOwnProperty.call(b, key) || !equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  return true;
}

/** ajv's multipleOf without multipleOfPrecision: the quotient must be an integer as parseInt reads it. */
export function multipleOfError(value: number, divisor: number): SchemaError | undefined {
  const quotient = value / divisor;
  return quotient !== parseInt(String(quotient)) ? fail("multipleOf", `must be multiple of ${divisor}`, { multipleOf: divisor }) : undefined;
}

/**
 * uniqueItems as ajv checks it when the items schema gives the items scalar types: the items
 * indexed by value from the last one down (`suffixStrings` when it lists more than one type, so "1"
 * and 1 differ), skipping items of other types (`ofItemType`, needed only for the prefixItems: the
 * others were checked against the items schema first). The first pair found, with ajv's params.
 */
export function duplicateValuesError(items: readonly unknown[], suffixStrings: boolean, ofItemType?: (item: unknown) => boolean): SchemaError | undefined {
  let i = items.length;
  if (i <= 1) return undefined;
  const indices: Record<string, unknown> = {};
  for (; i--; ) {
    let item = items[i];
    if (ofItemType !== undefined && !ofItemType(item)) continue;
    if (suffixStrings && typeof item === "string") item += "_";
    const key = item as string;
    if (typeof indices[key] === "number") return duplicate(i, indices[key]);
    indices[key] = i;
  }
  return undefined;
}

/** uniqueItems otherwise: each item compared with every earlier one, from the last item down (ajv's order and params). */
export function duplicateItemsError(items: readonly unknown[]): SchemaError | undefined {
  for (let i = items.length; i--; ) {
    for (let j = i; j--; ) if (equal(items[i], items[j])) return duplicate(i, j);
  }
  return undefined;
}

function duplicate(i: number, j: number): SchemaError {
  return fail("uniqueItems", `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
}

/**
 * oneOf as ajv evaluates it: the branches in order, stopping at the second that passes (ajv nests
 * each later branch in the "not yet two" case). Valid when exactly one passed; otherwise the first
 * failing branch's error stands before oneOf's own, whose params name the passing pair.
 */
export function oneOfError(value: unknown, branches: readonly ((value: unknown) => SchemaError | undefined)[]): SchemaError | undefined {
  let passing: number | undefined;
  let first: SchemaError | undefined;
  for (let i = 0; i < branches.length; i++) {
    const error = branches[i]!(value);
    if (error !== undefined) first ??= error;
    else if (passing === undefined) passing = i;
    else return first ?? fail("oneOf", "must match exactly one schema in oneOf", { passingSchemas: [passing, i] });
  }
  if (passing !== undefined) return undefined;
  return first ?? fail("oneOf", "must match exactly one schema in oneOf", { passingSchemas: null });
}

/**
 * contains with minContains/maxContains (ajv's `next` semantics). Outside a composite keyword ajv
 * replaces the items' errors by its own; inside one the first item's error stands before it.
 */
export function containsError(
  items: readonly unknown[],
  composite: boolean,
  min: number,
  max: number | undefined,
  check: (item: unknown) => SchemaError | undefined,
): SchemaError | undefined {
  if (max === undefined && min === 0) return undefined;
  let first: SchemaError | undefined;
  let count = 0;
  let valid = min === 0;
  for (let i = 0; i < items.length; i++) {
    const error = check(items[i]);
    if (error === undefined) {
      count++;
      if (max === undefined) {
        if (count >= min) return undefined;
      } else if (count > max) {
        valid = false;
        break;
      } else if (count >= min) valid = true;
    } else first ??= atIndex(error, i);
  }
  if (valid) return undefined;
  const own =
    max === undefined
      ? fail("contains", `must contain at least ${min} valid item(s)`, { minContains: min })
      : fail("contains", `must contain at least ${min} and no more than ${max} valid item(s)`, { minContains: min, maxContains: max });
  return composite && first !== undefined ? first : own;
}

export function dependentRequiredError(property: string, missingProperty: string, deps: readonly string[]): SchemaError {
  const noun = deps.length === 1 ? "property" : "properties";
  return fail("dependentRequired", `must have ${noun} ${deps.join(", ")} when property ${property} is present`, { property, missingProperty, depsCount: deps.length, deps: deps.join(", ") });
}

export function discriminatorTagError(tag: string, tagValue: unknown): SchemaError {
  return fail("discriminator", `tag "${tag}" must be string`, { error: "tag", tag, tagValue });
}

export function discriminatorMappingError(tag: string, tagValue: unknown): SchemaError {
  return fail("discriminator", `value of tag "${tag}" must be in oneOf`, { error: "mapping", tag, tagValue });
}
