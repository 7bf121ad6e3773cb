// The strict parser's fast path (JSON.parse, then a scan and a walk for what JSON.parse lets
// through) against the stepwise parser alone: the same value (-0 as 0 included), or the same
// error with the same code, offset and message, on JSON built to sit on the edge of every check
// (duplicate names, also spelled with escapes; surrogate escapes, paired and lone; -0, 2^53 and
// beyond, overflow; nesting at the limit; __proto__) and on that text damaged at random.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStrictJson, parseStrictJsonStepwise, type StrictJsonLimits } from "../../generators/targets/ts/runtime/src/strict-json.js";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 400);
const OPTIONS = { numRuns: RUNS, seed: Number(process.env["FUZZ_SEED"] ?? 20261201) };

const number = fc.oneof(
  fc.constantFrom("-0", "-0.0", "-0e3", "0", "-0.5", "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993",
    "12345678901234567890", "1e400", "-1e400", "1e-400", "-1e-400", "1.5e308", "2e308", "1E2", "-1.25e-7", "0.1"),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map(String),
);
const stringText = fc.oneof(
  fc.constantFrom('"a"', '"\\u0061"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ud800x"', '"\\\\ud800"', '"\\"\\\\"', '"é😀"', '"\\u2028"', '"__proto__"', '""'),
  fc.string({ maxLength: 10, unit: "binary" }).map((s) => JSON.stringify(s)),
);
const keyText = fc.oneof(fc.constantFrom('"a"', '"\\u0061"', '"b"', '"1"', '"01"', '"__proto__"', '"\\ud800"', '"\\ud83d\\ude00"'), stringText);
const space = fc.constantFrom("", " ", "\n", "\t\r\n ");
const json: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" },
    number, stringText, fc.constantFrom("true", "false", "null"),
    fc.integer({ min: 60, max: 70 }).map((n) => "[".repeat(n) + "]".repeat(n)),
    fc.integer({ min: 60, max: 70 }).map((n) => '{"x":'.repeat(n) + "1" + "}".repeat(n)),
    fc.tuple(fc.array(tie("node"), { maxLength: 5 }), space).map(([xs, ws]) => `[${ws}${xs.join(`,${ws}`)}${ws}]`),
    fc.tuple(fc.array(fc.tuple(keyText, tie("node")), { maxLength: 6 }), space).map(([kv, ws]) => `{${kv.map(([k, v]) => `${ws}${k}${ws}:${ws}${v}`).join(",")}}`),
  ),
})).node as fc.Arbitrary<string>;
/** The text, or the text with one character inserted, deleted or replaced. */
const damaged = fc.tuple(json, fc.nat(), fc.constantFrom("none", "none", "insert", "delete", "replace"), fc.constantFrom(",", ":", '"', "\\", "]", "}", "0", "-", "\u00ff", "\ud800", " ")).map(([text, at, how, ch]) => {
  const i = text.length === 0 ? 0 : at % text.length;
  if (how === "insert") return text.slice(0, i) + ch + text.slice(i);
  if (how === "delete") return text.slice(0, i) + text.slice(i + 1);
  if (how === "replace") return text.slice(0, i) + ch + text.slice(i + 1);
  return text;
});
const limits = fc.constantFrom<StrictJsonLimits>({}, { maxDepth: 0 }, { maxDepth: 1 }, { maxDepth: 3 }, { maxDepth: 64 }, { maxDepth: 65 }, { maxDepth: 1000 });

function same(input: string | Uint8Array, limit: StrictJsonLimits): void {
  expect(parseStrictJson(input, limit)).toEqual(parseStrictJsonStepwise(input, limit));
}

describe(`strict parser: fast path and stepwise parser agree (${RUNS} runs)`, () => {
  it("on text", () => {
    fc.assert(fc.property(damaged, limits, (text, limit) => same(text, limit)), OPTIONS);
  });
  it("on UTF-8 bytes", () => {
    const enc = new TextEncoder();
    fc.assert(fc.property(damaged, limits, (text, limit) => same(enc.encode(text), limit)), OPTIONS);
  });
  it("on the edges, one by one", () => {
    const cases = ["-0", "[-0]", '{"a":-0.0}', "9007199254740993", "[9007199254740992]", "1e400", '{"a":1,"a":2}', '{"a":1,"\\u0061":2}',
      '{"a":{"b":1,"b":1}}', '["\\ud800"]', '{"\\udc00":1}', '"\\ud83d\\ude00"', '"\\\\ud800"', '{"__proto__":{"x":1}}', '{"x":"a:b","y":1}',
      "[".repeat(64) + "]".repeat(64), "[".repeat(65) + "]".repeat(65), " \n1\t", '{"a":[{"b":[]},{"b":[],"c":{}}]}'];
    for (const text of cases) same(text, {});
    expect(parseStrictJson("[-0]")).toEqual({ ok: true, value: [0] });
    expect(parseStrictJson('{"a":1,"\\u0061":2}')).toMatchObject({ ok: false, error: { code: "duplicate-key", offset: 7 } });
  });
});
