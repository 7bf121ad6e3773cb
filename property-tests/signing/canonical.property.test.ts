// Properties of RFC 8785 canonicalization over generated JSON, with canonicalize@2.1.0 as the
// differential oracle.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CanonicalJsonError, canonicalize, isInteroperableNumber } from "../../generators/targets/ts/runtime/src/canonical-json.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { ijsonValue, oracleCanonicalize } from "./helpers.js";

const RUNS = { numRuns: 200 };

const json = ijsonValue(5);
// Doubles across the whole range (subnormals, huge, negative zero), the number edge of JCS.
const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

function strict(text: string): unknown {
  const parsed = parseStrictJson(text, { maxDepth: 1000 });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The same value with every object's keys inserted in a shuffled order. */
function reorder(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorder(v, seed + i));
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const shuffled = keys.map((k, i) => [k, (seed * 31 + i * 17) % 101] as const).sort((a, b) => a[1] - b[1]).map(([k]) => k);
    const out: Record<string, unknown> = {};
    for (const k of shuffled) Object.defineProperty(out, k, { value: reorder((value as Record<string, unknown>)[k], seed + 1), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

describe("canonicalization properties", () => {
  it("is idempotent", () => {
    fc.assert(fc.property(json, (v) => canonicalize(strict(canonicalize(v))) === canonicalize(v)), RUNS);
  });
  it("does not depend on key insertion order", () => {
    fc.assert(fc.property(json, fc.nat(1000), (v, seed) => canonicalize(reorder(v, seed)) === canonicalize(v)), RUNS);
  });
  it("does not depend on whitespace", () => {
    fc.assert(fc.property(json, fc.constantFrom(0, 1, 2, "\t", " \n "), (v, indent) => canonicalize(strict(JSON.stringify(v, null, indent))) === canonicalize(v)), RUNS);
  });
  it("round-trips through the strict parser", () => {
    fc.assert(fc.property(json, (v) => {
      expect(strict(canonicalize(v))).toEqual(strict(JSON.stringify(v)));
    }), RUNS);
  });
  it("matches the canonicalize oracle on generated JSON", () => {
    fc.assert(fc.property(json, (v) => canonicalize(v) === oracleCanonicalize(v)), { numRuns: 300 });
  });
  it("matches the oracle on any finite double; the strict parser reads it back exactly or refuses it as inexact", () => {
    fc.assert(fc.property(anyDouble, (d) => {
      const text = canonicalize(d);
      expect(text).toBe(oracleCanonicalize(d));
      const parsed = parseStrictJson(text);
      if (isInteroperableNumber(d)) expect(parsed).toEqual({ ok: true, value: d === 0 ? 0 : d });
      else expect(parsed.ok ? "valid" : parsed.error.code).toBe("number-not-exact");
    }), { numRuns: 300 });
  });
  it("orders keys by UTF-16 code units (matches the oracle on astral and BMP keys)", () => {
    const key = fc.string({ unit: "binary", maxLength: 4 });
    fc.assert(fc.property(fc.dictionary(key, fc.integer()), (o) => canonicalize(o) === oracleCanonicalize(o)), RUNS);
  });
  it("orders integer-like member names by UTF-16 code units, not the way JavaScript enumerates them", () => {
    // Object.keys lists integer-like names first, in numeric order ("2" before "10"); RFC 8785
    // §3.2.3 sorts every name by code units ("10" before "2", and both after "-1" and before "a").
    expect(canonicalize({ b: 0, 2: 1, 10: 2, a: 3, "-1": 4 })).toBe('{"-1":4,"10":2,"2":1,"a":3,"b":0}');
    const integerLike = fc.oneof(fc.nat(4294967295).map(String), fc.constantFrom("0", "1", "2", "10", "01", "-1", "1.5", "4294967294", "4294967295", "9007199254740993"));
    const key = fc.oneof({ weight: 3, arbitrary: integerLike }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) });
    fc.assert(fc.property(fc.dictionary(key, fc.integer(), { minKeys: 2, maxKeys: 8 }), (o) => canonicalize(o) === oracleCanonicalize(o)), RUNS);
    const nested = fc.dictionary(key, fc.dictionary(integerLike, fc.boolean(), { maxKeys: 5 }), { maxKeys: 5 });
    fc.assert(fc.property(nested, fc.nat(1000), (o, seed) => canonicalize(reorder(o, seed)) === oracleCanonicalize(o)), RUNS);
  });
  it("refuses lone surrogates, non-finite numbers, undefined and non-plain objects", () => {
    const bad: unknown[] = ["\ud800", { "\udc00": 1 }, NaN, Infinity, [undefined], { a: undefined }, new Date(0), 1n, () => 1];
    for (const value of bad) expect(() => canonicalize(value)).toThrow(CanonicalJsonError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalize(cycle)).toThrow(CanonicalJsonError);
  });
});
