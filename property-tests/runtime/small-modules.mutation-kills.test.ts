// json-value, whatwg-url and validation of the source runtime, against hand-written tables: the JSON
// data model's prototype safety, WHATWG URL verdicts (URL Standard: origin serialization has no
// path; userinfo, query and fragment), RFC 6901 token escaping and the result shapes the
// generated validators return.
import { describe, expect, it } from "vitest";
import { isJsonObject, setMember, withoutMember, type JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import { HTTPS_URL_MAX_UNITS, checkHttpsUrl } from "../../generators/targets/ts/runtime/src/whatwg-url.js";
import { escapeToken, formatErrors, fromAjvError, parseAndValidate, runValidator, type CompiledValidator } from "../../generators/targets/ts/runtime/src/validation.js";

describe("json-value", () => {
  it("isJsonObject: objects only", () => {
    expect([{}, { a: 1 }].map(isJsonObject)).toEqual([true, true]);
    expect([[], null, "x", 1, true, undefined].map(isJsonObject)).toEqual([false, false, false, false, false, false]);
  });
  it("setMember makes __proto__ an own, enumerable, writable, configurable member", () => {
    const o: JsonObject = {};
    setMember(o, "__proto__", { polluted: true });
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(o, "__proto__")).toEqual({ value: { polluted: true }, enumerable: true, writable: true, configurable: true });
  });
  it("withoutMember copies every other member (own __proto__ included) and leaves the original", () => {
    const o: JsonObject = { a: 1, id: "x", b: [2] };
    setMember(o, "__proto__", 3);
    const copy = withoutMember(o, "id");
    expect(Object.keys(copy)).toEqual(["a", "b", "__proto__"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(["a", "id", "b", "__proto__"]);
    expect(copy.b).toBe(o.b);
  });
});

describe("checkHttpsUrl (URL Standard)", () => {
  const table: [string, "origin" | "endpoint", boolean][] = [
    ["https://a.example", "origin", true],
    ["https://a.example:8443", "origin", true],
    ["https://a.example/", "origin", false], // the origin serialization has no path
    ["https://A.example", "origin", false], // serializes lower-cased
    ["https://a.example:443", "origin", false], // the default port is dropped
    ["http://a.example", "origin", false],
    ["https://a.example/", "endpoint", true],
    ["https://a.example/hook/x", "endpoint", true],
    ["https://a.example/?", "endpoint", true], // an empty query is no query
    ["https://a.example/#", "endpoint", true],
    ["https://a.example/?q=1", "endpoint", false],
    ["https://a.example/#f", "endpoint", false],
    ["http://a.example/", "endpoint", false],
    ["https://u@a.example/", "endpoint", false],
    ["https://:p@a.example/", "endpoint", false],
    ["https://u:p@a.example", "origin", false],
    ["not a url", "endpoint", false],
    ["", "origin", false],
  ];
  for (const [text, form, verdict] of table) it(`${form} ${JSON.stringify(text)} -> ${verdict}`, () => expect(checkHttpsUrl(text, form)).toBe(verdict));
  it(`text longer than ${HTTPS_URL_MAX_UNITS} code units is refused before parsing; exactly that many is parsed`, () => {
    expect(HTTPS_URL_MAX_UNITS).toBe(8192);
    const prefix = "https://a.example/";
    const at = prefix + "p".repeat(HTTPS_URL_MAX_UNITS - prefix.length);
    expect(checkHttpsUrl(at, "endpoint")).toBe(true);
    expect(checkHttpsUrl(`${at}p`, "endpoint")).toBe(false);
  });
});

describe("validation", () => {
  it("escapeToken follows RFC 6901: ~ to ~0 first, then / to ~1", () => {
    expect(escapeToken("a~/b~1")).toBe("a~0~1b~01");
    expect(escapeToken("//")).toBe("~1~1");
    expect(escapeToken("~~")).toBe("~0~0");
  });
  it("fromAjvError: a bad discriminator points at the tag; (root) names the top; params are copied", () => {
    const params = { error: "mapping", tag: "ty/pe~" };
    const out = fromAjvError({ instancePath: "/x", keyword: "discriminator", message: "value of tag must be in oneOf", params });
    expect(out).toEqual({ instancePath: "/x/ty~1pe~0", keyword: "discriminator", message: "/x/ty~1pe~0 value of tag must be in oneOf", params });
    expect(out.params).not.toBe(params);
    expect(fromAjvError({ instancePath: "", keyword: "discriminator", params: { error: "tag", tag: "t" } })).toEqual({ instancePath: "", keyword: "discriminator", message: "(root) is invalid", params: { error: "tag", tag: "t" } });
    expect(fromAjvError({ instancePath: "", keyword: "discriminator", params: { error: "mapping", tag: 1 } }).instancePath).toBe("");
    expect(fromAjvError({ instancePath: "/a", keyword: "type", message: "must be string", params: { error: "mapping", tag: "t" } }).instancePath).toBe("/a");
  });
  it("formatErrors: one line per error, `pointer: message` with the message's own leading pointer dropped", () => {
    const text = formatErrors([
      { instancePath: "", keyword: "required", message: "m1", params: {} },
      { instancePath: "/a", keyword: "type", message: "m2", params: {} },
      { instancePath: "/a", keyword: "type", message: "/a must be string", params: {} },
      { instancePath: "/ab", keyword: "type", message: "/a must be string", params: {} },
    ]);
    expect(text).toBe("(root): m1\n/a: m2\n/a: must be string\n/ab: /a must be string");
    expect(formatErrors([])).toBe("");
  });
  it("runValidator: schema first (no errors left is an empty list), then the rules", () => {
    const refuse: CompiledValidator = Object.assign(() => false, { errors: null });
    expect(runValidator(refuse, () => [{ instancePath: "", keyword: "x-rule", message: "never run", params: {} }], 1)).toEqual({ ok: false, errors: [] });
    const refuseWith: CompiledValidator = Object.assign(() => false, { errors: [{ instancePath: "/a", keyword: "type", message: "must be string", params: { type: "string" } }] });
    expect(runValidator(refuseWith, undefined, 1)).toEqual({ ok: false, errors: [{ instancePath: "/a", keyword: "type", message: "/a must be string", params: { type: "string" } }] });
    const accept: CompiledValidator = () => true;
    expect(runValidator(accept, undefined, 5)).toEqual({ ok: true, value: 5 });
    expect(runValidator(accept, () => [], 5)).toEqual({ ok: true, value: 5 });
    const rule = { instancePath: "/b", keyword: "x-rule", message: "m", params: {} };
    expect(runValidator(accept, () => [rule], 5)).toEqual({ ok: false, errors: [rule] });
  });
  it("parseAndValidate: a strict-parse failure is one json error at the root with code and offset", () => {
    const r = parseAndValidate('{"a":1,"a":2}', (v) => ({ ok: true, value: v }));
    expect(r.ok).toBe(false);
    const e = r.ok ? undefined : r.errors[0]!;
    expect(r.ok ? 0 : r.errors.length).toBe(1);
    // The second "a" opens at byte offset 7: line 1, column 8 (counted by hand).
    expect([e?.instancePath, e?.keyword, e?.params]).toEqual(["", "json", { code: "duplicate-key", offset: 7, line: 1, column: 8 }]);
    expect(e?.message).toBe('invalid JSON at line 1, column 8: duplicate member name "a" (at offset 7)');
    expect(parseAndValidate(new TextEncoder().encode('{"a":[1]}'), (v) => ({ ok: true, value: v }))).toEqual({ ok: true, value: { a: [1] } });
  });
});
