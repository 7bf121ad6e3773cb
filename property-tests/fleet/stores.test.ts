// The four replay stores against one contract, and the fleet properties against real servers:
// exactly once across racing processes, records surviving a server restart, and failing closed
// when the server is down, silent or drops the connection mid-check.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplayGuard, type ReplayDeclaration } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { RedisConnection, RedisReplayStore } from "../../generators/targets/ts/runtime/src/replay-redis.js";
import { PostgresReplayStore } from "../../generators/targets/ts/runtime/src/replay-postgres.js";
import { freePort, missingServers, REQUIRE_SERVERS, startPostgres, startRedis, type PostgresServer, type RedisServer } from "./servers.js";
import { makeStore, type ClosableStore, type StoreKind } from "./stores.js";

const missing = missingServers();
if (missing !== undefined && REQUIRE_SERVERS) throw new Error(`fleet store suites need real servers: ${missing}`);
if (missing !== undefined) console.log(`Fleet store suites (Redis, PostgreSQL) skipped: ${missing}`);
const describeServers = missing === undefined ? describe : describe.skip;

const TRIGGER: ReplayDeclaration = { keyFields: ["request_id"], scopeFields: ["provider_id"], expiresAtField: "expires_at", skewSeconds: 1 };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let unique = 0;
const fresh = (label: string): string => `${label}-${process.pid}-${unique++}`;

let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
beforeAll(async () => {
  if (missing !== undefined) return;
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

const urlOf = (kind: StoreKind): string => (kind === "redis" ? (redis as RedisServer).url : kind === "postgres" ? (postgres as PostgresServer).url : "");
const kinds: StoreKind[] = ["memory", "sqlite", "redis", "postgres"];

for (const kind of kinds) {
  const suite = kind === "memory" || kind === "sqlite" ? describe : describeServers;
  suite(`the ${kind} store keeps the replay contract`, () => {
    let store: ClosableStore;
    beforeAll(() => {
      store = makeStore(kind, urlOf(kind), { keyPrefix: fresh("contract:"), table: `contract_${unique++}` });
    });
    afterAll(async () => store.close());

    it("records a key once per scope, and tells distinct (scope, key) pairs apart", async () => {
      const now = Date.now();
      const until = now + 60_000;
      expect(await store.checkAndRecord("s", "k", until, now)).toBe("recorded");
      expect(await store.checkAndRecord("s", "k", until, now)).toBe("replayed");
      expect(await store.checkAndRecord("t", "k", until, now)).toBe("recorded");
      // Concatenation must not alias: ("ab", "c") and ("a", "bc") are different records.
      expect(await store.checkAndRecord("ab", "c", until, now)).toBe("recorded");
      expect(await store.checkAndRecord("a", "bc", until, now)).toBe("recorded");
      expect(await store.checkAndRecord('["a"]', "{x}", until, now)).toBe("recorded");
    });

    it("admits a key again only once its retain-until has passed", async () => {
      const start = Date.now();
      expect(await store.checkAndRecord("expiry", "k", start + 400, start)).toBe("recorded");
      expect(await store.checkAndRecord("expiry", "k", start + 400, Date.now())).toBe("replayed");
      await sleep(600);
      expect(await store.checkAndRecord("expiry", "k", Date.now() + 400, Date.now())).toBe("recorded");
    });

    it("agrees with a model of first sightings over random sequences (fast-check)", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("p", "q"), fc.constantFrom("k1", "k2", "k3", "k1:")), { maxLength: 25 }), async (ops) => {
          const scopePrefix = fresh("model");
          const seen = new Set<string>();
          const now = Date.now();
          for (const [scope, key] of ops) {
            const expected = seen.has(`${scope}\u0000${key}`) ? "replayed" : "recorded";
            seen.add(`${scope}\u0000${key}`);
            expect(await store.checkAndRecord(`${scopePrefix}${scope}`, key, now + 60_000, now)).toBe(expected);
          }
        }),
        { numRuns: 15, seed: 1801 },
      );
    });

    it("backs a ReplayGuard: a signed trigger is admitted once", async () => {
      const guard = new ReplayGuard(TRIGGER, store);
      const message = { request_id: fresh("req"), provider_id: "provider.app", expires_at: new Date(Date.now() + 60_000).toISOString() };
      expect(await guard.admit(message)).toEqual({ ok: true });
      expect(await guard.admit(message)).toMatchObject({ ok: false, error: { code: "replayed" } });
    });
  });
}

