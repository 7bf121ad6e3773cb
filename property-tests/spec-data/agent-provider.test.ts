// Real data for the agent-provider protocol (document 000, antgroup/Napaxi family) against the
// generated validators. Sources: property-tests/vectors/agent-provider/ (signature vectors whose
// inputs come from the real SDK tests, and the upstream parity fixture, copied byte for byte), and
// the research notes in ../../../shared/protocols/research/agent-provider-implementations.md.
// Where the data breaks the spec, the spec records a divergence and this file asserts its verdict.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { validateMessage } from "../../generated/ts/index.js";

const P = "agent-provider";
const VECTORS = new URL("../vectors/agent-provider/", import.meta.url);

interface SignatureVector {
  name: string;
  kind: "proposal" | "trigger";
  signed_object: Record<string, unknown>;
  variant: unknown;
}

interface ParityFixture {
  id: string;
  description: string;
  url?: string;
  expected_provider_id?: string;
  expected_agent_id?: string;
  provider_id?: string;
  agent_id?: string;
  action_id?: string;
  request_id?: string | null;
  input?: Record<string, unknown>;
  pre_consume?: boolean;
  should_pass: boolean;
  failure_reason: string | null;
}

const signatureVectors = (JSON.parse(readFileSync(new URL("computed_signature_vectors.json", VECTORS), "utf8")) as { vectors: SignatureVector[] }).vectors;
const parityFixtures = (JSON.parse(readFileSync(new URL("parity_fixtures.json", VECTORS), "utf8")) as { fixtures: ParityFixture[] }).fixtures;

function expectValid(name: string, value: unknown): void {
  const result = validateMessage(P, name, value);
  if (!result.ok) throw new Error(`${name} rejected: ${JSON.stringify(result.errors)}`);
  expect(result.ok).toBe(true);
}

function firstError(name: string, value: unknown): { instancePath: string; keyword: string; params: Record<string, unknown> } {
  const result = validateMessage(P, name, value);
  if (result.ok) throw new Error(`${name} accepted ${JSON.stringify(value)}`);
  const error = result.errors[0]!;
  return { instancePath: error.instancePath, keyword: error.keyword, params: (error.params ?? {}) as Record<string, unknown> };
}

const messageOf = (v: SignatureVector): string => (v.kind === "proposal" ? "ActionProposal" : "AgentTriggerRequest");

