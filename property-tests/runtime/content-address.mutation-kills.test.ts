// importCanonicalRecord / verifyContentId of the source runtime, called directly (the reference-record
// tests go through generated/ts, whose copy of the runtime a mutant of the source does not reach).
// Expected ids come from the independent RFC 8785 oracle (canonicalize@2.1.0) and node:crypto; the
// check order is the reference parser's (research A1, "Verification order and error codes"):
// JSON, schema, id, canonical form.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ContentAddressDeclaration, computeContentId, importCanonicalRecord, verifyContentId } from "../../generators/targets/ts/runtime/src/content-address.js";
import { oracleCanonicalize } from "../signing/helpers.js";

const DECL: ContentAddressDeclaration = { idField: "recordId", prefix: "rec-", digest: "sha256-hex", covers: "record-without-id" };
const CANONICAL: ContentAddressDeclaration = { ...DECL, canonicalInput: true };
const body = { name: "é", list: [3, 1.5, "x"], nested: { b: true, a: null } };
const idOf = (record: object): string => `rec-${createHash("sha256").update(oracleCanonicalize(record)!, "utf8").digest("hex")}`;
const record = { ...body, recordId: idOf(body) };
const accept = () => true;
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? "ok" : r.error!.code);

describe("computeContentId / verifyContentId", () => {
  it("the id is prefix + hex SHA-256 of JCS(record without its id)", () => {
    expect(computeContentId(DECL, record)).toBe(idOf(body));
    expect(computeContentId(DECL, body)).toBe(idOf(body));
    expect(verifyContentId(DECL, record)).toBe(true);
  });
  it("a wrong, missing or non-string id does not verify", () => {
    expect(verifyContentId(DECL, { ...record, recordId: idOf({ other: 1 }) })).toBe(false);
    expect(verifyContentId(DECL, body)).toBe(false);
    expect(verifyContentId(DECL, { ...body, recordId: 7 })).toBe(false);
  });
  it("a record that is not JSON (a non-finite number) is refused, not thrown", () => {
    expect(verifyContentId(DECL, { ...body, n: Number.NaN, recordId: "rec-0" } as never)).toBe(false);
  });
});

