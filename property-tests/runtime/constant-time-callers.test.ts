// The TypeScript runtime's MAC checks reach the constant-time primitive (crypto.ts's
// constantTimeEqual) with the received MAC and the one recomputed here with node:crypto: an ordinary compare
// (Buffer.compare, ===, .equals) at a call site would pass every verdict test and fail this one.
// The Kotlin and Swift callers are checked the same way at the source level in constant-time.test.ts
// (the Kotlin runtime compares MACs only through Crypto.constantTimeEquals); this file does it for
// TypeScript, by counting what reaches constantTimeEqual, and by reading the callers' source.
import { createHmac as realHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ROOT } from "../signing/helpers.js";

/** Copies of both inputs of every constantTimeEqual call (the caller may reuse its buffers). */
const calls: { a: string; b: string }[] = [];
// The runtime's one constant-time primitive is crypto.ts's constantTimeEqual (no node:crypto, so
// it runs in every JavaScript runtime); hmacSha256Matches is its MAC form. Both exports are
// wrapped, so a caller that compares any other way records nothing.
vi.mock("../../generators/targets/ts/runtime/src/crypto.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../generators/targets/ts/runtime/src/crypto.js")>();
  const hex = (v: Uint8Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
  const constantTimeEqual = (a: Uint8Array, b: Uint8Array) => {
    calls.push({ a: hex(a), b: hex(b) });
    return real.constantTimeEqual(a, b);
  };
  return {
    ...real,
    constantTimeEqual,
    hmacSha256Matches: (key: string | Uint8Array, message: string | Uint8Array, expected: Uint8Array) => constantTimeEqual(expected, real.hmacSha256(key, message)),
  };
});
const { decodeApprovalToken } = await import("../../generators/targets/ts/runtime/src/approval-token.js");
const { verifyHmacV1 } = await import("../../generators/targets/ts/runtime/src/signing-hmac-v1.js");
const { explainHmacV1 } = await import("../../generators/targets/ts/runtime/src/signature-doctor.js");
const { verifyTyped } = await import("../../generators/targets/ts/runtime/src/typed-signing.js");
type CanonicalizationDialect = import("../../generators/targets/ts/runtime/src/canonical-dialects.js").CanonicalizationDialect;
type HmacSha256V1Declaration = import("../../generators/targets/ts/runtime/src/signing-hmac-v1.js").HmacSha256V1Declaration;

beforeEach(() => void (calls.length = 0));
const b64url = (bytes: Buffer): string => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const nopad = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/, "");
const mac = (key: string, text: string): Buffer => realHmac("sha256", key).update(text, "utf8").digest();
/** The call's two inputs, in either order (which side is "expected" is the helper's business). */
const pair = (x: Buffer, y: Buffer) => expect.toSatisfy((c: { a: string; b: string }) => [c.a, c.b].sort().join() === [x.toString("hex"), y.toString("hex")].sort().join());

describe("approval token: the MAC compare goes through constantTimeEqual", () => {
  const SECRET = "s".repeat(32);
  const NOW = 1_700_000_000;
  const claims = { action: "a", actor_id: "h", choice: null, exp: NOW + 600, expected_choice: null, nonce: "n", override_requested: false, payload: {}, payload_sha256: null, rationale: null, request_id: "r", resource_id: "t", v: 1 };
  const payload = b64url(Buffer.from(JSON.stringify(claims), "utf8"));
  const good = mac(SECRET, payload);
  it("a valid token: one compare of its MAC with the recomputed one", () => {
    expect(decodeApprovalToken(`${payload}.${b64url(good)}`, SECRET, NOW * 1000).ok).toBe(true);
    expect(calls).toEqual([pair(good, good)]);
  });
  it("a forged MAC of the right length: one compare of the forged bytes, then refused", () => {
    const forged = Buffer.from(good);
    forged[31]! ^= 1;
    const r = decodeApprovalToken(`${payload}.${b64url(forged)}`, SECRET, NOW * 1000);
    expect(r.ok ? "valid" : r.error.code).toBe("signature-invalid");
    expect(calls).toEqual([pair(forged, good)]);
  });
});

