// Approval tokens against the reference verifier's table (research/agent-service-contract-recovered.md
// § 2.3: checks in order, each with its exact message; § 2.1: claim types; § 2.3: TTL 60-1800 s,
// lifetime 1800 + 60 s, "exp == now passes"). Tokens with hand-picked claims are built here with
// node:crypto and JSON.stringify on keys written in sorted order, not with the minter under test.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeApprovalToken, mintApprovalToken, verifyApprovalToken, type ApprovalBindings } from "../../generators/targets/ts/runtime/src/approval-token.js";

const SECRET = "s".repeat(32);
const NOW = 1_700_000_000; // seconds
const b64url = (bytes: Buffer): string => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** A token over `claims` exactly as given (JSON.stringify keeps the order written). */
function token(claims: Record<string, unknown>, secret = SECRET): string {
  const payload = b64url(Buffer.from(JSON.stringify(claims), "utf8"));
  return `${payload}.${b64url(createHmac("sha256", secret).update(payload, "ascii").digest())}`;
}
// sha256("{}"), quoted in § 2.2.
const EMPTY_DIGEST = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
const base = {
  action: "set_ticket_priority",
  actor_id: "human-1",
  choice: "high",
  exp: NOW + 600,
  expected_choice: "low",
  nonce: "n-1",
  override_requested: true,
  payload: {},
  payload_sha256: EMPTY_DIGEST,
  rationale: "because",
  request_id: "req-1",
  resource_id: "T-1",
  v: 1,
};
const bindings: ApprovalBindings = { action: "set_ticket_priority", resource_id: "T-1", request_id: "req-1", expected_choice: "low" };
const decode = (t: string, now = NOW) => decodeApprovalToken(t, SECRET, now * 1000);
const verify = (t: string, b: ApprovalBindings = bindings, now = NOW) => verifyApprovalToken(t, SECRET, b, now * 1000);
const err = (r: { ok: boolean; error?: { code: string; message: string } }) => (r.ok ? ["valid", ""] : [r.error!.code, r.error!.message]);

describe("decode: the reference order and messages (§ 2.3)", () => {
  it("a well-formed token decodes to its claims", () => {
    expect(decode(token(base))).toEqual({ ok: true, claims: base });
    expect(err(verify(token(base)))).toEqual(["valid", ""]);
  });
  const good = token(base);
  const [payload, signature] = good.split(".") as [string, string];
  const table: [string, string, string, string][] = [
    ["no dot", payload + signature, "invalid-format", "approval token has invalid format"],
    ["a padded signature", `${payload}.${signature}=`, "signature-not-base64url", "approval token signature is not base64url"],
    ["a signature over other bytes", `${payload}.${b64url(Buffer.alloc(32))}`, "signature-invalid", "approval token signature is invalid"],
    ["a short signature", `${payload}.${signature.slice(0, 40)}`, "signature-invalid", "approval token signature is invalid"],
  ];
  for (const [name, t, code, message] of table) it(name, () => expect(err(decode(t))).toEqual([code, message]));
  it("a payload that is not base64url, correctly MACed", () => {
    const p = "e30=";
    const t = `${p}.${b64url(createHmac("sha256", SECRET).update(p, "ascii").digest())}`;
    expect(err(decode(t))).toEqual(["payload-not-base64url", "approval token payload is not base64url"]);
  });
  it("a payload that is not a claim set", () => {
    for (const claims of [[1], "x", null]) {
      const p = b64url(Buffer.from(JSON.stringify(claims)));
      const t = `${p}.${b64url(createHmac("sha256", SECRET).update(p, "ascii").digest())}`;
      expect(err(decode(t))).toEqual(["payload-invalid", "approval token payload is invalid"]);
    }
  });
  it("version: v must be 1 (u8 field: 0-255 parse, others are invalid)", () => {
    expect(err(decode(token({ ...base, v: 2 })))).toEqual(["version-unsupported", "approval token version is not supported"]);
    expect(err(decode(token({ ...base, v: 0 }))) [0]).toBe("version-unsupported");
    expect(err(decode(token({ ...base, v: 255 })))[0]).toBe("version-unsupported");
    for (const v of [-1, 256, 1.5, "1", null]) expect(err(decode(token({ ...base, v })))[0], String(v)).toBe("payload-invalid");
  });
  it("expiry is strict: exp == now passes, exp == now - 1 fails", () => {
    expect(err(decode(token({ ...base, exp: NOW })))).toEqual(["valid", ""]);
    expect(err(decode(token({ ...base, exp: NOW - 1 })))).toEqual(["expired", "approval token has expired"]);
    // now is floored to seconds: 999 ms into the second of exp still passes.
    expect(decodeApprovalToken(token({ ...base, exp: NOW }), SECRET, NOW * 1000 + 999).ok).toBe(true);
  });
  it("lifetime: exp - now <= 1800 + 60 passes, one second more fails (+1800+30 accepted, +1800+600 refused)", () => {
    expect(err(decode(token({ ...base, exp: NOW + 1860 })))).toEqual(["valid", ""]);
    expect(err(decode(token({ ...base, exp: NOW + 1830 })))).toEqual(["valid", ""]);
    expect(err(decode(token({ ...base, exp: NOW + 1861 })))).toEqual(["lifetime-exceeded", "approval token lifetime exceeds the maximum this server accepts"]);
    expect(err(decode(token({ ...base, exp: NOW + 2400 })))[0]).toBe("lifetime-exceeded");
  });
  it("exp must be an integer (i64)", () => {
    for (const exp of [NOW + 0.5, "1700000600", null, 2 ** 53]) expect(err(decode(token({ ...base, exp })))[0], String(exp)).toBe("payload-invalid");
  });
  it("required strings are required; choice, expected_choice, rationale, payload_sha256 are string or null", () => {
    for (const k of ["action", "resource_id", "actor_id", "request_id", "nonce"]) {
      const { [k]: _drop, ...rest } = base as Record<string, unknown>;
      expect(err(decode(token(rest)))[0], `missing ${k}`).toBe("payload-invalid");
      expect(err(decode(token({ ...base, [k]: 1 })))[0], `numeric ${k}`).toBe("payload-invalid");
    }
    for (const k of ["choice", "expected_choice", "rationale", "payload_sha256"]) {
      expect(err(decode(token({ ...base, [k]: 7 })))[0], `numeric ${k}`).toBe("payload-invalid");
      const { [k]: _drop, ...rest } = base as Record<string, unknown>;
      const decoded = decode(token(rest));
      expect(decoded.ok && (decoded.claims as unknown as Record<string, unknown>)[k], `absent ${k} defaults to null`).toBeNull();
    }
  });
  it("override_requested is a bool, default false; an absent payload reads as null", () => {
    expect(err(decode(token({ ...base, override_requested: "yes" })))[0]).toBe("payload-invalid");
    const { override_requested: _o, payload: _p, ...rest } = base;
    const decoded = decode(token(rest));
    expect(decoded.ok && decoded.claims.override_requested).toBe(false);
    expect(decoded.ok && decoded.claims.payload).toBeNull();
  });
  it("unknown claims are ignored (no deny_unknown_fields)", () => {
    expect(decode(token({ ...base, extra: 1 }))).toEqual({ ok: true, claims: base });
  });
});

