// Structure-aware fuzzing with a fixed seed: hostile JSON (deep nesting, huge numbers, surrogates,
// a BOM, invalid UTF-8, duplicate keys, long strings) into the strict parser, every generated
// validator, signature verification, content ids and the lifecycle machines. Nothing may throw;
// each input gets a typed verdict. `make test` runs a bounded count; `make fuzz` sets FUZZ_RUNS.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentConnector, agentProvider, agentService, listMessages, parseMessage, providerIntegration } from "../../generated/ts/index.js";
import type { Machine } from "../../generators/targets/ts/runtime/src/lifecycle-runner.js";
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
  it("the lifecycle machines refuse or transition for any state, event and guards of their own, guarded transitions included", () => {
    type AnyMachine = Machine<string, string, string, string>;
    // Each lifecycle namespace exports its machine as <camelName>Machine, beside the bound helpers.
    const machines = [agentConnector, agentProvider, agentService, providerIntegration].flatMap((p) =>
      Object.entries((p as unknown as { lifecycles: Record<string, Record<string, unknown>> }).lifecycles ?? {}).map(([name, ns]) => ns[`${name}Machine`] as AnyMachine));
    expect(machines.length).toBeGreaterThan(3);
    const guarded = machines.flatMap((m) => m.definition.transitions.filter((t) => t.guards.length > 0).map((t) => ({ m, t })));
    expect(guarded.length).toBeGreaterThan(10);
    // Guard values under the machine's own guard names (a random name is never one of them, so
    // every guarded transition would be refused as guard_missing), plus a stray name now and then.
    const guardsOf = (m: AnyMachine, bits: boolean[], stray: string): Record<string, boolean> =>
      Object.fromEntries([...m.definition.guards.flatMap((g, i) => (i < bits.length ? [[g, bits[i]!] as const] : [])), [stray, true] as const]);
    const fired = new Set<string>();
    const input = fc.oneof(
      fc.record({ mi: fc.nat(), si: fc.nat(), ei: fc.nat() }).map(({ mi, si, ei }) => {
        const m = machines[mi % machines.length]!;
        return { m, state: m.definition.states[si % m.definition.states.length]!, event: m.definition.events[ei % m.definition.events.length]! };
      }),
      // A guarded transition's own (from, event): its guards decide.
      fc.nat().map((k) => {
        const { m, t } = guarded[k % guarded.length]!;
        return { m, state: t.from, event: t.event };
      }),
    );
    fc.assert(fc.property(input, fc.array(fc.boolean(), { maxLength: 12 }), fc.string({ maxLength: 20 }), ({ m, state, event }, bits, stray) => {
      const outcome = m.transition(state, event, guardsOf(m, bits, stray));
      expect(typeof outcome === "object" && outcome !== null).toBe(true);
      if (outcome.ok) {
        const taken = m.definition.transitions.filter((t) => t.from === state && t.event === event && t.to === outcome.state && t.guards.length > 0);
        if (taken.length > 0) fired.add(`${m.definition.protocol}/${m.definition.name} ${state} ${event}`);
      }
    }), OPTIONS);
    // With the machines' own guard names, a fair share of the guarded transitions fire.
    expect(fired.size).toBeGreaterThanOrEqual(Math.min(10, guarded.length));
  });
});
