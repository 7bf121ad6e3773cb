// What the browser (and Node, and Bun) consumer runs: the shared vectors through the published
// package's entry points only (@agent-contracts/bindings and its subpaths), reporting what the
// bindings answered for each case. It computes no expectation: the test compares these answers
// with the verdicts written in spec/*/vectors, the lifecycle paths files and the spec's examples.
import { decodeApprovalToken, parseStrictJson, sha256Hex, verifyApprovalToken, canonicalize, hexDecode } from "@agent-contracts/bindings";
import { lifecycles as connectorLifecycles, computeConnectorManifestId, computeConnectorPackageId } from "@agent-contracts/bindings/agent-connector";
import {
  computeActionProposalSignature,
  computeAgentTriggerRequestSignature,
  lifecycles as providerLifecycles,
  verifyActionProposalSignature,
  verifyAgentTriggerRequestSignature,
} from "@agent-contracts/bindings/agent-provider";
import { lifecycles as serviceLifecycles } from "@agent-contracts/bindings/agent-service";
import { lifecycles as integrationLifecycles } from "@agent-contracts/bindings/provider-integration";
import { parseMessage } from "@agent-contracts/bindings/registry";
import type { JsonObject } from "@agent-contracts/bindings";

export interface VectorInput {
  strictJson: { name: string; input_hex: string }[];
  jcs: { name: string; input: string }[];
  hmac: { name: string; message_type: string; key_utf8: string; message: Record<string, unknown> }[];
  contentIds: { name: string; message_type: string; record: Record<string, unknown> }[];
  approvalTokens: { name: string; secret_utf8: string; token: string; now_unix_seconds: number; bindings?: Record<string, unknown> }[];
  lifecyclePaths: { protocol: string; lifecycle: string; cases: { id: string; steps: { event: string; guards: Record<string, boolean> }[] }[] }[];
  examples: { protocol: string; message: string; name: string; json: string }[];
}

/** One answer of the bindings: `suite/name` and what came back, in the vector files' own terms. */
export interface Answer {
  suite: string;
  name: string;
  actual: unknown;
}

type Step = { ok: boolean; state: string; effects?: readonly string[]; refusal?: string; guard?: string };
type LifecycleModule = { initialState: string; transition(state: string, event: string, guards?: Record<string, boolean>): Step };

const LIFECYCLES: Record<string, Record<string, unknown>> = {
  "agent-connector": connectorLifecycles,
  "agent-provider": providerLifecycles,
  "agent-service": serviceLifecycles,
  "provider-integration": integrationLifecycles,
};

// JSON text goes through the strict parser first, as on the wire.
function wire(value: unknown): JsonObject {
  const parsed = parseStrictJson(JSON.stringify(value));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value as JsonObject;
}

function withoutSignature(message: JsonObject): JsonObject {
  const { signature: _signature, signature_algorithm: _algorithm, ...unsigned } = message;
  return unsigned;
}

function camel(name: string): string {
  return name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

export function runVectors(input: VectorInput): Answer[] {
  const answers: Answer[] = [];
  const answer = (suite: string, name: string, actual: unknown): void => {
    answers.push({ suite, name, actual });
  };
  for (const c of input.strictJson) {
    const parsed = parseStrictJson(hexDecode(c.input_hex)!);
    answer("strict-json", c.name, parsed.ok ? "valid" : parsed.error.code);
  }
  for (const c of input.jcs) {
    const parsed = parseStrictJson(c.input);
    const canonical = parsed.ok ? canonicalize(parsed.value) : `error: ${parsed.error.code}`;
    answer("jcs", c.name, { canonical, sha256_hex: sha256Hex(canonical) });
  }
  for (const c of input.hmac) {
    const message = wire(c.message);
    const verified = c.message_type === "ActionProposal" ? verifyActionProposalSignature(message, c.key_utf8) : verifyAgentTriggerRequestSignature(message, c.key_utf8);
    const signed = c.message_type === "ActionProposal" ? computeActionProposalSignature(withoutSignature(message), c.key_utf8) : computeAgentTriggerRequestSignature(withoutSignature(message), c.key_utf8);
    answer("hmac-sha256-v1", c.name, { verdict: verified.ok ? "valid" : verified.error.code, signature: signed.ok ? signed.signature : signed.error.code });
  }
  for (const c of input.contentIds) {
    const record = wire(c.record);
    answer("content-ids", c.name, c.message_type === "ConnectorManifest" ? computeConnectorManifestId(record) : computeConnectorPackageId(record));
  }
  for (const c of input.approvalTokens) {
    const now = c.now_unix_seconds * 1000;
    const result = c.bindings === undefined ? decodeApprovalToken(c.token, c.secret_utf8, now) : verifyApprovalToken(c.token, c.secret_utf8, c.bindings as never, now);
    answer("approval-token", c.name, result.ok ? "valid" : result.error.code);
  }
  for (const file of input.lifecyclePaths) {
    const machine = LIFECYCLES[file.protocol]?.[camel(file.lifecycle)] as LifecycleModule | undefined;
    if (machine === undefined) throw new Error(`no lifecycle ${file.protocol}/${file.lifecycle} in the package`);
    for (const c of file.cases) {
      let state = machine.initialState;
      const steps = c.steps.map((step) => {
        const out = machine.transition(state, step.event, step.guards);
        state = out.state;
        if (out.ok) return { ok: true, state: out.state, effects: [...(out.effects ?? [])] };
        return out.guard === undefined ? { ok: false, state: out.state, refusal: out.refusal } : { ok: false, state: out.state, refusal: out.refusal, guard: out.guard };
      });
      answer(`lifecycle ${file.protocol}/${file.lifecycle}`, c.id, steps);
    }
  }
  for (const e of input.examples) {
    const result = parseMessage(e.protocol as never, e.message as never, e.json);
    const first = result.ok ? undefined : result.errors[0];
    answer(`examples ${e.protocol}/${e.message}`, e.name, first === undefined ? "valid" : { instancePath: first.instancePath, keyword: first.keyword, rule: first.params["rule"] });
  }
  return answers;
}
