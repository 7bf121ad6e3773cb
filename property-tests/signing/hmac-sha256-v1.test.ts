// hmac-sha256-v1: the outside vectors (8 verify, 2 platform-bug variants must not), the shared
// spec vectors (expected MACs from Python's hmac, rechecked here), the same primitives on
// Standard Webhooks and AdCP webhook vectors, and sign/verify properties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64StdNoPadDecode, base64StdNoPadEncode, base64UrlEncode, hexEncode, hmacSha256 } from "../../generators/targets/ts/runtime/src/crypto.js";
import type { JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import {
  type HmacSha256V1Declaration,
  hmacV1SigningInput,
  jcsSha256Base64,
  signHmacV1,
  verifyHmacV1,
} from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import { ACTION_PROPOSAL_SIGNATURE, AGENT_TRIGGER_REQUEST_SIGNATURE } from "../../generated/ts/agent-provider/signing.js";
import { ijsonValue, python, readJson } from "./helpers.js";

const spec = readJson("spec/agent-provider/vectors/hmac-sha256-v1.json");
// The spec's declarations (x-signature, as generated), not the copy in the vector file: a reordered
// signing line in the spec must fail these vectors.
const declarations: Record<string, HmacSha256V1Declaration> = { ActionProposal: ACTION_PROPOSAL_SIGNATURE, AgentTriggerRequest: AGENT_TRIGGER_REQUEST_SIGNATURE };
const outside = readJson("property-tests/vectors/agent-provider/computed_signature_vectors.json");

/** Messages go through the strict parser first, as on the wire. */
function wire(message: unknown): JsonObject {
  const parsed = parseStrictJson(JSON.stringify(message));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value as JsonObject;
}

const verdict = (declaration: HmacSha256V1Declaration, message: JsonObject, key: string): string => {
  const result = verifyHmacV1(declaration, message, key);
  return result.ok ? "valid" : result.error.code;
};

describe("outside vectors (computed_signature_vectors.json)", () => {
  const mustFail = new Set(["divergence_slash_escaped", "divergence_integral_double_rust"]);
  it("has ten vectors", () => expect(outside.vectors).toHaveLength(10));
  for (const v of outside.vectors) {
    const declaration = declarations[v.kind === "proposal" ? "ActionProposal" : "AgentTriggerRequest"] as HmacSha256V1Declaration;
    if (mustFail.has(v.name)) {
      it(`${v.name}: a platform bug, must NOT verify under JCS`, () => {
        expect(verdict(declaration, wire(v.signed_object), v.secret_utf8)).toBe("signature-mismatch");
      });
    } else {
      it(`${v.name}: signing input, body digest and signature match`, () => {
        const message = wire(v.signed_object);
        expect(hmacV1SigningInput(declaration, message)).toEqual({ ok: true, input: v.signing_input });
        const hashed = v.kind === "proposal" ? message.arguments : message.payload;
        expect(jcsSha256Base64(hashed as JsonObject)).toBe(v.body_sha256_b64_nopad);
        expect(verdict(declaration, message, v.secret_utf8)).toBe("valid");
        const unsigned = { ...message };
        delete unsigned.signature;
        delete unsigned.signature_algorithm;
        const signed = signHmacV1(declaration, unsigned, v.secret_utf8);
        expect(signed.ok && signed.signature).toBe(v.expected_signature);
      });
    }
  }
  it("exactly eight verify", () => {
    const ok = outside.vectors.filter((v: any) => verdict(declarations[v.kind === "proposal" ? "ActionProposal" : "AgentTriggerRequest"] as HmacSha256V1Declaration, wire(v.signed_object), v.secret_utf8) === "valid");
    expect(ok).toHaveLength(8);
  });
});

describe("spec/agent-provider/vectors/hmac-sha256-v1.json", () => {
  for (const c of spec.cases) {
    it(`${c.name} -> ${c.expect}`, () => {
      const declaration = declarations[c.message_type] as HmacSha256V1Declaration;
      const message = wire(c.message);
      expect(verdict(declaration, message, c.key_utf8)).toBe(c.expect);
      if (c.expected_signing_input !== undefined) {
        expect(hmacV1SigningInput(declaration, message)).toEqual({ ok: true, input: c.expected_signing_input });
      }
    });
  }
  it("expected signatures of re-signed cases equal Python's hmac over the stated signing input", () => {
    const resigned = spec.cases.filter((c: any) => c.expected_signing_input !== undefined);
    expect(resigned.length).toBeGreaterThan(3);
    const macs = python<string[]>(
      "import sys,json,hmac,hashlib,base64\nprint(json.dumps([base64.b64encode(hmac.new(c['key_utf8'].encode(),c['expected_signing_input'].encode(),hashlib.sha256).digest()).decode().rstrip('=') for c in json.load(sys.stdin)]))",
      resigned,
    );
    expect(macs).toEqual(resigned.map((c: any) => c.expected_signature));
  });
});

describe("the same primitives on other public HMAC vectors", () => {
  it("Standard Webhooks: v1 = base64(HMAC(base64-decoded whsec key, id.timestamp.payload))", () => {
    const file = readJson("property-tests/vectors/stdwebhooks/vectors.json");
    for (const v of file.sign) {
      const key = Buffer.from(v.secret.slice("whsec_".length), "base64");
      const mac = hmacSha256(new Uint8Array(key), `${v.msg_id}.${v.timestamp}.${v.payload}`);
      expect(`v1,${base64StdNoPadEncode(mac)}=`).toBe(v.expected_signature);
    }
  });
  it("AdCP webhook HMAC vectors: sha256=hex(HMAC(secret, timestamp.raw_body))", () => {
    const file = readJson("property-tests/vectors/adcp-vectors/webhook-hmac-sha256.json");
    let matched = 0;
    for (const v of file.vectors) {
      const mac = hexEncode(hmacSha256(file.secret, `${v.timestamp}.${v.raw_body}`));
      if (`sha256=${mac}` === v.expected_signature) matched++;
    }
    expect(matched).toBe(file.vectors.length);
  });
});

// ---- properties --------------------------------------------------------------------------------

const proposal = declarations.ActionProposal as HmacSha256V1Declaration;
const text = fc.string({ unit: "binary", maxLength: 20 });
const argumentsValue = fc.dictionary(fc.string({ maxLength: 6 }), ijsonValue(2), { maxKeys: 4 }).map((v) => wire(v));
const proposalMessage = fc.record({
  request_id: text, provider_id: text, agent_id: text, action_id: text, tool_name: text,
  arguments: argumentsValue, user_intent_summary: text, created_at: text, expires_at: text,
  nonce: text, idempotency_key: text, risk: text, confirmation_policy: text, host_instance_id: text,
  callback: ijsonValue(1),
}).map((m) => m as unknown as JsonObject);
const key = fc.string({ minLength: 1, maxLength: 40 });
const RUNS = { numRuns: 150 };

function signed(message: JsonObject, secret: string): JsonObject {
  const result = signHmacV1(proposal, message, secret);
  if (!result.ok) throw new Error(result.error.message);
  return result.message;
}

describe("sign/verify properties (ActionProposal declaration)", () => {
  it("sign then verify holds, also after a JSON round trip", () => {
    fc.assert(fc.property(proposalMessage, key, (m, k) => verdict(proposal, wire(signed(m, k)), k) === "valid"), RUNS);
  });
  it("changing any covered string field breaks verification", () => {
    const covered = proposal.lines.filter((l) => l.value === "string").map((l) => l.field);
    fc.assert(fc.property(proposalMessage, key, fc.constantFrom(...covered), text, (m, k, field, replacement) => {
      const s = signed(m, k);
      fc.pre(s[field] !== replacement);
      return verdict(proposal, { ...s, [field]: replacement }, k) === "signature-mismatch";
    }), RUNS);
  });
  it("changing the hashed object breaks verification unless its canonical form is unchanged", () => {
    fc.assert(fc.property(proposalMessage, key, argumentsValue, (m, k, other) => {
      const s = signed(m, k);
      const same = jcsSha256Base64(other) === jcsSha256Base64(s.arguments as JsonObject);
      return verdict(proposal, { ...s, arguments: other }, k) === (same ? "valid" : "signature-mismatch");
    }), RUNS);
  });
  it("changing an uncovered field does not", () => {
    fc.assert(fc.property(proposalMessage, key, fc.constantFrom("user_intent_summary", "callback", "extra_field"), ijsonValue(1), (m, k, field, value) => {
      return verdict(proposal, { ...signed(m, k), [field]: wire({ v: value }).v as JsonObject }, k) === "valid";
    }), RUNS);
  });
  it("a different key breaks verification", () => {
    fc.assert(fc.property(proposalMessage, key, key, (m, k, other) => {
      fc.pre(k !== other);
      return verdict(proposal, signed(m, k), other) === "signature-mismatch";
    }), RUNS);
  });
  it("a different algorithm id breaks verification", () => {
    fc.assert(fc.property(proposalMessage, key, text, (m, k, algorithm) => {
      fc.pre(algorithm !== proposal.algorithmId);
      return verdict(proposal, { ...signed(m, k), signature_algorithm: algorithm }, k) !== "valid";
    }), RUNS);
  });
  it("re-encoding the same MAC (padded, base64url, hex) breaks verification", () => {
    fc.assert(fc.property(proposalMessage, key, fc.constantFrom("padded", "url", "hex"), (m, k, form) => {
      const s = signed(m, k);
      const mac = base64StdNoPadDecode(s.signature as string) as Uint8Array;
      const encoded = form === "padded" ? `${s.signature}=` : form === "url" ? base64UrlEncode(mac) : hexEncode(mac);
      fc.pre(encoded !== s.signature);
      return verdict(proposal, { ...s, signature: encoded }, k) === "signature-encoding";
    }), RUNS);
  });
});
