// The other once-only state of the protocols on the same four stores: an agent-service interaction
// is answered at most once across replicas, and an approval token is spent once per request id.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryBookmarkStore, type BookmarkStore } from "../../generators/targets/ts/runtime/src/bookmark-store.js";
import { PostgresBookmarkStore } from "../../generators/targets/ts/runtime/src/replay-postgres.js";
import { RedisBookmarkStore } from "../../generators/targets/ts/runtime/src/replay-redis.js";
import { SqliteBookmarkStore } from "../../generators/targets/ts/runtime/src/replay-sqlite.js";
import { mintApprovalToken, verifyApprovalToken } from "../../generators/targets/ts/runtime/src/approval-token.js";
import { InteractionRegistry, type InteractionDecision } from "../../generators/targets/ts/runtime/src/interaction-registry.js";
import { spendApprovalToken } from "../../generators/targets/ts/runtime/src/single-use.js";
import { missingServers, REQUIRE_SERVERS, startPostgres, startRedis, type PostgresServer, type RedisServer } from "./servers.js";
import { makeStore, type ClosableStore, type StoreKind } from "./stores.js";

const missing = missingServers();
if (missing !== undefined && REQUIRE_SERVERS) throw new Error(`once-only suites need real servers: ${missing}`);
if (missing !== undefined) console.log(`Once-only suites on Redis and PostgreSQL skipped: ${missing}`);
let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
beforeAll(async () => {
  if (missing === undefined) [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

const SECRET = "0123456789abcdef0123456789abcdef";
let n = 0;

for (const kind of ["memory", "sqlite", "redis", "postgres"] as StoreKind[]) {
  const suite = kind === "memory" || kind === "sqlite" || missing === undefined ? describe : describe.skip;
  suite(`once-only state on the ${kind} store`, () => {
    let shared: ClosableStore;
    beforeAll(() => {
      const url = kind === "redis" ? (redis as RedisServer).url : kind === "postgres" ? (postgres as PostgresServer).url : "";
      shared = makeStore(kind, url, { keyPrefix: `once-${process.pid}:`, table: `once_${process.pid}` });
    });
    afterAll(async () => shared.close());

    it("an interaction held by two replicas is answered once: one 204, one 404, one delivery", async () => {
      const delivered: InteractionDecision[] = [];
      const replicas = [new InteractionRegistry(), new InteractionRegistry()];
      const executionId = `exec-${process.pid}-${n++}`;
      for (const r of replicas) {
        expect(r.open({ executionId, interactionId: "i1", owner: "alice", prompt: { inputType: "text" }, deliver: (d) => (delivered.push(d), true) })).toEqual({ ok: true });
      }
      const answers = await Promise.all(replicas.map((r) => r.respondOnce(shared, executionId, "i1", "alice", { type: "text", text: "yes" })));
      expect(answers.map((a) => a.status).sort()).toEqual([204, 404]);
      expect(delivered).toEqual([{ kind: "answered", text: "yes" }]);
      // The losing replica settled its copy: a third answer there is a 404 too, and nothing is delivered.
      for (const r of replicas) expect((await r.respondOnce(shared, executionId, "i1", "alice", { type: "text", text: "again" })).status).toBe(404);
      expect(delivered).toHaveLength(1);
    });

    it("the owner and answer checks still come first: 403 and 422 claim nothing", async () => {
      const registry = new InteractionRegistry();
      const executionId = `exec-${process.pid}-${n++}`;
      registry.open({ executionId, interactionId: "i1", owner: "alice", prompt: { inputType: "text" }, deliver: () => true });
      expect((await registry.respondOnce(shared, executionId, "i1", "mallory", { type: "text", text: "yes" })).status).toBe(403);
      expect((await registry.respondOnce(shared, executionId, "i1", "alice", { type: "text", text: "  " })).status).toBe(422);
      expect((await registry.respondOnce(shared, executionId, "i1", "alice", { type: "text", text: "yes" })).status).toBe(204);
    });

    it("an approval token is spent once per request id, on every replica sharing the store", async () => {
      const now = Date.now();
      const request_id = `req-${process.pid}-${n++}`;
      const minted = mintApprovalToken({ action: "delete", resource_id: "r1", actor_id: "alice", request_id, payload: { id: "r1" } }, SECRET, { nowMs: now });
      if (!minted.ok) throw new Error(minted.error.code);
      const bindings = { action: "delete", resource_id: "r1", request_id, expected_choice: null };
      const verified = [verifyApprovalToken(minted.token, SECRET, bindings, now), verifyApprovalToken(minted.token, SECRET, bindings, now)];
      const spent = await Promise.all(verified.map((v) => (v.ok ? spendApprovalToken(v.claims, shared, now) : Promise.reject(new Error("did not verify")))));
      expect(spent.map((s) => (s.ok ? "ok" : s.error.code)).sort()).toEqual(["already-used", "ok"]);
    });
  });
}

describe("inbox bookmarks move only forward, on every store", () => {
  const makers: Record<string, () => BookmarkStore & { close?: () => Promise<void> }> = {
    memory: () => new MemoryBookmarkStore(),
    sqlite: () => new SqliteBookmarkStore(join(mkdtempSync(join(tmpdir(), "agent-contracts-bookmark-")), "b.db")),
    redis: () => new RedisBookmarkStore({ url: (redis as RedisServer).url, keyPrefix: `bm-${process.pid}:` }),
    postgres: () => new PostgresBookmarkStore({ url: (postgres as PostgresServer).url, table: `bookmarks_${process.pid}` }),
  };
  for (const [kind, make] of Object.entries(makers)) {
    const test = kind === "memory" || kind === "sqlite" || missing === undefined ? it : it.skip;
    test(`${kind}: concurrent advances end at the largest sequence, and never move back`, async () => {
      const store = make();
      const scope = `conn-${process.pid}-${n++}`;
      expect(await store.position(scope)).toBe(0);
      const sequences = [5, 3, 9, 1, 9, 7];
      const results = await Promise.all(sequences.map((s) => store.advance(scope, s)));
      for (const [i, r] of results.entries()) expect(r).toBeGreaterThanOrEqual(sequences[i] as number);
      expect(await store.position(scope)).toBe(9);
      expect(await store.advance(scope, 4)).toBe(9);
      await expect(store.advance(scope, -1)).rejects.toThrow(RangeError);
      await expect(store.advance(scope, 1.5)).rejects.toThrow(RangeError);
      await store.close?.();
    });
  }
});
