// The canonicalization dialects (canonical-dialects.ts) of the runtime sources: the messages the real
// Rust host and Android SDK signed, explained through the source doctor with the verdicts
// hand-written from the real implementations' README (spec/agent-provider/vectors/signature-doctor.json);
// then hand-written tables of each platform's number layout (JDK Double.toString and
// BigDecimal.toString as their Javadoc states, serde_json's ryu layout), string escaping, key
// order and duplicate members; and the lexical reader against JSON.parse's verdict.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CanonicalizationDialect,
  formatNumberToken,
  javaBigDecimalToString,
  javaDoubleToString,
  type LexValue,
  parseLexical,
  renderDialect,
} from "../../generators/targets/ts/runtime/src/canonical-dialects.js";
import { explainHmacV1 } from "../../generators/targets/ts/runtime/src/signature-doctor.js";
import type { HmacSha256V1Declaration } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { readJson, ROOT } from "../signing/helpers.js";

// The declarations and dialects are data the generator writes from the spec; only the doctor and
// the dialects run from the sources.
const signing = (await import(`${ROOT}generated/ts/agent-provider/signing.js`)) as Record<string, unknown>;
const DIALECTS = signing["CANONICALIZATION_DIALECTS"] as readonly CanonicalizationDialect[];
const byId = (id: string) => DIALECTS.find((d) => d.divergence === id)!;
const SERDE = byId("canonical-json-dialect-serde-json");
const SERDE_140 = byId("canonical-json-dialect-serde-json-1-0-140");
const AOSP = byId("canonical-json-dialect-aosp-org-json");
const ORG_JSON = byId("canonical-json-dialect-org-json-20240303");
const IOS = byId("canonical-json-dialect-ios-jsonserialization");

describe("the real implementations' signed messages, explained with the source dialects", () => {
  type Expect = "verified" | { reason: string; diagnoses: string[] };
  const { cases } = readJson("spec/agent-provider/vectors/signature-doctor.json") as { cases: { name: string; message_type: string; key_utf8: string; text: string; expect: Expect }[] };
  const declarations: Record<string, HmacSha256V1Declaration> = {
    ActionProposal: signing["ACTION_PROPOSAL_SIGNATURE"] as HmacSha256V1Declaration,
    AgentTriggerRequest: signing["AGENT_TRIGGER_REQUEST_SIGNATURE"] as HmacSha256V1Declaration,
  };
  it("has all 68 (66 real messages, two with a duplicated first member), of both message types", () => {
    expect(cases.length).toBe(68);
    expect(new Set(cases.map((c) => c.message_type))).toEqual(new Set(Object.keys(declarations)));
  });
  it("each gives the hand-written verdict and the dialects that explain it", () => {
    for (const c of cases) {
      const r = explainHmacV1(declarations[c.message_type]!, DIALECTS, c.text, c.key_utf8);
      expect(r.verified ? "verified" : { reason: r.reason.code, diagnoses: r.diagnoses.map((d) => d.divergence) }, c.name).toEqual(c.expect);
    }
  });
});

