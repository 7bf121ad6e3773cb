// agent-service approval tokens: the token minted by the real Python code, the shared spec
// vectors' MACs against Python's hmac (their verdicts are the shared-case drivers'), and properties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  APPROVAL_TOKEN_V1,
  type ApprovalBindings,
  decodeApprovalToken,
  mintApprovalToken,
  verifyApprovalToken,
} from "../../generators/targets/ts/runtime/src/approval-token.js";
import { python, readJson } from "./helpers.js";

const minted = readJson("property-tests/vectors/agent-service/approval_token_python_minted.json");
const spec = readJson("spec/agent-service/vectors/approval-token.json");
const exp: number = minted.decoded_claims.exp;

describe("the Python-minted token (approval_token_python_minted.json)", () => {
  it("verifies with the clock fixed before its exp, with its bindings", () => {
    const result = verifyApprovalToken(minted.token, minted.secret_utf8, minted.expected_bindings_for_verify, (exp - 600) * 1000);
    expect(result).toEqual({ ok: true, claims: minted.decoded_claims });
  });
  it("is refused as expired after exp, whatever else holds", () => {
    const result = decodeApprovalToken(minted.token, minted.secret_utf8, (exp + 1) * 1000);
    expect(result.ok ? "valid" : result.error.code).toBe("expired");
  });
  it("minting the same claims in TypeScript gives the same token byte for byte", () => {
    const c = minted.decoded_claims;
    const result = mintApprovalToken(
      { action: c.action, resource_id: c.resource_id, actor_id: c.actor_id, request_id: c.request_id, choice: c.choice, expected_choice: c.expected_choice, rationale: c.rationale, payload: c.payload, nonce: c.nonce },
      minted.secret_utf8,
      { nowMs: (exp - 600) * 1000, ttlSeconds: 600 },
    );
    expect(result.ok && result.token).toBe(minted.token);
  });
});

// Each vector's verdict in every language (TypeScript's through the generated signing module) is
// the shared-case drivers' (property-tests/drivers, kind approval-token); here the vectors themselves.
describe("spec/agent-service/vectors/approval-token.json", () => {
  it("is written for the runtime's declaration", () => {
    expect(spec.declaration).toEqual(APPROVAL_TOKEN_V1);
  });
  it("every vector's MAC verdict agrees with Python's hmac", () => {
    // A refused key (key-missing, key-too-short) is decided before any MAC is computed.
    const macCases = spec.cases.filter((c: any) => !String(c.expect).startsWith("key-"));
    const verdicts = python<boolean[]>(
      "import sys,json,hmac,hashlib,base64\nout=[]\nfor c in json.load(sys.stdin):\n  t=c['token']\n  if '.' not in t: out.append(False); continue\n  p,s=t.split('.',1)\n  m=base64.urlsafe_b64encode(hmac.new(c['secret_utf8'].encode(),p.encode(),hashlib.sha256).digest()).decode().rstrip('=')\n  out.append(hmac.compare_digest(m,s))\nprint(json.dumps(out))",
      macCases,
    );
    const ours = macCases.map((c: any) => {
      const r = decodeApprovalToken(c.token, c.secret_utf8, c.now_unix_seconds * 1000);
      return r.ok || !["invalid-format", "signature-not-base64url", "signature-invalid"].includes(r.error.code);
    });
    expect(ours).toEqual(verdicts);
  });
});

describe("approval token properties", () => {
  const secret = fc.string({ minLength: 32, maxLength: 48 });
  const id = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== "");
  const start = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true });
  const input = fc.record({ action: id, resource_id: id, actor_id: id, request_id: id, choice: fc.option(id), expected_choice: fc.option(id), payload: fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 3 }), nonce: id });
  const ttl = fc.integer({ min: 60, max: 1800 });
  const RUNS = { numRuns: 150 };

  it("mint then verify holds until exp (inclusive) and fails after", () => {
    fc.assert(fc.property(input, secret, start, ttl, fc.integer({ min: 0, max: 2000 }), (claims, key, when, life, elapsed) => {
      const nowMs = when.getTime();
      const token = mintApprovalToken(claims, key, { nowMs, ttlSeconds: life });
      if (!token.ok) return false;
      const bindings: ApprovalBindings = { action: claims.action, resource_id: claims.resource_id, request_id: claims.request_id, expected_choice: claims.expected_choice };
      const later = Math.floor(nowMs / 1000) * 1000 + elapsed * 1000;
      const result = verifyApprovalToken(token.token, key, bindings, later);
      return (result.ok ? "valid" : result.error.code) === (elapsed <= life ? "valid" : "expired");
    }), RUNS);
  });
  it("any single-character change to a token is refused", () => {
    fc.assert(fc.property(input, secret, start, fc.nat(), fc.constantFrom(..."ABCabc012-_.="), (claims, key, when, at, ch) => {
      const token = mintApprovalToken(claims, key, { nowMs: when.getTime() });
      if (!token.ok) return false;
      const i = at % token.token.length;
      fc.pre(token.token[i] !== ch);
      const tampered = token.token.slice(0, i) + ch + token.token.slice(i + 1);
      return !decodeApprovalToken(tampered, key, when.getTime()).ok;
    }), RUNS);
  });
  it("the minter refuses TTLs outside 60-1800 s and blank identities", () => {
    const claims = { action: "a", resource_id: "r", actor_id: "u", request_id: "q" };
    for (const ttlSeconds of [59, 1801, 0, 1.5]) expect(mintApprovalToken(claims, "k".repeat(32), { ttlSeconds }).ok).toBe(false);
    expect(mintApprovalToken({ ...claims, actor_id: " " }, "k".repeat(32)).ok).toBe(false);
  });
  it("an empty or short secret is refused by mint and verify (x-approval-token minSecretBytes: 32)", () => {
    const claims = { action: "a", resource_id: "r", actor_id: "u", request_id: "q" };
    const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? "valid" : r.error!.code);
    expect(code(mintApprovalToken(claims, ""))).toBe("key-missing");
    expect(code(mintApprovalToken(claims, new Uint8Array(0)))).toBe("key-missing");
    expect(code(mintApprovalToken(claims, "k".repeat(31)))).toBe("key-too-short");
    // 31 UTF-8 bytes in 11 characters: the bound counts bytes.
    expect(code(mintApprovalToken(claims, "\u00e9".repeat(15) + "k"))).toBe("key-too-short");
    const minted = mintApprovalToken(claims, "k".repeat(32), { nowMs: 1_700_000_000_000 });
    expect(code(minted)).toBe("valid");
    if (!minted.ok) return;
    const bindings = { action: "a", resource_id: "r", request_id: "q", expected_choice: null };
    expect(code(verifyApprovalToken(minted.token, "k".repeat(32), bindings, 1_700_000_000_000))).toBe("valid");
    // A token MACed with the empty key is refused as key-missing, never checked against it.
    const forged = mintApprovalToken(claims, "k".repeat(32), { nowMs: 1_700_000_000_000 });
    expect(code(decodeApprovalToken(forged.ok ? forged.token : "", "", 1_700_000_000_000))).toBe("key-missing");
    expect(code(verifyApprovalToken(minted.token, "", bindings, 1_700_000_000_000))).toBe("key-missing");
    expect(code(verifyApprovalToken(minted.token, "k".repeat(16), bindings, 1_700_000_000_000))).toBe("key-too-short");
  });
});
