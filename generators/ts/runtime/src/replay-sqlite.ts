// Durable replay store on SQLite (better-sqlite3). One INSERT ... ON CONFLICT statement is the
// atomic check-and-record; with WAL and synchronous=FULL a record whose insert has returned
// survives a crash or SIGKILL, so a message accepted before a restart stays rejected after it.

import Database from "better-sqlite3";
import { type ReplayStore } from "./replay-guard.js";

export interface SqliteReplayStoreOptions {
  /** Largest number of live records; past it new messages are refused (fail closed). */
  maxEntries?: number;
}

export class SqliteReplayStore implements ReplayStore {
  private readonly db: Database.Database;
  private readonly maxEntries: number;
  private readonly upsert: Database.Statement<[string, string, number, number]>;
  private readonly count: Database.Statement<[], { n: number }>;
  private readonly evict: Database.Statement<[number]>;
  private readonly checkAndRecordTx: (scope: string, key: string, retainUntilMs: number, nowMs: number) => "recorded" | "replayed" | "full";

  /** Opens (creating if needed) the store at `path`; ":memory:" gives a non-durable store for tests. */
  constructor(path: string, options: SqliteReplayStoreOptions = {}) {
    this.db = new Database(path);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS replay_records (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID;" +
        "CREATE INDEX IF NOT EXISTS replay_records_retain ON replay_records (retain_until_ms);" +
        // COUNT(*) scans the table; a trigger-maintained counter keeps the capacity check O(1).
        "CREATE TABLE IF NOT EXISTS replay_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);" +
        "INSERT OR IGNORE INTO replay_count (id, n) SELECT 1, COUNT(*) FROM replay_records;" +
        "CREATE TRIGGER IF NOT EXISTS replay_records_added AFTER INSERT ON replay_records BEGIN UPDATE replay_count SET n = n + 1 WHERE id = 1; END;" +
        "CREATE TRIGGER IF NOT EXISTS replay_records_removed AFTER DELETE ON replay_records BEGIN UPDATE replay_count SET n = n - 1 WHERE id = 1; END;",
    );
    this.maxEntries = options.maxEntries ?? 1_000_000;
    // A held record blocks the insert unless its retention has passed, in which case it is reused.
    this.upsert = this.db.prepare(
      "INSERT INTO replay_records (scope, key, retain_until_ms) VALUES (?, ?, ?) " +
        "ON CONFLICT (scope, key) DO UPDATE SET retain_until_ms = excluded.retain_until_ms WHERE replay_records.retain_until_ms <= ?",
    );
    this.count = this.db.prepare("SELECT n FROM replay_count WHERE id = 1");
    this.evict = this.db.prepare("DELETE FROM replay_records WHERE retain_until_ms <= ?");
    const held = this.db.prepare("SELECT 1 FROM replay_records WHERE scope = ? AND key = ?");
    // IMMEDIATE takes the write lock first, so two processes sharing the file cannot both pass.
    this.checkAndRecordTx = this.db
      .transaction((scope: string, key: string, retainUntilMs: number, nowMs: number): "recorded" | "replayed" | "full" => {
        this.evict.run(nowMs);
        if ((this.count.get()?.n ?? 0) >= this.maxEntries) {
          return held.get(scope, key) === undefined ? "full" : "replayed";
        }
        return this.upsert.run(scope, key, retainUntilMs, nowMs).changes === 1 ? "recorded" : "replayed";
      })
      .immediate as (scope: string, key: string, retainUntilMs: number, nowMs: number) => "recorded" | "replayed" | "full";
  }

  checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): "recorded" | "replayed" | "full" {
    return this.checkAndRecordTx(scope, key, retainUntilMs, nowMs);
  }

  evictExpired(nowMs: number): number {
    return this.evict.run(nowMs).changes;
  }

  size(): number {
    return this.count.get()?.n ?? 0;
  }

  close(): void {
    this.db.close();
  }
}