const DECL: HmacSha256V1Declaration = {
  scheme: "hmac-sha256-v1",
  algorithmId: "hmac-sha256-v1",
  algorithmField: "signature_alg",
  signatureField: "signature",
  lineSeparator: "\n",
  lines: [{ name: "id", field: "id", value: "string" }],
  key: { source: "binding", field: "secret", encoding: "utf8" },
  signatureEncoding: "base64-std-nopad",
};
const KEY = "k".repeat(32);

describe("hmac-sha256-v1: the MAC compare goes through constantTimeEqual", () => {
  const good = mac(KEY, "id=p-1");
  it("a valid signature: one compare of the received MAC", () => {
    expect(verifyHmacV1(DECL, { id: "p-1", signature_alg: "hmac-sha256-v1", signature: nopad(good) }, KEY)).toEqual({ ok: true });
    expect(calls).toEqual([pair(good, good)]);
  });
  it("a wrong signature: one compare, then refused", () => {
    const other = mac(KEY, "id=p-2");
    const r = verifyHmacV1(DECL, { id: "p-1", signature_alg: "hmac-sha256-v1", signature: nopad(other) }, KEY);
    expect(r.ok ? "ok" : r.error.code).toBe("signature-mismatch");
    expect(calls).toEqual([pair(other, good)]);
  });
  it("the signature doctor's dialect retries compare through it too", () => {
    const text = JSON.stringify({ id: "p-1", signature_alg: "hmac-sha256-v1", signature: nopad(mac(KEY, "id=p-2")) });
    const dialect: CanonicalizationDialect = { divergence: "d", name: "d", numbers: "rfc8785", integerTokens: ["exact"], keyOrder: "utf16", escapeSlash: "none", escapeRanges: [], duplicateKeys: "reject" };
    const r = explainHmacV1(DECL, [dialect], text, KEY);
    expect(r.verified).toBe(false);
    // verifyHmacV1 once, then the dialect's own input once: both through constantTimeEqual.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((c) => c.a.length === 64 && c.b.length === 64)).toBe(true);
  });
});

describe("typed verify (every generated verifyX): the MAC compare goes through constantTimeEqual", () => {
  const good = mac(KEY, "id=p-1");
  // The schema step is not what is checked here: a validator that accepts what it is given.
  const accept = (value: unknown) => ({ ok: true as const, value });
  it("a valid message, as text: one compare of the received MAC, before the schema", () => {
    const text = JSON.stringify({ id: "p-1", signature_alg: "hmac-sha256-v1", signature: nopad(good) });
    expect(verifyTyped(DECL, accept, text, KEY).ok).toBe(true);
    expect(calls).toEqual([pair(good, good)]);
  });
  it("a forged message: one compare, then refused without reaching the schema", () => {
    const other = mac(KEY, "id=p-2");
    let schemaRan = false;
    const r = verifyTyped(DECL, (v: unknown) => ((schemaRan = true), { ok: true as const, value: v }), { id: "p-1", signature_alg: "hmac-sha256-v1", signature: nopad(other) }, KEY);
    expect(r.ok ? "ok" : r.error.code).toBe("signature-mismatch");
    expect(schemaRan).toBe(false);
    expect(calls).toEqual([pair(other, good)]);
  });
});

describe("the callers' source", () => {
  // The Kotlin check's counterpart: each file that compares a MAC names the constant-time helper
  // and never an ordinary byte compare.
  it.each([
    ["approval-token.ts", "constantTimeEqual("],
    ["signing-hmac-v1.ts", "hmacSha256Matches("],
    ["signature-doctor.ts", "hmacSha256Matches("],
    ["typed-signing.ts", "verifyHmacV1("],
  ])("%s compares MACs only through %s", (file, helper) => {
    const text = readFileSync(join(ROOT, "generators/targets/ts/runtime/src", file), "utf8");
    expect(text).toContain(helper);
    expect(text).not.toMatch(/Buffer\.compare|\.equals\(|timingSafeEqual|Buffer\.from\([^)]*\)\.toString\([^)]*\)\s*[!=]==/);
  });
});
