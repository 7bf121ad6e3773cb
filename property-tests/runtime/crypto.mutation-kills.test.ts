// crypto.ts against published answers and node:crypto: RFC 4648 §10's base16/base64 test vectors
// (unpadded where the wire form is), FIPS 180-4 and RFC 4231 known answers, views that do not start
// at offset 0, the strict decoders at every length mod 4 and on each character class, and MAC
// verification on a right, a wrong and a short tag; UTF-8 byte counts against a hand-written table
// (RFC 3629's byte lengths) and Node's Buffer.byteLength; RFC 9562's version 4 UUID layout.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  base64StdNoPadDecode,
  base64StdNoPadDecodeTransient,
  base64StdNoPadEncode,
  base64UrlDecode,
  base64UrlEncode,
  hexDecode,
  hexEncode,
  randomUuid,
  utf8ByteLength,
  hmacSha256,
  hmacSha256Base64StdNoPad,
  hmacSha256Matches,
  sha256,
  sha256Base64StdNoPad,
  sha256Hex,
} from "../../generators/targets/ts/runtime/src/crypto.js";

const ascii = (s: string) => new TextEncoder().encode(s);
const list = (bytes: Uint8Array | null) => (bytes === null ? null : [...bytes]);

describe("RFC 4648 §10 test vectors", () => {
  // [input, BASE64 without its padding, BASE16 in lowercase]
  const table: [string, string, string][] = [
    ["", "", ""], ["f", "Zg", "66"], ["fo", "Zm8", "666f"], ["foo", "Zm9v", "666f6f"], ["foob", "Zm9vYg", "666f6f62"],
    ["fooba", "Zm9vYmE", "666f6f6261"], ["foobar", "Zm9vYmFy", "666f6f626172"],
  ];
  for (const [input, base64, base16] of table) {
    it(JSON.stringify(input), () => {
      expect(base64StdNoPadEncode(ascii(input))).toBe(base64);
      expect(base64UrlEncode(ascii(input))).toBe(base64);
      expect(hexEncode(ascii(input))).toBe(base16);
      expect(list(base64StdNoPadDecode(base64))).toEqual([...ascii(input)]);
      expect(list(base64StdNoPadDecodeTransient(base64))).toEqual([...ascii(input)]);
      expect(list(base64UrlDecode(base64))).toEqual([...ascii(input)]);
      expect(list(hexDecode(base16))).toEqual([...ascii(input)]);
    });
  }
  it("the two alphabets differ only in the last two characters (§4, §5)", () => {
    const bytes = Uint8Array.of(0xfb, 0xff, 0xbf, 0x00, 0x00);
    expect(base64StdNoPadEncode(bytes)).toBe("+/+/AAA");
    expect(base64UrlEncode(bytes)).toBe("-_-_AAA");
    expect(list(base64StdNoPadDecode("+/+/AAA"))).toEqual([...bytes]);
    expect(list(base64UrlDecode("-_-_AAA"))).toEqual([...bytes]);
    expect(base64StdNoPadDecode("-_-_AAA")).toBeNull();
    expect(base64UrlDecode("+/+/AAA")).toBeNull();
  });
  it("zero bytes and the first and last characters of the alphabet", () => {
    expect(list(base64StdNoPadDecode("AA"))).toEqual([0]);
    expect(list(base64StdNoPadDecode("AAAA"))).toEqual([0, 0, 0]);
    expect(list(base64StdNoPadDecode("////"))).toEqual([0xff, 0xff, 0xff]);
    expect(list(base64StdNoPadDecode("Az"))).toBeNull(); // 'z' is 51: trailing bits 0011 are not zero
    expect(list(base64StdNoPadDecode("Aw"))).toEqual([0x03]); // 'w' is 48: 110000
    expect(list(base64StdNoPadDecode("AAE"))).toEqual([0, 1]); // 'E' is 4: 000100
    expect(list(base64StdNoPadDecode("AAF"))).toBeNull();
    expect(list(base64StdNoPadDecode("AAG"))).toBeNull();
  });
});

