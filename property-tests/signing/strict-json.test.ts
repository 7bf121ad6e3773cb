// Strict parsing: the shared negative/positive vectors, an independent Python verdict for each of
// them, and the resource limits (no stack overflow, no super-linear time, size cap).
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { fromHex, python, readJson } from "./helpers.js";

const file = readJson("spec/common/vectors/strict-json.json");

// Python's json with hooks that refuse what I-JSON refuses; an oracle for valid/invalid only.
const PYTHON_STRICT = String.raw`
import json, sys
def pairs(items):
    keys = [k for k, _ in items]
    if len(keys) != len(set(keys)): raise ValueError("dup")
    return dict(items)
def const(name): raise ValueError(name)
def check_str(s):
    if any(0xD800 <= ord(c) <= 0xDFFF for c in s): raise ValueError("surrogate")
def walk(v, depth):
    if depth > 64: raise ValueError("deep")
    if isinstance(v, str): check_str(v)
    elif isinstance(v, dict):
        for k, x in v.items(): check_str(k); walk(x, depth + 1)
    elif isinstance(v, list):
        for x in v: walk(x, depth + 1)
    elif isinstance(v, float) and v in (float("inf"), float("-inf")): raise ValueError("inf")
    elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53 and int(float(v)) != v: raise ValueError("inexact")
def depth_of(text):
    return 0
out = []
for case in json.load(sys.stdin):
    data = bytes.fromhex(case)
    try:
        if data.startswith(b"\xef\xbb\xbf"): raise ValueError("bom")
        text = data.decode("utf-8")
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=const, parse_float=lambda s: float(s))
        walk(value, 0 if not isinstance(value, (list, dict)) else 1)
        out.append(True)
    except (ValueError, RecursionError):
        out.append(False)
print(json.dumps(out))
`;

describe("spec/common/vectors/strict-json.json", () => {
  for (const c of file.cases) {
    it(`${c.name} -> ${c.expect}`, () => {
      const result = parseStrictJson(fromHex(c.input_hex), file.limits);
      if (c.expect === "valid") expect(result).toMatchObject({ ok: true });
      else expect(result.ok ? "valid" : result.error.code).toBe(c.expect);
    });
  }
  it("Python's strict json gives the same valid/invalid verdict for every case", () => {
    const verdicts = python<boolean[]>(PYTHON_STRICT, file.cases.map((c: any) => c.input_hex));
    const ours = file.cases.map((c: any) => parseStrictJson(fromHex(c.input_hex), file.limits).ok);
    expect(ours).toEqual(verdicts);
  });
});

describe("limits and robustness", () => {
  it("a million nested arrays fail with too-deep, not a stack overflow", () => {
    const text = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    const result = parseStrictJson(text, { maxDepth: 10_000, maxBytes: 4_000_000 });
    expect(result.ok ? "valid" : result.error.code).toBe("too-deep");
  });
  it("deep nesting within a raised limit parses iteratively", () => {
    const depth = 100_000;
    const result = parseStrictJson("[".repeat(depth) + "]".repeat(depth), { maxDepth: depth });
    expect(result.ok).toBe(true);
  });
  it("an input over the size limit is refused before parsing", () => {
    const result = parseStrictJson(new Uint8Array(101).fill(0x20), { maxBytes: 100 });
    expect(result.ok ? "valid" : result.error.code).toBe("too-large");
    const text = parseStrictJson("\"é\"".padEnd(60, " "), { maxBytes: 60 });
    expect(text.ok ? "valid" : text.error.code).toBe("too-large");
  });
  // Their speed is measured by `make bench` (parse); here only the verdicts, with no clock.
  it("adversarial inputs (long strings, many keys, long numbers) get their verdicts", () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",");
    const long = parseStrictJson(`"${"\\u0041".repeat(200_000)}"`);
    expect(long.ok && long.value).toBe("A".repeat(200_000));
    const many = parseStrictJson(`{${keys}}`);
    expect(many.ok && Object.keys(many.value as object).length).toBe(100_000);
    const digits = parseStrictJson(`[${"1".repeat(300_000)}]`);
    expect(digits.ok ? "valid" : digits.error.code).toBe("number-out-of-range");
    const big = parseStrictJson(`[${"9".repeat(100)}e1]`);
    expect(big.ok && big.value).toEqual([1e101]);
  });
  it("a raw lone surrogate in string input is refused", () => {
    const result = parseStrictJson('"\ud800"');
    expect(result.ok ? "valid" : result.error.code).toBe("lone-surrogate");
  });
  it("__proto__ becomes an own member, not the prototype", () => {
    const result = parseStrictJson('{"__proto__":{"polluted":true}}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("reports byte offsets for byte input", () => {
    const result = parseStrictJson(new TextEncoder().encode('{"é":1,"é":2}'));
    expect(result.ok ? null : result.error).toMatchObject({ code: "duplicate-key", offset: 8 });
  });
  it("-0 parses as 0", () => {
    const result = parseStrictJson("-0");
    expect(result.ok && Object.is(result.value, 0)).toBe(true);
  });
});
