// replay-redis.ts through fake clients that record every command: the expected commands are
// written out by hand from the file's contract (one `SET key 1 NX PX ttl` per check, the key
// `<prefix>{base64url(scope)}:base64url(key)`, `INFO memory` once to refuse evicting servers, SCAN
// for size, GET / EVAL for bookmarks) and Redis's replies (OK or nil for SET NX, an OOM error
// under noeviction). The real server runs in property-tests/fleet/stores.test.ts (make test).
import { describe, expect, it } from "vitest";
import { RedisBookmarkStore, RedisReplayStore } from "../../generators/targets/ts/runtime/src/replay-redis.js";
import { StoreTimeoutError } from "../../generators/targets/ts/runtime/src/store-support.js";

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
const INFO_OK = "# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_policy:allkeys-lru\r\n";
const scripted = (set: Reply, info: Reply = INFO_OK) => (args: string[]) => (args[0] === "INFO" ? info : set);
// base64url by hand (RFC 4648 § 5): "s" = 0x73 -> "cw", "k" = 0x6b -> "aw", "é" = c3 a9 -> "w6k", "a/b" -> "YS9i".
const KEY_S_K = "agent-contracts:replay:{cw}:aw";

describe("RedisReplayStore", () => {
  it("needs exactly one of url or client", () => {
    expect(() => new RedisReplayStore({})).toThrow(new TypeError("a Redis store needs exactly one of { url } or { client }"));
    expect(() => new RedisReplayStore({ url: "redis://x", client: fakeRedis().client })).toThrow(TypeError);
  });
  it("checks the eviction policy once, then one SET NX PX per check: OK is recorded, nil replayed", async () => {
    let setReply: unknown = "OK";
    const { client, sent } = fakeRedis((args) => (args[0] === "INFO" ? INFO_OK : setReply));
    const store = new RedisReplayStore({ client });
    expect(await store.checkAndRecord("s", "k", 61_000, 1_000)).toBe("recorded");
    setReply = null;
    expect(await store.checkAndRecord("é", "a/b", 1500.2, 1000)).toBe("replayed");
    expect(sent).toEqual([
      ["INFO", "memory"],
      ["SET", KEY_S_K, "1", "NX", "PX", "60000"],
      ["SET", "agent-contracts:replay:{w6k}:YS9i", "1", "NX", "PX", "501"],
    ]);
  });
  it("a retention already over still sets a 1 ms expiry (PX must be positive)", async () => {
    const { client, sent } = fakeRedis(scripted("OK"));
    await new RedisReplayStore({ client, checkEvictionPolicy: false }).checkAndRecord("s", "k", 100, 200);
    expect(sent).toEqual([["SET", KEY_S_K, "1", "NX", "PX", "1"]]);
  });
  it("the key prefix is configurable, and the scope sits in a hash tag", () => {
    const { client } = fakeRedis();
    expect(new RedisReplayStore({ client, keyPrefix: "app:" }).redisKey("s", "k")).toBe("app:{cw}:aw");
    expect(new RedisReplayStore({ client }).redisKey("s", "k")).toBe(KEY_S_K);
    // (scope, key) pairs that would collide when joined plainly do not.
    const store = new RedisReplayStore({ client });
    expect(store.redisKey("a:b", "c")).not.toBe(store.redisKey("a", "b:c"));
  });
  it("refuses a server with a memory limit and an evicting policy, and asks again next time", async () => {
    let info = "maxmemory:1048576\r\nmaxmemory_policy:allkeys-lru\r\n";
    const { client, sent } = fakeRedis((args) => (args[0] === "INFO" ? info : "OK"));
    const store = new RedisReplayStore({ client });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(
      "redis evicts keys under memory pressure (maxmemory-policy allkeys-lru): live replay records could be dropped; set maxmemory-policy noeviction",
    );
    expect(sent).toEqual([["INFO", "memory"]]);
    info = "maxmemory:1048576\r\nmaxmemory_policy:noeviction\r\n";
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(sent.map((a) => a[0])).toEqual(["INFO", "INFO", "SET"]);
  });
  it("a policy line missing reads as unknown; no memory limit means nothing is evicted", async () => {
    const limited = fakeRedis(scripted("OK", "maxmemory:5\r\n"));
    await expect(new RedisReplayStore({ client: limited.client }).checkAndRecord("s", "k", 2, 1)).rejects.toThrow("(maxmemory-policy unknown)");
    for (const info of ["maxmemory_policy:volatile-lru\r\n", "maxmemory:0\r\nmaxmemory_policy:allkeys-random\r\n", ""]) {
      expect(await new RedisReplayStore({ client: fakeRedis(scripted("OK", info)).client }).checkAndRecord("s", "k", 2, 1), info).toBe("recorded");
    }
    // Only whole lines count: "xmaxmemory:5" is not the maxmemory field.
    expect(await new RedisReplayStore({ client: fakeRedis(scripted("OK", "xmaxmemory:5\r\nmaxmemory_policy:allkeys-lru\r\n")).client }).checkAndRecord("s", "k", 2, 1)).toBe("recorded");
  });
  it("checkEvictionPolicy: false sends no INFO", async () => {
    const { client, sent } = fakeRedis();
    await new RedisReplayStore({ client, checkEvictionPolicy: false }).checkAndRecord("s", "k", 2000, 1000);
    expect(sent.map((a) => a[0])).toEqual(["SET"]);
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
    const ioredis = { call: async (command: string, ...args: string[]) => (calls.push([command, ...args]), command === "INFO" ? INFO_OK : "OK") };
    expect(await new RedisReplayStore({ client: ioredis }).checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(calls).toEqual([["INFO", "memory"], ["SET", KEY_S_K, "1", "NX", "PX", "1000"]]);
    const neither = { query: async () => "OK" } as never;
    await expect(new RedisReplayStore({ client: neither }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(
      new TypeError("client must be a node-redis client (sendCommand) or an ioredis client (call)"),
    );
    const notFunctions = { call: "x", sendCommand: 1 } as never;
    await expect(new RedisReplayStore({ client: notFunctions }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(TypeError);
  });
  it("every command has a deadline (timeoutMs, 2000 by default)", async () => {
    const { client } = fakeRedis(() => () => new Promise(() => {}));
    const store = new RedisReplayStore({ client, timeoutMs: 30, checkEvictionPolicy: false });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(new StoreTimeoutError("redis SET", 30));
    // Connected now: the fast path has the same deadline.
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(new StoreTimeoutError("redis SET", 30));
  });
  it("close() leaves a given client open and the store usable again", async () => {
    const { client, sent } = fakeRedis();
    const store = new RedisReplayStore({ client, checkEvictionPolicy: false });
    await store.checkAndRecord("s", "k", 2000, 1000);
    await store.close();
    await store.close();
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(sent.length).toBe(2);
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
