// RFC 8785 JSON Canonicalization Scheme. The bytes produced here are what gets hashed and signed,
// so every rule is explicit rather than left to JSON.stringify's edge cases (undefined members,
// toJSON, -0, lone surrogates, key order of integer-like names).

import { findLoneSurrogate } from "./strict-json.js";

export type CanonicalJsonErrorCode = "not-json" | "non-finite-number" | "lone-surrogate" | "cycle" | "too-deep";

export class CanonicalJsonError extends Error {
  readonly code: CanonicalJsonErrorCode;
  constructor(code: CanonicalJsonErrorCode, message: string) {
    super(message);
    this.name = "CanonicalJsonError";
    this.code = code;
  }
}

/** Deeper values than this are refused rather than risk exhausting the call stack. */
export const MAX_CANONICAL_DEPTH: number = 512;

/** The RFC 8785 canonical text of a JSON value; throws CanonicalJsonError for non-JSON input. */
export function canonicalize(value: unknown): string {
  const parts: string[] = [];
  write(value, parts, [], 0);
  return parts.join("");
}

/** The UTF-8 bytes of canonicalize(value): the input to every hash and MAC. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}

function write(value: unknown, out: string[], ancestors: object[], depth: number): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      out.push(serializeNumber(value));
      return;
    case "string":
      out.push(serializeString(value));
      return;
    case "object":
      break;
    default:
      throw new CanonicalJsonError("not-json", `a ${typeof value} is not a JSON value`);
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw new CanonicalJsonError("too-deep", `nesting deeper than ${MAX_CANONICAL_DEPTH}`);
  const container = value as object;
  if (ancestors.includes(container)) throw new CanonicalJsonError("cycle", "value contains a cycle");
  ancestors.push(container);
  if (Array.isArray(container)) {
    out.push("[");
    for (let i = 0; i < container.length; i++) {
      if (i > 0) out.push(",");
      if (!(i in container)) throw new CanonicalJsonError("not-json", "sparse array");
      write(container[i], out, ancestors, depth + 1);
    }
    out.push("]");
  } else {
    const prototype = Object.getPrototypeOf(container);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new CanonicalJsonError("not-json", "only plain objects are JSON objects");
    }
    // Default sort compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
    const keys = Object.keys(container).sort();
    out.push("{");
    keys.forEach((key, position) => {
      if (position > 0) out.push(",");
      out.push(serializeString(key), ":");
      const member = (container as Record<string, unknown>)[key];
      if (member === undefined) throw new CanonicalJsonError("not-json", "undefined member");
      write(member, out, ancestors, depth + 1);
    });
    out.push("}");
  }
  ancestors.pop();
}

/** ES6 Number::toString, which RFC 8785 §3.2.2.3 adopts; -0 becomes 0. */
export function serializeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new CanonicalJsonError("non-finite-number", "NaN and Infinity are not JSON numbers");
  return value === 0 ? "0" : String(value);
}

/**
 * True when the canonical text of `value` reads back as the same number under the strict parser's
 * I-JSON rule. ES6 prints doubles from 2^53 up to 1e21 as plain integers padded with zeros
 * (e.g. 37627642587011210), which do not name the double exactly; senders should avoid them.
 */
export function isInteroperableNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Math.abs(value) <= 2 ** 53) return true;
  const text = serializeNumber(value);
  return /[.e]/.test(text) || BigInt(text) === BigInt(value);
}

const SHORT_ESCAPES: Record<number, string> = { 0x08: "\\b", 0x09: "\\t", 0x0a: "\\n", 0x0c: "\\f", 0x0d: "\\r", 0x22: '\\"', 0x5c: "\\\\" };

/** RFC 8785 §3.2.2.2: escape only '"', '\\' and C0 controls; everything else raw. */
export function serializeString(value: string): string {
  if (findLoneSurrogate(value) >= 0) throw new CanonicalJsonError("lone-surrogate", "string contains a lone surrogate");
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0x20 && unit !== 0x22 && unit !== 0x5c) continue;
    out += value.slice(runStart, i);
    out += SHORT_ESCAPES[unit] ?? `\\u00${unit.toString(16).padStart(2, "0")}`;
    runStart = i + 1;
  }
  return out + value.slice(runStart) + '"';
}
