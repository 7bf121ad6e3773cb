// canonicalize's refusals carry the right code, its limits sit exactly where documented, and the
// cases where a shortcut could go wrong (shared references, null-prototype objects, -0, numbers
// between 2^53 and 1e21) behave. Written against the first Stryker run's survivors.
import { describe, expect, it } from "vitest";
import { CanonicalJsonError, MAX_CANONICAL_DEPTH, canonicalBytes, canonicalize, isInteroperableNumber, serializeNumber } from "../../generators/targets/ts/runtime/src/canonical-json.js";

function code(value: unknown): string {
  try {
    canonicalize(value);
    return "ok";
  } catch (e) {
    expect(e).toBeInstanceOf(CanonicalJsonError);
    expect((e as Error).name).toBe("CanonicalJsonError");
    // Each refusal says what was wrong, in words a log reader can use.
    expect((e as Error).message).toMatch(/JSON|surrogate|NaN|cycle|nesting|sparse|undefined|plain objects/);
    return (e as CanonicalJsonError).code;
  }
}

function nested(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe("canonicalize edges", () => {
  it("each refusal has its code", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const sparse = [1, , 3];
    expect(
      [["\ud800"], { "\udc00": 1 }, NaN, -Infinity, [undefined], { a: undefined }, new Date(0), 1n, () => 1, undefined, Symbol("s"), cycle, sparse].map(code),
    ).toEqual(["lone-surrogate", "lone-surrogate", "non-finite-number", "non-finite-number", "not-json", "not-json", "not-json", "not-json", "not-json", "not-json", "not-json", "cycle", "not-json"]);
  });
  it("nesting is allowed up to MAX_CANONICAL_DEPTH containers and refused past it", () => {
    expect(MAX_CANONICAL_DEPTH).toBe(512);
    expect(code(nested(512))).toBe("ok");
    expect(code(nested(513))).toBe("too-deep");
    let members: unknown = 0;
    for (let i = 0; i < 512; i++) members = { m: members };
    expect(code(members)).toBe("ok");
    expect(code({ m: members })).toBe("too-deep");
  });
  it("a value shared by two members is not a cycle, and siblings are written in order", () => {
    const shared = { x: [1, 2] };
    expect(canonicalize({ b: shared, a: shared, c: [shared, shared] })).toBe('{"a":{"x":[1,2]},"b":{"x":[1,2]},"c":[{"x":[1,2]},{"x":[1,2]}]}');
  });
  it("null-prototype objects are JSON objects; class instances are not", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = true;
    expect(canonicalize(bare)).toBe('{"k":true}');
    expect(code(new (class Point { x = 1; })())).toBe("not-json");
  });
  it("scalars, -0, keys that repeat and keys too long to cache", () => {
    expect([true, false, null, -0, 0, 1e21, 1e-7, "é\u0000"].map((v) => canonicalize(v))).toEqual(["true", "false", "null", "0", "0", "1e+21", "1e-7", '"é\\u0000"']);
    const long = "k".repeat(65);
    for (let i = 0; i < 3; i++) expect(canonicalize({ [long]: i, same: i })).toBe(`{"${long}":${i},"same":${i}}`);
    expect(serializeNumber(-0)).toBe("0");
    expect(() => serializeNumber(NaN)).toThrow(CanonicalJsonError);
    expect([...canonicalBytes({ "é": 1 })]).toEqual([0x7b, 0x22, 0xc3, 0xa9, 0x22, 0x3a, 0x31, 0x7d]);
  });
  it("isInteroperableNumber draws the line at exact integers above 2^53", () => {
    const cases: [number, boolean][] = [
      [2 ** 53, true],
      [-(2 ** 53), true],
      [2 ** 53 + 2, true], // prints 9007199254740994, which is that double exactly
      [1e20, true],
      [37627642587011210, false], // prints 37627642587011210, the double is 37627642587011208
      [1.5e300, true],
      [0.1, true],
      [NaN, false],
      [Infinity, false],
    ];
    expect(cases.map(([v]) => isInteroperableNumber(v))).toEqual(cases.map(([, want]) => want));
  });
});
