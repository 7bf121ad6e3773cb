// The audit chain's refusals, one per rule of research A4 ("Audit entry format", "Load and replay"):
// exact code, the 0-based index of the entry at fault and a message naming it. Entries are built
// here with the RFC 8785 oracle (canonicalize@2.1.0) and node:crypto, not with appendAuditEntry,
// which is checked against them.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type AuditHead,
  CONNECTOR_AUDIT_CHAIN,
  CONNECTOR_AUDIT_LOG,
  appendAuditEntry,
  computeAuditEventId,
  verifyAuditChain,
  verifyAuditLog,
} from "../../generators/targets/ts/runtime/src/audit-chain.js";
import type { JsonObject, JsonValue } from "../../generators/targets/ts/runtime/src/json-value.js";
import { oracleCanonicalize } from "../signing/helpers.js";

const PKG_A = `connector-package-${"a".repeat(64)}`;
const PKG_B = `connector-package-${"b".repeat(64)}`;
const idOf = (entry: Record<string, unknown>): string => {
  const { eventId: _drop, ...rest } = entry;
  return `connector-audit-${createHash("sha256").update(oracleCanonicalize(rest)!, "utf8").digest("hex")}`;
};
const DETAILS: Record<string, object> = { imported: { originFilename: "x.json", originSha256: "c".repeat(64) }, upgraded: { fromPackageId: PKG_B } };
/** A chain of [packageId, action] steps, each entry hashed and linked by hand. */
function chain(steps: [string, string, object?][]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [packageId, action, details] of steps) {
    const entry: Record<string, unknown> = {
      action,
      details: details ?? (Object.hasOwn(DETAILS, action) ? DETAILS[action] : {}),
      packageId,
      previousEventId: out.length === 0 ? "" : out[out.length - 1]!.eventId,
      recordType: "agent-connector-package-audit",
      schemaVersion: 1,
      sequence: out.length + 1,
      timestamp: "2026-08-10T00:00:00.000Z",
    };
    entry.eventId = idOf(entry);
    out.push(entry);
  }
  return out;
}
const rehash = (entries: Record<string, unknown>[]) => chain(entries.map((e) => [e.packageId as string, e.action as string, e.details as object]));
const jsonl = (entries: unknown[]) => entries.map((e) => oracleCanonicalize(e)).join("\n") + "\n";
const LIFE: [string, string][] = [[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "installed"], [PKG_A, "disabled"], [PKG_A, "installed"]];
const fail = (r: ReturnType<typeof verifyAuditChain>) => (r.ok ? ["ok"] : [r.error.code, r.error.index, r.error.message]);
const headOf = (entries: Record<string, unknown>[]): AuditHead => ({ sequence: entries.length, eventId: entries[entries.length - 1]!.eventId as string });

describe("building and verifying", () => {
  it("appendAuditEntry builds the hand-hashed entries; sequence from 1, genesis link empty", () => {
    const expected = chain(LIFE);
    let head: AuditHead | null = null;
    for (const [i, [packageId, action]] of LIFE.entries()) {
      const body = { action, details: DETAILS[action] ?? {}, packageId, recordType: "agent-connector-package-audit", schemaVersion: 1, timestamp: "2026-08-10T00:00:00.000Z", eventId: "ignored" };
      const next: { entry: JsonObject; head: AuditHead } = appendAuditEntry(CONNECTOR_AUDIT_LOG, head, body as JsonObject);
      expect(next.entry).toEqual(expected[i]);
      expect(next.head).toEqual({ sequence: i + 1, eventId: expected[i]!.eventId });
      expect(computeAuditEventId(CONNECTOR_AUDIT_LOG, next.entry)).toBe(expected[i]!.eventId);
      head = next.head;
    }
  });
  it("a valid log verifies, as entries and as JSON Lines, and reports its head", () => {
    const entries = chain(LIFE);
    expect(verifyAuditChain(CONNECTOR_AUDIT_LOG, entries as JsonValue[], headOf(entries))).toEqual({ ok: true, head: headOf(entries) });
    expect(verifyAuditLog(CONNECTOR_AUDIT_LOG, jsonl(entries), headOf(entries))).toEqual({ ok: true, head: headOf(entries) });
    expect(verifyAuditChain(CONNECTOR_AUDIT_LOG, entries as JsonValue[])).toEqual({ ok: true, head: headOf(entries) });
  });
  it("states are per package: two packages interleave; removed ends a package", () => {
    const entries = chain([[PKG_A, "imported"], [PKG_B, "imported"], [PKG_B, "approved"], [PKG_A, "revoked"], [PKG_B, "upgraded"], [PKG_A, "removed"]]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, entries as JsonValue[]))).toEqual(["ok"]);
    const after = chain([[PKG_A, "imported"], [PKG_A, "removed"], [PKG_A, "imported"]]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, after as JsonValue[]))).toEqual(["transition-invalid", 2, "imported is not allowed from removed (entry 3)"]);
  });
});

