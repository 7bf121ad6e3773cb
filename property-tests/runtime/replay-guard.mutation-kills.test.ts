// ReplayGuard and MemoryReplayStore of the source runtime at their edges. The rules are the x-replay
// annotation's (spec/meta/signing.schema.json#/$defs/Replay) and the research note's replay
// behaviour: expiry strict (now == expires_at is expired; Unix-seconds expiry inclusive like the
// approval token's exp), created_at at most the skew ahead, a record kept until expiry + skew, a
// lifetime ceiling of maxLifetime + skew, fail closed on store errors without leaking credentials.
// RFC 3339 (§ 5.6) timestamps are checked against hand-computed epochs.
import { describe, expect, it } from "vitest";
import { MemoryReplayStore, ReplayGuard, type ReplayDeclaration, type ReplayStore, parseRfc3339 } from "../../generators/targets/ts/runtime/src/replay-guard.js";

const T0 = Date.UTC(2026, 7, 10); // 2026-08-10T00:00:00Z
const iso = (ms: number) => new Date(ms).toISOString();
const DECL: ReplayDeclaration = { keyFields: ["request_id"], scopeFields: ["provider_id", "host"], expiresAtField: "expires_at", notBeforeField: "created_at", skewSeconds: 60, maxLifetimeSeconds: 600 };
const msg = (over: Record<string, unknown> = {}) => ({ request_id: "r1", provider_id: "p", host: "h", created_at: iso(T0), expires_at: iso(T0 + 300_000), ...over }) as never;
const code = (d: { ok: boolean; error?: { code: string } }) => (d.ok ? "ok" : d.error!.code);

