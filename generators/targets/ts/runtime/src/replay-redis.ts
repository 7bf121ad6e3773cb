// Replay store on Redis, for receivers that run on more than one machine. One
// `SET key 1 NX PXAT retain-until` per check is the atomic check-and-record: Redis runs each
// command alone, so of any number of replicas racing one key exactly one gets "OK". The key
// expires by itself at the record's absolute retain-until on the server's clock (PXAT, not a TTL
// from the recording replica's clock), so nothing needs sweeping and a replica with a fast clock
// cannot shorten a record.
//
// What a record survives depends on the server, so the store checks it at first use, after every
// reconnect and every `checkIntervalMs`, and refuses (StoreSafetyError, fail closed) while:
//   - eviction: the maxmemory-policy is not `noeviction` (any other policy may drop a live record,
//     at once if an operator sets a memory limit); with `noeviction` a full server answers OOM,
//     which the store reports as "full";
//   - persistence: the AOF is off or its last write failed (a restart would forget records);
//     `appendfsync always` keeps every acknowledged record, `everysec` can lose the last second;
//   - the clock: the caller's clock differs from the server's (TIME) by more than
//     `maxClockSkewMs`: a replica whose clock is behind would still accept a message whose
//     record the server has already expired.
// Failover: replication is asynchronous; with `waitForReplicas` each new record is acknowledged
// only once that many replicas hold it (WAIT), so a promoted replica has it.
//
// Works with the `redis` (node-redis) and `ioredis` clients, given or created from a URL. Every
// command has a deadline; a store that cannot answer rejects, and the guard refuses (fail closed).

import { type ReplayOutcome, type ReplayStore } from "./replay-guard.js";
import { assertSequence, type BookmarkStore } from "./bookmark-store.js";
import { optionalPeer, PeriodicCheck, ServerClock, StoreSafetyError, withDeadline } from "./store-support.js";

/** The one method of a node-redis (`sendCommand`) or ioredis (`call`) client the store uses. */
export type RedisClientLike = ({ sendCommand(args: string[]): Promise<unknown> } | { call(command: string, ...args: string[]): Promise<unknown> }) & {
  /** Both clients emit "ready" on every (re)connect; the store then checks the server again. */
  on?: (event: string, listener: () => void) => unknown;
};

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
  /** Refuse servers without AOF persistence, or whose last AOF write failed (default true). */
  checkPersistence?: boolean;
  /** How often the server's settings and clock are read again (ms; default 5000); also after every reconnect. */
  checkIntervalMs?: number;
  /** Largest accepted difference between the caller's clock and the server's (ms; default 1000); at most the declared skew. */
  maxClockSkewMs?: number;
  /** Acknowledge a new record only once this many replicas hold it (`WAIT replicas timeoutMs`); timeoutMs below the command deadline. */
  waitForReplicas?: { replicas: number; timeoutMs: number };
}

export const DEFAULT_REDIS_KEY_PREFIX = "agent-contracts:replay:";

/** One client, given or created from a URL, with a deadline on every command. Shared by the Redis stores. */
export class RedisConnection {
  private client: Promise<{ command: (args: string[]) => Promise<unknown>; close: () => Promise<void> }> | undefined;
  /** The client once connected: the fast path, one deadline per command instead of two. */
  private ready: { command: (args: string[]) => Promise<unknown> } | undefined;
  private readonly ownsClient: boolean;
  private connected = false;
  readonly timeoutMs: number;
  /** Changes on every reconnect (a new client, or a "ready" after the first), so checks tied to a server run again. */
  generation = 0;

  constructor(private readonly options: { url?: string; client?: RedisClientLike; timeoutMs?: number }) {
    if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("a Redis store needs exactly one of { url } or { client }");
    this.ownsClient = options.url !== undefined;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** Not async: once connected, a command is one deadline around the client's own promise, no extra hop. */
  command(args: string[]): Promise<unknown> {
    if (this.ready !== undefined) return withDeadline(this.ready.command(args), this.timeoutMs, `redis ${args[0]}`);
    return this.connectAndSend(args);
  }

  private async connectAndSend(args: string[]): Promise<unknown> {
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
      if (this.connected) this.generation++;
      this.connected = true;
      this.client = this.options.client !== undefined ? Promise.resolve(this.adaptGiven(this.options.client)) : this.open(this.options.url as string);
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
    let first = true;
    client.on("ready", () => (first ? (first = false) : this.generation++));
    await client.connect();
    return { command: (args) => client.sendCommand(args), close: async () => void (await client.close()) };
  }

  private adaptGiven(client: RedisClientLike): { command: (args: string[]) => Promise<unknown>; close: () => Promise<void> } {
    const adapted = adapt(client);
    // The application's client was connected when given: each "ready" it emits is a reconnect.
    if (typeof client.on === "function") client.on("ready", () => this.generation++);
    return adapted;
  }
}

export class RedisReplayStore implements ReplayStore {
  private readonly keyPrefix: string;
  private readonly connection: RedisConnection;
  private readonly checkPolicy: boolean;
  private readonly checkPersistence: boolean;
  private readonly maxClockSkewMs: number;
  private readonly waitForReplicas: { replicas: number; timeoutMs: number } | undefined;
  private readonly clock = new ServerClock();
  private readonly serverChecks: PeriodicCheck;
  /** The last scope checked and its key prefix (prefix, base64url scope in a hash tag, separator). */
  private lastScope: string | undefined;
  private lastScopePrefix = "";

