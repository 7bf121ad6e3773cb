// The signing-input functions generated from each x-signature declaration, and prepared HMAC keys.
// Oracles: the outside and spec vectors (signing inputs and verdicts written down by the real
// implementations and Python's hmac), Python's hmac for prepared keys, and the runtime's
// declaration interpreter (hmacV1SigningInput) for the same first error on broken messages.
import { describe, expect, it } from "vitest";
// The prepared key of the generated package's own runtime copy: the generated verify functions test for that class.
import { HmacSha256Key } from "../../generated/ts/runtime/crypto.js";
import type { JsonObject, JsonValue } from "../../generators/targets/ts/runtime/src/json-value.js";
import { type HmacSha256V1Declaration, type HmacV1InputResult, hmacV1SigningInput } from "../../generators/targets/ts/runtime/src/signing-hmac-v1.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";
import * as agentProvider from "../../generated/ts/agent-provider/signing.js";
import { readJson } from "./helpers.js";

type Kind = "ActionProposal" | "AgentTriggerRequest";
const generated: Record<Kind, { declaration: HmacSha256V1Declaration; input: (m: JsonObject) => HmacV1InputResult; verify: (m: JsonObject, k: string | Uint8Array | HmacSha256Key) => { ok: boolean; error?: { code: string } } }> = {
  ActionProposal: {
    declaration: agentProvider.ACTION_PROPOSAL_SIGNATURE,
    input: agentProvider.buildActionProposalSigningInput,
    verify: agentProvider.verifyActionProposalSignature as never,
  },
  AgentTriggerRequest: {
    declaration: agentProvider.AGENT_TRIGGER_REQUEST_SIGNATURE,
    input: agentProvider.buildAgentTriggerRequestSigningInput,
    verify: agentProvider.verifyAgentTriggerRequestSignature as never,
  },
};
const outside = readJson("property-tests/vectors/agent-provider/computed_signature_vectors.json");
const spec = readJson("spec/agent-provider/vectors/hmac-sha256-v1.json");

function wire(message: unknown): JsonObject {
  const parsed = parseStrictJson(JSON.stringify(message));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value as JsonObject;
}

const verdict = (result: { ok: boolean; error?: { code: string } }): string => (result.ok ? "valid" : result.error!.code);

describe("generated signing inputs on the vectors", () => {
  const mustFail = new Set(["divergence_slash_escaped", "divergence_integral_double_rust"]);
  for (const v of outside.vectors) {
    const kind: Kind = v.kind === "proposal" ? "ActionProposal" : "AgentTriggerRequest";
    it(`outside ${v.name}: the vector's signing input and verdict, with a string and a prepared key`, () => {
      const message = wire(v.signed_object);
      if (!mustFail.has(v.name)) expect(generated[kind].input(message)).toEqual({ ok: true, input: v.signing_input });
      const expected = mustFail.has(v.name) ? "signature-mismatch" : "valid";
      expect(verdict(generated[kind].verify(message, v.secret_utf8))).toBe(expected);
      expect(verdict(generated[kind].verify(message, new HmacSha256Key(v.secret_utf8)))).toBe(expected);
    });
  }
  for (const c of spec.cases) {
    it(`spec ${c.name} -> ${c.expect}, with a string and a prepared key`, () => {
      const message = wire(c.message);
      const g = generated[c.message_type as Kind];
      if (c.expected_signing_input !== undefined) expect(g.input(message)).toEqual({ ok: true, input: c.expected_signing_input });
      expect(verdict(g.verify(message, c.key_utf8))).toBe(c.expect);
      expect(verdict(g.verify(message, new HmacSha256Key(c.key_utf8)))).toBe(c.expect);
    });
  }
});

describe("generated signing inputs against the declaration interpreter", () => {
  // Every covered field of a real vector message removed, or replaced by each JSON kind (and by a
  // value with no JCS form): the same text or the same first error, code and message.
  const replacements: unknown[] = [null, 0, 1.5, true, "", "x\ny=z", [], [1, "a"], {}, { b: 1, a: [null] }, Number.POSITIVE_INFINITY];
  for (const kind of ["ActionProposal", "AgentTriggerRequest"] as const) {
    const g = generated[kind];
    const base = wire(outside.vectors.find((v: any) => (v.kind === "proposal") === (kind === "ActionProposal")).signed_object);
    it(`${kind}: every covered field absent or of every kind`, () => {
      let checked = 0;
      for (const line of g.declaration.lines) {
        const without = { ...base };
        delete without[line.field];
        expect(g.input(without)).toEqual(hmacV1SigningInput(g.declaration, without));
        for (const value of replacements) {
          const changed = { ...base, [line.field]: value as JsonValue };
          expect(g.input(changed)).toEqual(hmacV1SigningInput(g.declaration, changed));
          checked++;
        }
      }
      expect(checked).toBe(g.declaration.lines.length * replacements.length);
    });
    it(`${kind}: two broken fields report the first line's`, () => {
      const lines = g.declaration.lines;
      const broken = { ...base, [lines[1]!.field]: 7, [lines[lines.length - 1]!.field]: 8 } as JsonObject;
      const result = g.input(broken);
      expect(result).toEqual(hmacV1SigningInput(g.declaration, broken));
      expect(!result.ok && result.error.message).toContain(lines[1]!.field);
    });
    it(`${kind}: a non-object is refused like the interpreter does`, () => {
      for (const value of [null, [], "text", 3]) expect(g.input(value as never)).toEqual(hmacV1SigningInput(g.declaration, value as never));
    });
  }
});

describe("prepared keys through the generated verify functions", () => {
  it("an empty prepared key is refused like an empty string", () => {
    const message = wire(outside.vectors[0].signed_object);
    const g = generated[outside.vectors[0].kind === "proposal" ? "ActionProposal" : "AgentTriggerRequest"];
    expect(verdict(g.verify(message, new HmacSha256Key("")))).toBe("key-missing");
    expect(verdict(g.verify(message, ""))).toBe("key-missing");
  });
});
