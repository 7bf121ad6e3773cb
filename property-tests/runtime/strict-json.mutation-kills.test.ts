// The strict parser (strict-json.ts) against hand-written tables: every error code with its offset
// and message counted by hand from the input beside it (UTF-16 offsets for text, byte offsets for
// bytes), UTF-8 sequences classified by RFC 3629 §3-4, the size and depth limits at their edges,
// and valid JSON read by the stepwise parser alone with node's JSON.parse as the oracle for its value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_JSON_BYTES,
  DEFAULT_MAX_JSON_DEPTH,
  findLoneSurrogate,
  parseStrictJson,
  parseStrictJsonStepwise,
  type StrictJsonLimits,
} from "../../generators/targets/ts/runtime/src/strict-json.js";

type Case = [input: string, code: string, offset: number, message: string];
const verdict = (r: ReturnType<typeof parseStrictJson>) => (r.ok ? { ok: true, value: r.value } : r.error);
/** Both entry points give this error, message suffixed with the offset. */
function refuses(input: string | Uint8Array, code: string, offset: number, message: string, limits: StrictJsonLimits = {}): void {
  const error = { code, offset, message: `${message} (at offset ${offset})` };
  expect(verdict(parseStrictJson(input, limits)), String(input)).toEqual(error);
  expect(verdict(parseStrictJsonStepwise(input, limits)), String(input)).toEqual(error);
}