/** Starts `n` racing child processes over one server and returns a function feeding them a batch. */
async function racers(kind: StoreKind, url: string, n: number): Promise<{ race: (scope: string, keys: string[]) => Promise<string[][]>; stop: () => void }> {
  const children: ChildProcessWithoutNullStreams[] = [];
  const readers: AsyncIterator<string>[] = [];
  for (let i = 0; i < n; i++) {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./race-child.ts", import.meta.url)), kind, url]);
    children.push(child);
    readers.push(createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  }
  const race = async (scope: string, keys: string[]): Promise<string[][]> => {
    const line = JSON.stringify({ scope, keys, retainUntilMs: Date.now() + 60_000 }) + "\n";
    for (const child of children) child.stdin.write(line);
    return Promise.all(readers.map(async (r) => JSON.parse((await r.next()).value as string) as string[]));
  };
  // Every racer connected before the property starts, so its first batch is a real race.
  await race(fresh("warm-up"), ["warm-up"]);
  return {
    race,
    stop: () => {
      for (const child of children) child.stdin.end();
    },
  };
}

for (const kind of ["redis", "postgres"] as const) {
  describeServers(`${kind}: fleet properties against a real server`, () => {
    it("exactly once: 4 processes racing the same keys record each key exactly once", async () => {
      const url = urlOf(kind);
      const pool = await racers(kind, url, 4);
      try {
        await fc.assert(
          fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 40 }), async (keys) => {
            const scope = fresh("race");
            const outcomes = await pool.race(scope, keys);
            for (const o of outcomes) for (const v of o) if (v.startsWith("error")) throw new Error(`racer failed: ${v}`);
            keys.forEach((_, i) => {
              const column = outcomes.map((o) => o[i]);
              expect(column.filter((o) => o === "recorded")).toHaveLength(1);
              expect(column.filter((o) => o === "replayed")).toHaveLength(3);
            });
          }),
          { numRuns: 8, seed: 1802 },
        );
      } finally {
        pool.stop();
      }
    });

    it("survives the server: a restart after a crash loses no recorded key", async () => {
      const store = makeStore(kind, urlOf(kind), { table: "restart_records", keyPrefix: "restart:" });
      const now = Date.now();
      const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
      for (const k of keys) expect(await store.checkAndRecord("restart", k, now + 120_000, Date.now())).toBe("recorded");
      await store.close();
      if (kind === "redis") {
        await (redis as RedisServer).kill();
        await (redis as RedisServer).start();
      } else {
        await (postgres as PostgresServer).crash();
        await (postgres as PostgresServer).start();
      }
      const after = makeStore(kind, urlOf(kind), { table: "restart_records", keyPrefix: "restart:" });
      for (const k of keys) expect(await after.checkAndRecord("restart", k, Date.now() + 120_000, Date.now())).toBe("replayed");
      await after.close();
    }, 60_000);

    it("fails closed when the server is down: the guard refuses with store-unavailable", async () => {
      const port = await freePort(); // nothing listens here
      const url = kind === "redis" ? `redis://127.0.0.1:${port}` : `postgresql://postgres@127.0.0.1:${port}/postgres`;
      const store = makeStore(kind, url, { timeoutMs: 1000 });
      const guard = new ReplayGuard(TRIGGER, store);
      const decision = await guard.admit({ request_id: fresh("down"), provider_id: "p", expires_at: new Date(Date.now() + 60_000).toISOString() });
      expect(decision).toMatchObject({ ok: false, error: { code: "store-unavailable" } });
      await store.close();
    });

    it("fails closed when the server never answers (deadline), and when the connection drops mid-check", async () => {
      const { port: target } = new URL(urlOf(kind));
      const silent = await blackHole();
      const store = makeStore(kind, kind === "redis" ? `redis://127.0.0.1:${silent.port}` : `postgresql://postgres@127.0.0.1:${silent.port}/postgres`, { timeoutMs: 500 });
      const guard = new ReplayGuard(TRIGGER, store);
      expect(await guard.admit({ request_id: fresh("silent"), provider_id: "p", expires_at: new Date(Date.now() + 60_000).toISOString() })).toMatchObject({ ok: false, error: { code: "store-unavailable" } });
      void store.close();
      silent.server.close();

      // A proxy that forwards everything but cuts the connection as the server's answer to the
      // recording command comes back: the write happened, the answer never arrived.
      const proxy = await cuttingProxy(Number(target), kind === "redis" ? /\r\nSET\r\n/ : /INSERT INTO/);
      const message = { request_id: fresh("cut"), provider_id: "p", expires_at: new Date(Date.now() + 60_000).toISOString() };
      const viaProxy = makeStore(kind, kind === "redis" ? `redis://127.0.0.1:${proxy.port}` : `postgresql://postgres@127.0.0.1:${proxy.port}/postgres`, { timeoutMs: 1000, table: "cut_records", keyPrefix: "cut:" });
      expect(await new ReplayGuard(TRIGGER, viaProxy).admit(message)).toMatchObject({ ok: false, error: { code: "store-unavailable" } });
      void viaProxy.close();
      proxy.server.close();
      // Afterwards the message is not admitted: the record it left is there, or it is still refused.
      const direct = makeStore(kind, urlOf(kind), { table: "cut_records", keyPrefix: "cut:" });
      const again = await new ReplayGuard(TRIGGER, direct).admit(message);
      expect(again.ok ? "admitted" : again.error.code).toBe("replayed");
      await direct.close();
    }, 30_000);
  });
}

