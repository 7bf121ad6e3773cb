// The typed signX / verifyX of the generated package on the spec's hmac-sha256-v1 vectors
// (whose expected signatures come from the real SDKs' tests and Python's hmac): signing the
// unsigned part reproduces each expected signature, verification gives each expected verdict, and
// the schema check that verifyX and signX add is reported as its own code.
import { describe, expect, it } from "vitest";
import { agentProvider, SigningError } from "../../generated/ts/index.js";
import { readJson } from "./helpers.js";

interface HmacCase { name: string; message_type: "ActionProposal" | "AgentTriggerRequest"; key_utf8: string; message: Record<string, unknown>; expected_signature?: string; expect: string }
const { cases } = readJson<{ cases: HmacCase[] }>("spec/agent-provider/vectors/hmac-sha256-v1.json");
const oracle = readJson<{ cases: { file: string; name: string; schema?: "valid" | "invalid" }[] }>("property-tests/oracle-vectors/fuzz-corpus/verdicts.json");
function schemaVerdict(name: string): "valid" | "invalid" {
  const verdict = oracle.cases.find((o) => o.file === "hmac-sha256-v1" && o.name === name)?.schema;
  if (verdict === undefined) throw new Error(`no jsonschema verdict for vector ${name}: rerun property-tests/oracle-vectors/fuzz-corpus/make-verdicts.py`);
  return verdict;
}

const api = {
  ActionProposal: { sign: agentProvider.signActionProposal, verify: agentProvider.verifyActionProposal, compute: agentProvider.computeActionProposalSignature },
  AgentTriggerRequest: { sign: agentProvider.signAgentTriggerRequest, verify: agentProvider.verifyAgentTriggerRequest, compute: agentProvider.computeAgentTriggerRequestSignature },
} as const;

function unsignedOf(message: Record<string, unknown>): Record<string, unknown> {
  const { signature: _s, signature_algorithm: _a, ...rest } = message;
  return rest;
}

describe("verifyX and signX on the spec vectors", () => {
  it("reads the vectors", () => expect(cases.length).toBeGreaterThanOrEqual(30));
  for (const c of cases) {
    it(`${c.message_type} ${c.name}: ${c.expect}`, () => {
      const fns = api[c.message_type];
      // A vector about the signature may carry a message the schema refuses (a missing covered
      // field, say): then verifyX reports the signature verdict if it fails, else schema-invalid.
      // Whether the schema refuses it is the jsonschema package's verdict on the same schemas
      // (property-tests/oracle-vectors/fuzz-corpus), not this project's validator's.
      const schemaOk = schemaVerdict(c.name) === "valid";
      const expected = c.expect === "valid" ? (schemaOk ? "valid" : "schema-invalid") : c.expect;
      const fromValue = fns.verify(c.message, c.key_utf8);
      expect(fromValue.ok ? "valid" : fromValue.error.code).toBe(expected);
      const fromText = fns.verify(JSON.stringify(c.message), c.key_utf8);
      expect(fromText.ok ? "valid" : fromText.error.code).toBe(expected);
      if (fromValue.ok) expect(fromValue.message).toEqual(c.message);
      if (c.expect === "valid" && schemaOk && c.expected_signature !== undefined) {
        const signed = fns.sign(unsignedOf(c.message) as never, c.key_utf8);
        expect(signed.signature).toBe(c.expected_signature);
        expect(signed.signature_algorithm).toBe("hmac-sha256-v1");
      }
    });
  }
});

describe("what the typed functions refuse", () => {
  const trigger = cases.find((c) => c.name === "rust_core_trigger_accept")!;
  const key = "s3cret-KEY-never-shown";

  it("verifyX refuses text that is not strict JSON, and values that are not objects", () => {
    const codes = ["{", '{"a":1,"a":2}', "[]", 42, null, new TextEncoder().encode("\uFEFF{}")].map((input) => {
      const r = agentProvider.verifyAgentTriggerRequest(input, key);
      return r.ok ? "valid" : r.error.code;
    });
    expect(codes).toEqual(["json-invalid", "json-invalid", "not-an-object", "not-an-object", "not-an-object", "json-invalid"]);
  });

  it("verifyX reports a correctly signed message that breaks its schema as schema-invalid, with the paths", () => {
    const broken = { ...unsignedOf(trigger.message), expires_at: "soon" };
    const mac = agentProvider.computeAgentTriggerRequestSignature(broken as never, key);
    expect(mac.ok).toBe(true);
    const r = agentProvider.verifyAgentTriggerRequest(mac.ok ? mac.message : {}, key);
    expect(r.ok ? "valid" : [r.error.code, r.error.errors?.map((e) => e.instancePath)]).toEqual(["schema-invalid", ["/expires_at"]]);
  });

  it("signX throws SigningError for an invalid message and an empty key, never naming the key", () => {
    const attempt = (unsigned: unknown, secret: string): SigningError => {
      try {
        agentProvider.signAgentTriggerRequest(unsigned as never, secret);
      } catch (error) {
        if (error instanceof SigningError) return error;
        throw error;
      }
      throw new Error("signed");
    };
    const invalid = attempt({ ...unsignedOf(trigger.message), created_at: "yesterday" }, key);
    expect([invalid.code, invalid.errors.map((e) => e.instancePath)]).toEqual(["schema-invalid", ["/created_at"]]);
    expect(`${invalid.message} ${invalid.stack}`).not.toContain(key);
    expect(attempt(unsignedOf(trigger.message), "").code).toBe("key-missing");
    const { nonce: _n, ...missing } = unsignedOf(trigger.message);
    expect(attempt(missing, key).code).toBe("covered-field-missing");
    expect(attempt([], key).code).toBe("not-an-object");
  });
});