describe("importCanonicalRecord", () => {
  const text = oracleCanonicalize(record)!;
  it("canonical bytes import with the oracle's id, from a string or from bytes", () => {
    for (const input of [text, new TextEncoder().encode(text)]) {
      const result = importCanonicalRecord(CANONICAL, input, accept);
      expect(result).toEqual({ ok: true, record, id: idOf(body) });
    }
  });
  it("empty input is json-invalid (empty), with a message", () => {
    const result = importCanonicalRecord(DECL, "", accept);
    expect(result.ok ? null : result.error).toEqual({ code: "json-invalid", message: "input is empty", jsonError: "empty" });
    expect(code(importCanonicalRecord(DECL, new Uint8Array(0), accept))).toBe("json-invalid");
  });
  it("bytes the strict parser refuses are json-invalid with its code", () => {
    const result = importCanonicalRecord(DECL, '{"a":1,"a":2}', accept);
    expect(result.ok ? null : [result.error.code, result.error.jsonError]).toEqual(["json-invalid", "duplicate-key"]);
    expect(result.ok ? "" : result.error.message).not.toBe("");
  });
  it("the validator's refusal and a non-object are schema-invalid", () => {
    expect(code(importCanonicalRecord(DECL, text, () => false))).toBe("schema-invalid");
    expect(code(importCanonicalRecord(DECL, "[1]", accept))).toBe("schema-invalid");
    const r = importCanonicalRecord(DECL, text, () => false);
    expect(r.ok ? "" : r.error.message).toMatch(/schema/);
  });
  it("a non-string id is schema-invalid and the message names the id field", () => {
    const r = importCanonicalRecord(DECL, JSON.stringify({ ...body, recordId: 1 }), accept);
    expect(r.ok ? null : [r.error.code, r.error.message.includes("recordId")]).toEqual(["schema-invalid", true]);
  });
  it("a forged id is id-mismatch even when the bytes are also not canonical (reference order)", () => {
    const forged = { ...body, recordId: idOf({ x: 1 }) };
    const r = importCanonicalRecord(CANONICAL, JSON.stringify(forged, null, 2), accept);
    expect(r.ok ? null : [r.error.code, r.error.message.includes("recordId")]).toEqual(["id-mismatch", true]);
  });
  it("canonicalInput: pretty-printed or reordered bytes are not-canonical; without it they import", () => {
    const pretty = JSON.stringify(record, null, 1);
    const r = importCanonicalRecord(CANONICAL, pretty, accept);
    expect(r.ok ? null : r.error.code).toBe("not-canonical");
    expect(r.ok ? "" : r.error.message).not.toBe("");
    expect(code(importCanonicalRecord(CANONICAL, `${text}\n`, accept))).toBe("not-canonical");
    expect(importCanonicalRecord(DECL, pretty, accept)).toEqual({ ok: true, record, id: idOf(body) });
    expect(code(importCanonicalRecord({ ...DECL, canonicalInput: false }, pretty, accept))).toBe("ok");
  });
  it("maxCanonicalBytes: a canonical record of exactly the limit imports, one byte over is refused", () => {
    const size = new TextEncoder().encode(text).length;
    expect(code(importCanonicalRecord({ ...CANONICAL, maxCanonicalBytes: size }, text, accept))).toBe("ok");
    const over = importCanonicalRecord({ ...CANONICAL, maxCanonicalBytes: size - 1 }, text, accept);
    expect(over.ok).toBe(false);
    // Pretty input larger than the limit whose canonical form fits: refused by the parser's byte
    // limit before any work (limits before the work).
    const pretty = JSON.stringify(record, null, 8);
    const parsedOver = importCanonicalRecord({ ...DECL, maxCanonicalBytes: size }, pretty, accept);
    expect(parsedOver.ok ? null : parsedOver.error.code).toBe("json-invalid");
  });
  it("a canonical form longer than its input: over the limit is schema-invalid, naming the limit", () => {
    // 1e9 is 3 bytes in the input and 10 in the canonical form.
    const big = { n: 1e9, s: "x" };
    const withId = { ...big, recordId: idOf(big) };
    const input = JSON.stringify(withId).replace("1000000000", "1e9");
    const size = new TextEncoder().encode(oracleCanonicalize(withId)!).length;
    expect(code(importCanonicalRecord({ ...DECL, maxCanonicalBytes: size }, input, accept))).toBe("ok");
    const r = importCanonicalRecord({ ...DECL, maxCanonicalBytes: size - 1 }, input, accept);
    expect(r.ok ? null : r.error).toStrictEqual({ code: "schema-invalid", message: `canonical record is larger than ${size - 1} bytes` });
  });
  it("only json-invalid errors carry jsonError", () => {
    const r = importCanonicalRecord(DECL, "[1]", accept);
    expect(r.ok ? null : r.error).toStrictEqual({ code: "schema-invalid", message: "record does not match its schema" });
  });
  it("text with a raw lone surrogate is refused, never replaced by U+FFFD (bytes with U+FFFD import)", () => {
    const lone = importCanonicalRecord(DECL, '{"a":"\ud800"}', accept);
    expect(lone.ok ? null : [lone.error.code, lone.error.jsonError]).toEqual(["json-invalid", "lone-surrogate"]);
    const replaced = { a: "\ufffd" };
    const text = oracleCanonicalize({ ...replaced, recordId: idOf(replaced) })!;
    expect(code(importCanonicalRecord(CANONICAL, new TextEncoder().encode(text), accept))).toBe("ok");
    expect(code(importCanonicalRecord(CANONICAL, text, accept))).toBe("ok");
  });
  it("without maxCanonicalBytes the parser's default limit (4 MiB) still applies", () => {
    const huge = `{"a":"${"x".repeat(4 * 1024 * 1024)}"}`;
    const r = importCanonicalRecord(DECL, huge, accept);
    expect(r.ok ? null : [r.error.code, r.error.jsonError]).toEqual(["json-invalid", "too-large"]);
  });
  it("an error other than non-JSON (a throwing getter: a caller's bug) is thrown, not reported", () => {
    const record = { recordId: "rec-x", get boom(): string { throw new TypeError("boom"); } };
    expect(() => verifyContentId(DECL, record as never)).toThrow(TypeError);
  });
});

