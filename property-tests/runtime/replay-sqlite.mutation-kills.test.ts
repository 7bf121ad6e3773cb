// replay-sqlite.ts against the ReplayStore contract (replay-guard.ts: "recorded", "replayed" while a
// record is held at now, "full" when no room can be made without dropping a live one, per store or
// per scope) and the options its documentation promises (capacity, a tenth of it per scope, the
// sweep interval, the synchronous level, WAL), with hand-chosen clocks; and the SQLite bookmark store
// against document 001 § Handling (a bookmark only moves forward).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SqliteBookmarkStore, SqliteReplayStore } from "../../generators/targets/ts/runtime/src/replay-sqlite.js";

const dir = mkdtempSync(join(tmpdir(), "sqlite-kills-"));
let files = 0;
const file = () => join(dir, `s${files++}.db`);
/** The store's own connection, to read back the pragmas it set. */
const pragma = (store: object, name: string): unknown => (store as { db: { pragma(p: string, o: { simple: true }): unknown } }).db.pragma(name, { simple: true });

describe("SqliteReplayStore", () => {
  it("records once, replays while held, records again once the retention has passed", async () => {
    const s = new SqliteReplayStore(":memory:");
    expect(await s.checkAndRecord("scope", "k", 1000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("scope", "k", 5000, 999)).toBe("replayed");
    expect(await s.checkAndRecord("other", "k", 1000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("scope", "k2", 1000, 0)).toBe("recorded");
    expect(await s.checkAndRecord("scope", "k", 2000, 1000)).toBe("recorded");
    expect(s.checkAndRecordNow("scope", "k", 3000, 1999)).toBe("replayed");
    expect(await s.size()).toBe(3);
    await s.close();
  });
  it("evictExpired drops the records whose retention has passed and counts them", async () => {
    const s = new SqliteReplayStore(":memory:");
    s.checkAndRecordNow("a", "1", 100, 0);
    s.checkAndRecordNow("a", "2", 200, 0);
    s.checkAndRecordNow("b", "1", 300, 0);
    expect(await s.evictExpired(99)).toBe(0);
    expect(await s.evictExpired(200)).toBe(2);
    expect(await s.size()).toBe(1);
    expect(await s.evictExpired(1000)).toBe(1);
    expect(await s.size()).toBe(0);
  });
  it("full at maxEntries live records; a held key is still replayed, not full", () => {
    const s = new SqliteReplayStore(":memory:", { maxEntries: 2, maxEntriesPerScope: 2 });
    expect(["a", "b", "c"].map((k) => s.checkAndRecordNow("s", k, 1000, 0))).toEqual(["recorded", "recorded", "full"]);
    expect(s.checkAndRecordNow("t", "a", 1000, 0)).toBe("full");
    expect(s.checkAndRecordNow("s", "a", 1000, 500)).toBe("replayed");
  });
  it("a store full of expired records evicts them first and records", async () => {
    const s = new SqliteReplayStore(":memory:", { maxEntries: 2, maxEntriesPerScope: 2, sweepIntervalMs: 1e12 });
    s.checkAndRecordNow("s", "a", 100, 0);
    s.checkAndRecordNow("s", "b", 100, 0);
    expect(s.checkAndRecordNow("s", "c", 1000, 200)).toBe("recorded");
    expect(await s.size()).toBe(1);
    // At the quota of a held, expired key: it is taken over, not refused.
    const t = new SqliteReplayStore(":memory:", { maxEntries: 1, sweepIntervalMs: 1e12 });
    t.checkAndRecordNow("s", "a", 100, 0);
    expect(t.checkAndRecordNow("s", "a", 1000, 100)).toBe("recorded");
    expect(t.checkAndRecordNow("s", "a", 2000, 999)).toBe("replayed");
  });
  it("one scope holds at most a tenth of maxEntries by default (at least one); the others are still admitted", () => {
    const s = new SqliteReplayStore(":memory:", { maxEntries: 20 });
    expect(["a", "b", "c"].map((k) => s.checkAndRecordNow("greedy", k, 1000, 0))).toEqual(["recorded", "recorded", "full"]);
    expect(s.checkAndRecordNow("polite", "a", 1000, 0)).toBe("recorded");
    const tiny = new SqliteReplayStore(":memory:", { maxEntries: 5 });
    expect(["a", "b"].map((k) => tiny.checkAndRecordNow("s", k, 1000, 0))).toEqual(["recorded", "full"]);
    expect(tiny.checkAndRecordNow("t", "a", 1000, 0)).toBe("recorded");
  });
  it("by default a scope holds 100 000 records (a tenth of 1 000 000)", async () => {
    const s = new SqliteReplayStore(":memory:", { sweepIntervalMs: 1e12 });
    for (let i = 0; i < 100_000; i++) if (s.checkAndRecordNow("s", String(i), 1e9, 0) !== "recorded") throw new Error(`refused ${i}`);
    expect(s.checkAndRecordNow("s", "one more", 1e9, 0)).toBe("full");
    expect(s.checkAndRecordNow("t", "one more", 1e9, 0)).toBe("recorded");
    expect(await s.size()).toBe(100_001);
  });
  it("an evicted record frees its scope's quota", async () => {
    const s = new SqliteReplayStore(":memory:", { maxEntries: 100, maxEntriesPerScope: 1, sweepIntervalMs: 1e12 });
    s.checkAndRecordNow("s", "a", 100, 0);
    expect(s.checkAndRecordNow("s", "b", 1000, 50)).toBe("full");
    expect(await s.evictExpired(100)).toBe(1);
    expect(s.checkAndRecordNow("s", "b", 1000, 100)).toBe("recorded");
  });
  it("expired records are swept in passing at most every sweepIntervalMs (60 s by default)", async () => {
    const s = new SqliteReplayStore(":memory:", { sweepIntervalMs: 1000 });
    s.checkAndRecordNow("s", "a", 100, 0);
    s.checkAndRecordNow("s", "b", 600, 500);
    expect(await s.size()).toBe(2);
    s.checkAndRecordNow("s", "c", 5000, 1000);
    expect(await s.size()).toBe(1);
    const d = new SqliteReplayStore(":memory:");
    d.checkAndRecordNow("s", "a", 100, 0);
    d.checkAndRecordNow("s", "b", 1e9, 59_999);
    expect(await d.size()).toBe(2);
    d.checkAndRecordNow("s", "c", 1e9, 60_000);
    expect(await d.size()).toBe(2);
  });
  it("a file store is in WAL mode, synchronous NORMAL by default or FULL, with a 5 s busy timeout", () => {
    const normal = new SqliteReplayStore(file());
    expect([pragma(normal, "journal_mode"), pragma(normal, "synchronous"), pragma(normal, "busy_timeout")]).toEqual(["wal", 1, 5000]);
    expect(pragma(new SqliteReplayStore(file(), { synchronous: "FULL" }), "synchronous")).toBe(2);
    expect(() => new SqliteReplayStore(":memory:", { synchronous: "OFF" as never })).toThrow('synchronous must be "NORMAL" or "FULL", not OFF');
  });
  it("records survive closing and reopening the file, with the counts rebuilt", async () => {
    const path = file();
    const a = new SqliteReplayStore(path, { maxEntries: 2, maxEntriesPerScope: 2 });
    a.checkAndRecordNow("s", "a", 1e9, 0);
    a.checkAndRecordNow("s", "b", 1e9, 0);
    await a.close();
    const b = new SqliteReplayStore(path, { maxEntries: 2, maxEntriesPerScope: 2 });
    expect(await b.size()).toBe(2);
    expect(b.checkAndRecordNow("s", "a", 1e9, 1)).toBe("replayed");
    expect(b.checkAndRecordNow("s", "c", 1e9, 1)).toBe("full");
  });
});

describe("SqliteReplayStore on an existing file", () => {
  it("a file with records but no counters (an older layout) gets its counts rebuilt on open", () => {
    const path = file();
    const old = new Database(path);
    old.exec("CREATE TABLE replay_records (scope TEXT NOT NULL, key TEXT NOT NULL, retain_until_ms INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID");
    old.exec("INSERT INTO replay_records VALUES ('s', 'a', 1000000000), ('s', 'b', 1000000000), ('t', 'a', 1000000000)");
    old.close();
    const s = new SqliteReplayStore(path, { maxEntries: 4, maxEntriesPerScope: 2, sweepIntervalMs: 1e12 });
    expect(s.checkAndRecordNow("s", "c", 1e9, 0)).toBe("full");
    expect(s.checkAndRecordNow("t", "b", 1e9, 0)).toBe("recorded");
    expect(s.checkAndRecordNow("u", "a", 1e9, 0)).toBe("full");
  });
  it("a closed store refuses further work", async () => {
    const s = new SqliteReplayStore(":memory:");
    await s.close();
    expect(() => s.checkAndRecordNow("s", "k", 2, 1)).toThrow(/not open/);
    const b = new SqliteBookmarkStore(":memory:");
    await b.close();
    await expect(b.position("s")).rejects.toThrow(/not open/);
  });
});

describe("SqliteBookmarkStore", () => {
  it("starts at 0 and only moves forward", async () => {
    const s = new SqliteBookmarkStore(":memory:");
    expect(await s.position("inbox")).toBe(0);
    expect(await s.advance("inbox", 5)).toBe(5);
    expect(await s.advance("inbox", 3)).toBe(5);
    expect(await s.advance("inbox", 9)).toBe(9);
    expect(await s.position("inbox")).toBe(9);
    expect(await s.position("other")).toBe(0);
    await expect(s.advance("inbox", -1)).rejects.toThrow();
    await expect(s.advance("inbox", 1.5)).rejects.toThrow();
  });
  it("is durable: WAL, NORMAL by default or FULL, and kept across reopening", async () => {
    const path = file();
    const a = new SqliteBookmarkStore(path);
    expect([pragma(a, "journal_mode"), pragma(a, "synchronous"), pragma(a, "busy_timeout")]).toEqual(["wal", 1, 5000]);
    await a.advance("inbox", 7);
    await a.close();
    const b = new SqliteBookmarkStore(path, { synchronous: "FULL" });
    expect(pragma(b, "synchronous")).toBe(2);
    expect(await b.position("inbox")).toBe(7);
  });
});
