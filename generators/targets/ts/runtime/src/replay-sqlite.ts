// Durable replay store on SQLite (better-sqlite3). One INSERT ... ON CONFLICT statement is the
// atomic check-and-record. In WAL mode a transaction is committed once its frames are written to
// the WAL file, i.e. handed to the operating system: from then on it survives a crash or SIGKILL
// of this process at any synchronous setting, so a message accepted before a restart stays
// rejected after it. What the synchronous setting decides is power loss (or an OS crash):
//   - "NORMAL" (default): the WAL is fsynced at checkpoints, not at every commit, so a power cut
//     can lose the last commits before the next checkpoint; the database itself stays consistent.
//     One check-and-record costs a few tens of microseconds instead of an fsync (milliseconds).
//   - "FULL": every commit fsyncs the WAL first, so an acknowledged record also survives power
//     loss; throughput is then bounded by the disk's fsync rate (hundreds per second on many disks).
// Replay records only need to outlive the messages' expiry, and a sender whose message was lost
// with a power cut must resend anyway, so NORMAL is the default; choose FULL when the receiver
// must not re-admit a message across a power failure either.

import { createRequire } from "node:module";
import type Database from "better-sqlite3";
import { assertSequence, type BookmarkStore } from "./bookmark-store.js";
import { type ReplayOutcome, type ReplayStore } from "./replay-guard.js";
import { MissingPeerError } from "./store-support.js";

// better-sqlite3 is an optional peer of the package: it is loaded when a store is opened, not when
// this module is imported, so a missing install is a MissingPeerError naming it rather than Node's
// resolution error at import time. It is CommonJS, so a synchronous require keeps the constructors
// synchronous.
const requirePeer = createRequire(import.meta.url);
let loadedDatabase: typeof Database | undefined;

function openDatabase(path: string, what: string): Database.Database {
  if (loadedDatabase === undefined) {
    try {
      loadedDatabase = requirePeer("better-sqlite3") as typeof Database;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") throw new MissingPeerError("better-sqlite3", what);
      throw error;
    }
  }
  return new loadedDatabase(path);
}

/** SQLite `synchronous` level: what an acknowledged record survives (see the file comment). */
export type SqliteReplayDurability = "NORMAL" | "FULL";

export interface SqliteReplayStoreOptions {
  /** Largest number of live records; past it new messages are refused (fail closed). */
  maxEntries?: number;
  /** Largest number of live records one scope may hold (default maxEntries / 10), so one sender cannot lock the others out. */
  maxEntriesPerScope?: number;
  /**
   * "NORMAL" (default): acknowledged records survive a crash or SIGKILL of the process; a power
   * loss can drop the last ones. "FULL": they survive power loss too, at one fsync per record.
   */
  synchronous?: SqliteReplayDurability;
  /** How often, at most, expired records are deleted in passing (ms; default 60 000). A full store always evicts first. */
  sweepIntervalMs?: number;
}