describe("number layouts", () => {
  // JDK 19+ Double.toString: plain in [1e-3, 1e7) with at least one fraction digit, else d.dddEn.
  const doubles: [number, string][] = [
    [0, "0.0"], [-0, "-0.0"], [1, "1.0"], [12, "12.0"], [-1.5, "-1.5"], [0.5, "0.5"], [0.05, "0.05"], [0.001, "0.001"], [0.00123, "0.00123"],
    [-0.001, "-0.001"], [0.0001, "1.0E-4"], [9999999, "9999999.0"], [1e7, "1.0E7"], [12345678, "1.2345678E7"], [123.456, "123.456"],
    [1234567.5, "1234567.5"], [100, "100.0"], [1e16, "1.0E16"], [-1e-6, "-1.0E-6"], [2.5e-5, "2.5E-5"], [1e21, "1.0E21"], [1.5e300, "1.5E300"], [-2.5e7, "-2.5E7"],
  ];
  for (const [x, text] of doubles) it(`Double.toString(${x}) = ${text}`, () => expect(javaDoubleToString(x)).toBe(text));
  // BigDecimal.toString Javadoc: plain when scale >= 0 and the adjusted exponent >= -6, else
  // scientific with the sign of the exponent always written ([123,-1] -> 1.23E+3, [-123,12] -> -1.23E-10).
  const decimals: [string, string][] = [
    ["123", "123"], ["-123", "-123"], ["1.23e3", "1.23E+3"], ["1.23e5", "1.23E+5"], ["12.3", "12.3"], ["0.00123", "0.00123"], ["1.23e-8", "1.23E-8"],
    ["-1.23e-10", "-1.23E-10"], ["0.0000001", "1E-7"], ["0.000001", "0.000001"], ["1e21", "1E+21"], ["0", "0"], ["0.0", "0.0"], ["0e5", "0E+5"],
    ["1E0", "1"], ["10e-1", "1.0"], ["1.50", "1.50"], ["12E-1", "1.2"], ["100e-5", "0.00100"], ["1e+2", "1E+2"], ["-0.5", "-0.5"], ["007.5", "7.5"],
    ["1.0e-7", "1.0E-7"], ["25e1", "2.5E+2"],
  ];
  for (const [lexeme, text] of decimals) it(`new BigDecimal("${lexeme}").toString() = ${text}`, () => expect(javaBigDecimalToString(lexeme)).toBe(text));
  it("a lexeme BigDecimal would not read is returned as it is", () => expect(javaBigDecimalToString("1.")).toBe("1."));

  // [token, serde_json 1.0.154, 1.0.140]: integers in i64/u64 as digits, floats in ryu's layout.
  const serde: [string, string, string][] = [
    ["12", "12", "12"], ["-12", "-12", "-12"], ["0", "0", "0"], ["-0", "-0.0", "-0.0"], ["12.0", "12.0", "12.0"], ["-0.0", "-0.0", "-0.0"], ["0.0", "0.0", "0.0"],
    ["1E2", "100.0", "100.0"], ["0.5", "0.5", "0.5"], ["-1.5", "-1.5", "-1.5"], ["123456.789", "123456.789", "123456.789"], ["1e15", "1000000000000000.0", "1000000000000000.0"],
    ["1e16", "1e+16", "1e16"], ["1.5e300", "1.5e+300", "1.5e300"], ["0.0001", "0.0001", "0.0001"], ["0.00001", "0.00001", "0.00001"], ["1e-6", "1e-6", "1e-6"],
    ["1.25e-7", "1.25e-7", "1.25e-7"], ["-2.5e-9", "-2.5e-9", "-2.5e-9"], ["1234567890123456.5", "1234567890123456.5", "1234567890123456.5"],
    ["18446744073709551615", "18446744073709551615", "18446744073709551615"], ["-9223372036854775808", "-9223372036854775808", "-9223372036854775808"],
    ["18446744073709551616", "1.8446744073709552e+19", "1.8446744073709552e19"], ["-9223372036854775809", "-9.223372036854776e+18", "-9.223372036854776e18"],
  ];
  for (const [token, plus, bare] of serde) {
    it(`serde_json writes ${token} as ${plus} (1.0.140: ${bare})`, () => {
      expect(formatNumberToken(token, SERDE, "exact")).toBe(plus);
      expect(formatNumberToken(token, SERDE_140, "exact")).toBe(bare);
    });
  }
  // [token, as read exactly, as the double a signer held] for org.json on Android and on a JVM
  // (AOSP's JSONTokener reads an integer token with Long.parseLong, so "-0" is the long 0).
  const aosp: [string, string, string][] = [
    ["12", "12", "12.0"], ["-0", "0", "-0.0"], ["12.0", "12.0", "12.0"], ["1e-6", "1.0E-6", "1.0E-6"], ["9223372036854775807", "9223372036854775807", "9.223372036854776E18"],
    ["-9223372036854775808", "-9223372036854775808", "-9.223372036854776E18"], ["9223372036854775808", "9.223372036854776E18", "9.223372036854776E18"],
    ["-9223372036854775809", "-9.223372036854776E18", "-9.223372036854776E18"],
  ];
  for (const [token, exact, double] of aosp) {
    it(`AOSP org.json writes ${token} as ${exact} or ${double}`, () => {
      expect(formatNumberToken(token, AOSP, "exact")).toBe(exact);
      expect(formatNumberToken(token, AOSP, "double")).toBe(double);
    });
  }
  const orgJson: [string, string, string][] = [
    ["12", "12", "12.0"], ["-0", "-0.0", "-0.0"], ["-0.0", "-0.0", "-0.0"], ["-0e3", "-0.0", "-0.0"], ["0.0", "0.0", "0.0"], ["12.0", "12.0", "12.0"],
    ["1.5e3", "1.5E+3", "1.5E+3"], ["1e-7", "1E-7", "1E-7"], ["-1.5", "-1.5", "-1.5"], ["-0.25e1", "-2.5", "-2.5"], ["99999999999999999999", "99999999999999999999", "1.0E20"], ["-7", "-7", "-7.0"],
  ];
  for (const [token, exact, double] of orgJson) {
    it(`org.json 20240303 writes ${token} as ${exact} or ${double}`, () => {
      expect(formatNumberToken(token, ORG_JSON, "exact")).toBe(exact);
      expect(formatNumberToken(token, ORG_JSON, "double")).toBe(double);
    });
  }
  it("RFC 8785 numbers for the iOS dialect: ES6 Number::toString", () => {
    const table: [string, string][] = [["12.0", "12"], ["1E2", "100"], ["-0", "0"], ["1e21", "1e+21"], ["1e-7", "1e-7"], ["0.000001", "0.000001"]];
    for (const [token, text] of table) expect(formatNumberToken(token, IOS, "exact")).toBe(text);
  });
});

