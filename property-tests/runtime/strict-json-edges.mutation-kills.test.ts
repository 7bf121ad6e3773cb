// Near misses of the strict parser's grammar and of UTF-8 (strict-json.ts), next to the cases of
// strict-json.mutation-kills.test.ts: each expectation is RFC 8259's grammar (JSON.parse refuses
// every text here) or RFC 3629's byte classes (TextDecoder's fatal mode refuses every byte string),
// with the offset counted by hand.
import { describe, expect, it } from "vitest";
import { parseStrictJson, parseStrictJsonStepwise, type StrictJsonLimits } from "../../generators/targets/ts/runtime/src/strict-json.js";

const verdict = (r: ReturnType<typeof parseStrictJson>) => (r.ok ? { ok: true, value: r.value } : r.error);
/** Both entry points give this error, message suffixed with the offset. */
function refuses(input: string | Uint8Array, code: string, offset: number, message: string, limits: StrictJsonLimits = {}): void {
  const error = { code, offset, message: `${message} (at offset ${offset})` };
  expect(verdict(parseStrictJson(input, limits)), String(input)).toEqual(error);
  expect(verdict(parseStrictJsonStepwise(input, limits)), String(input)).toEqual(error);
}

describe("near misses of the grammar and of UTF-8", () => {
  it("text input reports UTF-16 offsets even after a non-ASCII character", () => {
    refuses('"é\\x"', "invalid-string", 2, "invalid escape sequence"); // " é \ : the backslash is unit 2 (byte 3)
    refuses('["€", 1 2]', "unexpected-character", 8, "expected ',' or ']'"); // [ " € " , sp 1 sp 2: unit 8 (byte 10)
  });
  it("a non-literal word is only one at the start of the value", () => {
    for (const text of ["xNaN", "xInfinity", "x+1", "x'a'", "[xNaN]"]) expect(JSON.parse.bind(null, text)).toThrow();
    refuses("xNaN", "unexpected-character", 0, "expected a value");
    refuses("xInfinity", "unexpected-character", 0, "expected a value");
    refuses("[xNaN]", "unexpected-character", 1, "expected a value");
    refuses("x+Infinity", "unexpected-character", 0, "expected a value");
  });
  it("a minus sign before a second minus is a malformed number, not -NaN", () => {
    refuses("--NaN", "invalid-number", 0, "malformed number");
    refuses("[--Infinity]", "invalid-number", 1, "malformed number");
  });
  it("a zero followed by any digit is a malformed number (RFC 8259 §6: no leading zeros)", () => {
    for (const d of "0123456789") refuses(`0${d}`, "invalid-number", 0, "malformed number");
    refuses("[-00]", "invalid-number", 1, "malformed number");
  });
  it("an escaped high surrogate followed by 'x' or '\\n' and four hex digits is lone", () => {
    refuses('"\\ud800xudc00"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate");
    refuses('"\\ud800\\ndc00"', "lone-surrogate", 1, "escaped high surrogate without a low surrogate");
  });
  // RFC 3629 §4: 80-bf never start a sequence, f5-ff are never used; each shaped so that reading it
  // as a three- or four-byte sequence would give a code point in range (0x8f bf bf -> U+FFFF,
  // 84 / fc 80 80 80 -> U+100000).
  const invalid: [bytes: number[], offset: number][] = [
    [[0x22, 0x8f, 0xbf, 0xbf, 0x22], 1], [[0x22, 0xc1, 0xbf, 0xbf, 0x22], 1], [[0x22, 0x84, 0x80, 0x80, 0x80, 0x22], 1],
    [[0x22, 0xfc, 0x80, 0x80, 0x80, 0x22], 1], [[0x22, 0xf7, 0x80, 0x80, 0x80, 0x22], 1], [[0x22, 0xc3, 0xa9, 0x84, 0x80, 0x80, 0x80, 0x22], 3],
  ];
  for (const [bytes, offset] of invalid) {
    it(`${Buffer.from(bytes).toString("hex")} -> invalid-utf8 @ ${offset}`, () => {
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes))).toThrow();
      refuses(Uint8Array.from(bytes), "invalid-utf8", offset, "input is not valid UTF-8");
    });
  }
});
