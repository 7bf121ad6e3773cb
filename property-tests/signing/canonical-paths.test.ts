// canonicalize hands objects whose members already come in canonical order to JSON.stringify;
// canonicalizeStepwise never does. The two must give the same text, or throw the same error, for
// any value: sorted and unsorted objects (also with integer-like and "__proto__" names), lone
// surrogates, -0, non-finite numbers, undefined members, holes, class instances, cycles.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalize, canonicalizeStepwise, CanonicalJsonError } from "../../generators/targets/ts/runtime/src/canonical-json.js";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 400);
const OPTIONS = { numRuns: RUNS, seed: Number(process.env["FUZZ_SEED"] ?? 20261201) };

function outcome(f: (v: unknown) => string, value: unknown): string {
  try {
    return `text ${f(value)}`;
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    return `error ${error.code}`;
  }
}

function same(value: unknown): void {
  expect(outcome(canonicalize, value)).toBe(outcome(canonicalizeStepwise, value));
}

const leaf = fc.oneof(
  fc.string({ maxLength: 8, unit: "binary" }),
  fc.constantFrom("\ud800", "a\udc00", "\\ud800", "😀", -0, 0, 1e21, 2 ** 53 + 2, NaN, Infinity, undefined, null, true),
  fc.double(),
);
const names = fc.constantFrom("a", "b", "c", "d", "e", "f", "1", "10", "2", "__proto__", "é", "\ud800", "A", "aa");
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, leaf,
    fc.array(tie("node"), { maxLength: 6 }),
    fc.array(tie("node"), { maxLength: 4 }).map((xs) => { const a = [...xs]; a.length += 1; return a; }),
    fc.dictionary(names, tie("node"), { maxKeys: 7 }),
    // Members inserted in sorted order, so the object is handed to JSON.stringify when all else holds.
    fc.dictionary(names, tie("node"), { maxKeys: 7 }).map((d) => Object.fromEntries(Object.entries(d).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))),
  ),
})).node;

describe(`canonicalize: native subtrees and the stepwise writer agree (${RUNS} runs)`, () => {
  it("on random values", () => {
    fc.assert(fc.property(value, (v) => same(v)), OPTIONS);
  });
  it("on the edges", () => {
    const sorted = { a: 1, b: "x", c: [1, 2], d: { e: null }, f: true };
    const cyclic: Record<string, unknown> = { a: 1, b: 2, c: 3, d: 4 };
    cyclic["e"] = cyclic;
    class Point { constructor(readonly x = 1, readonly y = 2) {} }
    const cases: unknown[] = [
      sorted, { ...sorted, z: "\ud800" }, { ...sorted, z: undefined }, { ...sorted, z: -0 }, { ...sorted, z: NaN }, { ...sorted, z: new Point() },
      { ...sorted, z: [1, , 3] }, { ...sorted, z: { toJSON: () => 1 } }, { ...sorted, z: new Date(0) }, { ...sorted, z: "\\ud800" },
      cyclic, { a: 1, b: 2, c: 3, d: 4, e: { a: 1, b: 2, c: 3, d: [cyclic] } }, Object.assign(Object.create(null), sorted),
    ];
    for (const c of cases) same(c);
    expect(canonicalize({ a: 1, b: "x", c: [1, 2], d: -0, f: true })).toBe('{"a":1,"b":"x","c":[1,2],"d":0,"f":true}');
    expect(() => canonicalize(cyclic)).toThrow(expect.objectContaining({ code: "cycle" }));
  });
  it("while a prototype has a toJSON", () => {
    const proto = Object.prototype as { toJSON?: () => string };
    proto.toJSON = () => "polluted";
    try {
      same({ a: 1, b: 2, c: 3, d: { x: 1 }, e: 5 });
      expect(canonicalize({ a: 1, b: 2, c: 3, d: 4 })).toBe('{"a":1,"b":2,"c":3,"d":4}');
    } finally {
      delete proto.toJSON;
    }
  });
});
