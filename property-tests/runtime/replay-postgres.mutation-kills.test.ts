// replay-postgres.ts through a fake `pg` client that records every statement: the expected SQL,
// parameters and statement names are written out by hand from the file's contract (an INSERT ... ON
// CONFLICT DO NOTHING first, the take-over upsert only on a conflict, a bounded sweep in passing,
// the migration under an advisory lock, the server check before the first record and every
// checkIntervalMs) and PostgreSQL's replies (the command tag's row count). Record ids are SHA-256
// of the scope's UTF-8 length as 8 bytes big endian, the scope and the key, computed here with
// node:crypto from that definition.
// Statement names use FNV-1a 32 of the table name, computed by hand with the FNV offset basis
// 0x811c9dc5 and prime 0x01000193 ("agent_contracts_replay" -> 3555a050, "s.t" -> c3946c10).
// The real server runs in property-tests/fleet/stores.test.ts (make test).
import { describe, expect, it } from "vitest";
import { MIGRATION_LOCK, PostgresBookmarkStore, PostgresReplayStore, type PgQuery } from "../../generators/targets/ts/runtime/src/replay-postgres.js";
import { createHash } from "node:crypto";
import { StoreSafetyError, StoreTimeoutError } from "../../generators/targets/ts/runtime/src/store-support.js";

