// Encodings and primitives against Python's stdlib, and strict decoding.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64StdNoPadDecode,
  base64StdNoPadDecodeTransient,
  base64StdNoPadEncode,
  base64UrlDecode,
  base64UrlEncode,
  constantTimeEqual,
  hexDecode,
  hexEncode,
  HmacSha256Key,
  hmacSha256,
  hmacSha256Base64StdNoPad,
  sha256,
  sha256Base64StdNoPad,
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
  // Known answers: FIPS 180-4 "abc" and RFC 4231 test case 2.
  it("digests and MACs match the published known answers, in every encoding", () => {
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(hexEncode(sha256("abc"))).toBe(abc);
    expect(sha256Hex(new TextEncoder().encode("abc"))).toBe(abc);
    expect(sha256Base64StdNoPad("abc")).toBe(Buffer.from(abc, "hex").toString("base64").replace(/=+$/, ""));
    const jefe = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(hexEncode(hmacSha256("Jefe", "what do ya want for nothing?"))).toBe(jefe);
    expect(hmacSha256Base64StdNoPad("Jefe", "what do ya want for nothing?")).toBe("W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM");
  });
  it("a digest is a plain Uint8Array that owns exactly its 32 bytes", () => {
    const digest = sha256("abc");
    expect(Buffer.isBuffer(digest)).toBe(false);
    expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype);
    expect([digest.byteOffset, digest.byteLength, digest.buffer.byteLength]).toEqual([0, 32, 32]);
  });
  it("the transient decoder accepts and refuses exactly what the copying one does", () => {
    for (const text of ["", "QQ", "QUE", "QUFB", "QR", "QUF", "QQ==", "Q"]) {
      const a = base64StdNoPadDecode(text);
      const b = base64StdNoPadDecodeTransient(text);
      expect(b === null ? null : [...b], text).toEqual(a === null ? null : [...a]);
    }
    expect([...base64StdNoPadDecodeTransient("QUE")!]).toEqual([0x41, 0x41]);
  });
  it("refuses characters outside ASCII and non-zero trailing bits after three characters", () => {
    for (const bad of ["QQ\u00e9A", "QQ\u0080A", "\u00ffQQQ", "QUF", "QUG"]) expect(base64StdNoPadDecode(bad), JSON.stringify(bad)).toBeNull();
    expect([...base64StdNoPadDecode("QUE")!]).toEqual([0x41, 0x41]);
  });
});

describe("HmacSha256Key (pads prepared once)", () => {
  it("equals Python's hmac for keys of every length class, reused across messages in any order", () => {
    const samples = fc.sample(fc.record({ key: fc.oneof(fc.uint8Array({ maxLength: 0 }), fc.uint8Array({ minLength: 1, maxLength: 63 }), fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ minLength: 65, maxLength: 200 })), data: fc.array(fc.uint8Array({ maxLength: 150 }), { minLength: 1, maxLength: 4 }) }), 40);
    const ours = samples.map(({ key, data }) => {
      const prepared = new HmacSha256Key(key);
      return data.map((d) => hexEncode(prepared.mac(d)));
    });
    const theirs = python<string[][]>(
      "import sys,json,hashlib,hmac\nprint(json.dumps([[hmac.new(bytes.fromhex(s['k']),bytes.fromhex(d),hashlib.sha256).hexdigest() for d in s['d']] for s in json.load(sys.stdin)]))",
      samples.map(({ key, data }) => ({ k: hexEncode(key), d: data.map(hexEncode) })),
    );
    expect(ours).toEqual(theirs);
  });
  it("a string secret means its UTF-8 bytes, as for hmacSha256", () => {
    const key = new HmacSha256Key("sécret ✓");
    expect(hexEncode(key.mac("m"))).toBe(hexEncode(hmacSha256("sécret ✓", "m")));
    expect(hexEncode(hmacSha256(key, "m"))).toBe(hexEncode(hmacSha256("sécret ✓", "m")));
  });
  it("knows whether its secret was empty", () => {
    expect(new HmacSha256Key("").empty).toBe(true);
    expect(new HmacSha256Key(new Uint8Array(0)).empty).toBe(true);
    expect(new HmacSha256Key("k").empty).toBe(false);
    expect(new HmacSha256Key(new Uint8Array(1)).empty).toBe(false);
  });
  it("cannot be used after destroy()", () => {
    const key = new HmacSha256Key("secret");
    key.mac("before");
    key.destroy();
    expect(() => key.mac("after")).toThrow();
  });
});
