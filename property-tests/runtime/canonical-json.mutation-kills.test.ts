// canonicalize's shortcuts (canonical-json.ts): the native JSON.stringify path for objects whose
// members already come in canonical order, and the per-shape cache of sorted names. Each case puts
// the thing a shortcut could get wrong inside an object the shortcut would take (four or more
// members, in order), with the expected text written by hand from RFC 8785 and checked against
// the independent canonicalize@2.1.0 where that oracle accepts the value.
import { describe, expect, it } from "vitest";
import { CanonicalJsonError, canonicalize, canonicalizeStepwise } from "../../generators/targets/ts/runtime/src/canonical-json.js";
import { oracleCanonicalize } from "../signing/helpers.js";

function refusal(value: unknown): string {
  try {
    return `text ${canonicalize(value)}`;
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    return `error ${error.code}`;
  }
}
const nested = (depth: number): unknown => {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe("inside an object in canonical order (the native path)", () => {
  it("the same object twice is two members, not a cycle", () => {
    const shared = { a: 1, b: 2, c: 3, d: 4 };
    const expected = '{"x":{"a":1,"b":2,"c":3,"d":4},"y":{"a":1,"b":2,"c":3,"d":4}}';
    expect(canonicalize({ x: shared, y: shared })).toBe(expected);
    expect(canonicalize([shared, shared])).toBe('[{"a":1,"b":2,"c":3,"d":4},{"a":1,"b":2,"c":3,"d":4}]');
    expect(oracleCanonicalize({ x: shared, y: shared })).toBe(expected);
  });
  it("a nested object out of order is sorted (integer-like names included)", () => {
    const value = { a: { z: 1, y: 2 }, b: { "10": 1, "2": 2, x: 3 }, c: [{ d: 1, c: 2 }], d: 4 };
    const expected = '{"a":{"y":2,"z":1},"b":{"10":1,"2":2,"x":3},"c":[{"c":2,"d":1}],"d":4}';
    expect(canonicalize(value)).toBe(expected);
    expect(oracleCanonicalize(value)).toBe(expected);
  });
  it("refusals deep inside still have their codes", () => {
    const base = { a: 1, b: 2, c: 3 };
    const cases: [unknown, string][] = [
      [{ ...base, d: { e: "\ud800" } }, "error lone-surrogate"],
      [{ ...base, d: { "\udc00": 1 } }, "error lone-surrogate"],
      [{ ...base, d: [NaN] }, "error non-finite-number"],
      [{ ...base, d: { e: Infinity } }, "error non-finite-number"],
      [{ ...base, d: { e: undefined } }, "error not-json"],
      [{ ...base, d: [1, , 2] }, "error not-json"],
      [{ ...base, d: [new Date(0)] }, "error not-json"],
      [{ ...base, d: { e: new Map() } }, "error not-json"],
      [{ ...base, d: { e: 1n } }, "error not-json"],
      [{ ...base, d: [null, true, false, "s", -0] }, 'text {"a":1,"b":2,"c":3,"d":[null,true,false,"s",0]}'],
    ];
    for (const [value, outcome] of cases) expect(refusal(value)).toBe(outcome);
  });
  it("the depth limit holds inside it: a container at depth 512 is refused", () => {
    expect(refusal({ a: nested(511), b: 1, c: 2, d: 3 })).toBe(`text {"a":${"[".repeat(511)}0${"]".repeat(511)},"b":1,"c":2,"d":3}`);
    expect(refusal({ a: nested(512), b: 1, c: 2, d: 3 })).toBe("error too-deep");
    expect(refusal({ a: { b: { c: nested(510) } }, b: 1, c: 2, d: 3 })).toBe("error too-deep");
    const cyclic: Record<string, unknown> = { a: 1, b: 2, c: 3 };
    cyclic["d"] = [cyclic];
    expect(refusal(cyclic)).toBe("error cycle");
  });
  it("a toJSON on Array.prototype is not called", () => {
    const proto = Array.prototype as { toJSON?: () => string };
    proto.toJSON = () => "polluted";
    try {
      expect(canonicalize({ a: [1], b: [2], c: 3, d: [] })).toBe('{"a":[1],"b":[2],"c":3,"d":[]}');
    } finally {
      delete proto.toJSON;
    }
  });
  it("null-prototype members are objects; class instances are refused", () => {
    const bare = Object.assign(Object.create(null) as object, { e: 1, f: 2 });
    expect(canonicalize({ a: 1, b: 2, c: 3, d: bare })).toBe('{"a":1,"b":2,"c":3,"d":{"e":1,"f":2}}');
    class Point { x = 1; y = 2; }
    expect(refusal({ a: 1, b: 2, c: 3, d: new Point() })).toBe("error not-json");
  });
});

describe("the cache of sorted names per shape", () => {
  it("objects with the same first name but other names are each sorted by their own names", () => {
    expect(canonicalize({ zq: 1, yq: 2 })).toBe('{"yq":2,"zq":1}');
    expect(canonicalize({ zq: 1, xq: 2 })).toBe('{"xq":2,"zq":1}');
    expect(canonicalize({ zq: 1, yq: 2, aq: 3 })).toBe('{"aq":3,"yq":2,"zq":1}');
    expect(canonicalize({ zq: 1, yq: 2 })).toBe('{"yq":2,"zq":1}');
  });
  it("a shape that is a prefix of another is not taken for it", () => {
    expect(canonicalize({ pq: 1, oq: 2 })).toBe('{"oq":2,"pq":1}');
    expect(canonicalize({ pq: 1, oq: 2, nq: 3 })).toBe('{"nq":3,"oq":2,"pq":1}');
    expect(canonicalize({ pq: 1 })).toBe('{"pq":1}');
  });
  it("RFC 8785 §3.2.3 order (UTF-16 code units), repeated so the cached shape is used", () => {
    const value = { "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis" };
    const expected = '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    for (let i = 0; i < 3; i++) {
      expect(canonicalize(value)).toBe(expected);
      expect(canonicalizeStepwise(value)).toBe(expected);
    }
    expect(oracleCanonicalize(value)).toBe(expected);
  });
  it("names longer than the cached ones are written the same every time", () => {
    const long = "n".repeat(70);
    for (let i = 0; i < 3; i++) expect(canonicalize({ [long]: i, a: 1, [long + "\n"]: 2 })).toBe(`{"a":1,"${long}":${i},"${long}\\n":2}`);
  });
});

