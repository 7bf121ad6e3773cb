// Structure-aware fuzzing with a fixed seed: hostile JSON (deep nesting, huge numbers, surrogates,
// a BOM, invalid UTF-8, duplicate keys, long strings) into the strict parser, every generated
// validator, signature verification, content ids and the lifecycle machines. Nothing may throw;
// each input gets a typed verdict. `make test` runs a bounded count; `make fuzz` sets FUZZ_RUNS.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentConnector, agentProvider, agentService, listMessages, parseMessage, providerIntegration } from "../../generated/ts/index.js";
import { parseStrictJson } from "../../generators/targets/ts/runtime/src/strict-json.js";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 200);
const SEED = Number(process.env["FUZZ_SEED"] ?? 20261201);
const OPTIONS = { numRuns: RUNS, seed: SEED };

const enc = new TextEncoder();
const leaf = fc.oneof(
  fc.constantFrom("1e19", "-1e400", "1e400", "9007199254740993", "-0", "0.1", "true", "null", '"\\ud800"', '"\\udc00\\ud800"', '"\\u0000"', '"é😀"'),
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.integer({ min: 1, max: 3000 }).map((n) => JSON.stringify("a+b-".repeat(n))),
  fc.integer({ min: 60, max: 300 }).map((n) => "[".repeat(n) + "]".repeat(n)),
);
const key = fc.oneof(fc.constantFrom("a", "\\u0061", "protocol_version", "label", "type", "request_id", "expires_at", "__proto__"), fc.string({ maxLength: 6 }));
const json = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, leaf,
    fc.array(tie("node"), { maxLength: 5 }).map((xs) => `[${xs.join(",")}]`),
    fc.array(fc.tuple(key, tie("node")), { maxLength: 6 }).map((kv) => `{${kv.map(([k, v]) => `${k.startsWith("\\") ? `"${k}"` : JSON.stringify(k)}:${v}`).join(",")}}`)),
})).node as fc.Arbitrary<string>;
/** Bytes: the text, sometimes with a BOM, an invalid UTF-8 byte or a cut-off end. */
const bytes = fc.tuple(json, fc.constantFrom("none", "bom", "ff", "cut", "overlong")).map(([text, damage]) => {
  const b = enc.encode(text);
  switch (damage) {
    case "bom": return new Uint8Array([0xef, 0xbb, 0xbf, ...b]);
    case "ff": return new Uint8Array([...b.slice(0, b.length >> 1), 0xff, ...b.slice(b.length >> 1)]);
    case "cut": return b.slice(0, Math.max(0, b.length - 1));
    case "overlong": return new Uint8Array([...b, 0xc0, 0xaf]);
    default: return b;
  }
});
const messages = listMessages();
/** A message's own shape with hostile members: objects whose keys are the schema's own. */
const messageInput = fc.tuple(fc.constantFrom(...messages), fc.array(fc.tuple(key, json), { maxLength: 6 })).map(([m, members]) => ({
  m, text: `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`,
}));

describe(`fuzz (${RUNS} runs, seed ${SEED})`, () => {
  it("the strict parser returns a value or a typed error for any bytes", () => {
    fc.assert(fc.property(bytes, (b) => {
      const r = parseStrictJson(b);
      return r.ok || typeof r.error.code === "string";
    }), OPTIONS);
  });
  it("every generated validator gives a verdict, never an exception", () => {
    fc.assert(fc.property(fc.constantFrom(...messages), bytes, (m, b) => {
      const r = parseMessage(m.protocol, m.name, b);
      return r.ok || (r.errors.length > 0 && typeof r.errors[0]!.keyword === "string");
    }), OPTIONS);
    fc.assert(fc.property(messageInput, ({ m, text }) => {
      const r = parseMessage(m.protocol, m.name, text);
      return r.ok || r.errors.length > 0;
    }), OPTIONS);
  });
  it("signature verification and approval tokens give typed results for hostile messages and keys", () => {
    const keyArb = fc.oneof(fc.constant(""), fc.string({ maxLength: 40 }));
    fc.assert(fc.property(json, keyArb, (text, k) => {
      const parsed = parseStrictJson(text);
      const value = parsed.ok ? parsed.value : {};
      for (const verify of [agentProvider.verifyActionProposalSignature, agentProvider.verifyAgentTriggerRequestSignature]) {
        const r = verify(value as never, k);
        if (!r.ok && typeof r.error.code !== "string") return false;
      }
      const token = agentService.decodeApprovalTokenClaimsToken(text, k, Date.parse("2026-05-27T00:00:00Z"));
      return token.ok || typeof token.error.code === "string";
    }), OPTIONS);
  });
  it("content ids (agent-contracts id) give a typed result for hostile records", () => {
    fc.assert(fc.property(bytes, (b) => {
      const r = agentConnector.importConnectorManifest(b);
      return typeof r.ok === "boolean";
    }), OPTIONS);
  });
  it("the lifecycle machines refuse or transition for any state, event and guards of their own", () => {
    const machines = [agentConnector, agentProvider, agentService, providerIntegration].flatMap((p) =>
      Object.values((p as unknown as { lifecycles: Record<string, { states: readonly string[]; events: readonly string[]; transition: (s: string, e: string, g?: object) => { ok?: boolean } }> }).lifecycles ?? {}));
    expect(machines.length).toBeGreaterThan(3);
    fc.assert(fc.property(fc.nat(), fc.nat(), fc.nat(), fc.dictionary(fc.string({ maxLength: 20 }), fc.boolean(), { maxKeys: 4 }), (mi, si, ei, guards) => {
      const m = machines[mi % machines.length]!;
      const outcome = m.transition(m.states[si % m.states.length]!, m.events[ei % m.events.length]!, guards);
      return typeof outcome === "object" && outcome !== null;
    }), OPTIONS);
  });
});
