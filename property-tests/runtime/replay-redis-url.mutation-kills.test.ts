// replay-redis.ts's stores created from a URL, with node-redis replaced by a recording fake
// (vi.mock): what the file promises of the client it creates and owns — the URL, no offline queue,
// the command deadline as connect timeout, at most 3 reconnect attempts 100 ms apart, an error
// listener so a dropped socket does not crash the process, one client per store, a failed connect
// not cached, and close() closing it. The real node-redis runs in property-tests/fleet/stores.test.ts.
import { beforeEach, describe, expect, it, vi } from "vitest";

interface FakeClient {
  options: Record<string, unknown> & { socket: { connectTimeout: number; reconnectStrategy: (retries: number) => unknown } };
  listeners: string[];
  connected: boolean;
  closed: number;
  sent: string[][];
  ready: (() => void)[];
}
/** The server's eviction policy, as INFO memory reports it. */
const server = vi.hoisted(() => ({ policy: "noeviction" }));
/** The server's answers: TIME at 1000 ms, the policy above, the AOF on and healthy, a bookmark at 4, else OK. */
const reply = vi.hoisted(() => (args: string[]): unknown =>
  args[0] === "TIME" ? ["1", "0"] : args[0] === "INFO" ? (args[1] === "memory" ? `maxmemory_policy:${server.policy}\r\n` : "aof_enabled:1\r\naof_last_write_status:ok\r\n") : args[0] === "GET" ? "4" : "OK",
);
const state = vi.hoisted(() => ({ clients: [] as FakeClient[], connect: (): Promise<void> => Promise.resolve() }));
vi.mock("redis", () => ({
  createClient: (options: FakeClient["options"]) => {
    const fake: FakeClient = { options, listeners: [], connected: false, closed: 0, sent: [], ready: [] };
    state.clients.push(fake);
    return {
      on: (event: string, listener: () => void) => (expect(typeof listener).toBe("function"), fake.listeners.push(event), event === "ready" && fake.ready.push(listener)),
      connect: async () => {
        await state.connect();
        fake.connected = true;
      },
      sendCommand: async (args: string[]) => (fake.sent.push(args), reply(args)),
      close: async () => void fake.closed++,
    };
  },
}));
const { RedisBookmarkStore, RedisReplayStore } = await import("../../generators/targets/ts/runtime/src/replay-redis.js");
const { StoreTimeoutError } = await import("../../generators/targets/ts/runtime/src/store-support.js");

beforeEach(() => {
  server.policy = "noeviction";
  state.clients.length = 0;
  state.connect = () => Promise.resolve();
});

