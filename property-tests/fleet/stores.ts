// The stores under test, by name, so the suites and the racing child processes build them alike.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryReplayStore, type ReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import { PostgresReplayStore } from "../../generators/targets/ts/runtime/src/replay-postgres.js";
import { RedisReplayStore } from "../../generators/targets/ts/runtime/src/replay-redis.js";
import { SqliteReplayStore } from "../../generators/targets/ts/runtime/src/replay-sqlite.js";

export type StoreKind = "memory" | "sqlite" | "redis" | "postgres";

export type ClosableStore = ReplayStore & { close(): Promise<void> };

/** A fresh store; `url` is the server (redis, postgres) or the SQLite file (sqlite; a temp file when empty). */
export function makeStore(kind: StoreKind, url = "", options: { keyPrefix?: string; table?: string; timeoutMs?: number } = {}): ClosableStore {
  switch (kind) {
    case "memory": {
      const store = new MemoryReplayStore();
      return Object.assign(store, { close: async () => {} });
    }
    case "sqlite":
      return new SqliteReplayStore(url === "" ? join(mkdtempSync(join(tmpdir(), "agent-contracts-sqlite-")), "replay.db") : url);
    case "redis":
      return new RedisReplayStore({ url, ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
    case "postgres":
      return new PostgresReplayStore({ url, ...(options.table === undefined ? {} : { table: options.table }), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
  }
}