describe("strict decoding refuses every other form", () => {
  it("a length of 1 mod 4, padding, whitespace and characters outside the alphabet", () => {
    for (const bad of ["A", "AAAAA", "Zg==", "Zm8=", "Zm 9v", " Zm9v", "Zm9v\n", "Zm9v\t", "Zm9-", "Zm9_", "Zm9.", "Zm9v@AAA", "Zm\u00009v", "Zm9v\u0100", "Zm9v\u007f", "Zm9v\u0080AAA"]) {
      expect(base64StdNoPadDecode(bad), JSON.stringify(bad)).toBeNull();
      expect(base64StdNoPadDecodeTransient(bad), JSON.stringify(bad)).toBeNull();
    }
    for (const bad of ["A", "Zg==", "Zm 9v", "Zm9+", "Zm9/", "Zh", "Zm9"]) expect(base64UrlDecode(bad), JSON.stringify(bad)).toBeNull();
  });
  it("hex: odd lengths, uppercase and other characters", () => {
    for (const bad of ["0", "abc", "AB", "0g", "g0", " 00", "00 ", "0x00"]) expect(hexDecode(bad), JSON.stringify(bad)).toBeNull();
    expect(list(hexDecode("00ff7f80"))).toEqual([0x00, 0xff, 0x7f, 0x80]);
  });
  it("decoded bytes are a plain Uint8Array that owns exactly its own", () => {
    for (const decoded of [base64StdNoPadDecode("Zm9v"), base64UrlDecode("Zm9v"), hexDecode("666f6f")]) {
      expect(Object.getPrototypeOf(decoded)).toBe(Uint8Array.prototype);
      expect([decoded!.byteOffset, decoded!.byteLength, decoded!.buffer.byteLength]).toEqual([0, 3, 3]);
    }
  });
});

describe("views that do not start at offset 0", () => {
  const whole = Uint8Array.of(0xaa, 0x66, 0x6f, 0x6f, 0xbb);
  const view = whole.subarray(1, 4); // "foo"
  it("encoders read only the view's bytes", () => {
    expect(base64StdNoPadEncode(view)).toBe("Zm9v");
    expect(base64UrlEncode(view)).toBe("Zm9v");
    expect(hexEncode(view)).toBe("666f6f");
    expect(base64StdNoPadEncode(Buffer.from("foo"))).toBe("Zm9v");
  });
  it("hashes and MACs read only the view's bytes", () => {
    const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(sha256Hex(Uint8Array.of(0, 0x61, 0x62, 0x63).subarray(1))).toBe(abc);
    expect(hmacSha256Base64StdNoPad(view, view)).toBe(createHmac("sha256", "foo").update("foo").digest("base64").replace(/=+$/, ""));
  });
});

