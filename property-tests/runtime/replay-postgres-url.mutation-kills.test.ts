// replay-postgres.ts's stores created from a URL, with `pg` replaced by a recording fake Pool
// (vi.mock): what the file promises of the pool it creates and owns — the URL, poolSize (10 by
// default), the statement deadline as connection, query and statement timeout, an error listener
// so an idle client's error does not crash the process, one pool per store, and close() ending it.
// The real `pg` runs in property-tests/fleet/stores.test.ts.
import { beforeEach, describe, expect, it, vi } from "vitest";

interface FakePool {
  options: Record<string, unknown>;
  listeners: string[];
  ended: number;
  sent: { text: string; values?: unknown[]; name?: string }[];
}
/** The pool's answers: a bookmark position, the server check (its clock at 1000 ms), else one row affected. */
const answer = vi.hoisted(() => (q: { text: string }) =>
  q.text.startsWith("SELECT position") ? { rowCount: 1, rows: [{ position: "3" }] } : q.text.includes("AS now_ms")
      ? { rowCount: 1, rows: [{ now_ms: "1000" }] }
      : q.text.includes("AS commit_mode")
        ? { rowCount: 1, rows: [{ commit_mode: "on", standbys: "" }] }
        : { rowCount: 1, rows: [] },
);
const state = vi.hoisted(() => ({ pools: [] as FakePool[], failNext: false }));
vi.mock("pg", () => ({
  default: {
    Pool: class {
      readonly fake: FakePool;
      constructor(options: Record<string, unknown>) {
        if (state.failNext) {
          state.failNext = false;
          throw new Error("bad connection string");
        }
        this.fake = { options, listeners: [], ended: 0, sent: [] };
        state.pools.push(this.fake);
      }
      on(event: string, listener: unknown) {
        expect(typeof listener).toBe("function");
        this.fake.listeners.push(event);
      }
      async query(q: FakePool["sent"][number]) {
        this.fake.sent.push(q);
        return answer(q);
      }
      async end() {
        this.fake.ended++;
      }
    },
  },
}));
const { PostgresBookmarkStore, PostgresReplayStore } = await import("../../generators/targets/ts/runtime/src/replay-postgres.js");

beforeEach(() => {
  state.pools.length = 0;
  state.failNext = false;
});
const isInsert = (q: { text: string }) => q.text.startsWith("INSERT");