const lex = (text: string): LexValue => {
  const value = parseLexical(text);
  if (value === null) throw new Error(`not JSON: ${text}`);
  return value;
};
const render = (text: string, dialect: CanonicalizationDialect, integers: "exact" | "double" = "exact") => renderDialect(lex(text), dialect, integers);

describe("strings, key order and duplicate members", () => {
  it("every dialect writes the short escapes and other C0 controls as lowercase \\u00xx", () => {
    const text = JSON.stringify('"\\\b\t\n\f\r\u0000\u0001\u001f \u007f');
    for (const d of DIALECTS) expect(render(text, d), d.name).toBe('"\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u0001\\u001f \u007f"');
  });
  it('"/" is never, always or only after "<" escaped', () => {
    const text = JSON.stringify("a/b</c");
    expect(render(text, SERDE)).toBe('"a/b</c"');
    expect(render(text, AOSP)).toBe('"a\\/b<\\/c"');
    expect(render(text, IOS)).toBe('"a\\/b<\\/c"');
    expect(render(text, ORG_JSON)).toBe('"a/b<\\/c"');
    expect(render(JSON.stringify("/x</"), ORG_JSON)).toBe('"/x<\\/"');
  });
  it("org.json 20240303 escapes C1 controls and U+2000-U+20FF, inclusive, and nothing next to them", () => {
    const text = JSON.stringify("\u007f\u0080\u009f\u00a0\u1fff\u2000\u20ff\u2100é");
    expect(render(text, ORG_JSON)).toBe('"\u007f\\u0080\\u009f\u00a0\u1fff\\u2000\\u20ff\u2100é"');
    expect(render(text, AOSP)).toBe(text);
  });
  it("keys sort by UTF-16 code units or by code points", () => {
    const text = '{"\\uff61":1,"\\ud83d\\ude00":2,"ab":3,"a":4,"b":5,"":6}';
    expect(render(text, AOSP)).toBe('{"":6,"a":4,"ab":3,"b":5,"😀":2,"｡":1}');
    expect(render(text, SERDE)).toBe('{"":6,"a":4,"ab":3,"b":5,"｡":1,"😀":2}');
    expect(render('{"b":1,"a":2,"a":3}', SERDE)).toBe('{"a":3,"b":1}');
  });
  it("a duplicate member: the last wins, or the dialect refuses the value, at any depth", () => {
    expect(render('{"a":1,"b":[{"c":1,"c":2}],"a":3}', AOSP)).toBe('{"a":3,"b":[{"c":2}]}');
    expect(render('{"a":1,"a":2}', ORG_JSON)).toBeNull();
    expect(render('[1,{"a":{"c":1,"c":2}}]', IOS)).toBeNull();
    expect(render('{"x":{"c":1,"c":2}}', IOS)).toBeNull();
    expect(render('{"x":[{"c":1,"c":2}]}', ORG_JSON)).toBeNull();
  });
  it("a whole value in each dialect", () => {
    const text = '{"n":[12, -0, 1e16, 0.5],"s":"</\u0085","t":true,"f":false,"z":null,"o":{}, "e":[]}';
    expect(render(text, SERDE)).toBe('{"e":[],"f":false,"n":[12,-0.0,1e+16,0.5],"o":{},"s":"</\u0085","t":true,"z":null}');
    expect(render(text, ORG_JSON, "double")).toBe('{"e":[],"f":false,"n":[12.0,-0.0,1E+16,0.5],"o":{},"s":"<\\/\\u0085","t":true,"z":null}');
    expect(render(text, AOSP, "double")).toBe('{"e":[],"f":false,"n":[12.0,-0.0,1.0E16,0.5],"o":{},"s":"<\\/\u0085","t":true,"z":null}');
  });
});

