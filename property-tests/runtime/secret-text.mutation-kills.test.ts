// secret-text.ts against independent oracles: ECMAScript's own \s (the filter's patterns use it),
// Node's base64 codec for the canonical decoder, the shape each real-filter verdict of
// spec/agent-connector/vectors/secret-text.json probes, and hand-written boundary tables for the
// fixed-width shapes (AWS: AKIA + 16 of [A-Z0-9]; Google: AIza + 35 of [A-Za-z0-9_-]; key prefixes:
// a separator and 12 or more key characters ending at a word boundary).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SECRET_TEXT_MAX_UNITS, decodeCanonicalBase64, findSecret, isJsSpace } from "../../generators/targets/ts/runtime/src/secret-text.js";

const { cases } = JSON.parse(readFileSync("spec/agent-connector/vectors/secret-text.json", "utf8")) as { cases: { name: string; shape: string; text: string; secret: boolean }[] };

describe("isJsSpace is ECMAScript's \\s", () => {
  it("on every UTF-16 code unit", () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isJsSpace(c) !== /\s/.test(String.fromCharCode(c))) wrong.push(c);
    expect(wrong).toEqual([]);
    expect(isJsSpace(-1)).toBe(false);
  });
});

describe("findSecret names the stage that fires first", () => {
  // Secret vectors whose text an earlier stage of the filter (in its order) already redacts.
  const earlier: Record<string, string> = {};
  for (const c of cases.filter((x) => x.secret && x.shape !== "clean")) {
    it(`${c.shape}: ${JSON.stringify(c.text).slice(0, 60)}`, () => expect(findSecret(c.text)).toBe(earlier[c.text] ?? c.shape));
  }
  for (const c of cases.filter((x) => !x.secret)) {
    it(`clean: ${JSON.stringify(c.text).slice(0, 60)}`, () => expect(findSecret(c.text)).toBeUndefined());
  }
  it("the stages are tried in the filter's order", () => {
    // Each text holds two shapes; the earlier one is named.
    expect(findSecret("Bearer abc -----BEGIN PRIVATE KEY----- x -----END PRIVATE KEY-----")).toBe("private-key");
    expect(findSecret("Basic dXNlcjpwYXNz Bearer abc")).toBe("bearer");
    expect(findSecret("sk-abcdefghijklmnop Basic dXNlcjpwYXNz")).toBe("basic");
    expect(findSecret("AKIAABCDEFGHIJKLMNOP sk-abcdefghijklmnop")).toBe("api-key-prefix");
    expect(findSecret("AIzaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA AKIAABCDEFGHIJKLMNOP")).toBe("aws-access-key");
    expect(findSecret("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc AIzaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBe("google-api-key");
    expect(findSecret("https://u:p@h eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc")).toBe("jose");
    expect(findSecret("token=x https://u:p@h")).toBe("url-credentials");
    expect(findSecret("token=x")).toBe("assignment");
    expect(findSecret("nothing here")).toBeUndefined();
  });
  it("the length limit is inclusive", () => {
    expect(SECRET_TEXT_MAX_UNITS).toBe(65536);
    expect(findSecret("a".repeat(65536))).toBeUndefined();
    expect(findSecret("a".repeat(65537))).toBe("too-long");
  });
});

describe("decodeCanonicalBase64 against node's base64 codec", () => {
  const unpadded = (b: Buffer, url: boolean) => b.toString(url ? "base64url" : "base64").replace(/=+$/, "");
  it("decodes what node encodes (both alphabets), and refuses the other alphabet's characters", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.boolean(), (bytes, url) => {
        const text = unpadded(Buffer.from(bytes), url);
        expect(decodeCanonicalBase64(text, url)).toEqual([...bytes]);
        const foreign = url ? /[+/]/ : /[-_]/;
        const other = unpadded(Buffer.from(bytes), !url);
        if (/[-_+/]/.test(other)) expect(decodeCanonicalBase64(other, url)).toBeUndefined();
        expect(foreign.test(text)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
  it("every alphabet character maps to its value (RFC 4648 tables 1 and 2)", () => {
    const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (const url of [false, true]) {
      const alphabet = url ? std.replace("+", "-").replace("/", "_") : std;
      for (let v = 0; v < 64; v++) {
        // Four characters: v, then three zeros, decode to three bytes whose first holds v's six bits.
        expect(decodeCanonicalBase64(alphabet[v]! + "AAA", url), `${url} ${alphabet[v]}`).toEqual([v << 2, 0, 0]);
      }
    }
  });
  it("refuses non-canonical text: leftover bits, impossible lengths, padding, empty, foreign characters", () => {
    expect(decodeCanonicalBase64("YTo", false)).toEqual([0x61, 0x3a]);
    expect(decodeCanonicalBase64("YTp", false)).toBeUndefined(); // leftover bits 01
    expect(decodeCanonicalBase64("YR", false)).toBeUndefined(); // leftover bits 0001
    expect(decodeCanonicalBase64("YQ", false)).toEqual([0x61]);
    expect(decodeCanonicalBase64("YWJjZ", false)).toBeUndefined(); // 5 characters
    expect(decodeCanonicalBase64("Y", false)).toBeUndefined();
    expect(decodeCanonicalBase64("", false)).toBeUndefined();
    expect(decodeCanonicalBase64("YQ==", false)).toBeUndefined();
    expect(decodeCanonicalBase64("Y Q", false)).toBeUndefined();
    expect(decodeCanonicalBase64("YW@j", false)).toBeUndefined();
    expect(decodeCanonicalBase64("A".repeat(65540), false)).toBeUndefined();
  });
});

describe("boundary tables", () => {
  const table = (rows: [string, string | undefined][]) => {
    for (const [text, shape] of rows) expect(findSecret(text), JSON.stringify(text)).toBe(shape);
  };
  it("bearer: a word-initial 'bearer', \\s+, then a token character", () => {
    for (const sp of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]) {
      expect(findSecret(`Bearer${String.fromCharCode(sp)}x`), sp.toString(16)).toBe("bearer");
    }
    const tokenChars = "azAZ09._~+/=-";
    for (const ch of tokenChars) expect(findSecret(`Bearer ${ch}`), ch).toBe("bearer");
    table([
      ["Bearer \u200bx", undefined],
      ["Bearer !", undefined],
      ["Bearer ", undefined],
      ["Bearerx", undefined],
      ["_Bearer x", undefined],
      ["9Bearer x", undefined],
      ["-Bearer x", "bearer"],
      ["xBearer y Bearer z", "bearer"],
      ["Bearer \t x", "bearer"],
    ]);
  });
  it("basic: 'basic', spaces or tabs, canonical base64 with at most two '=' that decodes to a ':'", () => {
    table([
      ["Basic YTpi", "basic"],
      ["BASIC YTpi", "basic"],
      ["Basic  \t YTpi", "basic"],
      ["Basic YTo=", "basic"],
      ["Basic YTo", "basic"],
      ["Basic YTp", undefined],
      ["Basic YTo===", undefined],
      ["Basic YTpi+", undefined],
      ["xBasic YTpi", undefined],
      ["Basic !YTpi", undefined],
      ["Basic\nYTpi", undefined],
      ["Basic", undefined],
      ["Basic ", undefined],
      ["Basic bm9jb2xvbg Basic YTpi", "basic"],
    ]);
  });
  it("API key prefixes: word-initial prefix, '-' or '_', 12+ key characters up to a word boundary", () => {
    const prefixes = ["sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox"];
    for (const p of prefixes) {
      for (const sep of ["-", "_"]) {
        expect(findSecret(`${p}${sep}${"a".repeat(12)}`), p + sep).toBe("api-key-prefix");
        expect(findSecret(`${p}${sep}${"a".repeat(11)}`), p + sep).toBeUndefined();
        expect(findSecret(`${p.toUpperCase()}${sep}${"A".repeat(12)}`), p + sep).toBe("api-key-prefix");
      }
    }
    table([
      ["sk.abcdefghijklmnop", undefined],
      ["xsk-abcdefghijklmnop", undefined],
      ["1sk-abcdefghijklmnop", undefined],
      ["(sk-abcdefghijklmnop)", "api-key-prefix"],
      ["sk-abcdefghijk--", undefined],
      ["sk-abcdefghijkl--", "api-key-prefix"],
      ["sk-ab.cdefghijklmnop", undefined],
      ["sk-------------a", "api-key-prefix"],
      ["sk-----------a", undefined],
      ["aa sk-x sk-abcdefghijklmnop", "api-key-prefix"],
      ["xo sk", undefined],
    ]);
  });
  it("AWS: AKIA and exactly 16 of [A-Z0-9], at word boundaries", () => {
    table([
      ["AKIA0123456789ABCDEF", "aws-access-key"],
      ["AKIA0123456789ABCDE", undefined],
      ["AKIA0123456789ABCDEF0", undefined],
      ["AKIA0123456789ABCDEf", undefined],
      ["AKIA0123456789ABCDE_", undefined],
      ["xAKIA0123456789ABCDEF", undefined],
      ["_AKIA0123456789ABCDEF", undefined],
      ["-AKIA0123456789ABCDEF-", "aws-access-key"],
      ["AKIAx AKIA0123456789ABCDEF", "aws-access-key"],
      ["AKIA0123456789ABCDEZ9", undefined],
    ]);
  });
  it("Google: AIza and exactly 35 of [A-Za-z0-9_-], not inside a longer run", () => {
    const body = "0123456789abcdefghijABCDEFGHIJ_-xyz"; // 35
    expect(body.length).toBe(35);
    table([
      [`AIza${body}`, "google-api-key"],
      [`AIza${body.slice(1)}`, undefined],
      [`AIza${body}Q`, undefined],
      [`-AIza${body}`, undefined],
      [`_AIza${body}`, undefined],
      [`0AIza${body}`, undefined],
      [`.AIza${body}.`, "google-api-key"],
      [`AIza AIza${body}`, "google-api-key"],
    ]);
  });
  it("URL credentials: a scheme with a letter, '://', a user, ':', a password, '@'", () => {
    table([
      ["https://u:p@h", "url-credentials"],
      ["a1+.-://u:p@h", "url-credentials"],
      ["12+.-://u:p@h", undefined],
      ["://u:p@h", undefined],
      ["https://u/x:p@h", undefined],
      ["https://u:p/x@h", undefined],
      ["https://u@x:p@h", undefined],
      ["https://u:p", undefined],
      ["https://u:p\u00a0@h", undefined],
      ["https://x https://u:p@h", "url-credentials"],
      ["https://u:p:q@h", "url-credentials"],
    ]);
  });
  it("JOSE: chains of dot-joined segments, five then three at a time, the first a header with alg or enc", () => {
    const header = Buffer.from('{"alg":"HS256"}').toString("base64url");
    const enc = Buffer.from('{"enc":"A256GCM"}').toString("base64url");
    const blank = Buffer.from('{"alg":" \\u00a0"}').toString("base64url");
    const notObject = Buffer.from('["alg"]').toString("base64url");
    table([
      [`${header}.a.b`, "jose"],
      [`${enc}.a.b`, "jose"],
      [`${header}.a`, undefined],
      [`${blank}.a.b`, undefined],
      [`${notObject}.a.b`, undefined],
      [`x ${header}.a.b`, "jose"],
      [`a.b.c ${header}.a.b`, "jose"],
      [`a.b.c.${header}.a.b`, undefined], // the header is not a chunk's first segment
      [`a.b.c.d.e.${header}.x.y`, "jose"],
      [`a.b.c.${header}.x.y.z.w`, undefined],
      [`a.b.${header}.x.y`, undefined],
      [`${header}.a.b.c.d.${header}.e.f`, "jose"],
      [`x.${header}.a.b`, undefined],
      [`x-${header}.a.b`, undefined],
      [`${header}. a.b`, undefined],
    ]);
  });
  it("private key blocks: a BEGIN … PRIVATE KEY header before an END … PRIVATE KEY line", () => {
    table([
      ["-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", "private-key"],
      ["-----BEGIN OPENSSH PRIVATE KEY----- -----END OPENSSH PRIVATE KEY-----", "private-key"],
      ["-----BEGIN PRIVATE KEY----------END PRIVATE KEY-----", "private-key"],
      ["-----BEGIN PRIVATE KEY---- -----END PRIVATE KEY-----", undefined],
      ["-----BEGIN RSA-PRIVATE KEY----- -----END PRIVATE KEY-----", undefined],
      ["-----BEGIN PRIVATE  KEY----- -----END PRIVATE KEY-----", undefined],
      ["-----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----", "private-key"],
      ["-----BEGINPRIVATE KEY----- -----END PRIVATE KEY-----", undefined],
      ["----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----", undefined],
      ["-----BEGIN PRIVATE KEY----- -----END PRIVATE KEY----", undefined],
      ["-----END PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----", "private-key"],
      ["-----BEGIN PRIVATE KEY----- -----BEGIN PRIVATE KEY----- -----END PRIVATE KEY-----", "private-key"],
    ]);
  });
  it("assignments: a sensitive name, optional quote, \\s*[:=]\\s*, then a value that is not , ; } ]", () => {
    table([
      ["token=x", "assignment"],
      ["token=,", undefined],
      ["token=;", undefined],
      ["token=}", undefined],
      ["token=]", undefined],
      ["token= ", undefined],
      ["token\t:\tx", "assignment"],
      ["access-key-id=x", "assignment"],
      ["access_keyid=x", "assignment"],
      ["accesskey id=x", "assignment"],
      ["secret-access_key=x", "assignment"],
      ["auth token=x", "assignment"],
      ["refreshtoken=x", "assignment"],
      ["connectionstring=x", "assignment"],
      ["databaseurl=x", "assignment"],
      ["privatekey=x", "assignment"],
      ["sessionref=x", "assignment"],
      ["authorization=x", "assignment"],
      ["my.secret.value=x", "assignment"],
      ["\"secret\"=x", "assignment"],
      ["'secret'=x", "assignment"],
      ["\"secret'=x", undefined],
      ["'secret\"=x", undefined],
      ["\"secret\" x=y", undefined],
      ["credential=[redacted]", undefined],
      ["credential=[redacted] password=x", "assignment"],
      ["no key=here", undefined],
      ["x=1 y:2", undefined],
    ]);
  });
});