describe("parseRfc3339 (RFC 3339 § 5.6)", () => {
  it("valid forms, offsets applied, fractions truncated to milliseconds", () => {
    expect(parseRfc3339("2026-08-10T00:00:00Z")).toBe(1_786_320_000_000);
    expect(parseRfc3339("2026-08-10t00:00:00z")).toBe(1_786_320_000_000);
    expect(parseRfc3339("2026-08-10T05:30:00+05:30")).toBe(1_786_320_000_000);
    expect(parseRfc3339("2026-08-09T23:00:00-01:00")).toBe(1_786_320_000_000);
    expect(parseRfc3339("2026-08-10T00:00:00.1239Z")).toBe(1_786_320_000_123);
    expect(parseRfc3339("2026-12-31T23:59:59.999999999Z")).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(parseRfc3339("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    expect(parseRfc3339("2000-02-29T00:00:00Z")).toBe(Date.UTC(2000, 1, 29));
    expect(parseRfc3339("2026-01-31T00:00:00Z")).toBe(Date.UTC(2026, 0, 31));
    expect(parseRfc3339("2026-12-31T00:00:00Z")).toBe(Date.UTC(2026, 11, 31));
    expect(parseRfc3339("2026-04-30T23:59:59Z")).toBe(Date.UTC(2026, 3, 30, 23, 59, 59));
    expect(parseRfc3339("2026-01-01T00:00:00Z")).toBe(Date.UTC(2026, 0, 1));
  });
  it("out of range or malformed: null", () => {
    for (const t of ["2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-08-00T00:00:00Z", "2026-08-32T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z", "2026-06-31T00:00:00Z", "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2026-02-29T00:00:00Z",
      "2026-08-10T24:00:00Z", "2026-08-10T23:60:00Z", "2026-08-10T23:59:60Z", "2026-08-10 00:00:00Z", "2026-08-10T00:00:00", "x2026-08-10T00:00:00Z", "2026-08-10T00:00:00Zx",
      "2026-08-10T00:00:00.Z", "2026-08-10T00:00:00.1234567890Z", "2026-08-10T00:00:00+0530"]) {
      expect(parseRfc3339(t), t).toBeNull();
    }
  });
});

describe("ReplayGuard.admit", () => {
  const guard = (now: number, store: ReplayStore = new MemoryReplayStore(), decl: ReplayDeclaration = DECL) => new ReplayGuard(decl, store, () => now);
  it("admits once; the store gets JSON-array scope and key, kept until expiry + skew", async () => {
    const calls: unknown[][] = [];
    const store: ReplayStore = { checkAndRecord: async (...a) => (calls.push(a), "recorded"), evictExpired: async () => 0, size: async () => 0 };
    expect(await guard(T0, store).admit(msg())).toEqual({ ok: true });
    expect(calls).toEqual([['["p","h"]', '["r1"]', T0 + 300_000 + 60_000, T0]]);
    const mem = new MemoryReplayStore();
    expect(code(await guard(T0, mem).admit(msg()))).toBe("ok");
    expect(await guard(T0 + 1, mem).admit(msg())).toEqual({ ok: false, error: { code: "replayed", message: "message was already accepted" } });
  });
  it("missing or empty key and scope fields, named", async () => {
    expect(await guard(T0).admit(msg({ request_id: "" }))).toEqual({ ok: false, error: { code: "field-missing", message: "request_id is missing or empty" } });
    expect(await guard(T0).admit(msg({ host: 5 }))).toEqual({ ok: false, error: { code: "field-missing", message: "host is missing or empty" } });
  });
  it("expiry is strict: now == expires_at is expired, one millisecond before is not", async () => {
    expect(await guard(T0 + 300_000).admit(msg())).toEqual({ ok: false, error: { code: "expired", message: "message has expired" } });
    expect(code(await guard(T0 + 299_999).admit(msg()))).toBe("ok");
    expect(await guard(T0).admit(msg({ expires_at: "soon" }))).toEqual({ ok: false, error: { code: "invalid-timestamp", message: "expires_at is not a rfc3339 time" } });
  });
  it("created_at may be the skew ahead, not a millisecond more", async () => {
    expect(code(await guard(T0 - 60_000).admit(msg()))).toBe("ok");
    expect(await guard(T0 - 60_001).admit(msg())).toEqual({ ok: false, error: { code: "not-yet-valid", message: "message was created in the future" } });
    expect(await guard(T0).admit(msg({ created_at: 1 }))).toEqual({ ok: false, error: { code: "invalid-timestamp", message: "created_at is not a rfc3339 time" } });
    const noCreated = { ...DECL, notBeforeField: undefined };
    expect(code(await guard(T0, undefined, noCreated).admit(msg({ created_at: "x" })))).toBe("ok");
  });
  it("lifetime: expires_at - now up to (max + skew) s passes, a millisecond more is refused", async () => {
    expect(code(await guard(T0).admit(msg({ expires_at: iso(T0 + 660_000) })))).toBe("ok");
    expect(await guard(T0).admit(msg({ expires_at: iso(T0 + 660_001) }))).toEqual({ ok: false, error: { code: "lifetime-exceeded", message: "message expires further ahead than this receiver accepts" } });
    const noMax = { ...DECL, maxLifetimeSeconds: undefined };
    expect(code(await guard(T0, undefined, noMax).admit(msg({ expires_at: iso(T0 + 86_400_000) })))).toBe("ok");
  });
  it("unix-seconds: integer seconds, expiry inclusive through its second", async () => {
    const unix = { ...DECL, timeFormat: "unix-seconds" as const };
    const m = (exp: unknown) => msg({ created_at: T0 / 1000, expires_at: exp });
    expect(code(await guard(T0 + 999, undefined, unix).admit(m(T0 / 1000)))).toBe("ok");
    expect(code(await guard(T0 + 1000, undefined, unix).admit(m(T0 / 1000)))).toBe("expired");
    expect(code(await guard(T0, undefined, unix).admit(m(T0 / 1000 + 0.5)))).toBe("invalid-timestamp");
    expect(code(await guard(T0, undefined, unix).admit(m(String(T0 / 1000))))).toBe("invalid-timestamp");
    const calls: unknown[][] = [];
    const store: ReplayStore = { checkAndRecord: async (...a) => (calls.push(a), "recorded"), evictExpired: async () => 0, size: async () => 0 };
    await guard(T0, store, unix).admit(m(T0 / 1000 + 10));
    expect(calls[0]![2]).toBe(T0 + 11_000 + 60_000);
  });
  it("a full store and a failing store refuse; the error's credentials and length are cut", async () => {
    const full: ReplayStore = { checkAndRecord: async () => "full", evictExpired: async () => 0, size: async () => 0 };
    expect(await guard(T0, full).admit(msg())).toEqual({ ok: false, error: { code: "capacity-exceeded", message: "replay store is full of unexpired records" } });
    const down = (e: unknown): ReplayStore => ({ checkAndRecord: async () => { throw e; }, evictExpired: async () => 0, size: async () => 0 });
    const r = await guard(T0, down(new Error("connect redis://user:s3cret@db:6379 and postgres://x@y refused"))).admit(msg());
    expect(r).toEqual({ ok: false, error: { code: "store-unavailable", message: "replay store did not answer: connect redis://***@db:6379 and postgres://***@y refused" } });
    const long = await guard(T0, down("e".repeat(500))).admit(msg());
    expect(long.ok ? "" : long.error.message).toBe(`replay store did not answer: ${"e".repeat(200)}`);
  });
});

describe("MemoryReplayStore", () => {
  it("replayed while held (until > now), recorded again once passed, with the new retention", async () => {
    const s = new MemoryReplayStore();
    expect(await s.checkAndRecord("s", "k", 2_000, 1_000)).toBe("recorded");
    expect(await s.checkAndRecord("s", "k", 9_000, 1_999)).toBe("replayed");
    expect(await s.checkAndRecord("s", "k", 5_000, 2_000)).toBe("recorded");
    expect(await s.checkAndRecord("s", "k", 9_000, 4_999)).toBe("replayed");
    expect(await s.checkAndRecord("t", "k", 5_000, 2_000)).toBe("recorded");
    // (scope, key) pairs that concatenate alike stay distinct.
    expect(await s.checkAndRecord("ab", "c", 5_000, 2_000)).toBe("recorded");
    expect(await s.checkAndRecord("a", "bc", 5_000, 2_000)).toBe("recorded");
    expect(await s.size()).toBe(4);
    expect(await s.evictExpired(4_999)).toBe(0);
    expect(await s.evictExpired(5_000)).toBe(4);
    expect(await s.size()).toBe(0);
  });
  it("a full store evicts expired records first; total and per-scope quotas count exactly", async () => {
    const s = new MemoryReplayStore(3, 2);
    expect(await s.checkAndRecord("a", "1", 10_000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("a", "2", 20_000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("a", "3", 20_000, 0)).toBe("full");
    expect(await s.checkAndRecord("b", "1", 20_000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("c", "1", 20_000, 0)).toBe("full");
    expect(await s.checkAndRecord("a", "3", 20_000, 10_000)).toBe("recorded");
    expect(await s.size()).toBe(3);
    expect(await s.checkAndRecord("c", "1", 30_000, 10_000)).toBe("full");
    expect(await s.evictExpired(20_000)).toBe(3);
    expect(await s.checkAndRecord("a", "4", 30_000, 20_000)).toBe("recorded");
    expect(await s.checkAndRecord("a", "5", 30_000, 20_000)).toBe("recorded");
    expect(await s.checkAndRecord("a", "6", 30_000, 20_000)).toBe("full");
  });
  it("default quota: a tenth of the entries, at least one", async () => {
    const s = new MemoryReplayStore(20);
    expect(await s.checkAndRecord("a", "1", 10, 0)).toBe("recorded");
    expect(await s.checkAndRecord("a", "2", 10, 0)).toBe("recorded");
    expect(await s.checkAndRecord("a", "3", 10, 0)).toBe("full");
    const one = new MemoryReplayStore(5);
    expect(await one.checkAndRecord("a", "1", 10, 0)).toBe("recorded");
    expect(await one.checkAndRecord("a", "2", 10, 0)).toBe("full");
  });
  it("re-recording a held key does not count it twice; an eviction that leaves a scope records keeps its count", async () => {
    const s = new MemoryReplayStore(10, 2);
    expect(await s.checkAndRecord("a", "1", 1_000, 0)).toBe("recorded");
    // At 1 000 a/1 has passed but is still held (no sweep yet): recorded again, still one in scope a.
    expect(await s.checkAndRecord("a", "1", 5_000, 1_000)).toBe("recorded");
    expect(await s.checkAndRecord("a", "2", 5_000, 1_000)).toBe("recorded");
    expect(await s.checkAndRecord("a", "3", 5_000, 1_000)).toBe("full");
    const t = new MemoryReplayStore(10, 2);
    await t.checkAndRecord("b", "1", 1_000, 0);
    await t.checkAndRecord("b", "2", 5_000, 0);
    expect(await t.evictExpired(1_000)).toBe(1);
    expect(await t.checkAndRecord("b", "3", 5_000, 1_000)).toBe("recorded");
    expect(await t.checkAndRecord("b", "4", 5_000, 1_000)).toBe("full");
  });
  it("a key whose expired record the sweep just dropped is recorded anew, and replayed after", async () => {
    const s = new MemoryReplayStore();
    expect(await s.checkAndRecord("s", "k", 1_000, 0)).toBe("recorded");
    // At 60 000 the sweep is due: it drops the expired k, and k is written again.
    expect(await s.checkAndRecord("s", "k", 120_000, 60_000)).toBe("recorded");
    expect(await s.checkAndRecord("s", "k", 120_000, 60_001)).toBe("replayed");
    expect(await s.size()).toBe(1);
  });
  it("the periodic sweep drops expired records a minute after the last", async () => {
    const s = new MemoryReplayStore();
    for (let i = 0; i < 5; i++) await s.checkAndRecord("s", `k${i}`, 1_000, 0);
    await s.checkAndRecord("s", "x", 100_000, 59_999);
    expect(await s.size()).toBe(6);
    await s.checkAndRecord("s", "y", 100_000, 60_000);
    expect(await s.size()).toBe(2);
    expect(s.checkAndRecordNow("s", "y", 100_000, 60_001)).toBe("replayed");
  });
});
