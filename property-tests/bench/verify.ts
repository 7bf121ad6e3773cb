// verify of a real signed message vs the limit: one HMAC-SHA256 over the already-built signing
// input plus a constant-time compare, with node:crypto directly.
import * as nodeCrypto from "node:crypto";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { agentProvider, HmacSha256Key } from "../../generated/ts/index.js";
import { clone, signedProposal, signedTrigger } from "./fixtures.js";
import { measure, type MeasureOptions } from "./measure.js";
import type { AreaTable, CaseRow } from "./table.js";

const OURS = "verifyXSignature";
const RAW = "createHmac over signing input";
const FLOOR = "+ SHA-256 of payload JCS";

// One-shot crypto.hash (Node >= 20.12) when present: the cheapest SHA-256 node:crypto offers.
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: "base64") => string }).hash;
const sha256Base64 = oneShot !== undefined ? (text: string) => oneShot("sha256", text, "base64") : (text: string) => createHash("sha256").update(text).digest("base64");

export async function verifyArea(options: MeasureOptions): Promise<AreaTable> {
  const cases = [
    { label: "AgentTriggerRequest (real vector)", vector: signedTrigger, verify: agentProvider.verifyAgentTriggerRequestSignature },
    { label: "ActionProposal (real vector)", vector: signedProposal, verify: agentProvider.verifyActionProposalSignature },
  ];
  const rows: CaseRow[] = [];
  for (const c of cases) {
    const message = clone(c.vector.signed_object);
    const secret = c.vector.secret_utf8;
    // A receiver prepares its key once per install binding and verifies many messages with it.
    const key = new HmacSha256Key(secret);
    const input = c.vector.signing_input;
    const expected = Buffer.from(c.vector.expected_signature, "base64");
    const result = c.verify(message as never, key);
    if (!result.ok) throw new Error(`${c.label}: ${result.error.message}`);
    const raw = (): boolean => timingSafeEqual(createHmac("sha256", secret).update(input).digest(), expected);
    // The least any verifier must do with this message: hash the hashed field's canonical text too.
    const canonicalBody = (c.vector as unknown as { canonical_body_json: string }).canonical_body_json;
    const floor = (): boolean => sha256Base64(canonicalBody).length > 0 && raw();
    if (!raw()) throw new Error(`${c.label}: raw HMAC does not match the vector`);
    const series = await measure(
      [
        { impl: OURS, fn: () => c.verify(message as never, key) },
        { impl: RAW, fn: raw },
        { impl: FLOOR, fn: floor },
      ],
      options,
    );
    rows.push({ label: c.label, series });
  }
  return {
    title: "Signature verify (hmac-sha256-v1)",
    ours: OURS,
    impls: [OURS, RAW, FLOOR],
    ratios: [
      { anchor: RAW, kind: "slowdown" },
      { anchor: FLOOR, kind: "slowdown", goal: 1.15 },
    ],
    rows,
    notes: [
      "Ours does everything a receiver must: checks the algorithm field, strictly decodes the base64 signature, builds the signing input with the function generated from the x-signature declaration (including SHA-256 over the JCS of the hashed field), HMACs with the receiver's prepared HmacSha256Key (made once per key, not per message) and compares in constant time. " +
        "Under Node the runtime hashes with node:crypto (its `#sha256-backend` import resolves to runtime/sha256-node.js under the `node` condition), as the anchors do; browsers and other runtimes get @noble/hashes (plain JavaScript, about 2x slower per hash here). The anchor gets the finished signing input for free. " +
        "`+ SHA-256 of payload JCS` also hashes the already canonical payload text (one-shot crypto.hash), the one step no verifier of these messages can skip: it is the floor.",
    ],
  };
}