// Deleting expired rows on every call costs an index probe per message for a result that only
// changes as time passes; a periodic sweep (as MemoryReplayStore does) keeps the table close to
// the live set. Expired rows that are still held never block a message: the upsert reuses them.
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export class SqliteReplayStore implements ReplayStore {
  private readonly db: Database.Database;
  private readonly maxEntries: number;
  private readonly maxEntriesPerScope: number;
  private readonly scopeCount: Database.Statement<[string], { n: number }>;
  private readonly upsert: Database.Statement<[string, string, number, number]>;
  private readonly upsertBelowCapacity: Database.Statement<[string, string, number, number, string, number, number]>;
  private readonly count: Database.Statement<[], { n: number }>;
  private readonly evict: Database.Statement<[number]>;
  private readonly checkAndRecordTx: (scope: string, key: string, retainUntilMs: number, nowMs: number) => "recorded" | "replayed" | "full";
  private readonly sweepIntervalMs: number;
  private nextSweepMs = Number.NEGATIVE_INFINITY;

  /** Opens (creating if needed) the store at `path`; ":memory:" gives a non-durable store for tests. */
  constructor(path: string, options: SqliteReplayStoreOptions = {}) {
    this.db = openDatabase(path, "a SQLite replay store");
    this.db.pragma("journal_mode = WAL");
    const synchronous = options.synchronous ?? "NORMAL";
    if (synchronous !== "NORMAL" && synchronous !== "FULL") throw new Error(`synchronous must be "NORMAL" or "FULL", not ${String(synchronous)}`);
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS replay_records (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID;" +
        "CREATE INDEX IF NOT EXISTS replay_records_retain ON replay_records (retain_until_ms);" +
        // COUNT(*) scans the table; a trigger-maintained counter keeps the capacity check O(1).
        "CREATE TABLE IF NOT EXISTS replay_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);" +
        "INSERT OR IGNORE INTO replay_count (id, n) SELECT 1, COUNT(*) FROM replay_records;" +
        "CREATE TRIGGER IF NOT EXISTS replay_records_added AFTER INSERT ON replay_records BEGIN UPDATE replay_count SET n = n + 1 WHERE id = 1; END;" +
        "CREATE TRIGGER IF NOT EXISTS replay_records_removed AFTER DELETE ON replay_records BEGIN UPDATE replay_count SET n = n - 1 WHERE id = 1; END;" +
        // Per-scope counters for the quota, maintained the same way.
        "CREATE TABLE IF NOT EXISTS replay_scope_count (scope TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;" +
        "INSERT OR IGNORE INTO replay_scope_count (scope, n) SELECT scope, COUNT(*) FROM replay_records GROUP BY scope;" +
        "CREATE TRIGGER IF NOT EXISTS replay_scope_added AFTER INSERT ON replay_records BEGIN " +
        "INSERT INTO replay_scope_count (scope, n) VALUES (NEW.scope, 1) ON CONFLICT (scope) DO UPDATE SET n = n + 1; END;" +
        "CREATE TRIGGER IF NOT EXISTS replay_scope_removed AFTER DELETE ON replay_records BEGIN " +
        "UPDATE replay_scope_count SET n = n - 1 WHERE scope = OLD.scope; DELETE FROM replay_scope_count WHERE scope = OLD.scope AND n <= 0; END;",
    );
    this.maxEntries = options.maxEntries ?? 1_000_000;
    this.maxEntriesPerScope = options.maxEntriesPerScope ?? Math.max(1, Math.floor(this.maxEntries / 10));
    this.sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    // A held record blocks the insert unless its retention has passed, in which case it is reused.
    this.upsert = this.db.prepare(
      "INSERT INTO replay_records (scope, key, retain_until_ms) VALUES (?, ?, ?) " +
        "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = excluded.retain_until_ms WHERE replay_records.retain_until_ms <= ?",
    );
    // The common case as one autocommit statement: SQLite runs it under the write lock, so the
    // capacity test, the conflict test and the write are one atomic step, without the BEGIN,
    // COUNT and COMMIT round trips of the transaction below.
    this.upsertBelowCapacity = this.db.prepare(
      "INSERT INTO replay_records (scope, key, retain_until_ms) SELECT ?, ?, ? WHERE (SELECT n FROM replay_count WHERE id = 1) < ? " +
        "AND COALESCE((SELECT n FROM replay_scope_count WHERE scope = ?), 0) < ? " +
        "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = excluded.retain_until_ms WHERE replay_records.retain_until_ms <= ?",
    );
    this.count = this.db.prepare("SELECT n FROM replay_count WHERE id = 1");
    this.scopeCount = this.db.prepare("SELECT n FROM replay_scope_count WHERE scope = ?");
    this.evict = this.db.prepare("DELETE FROM replay_records WHERE retain_until_ms <= ?");
    const held = this.db.prepare("SELECT 1 FROM replay_records WHERE scope = ? AND key = ?");
    // IMMEDIATE takes the write lock first, so two processes sharing the file cannot both pass.
    this.checkAndRecordTx = this.db
      .transaction((scope: string, key: string, retainUntilMs: number, nowMs: number): "recorded" | "replayed" | "full" => {
        const full = () => (this.count.get()?.n ?? 0) >= this.maxEntries || (this.scopeCount.get(scope)?.n ?? 0) >= this.maxEntriesPerScope;
        if (full()) {
          // Full (or this scope at its quota), possibly of expired rows the periodic sweep has not
          // reached yet: evict, then decide. A held row (live or expired) is reused, not added.
          this.evict.run(nowMs);
          if (full() && held.get(scope, key) === undefined) return "full";
        }
        return this.upsert.run(scope, key, retainUntilMs, nowMs).changes === 1 ? "recorded" : "replayed";
      })
      .immediate as (scope: string, key: string, retainUntilMs: number, nowMs: number) => "recorded" | "replayed" | "full";
  }

  async checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome> {
    return this.checkAndRecordNow(scope, key, retainUntilMs, nowMs);
  }

  /** The same decision, synchronously (better-sqlite3 is synchronous). */
  checkAndRecordNow(scope: string, key: string, retainUntilMs: number, nowMs: number): ReplayOutcome {
    if (nowMs >= this.nextSweepMs) {
      this.evict.run(nowMs);
      this.nextSweepMs = nowMs + this.sweepIntervalMs;
    }
    if (this.upsertBelowCapacity.run(scope, key, retainUntilMs, this.maxEntries, scope, this.maxEntriesPerScope, nowMs).changes === 1) return "recorded";
    // Not written: a live record holds the key, or the store is full (perhaps of expired rows).
    // The transaction evicts when full and tells the two apart; rare, so its cost does not matter.
    return this.checkAndRecordTx(scope, key, retainUntilMs, nowMs);
  }

  async evictExpired(nowMs: number): Promise<number> {
    return this.evict.run(nowMs).changes;
  }

  async size(): Promise<number> {
    return this.count.get()?.n ?? 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Inbox bookmarks in a SQLite file: one row per scope, moved forward with max() in one upsert. */
export class SqliteBookmarkStore implements BookmarkStore {
  private readonly db: Database.Database;
  private readonly advanceStmt: Database.Statement<[string, number], { position: number }>;
  private readonly positionStmt: Database.Statement<[string], { position: number }>;

  constructor(path: string, options: { synchronous?: SqliteReplayDurability } = {}) {
    this.db = openDatabase(path, "a SQLite bookmark store");
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.synchronous === "FULL" ? "FULL" : "NORMAL"}`);
    this.db.pragma("busy_timeout = 5000");
    this.db.exec("CREATE TABLE IF NOT EXISTS inbox_bookmarks (scope TEXT PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID");
    this.advanceStmt = this.db.prepare(
      "INSERT INTO inbox_bookmarks (scope, position) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET position = max(position, excluded.position) RETURNING position",
    );
    this.positionStmt = this.db.prepare("SELECT position FROM inbox_bookmarks WHERE scope = ?");
  }

  async position(scope: string): Promise<number> {
    return this.positionStmt.get(scope)?.position ?? 0;
  }

  async advance(scope: string, sequence: number): Promise<number> {
    assertSequence(sequence);
    return (this.advanceStmt.get(scope, sequence) as { position: number }).position;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
