// hmac-sha256-v1 of the source runtime against the wire format the research notes give
// (research/agent-provider-implementations.md: `name=value` lines joined by LF, no escaping, the
// hashed object as base64-std-nopad(SHA-256(JCS(value))), the MAC base64-std-nopad(HMAC-SHA256)),
// recomputed here with node:crypto and the RFC 8785 oracle (canonicalize@2.1.0), on a declaration
// written here; each refusal with its code, in the verifier's order.
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type HmacSha256V1Declaration, hmacV1DigestLine, hmacV1SigningInput, jcsSha256Base64, signHmacV1, verifyHmacV1 } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { HmacSha256Key } from "../../generators/targets/ts/runtime/src/crypto.js";
import type { JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import { oracleCanonicalize } from "../signing/helpers.js";

const DECL: HmacSha256V1Declaration = {
  scheme: "hmac-sha256-v1",
  algorithmId: "hmac-sha256-v1",
  algorithmField: "signature_alg",
  signatureField: "signature",
  lineSeparator: "\n",
  lines: [
    { name: "v", field: "version", value: "string" },
    { name: "id", field: "proposal_id", value: "string", default: "" },
    { name: "payload_sha256", field: "payload", value: "sha256-jcs-base64-std-nopad" },
    { name: "extra_sha256", field: "extra", value: "sha256-jcs-base64-std-nopad", default: {} },
  ],
  key: { source: "binding", field: "secret", encoding: "utf8" },
  signatureEncoding: "base64-std-nopad",
};
const KEY = "k3y-é";
const nopad = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
const digest = (v: unknown) => nopad(createHash("sha256").update(oracleCanonicalize(v)!, "utf8").digest());
const message: JsonObject = { version: "1", proposal_id: "p=1\nx", payload: { b: [1, "é"], a: null }, other: "not covered" };
const input = `v=1\nid=p=1\nx\npayload_sha256=${digest(message.payload)}\nextra_sha256=${digest({})}`;
const mac = (text: string, key = KEY) => nopad(createHmac("sha256", key).update(text, "utf8").digest());
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? "ok" : r.error!.code);

describe("signing input and signature", () => {
  it("the lines in declaration order, values verbatim (no escaping), defaults for absent fields", () => {
    expect(hmacV1SigningInput(DECL, message)).toEqual({ ok: true, input });
    const { proposal_id: _p, ...noId } = message;
    expect(hmacV1SigningInput(DECL, noId)).toEqual({ ok: true, input: input.replace("id=p=1\nx\n", "id=\n") });
    expect(jcsSha256Base64({ z: 1, a: [true] })).toBe(digest({ a: [true], z: 1 }));
  });
  it("sign: a copy with the algorithm and the MAC; the original untouched; byte keys work", () => {
    const signed = signHmacV1(DECL, message, KEY);
    expect(signed).toEqual({ ok: true, message: { ...message, signature_alg: "hmac-sha256-v1", signature: mac(input) }, signature: mac(input) });
    expect("signature" in message).toBe(false);
    const bytes = signHmacV1(DECL, message, new TextEncoder().encode(KEY));
    expect(bytes.ok && bytes.signature).toBe(mac(input));
    expect(verifyHmacV1(DECL, { ...message, signature_alg: "hmac-sha256-v1", signature: mac(input) }, KEY)).toEqual({ ok: true });
  });
  it("a __proto__ member is copied as a member, not a prototype", () => {
    const m = JSON.parse('{"version":"1","payload":1,"__proto__":{"x":1}}') as JsonObject;
    const signed = signHmacV1(DECL, m, KEY);
    expect(signed.ok && Object.getPrototypeOf(signed.message)).toBe(Object.prototype);
    expect(signed.ok && Object.keys(signed.message)).toEqual(["version", "payload", "__proto__", "signature_alg", "signature"]);
  });
});