describe("verify: the binding checks and messages (§ 2.3)", () => {
  const t = token(base);
  it("each binding, in order", () => {
    expect(err(verify(t, { ...bindings, action: "other" }))).toEqual(["not-bound-to-action", "approval token is not bound to this action and resource"]);
    expect(err(verify(t, { ...bindings, resource_id: "T-2" }))[0]).toBe("not-bound-to-action");
    expect(err(verify(t, { ...bindings, request_id: "req-2" }))).toEqual(["not-bound-to-request", "approval token is not bound to this authenticated request"]);
    expect(err(verify(t, { ...bindings, expected_choice: "high" }))).toEqual(["expected-choice-mismatch", "approval token was issued against a different authoritative choice"]);
    expect(err(verify(t, { ...bindings, expected_choice: null }))[0]).toBe("expected-choice-mismatch");
  });
  it("payload_sha256 must be hex(sha256(JCS(payload))), null for a null payload", () => {
    expect(err(verify(token({ ...base, payload_sha256: EMPTY_DIGEST.replace("4", "5") })))).toEqual(["payload-digest-mismatch", "approval token payload does not match its own signature"]);
    expect(err(verify(token({ ...base, payload: null, payload_sha256: null })))).toEqual(["valid", ""]);
    expect(err(verify(token({ ...base, payload: null, payload_sha256: EMPTY_DIGEST })))[0]).toBe("payload-digest-mismatch");
    expect(err(verify(token({ ...base, payload_sha256: null })))[0]).toBe("payload-digest-mismatch");
  });
  it("blank actor, request or nonce is missing-identity (request_id blank on both sides)", () => {
    const message = "approval token is missing audit identity or request correlation";
    expect(err(verify(token({ ...base, actor_id: " " })))).toEqual(["missing-identity", message]);
    expect(err(verify(token({ ...base, nonce: "\t" })))).toEqual(["missing-identity", message]);
    expect(err(verify(token({ ...base, request_id: " " }), { ...bindings, request_id: " " }))).toEqual(["missing-identity", message]);
  });
  it("a decode failure is returned as is", () => {
    expect(err(verify(token({ ...base, exp: NOW - 5 })))[0]).toBe("expired");
  });
});

