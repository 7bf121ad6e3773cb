// Realistic inputs, taken from the real vectors where there are some: a signed ActionProposal and
// AgentTriggerRequest (property-tests/vectors/agent-provider), connector packages
// (property-tests/vectors/agent-connector/generated), a multi-turn WorkflowRequest built from the
// spec's own example, and a 1 MiB document made of those.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SignatureVector {
  name: string;
  kind: "trigger" | "proposal";
  secret_utf8: string;
  signing_input: string;
  expected_signature: string;
  signed_object: JsonObject;
}

function readJson(path: string): Json {
  return JSON.parse(readFileSync(`${ROOT}/${path}`, "utf8")) as Json;
}

const signatureVectors = (readJson("property-tests/vectors/agent-provider/computed_signature_vectors.json") as unknown as { vectors: SignatureVector[] }).vectors;

function vector(name: string): SignatureVector {
  const found = signatureVectors.find((v) => v.name === name);
  if (found === undefined) throw new Error(`no signature vector ${name}`);
  return found;
}

/** A real signed trigger (Napaxi Rust core test) with its secret and signing input. */
export const signedTrigger = vector("rust_core_trigger_accept");
/** A real signed proposal (Rust-style, fixed ids; 714 bytes). */
export const signedProposal = vector("rust_style_proposal_fixed_ids");

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export const proposal: JsonObject = clone(signedProposal.signed_object);
/** Fails late (the enum of `risk`, after every earlier field is checked). */
export const invalidProposal: JsonObject = { ...clone(proposal), risk: "HIGH" };

/** The spec's three-turn example grown to a realistic conversation, streaming, with a user id. */
export const workflowRequest: JsonObject = {
  messages: [
    { role: "user", content: "Show me ticket TKT-1001" },
    { role: "assistant", content: "TKT-1001 (\"Checkout fails for EU cards\") is open, priority medium, assigned to the payments team." },
    { role: "user", content: "Who reported it and when?" },
    { role: "assistant", content: "It was reported by Jana Nováková on 2026-05-20 at 09:14 UTC through the support portal." },
    { role: "user", content: "Change TKT-1001 to high and add a note that it blocks the release." },
  ],
  stream: true,
  user: "CASE-1",
};
/** Fails in the last message (a `tool` role, which the protocol refuses). */
export const invalidWorkflowRequest: JsonObject = (() => {
  const copy = clone(workflowRequest);
  ((copy["messages"] as JsonObject[])[4] as JsonObject)["role"] = "tool";
  return copy;
})();

const CONNECTOR_VECTORS = "property-tests/vectors/agent-connector/generated";
export const connectorPackageText = readFileSync(`${ROOT}/${CONNECTOR_VECTORS}/valid/http-json-test.package.json`);
export const connectorPackage = JSON.parse(connectorPackageText.toString("utf8")) as JsonObject;
/**
 * A real invalid vector the schema itself refuses, deep in provider.config (an executable field
 * the local-echo config does not allow), so ajv alone gives the same verdict. (The plain-http
 * endpoint vector used before is now refused by a cross-field rule, which ajv does not run.)
 */
export const invalidConnectorPackage = readJson(`${CONNECTOR_VECTORS}/invalid/executable-in-provider-config.package.json`) as JsonObject;

/**
 * About 1 MiB of JSON: proposals and connector packages with varied ids, amounts (fractions and
 * integers), non-ASCII text and escapes, as a parsed document (no shared sub-objects).
 */
function buildLarge(targetBytes: number): JsonObject {
  const items: Json[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const p = clone(proposal);
    p["request_id"] = `req-${i.toString(16).padStart(8, "0")}-4111-8111-111111111111`;
    p["arguments"] = { amount: Math.round(i * 137.37) / 100, quantity: i % 97, note: `Überweisung №${i} — “quoted” \\ tab\there`, tags: ["order", `batch-${i % 13}`] };
    const item: JsonObject = i % 3 === 0 ? { kind: "package", value: clone(connectorPackage) } : { kind: "proposal", value: p };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return clone({ schema: "bench-large-v1", count: items.length, items });
}

export const large: JsonObject = buildLarge(1024 * 1024);

export const utf8 = (value: Json): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
export const bytes = {
  small: utf8(proposal),
  medium: new Uint8Array(connectorPackageText),
  large: utf8(large),
};