describe("refusals, in order", () => {
  const signed: JsonObject = { ...message, signature_alg: "hmac-sha256-v1", signature: mac(input) };
  it("not an object", () => {
    for (const v of [null, [1], "x"]) {
      expect(code(verifyHmacV1(DECL, v as never, KEY))).toBe("not-an-object");
      expect(code(hmacV1SigningInput(DECL, v as never))).toBe("not-an-object");
    }
  });
  it("unsigned (absent, empty, not a string) before the algorithm", () => {
    expect(code(verifyHmacV1(DECL, message, KEY))).toBe("unsigned");
    expect(code(verifyHmacV1(DECL, { ...signed, signature: "", signature_alg: "x" }, KEY))).toBe("unsigned");
    expect(code(verifyHmacV1(DECL, { ...signed, signature: 5 }, KEY))).toBe("unsigned");
  });
  it("algorithm mismatch names the field and the value, before the key", () => {
    const r = verifyHmacV1(DECL, { ...signed, signature_alg: "hmac-sha1" }, "");
    expect(r).toEqual({ ok: false, error: { code: "algorithm-mismatch", message: "signature_alg is not hmac-sha256-v1" } });
    expect(code(verifyHmacV1(DECL, { ...message, signature: mac(input) }, KEY))).toBe("algorithm-mismatch");
  });
  it("an empty key, string or bytes, for verify and sign", () => {
    expect(code(verifyHmacV1(DECL, signed, ""))).toBe("key-missing");
    expect(code(verifyHmacV1(DECL, signed, new Uint8Array(0)))).toBe("key-missing");
    expect(code(signHmacV1(DECL, message, ""))).toBe("key-missing");
    expect(code(signHmacV1(DECL, message, "x"))).toBe("ok");
  });
  it("signature encoding: 43 characters of standard base64 for 32 bytes, nothing else", () => {
    const good = mac(input);
    expect(good.length).toBe(43);
    for (const bad of [`${good}=`, good.slice(0, 42), `${good}A`, good.replace(/^./, "-"), good.slice(0, 42) + "_", "A".repeat(44)]) {
      expect(code(verifyHmacV1(DECL, { ...signed, signature: bad }, KEY)), bad).toBe("signature-encoding");
    }
    // The last character must leave the unused low bits zero (canonical base64).
    const last = good[42]!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const noncanonical = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(code(verifyHmacV1(DECL, { ...signed, signature: good.slice(0, 42) + noncanonical }, KEY))).toBe("signature-encoding");
  });
  it("covered fields: missing without a default, not a string, not JSON", () => {
    const { version: _v, ...noVersion } = signed;
    expect(verifyHmacV1(DECL, noVersion, KEY)).toEqual({ ok: false, error: { code: "covered-field-missing", message: "covered field version is missing" } });
    const { payload: _p, ...noPayload } = signed;
    expect(code(verifyHmacV1(DECL, noPayload, KEY))).toBe("covered-field-missing");
    expect(verifyHmacV1(DECL, { ...signed, version: 1 }, KEY)).toEqual({ ok: false, error: { code: "covered-field-not-string", message: "covered field version is not a string" } });
    const r = hmacV1SigningInput(DECL, { ...message, payload: Number.NaN } as never);
    expect(r.ok ? "" : r.error.code).toBe("hashed-field-not-json");
    expect(r.ok ? "" : r.error.message.startsWith("field payload cannot be canonicalized: ")).toBe(true);
  });
  it("a changed covered value or a different key is a mismatch; an uncovered field is not covered", () => {
    expect(verifyHmacV1(DECL, { ...signed, version: "2" }, KEY)).toEqual({ ok: false, error: { code: "signature-mismatch", message: "signature does not match" } });
    expect(code(verifyHmacV1(DECL, { ...signed, payload: { a: null, b: [1, "e"] } }, KEY))).toBe("signature-mismatch");
    expect(code(verifyHmacV1(DECL, signed, `${KEY}x`))).toBe("signature-mismatch");
    expect(code(verifyHmacV1(DECL, { ...signed, other: "changed" }, KEY))).toBe("ok");
  });
  it("the messages of the early refusals; sign refuses what the input refuses", () => {
    const notObject = { ok: false, error: { code: "not-an-object", message: "a signed message must be a JSON object" } };
    expect(verifyHmacV1(DECL, [] as never, KEY)).toEqual(notObject);
    expect(hmacV1SigningInput(DECL, null as never)).toEqual(notObject);
    expect(verifyHmacV1(DECL, message, KEY)).toEqual({ ok: false, error: { code: "unsigned", message: "message carries no signature" } });
    expect(verifyHmacV1(DECL, signed, "")).toEqual({ ok: false, error: { code: "key-missing", message: "verification key is empty" } });
    expect(signHmacV1(DECL, message, "")).toEqual({ ok: false, error: { code: "key-missing", message: "signing key is empty" } });
    expect(verifyHmacV1(DECL, { ...signed, signature: "AAAA" }, KEY)).toEqual({ ok: false, error: { code: "signature-encoding", message: "signature is not 32 bytes of unpadded standard base64" } });
    expect(signHmacV1(DECL, { payload: 1 }, KEY)).toEqual({ ok: false, error: { code: "covered-field-missing", message: "covered field version is missing" } });
  });
  it("no lines is an empty input; an error other than non-JSON (a throwing getter) is thrown", () => {
    expect(hmacV1SigningInput({ ...DECL, lines: [] }, {})).toEqual({ ok: true, input: "" });
    const m = { version: "1", payload: { get x(): string { throw new TypeError("boom"); } } };
    expect(() => hmacV1SigningInput(DECL, m as never)).toThrow(TypeError);
  });
});

