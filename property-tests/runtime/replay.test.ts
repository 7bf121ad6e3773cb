// Replay guard over both stores: model-based properties (a message is admitted at most once at
// any interleaving, expired messages never, eviction and clock steps never readmit), typed
// rejections, sharing one SQLite file between two handles, and a SIGKILL crash test.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generators/targets/ts/runtime/src/json-value.js";
import { MemoryReplayStore, type ReplayDeclaration, ReplayGuard, type ReplayStore, parseRfc3339 } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { SqliteReplayStore } from "../../generators/targets/ts/runtime/src/replay-sqlite.js";

const DECLARATION: ReplayDeclaration = {
  keyFields: ["request_id"],
  scopeFields: ["provider_id", "host_instance_id"],
  expiresAtField: "expires_at",
  notBeforeField: "created_at",
  skewSeconds: 60,
};
const T0 = Date.parse("2026-05-30T00:00:00Z");
const iso = (ms: number): string => new Date(ms).toISOString();
const dir = mkdtempSync(join(tmpdir(), "replay-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: Record<string, (maxEntries: number) => ReplayStore> = {
  // The model below has one shared capacity; per-scope quotas are tested on their own.
  memory: (max) => new MemoryReplayStore(max, max),
  sqlite: (max) => new SqliteReplayStore(":memory:", { maxEntries: max, maxEntriesPerScope: max }),
};
const quotaStores: Record<string, (maxEntries: number, perScope: number) => ReplayStore> = {
  memory: (max, perScope) => new MemoryReplayStore(max, perScope),
  sqlite: (max, perScope) => new SqliteReplayStore(":memory:", { maxEntries: max, maxEntriesPerScope: perScope }),
};

describe("per-scope quota: one sender cannot lock the others out", () => {
  for (const [name, makeStore] of Object.entries(quotaStores)) {
    it(`${name}: a scope at its quota is refused; another scope is still admitted; eviction frees the quota`, async () => {
      let now = T0;
      const guard = new ReplayGuard({ ...DECLARATION, maxLifetimeSeconds: 86_400 }, makeStore(100, 10), () => now);
      const msg = (provider: string, id: number, lifetimeS = 3600): JsonObject => ({
        request_id: `r-${id}`, provider_id: provider, host_instance_id: "h", created_at: iso(now), expires_at: iso(now + lifetimeS * 1000),
      });
      const code = async (m: JsonObject) => { const d = await guard.admit(m); return d.ok ? "recorded" : d.error.code; };
      for (let i = 0; i < 10; i++) expect(await code(msg("greedy", i))).toBe("recorded");
      expect(await code(msg("greedy", 10))).toBe("capacity-exceeded");
      expect(await code(msg("greedy", 3))).toBe("replayed");
      expect(await code(msg("polite", 0))).toBe("recorded");
      expect(await code(msg("polite", 0))).toBe("replayed");
      now += 3661_000;
      expect(await code(msg("greedy", 11))).toBe("recorded");
    });
  }
  it("a message expiring beyond maxLifetimeSeconds (year 9999) is refused before it is recorded", async () => {
    const store = new MemoryReplayStore(100, 10);
    const guard = new ReplayGuard({ ...DECLARATION, maxLifetimeSeconds: 86_400 }, store, () => T0);
    const d = await guard.admit({ request_id: "x", provider_id: "p", host_instance_id: "h", created_at: iso(T0), expires_at: "9999-12-31T23:59:59Z" });
    expect(d.ok ? "recorded" : d.error.code).toBe("lifetime-exceeded");
    expect(await store.size()).toBe(0);
  });
  it("every x-replay declaration in the spec has maxLifetimeSeconds", async () => {
    const { loadModel } = await import("../../generators/pipeline.js");
    const { REPO_ROOT } = await import("../../generators/test/fixture.js");
    const r = loadModel(REPO_ROOT);
    if (!r.ok) throw new Error("spec has errors");
    const replays = r.model.protocols.flatMap((p) => p.messages).map((m) => m.replay).filter((x) => x !== undefined) as ReplayDeclaration[];
    expect(replays.length).toBeGreaterThanOrEqual(3);
    for (const d of replays) expect(d.maxLifetimeSeconds).toBeGreaterThan(0);
  });
});

// A message is fixed by its key: the same request_id always carries the same times (as a signed
// message would), and an operation either delivers a message or moves the clock.
const messageSpec = fc.record({ lifetimeS: fc.integer({ min: 1, max: 120 }), createdOffsetS: fc.integer({ min: -30, max: 90 }) });
const deliver = fc.record({ kind: fc.constant("deliver" as const), message: fc.nat(7), scope: fc.nat(1) });
const op = fc.oneof(
  deliver,
  deliver,
  fc.record({ kind: fc.constant("advance" as const), seconds: fc.oneof(fc.integer({ min: -60, max: 120 }), fc.integer({ min: -3, max: 3 })) }),
  // Jump to the edge of a message's validity, where eviction and clock steps matter.
  fc.record({ kind: fc.constant("edge" as const), message: fc.nat(7), offsetMs: fc.integer({ min: -3000, max: 61_000 }) }),
  // Jump to within a second and a half of a record's retention end (expiry plus the 60 s skew),
  // where a store that keeps records too long, or drops them too soon, decides differently.
  // The exact millisecond matters: a record retained until T is gone at T, not at T + 1.
  fc.record({ kind: fc.constant("edge" as const), message: fc.nat(7), offsetMs: fc.oneof(fc.constantFrom(59_999, 60_000, 60_001), fc.integer({ min: 58_500, max: 61_500 })) }),
);

for (const [name, makeStore] of Object.entries(stores)) {
  describe(`ReplayGuard over the ${name} store`, () => {
    it("admits each message at most once, never when expired or from the future, at any interleaving", async () => {
      await fc.assert(fc.asyncProperty(fc.array(messageSpec, { minLength: 8, maxLength: 8 }), fc.array(op, { minLength: 10, maxLength: 80, size: "max" }), fc.oneof(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 8 })), async (specs, ops, capacity) => {
        let now = T0;
        let earliest = T0; // the clock may step back, but by no more than the skew from its maximum
        const guard = new ReplayGuard(DECLARATION, makeStore(capacity), () => now);
        const admitted = new Set<string>();
        // Each admitted record is kept until its expiry plus the skew (after that a redelivery is
        // refused as expired, so it may go). The clock steps back, so a record past that time at the
        // clock's maximum may be gone or not; one past it now may go now. The store is full only when
        // the records it may still hold fill it (refusing earlier retains too long), and must refuse
        // when the records it must still hold do (admitting then evicted a live record early).
        const retainedUntil = new Map<string, number>();
        const held = (since: number): number => [...retainedUntil.values()].filter((until) => until > since).length;
        const timesOf = (m: number): { createdAt: number; expiresAt: number } => {
          const s = specs[m] as { lifetimeS: number; createdOffsetS: number };
          const createdAt = T0 + m * 7_000 + s.createdOffsetS * 1000;
          return { createdAt, expiresAt: createdAt + s.lifetimeS * 1000 };
        };
        for (const o of ops) {
          if (o.kind !== "deliver") {
            const target = o.kind === "advance" ? now + o.seconds * 1000 : timesOf(o.message).expiresAt + o.offsetMs;
            now = Math.max(target, earliest - DECLARATION.skewSeconds * 1000);
            earliest = Math.max(earliest, now);
            continue;
          }
          const { createdAt, expiresAt } = timesOf(o.message);
          const message: JsonObject = { request_id: `r-${o.message}`, provider_id: `p-${o.scope}`, host_instance_id: "h", created_at: iso(createdAt), expires_at: iso(expiresAt) };
          const [mustHold, mayHold] = [held(earliest), held(now)];
          const decision = await guard.admit(message);
          const id = `${o.scope}/${o.message}`;
          if (decision.ok) {
            expect(admitted.has(id)).toBe(false);
            expect(mustHold, "admitted past the capacity: a live record was evicted early").toBeLessThan(capacity);
            retainedUntil.set(id, expiresAt + DECLARATION.skewSeconds * 1000);
            expect(now).toBeLessThan(expiresAt);
            expect(createdAt).toBeLessThanOrEqual(now + DECLARATION.skewSeconds * 1000);
            admitted.add(id);
          } else if (now >= expiresAt) expect(decision.error.code).toBe("expired");
          else if (createdAt > now + DECLARATION.skewSeconds * 1000) expect(decision.error.code).toBe("not-yet-valid");
          else if (admitted.has(id)) expect(decision.error.code).toBe("replayed");
          else {
            expect(decision.error.code).toBe("capacity-exceeded");
            expect(mayHold, "refused as full while records past their retention take the room").toBeGreaterThanOrEqual(capacity);
          }
        }
      }), { numRuns: 250 });
    });

    it("a full store frees a record's room exactly at its expiry plus the skew, not a millisecond before or after", async () => {
      // `capacity` records fill the store; the clock then moves to one record's retention end
      // (expiry + 60 s) shifted by a few milliseconds, and a fresh valid message arrives: it is
      // admitted exactly when some record's retention has ended (until <= now), else refused as full.
      const record = fc.record({ lifetimeS: fc.integer({ min: 1, max: 120 }), createdOffsetS: fc.integer({ min: 0, max: 30 }) });
      await fc.assert(fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 4 }), fc.nat(3), fc.constantFrom(-1000, -1, 0, 1, 1000), async (records, pick, shiftMs) => {
        let now = T0;
        const guard = new ReplayGuard(DECLARATION, makeStore(records.length), () => now);
        const until: number[] = [];
        for (const [i, r] of records.entries()) {
          const createdAt = T0 + r.createdOffsetS * 1000;
          const expiresAt = createdAt + r.lifetimeS * 1000;
          expect((await guard.admit({ request_id: `r-${i}`, provider_id: "p", host_instance_id: "h", created_at: iso(createdAt), expires_at: iso(expiresAt) })).ok).toBe(true);
          until.push(expiresAt + DECLARATION.skewSeconds * 1000);
        }
        now = until[pick % until.length]! + shiftMs;
        const fresh = await guard.admit({ request_id: "fresh", provider_id: "p", host_instance_id: "h", created_at: iso(now), expires_at: iso(now + 60_000) });
        const roomMade = until.some((u) => u <= now);
        expect(fresh.ok ? "recorded" : fresh.error.code).toBe(roomMade ? "recorded" : "capacity-exceeded");
      }), { numRuns: 150 });
    });

    it("keeps memory bounded: records are evicted after expiry plus skew", async () => {
      let now = T0;
      const store = makeStore(1000);
      const guard = new ReplayGuard(DECLARATION, store, () => now);
      for (let i = 0; i < 200; i++) {
        expect((await guard.admit({ request_id: `r-${i}`, provider_id: "p", host_instance_id: "h", created_at: iso(now), expires_at: iso(now + 60_000) })).ok).toBe(true);
        now += 1000;
      }
      await store.evictExpired(now);
      expect(await store.size()).toBeLessThanOrEqual(121);
      now += 200_000;
      await store.evictExpired(now);
      expect(await store.size()).toBe(0);
    });

    it("rejects with typed codes", async () => {
      const guard = new ReplayGuard({ ...DECLARATION, maxLifetimeSeconds: 3600 }, makeStore(10), () => T0);
      const base = { request_id: "r", provider_id: "p", host_instance_id: "h", created_at: iso(T0), expires_at: iso(T0 + 60_000) };
      const code = async (m: JsonObject): Promise<string> => {
        const d = await guard.admit(m);
        return d.ok ? "ok" : d.error.code;
      };
      expect(await code({ ...base, request_id: "" })).toBe("field-missing");
      expect(await code({ ...base, host_instance_id: undefined as never })).toBe("field-missing");
      expect(await code({ ...base, expires_at: "2026-05-30 00:10:00Z" })).toBe("invalid-timestamp");
      expect(await code({ ...base, expires_at: "2026-02-30T00:00:00Z" })).toBe("invalid-timestamp");
      expect(await code({ ...base, expires_at: iso(T0) })).toBe("expired");
      expect(await code({ ...base, created_at: iso(T0 + 61_000) })).toBe("not-yet-valid");
      expect(await code({ ...base, expires_at: iso(T0 + 3_700_000) })).toBe("lifetime-exceeded");
      expect(await code(base)).toBe("ok");
      expect(await code(base)).toBe("replayed");
      expect(await code({ ...base, provider_id: "other" })).toBe("ok"); // keys are scoped per provider/host
    });
  });
}