describe("parseLexical", () => {
  it("keeps number lexemes and every member in order", () => {
    expect(parseLexical(' {"a" : [1.50, "x\\u0041\\n", true, null, false], "a":-0e+1 } ')).toEqual({
      t: "obj",
      members: [
        ["a", { t: "arr", items: [{ t: "num", lexeme: "1.50" }, { t: "str", value: "xA\n" }, { t: "lit", value: "true" }, { t: "lit", value: "null" }, { t: "lit", value: "false" }] }],
        ["a", { t: "num", lexeme: "-0e+1" }],
      ],
    });
    expect(parseLexical('"\\"\\\\\\/\\b\\f\\n\\r\\t\\ud800"')).toEqual({ t: "str", value: '"\\/\b\f\n\r\t\ud800' });
    expect(parseLexical("[]")).toEqual({ t: "arr", items: [] });
    expect(parseLexical("\t\n\r {}")).toEqual({ t: "obj", members: [] });
  });
  it("reads 64 containers around a value and refuses 65", () => {
    expect(parseLexical("[".repeat(64) + "1" + "]".repeat(64))).not.toBeNull();
    expect(parseLexical("[".repeat(65) + "1" + "]".repeat(65))).toBeNull();
  });
  const table = [
    "", " ", "{", "}", "[", "]", "[1,]", "[,1]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{,}", "{1:2}", "{\"a\":1]", "[1}", "01", "-", "1.", ".5", "1e", "+1",
    "tru", "nul", "fals", "truex", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"a\u0001\"", "\"\\", "\f1", "1 2", "[] x", "NaN", "'a'", "\"\\u00e9\"", "-0.5e-3",
    "[true,false,null]", "[true,1]", "[null, 2]", "{\"a\":false,\"b\":-1}", "{\"a\":{\"b\":[1,{\"c\":\"d\"}]}}", " [ 1 , 2 ] ", "\"\\ud800\"", "{\"a\":1,\"a\":2}", "1E+2", "-0", "0", "[\"\\/\"]",
    // a non-u escape before four hex digits, and an object member without a name
    "\"\\x0041\"", "[\"\\q0041\"]", "{:1}", "{ :1}", "{\"a\":1,:2}",
  ];
  it("refuses exactly what JSON.parse refuses", () => {
    for (const text of table) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(parseLexical(text) !== null, JSON.stringify(text)).toBe(valid);
    }
  });
  it("on generated and damaged JSON too", () => {
    const damaged = fc.tuple(fc.json({ maxDepth: 4 }), fc.nat(), fc.constantFrom("keep", "insert", "delete"), fc.constantFrom(",", ":", '"', "\\", "]", "}", "{", "[", "0", "-", "e", " ", "\u0001"))
      .map(([text, at, how, ch]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        return how === "insert" ? text.slice(0, i) + ch + text.slice(i) : how === "delete" ? text.slice(0, i) + text.slice(i + 1) : text;
      });
    fc.assert(fc.property(damaged, (text) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(parseLexical(text) !== null).toBe(valid);
    }), { numRuns: 300, seed: 20261202 });
  });
});