describe("mint (§ 2.2, § 2.3)", () => {
  const input = { action: "a", resource_id: "r", actor_id: "u", request_id: "q", nonce: "n" };
  it("TTL 60 and 1800 are accepted, 59 and 1801 refused with the range in the message; default 600", () => {
    for (const ttlSeconds of [60, 1800]) expect(mintApprovalToken(input, SECRET, { ttlSeconds, nowMs: NOW * 1000 }).ok, String(ttlSeconds)).toBe(true);
    for (const ttlSeconds of [59, 1801]) expect(err(mintApprovalToken(input, SECRET, { ttlSeconds }))).toEqual(["mint-ttl-out-of-range", "ttl must be 60-1800 seconds"]);
    const minted = mintApprovalToken(input, SECRET, { nowMs: NOW * 1000 + 999 });
    expect(minted.ok && minted.claims.exp).toBe(NOW + 600);
  });
  it("blank actor or request id: the reference message", () => {
    const message = "approval requires an authenticated actor and a gateway request id";
    expect(err(mintApprovalToken({ ...input, actor_id: "" }, SECRET))).toEqual(["mint-identity-missing", message]);
    expect(err(mintApprovalToken({ ...input, request_id: "  " }, SECRET))).toEqual(["mint-identity-missing", message]);
  });
  it("every claim is serialised, nulls included; payload {} by default; override = choice is not None and choice != expected", () => {
    const minted = mintApprovalToken(input, SECRET, { nowMs: NOW * 1000 });
    expect(minted.ok && minted.claims).toEqual({ ...input, v: 1, exp: NOW + 600, choice: null, expected_choice: null, override_requested: false, rationale: null, payload: {}, payload_sha256: EMPTY_DIGEST });
    const text = minted.ok ? Buffer.from(minted.token.split(".")[0]!, "base64url").toString("utf8") : "";
    expect(text).toBe(`{"action":"a","actor_id":"u","choice":null,"exp":${NOW + 600},"expected_choice":null,"nonce":"n","override_requested":false,"payload":{},"payload_sha256":"${EMPTY_DIGEST}","rationale":null,"request_id":"q","resource_id":"r","v":1}`);
    const same = mintApprovalToken({ ...input, choice: "x", expected_choice: "x" }, SECRET);
    expect(same.ok && same.claims.override_requested).toBe(false);
    const differs = mintApprovalToken({ ...input, choice: "x", expected_choice: null }, SECRET);
    expect(differs.ok && differs.claims.override_requested).toBe(true);
    const nulled = mintApprovalToken({ ...input, payload: null }, SECRET);
    expect(nulled.ok && [nulled.claims.payload, nulled.claims.payload_sha256]).toEqual([null, null]);
  });
  it("without a nonce a fresh UUIDv4 is used (single-use identity)", () => {
    const { nonce: _n, ...rest } = input;
    const a = mintApprovalToken(rest, SECRET);
    const b = mintApprovalToken(rest, SECRET);
    expect(a.ok && a.claims.nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.ok && b.ok && a.claims.nonce !== b.claims.nonce).toBe(true);
  });
  it("the secret bound's message names the declared minimum", () => {
    expect(err(mintApprovalToken(input, "k"))).toEqual(["key-too-short", "approval token secret must be at least 32 bytes"]);
    expect(err(mintApprovalToken(input, ""))).toEqual(["key-missing", "approval token secret is empty"]);
  });
  it("the secret bound counts UTF-8 bytes of a string and the length of bytes", () => {
    // 16 characters, 32 UTF-8 bytes: long enough.
    expect(mintApprovalToken(input, "\u00e9".repeat(16)).ok).toBe(true);
    expect(err(mintApprovalToken(input, new Uint8Array(31)))[0]).toBe("key-too-short");
    expect(mintApprovalToken(input, new Uint8Array(32)).ok).toBe(true);
  });
  it("blank means blank after trimming; override is false without a choice", () => {
    expect(err(mintApprovalToken({ ...input, actor_id: "  " }, SECRET))[0]).toBe("mint-identity-missing");
    const noChoice = mintApprovalToken({ ...input, expected_choice: "x" }, SECRET);
    expect(noChoice.ok && noChoice.claims.override_requested).toBe(false);
  });
});

describe("decode: the secret first, then split_once('.')", () => {
  it("an empty or short secret is refused before the token is read", () => {
    expect(err(decodeApprovalToken("not a token", "", NOW * 1000))[0]).toBe("key-missing");
    expect(err(decodeApprovalToken(token(base), "s".repeat(31), NOW * 1000))[0]).toBe("key-too-short");
  });
  it("a token starting with '.' has an empty payload: split, MAC-checked, then an invalid payload", () => {
    const t = `.${b64url(createHmac("sha256", SECRET).update("", "ascii").digest())}`;
    expect(err(decode(t))).toEqual(["payload-invalid", "approval token payload is invalid"]);
  });
});

