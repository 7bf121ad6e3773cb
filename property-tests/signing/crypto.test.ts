// Encodings and primitives against Python's stdlib, and strict decoding.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64StdNoPadDecode,
  base64StdNoPadEncode,
  base64UrlDecode,
  base64UrlEncode,
  constantTimeEqual,
  hexDecode,
  hexEncode,
  hmacSha256,
  sha256Hex,
} from "../../generators/targets/ts/runtime/src/crypto.js";
import { python } from "./helpers.js";

describe("crypto helpers", () => {
  it("agree with Python's base64, hashlib and hmac on random inputs", () => {
    const samples = fc.sample(fc.record({ key: fc.uint8Array({ maxLength: 130 }), data: fc.uint8Array({ maxLength: 70 }) }), 60);
    const ours = samples.map(({ key, data }) => [base64StdNoPadEncode(data), base64UrlEncode(data), sha256Hex(data), hexEncode(hmacSha256(key, data))]);
    const theirs = python<string[][]>(
      "import sys,json,base64,hashlib,hmac\nout=[]\nfor s in json.load(sys.stdin):\n  k=bytes.fromhex(s['k']); d=bytes.fromhex(s['d'])\n  out.append([base64.b64encode(d).decode().rstrip('='), base64.urlsafe_b64encode(d).decode().rstrip('='), hashlib.sha256(d).hexdigest(), hmac.new(k,d,hashlib.sha256).hexdigest()])\nprint(json.dumps(out))",
      samples.map(({ key, data }) => ({ k: hexEncode(key), d: hexEncode(data) })),
    );
    expect(ours).toEqual(theirs);
  });
  it("decoders round-trip and refuse every non-canonical form", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), (data) => {
      expect(base64StdNoPadDecode(base64StdNoPadEncode(data))).toEqual(data);
      expect(base64UrlDecode(base64UrlEncode(data))).toEqual(data);
      expect(hexDecode(hexEncode(data))).toEqual(data);
    }), { numRuns: 200 });
    for (const bad of ["QQ==", "QR", "Q", "QQ\n", "Q Q", "QQ-", "QQ_"]) expect(base64StdNoPadDecode(bad)).toBeNull();
    for (const bad of ["QQ==", "QR", "QQ+", "QQ/"]) expect(base64UrlDecode(bad)).toBeNull();
    for (const bad of ["ABCD", "abc", "0g"]) expect(hexDecode(bad)).toBeNull();
  });
  it("constantTimeEqual compares contents and lengths", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});