// Which subtrees reach JSON.stringify: an object of four or more members in canonical order whose
// whole subtree it writes canonically, once; nothing smaller, nothing unsorted, nothing doubtful.
// Member names are new in every call (a counter), so the per-shape cache, which lives as long as
// the process, never answers from an earlier run.
let fresh = 0;
function names(): [string, string, string, string, string] {
  const p = `n${fresh++}x`;
  return [p + "a", p + "b", p + "c", p + "d", p + "e"];
}
function stringifyCalls(value: unknown): { text: string; objects: number } {
  const native = JSON.stringify;
  let objects = 0;
  JSON.stringify = ((v: unknown, ...rest: unknown[]) => {
    if (typeof v === "object" && v !== null) objects++;
    return (native as (...a: unknown[]) => string)(v, ...rest);
  }) as typeof JSON.stringify;
  try {
    return { text: canonicalize(value), objects };
  } finally {
    JSON.stringify = native;
  }
}

describe("the native path is taken exactly when it may be", () => {
  it("a sorted object of every JSON kind is written by one JSON.stringify call", () => {
    const [a, b, c, d, e] = names();
    const bare = Object.assign(Object.create(null) as object, { [a]: 1 });
    const value = { [a]: "s\u00e9", [b]: [1, -0, [true, false]], [c]: null, [d]: { [a]: 1.5, [b]: { [c]: [] } }, [e]: bare };
    expect(stringifyCalls(value)).toEqual({ text: `{"${a}":"s\u00e9","${b}":[1,0,[true,false]],"${c}":null,"${d}":{"${a}":1.5,"${b}":{"${c}":[]}},"${e}":{"${a}":1}}`, objects: 1 });
  });
  it("four members are enough, three are not", () => {
    const [a, b, c, d] = names();
    expect(stringifyCalls({ [a]: 1, [b]: 2, [c]: 3, [d]: 4 })).toEqual({ text: `{"${a}":1,"${b}":2,"${c}":3,"${d}":4}`, objects: 1 });
    expect(stringifyCalls({ [a]: 1, [b]: 2, [c]: 3 }).objects).toBe(0);
  });
  it("an unsorted object is written piece by piece, and sorted", () => {
    const [a, b, c, d] = names();
    expect(stringifyCalls({ [b]: 1, [a]: 2, [c]: 3, [d]: 4 })).toEqual({ text: `{"${a}":2,"${b}":1,"${c}":3,"${d}":4}`, objects: 0 });
    const [w, x, y, z] = names();
    expect(stringifyCalls({ [w]: 1, [x]: 2, [y]: 3, [z]: { [x]: 1, [w]: 2 } })).toEqual({ text: `{"${w}":1,"${x}":2,"${y}":3,"${z}":{"${w}":2,"${x}":1}}`, objects: 0 });
  });
  it("a sorted object inside an unsorted one is handed over on its own", () => {
    const [a, b, c, d] = names();
    expect(stringifyCalls({ [b]: { [a]: 1, [b]: 2, [c]: 3, [d]: 4 }, [a]: 0 })).toEqual({ text: `{"${a}":0,"${b}":{"${a}":1,"${b}":2,"${c}":3,"${d}":4}}`, objects: 1 });
  });
  it("holes and undefined members are refused with their own messages", () => {
    const message = (value: unknown) => {
      try {
        canonicalize(value);
        return "ok";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(message([1, , 2])).toBe("sparse array");
    expect(message({ a: undefined })).toBe("undefined member");
  });
  it("a toJSON on Object.prototype alone turns the native path off", () => {
    const proto = Object.prototype as { toJSON?: () => string };
    proto.toJSON = () => "polluted";
    try {
      const [a, b, c, d] = names();
      expect(stringifyCalls({ [a]: 1, [b]: 2, [c]: 3, [d]: 4 })).toEqual({ text: `{"${a}":1,"${b}":2,"${c}":3,"${d}":4}`, objects: 0 });
    } finally {
      delete proto.toJSON;
    }
  });
});
