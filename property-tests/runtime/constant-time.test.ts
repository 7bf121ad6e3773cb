// constantTimeEqual must not return at the first differing byte. The TypeScript and Kotlin runtimes
// delegate to the platform primitive (crypto.timingSafeEqual, MessageDigest.isEqual): checked here at
// the source level, and for TypeScript also by counting what reaches the primitive. Swift's
// hand-written loop is instrumented in its own suite (CryptoTests: testConstantTimeEqualReadsEveryByte).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ROOT } from "../signing/helpers.js";

const calls: { a: number; b: number }[] = [];
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push({ a: a.byteLength, b: b.byteLength });
      return real.timingSafeEqual(a, b);
    },
  };
});
const { constantTimeEqual, hmacSha256, hmacSha256Matches } = await import("../../generators/targets/ts/runtime/src/crypto.js");

/** The text of the declaration starting at `signature` up to its closing brace at column 0 or 2. */
function body(file: string, signature: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const start = text.indexOf(signature);
  expect(start, `${signature} in ${file}`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n}", start);
  return text.slice(start, end === -1 ? undefined : end);
}

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
  ] as const)("%s: one full-length platform compare", (_label, other, equal) => {
    calls.length = 0;
    expect(constantTimeEqual(base, other)).toBe(equal);
    expect(calls).toEqual([{ a: 32, b: 32 }]);
  });
  it("unequal lengths still run one same-length compare, and are unequal", () => {
    calls.length = 0;
    expect(constantTimeEqual(base, base.subarray(0, 5))).toBe(false);
    expect(calls).toEqual([{ a: 32, b: 32 }]);
    calls.length = 0;
    expect(constantTimeEqual(new Uint8Array(0), base)).toBe(false);
    expect(calls).toHaveLength(1);
  });
  it("hmacSha256Matches goes through it", () => {
    calls.length = 0;
    const mac = hmacSha256("k", "m");
    expect(hmacSha256Matches("k", "m", mac)).toBe(true);
    expect(hmacSha256Matches("k", "n", mac)).toBe(false);
    expect(calls).toEqual([{ a: 32, b: 32 }, { a: 32, b: 32 }]);
  });
  it("the source delegates to timingSafeEqual and has no byte loop", () => {
    const text = body("generators/targets/ts/runtime/src/crypto.ts", "export function constantTimeEqual(");
    expect(text).toContain("timingSafeEqual(a, b)");
    expect(text).not.toMatch(/\bfor\b|\bwhile\b|\[i\]|\.every\(|\.some\(/);
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
