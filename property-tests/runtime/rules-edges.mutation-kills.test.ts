// Edges of the cross-field rules' building blocks (rules.ts) that the evaluator tests do not reach:
// RFC 6901 §4 (an array is indexed by a decimal index only, so no other own property of an array is
// a member), the pointer step the compiled key readers take on a null array item, a per-string
// check over something that is neither a string nor an array, and the origin form of whatwgUrl
// (the URL Standard's serialized origin: scheme, host, no path).
import { describe, expect, it } from "vitest";
import { checkRules, firstFailing, HOLDS, isHttpsOrigin, member, type CrossFieldRule } from "../../generators/targets/ts/runtime/src/rules.js";

describe("member: one RFC 6901 step", () => {
  it("an array's own non-index properties name nothing, whatever digits they hold", () => {
    const items = Object.assign([10, 20], { a1: "x", "1a": "y", "01": "z" });
    expect([member(items, "a1"), member(items, "1a"), member(items, "01"), member(items, "length")]).toEqual([undefined, undefined, undefined, undefined]);
    expect([member(items, "0"), member(items, "1")]).toEqual([10, 20]);
  });
  it("null has no members (the compiled uniqueBy and lastItemEquals readers step into array items, which may be null)", () => {
    expect(member(null, "id")).toBeUndefined();
    expect(member(null, "0")).toBeUndefined();
  });
});

describe("at: a null document is absent, also under the empty pointer", () => {
  it("a rule over the whole document does not apply to null", () => {
    const rule: CrossFieldRule = { id: "e", kind: "equal", message: "m", left: "", right: "/b" };
    expect(checkRules(null, [rule])).toEqual([]);
    expect(checkRules({ a: 1 }, [rule]).map((e) => e.message)).toEqual(["(root) m"]);
  });
});

describe("firstFailing: a string, or each string item of an array", () => {
  const noX = (text: string) => !text.includes("x");
  it("an object, even one shaped like an array, holds: only strings and arrays are checked", () => {
    expect(firstFailing({ length: 1, "0": "x" }, noX)).toBe(HOLDS);
    expect(firstFailing(7, noX)).toBe(HOLDS);
    expect(firstFailing(["a", "x"], noX)).toBe(1);
  });
  it("through checkRules: a noSecrets rule over an object member holds", () => {
    const rule: CrossFieldRule = { id: "n", kind: "noSecrets", message: "m", text: "/t" };
    const secret = "Bearer abcdefghijklmnopqrstuvwxyz0123456789";
    expect(checkRules({ t: { length: 1, "0": secret } }, [rule])).toEqual([]);
    expect(checkRules({ t: [secret] }, [rule]).map((e) => e.instancePath)).toEqual(["/t/0"]);
  });
});

describe("isHttpsOrigin (whatwgUrl, form origin)", () => {
  it("a serialized https origin passes; with a path, credentials, another scheme or a default port written out it does not", () => {
    expect(["https://a.example", "https://a.example:8443", "https://xn--nxasmq6b.example"].map(isHttpsOrigin)).toEqual([true, true, true]);
    expect(["https://a.example/", "https://a.example/p", "http://a.example", "https://u@a.example", "https://a.example:443", "https://A.example"].map(isHttpsOrigin))
      .toEqual([false, false, false, false, false, false]);
  });
  it("through checkRules: a listed origin holds, an endpoint is reported", () => {
    const rule: CrossFieldRule = { id: "w", kind: "whatwgUrl", message: "m", url: "/u", form: "origin" };
    expect(checkRules({ u: "https://a.example" }, [rule])).toEqual([]);
    expect(checkRules({ u: ["https://a.example", "https://b.example/x"] }, [rule]).map((e) => e.instancePath)).toEqual(["/u/1"]);
  });
});