describe("a PostgreSQL store created from { url }", () => {
  it("creates one pool with the documented options, migrates once, and ends it on close", async () => {
    const store = new PostgresReplayStore({ url: "postgresql://u@127.0.0.1:5499/db", timeoutMs: 1234, poolSize: 3, sweepIntervalMs: 1e12 });
    await Promise.all([store.checkAndRecord("s", "a", 2, 1000), store.checkAndRecord("s", "b", 2, 1000)]);
    await store.checkAndRecord("s", "c", 2, 1000);
    expect(state.pools.length).toBe(1);
    const [pool] = state.pools as [FakePool];
    expect(pool.options).toEqual({ connectionString: "postgresql://u@127.0.0.1:5499/db", max: 3, connectionTimeoutMillis: 2234, query_timeout: 2234, statement_timeout: 2234 });
    expect(pool.listeners).toEqual(["error"]);
    expect(pool.sent.filter((q) => q.text.startsWith("SELECT pg_advisory_xact_lock")).length).toBe(1);
    expect(pool.sent.filter(isInsert).map((q) => q.values![1])).toEqual(['["s","a"]', '["s","b"]', '["s","c"]']);
    await store.close();
    await store.close();
    expect(pool.ended).toBe(1);
    // After close the next check opens a new pool.
    await store.checkAndRecord("s", "d", 2, 1000);
    expect(state.pools.length).toBe(2);
    await store.close();
    expect(state.pools[1]!.ended).toBe(1);
  });
  it("statements started together before the pool exists share the one pool it becomes", async () => {
    const store = new PostgresReplayStore({ url: "postgres://x", sweepIntervalMs: 1e12 });
    await Promise.all([store.checkAndRecord("s", "a", 2, 1000), store.evictExpired(0), store.evictExpired(0)]);
    expect(state.pools.length).toBe(1);
    await store.close();
  });
  it("the defaults: a pool of 10 and a 2000 ms deadline", async () => {
    await new PostgresReplayStore({ url: "postgres://x", sweepIntervalMs: 1e12 }).checkAndRecord("s", "a", 2, 1000);
    expect(state.pools[0]!.options).toMatchObject({ max: 10, connectionTimeoutMillis: 3000, query_timeout: 3000, statement_timeout: 3000 });
  });
  it("a pool that cannot be created is not kept: the next check tries again", async () => {
    state.failNext = true;
    const store = new PostgresReplayStore({ url: "postgres://x", sweepIntervalMs: 1e12 });
    await expect(store.checkAndRecord("s", "a", 2, 1000)).rejects.toThrow("bad connection string");
    expect(await store.checkAndRecord("s", "a", 2, 1000)).toBe("recorded");
    expect(state.pools.length).toBe(1);
  });
  it("a close() while the pool is failing to be created resolves (there is no pool to end)", async () => {
    state.failNext = true;
    const store = new PostgresReplayStore({ url: "postgres://x", sweepIntervalMs: 1e12 });
    const first = store.checkAndRecord("s", "a", 2, 1000);
    const closing = store.close();
    await expect(first).rejects.toThrow("bad connection string");
    await expect(closing).resolves.toBeUndefined();
  });
  it("a close() while the first check is connecting: that pool is ended and not used again", async () => {
    const store = new PostgresReplayStore({ url: "postgres://x", sweepIntervalMs: 1e12 });
    const first = store.checkAndRecord("s", "a", 2, 1000);
    const closing = store.close();
    await Promise.all([first.catch(() => undefined), closing]);
    expect(state.pools[0]!.ended).toBe(1);
    await store.checkAndRecord("s", "b", 2, 1000);
    expect(state.pools.length).toBe(2);
    // The first check's server check ran on the first pool; its insert, after close(), on the new one.
    expect(state.pools[0]!.sent.filter(isInsert)).toEqual([]);
    expect(state.pools[1]!.sent.filter(isInsert).map((q) => q.values![1])).toEqual(['["s","a"]', '["s","b"]']);
  });
  it("a bookmark store from a URL owns and ends its pool too", async () => {
    const store = new PostgresBookmarkStore({ url: "postgres://x" });
    expect(await store.position("s")).toBe(3);
    await store.close();
    expect(state.pools.map((p) => p.ended)).toEqual([1]);
  });
});

describe("given clients", () => {
  const client = () => {
    const sent: { text: string; values?: unknown[]; name?: string }[] = [];
    return { sent, query: async (q: (typeof sent)[number]) => (sent.push(q), answer(q)) };
  };
  it("a sweep is due exactly sweepIntervalMs after the last one", async () => {
    const c = client();
    const store = new PostgresReplayStore({ client: c, sweepIntervalMs: 1000, maxClockSkewMs: 1e6 });
    await store.checkAndRecord("s", "a", 2, 0);
    await store.checkAndRecord("s", "b", 2, 999);
    await store.checkAndRecord("s", "c", 2, 1000);
    await store.checkAndRecord("s", "d", 2, 1999);
    await new Promise((r) => setTimeout(r, 5));
    expect(c.sent.filter((q) => q.text.startsWith("DELETE") || isInsert(q)).map((q) => (isInsert(q) ? q.values![1] : "sweep"))).toEqual([
      "sweep",
      '["s","a"]',
      '["s","b"]',
      "sweep",
      '["s","c"]',
      '["s","d"]',
    ]);
  });
  it("statement names keep FNV-1a's leading zeros (\"akd\" hashes to 0d368b73)", async () => {
    const c = client();
    await new PostgresReplayStore({ client: c, table: "akd", sweepIntervalMs: 1e12 }).checkAndRecord("s", "a", 2, 1000);
    expect(c.sent.filter(isInsert).map((q) => q.name)).toEqual(["agent_contracts_insert_0d368b73"]);
  });
});