// A generated signing-input function is handed in by the generated code; here one that ignores
// the declaration, so a sign or verify that fell back to the interpreter would show.
describe("a given signing-input function and a prepared key", () => {
  const fixed = (): { ok: true; input: string } => ({ ok: true, input: "fixed input" });
  const mac = nopad(createHmac("sha256", KEY).update("fixed input", "utf8").digest());
  it("sign MACs the function's text, with a string or a prepared key", () => {
    const signedFixed = signHmacV1(DECL, message, KEY, fixed);
    expect(signedFixed.ok && signedFixed.signature).toBe(mac);
    const prepared = signHmacV1(DECL, message, new HmacSha256Key(KEY), fixed);
    expect(prepared.ok && prepared.signature).toBe(mac);
  });
  it("verify checks the MAC over the function's text and returns its refusal", () => {
    const received = { ...message, signature_alg: "hmac-sha256-v1", signature: mac };
    expect(verifyHmacV1(DECL, received, new HmacSha256Key(KEY), fixed)).toEqual({ ok: true });
    expect(verifyHmacV1(DECL, received, KEY)).toEqual({ ok: false, error: { code: "signature-mismatch", message: "signature does not match" } });
    const refusal = { ok: false as const, error: { code: "covered-field-missing" as const, message: "from the function" } };
    expect(verifyHmacV1(DECL, received, KEY, () => refusal)).toBe(refusal);
    expect(signHmacV1(DECL, message, KEY, () => refusal)).toBe(refusal);
  });
  it("an empty prepared key is refused before any input is built", () => {
    expect(signHmacV1(DECL, message, new HmacSha256Key(""), fixed)).toEqual({ ok: false, error: { code: "key-missing", message: "signing key is empty" } });
    const received = { ...message, signature_alg: "hmac-sha256-v1", signature: mac };
    expect(verifyHmacV1(DECL, received, new HmacSha256Key(new Uint8Array(0)), fixed)).toEqual({ ok: false, error: { code: "key-missing", message: "verification key is empty" } });
  });
  it("the digest-line helper: the oracle's digest, or hashed-field-not-json naming the field", () => {
    expect(hmacV1DigestLine("payload", { b: 1, a: [true] })).toBe(digest({ b: 1, a: [true] }));
    expect(hmacV1DigestLine("payload", Number.NaN as never)).toEqual({ ok: false, error: { code: "hashed-field-not-json", message: expect.stringMatching(/^field payload cannot be canonicalized: \S/) } });
    expect(() => hmacV1DigestLine("payload", { get x(): string { throw new TypeError("boom"); } } as never)).toThrow(TypeError);
  });
});
