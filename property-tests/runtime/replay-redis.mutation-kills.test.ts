// replay-redis.ts through fake clients that record every command: the expected commands are
// written out by hand from the file's contract (one `SET key 1 NX PXAT retain-until` per check,
// the key `<prefix>{base64url(scope)}:base64url(key)`, TIME, `INFO memory` and `INFO persistence`
// before the first check and every checkIntervalMs to refuse evicting or non-persisting servers
// and skewed clocks, WAIT when asked, SCAN for size, GET / EVAL for bookmarks) and Redis's replies
// (OK or nil for SET NX, an OOM error under noeviction, TIME as seconds and microseconds). The
// real server runs in property-tests/fleet/stores.test.ts and fleet-safety.test.ts (make test).
import { describe, expect, it, vi } from "vitest";
import { RedisBookmarkStore, RedisReplayStore } from "../../generators/targets/ts/runtime/src/replay-redis.js";
import { StoreSafetyError, StoreTimeoutError } from "../../generators/targets/ts/runtime/src/store-support.js";

type Reply = unknown | Error | (() => Promise<unknown>);
/** A node-redis-like client: answers each command with the first matching scripted reply. */
function fakeRedis(answer: (args: string[]) => Reply = () => "OK") {
  const sent: string[][] = [];
  const client = {
    sendCommand: async (args: string[]) => {
      sent.push(args);
      const reply = answer(args);
      if (typeof reply === "function") return (reply as () => Promise<unknown>)();
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
  return { client, sent };
}
const INFO_OK = "# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_policy:noeviction\r\n";
const PERSISTENCE_OK = "# Persistence\r\nloading:0\r\naof_enabled:1\r\naof_rewrite_in_progress:0\r\naof_last_write_status:ok\r\n";
/** The server's clock for TIME: 1000 ms after the epoch, as the seconds and microseconds Redis sends. */
const TIME_1000 = ["1", "0"];
const CHECKS = [["INFO", "memory"], ["INFO", "persistence"], ["TIME"]];
const scripted =
  (set: Reply, info: Reply = INFO_OK, persistence: Reply = PERSISTENCE_OK, time: Reply = TIME_1000) =>
  (args: string[]) =>
    args[0] === "TIME" ? time : args[0] === "INFO" ? (args[1] === "memory" ? info : persistence) : set;
// base64url by hand (RFC 4648 § 5): "s" = 0x73 -> "cw", "k" = 0x6b -> "aw", "é" = c3 a9 -> "w6k", "a/b" -> "YS9i".
const KEY_S_K = "agent-contracts:replay:{cw}:aw";

describe("RedisReplayStore", () => {
  it("needs exactly one of url or client", () => {
    expect(() => new RedisReplayStore({})).toThrow(new TypeError("a Redis store needs exactly one of { url } or { client }"));
    expect(() => new RedisReplayStore({ url: "redis://x", client: fakeRedis().client })).toThrow(TypeError);
  });
  it("checks the server once, then one SET NX PXAT (the absolute retain-until, rounded up) per check: OK is recorded, nil replayed", async () => {
    let setReply: unknown = "OK";
    const { client, sent } = fakeRedis((args) => scripted(setReply)(args));
    const store = new RedisReplayStore({ client });
    expect(await store.checkAndRecord("s", "k", 61_000, 1_000)).toBe("recorded");
    setReply = null;
    expect(await store.checkAndRecord("é", "a/b", 1500.2, 1000)).toBe("replayed");
    expect(sent).toEqual([...CHECKS, ["SET", KEY_S_K, "1", "NX", "PXAT", "61000"], ["SET", "agent-contracts:replay:{w6k}:YS9i", "1", "NX", "PXAT", "1501"]]);
  });
  it("a retain-until below 1 still sets PXAT 1 (PXAT must be positive)", async () => {
    const { client, sent } = fakeRedis(scripted("OK"));
    await new RedisReplayStore({ client, maxClockSkewMs: 1e6 }).checkAndRecord("s", "k", -5, 200);
    expect(sent.slice(3)).toEqual([["SET", KEY_S_K, "1", "NX", "PXAT", "1"]]);
  });
  it("the key prefix is configurable, and the scope sits in a hash tag", () => {
    const { client } = fakeRedis();
    expect(new RedisReplayStore({ client, keyPrefix: "app:" }).redisKey("s", "k")).toBe("app:{cw}:aw");
    expect(new RedisReplayStore({ client }).redisKey("s", "k")).toBe(KEY_S_K);
    // (scope, key) pairs that would collide when joined plainly do not.
    const store = new RedisReplayStore({ client });
    expect(store.redisKey("a:b", "c")).not.toBe(store.redisKey("a", "b:c"));
    // The last scope's encoded prefix is reused; another scope in between is not mistaken for it
    // (base64url by hand: "s" is cw, "t" dA, "k" aw, "j" ag).
    expect(["s", "t", "t", "s", "s"].map((scope, i) => store.redisKey(scope, i % 2 === 0 ? "k" : "j"))).toEqual([
      "agent-contracts:replay:{cw}:aw",
      "agent-contracts:replay:{dA}:ag",
      "agent-contracts:replay:{dA}:aw",
      "agent-contracts:replay:{cw}:ag",
      "agent-contracts:replay:{cw}:aw",
    ]);
  });
  it("refuses a server whose policy is not noeviction, with or without a memory limit, and asks again next time", async () => {
    let info = "maxmemory:1048576\r\nmaxmemory_policy:allkeys-lru\r\n";
    const { client, sent } = fakeRedis((args) => scripted("OK", info)(args));
    const store = new RedisReplayStore({ client });
    const refused = store.checkAndRecord("s", "k", 2000, 1000);
    await expect(refused).rejects.toThrow(
      new StoreSafetyError("may-evict", "redis may evict keys (maxmemory-policy allkeys-lru): live replay records could be dropped; set maxmemory-policy noeviction"),
    );
    await expect(refused).rejects.toMatchObject({ problem: "may-evict", name: "StoreSafetyError" });
    expect(sent).toEqual(CHECKS);
    info = "maxmemory:1048576\r\nmaxmemory_policy:noeviction\r\n";
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(sent.map((a) => a[0])).toEqual(["INFO", "INFO", "TIME", "INFO", "INFO", "TIME", "SET"]);
    for (const other of ["maxmemory:0\r\nmaxmemory_policy:allkeys-random\r\n", "maxmemory_policy:volatile-lru\r\n", "maxmemory:5\r\n", "xmaxmemory_policy:noeviction\r\n"]) {
      await expect(new RedisReplayStore({ client: fakeRedis(scripted("OK", other)).client }).checkAndRecord("s", "k", 2, 1000), other).rejects.toThrow(/may evict keys/);
    }
    await expect(new RedisReplayStore({ client: fakeRedis(scripted("OK", "maxmemory:5\r\n")).client }).checkAndRecord("s", "k", 2, 1000)).rejects.toThrow("(maxmemory-policy unknown)");
  });
  it("refuses a server without AOF, or whose last AOF write failed", async () => {
    for (const persistence of ["aof_enabled:0\r\naof_last_write_status:ok\r\n", "aof_enabled:1\r\naof_last_write_status:err\r\n", "aof_last_write_status:ok\r\n", "aof_enabled:1\r\n", "aof_enabled:10\r\naof_last_write_status:ok\r\n", "aof_enabled:1\r\naof_last_write_status:okay\r\n", "xaof_enabled:1\r\naof_last_write_status:ok\r\n", "aof_enabled:1\r\nxaof_last_write_status:ok\r\n"]) {
      const refused = new RedisReplayStore({ client: fakeRedis(scripted("OK", INFO_OK, persistence)).client }).checkAndRecord("s", "k", 2, 1000);
      await expect(refused, persistence).rejects.toThrow(
        new StoreSafetyError("not-persistent", "redis is not persisting records (appendonly no, or the last AOF write failed): a restart would forget them; set appendonly yes (appendfsync always)"),
      );
      await expect(refused).rejects.toMatchObject({ problem: "not-persistent" });
    }
    for (const persistence of [PERSISTENCE_OK, "aof_enabled:1\naof_last_write_status:ok", "aof_last_write_status:ok\r\naof_enabled:1"]) {
      expect(await new RedisReplayStore({ client: fakeRedis(scripted("OK", INFO_OK, persistence)).client }).checkAndRecord("s", "k", 2, 1000), persistence).toBe("recorded");
    }
  });
  it("checkEvictionPolicy: false and checkPersistence: false send only TIME", async () => {
    const { client, sent } = fakeRedis(scripted("OK", "maxmemory_policy:allkeys-lru", "aof_enabled:0"));
    await new RedisReplayStore({ client, checkEvictionPolicy: false, checkPersistence: false }).checkAndRecord("s", "k", 2000, 1000);
    expect(sent.map((a) => a[0])).toEqual(["TIME", "SET"]);
  });
  it("refuses (StoreSafetyError clock-skew) while the caller's clock is further than maxClockSkewMs (1000 ms by default) from the server's TIME", async () => {
    const { client, sent } = fakeRedis(scripted("OK", INFO_OK, PERSISTENCE_OK, ["1000", "500000"]));
    const store = new RedisReplayStore({ client });
    // Margins of several hundred ms: the server's clock moves on while the test runs (slowly, under Stryker).
    expect(await store.checkAndRecord("s", "k", 2e6, 1_000_500 + 700)).toBe("recorded");
    expect(await store.checkAndRecord("s", "k", 2e6, 1_000_500 - 500)).toBe("recorded");
    for (const [off, shown] of [[1600, /by 1[0-6]\d\d ms/], [-1600, /by -(1[6-9]|2\d)\d\d ms/]] as const) {
      const refused = store.checkAndRecord("s", "k", 2e6, 1_000_500 + off);
      await expect(refused).rejects.toMatchObject({ problem: "clock-skew", name: "StoreSafetyError" });
      await expect(refused).rejects.toThrow(/clock differs from the Redis server's by -?\d+ ms, more than the 1000 ms allowed/);
      await expect(refused).rejects.toThrow(shown);
    }
    expect(await new RedisReplayStore({ client, maxClockSkewMs: 5000 }).checkAndRecord("s", "k", 2e6, 1_000_500 + 4000)).toBe("recorded");
    expect(sent.filter((a) => a[0] === "SET").length).toBe(3);
  });
  it("the server is checked again every checkIntervalMs (5000 ms by default), after a failed check, and after a reconnect", async () => {
    // The monotonic clock is the test's: a loaded machine's stalls between two lines (40 ms of
    // real time did, at load 34) cannot age the last check.
    let clockMs = 1000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => clockMs);
    try {
      let memory = INFO_OK;
      const listeners: (() => void)[] = [];
      const fake = fakeRedis((args) => scripted("OK", memory)(args));
      const client = Object.assign(fake.client, { on: (event: string, listener: () => void) => void (event === "ready" && listeners.push(listener)) });
      const store = new RedisReplayStore({ client, checkIntervalMs: 40 });
      const times = () => fake.sent.filter((a) => a[0] === "TIME").length;
      await store.checkAndRecord("s", "a", 2, 1000);
      await store.checkAndRecord("s", "b", 2, 1000);
      expect(times()).toBe(1);
      clockMs += 60;
      memory = "maxmemory_policy:allkeys-lru\r\n";
      await expect(store.checkAndRecord("s", "c", 2, 1000)).rejects.toThrow(/allkeys-lru/);
      memory = INFO_OK;
      expect(await store.checkAndRecord("s", "c", 2, 1000)).toBe("recorded");
      expect(await store.checkAndRecord("s", "d", 2, 1000)).toBe("recorded");
      expect(times()).toBe(3);
      // The client reconnected (node-redis and ioredis emit "ready"): checked again at once.
      expect(listeners.length).toBe(1);
      listeners[0]!();
      await store.checkAndRecord("s", "e", 2, 1000);
      await store.checkAndRecord("s", "f", 2, 1000);
      expect(times()).toBe(4);
      const defaults = fakeRedis(scripted("OK"));
      const slow = new RedisReplayStore({ client: defaults.client });
      await slow.checkAndRecord("s", "a", 2, 1000);
      clockMs += 60;
      await slow.checkAndRecord("s", "b", 2, 1000);
      expect(defaults.sent.filter((a) => a[0] === "TIME").length).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });
  it("waitForReplicas: WAIT after a new record only; fewer acknowledgements than asked refuse (not-replicated)", async () => {
    let acknowledged: unknown = 1;
    let setReply: unknown = "OK";
    const { client, sent } = fakeRedis((args) => (args[0] === "WAIT" ? acknowledged : scripted(setReply)(args)));
    const store = new RedisReplayStore({ client, waitForReplicas: { replicas: 1, timeoutMs: 300 } });
    expect(await store.checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    expect(sent.slice(3)).toEqual([["SET", KEY_S_K, "1", "NX", "PXAT", "2"], ["WAIT", "1", "300"]]);
    acknowledged = 2;
    expect(await store.checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    acknowledged = 0;
    const refused = store.checkAndRecord("s", "k", 2, 1000);
    await expect(refused).rejects.toThrow(new StoreSafetyError("not-replicated", "redis WAIT: 0 of 1 replicas acknowledged the record within 300 ms; a failover could lose it"));
    await expect(refused).rejects.toMatchObject({ problem: "not-replicated" });
    acknowledged = "x";
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow(/NaN of 1 replicas/);
    setReply = null;
    expect(await store.checkAndRecord("s", "k", 2, 1000)).toBe("replayed");
    expect(sent.filter((a) => a[0] === "WAIT").length).toBe(4);
    for (const bad of [{ replicas: 0, timeoutMs: 100 }, { replicas: 1.5, timeoutMs: 100 }, { replicas: 1, timeoutMs: 0 }, { replicas: 1, timeoutMs: 2.5 }, { replicas: 1, timeoutMs: 2000 }, { replicas: Number.NaN, timeoutMs: 100 }, { replicas: 1, timeoutMs: Number.NaN }]) {
      expect(() => new RedisReplayStore({ client, waitForReplicas: bad }), JSON.stringify(bad)).toThrow(
        new TypeError("waitForReplicas needs a positive integer replicas and a positive integer timeoutMs below the command deadline (timeoutMs)"),
      );
    }
    expect(() => new RedisReplayStore({ client, timeoutMs: 3000, waitForReplicas: { replicas: 2, timeoutMs: 2999 } })).not.toThrow();
  });
  it("an OOM refusal (noeviction at its limit) is full; any other error is passed on", async () => {
    const oom = fakeRedis(scripted(new Error("OOM command not allowed when used memory > 'maxmemory'.")));
    expect(await new RedisReplayStore({ client: oom.client }).checkAndRecord("s", "k", 2000, 1000)).toBe("full");
    const other = fakeRedis(scripted(new Error("READONLY You can't write against a read only replica. OOM")));
    await expect(new RedisReplayStore({ client: other.client }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow("READONLY");
    const text = fakeRedis(scripted(() => Promise.reject("OOM as a string")));
    await expect(new RedisReplayStore({ client: text.client }).checkAndRecord("s", "k", 2000, 1000)).rejects.toBe("OOM as a string");
  });
  it("size() walks SCAN until the cursor is 0, matching only this prefix (glob characters escaped)", async () => {
    const pages: Record<string, [string, string[]]> = { "0": ["17", ["a", "b"]], "17": ["4", []], "4": ["0", ["c"]] };
    const { client, sent } = fakeRedis((args) => pages[args[1]!]);
    expect(await new RedisReplayStore({ client, keyPrefix: "a*b?[c]\\:" }).size()).toBe(3);
    expect(sent).toEqual([
      ["SCAN", "0", "MATCH", "a\\*b\\?\\[c\\]\\\\:*", "COUNT", "1000"],
      ["SCAN", "17", "MATCH", "a\\*b\\?\\[c\\]\\\\:*", "COUNT", "1000"],
      ["SCAN", "4", "MATCH", "a\\*b\\?\\[c\\]\\\\:*", "COUNT", "1000"],
    ]);
    const numeric = fakeRedis(() => [0, ["x"]]);
    expect(await new RedisReplayStore({ client: numeric.client }).size()).toBe(1);
  });
  it("Redis expires records itself: evictExpired removes nothing and sends nothing", async () => {
    const { client, sent } = fakeRedis();
    expect(await new RedisReplayStore({ client }).evictExpired(1e15)).toBe(0);
    expect(sent).toEqual([]);
  });
  it("works with an ioredis client (call), and refuses anything else", async () => {
    const calls: unknown[][] = [];
    const ioredis = { call: async (command: string, ...args: string[]) => (calls.push([command, ...args]), scripted("OK")([command, ...args])) };
    expect(await new RedisReplayStore({ client: ioredis }).checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(calls).toEqual([...CHECKS, ["SET", KEY_S_K, "1", "NX", "PXAT", "2000"]]);
    const neither = { query: async () => "OK" } as never;
    await expect(new RedisReplayStore({ client: neither }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(
      new TypeError("client must be a node-redis client (sendCommand) or an ioredis client (call)"),
    );
    const notFunctions = { call: "x", sendCommand: 1 } as never;
    await expect(new RedisReplayStore({ client: notFunctions }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(TypeError);
  });
  it("every command has a deadline (timeoutMs, 2000 by default)", async () => {
    const { client } = fakeRedis((args) => (args[0] === "SET" ? () => new Promise(() => {}) : scripted("OK")(args)));
    const store = new RedisReplayStore({ client, timeoutMs: 30 });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(new StoreTimeoutError("redis SET", 30));
    // Connected now: the fast path has the same deadline.
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(new StoreTimeoutError("redis SET", 30));
  });
  it("close() leaves a given client open and the store usable again", async () => {
    const { client, sent } = fakeRedis(scripted("OK"));
    const store = new RedisReplayStore({ client });
    await store.checkAndRecord("s", "k", 2000, 1000);
    await store.close();
    await store.close();
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    // The application's client stays connected through close(): nothing to check again.
    expect(sent.map((a) => a[0])).toEqual(["INFO", "INFO", "TIME", "SET", "SET"]);
  });
  it("a store created from a URL loads node-redis and fails closed when nothing listens", async () => {
    const store = new RedisReplayStore({ url: "redis://127.0.0.1:1", timeoutMs: 500 });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow();
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow();
    await store.close();
  });
});

describe("RedisBookmarkStore", () => {
  it("GET for the position (nil is 0), an atomic forward-only EVAL to advance", async () => {
    const { client, sent } = fakeRedis((args) => (args[0] === "GET" ? (args[1] === "agent-contracts:bookmark:{cw}" ? "7" : null) : 9));
    const store = new RedisBookmarkStore({ client });
    expect(await store.position("s")).toBe(7);
    expect(await store.position("k")).toBe(0);
    expect(await store.advance("s", 9)).toBe(9);
    expect(sent.slice(0, 2)).toEqual([["GET", "agent-contracts:bookmark:{cw}"], ["GET", "agent-contracts:bookmark:{aw}"]]);
    const [evalCommand, script, numKeys, key, value] = sent[2]!;
    expect([evalCommand, numKeys, key, value]).toEqual(["EVAL", "1", "agent-contracts:bookmark:{cw}", "9"]);
    // The script compares and sets on the server: GET, tonumber, SET only when greater.
    expect(script).toMatch(/redis\.call\('GET', KEYS\[1\]\)/);
    expect(script).toMatch(/if n > c then redis\.call\('SET', KEYS\[1\], ARGV\[1\]\)/);
  });
  it("an undefined reply is 0; a custom prefix is used; bad sequences are refused before any command", async () => {
    const { client, sent } = fakeRedis(() => undefined);
    const store = new RedisBookmarkStore({ client, keyPrefix: "b:" });
    expect(await store.position("s")).toBe(0);
    await expect(store.advance("s", -1)).rejects.toThrow(RangeError);
    expect(sent).toEqual([["GET", "b:{cw}"]]);
    await store.close();
  });
});