describe("error codes, offsets and messages (text input)", () => {
  const table: Case[] = [
    ["", "unexpected-end", 0, "expected a value"],
    ["   ", "unexpected-end", 3, "expected a value"],
    ["[", "unexpected-end", 1, "expected a value"],
    ["[1", "unexpected-end", 2, "input ends inside a container"],
    ['{"a":1', "unexpected-end", 6, "input ends inside a container"],
    ["[1 2]", "unexpected-character", 3, "expected ',' or ']'"],
    ["[1}", "unexpected-character", 2, "expected ',' or ']'"],
    ['{"a":1 "b"', "unexpected-character", 7, "expected ',' or '}'"],
    ['{"a":1]', "unexpected-character", 6, "expected ',' or '}'"],
    ["[}", "unexpected-character", 1, "expected a value"],
    ["[1,]", "unexpected-character", 3, "trailing comma"],
    ["[1, ]", "unexpected-character", 4, "trailing comma"],
    ['{"a":1,}', "unexpected-character", 7, "trailing comma"],
    ['{"a":1 , }', "unexpected-character", 9, "trailing comma"],
    ["[,1]", "unexpected-character", 1, "expected a value"],
    ["{", "unexpected-end", 1, "input ends inside an object"],
    ["{ ", "unexpected-end", 2, "input ends inside an object"],
    ["{1}", "unexpected-character", 1, "expected a member name"],
    ['{"a":1,1}', "unexpected-character", 7, "expected a member name"],
    ['{"a"', "unexpected-end", 4, "input ends inside an object"],
    ['{"a" ', "unexpected-end", 5, "input ends inside an object"],
    ['{"a" 1}', "unexpected-character", 5, "expected ':'"],
    ['{"a":1,"a":2}', "duplicate-key", 7, 'duplicate member name "a"'],
    ['{"a":1, "b":2, "a":3}', "duplicate-key", 15, 'duplicate member name "a"'],
    ['{"x":{"a":1},"y":{"a":2,"a":3}}', "duplicate-key", 24, 'duplicate member name "a"'],
    ['{"__proto__":1,"__proto__":2}', "duplicate-key", 15, 'duplicate member name "__proto__"'],
    ["1 2", "trailing-data", 2, "data after the JSON value"],
    ["[] x", "trailing-data", 3, "data after the JSON value"],
    ['{}"', "trailing-data", 2, "data after the JSON value"],
    ["1\ufeff", "trailing-data", 1, "data after the JSON value"],
    ["NaN", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["Infinity", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["[-Infinity]", "non-json-literal", 1, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["-NaN", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["+Infinity", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["+1", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["'a'", "non-json-literal", 0, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["[undefined]", "non-json-literal", 1, "not a JSON value (NaN, Infinity, quotes or sign)"],
    ["tru", "unexpected-character", 0, "expected a value"],
    ["nul", "unexpected-character", 0, "expected a value"],
    ["fals", "unexpected-character", 0, "expected a value"],
    ["/", "unexpected-character", 0, "expected a value"],
    [":", "unexpected-character", 0, "expected a value"],
    ["\f1", "unexpected-character", 0, "expected a value"],
    ["\u00a01", "unexpected-character", 0, "expected a value"],
    ["-", "invalid-number", 0, "malformed number"],
    ["-x", "invalid-number", 0, "malformed number"],
    ["-I", "invalid-number", 0, "malformed number"],
    ["01", "invalid-number", 0, "malformed number"],
    ["-01", "invalid-number", 0, "malformed number"],
    ["1.", "invalid-number", 0, "malformed number"],
    ["0.e1", "invalid-number", 0, "malformed number"],
    ["1e", "invalid-number", 0, "malformed number"],
    ["1E+", "invalid-number", 0, "malformed number"],
    ["1.5e-", "invalid-number", 0, "malformed number"],
    ["[1, 2.]", "invalid-number", 4, "malformed number"],
    [".5", "unexpected-character", 0, "expected a value"],
    ["1e400", "number-out-of-range", 0, "number overflows a double"],
    ["[1, -1e309]", "number-out-of-range", 4, "number overflows a double"],
    ["9007199254740993", "number-not-exact", 0, "integer is not exactly representable as a double"],
    ["[-9007199254740993]", "number-not-exact", 1, "integer is not exactly representable as a double"],
    ["123456789012345678", "number-not-exact", 0, "integer is not exactly representable as a double"],
    ['"abc', "unexpected-end", 4, "input ends inside a string"],
    ['["ab', "unexpected-end", 4, "input ends inside a string"],
    ['"a\u0001"', "invalid-string", 2, "unescaped control character in string"],
    ['"a\n"', "invalid-string", 2, "unescaped control character in string"],
    ['"\u001f"', "invalid-string", 1, "unescaped control character in string"],
    ['"\\x"', "invalid-string", 1, "invalid escape sequence"],
    ['"ab\\\'"', "invalid-string", 3, "invalid escape sequence"],
    ['"\\', "unexpected-end", 1, "input ends inside a string"],
    ['"\\u12', "unexpected-end", 3, "input ends inside a \\u escape"],
    ['"\\u', "unexpected-end", 3, "input ends inside a \\u escape"],
    ['"\\u12"', "invalid-string", 3, "invalid \\u escape"],
    ['"\\u12G4"', "invalid-string", 3, "invalid \\u escape"],
    ['"\\u+123"', "invalid-string", 3, "invalid \\u escape"],
    ['"\\ud800"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate"],
    ['"\\ud800\\u0041"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate"],
    ['"\\ud800x"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate"],
    ['"x\\udbff\\udbff"', "lone-surrogate", 2, "escaped high surrogate without a low surrogate"],
    ['"\\ud800\\ue000"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate"],
    ['"\\ud800\\n"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate"],
    ['"\\udc00"', "lone-surrogate", 1, "escaped low surrogate without a high surrogate"],
    ['"ab\\udfff"', "lone-surrogate", 3, "escaped low surrogate without a high surrogate"],
    ['"\\ud800\\u"', "invalid-string", 9, "invalid \\u escape"],
    ["\ufeff1", "bom", 0, "input starts with a byte order mark"],
    ['"\ud800"', "lone-surrogate", 1, "raw lone surrogate in input"],
    ['"a\udc00b"', "lone-surrogate", 2, "raw lone surrogate in input"],
  ];
  for (const [input, code, offset, message] of table) {
    it(`${JSON.stringify(input)} -> ${code} @ ${offset}`, () => refuses(input, code, offset, message));
  }
});

describe("byte input: offsets count UTF-8 bytes", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("an error after multi-byte characters is at its byte offset", () => {
    refuses(enc('"é\\x"'), "invalid-string", 3, "invalid escape sequence"); // " é(2) \ -> 3
    refuses(enc('["€", 1 2]'), "unexpected-character", 10, "expected ',' or ']'"); // [ " €(3) " , sp 1 sp -> 2 at byte 10
    refuses(enc('{"😀":1,"😀":2}'), "duplicate-key", 10, 'duplicate member name "😀"'); // { " 😀(4) " : 1 , then the second name at byte 10
    refuses(Uint8Array.of(0xef, 0xbb, 0xbf, 0x31), "bom", 0, "input starts with a byte order mark");
  });
  // RFC 3629 §4: well-formed sequences; everything else (overlong forms, surrogates, > U+10FFFF,
  // stray or missing continuation bytes) is refused at the first byte of the bad sequence.
  const invalid: [bytes: number[], offset: number][] = [
    [[0x80], 0], [[0x31, 0xff], 1], [[0x22, 0xc0, 0x80, 0x22], 1], [[0x22, 0xc1, 0xbf, 0x22], 1],
    [[0x22, 0xe0, 0x80, 0x80, 0x22], 1], [[0x22, 0xe0, 0x9f, 0xbf, 0x22], 1], [[0x22, 0xed, 0xa0, 0x80, 0x22], 1], [[0x22, 0xed, 0xbf, 0xbf, 0x22], 1],
    [[0x22, 0xf0, 0x8f, 0xbf, 0xbf, 0x22], 1], [[0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1], [[0x22, 0xf5, 0x80, 0x80, 0x80, 0x22], 1],
    [[0x22, 0xf8, 0x22], 1], [[0x22, 0xfe, 0x22], 1], [[0x22, 0xe2, 0x82], 1], [[0x22, 0xe2, 0x28, 0xa1, 0x22], 1], [[0x22, 0xc2], 1],
    [[0x22, 0xc2, 0xc0, 0x22], 1], [[0x22, 0xf0, 0x9f, 0x98, 0x22], 1],
    // valid sequences of each length first, then the bad byte: the walk steps over each whole sequence
    [[0x22, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0x22], 6], [[0x22, 0xf0, 0x9f, 0x98, 0x80, 0x80, 0x22], 5],
    [[0x22, 0xdf, 0xbf, 0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80, 0xef, 0xbf, 0xbf, 0xc0, 0x22], 12],
    [[0x22, 0xf4, 0x8f, 0xbf, 0xbf, 0xf0, 0x90, 0x80, 0x80, 0xe0, 0xa0, 0x80, 0xc2, 0x80, 0xed, 0xa0, 0x80, 0x22], 14],
  ];
  for (const [bytes, offset] of invalid) {
    it(`${Buffer.from(bytes).toString("hex")} -> invalid-utf8 @ ${offset}`, () => refuses(Uint8Array.from(bytes), "invalid-utf8", offset, "input is not valid UTF-8"));
  }
  it("the boundary code points of each length are valid", () => {
    const valid = [[0xc2, 0x80], [0xdf, 0xbf], [0xe0, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xee, 0x80, 0x80], [0xef, 0xbf, 0xbf], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf]];
    for (const seq of valid) {
      const bytes = Uint8Array.from([0x22, ...seq, 0x22]);
      expect(parseStrictJsonStepwise(bytes)).toEqual({ ok: true, value: JSON.parse(Buffer.from(bytes).toString("utf8")) });
    }
  });
});

describe("findLoneSurrogate", () => {
  const table: [string, number][] = [
    ["", -1], ["abc", -1], ["\ud83d\ude00", -1], ["\udbff\udfff", -1], ["\ud800\udc00", -1], ["\ud7ff\ue000", -1],
    ["\ud800", 0], ["a\ud800", 1], ["\udc00", 0], ["ab\udfff", 2], ["\ud800a", 0], ["\ud800\ud800\udc00", 0], ["\ud83d\ude00\udc00", 2],
    ["\udbff", 0], ["\ud800\ue000", 0], ["\ud800\udbff", 0], ["x\ud83d\ude00y\ud83d", 4],
  ];
  for (const [text, index] of table) it(`${JSON.stringify(text)} -> ${index}`, () => expect(findLoneSurrogate(text)).toBe(index));
});

describe("limits at their edges", () => {
  it("the defaults are 4 MiB and depth 64", () => {
    expect([DEFAULT_MAX_JSON_BYTES, DEFAULT_MAX_JSON_DEPTH]).toEqual([4 * 1024 * 1024, 64]);
  });
  it("maxBytes: exactly the limit passes, one more byte is too large (text counted in UTF-8)", () => {
    expect(parseStrictJson("1", { maxBytes: 1 })).toEqual({ ok: true, value: 1 });
    refuses("12", "too-large", 0, "input is larger than 1 bytes", { maxBytes: 1 });
    expect(parseStrictJson('"é"', { maxBytes: 4 })).toEqual({ ok: true, value: "é" });
    refuses('"é"', "too-large", 0, "input is larger than 3 bytes", { maxBytes: 3 }); // 3 UTF-16 units, 4 bytes
    expect(parseStrictJson(Uint8Array.of(0x31, 0x20), { maxBytes: 2 })).toEqual({ ok: true, value: 1 });
    refuses(Uint8Array.of(0x31, 0x20, 0x20), "too-large", 0, "input is larger than 2 bytes", { maxBytes: 2 });
  });
  it("the default size limit is 4 MiB, for text and bytes", () => {
    const fits = " ".repeat(DEFAULT_MAX_JSON_BYTES - 1) + "1";
    expect(parseStrictJson(fits)).toEqual({ ok: true, value: 1 });
    refuses(fits + " ", "too-large", 0, "input is larger than 4194304 bytes");
    refuses(new Uint8Array(DEFAULT_MAX_JSON_BYTES + 1).fill(0x20), "too-large", 0, "input is larger than 4194304 bytes");
  });
  it("maxDepth counts containers, empty ones too; scalars have depth 0", () => {
    expect(parseStrictJson("1", { maxDepth: 0 })).toEqual({ ok: true, value: 1 });
    refuses("[]", "too-deep", 0, "nesting deeper than 0", { maxDepth: 0 });
    expect(parseStrictJson("[[]]", { maxDepth: 2 })).toEqual({ ok: true, value: [[]] });
    refuses("[[[]]]", "too-deep", 2, "nesting deeper than 2", { maxDepth: 2 });
    refuses('{"a":{"b":{}}}', "too-deep", 10, "nesting deeper than 2", { maxDepth: 2 });
    refuses("[ [ {} ] ]", "too-deep", 4, "nesting deeper than 2", { maxDepth: 2 });
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect(parseStrictJson(deep(DEFAULT_MAX_JSON_DEPTH)).ok).toBe(true);
    refuses(deep(DEFAULT_MAX_JSON_DEPTH + 1), "too-deep", 64, "nesting deeper than 64");
  });
  it("a depth limit past the fast path's is parsed stepwise, without recursion", () => {
    const depth = 100_000;
    const r = parseStrictJson("[".repeat(depth) + "]".repeat(depth), { maxDepth: depth });
    expect(r.ok).toBe(true);
  });
});

describe("values the stepwise parser reads, against JSON.parse", () => {
  const texts = [
    "true", "false", "null", "[true,false,null]", " \t\n\r[ 1 ,\t2\n]\r ", "[ ]", "{ }", "{\n}", "[[1],[2,[3]],[]]", '{"a":{"b":[]},"c":1,"d":{}}',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\u0041\\u00e9\\u20ac\\uFFFF\\ud7ff\\ue000"', '"\\ud83d\\ude00\\udbff\\udfff\\ud800\\udc00"', '"a\\u0000b"',
    '"\ufeff"', '"\u007f\u0080"', "0", "-0.5", "1E2", "1e-2", "-1.25e+7", "0.1", "9", "[0,1,2,3,4,5,6,7,8,9]", "9007199254740992", "9007199254740994",
    "-9007199254740994", "1000000000000000", "9007199254740993.0", "9007199254740993e0", "18014398509481988", "1e308", "5e-324", "1e-400",
    '{"toString":1,"constructor":2,"hasOwnProperty":3,"valueOf":{}}', '{"a":"b:c","d":[{"e":":"}]}', '[{},{"a":1},[],"x"]',
  ];
  for (const text of texts) {
    it(text, () => {
      expect(parseStrictJsonStepwise(text)).toEqual({ ok: true, value: JSON.parse(text) });
      expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
    });
  }
  it("-0 is read as 0, alone and inside containers", () => {
    const read = (text: string) => {
      const r = parseStrictJsonStepwise(text);
      return r.ok ? r.value : r.error;
    };
    for (const text of ["-0", "-0.0", "-0e5"]) expect(Object.is(read(text), 0), text).toBe(true);
    expect(Object.is((read("[-0]") as number[])[0], 0)).toBe(true);
    expect(Object.is((read('{"a":-0}') as { a: number }).a, 0)).toBe(true);
  });
  it("__proto__ is an own member, not the prototype", () => {
    const r = parseStrictJsonStepwise('{"__proto__":{"x":1}}');
    expect(r.ok && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.ok && Object.keys(r.value as object)).toEqual(["__proto__"]);
  });
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 });
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, fc.boolean(), fc.constant(null), finite, fc.integer(), fc.string({ unit: "grapheme", maxLength: 6 }), fc.string({ maxLength: 6 }),
      fc.array(tie("v"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 4 })),
  })).v;
  it("generated JSON, compact and indented, reads as JSON.parse reads it", () => {
    fc.assert(fc.property(value, fc.constantFrom(undefined, 1, "\t", "\r\n "), (v, space) => {
      // Raw line breaks only occur as whitespace: inside strings JSON.stringify escapes them.
      const text = space === "\r\n " ? JSON.stringify(v, null, 1).replace(/\n/g, "\r\n") : JSON.stringify(v, null, space);
      expect(parseStrictJsonStepwise(text)).toEqual({ ok: true, value: JSON.parse(text) });
      expect(parseStrictJsonStepwise(new TextEncoder().encode(text))).toEqual({ ok: true, value: JSON.parse(text) });
    }), { numRuns: 150, seed: 20261202 });
  });
});
