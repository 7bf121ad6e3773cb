// RFC 8785 JSON Canonicalization Scheme. The bytes produced here are what gets hashed and signed,
// so every rule is explicit rather than left to JSON.stringify's edge cases (undefined members,
// toJSON, -0, lone surrogates, key order of integer-like names).

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
  return write(value, [], 0);
}

const utf8Encoder = new TextEncoder();

/** The UTF-8 bytes of canonicalize(value): the input to every hash and MAC. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8Encoder.encode(canonicalize(value));
}

// Builds the text by string concatenation (V8 ropes, flattened once at the end) rather than an
// array of parts and a join: one allocation per piece fewer and far less GC on large inputs.
function write(value: unknown, ancestors: object[], depth: number): string {
  switch (typeof value) {
    case "string":
      return serializeString(value);
    case "number":
      return serializeNumber(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      break;
    default:
      throw new CanonicalJsonError("not-json", `a ${typeof value} is not a JSON value`);
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw new CanonicalJsonError("too-deep", `nesting deeper than ${MAX_CANONICAL_DEPTH}`);
  const container = value as object;
  if (ancestors.includes(container)) throw new CanonicalJsonError("cycle", "value contains a cycle");
  ancestors.push(container);
  let out: string;
  if (Array.isArray(container)) {
    out = "[";
    for (let i = 0; i < container.length; i++) {
      if (!(i in container)) throw new CanonicalJsonError("not-json", "sparse array");
      if (i > 0) out += ",";
      out += write(container[i], ancestors, depth + 1);
    }
    out += "]";
  } else {
    const prototype = Object.getPrototypeOf(container);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new CanonicalJsonError("not-json", "only plain objects are JSON objects");
    }
    // Default sort compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
    const keys = Object.keys(container).sort();
    out = "{";
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const member = (container as Record<string, unknown>)[key];
      if (member === undefined) throw new CanonicalJsonError("not-json", "undefined member");
      if (k > 0) out += ",";
      out += quoteKey(key) + ":" + write(member, ancestors, depth + 1);
    }
    out += "}";
  }
  ancestors.pop();
  return out;
}

// Member names repeat across messages (every proposal has the same twenty), so their quoted form
// is remembered: a Map hit is cheaper than checking and quoting the name again. Bounded so that
// adversarial input (many distinct or long names) cannot grow it.
const QUOTED_KEY_LIMIT = 4096;
const QUOTED_KEY_MAX_LENGTH = 64;
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  const cached = quotedKeys.get(key);
  if (cached !== undefined) return cached;
  const quoted = serializeString(key);
  if (key.length <= QUOTED_KEY_MAX_LENGTH && quotedKeys.size < QUOTED_KEY_LIMIT) quotedKeys.set(key, quoted);
  return quoted;
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

/**
 * RFC 8785 §3.2.2.2: escape only '"', '\\' and C0 controls (the short forms \b \t \n \f \r,
 * else \u00xx in lowercase hex), everything else raw. That is exactly what ES2019
 * JSON.stringify does to a well-formed string (it would escape a lone surrogate as \udxxx, which
 * is refused first), so the native quoting does the work.
 */
export function serializeString(value: string): string {
  if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) {
    throw new CanonicalJsonError("lone-surrogate", "string contains a lone surrogate");
  }
  return JSON.stringify(value);
}
