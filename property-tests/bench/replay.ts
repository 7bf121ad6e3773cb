// Replay guard: check-and-record per second in memory and on SQLite (WAL with synchronous=NORMAL,
// the store's default, which survives a killed process, and FULL, which also survives power loss),
// each beside the bare minimum doing the same job (a Map
// get+set; one autocommit INSERT ... ON CONFLICT DO NOTHING on the same pragmas), and the memory
// one million live records take.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryReplayStore, ReplayGuard, type ReplayDeclaration } from "../../generated/ts/runtime/replay-guard.js";
import { SqliteReplayStore } from "../../generated/ts/runtime/replay-sqlite.js";
import { clone, signedTrigger } from "./fixtures.js";
import { measure, type MeasureOptions } from "./measure.js";
import { formatOps, markdownTable, type AreaTable, type CaseRow, type Verdict } from "./table.js";

/** Goal: bytes of heap per live in-memory record (issue 20). */
export const MEMORY_GOAL_BYTES = 120;

/** AgentTriggerRequest's x-replay (spec/agent-provider/messages/AgentTriggerRequest.yaml). */
const TRIGGER_REPLAY: ReplayDeclaration = {
  keyFields: ["request_id"],
  scopeFields: ["provider_id", "host_instance_id"],
  expiresAtField: "expires_at",
  notBeforeField: "created_at",
  skewSeconds: 60,
};

const STORE = "store.checkAndRecord";
const GUARD = "guard.admit (end to end)";
const ANCHOR = "anchor";

const SCOPE = JSON.stringify(["provider", "host-instance-1"]);
const retainUntil = Date.parse("2030-01-01T00:01:00Z");

/** A trigger whose request_id changes on every call, as the guard sees a stream of fresh messages. */
function freshTriggers(): () => Record<string, unknown> {
  const message = clone(signedTrigger.signed_object) as Record<string, unknown>;
  let n = 0;
  return () => {
    message["request_id"] = `trigger-${n++}`;
    return message;
  };
}

export async function replayArea(options: MeasureOptions): Promise<AreaTable> {
  const rows: CaseRow[] = [];

  // In memory. Stores are rebuilt each round so every round starts empty.
  {
    let store = new MemoryReplayStore(50_000_000, 50_000_000);
    let guardStore = new MemoryReplayStore(50_000_000, 50_000_000);
    let guard = new ReplayGuard(TRIGGER_REPLAY, guardStore);
    let map = new Map<string, number>();
    let n = 0;
    const next = freshTriggers();
    const now = Date.now();
    const series = await measure(
      [
        { impl: STORE, fn: () => store.checkAndRecordNow(SCOPE, `k${n++}`, retainUntil, now) },
        { impl: GUARD, fn: () => guard.admit(next() as never), async: true },
        {
          impl: ANCHOR,
          fn: () => {
            const id = `${SCOPE}\n${`k${n++}`}`;
            if (map.get(id) !== undefined) return false;
            map.set(id, retainUntil);
            return true;
          },
        },
      ],
      {
        ...options,
        beforeRound: () => {
          store = new MemoryReplayStore(50_000_000, 50_000_000);
          guardStore = new MemoryReplayStore(50_000_000, 50_000_000);
          guard = new ReplayGuard(TRIGGER_REPLAY, guardStore);
          map = new Map();
        },
      },
    );
    rows.push({ label: "in memory (MemoryReplayStore; anchor: Map get+set)", series, throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 1_500_000 }] });
  }

  // SQLite at both durability levels; FULL shows what one fsync per commit costs.
  const dir = mkdtempSync(join(tmpdir(), "agent-contracts-bench-"));
  try {
    for (const synchronous of ["NORMAL", "FULL"] as const) {
      const store = new SqliteReplayStore(join(dir, `store-${synchronous}.sqlite`), { synchronous, maxEntriesPerScope: 1_000_000 });
      const guardStore = new SqliteReplayStore(join(dir, `guard-${synchronous}.sqlite`), { synchronous, maxEntriesPerScope: 1_000_000 });
      const guard = new ReplayGuard(TRIGGER_REPLAY, guardStore);
      const raw = new Database(join(dir, `raw-${synchronous}.sqlite`));
      raw.pragma("journal_mode = WAL");
      raw.pragma(`synchronous = ${synchronous}`);
      raw.exec("CREATE TABLE r (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID");
      const insert = raw.prepare("INSERT INTO r (scope, key, retain_until_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
      let n = 0;
      const next = freshTriggers();
      const series = await measure(
        [
          { impl: STORE, fn: () => store.checkAndRecordNow(SCOPE, `k${n++}`, retainUntil, Date.now()) },
          { impl: GUARD, fn: () => guard.admit(next() as never), async: true },
          { impl: ANCHOR, fn: () => insert.run(SCOPE, `k${n++}`, retainUntil).changes === 1 },
        ],
        // Wall clock: the cost is mostly waiting for fsync, which CPU time does not see.
        { ...options, clock: "wall" },
      );
      store.close();
      guardStore.close();
      raw.close();
      rows.push(
        synchronous === "NORMAL"
          ? { label: "SQLite durable across a killed process (WAL, synchronous=NORMAL, the default; anchor: one INSERT)", series, throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 20_000 }] }
          : { label: "SQLite durable across power loss (WAL, synchronous=FULL; anchor: one INSERT)", series, throughputGoals: [{ impl: STORE, atLeastOpsPerSec: 20_000 }] },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    title: "Replay guard",
    ours: STORE,
    impls: [STORE, GUARD, ANCHOR],
    ratios: [{ anchor: ANCHOR, kind: "speedup" }],
    rows,
    notes: [
      "`store.checkAndRecord` is the atomic check-and-record on its own; `guard.admit` adds reading the key and scope fields and parsing two RFC 3339 times from a real AgentTriggerRequest. " +
        "Every call records a new key. The SQLite rows are timed on the wall clock (the cost is waiting for fsync), the in-memory row on CPU time; the database files are in the OS temp directory (same disk as the repository).",
    ],
  };
}

