// Evaluates the x-rules of a message: cross-field rules JSON Schema cannot state. The rule
// kinds are generic; which fields they relate is data generated from the spec.
import type { ValidationError } from "./validation.js";
import { containsSecret } from "./secret-text.js";
import { checkHttpsUrl, type HttpsUrlForm } from "./whatwg-url.js";

export type CrossFieldRule =
  | { id: string; kind: "equal"; message: string; left: string; right: string }
  | { id: string; kind: "urlOriginIn"; message: string; url: string; list: string }
  | { id: string; kind: "semverLte"; message: string; lower: string; upper: string }
  | { id: string; kind: "semverRangeIncludes"; message: string; min: string; max: string; version: string }
  | { id: string; kind: "uniqueBy"; message: string; array: string; key: string }
  | { id: string; kind: "lastItemEquals"; message: string; array: string; key: string; value: string }
  | { id: string; kind: "noSecrets"; message: string; text: string }
  | { id: string; kind: "whatwgUrl"; message: string; url: string; form: HttpsUrlForm };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * One step of a JSON pointer: the member (or array item) named `token`, or undefined when there
 * is none or it is null (a rule applies only where its pointers resolve to a non-null value).
 * Own properties only, so "__proto__" or "toString" never resolve to something inherited.
 */
export function member(current: unknown, token: string): unknown {
  if (typeof current !== "object" || current === null || !Object.prototype.hasOwnProperty.call(current, token)) return undefined;
  // RFC 6901: an array member is named by its index only ("length" names nothing).
  if (Array.isArray(current) && !ARRAY_INDEX.test(token)) return undefined;
  const found = (current as Record<string, unknown>)[token];
  return found === null ? undefined : found;
}

/** Resolves a JSON pointer; absent or null values yield undefined, so the rule does not apply. */
export function at(value: unknown, pointer: string): unknown {
  let current: unknown = value === null ? undefined : value;
  for (const token of tokensOf(pointer)) current = member(current, token);
  return current;
}

// Rule pointers come from fixed generated tables, so parsing each once is enough.
const parsedPointers = new Map<string, string[]>();
function tokensOf(pointer: string): string[] {
  let tokens = parsedPointers.get(pointer);
  if (tokens === undefined) {
    tokens = pointer === "" ? [] : pointer.slice(1).split("/").map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (parsedPointers.size < 4096) parsedPointers.set(pointer, tokens);
  }
  return tokens;
}

/** The error a broken rule reports at `failedAt`; the compiled rules build theirs with it too. */
export function ruleError(rule: { id: string; kind: string; message: string }, failedAt: string): ValidationError {
  return {
    instancePath: failedAt,
    keyword: "x-rule",
    message: `${failedAt === "" ? "(root)" : failedAt} ${rule.message}`,
    params: { rule: rule.id, kind: rule.kind },
  };
}

/**
 * The reference evaluator: walks each rule's pointers at run time. The generated validators run
 * the same rules compiled to straight-line code (generators/targets/ts/emit-rules.ts); both call
 * the per-kind functions below, which are the one definition of what each kind means, and
 * property-tests/runtime/compiled-rules.test.ts holds the two to the same errors.
 */
export function checkRules(value: unknown, rules: readonly CrossFieldRule[]): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const rule of rules) {
    const failedAt = evaluate(value, rule);
    if (failedAt !== undefined) errors.push(ruleError(rule, failedAt));
  }
  return errors;
}

/** Returns the pointer to report when the rule is broken, undefined when it holds or does not apply. */
function evaluate(value: unknown, rule: CrossFieldRule): string | undefined {
  switch (rule.kind) {
    case "equal":
      return equalBroken(at(value, rule.left), at(value, rule.right)) ? rule.left : undefined;
    case "urlOriginIn":
      return urlOriginInBroken(at(value, rule.url), at(value, rule.list)) ? rule.url : undefined;
    case "semverLte":
      return semverLteBroken(at(value, rule.lower), at(value, rule.upper)) ? rule.lower : undefined;
    case "semverRangeIncludes":
      return semverRangeIncludesBroken(at(value, rule.min), at(value, rule.max), rule.version) ? rule.min : undefined;
    case "lastItemEquals": {
      const items = at(value, rule.array);
      const key = `/${rule.key}`;
      return lastItemEqualsBroken(items, (item) => at(item, key), rule.value) ? `${rule.array}/${(items as unknown[]).length - 1}/${rule.key}` : undefined;
    }
    case "noSecrets":
      return pathOf(rule.text, firstFailing(at(value, rule.text), hasNoSecret));
    case "whatwgUrl":
      return pathOf(rule.url, firstFailing(at(value, rule.url), rule.form === "origin" ? isHttpsOrigin : isHttpsEndpoint));
    case "uniqueBy": {
      const key = `/${rule.key}`;
      const i = firstRepeated(at(value, rule.array), (item) => at(item, key));
      return i < 0 ? undefined : `${rule.array}/${i}/${rule.key}`;
    }
  }
}