describe("agent-provider signature vectors: every signed_object is a valid message", () => {
  it("has the ten vectors the research produced (two proposals, four triggers, four divergence cases)", () => {
    expect(signatureVectors).toHaveLength(10);
    expect(signatureVectors.filter((v) => v.kind === "proposal")).toHaveLength(4);
    expect(signatureVectors.filter((v) => v.kind === "trigger")).toHaveLength(6);
  });

  for (const vector of signatureVectors) {
    it(`${vector.name} validates as ${messageOf(vector)}`, () => {
      expectValid(messageOf(vector), vector.signed_object);
    });
  }

  it("the divergence vectors differ only in canonicalisation, never in shape (divergences canonical-json-slash-escaping, canonical-json-numbers)", () => {
    const byName = new Map(signatureVectors.map((v) => [v.name, v]));
    const slash = byName.get("divergence_slash_escaped")!;
    const slashRef = byName.get("divergence_slash_rust")!;
    const { signature: s1, ...slashBody } = slash.signed_object;
    const { signature: s2, ...slashRefBody } = slashRef.signed_object;
    expect(s1).not.toBe(s2);
    expect(slashBody).toEqual(slashRefBody);
    const dbl = byName.get("divergence_integral_double_rust")!;
    const dblSwift = byName.get("divergence_integral_double_swift")!;
    const { signature: s3, ...dblBody } = dbl.signed_object;
    const { signature: s4, ...dblSwiftBody } = dblSwift.signed_object;
    expect(s3).not.toBe(s4);
    expect(dblBody).toEqual(dblSwiftBody);
  });

  it("unsigned proposals (the Rust host without a secret) omit host_instance_id, signature_algorithm and signature (divergence swift-unsigned-proposal-decode)", () => {
    const proposal = { ...signatureVectors.find((v) => v.name === "rust_style_proposal_fixed_ids")!.signed_object };
    delete proposal["host_instance_id"];
    delete proposal["signature_algorithm"];
    delete proposal["signature"];
    expectValid("ActionProposal", proposal);
  });

  it("user_intent_summary and callback are optional (divergences user-intent-summary-required-key, proposal-callback-empty)", () => {
    const proposal = signatureVectors.find((v) => v.name === "divergence_integral_double_rust")!.signed_object;
    expect(proposal).not.toHaveProperty("user_intent_summary");
    expect(proposal).not.toHaveProperty("callback");
    expectValid("ActionProposal", proposal);
    const withEmptyCallback = signatureVectors.find((v) => v.name === "ios_provider_sdk_proposal")!.signed_object;
    expect(withEmptyCallback["callback"]).toEqual({});
    expectValid("ActionProposal", withEmptyCallback);
  });

  it("a signature that is not 43 characters of unpadded standard base64 is rejected", () => {
    // dqaphJLHHDhcZRMk+IfC9ItBPH0mzcwPPUpvQ5ihtOc: contains "+", so the base64url form differs.
    const trigger = signatureVectors.find((v) => v.name === "kotlin_provider_sdk_trigger")!.signed_object;
    expect(String(trigger["signature"])).toContain("+");
    for (const bad of ["bad", `${String(trigger["signature"])}=`, String(trigger["signature"]).replace(/\+/g, "-")]) {
      expect(firstError("AgentTriggerRequest", { ...trigger, signature: bad })).toMatchObject({ instancePath: "/signature", keyword: "pattern" });
    }
  });

  it("arguments and payload are required objects (divergences proposal-arguments-null, trigger-payload-null)", () => {
    const proposal = { ...signatureVectors.find((v) => v.name === "rust_style_proposal_fixed_ids")!.signed_object };
    delete proposal["arguments"];
    expect(firstError("ActionProposal", proposal)).toMatchObject({ instancePath: "", keyword: "required", params: { missingProperty: "arguments" } });
    const trigger = signatureVectors.find((v) => v.name === "android_host_trigger")!.signed_object;
    expect(firstError("AgentTriggerRequest", { ...trigger, payload: null })).toMatchObject({ instancePath: "/payload", keyword: "type" });
  });

  it("a line feed in a signed id is rejected (divergence signing-input-line-injection); message may span lines", () => {
    const trigger = signatureVectors.find((v) => v.name === "ios_provider_sdk_trigger")!.signed_object;
    expect(firstError("AgentTriggerRequest", { ...trigger, source: "virtual_wallet\nevent_type=x" })).toMatchObject({ instancePath: "/source", keyword: "pattern" });
    expectValid("AgentTriggerRequest", { ...trigger, message: "Review today spending.\nThen summarise." });
  });
});