type Answer = { rowCount: number | null; rows: unknown[] } | Error | (() => Promise<{ rowCount: number | null; rows: unknown[] }>);
const NOW_MS = "floor(extract(epoch from clock_timestamp()) * 1000)::bigint";
const SETTINGS = "SELECT current_setting('synchronous_commit') AS commit_mode, current_setting('synchronous_standby_names') AS standbys";
const CHECK = `SELECT ${NOW_MS} AS now_ms`;
/** The server's side of the check: its clock (ms) and synchronous commit settings. */
const server = { nowMs: 1000, commitMode: "on", standbys: "", fail: false };
function fakePg(answer: (q: PgQuery) => Answer = () => ({ rowCount: 1, rows: [] })) {
  const sent: PgQuery[] = [];
  const client = {
    query: async (q: PgQuery) => {
      sent.push(q);
      const a =
        q.text === CHECK && server.fail
          ? new Error("check failed")
          : q.text === CHECK
            ? rows(1, [{ now_ms: String(server.nowMs) }])
            : q.text === SETTINGS
              ? rows(1, [{ commit_mode: server.commitMode, standbys: server.standbys }])
              : answer(q);
      if (typeof a === "function") return a();
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return { client, sent };
}
const convert = (t: string) =>
  `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('${t}') AND attname = 'scope' AND NOT attisdropped) THEN ` +
  `ALTER TABLE ${t} ADD COLUMN id bytea, ADD COLUMN original text; ` +
  `UPDATE ${t} SET id = sha256(int8send(octet_length(convert_to(scope, 'UTF8'))::bigint) || convert_to(scope, 'UTF8') || convert_to(key, 'UTF8')), original = json_build_array(scope, key)::text; ` +
  `EXECUTE format('ALTER TABLE ${t} DROP CONSTRAINT %I', (SELECT conname FROM pg_constraint WHERE conrelid = to_regclass('${t}') AND contype = 'p')); ` +
  `ALTER TABLE ${t} DROP COLUMN scope, DROP COLUMN key, ALTER COLUMN id SET NOT NULL, ALTER COLUMN original SET NOT NULL, ADD PRIMARY KEY (id); ` +
  `END IF; END $$;`;
const MIGRATION =
  "SELECT pg_advisory_xact_lock(7241000001);\n" +
  convert("agent_contracts_replay") +
  "\nCREATE TABLE IF NOT EXISTS agent_contracts_replay (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL);\n" +
  "CREATE INDEX IF NOT EXISTS agent_contracts_replay_retain_until_idx ON agent_contracts_replay (retain_until_ms);";
const INSERT = "INSERT INTO agent_contracts_replay (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
const TAKE_OVER =
  "INSERT INTO agent_contracts_replay (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original, retain_until_ms = EXCLUDED.retain_until_ms WHERE agent_contracts_replay.retain_until_ms <= " +
  NOW_MS;
const SWEEP = `DELETE FROM agent_contracts_replay WHERE ctid = ANY (ARRAY (SELECT ctid FROM agent_contracts_replay WHERE retain_until_ms <= ${NOW_MS} LIMIT $1))`;
function id(scope: string, key: string): Buffer {
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(Buffer.byteLength(scope, "utf8")));
  return createHash("sha256").update(Buffer.concat([length, Buffer.from(scope, "utf8"), Buffer.from(key, "utf8")])).digest();
}
/** Callers far from the fake server's clock in these tests: the clock bound is tested on its own. */
const LAX = { maxClockSkewMs: 1e15 };
const isInsert = (q: PgQuery) => q.text.startsWith("INSERT");
const rows = (rowCount: number | null, r: unknown[] = []) => ({ rowCount, rows: r });
const settle = () => new Promise((r) => setTimeout(r, 5));

describe("PostgresReplayStore", () => {
  it("needs exactly one of url or client", () => {
    expect(() => new PostgresReplayStore({})).toThrow(new TypeError("a PostgreSQL store needs exactly one of { url } or { client }"));
    expect(() => new PostgresReplayStore({ url: "postgres://x", client: fakePg().client })).toThrow(TypeError);
  });
  it("migrationSql: the table and its index, under the advisory lock, as one text", () => {
    expect(MIGRATION_LOCK).toBe(7_241_000_001);
    expect(PostgresReplayStore.migrationSql()).toBe(MIGRATION);
    expect(PostgresReplayStore.migrationSql("app.replay")).toBe(
      "SELECT pg_advisory_xact_lock(7241000001);\n" +
        convert("app.replay") +
        "\nCREATE TABLE IF NOT EXISTS app.replay (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL);\n" +
        "CREATE INDEX IF NOT EXISTS replay_retain_until_idx ON app.replay (retain_until_ms);",
    );
  });
  it("table names are lower-case SQL identifiers of at most 63 characters, optionally schema-qualified", () => {
    for (const ok of ["t", "_t9", "a".repeat(63), `${"s".repeat(63)}.${"t".repeat(63)}`, "s.t"]) expect(() => PostgresReplayStore.migrationSql(ok), ok).not.toThrow();
    for (const bad of ["", "T", "9t", "a".repeat(64), "s.t.u", "s.", ".t", "t;", "t x", "x; DROP TABLE y", "t\n"]) {
      expect(() => new PostgresReplayStore({ client: fakePg().client, table: bad }), bad).toThrow(
        new TypeError(`table must be a lower-case SQL identifier, optionally schema-qualified: ${JSON.stringify(bad)}`),
      );
    }
  });
  it("a new key: the migration once, then one named INSERT ... DO NOTHING with the rounded retention", async () => {
    const { client, sent } = fakePg((q) => (isInsert(q) ? rows(1) : rows(0)));
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12 });
    expect(await store.checkAndRecord("s", "k", 1500.2, 1000.7)).toBe("recorded");
    expect(await store.checkAndRecord("s", "k2", 2000, 1001)).toBe("recorded");
    expect(sent.filter((q) => q.text === MIGRATION)).toEqual([{ text: MIGRATION }]);
    expect(sent.filter(isInsert)).toEqual([
      { text: INSERT, name: "agent_contracts_insert_3555a050", values: [id("s", "k"), '["s","k"]', 1501] },
      { text: INSERT, name: "agent_contracts_insert_3555a050", values: [id("s", "k2"), '["s","k2"]', 2000] },
    ]);
    // The id is the digest of (length, scope, key): the same text split differently is another record.
    // sha256sum of the bytes 00 00 00 00 00 00 00 01 73 6b: length 1, "s", "k" (the Kotlin store's test has the same value).
    expect(PostgresReplayStore.recordId("s", "k").toString("hex")).toBe("7f50ccf79ef391b6b0e7c23546b3292f08a5afd3dde9d881fa23188a91b08ddd");
    expect(PostgresReplayStore.recordId("ab", "c")).toEqual(id("ab", "c"));
    expect(PostgresReplayStore.recordId("ab", "c")).not.toEqual(PostgresReplayStore.recordId("a", "bc"));
    expect(PostgresReplayStore.recordId("é", "\u0000")).toEqual(id("é", "\u0000"));
  });
  it("a conflict: the take-over upsert decides (row count 1 recorded, 0 replayed) on the server's clock", async () => {
    let takeOver = 1;
    const { client, sent } = fakePg((q) => (q.text === INSERT ? rows(0) : q.text === TAKE_OVER ? rows(takeOver) : rows(0)));
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12 });
    expect(await store.checkAndRecord("s", "k", 5000.5, 1000.7)).toBe("recorded");
    takeOver = 0;
    expect(await store.checkAndRecord("s", "k", 5000, 1000)).toBe("replayed");
    expect(sent.filter((q) => q.text === TAKE_OVER)).toEqual([
      { text: TAKE_OVER, name: "agent_contracts_take_over_3555a050", values: [id("s", "k"), '["s","k"]', 5001] },
      { text: TAKE_OVER, name: "agent_contracts_take_over_3555a050", values: [id("s", "k"), '["s","k"]', 5000] },
    ]);
    // A null row count (no command tag) is not a record.
    const nulls = fakePg((q) => (isInsert(q) ? rows(null) : rows(0)));
    expect(await new PostgresReplayStore({ client: nulls.client, sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000)).toBe("replayed");
  });
  it("prepare: false sends unnamed statements; the names follow the table", async () => {
    const plain = fakePg();
    await new PostgresReplayStore({ client: plain.client, prepare: false, sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000);
    expect(plain.sent.filter(isInsert)).toEqual([{ text: INSERT, values: [id("s", "k"), '["s","k"]', 2] }]);
    const other = fakePg();
    await new PostgresReplayStore({ client: other.client, table: "s.t", sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000);
    expect(other.sent.filter(isInsert).map((q) => q.name)).toEqual(["agent_contracts_insert_c3946c10"]);
  });
  it("migrate: none sends no migration", async () => {
    const { client, sent } = fakePg();
    await new PostgresReplayStore({ client, migrate: "none", sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000);
    // The server check first: its settings, then its clock, neither with parameters; the first record also starts a sweep.
    expect(sent.map((q) => q.text)).toEqual([SETTINGS, CHECK, SWEEP, INSERT]);
    expect(sent.slice(0, 2)).toEqual([
      { text: SETTINGS, values: [] },
      { text: CHECK, values: [] },
    ]);
  });
  it("a failed migration fails the check and is tried again on the next one", async () => {
    let failing = true;
    const { client, sent } = fakePg((q) => (q.text === MIGRATION && failing ? new Error("permission denied") : rows(1)));
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12 });
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow("permission denied");
    failing = false;
    expect(await store.checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    expect(sent.filter((q) => q.text === MIGRATION).length).toBe(2);
  });
  it("expired rows are swept in passing, in bounded batches, at most every sweepIntervalMs (60 s by default)", async () => {
    const { client, sent } = fakePg((q) => (isInsert(q) ? rows(1) : rows(3)));
    const store = new PostgresReplayStore({ client, sweepBatch: 7, ...LAX });
    await store.checkAndRecord("s", "a", 2, 1000.9);
    await store.checkAndRecord("s", "b", 2, 60_999);
    await store.checkAndRecord("s", "c", 2, 61_000);
    await store.checkAndRecord("s", "d", 2, 61_001);
    await settle();
    expect(sent.filter((q) => q.text.startsWith("DELETE"))).toEqual([
      { text: SWEEP, values: [7] },
      { text: SWEEP, values: [7] },
    ]);
    const defaults = fakePg((q) => (isInsert(q) ? rows(1) : rows(0)));
    await new PostgresReplayStore({ client: defaults.client }).checkAndRecord("s", "a", 2, 5);
    await settle();
    expect(defaults.sent.filter((q) => q.text.startsWith("DELETE"))).toEqual([{ text: SWEEP, values: [10_000] }]);
  });
  it("a failed sweep does not fail the check", async () => {
    const { client } = fakePg((q) => (q.text.startsWith("DELETE") ? new Error("lock timeout") : rows(1)));
    expect(await new PostgresReplayStore({ client }).checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    await settle();
  });
  it("evictExpired resolves the deleted row count (0 without a tag); size reads count(*)", async () => {
    const { client, sent } = fakePg((q) => (q.text.startsWith("DELETE") ? rows(4) : q.text.startsWith("SELECT count") ? rows(1, [{ n: "42" }]) : rows(0)));
    const store = new PostgresReplayStore({ client, sweepBatch: 3 });
    expect(await store.evictExpired(99.5)).toBe(4);
    expect(await store.size()).toBe(42);
    expect(sent.filter((q) => q.text !== MIGRATION)).toEqual([
      { text: SWEEP, values: [3] },
      { text: "SELECT count(*)::bigint AS n FROM agent_contracts_replay", values: [] },
    ]);
    const untagged = fakePg(() => rows(null));
    expect(await new PostgresReplayStore({ client: untagged.client }).evictExpired(1)).toBe(0);
  });
  it("every statement has a deadline (timeoutMs), connected or not", async () => {
    const { client } = fakePg((q) => (q.text === MIGRATION ? rows(0) : () => new Promise(() => {})));
    const store = new PostgresReplayStore({ client, timeoutMs: 30, sweepIntervalMs: 1e12 });
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow(new StoreTimeoutError("postgres query", 30));
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow(new StoreTimeoutError("postgres query", 30));
    // The first statement (the server check) waits on the slow path: the same deadline and label.
    const stuckCheck = { query: async (q: PgQuery) => (q.text === MIGRATION ? rows(0) : new Promise<never>(() => {})) };
    await expect(new PostgresReplayStore({ client: stuckCheck, timeoutMs: 30, sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000)).rejects.toThrow(
      new StoreTimeoutError("postgres query", 30),
    );
    const stuck = fakePg(() => () => new Promise(() => {}));
    await expect(new PostgresReplayStore({ client: stuck.client, timeoutMs: 30, sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000)).rejects.toThrow(
      new StoreTimeoutError("postgres migration", 30),
    );
  });
  it("close() keeps a given client and the store usable; the migration is not sent again", async () => {
    const { client, sent } = fakePg();
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12 });
    await store.checkAndRecord("s", "k", 2, 1000);
    await store.close();
    await store.close();
    expect(await store.checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    expect(sent.map((q) => q.text)).toEqual([MIGRATION, SETTINGS, CHECK, SWEEP, INSERT, INSERT]);
  });
  it("refuses (StoreSafetyError clock-skew) while the caller's clock is further than maxClockSkewMs (1000 ms by default) from the server's", async () => {
    server.nowMs = 1_000_000;
    try {
      const { client, sent } = fakePg();
      const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12 });
      // Margins of several hundred ms: the server's clock moves on while the test runs (slowly, under Stryker).
      expect(await store.checkAndRecord("s", "k", 2e6, 1_000_000 + 700)).toBe("recorded");
      expect(await store.checkAndRecord("s", "k", 2e6, 1_000_000 - 500)).toBe("recorded");
      for (const [off, shown] of [[1600, /by 1[0-6]\d\d ms/], [-1600, /by -(1[6-9]|2\d)\d\d ms/]] as const) {
        const refused = store.checkAndRecord("s", "k", 2e6, 1_000_000 + off);
        await expect(refused).rejects.toThrow(StoreSafetyError);
        await expect(refused).rejects.toMatchObject({ problem: "clock-skew", name: "StoreSafetyError" });
        await expect(refused).rejects.toThrow(/clock differs from the PostgreSQL server's by -?\d+ ms, more than the 1000 ms allowed/);
        await expect(refused).rejects.toThrow(shown);
      }
      const wide = new PostgresReplayStore({ client, sweepIntervalMs: 1e12, maxClockSkewMs: 5000 });
      expect(await wide.checkAndRecord("s", "k", 2e6, 1_000_000 + 4000)).toBe("recorded");
      // Nothing was recorded for the refused calls.
      expect(sent.filter(isInsert).length).toBe(3);
    } finally {
      server.nowMs = 1000;
    }
  });
  it("the server check runs once per checkIntervalMs (5000 ms by default) and again after a failed one", async () => {
    const { client, sent } = fakePg();
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12, checkIntervalMs: 40 });
    await store.checkAndRecord("s", "a", 2, 1000);
    await store.checkAndRecord("s", "b", 2, 1000);
    expect(sent.filter((q) => q.text === CHECK).length).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    await store.checkAndRecord("s", "c", 2, 1000);
    expect(sent.filter((q) => q.text === CHECK).length).toBe(2);
    server.fail = true;
    await new Promise((r) => setTimeout(r, 60));
    await expect(store.checkAndRecord("s", "d", 2, 1000)).rejects.toThrow("check failed");
    server.fail = false;
    expect(await store.checkAndRecord("s", "d", 2, 1000)).toBe("recorded");
    expect(await store.checkAndRecord("s", "e", 2, 1000)).toBe("recorded");
    expect(sent.filter((q) => q.text === CHECK).length).toBe(4);
    const defaults = fakePg();
    const slow = new PostgresReplayStore({ client: defaults.client, sweepIntervalMs: 1e12 });
    await slow.checkAndRecord("s", "a", 2, 1000);
    await new Promise((r) => setTimeout(r, 60));
    await slow.checkAndRecord("s", "b", 2, 1000);
    expect(defaults.sent.filter((q) => q.text === CHECK).length).toBe(1);
  });
  it("requireSynchronousStandby refuses unless commits wait for a named synchronous standby", async () => {
    const { client } = fakePg();
    const store = new PostgresReplayStore({ client, sweepIntervalMs: 1e12, checkIntervalMs: 0, requireSynchronousStandby: true });
    for (const [commitMode, standbys] of [["on", ""], ["on", "  "], ["local", "s1"], ["off", "s1"]] as const) {
      Object.assign(server, { commitMode, standbys });
      const refused = store.checkAndRecord("s", "k", 2, 1000);
      await expect(refused).rejects.toMatchObject({ problem: "no-synchronous-standby" });
      await expect(refused).rejects.toThrow(`postgres commits do not wait for a synchronous standby (synchronous_commit ${commitMode}, synchronous_standby_names "${standbys}"): a failover could lose acknowledged records`);
    }
    for (const commitMode of ["on", "remote_write", "remote_apply"]) {
      Object.assign(server, { commitMode, standbys: "FIRST 1 (s1)" });
      expect(await store.checkAndRecord("s", "k", 2, 1000), commitMode).toBe("recorded");
    }
    Object.assign(server, { commitMode: "off", standbys: "" });
    expect(await new PostgresReplayStore({ client, sweepIntervalMs: 1e12 }).checkAndRecord("s", "k", 2, 1000)).toBe("recorded");
    Object.assign(server, { commitMode: "on", standbys: "" });
  });
  it("a store created from a URL loads pg and fails closed when nothing listens", async () => {
    const store = new PostgresReplayStore({ url: "postgresql://postgres@127.0.0.1:1/postgres", timeoutMs: 500, sweepIntervalMs: 1e12 });
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow();
    await expect(store.checkAndRecord("s", "k", 2, 1000)).rejects.toThrow();
    await store.close();
  });
});

