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

const ABSENT: unique symbol = Symbol("absent");

/** Resolves a JSON pointer; absent or null values yield ABSENT, so the rule does not apply. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === "") return value ?? ABSENT;
  let current: unknown = value;
  for (const token of tokensOf(pointer)) {
    // RFC 6901: an array member is named by its index only ("length" names nothing).
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return ABSENT;
      current = current[Number(token)];
    } else if (current !== null && typeof current === "object" && Object.prototype.hasOwnProperty.call(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return ABSENT;
  }
  return current === null || current === undefined ? ABSENT : current;
}

// Rule pointers come from fixed generated tables, so parsing each once is enough.
const parsedPointers = new Map<string, string[]>();
function tokensOf(pointer: string): string[] {
  let tokens = parsedPointers.get(pointer);
  if (tokens === undefined) {
    tokens = pointer.slice(1).split("/").map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (parsedPointers.size < 4096) parsedPointers.set(pointer, tokens);
  }
  return tokens;
}

export function checkRules(value: unknown, rules: readonly CrossFieldRule[]): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const rule of rules) {
    const failedAt = evaluate(value, rule);
    if (failedAt !== undefined) {
      errors.push({
        instancePath: failedAt,
        keyword: "x-rule",
        message: `${failedAt === "" ? "(root)" : failedAt} ${rule.message}`,
        params: { rule: rule.id, kind: rule.kind },
      });
    }
  }
  return errors;
}

/** Returns the pointer to report when the rule is broken, undefined when it holds or does not apply. */
function evaluate(value: unknown, rule: CrossFieldRule): string | undefined {
  switch (rule.kind) {
    case "equal": {
      const left = at(value, rule.left);
      const right = at(value, rule.right);
      if (left === ABSENT) return undefined;
      return right !== ABSENT && jsonEqual(left, right) ? undefined : rule.left;
    }
    case "urlOriginIn": {
      const url = at(value, rule.url);
      const list = at(value, rule.list);
      if (typeof url !== "string" || !Array.isArray(list)) return undefined;
      const origin = originOf(url);
      return origin !== undefined && list.includes(origin) ? undefined : rule.url;
    }
    case "semverLte": {
      const lower = at(value, rule.lower);
      const upper = at(value, rule.upper);
      if (typeof lower !== "string" || typeof upper !== "string") return undefined;
      const order = compareSemver(lower, upper);
      return order !== undefined && order <= 0 ? undefined : rule.lower;
    }
    case "semverRangeIncludes": {
      const min = at(value, rule.min);
      const max = at(value, rule.max);
      if (typeof min !== "string" || typeof max !== "string") return undefined;
      const low = compareSemver(min, rule.version);
      const high = compareSemver(rule.version, max);
      return low !== undefined && high !== undefined && low <= 0 && high <= 0 ? undefined : rule.min;
    }
    case "lastItemEquals": {
      const items = at(value, rule.array);
      if (!Array.isArray(items) || items.length === 0) return undefined;
      const last = `${rule.array}/${items.length - 1}/${rule.key}`;
      return at(items[items.length - 1], `/${rule.key}`) === rule.value ? undefined : last;
    }
    case "noSecrets":
      return firstFailing(value, rule.text, (text) => !containsSecret(text));
    case "whatwgUrl":
      return firstFailing(value, rule.url, (url) => checkHttpsUrl(url, rule.form));
    case "uniqueBy": {
      const items = at(value, rule.array);
      if (!Array.isArray(items)) return undefined;
      const seen: unknown[] = [];
      for (let i = 0; i < items.length; i++) {
        const key = at(items[i], `/${rule.key}`);
        if (key === ABSENT) continue;
        if (seen.some((s) => jsonEqual(s, key))) return `${rule.array}/${i}/${rule.key}`;
        seen.push(key);
      }
      return undefined;
    }
  }
}

/** A string at `pointer` (or each string item of an array there) must pass `ok`; where it does not. */
function firstFailing(value: unknown, pointer: string, ok: (text: string) => boolean): string | undefined {
  const target = at(value, pointer);
  if (typeof target === "string") return ok(target) ? undefined : pointer;
  if (!Array.isArray(target)) return undefined;
  const bad = target.findIndex((item) => typeof item === "string" && !ok(item));
  return bad < 0 ? undefined : `${pointer}/${bad}`;
}

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