  constructor(options: RedisReplayStoreOptions) {
    this.connection = new RedisConnection(options);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
    this.checkPolicy = options.checkEvictionPolicy ?? true;
    this.checkPersistence = options.checkPersistence ?? true;
    this.maxClockSkewMs = options.maxClockSkewMs ?? 1000;
    const wait = options.waitForReplicas;
    if (wait !== undefined && !(Number.isSafeInteger(wait.replicas) && wait.replicas > 0 && Number.isSafeInteger(wait.timeoutMs) && wait.timeoutMs > 0 && wait.timeoutMs < this.connection.timeoutMs)) {
      throw new TypeError("waitForReplicas needs a positive integer replicas and a positive integer timeoutMs below the command deadline (timeoutMs)");
    }
    this.waitForReplicas = wait;
    this.serverChecks = new PeriodicCheck(options.checkIntervalMs ?? 5000, () => this.checkServer());
  }

  /**
   * The Redis key of (scope, key). The scope sits in a hash tag, so a cluster keeps one scope's
   * records on one shard; base64url never contains the braces that delimit a tag, and the
   * separator ":" is outside its alphabet, so distinct pairs never share a key. Redis keys are
   * binary-safe up to 512 MB, so the key is the original itself, of any length and content.
   */
  redisKey(scope: string, key: string): string {
    // A receiver checks one scope (or a few) over and over: the last one's encoded prefix is kept.
    if (scope !== this.lastScope) {
      this.lastScope = scope;
      this.lastScopePrefix = `${this.keyPrefix}{${base64url(scope)}}:`;
    }
    return this.lastScopePrefix + base64url(key);
  }

  async checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome> {
    const generation = this.connection.generation;
    const due = this.serverChecks.due(generation);
    if (due !== undefined) await due;
    this.clock.assertWithin(nowMs, this.maxClockSkewMs, "Redis");
    let reply: unknown;
    try {
      reply = await this.connection.command(["SET", this.redisKey(scope, key), "1", "NX", "PXAT", String(Math.max(1, Math.ceil(retainUntilMs)))]);
    } catch (error) {
      // With `noeviction`, a server at its memory limit refuses writes: no room without dropping a live record.
      if (error instanceof Error && /^OOM\b/.test(error.message)) return "full";
      throw error;
    }
    // The SET itself opened a new connection (after close() or a failed connect): that server is
    // checked before the answer counts, and a failing check refuses (the record may stay).
    if (this.connection.generation !== generation) await this.serverChecks.due(this.connection.generation);
    if (reply !== "OK") return "replayed";
    if (this.waitForReplicas !== undefined) await this.awaitReplicas(this.waitForReplicas);
    return "recorded";
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

  /** The record is on the primary; refuse the message unless enough replicas acknowledge it too. */
  private async awaitReplicas(wait: { replicas: number; timeoutMs: number }): Promise<void> {
    const acknowledged = Number(await this.connection.command(["WAIT", String(wait.replicas), String(wait.timeoutMs)]));
    if (!(acknowledged >= wait.replicas)) {
      throw new StoreSafetyError("not-replicated", `redis WAIT: ${acknowledged} of ${wait.replicas} replicas acknowledged the record within ${wait.timeoutMs} ms; a failover could lose it`);
    }
  }

  /** Reads the server's clock, eviction policy and persistence; throws StoreSafetyError while one breaks the fleet requirements. */
  private async checkServer(): Promise<void> {
    const [memory, persistence] = await Promise.all([
      this.checkPolicy ? this.connection.command(["INFO", "memory"]) : undefined,
      this.checkPersistence ? this.connection.command(["INFO", "persistence"]) : undefined,
    ]);
    // TIME alone and, when an INFO was sent, over a connection already open: the reading's
    // uncertainty is half its own round trip, which must not include connecting.
    const sentMs = performance.now();
    const [seconds, micros] = (await this.connection.command(["TIME"])) as [string, string];
    this.clock.observe(Number(seconds) * 1000 + Number(micros) / 1000, sentMs, performance.now());
    if (memory !== undefined) {
      const policy = /^maxmemory_policy:(\S+)/m.exec(String(memory))?.[1] ?? "unknown";
      if (policy !== "noeviction") {
        throw new StoreSafetyError("may-evict", `redis may evict keys (maxmemory-policy ${policy}): live replay records could be dropped; set maxmemory-policy noeviction`);
      }
    }
    if (persistence !== undefined) {
      const text = String(persistence);
      if (!/^aof_enabled:1\s*$/m.test(text) || !/^aof_last_write_status:ok\s*$/m.test(text)) {
        throw new StoreSafetyError("not-persistent", "redis is not persisting records (appendonly no, or the last AOF write failed): a restart would forget them; set appendonly yes (appendfsync always)");
      }
    }
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
