// The strict parser's fast path (strict-json-check.ts) says "it passes" only for documents the
// stepwise parser accepts unchanged, and it does say so for every document without duplicate
// names, escaped lone surrogates, nesting past the limit or numbers it cannot vouch for (-0 aside):
// there parseStrictJson returns the very object JSON.parse built. Which documents are which is
// written by hand from the rules in the file's comments (RFC 8259 grammar, I-JSON's 2^53).
import { describe, expect, it } from "vitest";
import { lastJsonParseResult, path, recordJsonParse } from "./fast-path-probe.js";
import { FAST_PATH_MAX_DEPTH } from "../../generators/targets/ts/runtime/src/strict-json-check.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";

recordJsonParse();

describe("documents the fast path vouches for", () => {
  const fast = [
    "[]", "{}", "[1]", '{"a":1}', "[1,2,[3,[4]]]", '{"a":{"b":[1,{"c":"d"}]},"e":null}', '{"a":"x:y","b":"{[:]}"}', '{"a\\"":1,"b":"\\\\"}',
    '{"a":"\\"","b":":","c":"\\\\"}', '{"\\u0061":1}', '{"a":"\\ud83d\\ude00","b":"\\n\\t\\u00e9"}', '["\\ud83d\\ude00", "\\ud800\\udc00", "\\udbff\\udfff"]',
    '["\\ud7ff", "\\ue000", "\\u0000"]', "[9007199254740991, -9007199254740991, 0.5, -1.5e-300, 1e15]", "[-0]", '{"a":-0,"b":[-0.0]}', "[0, 0.0]",
    '{"a":[{"b":{}},{"c":[]}],"d":[[],[{}]]}', ' \n[ 1 ,\t{ "a" : 2 } ]\r\n', '{"__proto__":{"x":1}}', '[true,false,null,"s"]', '{"a":"\\\\\\"","b":1}',
    '{"a":"\\\\","b":"\\\\"}', '["x\\\\", {"k":"v"}]',
  ];
  for (const text of fast) it(text, () => expect(path(text)).toBe("fast"));
  it("-0 inside is made 0 in the native value", () => {
    const r = parseStrictJson('{"a":-0,"b":[-0,{"c":-0}]}');
    expect(r.ok && r.value === lastJsonParseResult()).toBe(true);
    const v = (r.ok ? r.value : null) as { a: number; b: [number, { c: number }] };
    expect([Object.is(v.a, 0), Object.is(v.b[0], 0), Object.is(v.b[1].c, 0)]).toEqual([true, true, true]);
    expect(Object.is((parseStrictJson("-0") as { value: number }).value, 0)).toBe(true);
    expect(Object.is((parseStrictJson("-0.0e1") as { value: number }).value, 0)).toBe(true);
  });
  it("nesting up to the limit, which is the caller's maxDepth", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect(path(deep(3), { maxDepth: 3 })).toBe("fast");
    expect(path('{"a":{"b":[]}}', { maxDepth: 3 })).toBe("fast");
    expect(path("[[],[],[[]]]", { maxDepth: 3 })).toBe("fast"); // closers lower the depth again
    expect(path("[[[[]]]]", { maxDepth: 3 })).toBe("error too-deep");
    expect(path('{"a":[{"b":{}}]}', { maxDepth: 3 })).toBe("error too-deep");
    expect(path(deep(FAST_PATH_MAX_DEPTH), { maxDepth: FAST_PATH_MAX_DEPTH })).toBe("fast");
    expect(path(deep(FAST_PATH_MAX_DEPTH + 1), { maxDepth: FAST_PATH_MAX_DEPTH + 1 })).toBe("stepwise");
    expect(FAST_PATH_MAX_DEPTH).toBe(512);
  });
});

describe("documents it leaves to the stepwise parser", () => {
  const table: [string, string][] = [
    ['{"a":1,"a":2}', "error duplicate-key"],
    ['{"a":1,"\\u0061":2}', "error duplicate-key"],
    ['[{"x":{"a":1,"a":1}}]', "error duplicate-key"],
    ['{"a":"b:c","a":1}', "error duplicate-key"],
    ['["\\ud800"]', "error lone-surrogate"],
    ['["\\udc00"]', "error lone-surrogate"],
    ['["\\ud800\\u0041"]', "error lone-surrogate"],
    ['["\\ud800\\ud800"]', "error lone-surrogate"],
    ['["\\ud800\\ue000"]', "error lone-surrogate"],
    ['["\\ud800x"]', "error lone-surrogate"],
    ['["ok", "\\\\", "\\udfff"]', "error lone-surrogate"],
    ['{"\\udbff":1}', "error lone-surrogate"],
    ['["\\ud83d\\ude00", "\\udc00"]', "error lone-surrogate"],
    ["[9007199254740993]", "error number-not-exact"],
    ['{"a":-9007199254740993}', "error number-not-exact"],
    ["[1e400]", "error number-out-of-range"],
    ["[9007199254740992]", "stepwise"],
    ["[-9007199254740992]", "stepwise"],
    ['{"a":1e300}', "stepwise"],
    ['{"a":{"b":-1e300}}', "stepwise"],
    ["[1e16, 1]", "stepwise"],
  ];
  for (const [text, outcome] of table) it(text, () => expect(path(text)).toBe(outcome));
  it("a scalar document is checked the same way", () => {
    expect(parseStrictJson("9007199254740993")).toMatchObject({ ok: false, error: { code: "number-not-exact" } });
    expect(parseStrictJson("1e300")).toEqual({ ok: true, value: 1e300 });
    expect(parseStrictJson("-1e300")).toEqual({ ok: true, value: -1e300 });
    expect(parseStrictJson('"\\ud800"')).toMatchObject({ ok: false, error: { code: "lone-surrogate", offset: 1 } });
  });
});