function pathOf(pointer: string, failing: number): string | undefined {
  return failing === HOLDS ? undefined : failing === ITSELF ? pointer : `${pointer}/${failing}`;
}

// --- what each rule kind means, over already resolved values (undefined: absent) ---------------

/** equal: a present left must have a present, JSON-equal right. */
export function equalBroken(left: unknown, right: unknown): boolean {
  return left !== undefined && (right === undefined || !jsonEqual(left, right));
}

/** urlOriginIn: a URL string's origin must be one of a list's items. */
export function urlOriginInBroken(url: unknown, list: unknown): boolean {
  if (typeof url !== "string" || !Array.isArray(list)) return false;
  const origin = originOf(url);
  return origin === undefined || !list.includes(origin);
}

/** semverLte: lower <= upper in SemVer precedence (not SemVer at all is broken). */
export function semverLteBroken(lower: unknown, upper: unknown): boolean {
  if (typeof lower !== "string" || typeof upper !== "string") return false;
  const order = compareSemver(lower, upper);
  return order === undefined || order > 0;
}

/** semverRangeIncludes: min <= version <= max. */
export function semverRangeIncludesBroken(min: unknown, max: unknown, version: string): boolean {
  if (typeof min !== "string" || typeof max !== "string") return false;
  const low = compareSemver(min, version);
  const high = compareSemver(version, max);
  return low === undefined || high === undefined || low > 0 || high > 0;
}

/** lastItemEquals: the last item's key (resolved by keyOf) must be exactly `expected`. */
export function lastItemEqualsBroken(items: unknown, keyOf: (item: unknown) => unknown, expected: string): boolean {
  if (!Array.isArray(items) || items.length === 0) return false;
  return keyOf(items[items.length - 1]) !== expected;
}

/** uniqueBy: the index of the first item whose present key repeats an earlier one, or -1. */
export function firstRepeated(items: unknown, keyOf: (item: unknown) => unknown): number {
  if (!Array.isArray(items)) return -1;
  const seen: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const key = keyOf(items[i]);
    if (key === undefined) continue;
    if (seen.some((s) => jsonEqual(s, key))) return i;
    seen.push(key);
  }
  return -1;
}

/** firstFailing: the rule holds. */
export const HOLDS = -1;
/** firstFailing: the string at the pointer itself fails. */
export const ITSELF = -2;

/** A string (or each string item of an array) must pass `ok`: HOLDS, ITSELF or the failing index. */
export function firstFailing(target: unknown, ok: (text: string) => boolean): number {
  if (typeof target === "string") return ok(target) ? HOLDS : ITSELF;
  if (!Array.isArray(target)) return HOLDS;
  for (let i = 0; i < target.length; i++) {
    const item: unknown = target[i];
    if (typeof item === "string" && !ok(item)) return i;
  }
  return HOLDS;
}

/** noSecrets, per string. */
export const hasNoSecret = (text: string): boolean => !containsSecret(text);
/** whatwgUrl with form "origin", per string. */
export const isHttpsOrigin = (text: string): boolean => checkHttpsUrl(text, "origin");
/** whatwgUrl with form "endpoint", per string. */
export const isHttpsEndpoint = (text: string): boolean => checkHttpsUrl(text, "endpoint");

export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === "null" ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// SemVer 2.0.0 § 9: a numeric pre-release identifier has no leading zero (the spec's SemVer pattern).
const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** SemVer 2.0 precedence with arbitrary-size numbers; undefined when either is not SemVer. */
export function compareSemver(a: string, b: string): number | undefined {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) return undefined;
  for (let i = 1; i <= 3; i++) {
    const c = compareNumeric(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  const preA = pa[4];
  const preB = pb[4];
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  const idsA = preA.split(".");
  const idsB = preB.split(".");
  for (let i = 0; i < Math.max(idsA.length, idsB.length); i++) {
    const x = idsA[i];
    const y = idsB[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^[0-9]+$/.test(x);
    const ny = /^[0-9]+$/.test(y);
    const c = nx && ny ? compareNumeric(x, y) : nx ? -1 : ny ? 1 : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
