// Replay store on Redis, for receivers that run on more than one machine. One `SET key 1 NX PX ttl`
// per check is the atomic check-and-record: Redis runs each command alone, so of any number of
// replicas racing one key exactly one gets "OK". The key expires by itself at the record's
// retain-until, so nothing needs sweeping.
//
// Two server settings decide what a record survives, and the store checks the first itself:
//   - eviction: with a memory limit and any policy but `noeviction`, Redis may drop a live record
//     under memory pressure and a replay would be admitted; the store refuses to run on such a
//     server. With `noeviction` a full server answers OOM, which the store reports as "full".
//   - persistence: a restart keeps what the AOF holds; `appendonly yes` with `appendfsync always`
//     keeps every acknowledged record (`everysec` can lose the last second on a power cut).
//
// Works with the `redis` (node-redis) and `ioredis` clients, given or created from a URL. Every
// command has a deadline; a store that cannot answer rejects, and the guard refuses (fail closed).

import { type ReplayOutcome, type ReplayStore } from "./replay-guard.js";
import { assertSequence, type BookmarkStore } from "./bookmark-store.js";
import { optionalPeer, withDeadline } from "./store-support.js";

/** The one method of a node-redis (`sendCommand`) or ioredis (`call`) client the store uses. */
export type RedisClientLike = { sendCommand(args: string[]): Promise<unknown> } | { call(command: string, ...args: string[]): Promise<unknown> };

export interface RedisReplayStoreOptions {
  /** A `redis://` or `rediss://` URL; the store then creates (and closes) its own node-redis client. */
  url?: string;
  /** A client the application already has (node-redis or ioredis); the store never closes it. */
  client?: RedisClientLike;
  /** Prepended to every key (default "agent-contracts:replay:"), so several stores can share a server. */
  keyPrefix?: string;
  /** Deadline of every command, connecting included (ms; default 2000). */
  timeoutMs?: number;
  /** Refuse servers whose eviction policy could drop live records (default true). */
  checkEvictionPolicy?: boolean;
}

export const DEFAULT_REDIS_KEY_PREFIX = "agent-contracts:replay:";

/** One client, given or created from a URL, with a deadline on every command. Shared by the Redis stores. */
export class RedisConnection {
  private client: Promise<{ command: (args: string[]) => Promise<unknown>; close: () => Promise<void> }> | undefined;
  /** The client once connected: the fast path, one deadline per command instead of two. */
  private ready: { command: (args: string[]) => Promise<unknown> } | undefined;
  private readonly ownsClient: boolean;
  readonly timeoutMs: number;

  constructor(private readonly options: { url?: string; client?: RedisClientLike; timeoutMs?: number }) {
    if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("a Redis store needs exactly one of { url } or { client }");
    this.ownsClient = options.url !== undefined;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  async command(args: string[]): Promise<unknown> {
    if (this.ready !== undefined) return withDeadline(this.ready.command(args), this.timeoutMs, `redis ${args[0]}`);
    const pending = this.connect();
    const client = await withDeadline(pending, this.timeoutMs, "redis connect");
    // Only while this client is still the current one (close() or a failed connect resets it).
    if (this.client === pending) this.ready = client;
    return withDeadline(client.command(args), this.timeoutMs, `redis ${args[0]}`);
  }

  async close(): Promise<void> {
    this.ready = undefined;
    if (this.client === undefined || !this.ownsClient) return;
    const client = this.client;
    this.client = undefined;
    await (await client.catch(() => undefined))?.close();
  }

  private connect(): Promise<{ command: (args: string[]) => Promise<unknown>; close: () => Promise<void> }> {
    if (this.client === undefined) {
      this.client = this.options.client !== undefined ? Promise.resolve(adapt(this.options.client)) : this.open(this.options.url as string);
      // A failed connection is not cached: the next command tries again.
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  private async open(url: string): Promise<{ command: (args: string[]) => Promise<unknown>; close: () => Promise<void> }> {
    const redis = await optionalPeer<typeof import("redis")>("redis", "a Redis store created from { url }", () => import("redis"));
    // No offline queue and no endless reconnect: a command while disconnected fails at once.
    const client = redis.createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: this.timeoutMs, reconnectStrategy: (retries: number) => (retries > 2 ? false : 100) } });
    client.on("error", () => {}); // errors surface on the command that meets them
    await client.connect();
    return { command: (args) => client.sendCommand(args), close: async () => void (await client.close()) };
  }
}