export interface MemoryResult {
  entries: number;
  bytesPerEntry: number;
  /** The same keys in a bare Map<string, number>: what any Map-based store costs at least. */
  floorBytesPerEntry: number;
  verdict: Verdict;
  heapMiB: number;
  rssMiB: number;
  markdown: string;
}

/** Heap and RSS growth for 1M live records admitted through the guard (needs --expose-gc). */
export async function replayMemory(entries = 1_000_000): Promise<MemoryResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with node --expose-gc for the memory measurement");
  gc();
  gc();
  const before = process.memoryUsage();
  const store = new MemoryReplayStore(entries + 1, entries + 1);
  const guard = new ReplayGuard(TRIGGER_REPLAY, store);
  const next = freshTriggers();
  for (let i = 0; i < entries; i++) {
    // Realistic ids: UUID-length request ids, as the real senders use.
    const message = next();
    message["request_id"] = `11111111-1111-4111-8111-${i.toString(16).padStart(12, "0")}`;
    const decision = await guard.admit(message as never);
    if (!decision.ok) throw new Error(`record ${i}: ${decision.error.code}`);
  }
  gc();
  gc();
  const after = process.memoryUsage();
  if ((await store.size()) !== entries) throw new Error(`store holds ${await store.size()} records`);
  const heap = after.heapUsed - before.heapUsed;
  const rss = after.rss - before.rss;
  const floor = bareMapBytesPerEntry(entries, retainUntil);
  if ((await store.size()) !== entries) throw new Error("store lost records while the floor was measured");
  const bytesPerEntry = heap / entries;
  const verdict: Verdict = bytesPerEntry <= MEMORY_GOAL_BYTES ? "met" : "missed";
  const result = { entries, bytesPerEntry, floorBytesPerEntry: floor, verdict, heapMiB: heap / 2 ** 20, rssMiB: rss / 2 ** 20 };
  const markdown =
    `### Replay guard memory\n\n` +
    markdownTable(
      ["live records", "heap growth", "per record", "floor: bare Map<string, number>, same keys", "RSS growth", "goal"],
      [[formatOps(entries), `${result.heapMiB.toFixed(0)} MiB`, `${bytesPerEntry.toFixed(0)} B`, `${floor.toFixed(0)} B`, `${result.rssMiB.toFixed(0)} MiB`, `≤ ${MEMORY_GOAL_BYTES} B: ${verdict === "met" ? "met" : "**MISSED**"}`]],
    ) +
    `\n\nMemoryReplayStore after ${formatOps(entries)} AgentTriggerRequests admitted through ReplayGuard (UUID request ids, one scope), measured with process.memoryUsage() after global.gc(). ` +
    `Each record is one entry of its scope's Map<string, number>: the key as the guard joins it (JSON.stringify of the key fields, 40 characters here), which the store holds packed (compactReplayKey: a UUID key as a mark and its 128 bits in 8 UTF-16 units; any other key as its text), and the retain-until time as a double. ` +
    `The floor is a bare Map of the same key texts and doubles built in the same process: what the store cost before it packed UUID keys, and still costs for a key that is not one UUID.\n`;
  return { ...result, markdown };
}

/** Heap bytes per entry of a bare Map from the guard's key strings to a double. */
function bareMapBytesPerEntry(entries: number, until: number): number {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const map = new Map<string, number>();
  for (let i = 0; i < entries; i++) map.set(JSON.stringify([`11111111-1111-4111-8111-${i.toString(16).padStart(12, "0")}`]), until + i / 2);
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / entries;
  if (map.size !== entries) throw new Error("bare map lost entries");
  return bytes;
}
