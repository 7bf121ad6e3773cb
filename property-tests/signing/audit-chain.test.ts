// The connector audit chain: reference logs, shared spec vectors, and properties: every
// single-entry mutation and every truncation is detected when the head is kept apart.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import {
  type AuditHead,
  CONNECTOR_AUDIT_CHAIN,
  CONNECTOR_AUDIT_LOG,
  appendAuditEntry,
  verifyAuditChain,
  verifyAuditLog,
} from "../../generators/targets/ts/runtime/src/audit-chain.js";
import type { JsonObject, JsonValue } from "../../generators/targets/ts/runtime/src/json-value.js";
import { OUTSIDE, ijsonValue, readJson } from "./helpers.js";

const spec = readJson("spec/agent-connector/vectors/audit-chain.json");

describe("reference audit logs (Meldwork generated/audit)", () => {
  for (const name of ["lifecycle.audit.jsonl", "upgrade.audit.jsonl"]) {
    it(`${name} verifies and its head is its last entry`, () => {
      const text = readFileSync(`${OUTSIDE}agent-connector/generated/audit/${name}`, "utf8");
      const lines = text.split("\n").filter(Boolean);
      const last = JSON.parse(lines[lines.length - 1] as string);
      const result = verifyAuditLog(CONNECTOR_AUDIT_CHAIN, text, { sequence: lines.length, eventId: last.eventId });
      expect(result).toEqual({ ok: true, head: { sequence: lines.length, eventId: last.eventId } });
    });
  }
  it("rebuilding the lifecycle log with appendAuditEntry gives the same event ids", () => {
    const lines = readFileSync(`${OUTSIDE}agent-connector/generated/audit/lifecycle.audit.jsonl`, "utf8").split("\n").filter(Boolean);
    let head: AuditHead | null = null;
    for (const line of lines) {
      const original = JSON.parse(line);
      const { eventId, previousEventId, sequence, ...body } = original;
      const next = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, head, body);
      expect(next.entry.eventId).toBe(eventId);
      head = next.head;
    }
  });
});

describe("spec/agent-connector/vectors/audit-chain.json", () => {
  expect(spec.declaration).toEqual(CONNECTOR_AUDIT_CHAIN);
  for (const c of spec.cases) {
    it(`${c.name} -> ${c.expect}`, () => {
      const result = verifyAuditChain(spec.declaration, c.entries, c.head);
      expect(result.ok ? "valid" : result.error.code).toBe(c.expect);
    });
  }
});

function buildChain(bodies: JsonObject[]): { entries: JsonObject[]; head: AuditHead | null } {
  let head: AuditHead | null = null;
  const entries: JsonObject[] = [];
  for (const body of bodies) {
    const next = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, head, body);
    entries.push(next.entry);
    head = next.head;
  }
  return { entries, head };
}

const body = fc.record({ action: fc.constantFrom("imported", "approved", "installed", "disabled"), details: fc.dictionary(fc.string({ maxLength: 4 }), ijsonValue(1), { maxKeys: 2 }), timestamp: fc.string({ maxLength: 8 }) }) as fc.Arbitrary<JsonObject>;
const chain = fc.array(body, { minLength: 1, maxLength: 8 }).map(buildChain);
const RUNS = { numRuns: 200 };

describe("audit chain properties", () => {
  it("a built chain verifies against its head", () => {
    fc.assert(fc.property(chain, ({ entries, head }) => verifyAuditChain(CONNECTOR_AUDIT_CHAIN, entries, head).ok), RUNS);
  });
  it("every single-entry edit is detected", () => {
    fc.assert(fc.property(chain, fc.nat(), fc.constantFrom("action", "timestamp", "details", "sequence", "previousEventId", "eventId", "newField"), ijsonValue(1), ({ entries, head }, at, field, value) => {
      const index = at % entries.length;
      const original = entries[index] as JsonObject;
      fc.pre(JSON.stringify(original[field]) !== JSON.stringify(value));
      const edited = entries.map((e, i) => (i === index ? { ...e, [field]: value as JsonValue } : e));
      return !verifyAuditChain(CONNECTOR_AUDIT_CHAIN, edited, head).ok;
    }), RUNS);
  });
  it("every reorder, insertion and deletion is detected", () => {
    fc.assert(fc.property(chain, fc.nat(), fc.nat(), fc.constantFrom("swap", "insert", "delete"), ({ entries, head }, a, b, kind) => {
      const i = a % entries.length;
      const j = b % entries.length;
      const changed = [...entries];
      if (kind === "swap") {
        fc.pre(i !== j);
        [changed[i], changed[j]] = [changed[j] as JsonObject, changed[i] as JsonObject];
      } else if (kind === "insert") changed.splice(i, 0, entries[j] as JsonObject);
      else changed.splice(i, 1);
      return !verifyAuditChain(CONNECTOR_AUDIT_CHAIN, changed, head).ok;
    }), RUNS);
  });
  it("every truncation is detected with the stored head, and none without it", () => {
    fc.assert(fc.property(chain, fc.nat(), ({ entries, head }, n) => {
      const keep = n % entries.length; // 0 .. length-1 entries survive
      const truncated = entries.slice(0, keep);
      const withHead = verifyAuditChain(CONNECTOR_AUDIT_CHAIN, truncated, head);
      const withoutHead = verifyAuditChain(CONNECTOR_AUDIT_CHAIN, truncated);
      return !withHead.ok && withHead.error.code === "head-mismatch" && withoutHead.ok;
    }), RUNS);
  });
});

describe("spec/agent-connector/vectors/audit-log.json (links and trust lifecycle)", () => {
  const log = readJson("spec/agent-connector/vectors/audit-log.json");
  it("declares the runtime's CONNECTOR_AUDIT_LOG", () => expect(log.declaration).toEqual(CONNECTOR_AUDIT_LOG));
  for (const c of log.cases) {
    it(`${c.name} -> ${c.expect}`, () => {
      const result = verifyAuditLog(CONNECTOR_AUDIT_LOG, c.text, c.head);
      expect(result.ok ? "valid" : result.error.code).toBe(c.expect);
    });
  }
  it("every class of refusal has a case", () => {
    const codes = new Set(log.cases.map((c: { expect: string }) => c.expect));
    for (const code of ["valid", "log-empty", "line-unterminated", "entry-invalid", "transition-invalid", "details-invalid", "head-mismatch", "event-id-mismatch"]) expect(codes).toContain(code);
  });

  it("the lifecycle table is the trust machine's: one transition per audit effect", () => {
    const machine = parseYaml(readFileSync("spec/agent-connector/lifecycles/trust.machine.yaml", "utf8")) as {
      initial: string;
      transitions: { from: string | string[]; to: string; effects?: string[] }[];
    };
    const derived: Record<string, { from: string[]; to: string }> = { [machine.initial]: { from: [""], to: machine.initial } };
    for (const t of machine.transitions) {
      const audit = (t.effects ?? []).find((e) => e.startsWith("audit"));
      if (audit === undefined) continue;
      const action = audit.slice("audit".length).toLowerCase();
      derived[action] = { from: ([] as string[]).concat(t.from), to: t.to };
    }
    const table = Object.fromEntries(Object.entries(CONNECTOR_AUDIT_LOG.lifecycle!.transitions).map(([a, t]) => [a, { from: t.from, to: t.to }]));
    expect(table).toEqual(derived);
  });
});
