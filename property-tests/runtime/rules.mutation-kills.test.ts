// The cross-field rules of the source runtime against hand-written tables: SemVer 2.0.0 precedence
// (semver.org § 11, its example chain, build metadata ignored, § 9 "numeric identifiers MUST NOT
// include leading zeroes"), RFC 6901 pointers (~1 is "/", ~0 is "~", array indexes without leading
// zeros), JSON equality, and each rule kind's verdict and reported pointer.
import { describe, expect, it } from "vitest";
import { type CrossFieldRule, checkRules, compareSemver, jsonEqual, originOf } from "../../generators/targets/ts/runtime/src/rules.js";

describe("compareSemver (SemVer 2.0.0 § 11)", () => {
  const chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0"];
  it("the specification's example order, every pair both ways", () => {
    for (let i = 0; i < chain.length; i++) {
      for (let j = 0; j < chain.length; j++) expect(compareSemver(chain[i]!, chain[j]!), `${chain[i]} vs ${chain[j]}`).toBe(Math.sign(i - j));
    }
  });
  it("build metadata is ignored; numbers of any size compare by value", () => {
    expect(compareSemver("1.0.0+a.1", "1.0.0+b")).toBe(0);
    expect(compareSemver("1.0.0-rc.1+x", "1.0.0-rc.1")).toBe(0);
    expect(compareSemver("18446744073709551616.0.0", "18446744073709551615.0.0")).toBe(1);
    expect(compareSemver("1.99999999999999999999.0", "1.100000000000000000000.0")).toBe(-1);
    expect(compareSemver("1.0.0-99999999999999999999", "1.0.0-100000000000000000000")).toBe(-1);
    expect(compareSemver("1.0.0-a-b", "1.0.0-a")).toBe(1);
    expect(compareSemver("1.0.0-2", "1.0.0-10")).toBe(-1); // numeric, not lexical
    expect(compareSemver("1.0.0-B", "1.0.0-a")).toBe(-1); // ASCII order
  });
  it("not SemVer: undefined", () => {
    for (const bad of ["1.0", "01.0.0", "1.00.0", "1.0.0-01", "1.0.0-alpha.01", "1.0.0-", "1.0.0+", "v1.0.0", "1.0.0-a..b", " 1.0.0", "1.0.0 "]) {
      expect(compareSemver(bad, "1.0.0"), bad).toBeUndefined();
      expect(compareSemver("1.0.0", bad), bad).toBeUndefined();
    }
    expect(compareSemver("1.0.0-0", "1.0.0-0a")).toBe(-1); // "0" and "0a" are valid identifiers
    expect(compareSemver("1.0.0-x.0", "1.0.0-x.01")).toBeUndefined();
  });
});