describe("PostgresBookmarkStore", () => {
  const BOOKMARK_MIGRATION = "SELECT pg_advisory_xact_lock(7241000001);\nCREATE TABLE IF NOT EXISTS agent_contracts_bookmarks (scope text PRIMARY KEY, position bigint NOT NULL);";
  it("migrationSql, position (0 without a row) and a forward-only GREATEST upsert", async () => {
    expect(PostgresBookmarkStore.migrationSql()).toBe(BOOKMARK_MIGRATION);
    expect(() => PostgresBookmarkStore.migrationSql("Bad")).toThrow(TypeError);
    const { client, sent } = fakePg((q) => (q.text.startsWith("SELECT position") ? rows(q.values![0] === "s" ? 1 : 0, q.values![0] === "s" ? [{ position: "5" }] : []) : rows(1, [{ position: "9" }])));
    const store = new PostgresBookmarkStore({ client });
    expect(await store.position("s")).toBe(5);
    expect(await store.position("t")).toBe(0);
    expect(await store.advance("s", 9)).toBe(9);
    expect(sent).toEqual([
      { text: BOOKMARK_MIGRATION },
      { text: "SELECT position FROM agent_contracts_bookmarks WHERE scope = $1", values: ["s"] },
      { text: "SELECT position FROM agent_contracts_bookmarks WHERE scope = $1", values: ["t"] },
      {
        text: "INSERT INTO agent_contracts_bookmarks (scope, position) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET position = GREATEST(agent_contracts_bookmarks.position, EXCLUDED.position) RETURNING position",
        values: ["s", 9],
      },
    ]);
  });
  it("refuses a bad sequence before any statement; a custom table is used", async () => {
    const { client, sent } = fakePg();
    const store = new PostgresBookmarkStore({ client, table: "b", migrate: "none" });
    await expect(store.advance("s", 1.5)).rejects.toThrow(RangeError);
    expect(sent).toEqual([]);
    await store.close();
  });
});
