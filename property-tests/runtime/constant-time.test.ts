// constantTimeEqual must not return at the first differing byte. The TypeScript runtime runs the
// same code in every JavaScript runtime (no node:crypto), so, like Swift's hand-written loop
// (CryptoTests: testConstantTimeEqualReadsEveryByte), it is checked by counting the byte reads:
// every index of both inputs is read once whether they differ first, last or not at all. Kotlin
// delegates to MessageDigest.isEqual, checked at the source level.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, hmacSha256, hmacSha256Matches } from "../../generators/targets/ts/runtime/src/crypto.js";
import { ROOT } from "../signing/helpers.js";

/** The text of the declaration starting at `signature` up to its closing brace at column 0 or 2. */
function body(file: string, signature: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const start = text.indexOf(signature);
  expect(start, `${signature} in ${file}`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n}", start);
  return text.slice(start, end === -1 ? undefined : end);
}

/** A view of `bytes` that records each index read through it. */
function counting(bytes: Uint8Array, reads: number[]): Uint8Array {
  return new Proxy(bytes, {
    get(target, key) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads.push(Number(key));
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const every = (length: number): number[] => Array.from({ length }, (_, i) => i);

describe("TypeScript constantTimeEqual", () => {
  const base = Uint8Array.from({ length: 32 }, (_, i) => i);
  const flip = (i: number): Uint8Array => {
    const copy = base.slice();
    copy[i]! ^= 1;
    return copy;
  };
  it.each([
    ["equal", base.slice(), true],
    ["differ at the first byte", flip(0), false],
    ["differ at the last byte", flip(31), false],
    ["differ everywhere", base.map((b) => b ^ 0xff), false],
  ] as const)("%s: every byte of both inputs is read once", (_label, other, equal) => {
    const readsA: number[] = [];
    const readsB: number[] = [];
    expect(constantTimeEqual(counting(base, readsA), counting(other, readsB))).toBe(equal);
    expect(readsA).toEqual(every(32));
    expect(readsB).toEqual(every(32));
  });
  it("unequal lengths still read all of the first input, and are unequal", () => {
    const readsA: number[] = [];
    expect(constantTimeEqual(counting(base, readsA), base.subarray(0, 5))).toBe(false);
    expect(readsA.filter((i) => i < 32).sort((x, y) => x - y)).toEqual(every(32).flatMap((i) => [i, i]));
    expect(constantTimeEqual(new Uint8Array(0), base)).toBe(false);
    expect(constantTimeEqual(base, new Uint8Array(0))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
  it("hmacSha256Matches compares through it", () => {
    const mac = hmacSha256("k", "m");
    const reads: number[] = [];
    expect(hmacSha256Matches("k", "m", counting(mac, reads))).toBe(true);
    expect(reads).toEqual(every(32));
    reads.length = 0;
    expect(hmacSha256Matches("k", "n", counting(mac, reads))).toBe(false);
    expect(reads).toEqual(every(32));
  });
  it("the source has no early exit in its loop", () => {
    const text = body("generators/targets/ts/runtime/src/crypto.ts", "export function constantTimeEqual(");
    expect(text).not.toMatch(/\bbreak\b|return false|\.every\(|\.some\(/);
  });
});

describe("Kotlin and Swift sources", () => {
  it("Kotlin's constantTimeEquals is MessageDigest.isEqual", () => {
    const text = body("generators/targets/kotlin/runtime/Crypto.kt", "fun constantTimeEquals(");
    expect(text.split("\n")[0]).toMatch(/^fun constantTimeEquals\(a: ByteArray, b: ByteArray\): Boolean = MessageDigest\.isEqual\(a, b\)$/);
  });
  it("the Kotlin runtime compares MACs only through it", () => {
    for (const file of ["HmacSha256V1.kt", "ApprovalToken.kt"]) {
      const text = readFileSync(join(ROOT, "generators/targets/kotlin/runtime", file), "utf8");
      expect(text, file).toContain("Crypto.constantTimeEquals(");
      expect(text, file).not.toMatch(/contentEquals|Arrays\.equals/);
    }
  });
  it("Swift's loop reads both inputs to the end, with no early return", () => {
    const text = body("generators/targets/swift/runtime/Crypto.swift", "static func constantTimeEqualReading");
    expect(text).toContain("for i in 0..<length");
    expect(text).not.toMatch(/\bbreak\b|return false|guard /);
    const callers = ["SigningHmacV1.swift", "ApprovalToken.swift"].map((f) => readFileSync(join(ROOT, "generators/targets/swift/runtime", f), "utf8"));
    for (const text of callers) expect(text).toContain("Crypto.constantTimeEqual(");
  });
});