describe("a Redis store created from { url }", () => {
  it("creates one node-redis client with the documented options, and closes it", async () => {
    const store = new RedisReplayStore({ url: "redis://127.0.0.1:6390/2", timeoutMs: 1234, checkEvictionPolicy: false, checkPersistence: false });
    const [a, b] = await Promise.all([store.checkAndRecord("s", "k", 2000, 1000), store.checkAndRecord("s", "j", 2000, 1000)]);
    expect([a, b]).toEqual(["recorded", "recorded"]);
    expect(await store.checkAndRecord("s", "i", 2000, 1000)).toBe("recorded");
    expect(state.clients.length).toBe(1);
    const [client] = state.clients as [FakeClient];
    expect(client.options).toMatchObject({ url: "redis://127.0.0.1:6390/2", disableOfflineQueue: true, socket: { connectTimeout: 1234 } });
    const retry = client.options.socket.reconnectStrategy;
    expect([retry(0), retry(1), retry(2), retry(3), retry(10)]).toEqual([100, 100, 100, false, false]);
    expect(client.listeners).toEqual(["error", "ready"]);
    expect(client.connected).toBe(true);
    expect(client.sent).toEqual([
      ["TIME"],
      ["SET", "agent-contracts:replay:{cw}:aw", "1", "NX", "PXAT", "2000"],
      ["SET", "agent-contracts:replay:{cw}:ag", "1", "NX", "PXAT", "2000"],
      ["SET", "agent-contracts:replay:{cw}:aQ", "1", "NX", "PXAT", "2000"],
    ]);
    // The first "ready" is the connect itself; a later one is a reconnect, and the server is checked again.
    client.ready[0]!();
    expect(await store.checkAndRecord("s", "h", 2000, 1000)).toBe("recorded");
    expect(client.sent.filter((a) => a[0] === "TIME").length).toBe(1);
    client.ready[0]!();
    expect(await store.checkAndRecord("s", "g", 2000, 1000)).toBe("recorded");
    expect(client.sent.filter((a) => a[0] === "TIME").length).toBe(2);
    await store.close();
    await store.close();
    expect(client.closed).toBe(1);
    // After close the next command connects a new client.
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(state.clients.length).toBe(2);
    await store.close();
    expect(state.clients[1]!.closed).toBe(1);
  });
  it("a record sent through a connection the call itself opened (after close()) counts only once that server passed its check", async () => {
    const store = new RedisReplayStore({ url: "redis://x" });
    expect(await store.checkAndRecord("s", "a", 2000, 1000)).toBe("recorded");
    await store.close();
    server.policy = "allkeys-lru";
    await expect(store.checkAndRecord("s", "b", 2000, 1000)).rejects.toThrow("(maxmemory-policy allkeys-lru)");
    expect(state.clients[1]!.sent.map((a) => a[0])).toEqual(["SET", "INFO", "INFO", "TIME"]);
    server.policy = "noeviction";
    expect(await store.checkAndRecord("s", "c", 2000, 1000)).toBe("recorded");
    await store.close();
  });
  it("the clock is read alone once connected: a slow connect does not widen the skew bound", async () => {
    state.connect = () => new Promise((r) => setTimeout(r, 1200));
    const store = new RedisReplayStore({ url: "redis://x" });
    // The server's TIME says 1000 ms; 1500 ms off is refused, though the connect took 1.2 s.
    await expect(store.checkAndRecord("s", "k", 5000, 1000 + 1500)).rejects.toThrow(/clock differs from the Redis server's by 1[45]\d\d ms/);
    expect(state.clients[0]!.sent.map((a) => a[0])).toEqual(["INFO", "INFO", "TIME"]);
    await store.close();
  });
  it("the connection has the command deadline (2000 ms by default, or timeoutMs)", async () => {
    state.connect = () => new Promise(() => {});
    const store = new RedisReplayStore({ url: "redis://x", timeoutMs: 30, checkEvictionPolicy: false, checkPersistence: false });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(new StoreTimeoutError("redis connect", 30));
    new RedisReplayStore({ url: "redis://x", checkEvictionPolicy: false, checkPersistence: false }).checkAndRecord("s", "k", 2, 1).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 5));
    expect(state.clients.at(-1)!.options.socket.connectTimeout).toBe(2000);
  });
  it("a failed connect is not kept: the next command connects again", async () => {
    let attempts = 0;
    state.connect = () => (attempts++ === 0 ? Promise.reject(new Error("ECONNREFUSED")) : Promise.resolve());
    const store = new RedisReplayStore({ url: "redis://x", checkEvictionPolicy: false, checkPersistence: false });
    await expect(store.checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow("ECONNREFUSED");
    expect(await store.checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(state.clients.length).toBe(2);
  });
  it("a close() while connecting: the late client is closed and not used", async () => {
    let release!: () => void;
    state.connect = () => new Promise<void>((r) => (release = r));
    const store = new RedisReplayStore({ url: "redis://x", checkEvictionPolicy: false, checkPersistence: false });
    const first = store.checkAndRecord("s", "k", 2000, 1000);
    await new Promise((r) => setTimeout(r, 5));
    const closing = store.close();
    state.connect = () => Promise.resolve();
    release();
    await closing;
    expect(await first).toBe("recorded");
    expect(state.clients[0]!.closed).toBe(1);
    // The late client answered the check (TIME) only; the record went through a new client.
    expect(state.clients[0]!.sent).toEqual([["TIME"]]);
    await store.checkAndRecord("s", "j", 2000, 1000);
    expect(state.clients.length).toBe(2);
    // A new client is a new connection: checked again before the next record.
    expect(state.clients[1]!.sent).toEqual([["SET", "agent-contracts:replay:{cw}:aw", "1", "NX", "PXAT", "2000"], ["TIME"], ["SET", "agent-contracts:replay:{cw}:ag", "1", "NX", "PXAT", "2000"]]);
  });
  it("a close() while a connect is failing resolves (there is no client to close)", async () => {
    let fail!: (e: Error) => void;
    state.connect = () => new Promise<void>((_, reject) => (fail = reject));
    const store = new RedisReplayStore({ url: "redis://x", checkEvictionPolicy: false, checkPersistence: false });
    const first = store.checkAndRecord("s", "k", 2000, 1000);
    await new Promise((r) => setTimeout(r, 5));
    const closing = store.close();
    fail(new Error("ECONNREFUSED"));
    await expect(first).rejects.toThrow("ECONNREFUSED");
    await expect(closing).resolves.toBeUndefined();
  });
  it("a bookmark store from a URL owns and closes its client too", async () => {
    const store = new RedisBookmarkStore({ url: "redis://x" });
    expect(await store.position("s")).toBe(4);
    await store.close();
    expect(state.clients.map((c) => c.closed)).toEqual([1]);
  });
});

describe("given clients", () => {
  it("prefers a callable: a client whose call is not a function is used through sendCommand", async () => {
    const sent: string[][] = [];
    const client = { call: "not a function", sendCommand: async (args: string[]) => (sent.push(args), reply(args)) } as never;
    expect(await new RedisReplayStore({ client, checkEvictionPolicy: false, checkPersistence: false }).checkAndRecord("s", "k", 2000, 1000)).toBe("recorded");
    expect(sent.length).toBe(2);
    const neither = { sendCommand: "not a function" } as never;
    await expect(new RedisReplayStore({ client: neither, checkEvictionPolicy: false, checkPersistence: false }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow(
      "client must be a node-redis client (sendCommand) or an ioredis client (call)",
    );
  });
  it("the policy is read from its own line only", async () => {
    const info = "maxmemory:5\r\nmy_maxmemory_policy:noeviction\r\nmaxmemory_policy:allkeys-lru\r\n";
    const client = { sendCommand: async (args: string[]) => (args[0] === "INFO" && args[1] === "memory" ? info : reply(args)) };
    await expect(new RedisReplayStore({ client }).checkAndRecord("s", "k", 2000, 1000)).rejects.toThrow("(maxmemory-policy allkeys-lru)");
  });
});
