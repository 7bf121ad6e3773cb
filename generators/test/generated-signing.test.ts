// The generated per-message security functions, on data nobody here wrote: the signature vectors
// computed from the real SDKs' tests and the records Meldwork's own parser judged.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-ignore: generated JavaScript with its own declarations
import { agentConnector, agentProvider, MemoryReplayStore } from "../../generated/ts/index.js";
import { REPO_ROOT } from "./fixture.js";

const VECTORS = `${REPO_ROOT}/property-tests/vectors`;

describe("agent-provider hmac-sha256-v1 through the generated verify functions", () => {
  const { vectors } = JSON.parse(readFileSync(`${VECTORS}/agent-provider/computed_signature_vectors.json`, "utf8")) as { vectors: { name: string; kind: string; secret_utf8: string; signed_object: Record<string, unknown> }[] };
  const mustFail = new Set(["divergence_slash_escaped", "divergence_integral_double_rust"]);
  it("reads all ten vectors", () => expect(vectors.length).toBe(10));
  for (const v of vectors) {
    it(`${v.name} ${mustFail.has(v.name) ? "does not verify (platform bug)" : "verifies"}`, () => {
      const verify = v.kind === "trigger" ? agentProvider.verifyAgentTriggerRequestSignature : agentProvider.verifyActionProposalSignature;
      const result = verify(v.signed_object as never, v.secret_utf8);
      expect(result.ok).toBe(!mustFail.has(v.name));
      if (!mustFail.has(v.name)) {
        // Signing the same object reproduces the signature the real SDK produced.
        const signed = (v.kind === "trigger" ? agentProvider.computeAgentTriggerRequestSignature : agentProvider.computeActionProposalSignature)(v.signed_object as never, v.secret_utf8);
        expect(signed.ok && signed.signature).toBe(v.signed_object["signature"]);
        expect(verify(v.signed_object as never, `${v.secret_utf8}x`).ok).toBe(false);
      }
    });
  }
});

describe("agent-connector import through the generated import functions", () => {
  const dir = `${VECTORS}/agent-connector/generated/invalid`;
  const expected = JSON.parse(readFileSync(`${dir}/EXPECTED.json`, "utf8")) as Record<string, string>;
  const REAL_CODE = { "json-invalid": "AGENT_CONNECTOR_PACKAGE_JSON_INVALID", "schema-invalid": "AGENT_CONNECTOR_PACKAGE_SCHEMA_INVALID", "id-mismatch": "AGENT_CONNECTOR_PACKAGE_ID_MISMATCH", "not-canonical": "AGENT_CONNECTOR_PACKAGE_JSON_NOT_CANONICAL" } as Record<string, string>;
  it("reads all 19 refused records", () => expect(Object.keys(expected).length).toBe(19));
  for (const [file, code] of Object.entries(expected)) {
    it(`${file} is refused with the real parser's code ${code}`, () => {
      const result = agentConnector.importConnectorPackage(readFileSync(`${dir}/${file}`));
      expect(result.ok).toBe(false);
      expect(REAL_CODE[result.ok ? "" : result.error.code]).toBe(code);
    });
  }
  const valid = JSON.parse(readFileSync(`${VECTORS}/agent-connector/generated/valid/EXPECTED.json`, "utf8")) as Record<string, { packageId?: string; manifestId: string }>;
  for (const [file, ids] of Object.entries(valid)) {
    it(`${file} imports with the reference ids`, () => {
      const bytes = readFileSync(`${VECTORS}/agent-connector/generated/valid/${file}`);
      const result = ids.packageId ? agentConnector.importConnectorPackage(bytes) : agentConnector.importConnectorManifest(bytes);
      expect(result.ok ? result.id : result.error).toBe(ids.packageId ?? ids.manifestId);
    });
  }
});

describe("agent-provider replay guards through the generated factories", () => {
  const { vectors } = JSON.parse(readFileSync(`${VECTORS}/agent-provider/computed_signature_vectors.json`, "utf8")) as { vectors: { name: string; signed_object: Record<string, unknown> }[] };
  const trigger = vectors.find((v) => v.name === "rust_core_trigger_accept")!.signed_object;
  const at = (iso: string) => () => Date.parse(iso);

  // The vector was signed with a years-long lifetime; x-replay's maxLifetimeSeconds (86400) admits
  // it only within its last day, and refuses it as lifetime-exceeded at created_at.
  const lastDay = new Date(Date.parse(String(trigger["expires_at"])) - 3_600_000).toISOString();
  it("admits a real signed trigger once (in its last day), then refuses it as replayed", async () => {
    const guard = agentProvider.createAgentTriggerRequestReplayGuard(new MemoryReplayStore(), at(lastDay));
    expect(await guard.admit(trigger as never)).toEqual({ ok: true });
    const again = await guard.admit(trigger as never);
    expect(again.ok ? undefined : again.error.code).toBe("replayed");
  });
  it("refuses it at created_at: it expires beyond maxLifetimeSeconds", async () => {
    const result = await agentProvider.createAgentTriggerRequestReplayGuard(new MemoryReplayStore(), at(String(trigger["created_at"]))).admit(trigger as never);
    expect(result.ok ? undefined : result.error.code).toBe("lifetime-exceeded");
  });
  it("refuses it after expires_at", async () => {
    const late = new Date(Date.parse(String(trigger["expires_at"])) + 1000).toISOString();
    const result = await agentProvider.createAgentTriggerRequestReplayGuard(new MemoryReplayStore(), at(late)).admit(trigger as never);
    expect(result.ok ? undefined : result.error.code).toBe("expired");
  });
});

describe("non-object input to the signing functions", () => {
  for (const input of [null, [], "text", 5, true]) {
    it(`${JSON.stringify(input)} is refused with not-an-object, never dereferenced`, () => {
      const verified = agentProvider.verifyActionProposalSignature(input as never, "secret");
      const signed = agentProvider.computeAgentTriggerRequestSignature(input as never, "secret");
      expect(verified.ok ? undefined : verified.error.code).toBe("not-an-object");
      expect(signed.ok ? undefined : signed.error.code).toBe("not-an-object");
    });
  }
});
