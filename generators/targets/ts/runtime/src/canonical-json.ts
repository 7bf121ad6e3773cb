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
  return write(value, [], 0, noInheritedToJson());
}

/** The same text built piece by piece, never handing a subtree to JSON.stringify (tests compare the two). */
export function canonicalizeStepwise(value: unknown): string {
  return write(value, [], 0, false);
}

const utf8Encoder = new TextEncoder();

/** The UTF-8 bytes of canonicalize(value): the input to every hash and MAC. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8Encoder.encode(canonicalize(value));
}

const NATIVE_MIN_MEMBERS = 4;

// JSON.stringify calls a toJSON it finds on an object's prototype chain; subtrees are only handed
// to it while no one has put one on the prototypes plain objects and arrays have.
function noInheritedToJson(): boolean {
  return !("toJSON" in Object.prototype) && !("toJSON" in Array.prototype);
}

/**
 * True when JSON.stringify(value) is certainly the canonical text of this subtree: only finite
 * numbers, booleans, null, well-formed strings and names (see serializeString), arrays
 * without holes, and plain objects whose members already come in canonical order and are
 * defined, no deeper than the limit (a cycle runs into it too).
 */
function nativeWritable(value: unknown, depth: number): boolean {
  if (typeof value !== "object") {
    return typeof value === "string" ? (value as string & { isWellFormed(): boolean }).isWellFormed() : typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
  }
  if (value === null) return true;
  if (depth >= MAX_CANONICAL_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !nativeWritable(value[i], depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(value);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if ((k > 0 && (keys[k - 1] as string) >= key) || !(key as string & { isWellFormed(): boolean }).isWellFormed()) return false;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || !nativeWritable(member, depth + 1)) return false;
  }
  return true;
}


// Builds the text by string concatenation (V8 ropes, flattened once at the end) rather than an
// array of parts and a join: one allocation per piece fewer and far less GC on large inputs.
/**
 * The definition, piece by piece. With `native`, an object whose members already come in
 * canonical order is written by JSON.stringify once nativeWritable vouches for its subtree (any
 * doubt, and every error, stays with the pieces).
 */
function write(value: unknown, ancestors: object[], depth: number, native: boolean): string {
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
      out += write(container[i], ancestors, depth + 1, native);
    }
    out += "]";
  } else {
    const prototype = Object.getPrototypeOf(container);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new CanonicalJsonError("not-json", "only plain objects are JSON objects");
    }
    const shape = canonicalKeys(container);
    // Members already in canonical order: JSON.stringify can write the whole subtree natively.
    // (Not worth its call for an object of a member or three: the pieces are quicker.)
    if (native && shape.inOrder && shape.sorted.length >= NATIVE_MIN_MEMBERS && nativeWritable(container, depth)) {
      ancestors.pop();
      return JSON.stringify(container);
    }
    const keys = shape.sorted;
    out = "{";
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const member = (container as Record<string, unknown>)[key];
      if (member === undefined) throw new CanonicalJsonError("not-json", "undefined member");
      if (k > 0) out += ",";
      out += quoteKey(key) + ":" + write(member, ancestors, depth + 1, native);
    }
    out += "}";
  }
  ancestors.pop();
  return out;
}

// Objects of one shape (the same members in the same order, as every message of a type has)
// sort the same way: the sorted names are remembered per shape, keyed by the first name, so a
// repeat costs one comparison per name instead of a sort. Bounded like the quoted names.
const SORTED_SHAPE_LIMIT = 1024;
const sortedShapes = new Map<string, Shape[]>();
let sortedShapeCount = 0;

interface Shape {
  keys: string[];
  /** The names in RFC 8785 order: UTF-16 code units, which the default sort compares (§3.2.3). */
  sorted: string[];
  /** Object.keys already gives that order. */
  inOrder: boolean;
}

function canonicalKeys(record: object): Shape {
  const keys = Object.keys(record);
  if (keys.length < 2) return { keys, sorted: keys, inOrder: true };
  const first = keys[0] as string;
  const shapes = sortedShapes.get(first);
  if (shapes !== undefined) {
    for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape;
  }
  const sorted = keys.slice().sort();
  const shape = { keys, sorted, inOrder: sameKeys(keys, sorted) };
  if (sortedShapeCount < SORTED_SHAPE_LIMIT && first.length <= QUOTED_KEY_MAX_LENGTH) {
    sortedShapeCount++;
    if (shapes === undefined) sortedShapes.set(first, [shape]);
    else shapes.push(shape);
  }
  return shape;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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

/**
 * How full the two caches are that input can fill: shapes counted, shapes stored, quoted names.
 * Both stay under their bounds whatever is canonicalized (tests read this; so may a memory monitor).
 */
export function canonicalCacheSizes(): { shapes: number; shapesStored: number; quotedKeys: number } {
  let stored = 0;
  for (const list of sortedShapes.values()) stored += list.length;
  return { shapes: sortedShapeCount, shapesStored: stored, quotedKeys: quotedKeys.size };
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