describe("known answers", () => {
  it("SHA-256 of the empty string and of a string as UTF-8 (FIPS 180-4 §B.1 for abc)", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Base64StdNoPad("")).toBe("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU");
    expect(sha256Base64StdNoPad(ascii("abc"))).toBe("ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0");
    expect(sha256Hex("é")).toBe(sha256Hex(Uint8Array.of(0xc3, 0xa9)));
    expect(sha256Hex("é")).not.toBe(sha256Hex(Uint8Array.of(0xe9)));
  });
  it("RFC 4231 test case 1, in every encoding", () => {
    const key = new Uint8Array(20).fill(0x0b);
    const tag = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
    expect(hexEncode(hmacSha256(key, "Hi There"))).toBe(tag);
    expect(hmacSha256Base64StdNoPad(key, ascii("Hi There"))).toBe(Buffer.from(tag, "hex").toString("base64").replace(/=+$/, ""));
    expect(hmacSha256Matches(key, "Hi There", hexDecode(tag)!)).toBe(true);
  });
  it("a MAC with one bit flipped, a short tag or another key does not match", () => {
    const key = "Jefe";
    const message = "what do ya want for nothing?";
    const tag = hexDecode("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")!;
    expect(hmacSha256Matches(key, message, tag)).toBe(true);
    const flipped = Uint8Array.from(tag);
    flipped[31] = (flipped[31] as number) ^ 1;
    expect(hmacSha256Matches(key, message, flipped)).toBe(false);
    expect(hmacSha256Matches(key, message, tag.subarray(0, 31))).toBe(false);
    expect(hmacSha256Matches(key, message, new Uint8Array(0))).toBe(false);
    expect(hmacSha256Matches("jefe", message, tag)).toBe(false);
    expect(hmacSha256Matches(ascii(key), ascii(message), tag)).toBe(true);
  });
  it("digests are plain 32-byte arrays", () => {
    for (const digest of [sha256("abc"), hmacSha256("k", "m")]) {
      expect(Object.getPrototypeOf(digest)).toBe(Uint8Array.prototype);
      expect(digest.length).toBe(32);
    }
  });
});

describe("utf8ByteLength", () => {
  // [text, bytes]: RFC 3629 §3, one to four bytes per code point; a lone surrogate is replaced by
  // U+FFFD (three bytes), as TextEncoder and Node's Buffer.byteLength do.
  const table: [string, number][] = [
    ["", 0], ["a", 1], ["\u007f", 1], ["\u0080", 2], ["\u07ff", 2], ["\u0800", 3], ["\uffff", 3], ["\ud800\udc00", 4], ["\udbff\udfff", 4],
    ["\ud800", 3], ["\udc00", 3], ["\ud800a", 4], ["\udc00\ud800", 6], ["\ud800\ud800\udc00", 7], ["a\u00e9\u20ac\ud83d\ude00", 10], ["\ud7ff\ue000", 6], ["\ud800\ue000", 6],
    // A unit from U+0800 up that is not a high surrogate, then a lone low surrogate: 3 + 3, never a pair.
    ["\u0800\udc00", 6], ["\uffff\udc00", 6], ["\udc00\udc00", 6], ["\ue000\udc00", 6],
  ];
  for (const [text, bytes] of table) {
    it(JSON.stringify(text), () => {
      expect(utf8ByteLength(text)).toBe(bytes);
      expect(new TextEncoder().encode(text).length).toBe(bytes);
      expect(Buffer.byteLength(text, "utf8")).toBe(bytes);
    });
  }
});

describe("randomUuid", () => {
  it("is a lowercase RFC 9562 version 4, variant 10 UUID, new each call", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 64; i++) {
      const id = randomUuid();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(64);
  });
  it("keeps the random bits outside the version and variant fields", () => {
    const original = globalThis.crypto.getRandomValues;
    try {
      Object.defineProperty(globalThis.crypto, "getRandomValues", { configurable: true, value: (a: Uint8Array) => a.fill(0xff) });
      expect(randomUuid()).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
      Object.defineProperty(globalThis.crypto, "getRandomValues", { configurable: true, value: (a: Uint8Array) => a.fill(0) });
      expect(randomUuid()).toBe("00000000-0000-4000-8000-000000000000");
    } finally {
      Object.defineProperty(globalThis.crypto, "getRandomValues", { configurable: true, value: original });
    }
  });
  it("names the missing primitive instead of failing on undefined", () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
    try {
      Object.defineProperty(globalThis, "crypto", { configurable: true, value: undefined });
      expect(() => randomUuid()).toThrow(/no crypto\.getRandomValues/);
      Object.defineProperty(globalThis, "crypto", { configurable: true, value: {} });
      expect(() => randomUuid()).toThrow(/no crypto\.getRandomValues/);
    } finally {
      Object.defineProperty(globalThis, "crypto", original);
    }
  });
});