describe("jsonEqual and originOf", () => {
  it("jsonEqual: structural, order of members free, arrays ordered", () => {
    expect(jsonEqual({ a: [1, { b: null }], c: "x" }, { c: "x", a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], [1, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({}, null)).toBe(false);
    expect(jsonEqual("1", 1)).toBe(false);
    expect(jsonEqual({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
  });
  it("originOf: the URL Standard's origin; opaque origins and non-URLs have none", () => {
    expect(originOf("https://A.example:443/p?q")).toBe("https://a.example");
    expect(originOf("http://a.example:8080/")).toBe("http://a.example:8080");
    expect(originOf("data:text/plain,x")).toBeUndefined();
    expect(originOf("not a url")).toBeUndefined();
  });
});

describe("checkRules", () => {
  const rule = <K extends CrossFieldRule["kind"]>(r: Extract<CrossFieldRule, { kind: K }>) => r;
  const one = (value: unknown, r: CrossFieldRule) => checkRules(value, [r]).map((e) => e.instancePath);
  it("an error names the pointer, the rule id and kind; (root) for the empty pointer", () => {
    const r = rule({ id: "same", kind: "equal", message: "must equal /b", left: "/a~1x", right: "/b" });
    expect(checkRules({ "a/x": 1, b: 2 }, [r])).toEqual([{ instancePath: "/a~1x", keyword: "x-rule", message: "/a~1x must equal /b", params: { rule: "same", kind: "equal" } }]);
    const root = rule({ id: "r", kind: "equal", message: "m", left: "", right: "/b" });
    expect(checkRules({ b: 1 }, [root])[0]!.message).toBe("(root) m");
    expect(checkRules({ "a/x": 1, b: 2 }, [r, root]).length).toBe(2);
  });
  it("equal: applies when the left side is present; absent right or null fails; ~0 is ~", () => {
    const r = rule({ id: "e", kind: "equal", message: "m", left: "/a", right: "/b~0c" });
    expect(one({ a: { x: [1] }, "b~c": { x: [1] } }, r)).toEqual([]);
    expect(one({ a: 1 }, r)).toEqual(["/a"]);
    expect(one({ a: 1, "b~c": null }, r)).toEqual(["/a"]);
    expect(one({ "b~c": 1 }, r)).toEqual([]);
    expect(one({ a: null, "b~c": 1 }, r)).toEqual([]);
  });
  it("pointers: array indexes are decimal without leading zeros; inherited members are absent", () => {
    const r = rule({ id: "e", kind: "equal", message: "m", left: "/l/1/k", right: "/v" });
    expect(one({ l: [{}, { k: 2 }], v: 2 }, r)).toEqual([]);
    expect(one({ l: [{}, { k: 3 }], v: 2 }, r)).toEqual(["/l/1/k"]);
    const zero = rule({ id: "e", kind: "equal", message: "m", left: "/l/01", right: "/v" });
    expect(one({ l: [1, 2], v: 9 }, zero)).toEqual([]);
    const proto = rule({ id: "e", kind: "equal", message: "m", left: "/toString", right: "/v" });
    expect(one({ v: 1 }, proto)).toEqual([]);
    const keyed = rule({ id: "e", kind: "equal", message: "m", left: "/o/1", right: "/v" });
    expect(one({ o: { "1": 5 }, v: 4 }, keyed)).toEqual(["/o/1"]);
  });
  it("urlOriginIn: the URL's origin must be listed", () => {
    const r = rule({ id: "o", kind: "urlOriginIn", message: "m", url: "/u", list: "/l" });
    expect(one({ u: "https://a.example/x", l: ["https://a.example"] }, r)).toEqual([]);
    expect(one({ u: "https://b.example/x", l: ["https://a.example"] }, r)).toEqual(["/u"]);
    expect(one({ u: "nope", l: ["null"] }, r)).toEqual(["/u"]);
    expect(one({ u: 5, l: [] }, r)).toEqual([]);
    expect(one({ u: "https://a.example", l: "https://a.example" }, r)).toEqual([]);
  });
  it("semverLte and semverRangeIncludes", () => {
    const lte = rule({ id: "s", kind: "semverLte", message: "m", lower: "/lo", upper: "/hi" });
    expect(one({ lo: "1.0.0", hi: "1.0.0" }, lte)).toEqual([]);
    expect(one({ lo: "1.0.0-rc.1", hi: "1.0.0" }, lte)).toEqual([]);
    expect(one({ lo: "1.0.1", hi: "1.0.0" }, lte)).toEqual(["/lo"]);
    expect(one({ lo: "x", hi: "1.0.0" }, lte)).toEqual(["/lo"]);
    expect(one({ lo: 1, hi: "1.0.0" }, lte)).toEqual([]);
    expect(one({ lo: "1.0.0", hi: 2 }, lte)).toEqual([]);
    const range = rule({ id: "r", kind: "semverRangeIncludes", message: "m", min: "/min", max: "/max", version: "1.2.0" });
    expect(one({ min: "1.2.0", max: "1.2.0" }, range)).toEqual([]);
    expect(one({ min: "1.0.0", max: "2.0.0" }, range)).toEqual([]);
    expect(one({ min: "1.2.1", max: "2.0.0" }, range)).toEqual(["/min"]);
    expect(one({ min: "1.0.0", max: "1.1.9" }, range)).toEqual(["/min"]);
    expect(one({ min: "bad", max: "2.0.0" }, range)).toEqual(["/min"]);
    expect(one({ min: "1.0.0", max: "bad" }, range)).toEqual(["/min"]);
    expect(one({ min: 1, max: "2.0.0" }, range)).toEqual([]);
    expect(one({ min: "1.0.0", max: null }, range)).toEqual([]);
  });
  it("lastItemEquals: the last item's key", () => {
    const r = rule({ id: "l", kind: "lastItemEquals", message: "m", array: "/a", key: "state", value: "done" });
    expect(one({ a: [{ state: "x" }, { state: "done" }] }, r)).toEqual([]);
    expect(one({ a: [{ state: "done" }, { state: "x" }] }, r)).toEqual(["/a/1/state"]);
    expect(one({ a: [{}] }, r)).toEqual(["/a/0/state"]);
    expect(one({ a: [] }, r)).toEqual([]);
    expect(one({ a: "done" }, r)).toEqual([]);
  });
  it("uniqueBy: the first repeated key; items without the key are skipped", () => {
    const r = rule({ id: "u", kind: "uniqueBy", message: "m", array: "/a", key: "id" });
    expect(one({ a: [{ id: 1 }, {}, { id: 2 }, {}] }, r)).toEqual([]);
    expect(one({ a: [{ id: { x: 1 } }, { id: 2 }, { id: { x: 1 } }, { id: 2 }] }, r)).toEqual(["/a/2/id"]);
    expect(one({ a: {} }, r)).toEqual([]);
  });
  it("noSecrets and whatwgUrl: a string, or the first failing string item of an array", () => {
    const s = rule({ id: "n", kind: "noSecrets", message: "m", text: "/t" });
    expect(one({ t: "hello" }, s)).toEqual([]);
    expect(one({ t: "Bearer abcdefghijklmnopqrstuvwxyz0123456789" }, s)).toEqual(["/t"]);
    expect(one({ t: ["ok", 5, "Bearer abcdefghijklmnopqrstuvwxyz0123456789", "Bearer abcdefghijklmnopqrstuvwxyz0123456789"] }, s)).toEqual(["/t/2"]);
    expect(one({ t: ["ok"] }, s)).toEqual([]);
    expect(one({ t: 5 }, s)).toEqual([]);
    const u = rule({ id: "w", kind: "whatwgUrl", message: "m", url: "/u", form: "endpoint" });
    expect(one({ u: "https://a.example/x" }, u)).toEqual([]);
    expect(one({ u: "http://a.example/x" }, u)).toEqual(["/u"]);
    expect(one({ u: ["https://a.example/", "https://a.example/?q"] }, u)).toEqual(["/u/1"]);
    const o = rule({ id: "w", kind: "whatwgUrl", message: "m", url: "/u", form: "origin" });
    expect(one({ u: "https://a.example/" }, o)).toEqual(["/u"]);
  });
  it("pointer edges: only indexes into arrays (none past the end), no members of strings or null", () => {
    const r = rule({ id: "e", kind: "equal", message: "m", left: "/l/length", right: "/v" });
    expect(one({ l: [1, 2], v: 9 }, r)).toEqual([]);
    const past = rule({ id: "e", kind: "equal", message: "m", left: "/l/5", right: "/v" });
    expect(one({ l: [1], v: 9 }, past)).toEqual([]);
    const big = rule({ id: "e", kind: "equal", message: "m", left: "/l/100/k", right: "/v" });
    const items = Array.from({ length: 101 }, (_, i) => ({ k: i }));
    expect(one({ l: items, v: 100 }, big)).toEqual([]);
    expect(one({ l: items, v: 99 }, big)).toEqual(["/l/100/k"]);
    const ten = rule({ id: "e", kind: "equal", message: "m", left: "/l/10", right: "/v" });
    expect(one({ l: Array.from({ length: 11 }, (_, i) => i), v: 9 }, ten)).toEqual(["/l/10"]);
    const str = rule({ id: "e", kind: "equal", message: "m", left: "/a/0", right: "/v" });
    expect(one({ a: "xyz", v: 1 }, str)).toEqual([]);
    const nul = rule({ id: "e", kind: "equal", message: "m", left: "/a/b", right: "/v" });
    expect(one({ a: null, v: 1 }, nul)).toEqual([]);
  });
  it("uniqueBy applies to arrays only; a key is reported only when repeated", () => {
    const r = rule({ id: "u", kind: "uniqueBy", message: "m", array: "/a", key: "id" });
    expect(one({ a: { length: 2, "0": { id: 1 }, "1": { id: 1 } } }, r)).toEqual([]);
    expect(one({ a: [{ id: "Stryker was here" }] }, r)).toEqual([]);
    expect(one({ a: [{ id: 1 }, { id: 1 }] }, r)).toEqual(["/a/1/id"]);
  });
  it("noSecrets reports the first item when it is the one", () => {
    const s = rule({ id: "n", kind: "noSecrets", message: "m", text: "/t" });
    expect(one({ t: ["Bearer abcdefghijklmnopqrstuvwxyz0123456789"] }, s)).toEqual(["/t/0"]);
  });
  it("jsonEqual: a primitive never equals an object, arrays compare item by item", () => {
    expect(jsonEqual({ "0": "x" }, "x")).toBe(false);
    expect(jsonEqual("x", { "0": "x" })).toBe(false);
    expect(jsonEqual([1, 2], [1, 3])).toBe(false);
  });
  it("compareSemver: multi-digit patch, multi-character build ids, identifier classes", () => {
    expect(compareSemver("1.0.10", "1.0.9")).toBe(1);
    expect(compareSemver("1.0.0+ab", "1.0.0")).toBe(0);
    expect(compareSemver("1.0.0+a.bc", "1.0.0")).toBe(0);
    // "b9" and "1-" are alphanumeric identifiers (§ 11.4.3: higher than numeric, ASCII order among themselves).
    expect(compareSemver("1.0.0-b9", "1.0.0-a")).toBe(1);
    expect(compareSemver("1.0.0-a", "1.0.0-b9")).toBe(-1);
    expect(compareSemver("1.0.0-1-", "1.0.0-10")).toBe(1);
    expect(compareSemver("1.0.0-10", "1.0.0-1-")).toBe(-1);
    expect(compareSemver("1.0.0-10", "1.0.0-a")).toBe(-1);
    expect(compareSemver("1.0.0-a", "1.0.0-10")).toBe(1);
  });
});