describeServers("store-specific guarantees", () => {
  it("redis: refuses a server whose eviction policy could drop live records", async () => {
    const admin = new RedisConnection({ url: (redis as RedisServer).url });
    const config = (args: string[]): Promise<unknown> => admin.command(args);
    await config(["CONFIG", "SET", "maxmemory", "100mb"]);
    await config(["CONFIG", "SET", "maxmemory-policy", "allkeys-lru"]);
    const store = new RedisReplayStore({ url: (redis as RedisServer).url });
    const guard = new ReplayGuard(TRIGGER, store);
    const decision = await guard.admit({ request_id: fresh("lru"), provider_id: "p", expires_at: new Date(Date.now() + 60_000).toISOString() });
    expect(decision).toMatchObject({ ok: false, error: { code: "store-unavailable" } });
    expect(decision.ok ? "" : decision.error.message).toMatch(/maxmemory-policy allkeys-lru/);
    await config(["CONFIG", "SET", "maxmemory-policy", "noeviction"]);
    await config(["CONFIG", "SET", "maxmemory", "0"]);
    await store.close();
    await admin.close();
  });

  it("postgres: replicas starting together on a fresh table all migrate and check (advisory lock)", async () => {
    const table = `fresh_${process.pid}_${unique++}`;
    const replicas = Array.from({ length: 6 }, () => new PostgresReplayStore({ url: (postgres as PostgresServer).url, table }));
    const now = Date.now();
    const outcomes = await Promise.all(replicas.map((r) => r.checkAndRecord("fresh", "k", now + 60_000, now)));
    expect(outcomes.filter((o) => o === "recorded")).toHaveLength(1);
    await Promise.all(replicas.map((r) => r.close()));
  });

  it("postgres: expired rows are deleted in bounded batches, and the migration is printable", async () => {
    const store = new PostgresReplayStore({ url: (postgres as PostgresServer).url, table: "sweep_records", sweepBatch: 7, sweepIntervalMs: 1e12 });
    const now = Date.now();
    // Already expired on the server's clock, which the sweep compares with (not the caller's).
    for (let i = 0; i < 20; i++) await store.checkAndRecord("sweep", `k${i}`, now - 1000, Date.now());
    expect(await store.evictExpired(0)).toBe(7);
    expect(await store.size()).toBe(13);
    expect(PostgresReplayStore.migrationSql("sweep_records")).toContain("CREATE INDEX IF NOT EXISTS sweep_records_retain_until_idx");
    expect(() => new PostgresReplayStore({ url: "postgres://x", table: "x; DROP TABLE y" })).toThrow(/identifier/);
    await store.close();
  });
});

/** A TCP server that accepts connections and never answers. */
async function blackHole(): Promise<{ server: Server; port: number }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  server.on("close", () => sockets.forEach((s) => s.destroy()));
  const port = await listen(server);
  return { server, port };
}

/** Forwards to 127.0.0.1:target, but destroys the client's connection when the server answers a request matching `cut`. */
async function cuttingProxy(target: number, cut: RegExp): Promise<{ server: Server; port: number }> {
  const server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    let armed = false;
    client.on("data", (chunk: Buffer) => {
      if (cut.test(chunk.toString("latin1"))) armed = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (armed) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  return { server, port: await listen(server) };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
}