export class RedisReplayStore implements ReplayStore {
  private readonly keyPrefix: string;
  private readonly connection: RedisConnection;
  private policyChecked: Promise<void> | undefined;
  private readonly checkPolicy: boolean;

  constructor(options: RedisReplayStoreOptions) {
    this.connection = new RedisConnection(options);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
    this.checkPolicy = options.checkEvictionPolicy ?? true;
  }

  /**
   * The Redis key of (scope, key). The scope sits in a hash tag, so a cluster keeps one scope's
   * records on one shard; base64url never contains the braces that delimit a tag, and the
   * separator ":" is outside its alphabet, so distinct pairs never share a key.
   */
  redisKey(scope: string, key: string): string {
    return `${this.keyPrefix}{${base64url(scope)}}:${base64url(key)}`;
  }

  async checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome> {
    const ttlMs = Math.max(1, Math.ceil(retainUntilMs - nowMs));
    await this.ensurePolicy();
    try {
      const reply = await this.connection.command(["SET", this.redisKey(scope, key), "1", "NX", "PX", String(ttlMs)]);
      return reply === "OK" ? "recorded" : "replayed";
    } catch (error) {
      // With `noeviction`, a server at its memory limit refuses writes: no room without dropping a live record.
      if (error instanceof Error && /^OOM\b/.test(error.message)) return "full";
      throw error;
    }
  }

  /** Redis expires records itself at their retain-until. */
  async evictExpired(_nowMs: number): Promise<number> {
    return 0;
  }

  /** Live records under this store's prefix (a SCAN: linear in the keys, for tests and monitoring). */
  async size(): Promise<number> {
    let cursor = "0";
    let count = 0;
    do {
      const reply = (await this.connection.command(["SCAN", cursor, "MATCH", `${escapeGlob(this.keyPrefix)}*`, "COUNT", "1000"])) as [string, string[]];
      cursor = String(reply[0]);
      count += reply[1].length;
    } while (cursor !== "0");
    return count;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private ensurePolicy(): Promise<void> {
    if (!this.checkPolicy) return Promise.resolve();
    if (this.policyChecked === undefined) {
      this.policyChecked = this.connection.command(["INFO", "memory"]).then((info) => {
        const text = String(info);
        const maxmemory = Number(/^maxmemory:(\d+)/m.exec(text)?.[1] ?? "0");
        const policy = /^maxmemory_policy:(\S+)/m.exec(text)?.[1] ?? "unknown";
        if (maxmemory > 0 && policy !== "noeviction") {
          throw new Error(`redis evicts keys under memory pressure (maxmemory-policy ${policy}): live replay records could be dropped; set maxmemory-policy noeviction`);
        }
      });
      this.policyChecked.catch(() => (this.policyChecked = undefined));
    }
    return this.policyChecked;
  }
}

// Advances a bookmark only forward, atomically: the server compares and sets in one script run.
const ADVANCE_SCRIPT = "local c = tonumber(redis.call('GET', KEYS[1]) or '-1') local n = tonumber(ARGV[1]) if n > c then redis.call('SET', KEYS[1], ARGV[1]) return n end return c";

/** Inbox bookmarks on Redis (no expiry: a bookmark lives as long as its connection). */
export class RedisBookmarkStore implements BookmarkStore {
  private readonly connection: RedisConnection;
  private readonly keyPrefix: string;

  constructor(options: { url?: string; client?: RedisClientLike; keyPrefix?: string; timeoutMs?: number }) {
    this.connection = new RedisConnection(options);
    this.keyPrefix = options.keyPrefix ?? "agent-contracts:bookmark:";
  }

  async position(scope: string): Promise<number> {
    const reply = await this.connection.command(["GET", `${this.keyPrefix}{${base64url(scope)}}`]);
    return reply === null || reply === undefined ? 0 : Number(reply);
  }

  async advance(scope: string, sequence: number): Promise<number> {
    assertSequence(sequence);
    return Number(await this.connection.command(["EVAL", ADVANCE_SCRIPT, "1", `${this.keyPrefix}{${base64url(scope)}}`, String(sequence)]));
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

function adapt(client: RedisClientLike): { command: (args: string[]) => Promise<unknown>; close: () => Promise<void> } {
  if ("call" in client && typeof client.call === "function") {
    return { command: ([name, ...rest]) => client.call(name as string, ...rest), close: async () => {} };
  }
  if ("sendCommand" in client && typeof client.sendCommand === "function") {
    return { command: (args) => client.sendCommand(args), close: async () => {} };
  }
  throw new TypeError("client must be a node-redis client (sendCommand) or an ioredis client (call)");
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}