describe("the refusals (research A4 tamper table), with the entry at fault", () => {
  const good = chain(LIFE);
  it("an empty log: null head when none is stored, head-mismatch against a stored one", () => {
    expect(verifyAuditChain(CONNECTOR_AUDIT_LOG, [], null)).toEqual({ ok: true, head: null });
    expect(verifyAuditChain(CONNECTOR_AUDIT_LOG, [])).toEqual({ ok: true, head: null });
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, [], { sequence: 1, eventId: good[0]!.eventId as string }))).toEqual(["head-mismatch", 0, "log does not end at the stored head (entry 1)"]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, good as JsonValue[], null))[0]).toBe("head-mismatch");
  });
  it("tail truncation is caught by the head: wrong sequence or wrong id", () => {
    const short = good.slice(0, 3);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, short as JsonValue[], headOf(good)))).toEqual(["head-mismatch", 3, "log does not end at the stored head (entry 4)"]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, good as JsonValue[], { sequence: good.length, eventId: good[0]!.eventId as string }))[0]).toBe("head-mismatch");
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, good as JsonValue[], { sequence: good.length - 1, eventId: headOf(good).eventId }))[0]).toBe("head-mismatch");
  });
  it("not an object; sequence not the line number; broken link; non-empty genesis; edited field", () => {
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, [good[0], [1]] as JsonValue[]))).toEqual(["entry-invalid", 1, "entry is not an object (entry 2)"]);
    const seq = good.map((e, i) => (i === 1 ? { ...e, sequence: 3 } : e));
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, seq as JsonValue[]))).toEqual(["sequence-mismatch", 1, "sequence is not the entry's position (entry 2)"]);
    const swapped = [good[0], good[2], good[1]];
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, swapped as JsonValue[]))[0]).toBe("sequence-mismatch");
    const link = good.map((e, i) => (i === 2 ? { ...e, previousEventId: good[0]!.eventId } : e));
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, link as JsonValue[]))).toEqual(["previous-mismatch", 2, "link to the previous entry is broken (entry 3)"]);
    const genesis = [{ ...good[0], previousEventId: "x" }];
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, genesis as JsonValue[]))[0]).toBe("previous-mismatch");
    const edited = good.map((e, i) => (i === 1 ? { ...e, timestamp: "2026-08-10T00:00:01.000Z" } : e));
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, edited as JsonValue[]))).toEqual(["event-id-mismatch", 1, "entry id does not match its content (entry 2)"]);
  });
  it("an entry that is not JSON (a lone surrogate) is entry-invalid, not a crash", () => {
    const bad = [{ ...good[0], timestamp: "\ud800" }];
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_CHAIN, bad as JsonValue[]))).toEqual(["entry-invalid", 0, "entry is not canonical JSON (entry 1)"]);
  });
  it("exactly the nine keys; string subject and action", () => {
    const extra = rehash(good).map((e, i) => (i === 0 ? { ...e, extra: 1 } : e));
    extra[0]!.eventId = idOf(extra[0]!);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, extra.slice(0, 1) as JsonValue[]))).toEqual(["entry-invalid", 0, "entry does not have exactly the log's members (entry 1)"]);
    const missing = chain([[PKG_A, "imported"]]).map(({ timestamp: _t, ...rest }): Record<string, unknown> => ({ ...rest, extra: "" }));
    missing[0]!.eventId = idOf(missing[0]!);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, missing as JsonValue[]))[0]).toBe("entry-invalid");
    const numeric = chain([[PKG_A, "imported"]]).map((e): Record<string, unknown> => ({ ...e, packageId: 5 }));
    numeric[0]!.eventId = idOf(numeric[0]!);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, numeric as JsonValue[]))).toEqual(["entry-invalid", 0, "subject or action is not a string (entry 1)"]);
    const action = chain([[PKG_A, "imported"]]).map((e): Record<string, unknown> => ({ ...e, action: 5 }));
    action[0]!.eventId = idOf(action[0]!);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, action as JsonValue[]))[0]).toBe("entry-invalid");
  });
  it("an illegal transition, even re-hashed; an unknown or inherited action name", () => {
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain([[PKG_A, "installed"]]) as JsonValue[]))).toEqual(["transition-invalid", 0, "installed is not allowed from no entry (entry 1)"]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain([[PKG_A, "imported"], [PKG_A, "installed"]]) as JsonValue[]))).toEqual(["transition-invalid", 1, "installed is not allowed from imported (entry 2)"]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain([[PKG_A, "exploded"]]) as JsonValue[]))).toEqual(["transition-invalid", 0, 'unknown action "exploded" (entry 1)']);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain([[PKG_A, "toString"]]) as JsonValue[]))[0]).toBe("transition-invalid");
    // Without a lifecycle only the chain is checked.
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_CHAIN, chain([[PKG_A, "installed"]]) as JsonValue[]))).toEqual(["ok"]);
  });
  it("details: exactly the action's members", () => {
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain([[PKG_A, "imported", { originFilename: "x.json" }]]) as JsonValue[]))).toEqual(["details-invalid", 0, "details of imported must have exactly [originFilename, originSha256] (entry 1)"]);
    const extraKey = chain([[PKG_A, "imported"], [PKG_A, "approved", { note: 1 }]]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, extraKey as JsonValue[]))).toEqual(["details-invalid", 1, "details of approved must have exactly [] (entry 2)"]);
    const notObject = chain([[PKG_A, "imported"], [PKG_A, "approved", [] as unknown as object]]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, notObject as JsonValue[]))[0]).toBe("details-invalid");
    const sameCount = chain([[PKG_A, "imported", { originFilename: "x", other: "y" }]]);
    expect(fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, sameCount as JsonValue[]))[0]).toBe("details-invalid");
  });
  it("JSON Lines: empty file, missing final line feed, a line that is not strict JSON", () => {
    expect(verifyAuditLog(CONNECTOR_AUDIT_LOG, "")).toEqual({ ok: false, error: { code: "log-empty", index: 0, message: "the log file is empty" } });
    const text = jsonl(good);
    expect(fail(verifyAuditLog(CONNECTOR_AUDIT_LOG, text.slice(0, -1)))).toEqual(["line-unterminated", good.length - 1, `the last line has no line feed (entry ${good.length})`]);
    const lines = text.split("\n");
    lines[1] = lines[1]!.replace('"action"', '"action":1,"action"');
    expect(fail(verifyAuditLog(CONNECTOR_AUDIT_LOG, lines.join("\n")))).toEqual(["entry-invalid", 1, "line is not strict JSON: duplicate-key (entry 2)"]);
    expect(fail(verifyAuditLog(CONNECTOR_AUDIT_LOG, `${jsonl(good.slice(0, 1))}\n${jsonl(good.slice(1))}`))[0]).toBe("entry-invalid");
  });
  it("every edge of the trust lifecycle table (document 004's drawing)", () => {
    const ok = (steps: [string, string][]) => fail(verifyAuditChain(CONNECTOR_AUDIT_LOG, chain(steps) as JsonValue[]));
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "installed"], [PKG_A, "disabled"], [PKG_A, "revoked"], [PKG_A, "removed"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "installed"], [PKG_A, "disabled"], [PKG_A, "removed"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "revoked"], [PKG_A, "removed"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "revoked"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "removed"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "revoked"], [PKG_A, "imported"]])).toEqual(["transition-invalid", 2, "imported is not allowed from revoked (entry 3)"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "removed"], [PKG_A, "removed"]])[0]).toBe("transition-invalid");
    // upgraded leads to installed: disable is then allowed, approve is not.
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "upgraded"], [PKG_A, "disabled"]])).toEqual(["ok"]);
    expect(ok([[PKG_A, "imported"], [PKG_A, "approved"], [PKG_A, "upgraded"], [PKG_A, "imported"]])).toEqual(["transition-invalid", 3, "imported is not allowed from installed (entry 4)"]);
  });
  it("an error other than non-JSON (a throwing getter: a caller's bug) is thrown, not reported", () => {
    const entry = { ...chain([[PKG_A, "imported"]])[0], get boom(): string { throw new TypeError("boom"); } };
    expect(() => verifyAuditChain(CONNECTOR_AUDIT_CHAIN, [entry] as never)).toThrow(TypeError);
  });
});