// The parity fixture is unused upstream and does not match the SDKs' wire format (see its README
// and the divergences parity-fixture-*). Verdicts below are the spec's, not the fixture's.
describe("agent-provider parity_fixtures.json", () => {
  const proposalFixtures = parityFixtures.filter((f) => f.url !== undefined);
  const triggerFixtures = parityFixtures.filter((f) => f.url === undefined);

  it("has six URL proposal fixtures and three trigger fixtures", () => {
    expect(proposalFixtures).toHaveLength(6);
    expect(triggerFixtures).toHaveLength(3);
  });

  const queryOf = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams.entries());

  for (const fixture of proposalFixtures) {
    it(`${fixture.id}: the flat query parameters are not an ActionProposal (divergence parity-fixture-flat-query-proposal)`, () => {
      const flat = queryOf(fixture.url!);
      // The fixture has no request_id, tool_name, arguments, created_at, risk or confirmation_policy.
      expect(firstError("ActionProposal", flat)).toMatchObject({ instancePath: "", keyword: "required", params: { missingProperty: "request_id" } });
    });
  }

  // Lift each fixture into a complete proposal, keeping the fixture's own values, to see which of
  // its verdicts are schema verdicts and which are runtime checks against a package and a clock.
  const lift = (fixture: ParityFixture, expiresAt: unknown): Record<string, unknown> => {
    const q = queryOf(fixture.url!);
    const proposal: Record<string, unknown> = {
      request_id: `req-${fixture.id}`,
      provider_id: q["provider_id"],
      agent_id: q["agent_id"],
      action_id: q["action_id"],
      tool_name: `app_action_${q["action_id"]}`,
      arguments: {},
      created_at: "2001-09-09T01:46:40Z",
      expires_at: expiresAt,
      risk: "high",
      confirmation_policy: "provider_required",
    };
    if (q["nonce"] !== undefined) proposal["nonce"] = q["nonce"];
    if (q["idempotency_key"] !== undefined) proposal["idempotency_key"] = q["idempotency_key"];
    return proposal;
  };
  const rfc3339 = (epochSeconds: string): string => new Date(Number(epochSeconds) * 1000).toISOString().replace(".000Z", "Z");

  for (const fixture of proposalFixtures) {
    it(`${fixture.id}: epoch-second expires_at is rejected (divergence parity-fixture-epoch-expiry)`, () => {
      const epoch = queryOf(fixture.url!)["expires_at"]!;
      const asNumber = lift(fixture, Number(epoch));
      const asString = lift(fixture, epoch);
      const missing = fixture.failure_reason === "missing_nonce" ? "nonce" : fixture.failure_reason === "missing_idempotency_key" ? "idempotency_key" : undefined;
      if (missing) {
        expect(firstError("ActionProposal", asNumber)).toMatchObject({ instancePath: "", keyword: "required", params: { missingProperty: missing } });
      } else {
        expect(firstError("ActionProposal", asNumber)).toMatchObject({ instancePath: "/expires_at", keyword: "type" });
        expect(firstError("ActionProposal", asString)).toMatchObject({ instancePath: "/expires_at", keyword: "pattern" });
      }
    });

    it(`${fixture.id}: with an RFC 3339 expires_at the schema verdict matches the fixture only for missing fields`, () => {
      const lifted = lift(fixture, rfc3339(queryOf(fixture.url!)["expires_at"]!));
      if (fixture.failure_reason === "missing_nonce") {
        expect(firstError("ActionProposal", lifted)).toMatchObject({ keyword: "required", params: { missingProperty: "nonce" } });
      } else if (fixture.failure_reason === "missing_idempotency_key") {
        expect(firstError("ActionProposal", lifted)).toMatchObject({ keyword: "required", params: { missingProperty: "idempotency_key" } });
      } else {
        // valid_proposal passes; provider/agent mismatch and expiry are runtime checks against the
        // package and the clock (lifecycle provider-proposal-handling), not schema errors.
        expectValid("ActionProposal", lifted);
      }
    });
  }

  it("failure_reason values map to the spec's codes (divergence parity-fixture-failure-codes)", () => {
    const protocol = parseYaml(readFileSync(new URL("../../spec/agent-provider/protocol.yaml", import.meta.url), "utf8")) as {
      constants: { group: string; items: { value: unknown }[] }[];
    };
    const codes = new Set(protocol.constants.find((g) => g.group === "ProposalValidationCodes")!.items.map((i) => i.value));
    const specCode: Record<string, string> = {
      provider_id_mismatch: "provider_mismatch",
      agent_id_mismatch: "agent_mismatch",
      replay_detected: "replayed",
      missing_nonce: "missing_nonce",
      missing_idempotency_key: "missing_idempotency_key",
      expired: "expired",
      missing_request_id: "missing_request_id",
    };
    for (const fixture of parityFixtures) {
      if (fixture.failure_reason === null) continue;
      const code = specCode[fixture.failure_reason];
      expect(code, fixture.failure_reason).toBeDefined();
      expect(codes.has(code), code).toBe(true);
    }
    for (const notACode of ["provider_id_mismatch", "agent_id_mismatch", "replay_detected"]) expect(codes.has(notACode)).toBe(false);
  });

  for (const fixture of triggerFixtures) {
    it(`${fixture.id}: the fixture's trigger object is not an AgentTriggerRequest (divergence parity-fixture-trigger-fields)`, () => {
      const raw = { provider_id: fixture.provider_id, agent_id: fixture.agent_id, action_id: fixture.action_id, request_id: fixture.request_id, input: fixture.input };
      expect(firstError("AgentTriggerRequest", raw).keyword).toBe("required");
    });
  }

  it("trigger fixtures lifted into real trigger fields: valid and replay pass the schema, a null request_id does not", () => {
    const base = signatureVectors.find((v) => v.name === "rust_core_trigger_accept")!.signed_object;
    for (const fixture of triggerFixtures) {
      const lifted = { ...base, provider_id: fixture.provider_id, agent_id: fixture.agent_id, request_id: fixture.request_id, idempotency_key: fixture.request_id ?? "k", payload: fixture.input };
      if (fixture.failure_reason === "missing_request_id") {
        expect(firstError("AgentTriggerRequest", lifted)).toMatchObject({ instancePath: "/request_id", keyword: "type" });
      } else {
        // trigger_replay fails only against the host's consumed set (lifecycle trigger-handling).
        expectValid("AgentTriggerRequest", lifted);
      }
    }
  });
});