describe("RFC 3339 parsing", () => {
  it("accepts the forms the real SDKs send and refuses the rest", async () => {
    for (const ok of ["2026-05-27T00:00:00Z", "2026-05-27T00:00:00.000Z", "2026-05-27T00:00:00.123456789Z", "2026-05-27T02:00:00+02:00"]) expect(parseRfc3339(ok)).not.toBeNull();
    for (const bad of ["2026-05-27", "2026-05-27T00:00:60Z", "2026-13-01T00:00:00Z", "2026-05-27T00:00:00", "2026-05-27 00:00:00Z", "4102444800"]) expect(parseRfc3339(bad)).toBeNull();
  });
});

describe("SqliteReplayStore durability", () => {
  it("two handles on one file see each other's records", async () => {
    const path = join(dir, "shared.db");
    const a = new SqliteReplayStore(path);
    const b = new SqliteReplayStore(path);
    expect(await a.checkAndRecord("s", "k", T0 + 1000, T0)).toBe("recorded");
    expect(await b.checkAndRecord("s", "k", T0 + 1000, T0)).toBe("replayed");
    expect(await b.checkAndRecord("s", "k", T0 + 2000, T0 + 1000)).toBe("recorded"); // retention over: reusable
    await a.close();
    await b.close();
  });

  it("after SIGKILL mid-write and a restart, no acknowledged message is admitted again", async () => {
    const path = join(dir, "crash.db");
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./replay-child.ts", import.meta.url)), path, "0"], { stdio: ["ignore", "pipe", "pipe"] });
    const acked: string[] = [];
    let buffered = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child produced too few ACKs: ${stderr}`)), 30_000);
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("ACK ")) acked.push(line.slice(4));
        if (acked.length >= 300 && child.exitCode === null && !child.killed) {
          child.kill("SIGKILL");
          clearTimeout(timer);
        }
      });
      child.on("exit", () => resolve());
    });
    expect(child.signalCode).toBe("SIGKILL");
    expect(acked.length).toBeGreaterThanOrEqual(300);
    const store = new SqliteReplayStore(path);
    const guard = new ReplayGuard({ ...DECLARATION, notBeforeField: undefined }, store, () => T0);
    for (const request_id of acked) {
      const decision = await guard.admit({ request_id, provider_id: "provider.app", host_instance_id: "host-1", expires_at: "2026-05-30T00:10:00Z" });
      expect(decision.ok ? "admitted" : decision.error.code).toBe("replayed");
    }
    await store.close();
  });
});

describe("unix-seconds time fields (approval token nonces)", () => {
  it("admits a nonce once until exp, refuses exp in the past", async () => {
    let now = T0;
    const guard = new ReplayGuard({ keyFields: ["nonce"], scopeFields: [], expiresAtField: "exp", timeFormat: "unix-seconds", skewSeconds: 60 }, new MemoryReplayStore(), () => now);
    const token = { nonce: "n-1", exp: T0 / 1000 + 600 };
    expect((await guard.admit(token)).ok).toBe(true);
    expect(await guard.admit(token)).toMatchObject({ ok: false, error: { code: "replayed" } });
    now = T0 + 600_000; // exp == now still passes, as in the token verifier
    expect((await guard.admit({ nonce: "n-2", exp: T0 / 1000 + 600 })).ok).toBe(true);
    now = T0 + 601_000;
    expect(await guard.admit({ nonce: "n-4", exp: T0 / 1000 + 600 })).toMatchObject({ ok: false, error: { code: "expired" } });
    expect(await guard.admit({ nonce: "n-3", exp: "soon" })).toMatchObject({ ok: false, error: { code: "invalid-timestamp" } });
  });
});
