// Replay store on PostgreSQL, for receivers that run on more than one machine. A new key (the
// common case) costs one statement:
//   INSERT ... ON CONFLICT DO NOTHING          -- row count 1: recorded
// Only when that conflicts does a second statement decide, atomically on its own:
//   INSERT ... ON CONFLICT (id) DO UPDATE ... WHERE retain_until_ms <= <the server's clock>
// A held key, its retention not over, updates nothing (replayed); a key whose retention is over but
// whose row is not yet deleted is taken over (recorded), as if it had been swept, and a row swept
// between the two statements is inserted again. Concurrent statements on one key serialise on its
// row lock, so exactly one caller records it. The first statement alone is exactly the bare insert
// the bench measures as the floor: DO UPDATE ... WHERE costs about a fifth more server time
// (property-tests/bench/limits.md), and only replays (and expired keys) pay it.
//
// One clock decides expiry: the take-over and the sweep compare the stored absolute retain-until
// with the server's clock_timestamp(), never a replica's. The replica's own clock still decides
// whether a message has expired (the guard), so the store reads the server's clock at first use
// and every `checkIntervalMs` and refuses (StoreSafetyError "clock-skew") while the caller's
// clock differs from it by more than `maxClockSkewMs`.
//
// The primary key is a fixed-size digest, SHA-256 of the scope's UTF-8 length (8 bytes, big
// endian), the scope and the key in UTF-8, so a key of any length or content (3000 characters,
// U+0000) is stored like any other; the original pair is kept as JSON text for diagnostics.
//
// A committed record survives a server restart or crash (PostgreSQL's WAL, fsync on). Across a
// failover it survives only if the commit waited for the standby: `requireSynchronousStandby`
// refuses while the session's synchronous_commit is off or local, or no synchronous standby is
// named. Expired rows are deleted in bounded batches, at most every `sweepIntervalMs`, by
// whichever caller passes by.

import { type ReplayOutcome, type ReplayStore } from "./replay-guard.js";
import { assertSequence, type BookmarkStore } from "./bookmark-store.js";
import { createHash } from "node:crypto";
import { optionalPeer, PeriodicCheck, ServerClock, StoreSafetyError, withDeadline } from "./store-support.js";

/** A statement as `pg` takes it: with a `name`, `pg` prepares it once per connection and then only binds. */
export interface PgQuery {
  text: string;
  values?: unknown[];
  name?: string;
}

/** The one method of a `pg` Pool or Client the store uses. */
export interface PgQueryable {
  query(query: PgQuery): Promise<{ rowCount: number | null; rows: unknown[] }>;
}

export interface PostgresReplayStoreOptions {
  /** A `postgres://` URL; the store then creates (and closes) its own `pg` Pool. */
  url?: string;
  /** A Pool or Client the application already has; the store never closes it. */
  client?: PgQueryable;
  /** Table name, optionally schema-qualified (default "agent_contracts_replay"). */
  table?: string;
  /** "apply" (default): create the table and index on first use; "none": run migrationSql() yourself. */
  migrate?: "apply" | "none";
  /** Deadline of every statement, connecting included (ms; default 2000). */
  timeoutMs?: number;
  /** How often, at most, expired rows are deleted in passing (ms; default 60 000). */
  sweepIntervalMs?: number;
  /** Largest number of expired rows one sweep deletes (default 10 000). */
  sweepBatch?: number;
  /** Pool size when the store creates the pool (default 10). */
  poolSize?: number;
  /**
   * Send the check as a named prepared statement (default true): parsed and planned once per
   * connection, then only bound. Set false behind a pooler that does not keep prepared statements
   * across transactions (PgBouncer in transaction mode before 1.21).
   */
  prepare?: boolean;
  /** How often the server's clock (and synchronous commit, when required) is read again (ms; default 5000). */
  checkIntervalMs?: number;
  /** Largest accepted difference between the caller's clock and the server's (ms; default 1000); at most the declared skew. */
  maxClockSkewMs?: number;
  /** Refuse unless commits wait for a synchronous standby (synchronous_commit on, remote_write or remote_apply, and synchronous_standby_names set). */
  requireSynchronousStandby?: boolean;
}

/** The server's clock in epoch milliseconds: every expiry comparison uses it. */
const SERVER_NOW_MS = "floor(extract(epoch from clock_timestamp()) * 1000)::bigint";

/** The advisory lock key migrations hold (the Kotlin store's too). */
export const MIGRATION_LOCK = 7_241_000_001;

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;
/** How long after the deadline pg's own timers fire (see open()). */
const PG_BACKSTOP_MS = 1000;

/** One pool, given or created from a URL, with a deadline on every statement. Shared by the PostgreSQL stores. */
export class PostgresConnection {
  private pool: Promise<{ db: PgQueryable; close: () => Promise<void> }> | undefined;
  private readonly migrations = new Map<string, Promise<void>>();
  /** The pool once connected and migrated: the fast path, one deadline per check instead of two. */
  private ready: { db: PgQueryable; migration: string } | undefined;
  readonly timeoutMs: number;

  constructor(private readonly options: { url?: string; client?: PgQueryable; timeoutMs?: number; poolSize?: number; migrate?: "apply" | "none" }) {
    if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("a PostgreSQL store needs exactly one of { url } or { client }");
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** Runs `query`, after applying `migration` once per connection (unless migrate is "none"). */
  async query(migration: string, query: PgQuery): Promise<{ rowCount: number | null; rows: unknown[] }> {
    const ready = this.ready;
    if (ready !== undefined && ready.migration === migration) return withDeadline(ready.db.query(query), this.timeoutMs, "postgres query");
    const pool = this.connect();
    const { db } = await withDeadline(pool, this.timeoutMs, "postgres connect");
    if (this.options.migrate !== "none") await this.migrate(db, migration);
    // Only while this pool is still the current one (close() or a failed connect resets it).
    if (this.pool === pool) this.ready = { db, migration };
    return withDeadline(db.query(query), this.timeoutMs, "postgres query");
  }

  async close(): Promise<void> {
    this.ready = undefined;
    if (this.pool === undefined) return;
    const pool = this.pool;
    this.pool = undefined;
    await (await pool.catch(() => undefined))?.close();
  }

  private migrate(db: PgQueryable, migration: string): Promise<void> {
    let done = this.migrations.get(migration);
    if (done === undefined) {
      done = withDeadline(db.query({ text: migration }), this.timeoutMs, "postgres migration").then(() => undefined);
      this.migrations.set(migration, done);
      done.catch(() => this.migrations.delete(migration));
    }
    return done;
  }

  private connect(): Promise<{ db: PgQueryable; close: () => Promise<void> }> {
    if (this.pool === undefined) {
      const client = this.options.client;
      this.pool = client !== undefined ? Promise.resolve({ db: client, close: async () => {} }) : this.open(this.options.url as string);
      this.pool.catch(() => (this.pool = undefined));
    }
    return this.pool;
  }

  private async open(url: string): Promise<{ db: PgQueryable; close: () => Promise<void> }> {
    const pg = await optionalPeer<{ default: typeof import("pg") }>("pg", "a PostgreSQL store created from { url }", () => import("pg"));
    const pool = new pg.default.Pool({
      connectionString: url,
      max: this.options.poolSize ?? 10,
      // withDeadline decides (a StoreTimeoutError at timeoutMs); pg's own timers are a backstop a
      // second later, so its "Query read timeout" never wins the race against the shared deadline tick.
      connectionTimeoutMillis: this.timeoutMs + PG_BACKSTOP_MS,
      query_timeout: this.timeoutMs + PG_BACKSTOP_MS,
      statement_timeout: this.timeoutMs + PG_BACKSTOP_MS,
    });
    pool.on("error", () => {}); // an idle client's error surfaces on the next query
    return { db: pool as unknown as PgQueryable, close: () => pool.end() };
  }
}

export class PostgresReplayStore implements ReplayStore {
  private readonly table: string;
  private readonly sweepIntervalMs: number;
  private readonly sweepBatch: number;
  private readonly connection: PostgresConnection;
  private readonly migration: string;
  private readonly insertSql: PgQuery;
  private readonly takeOverSql: PgQuery;
  private readonly maxClockSkewMs: number;
  private readonly requireSynchronousStandby: boolean;
  private readonly clock = new ServerClock();
  private readonly serverChecks: PeriodicCheck;
  private nextSweepMs = Number.NEGATIVE_INFINITY;

  constructor(options: PostgresReplayStoreOptions) {
    const table = options.table ?? "agent_contracts_replay";
    this.migration = PostgresReplayStore.migrationSql(table);
    this.connection = new PostgresConnection(options);
    this.table = table;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.sweepBatch = options.sweepBatch ?? 10_000;
    this.maxClockSkewMs = options.maxClockSkewMs ?? 1000;
    this.requireSynchronousStandby = options.requireSynchronousStandby ?? false;
    this.serverChecks = new PeriodicCheck(options.checkIntervalMs ?? 5000, () => this.checkServer());
    // RETURNING is not needed: the command tag's row count is 1 when a row was inserted or taken
    // over and 0 when the record was kept, which is the whole answer.
    const insert = `INSERT INTO ${table} (id, original, retain_until_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`;
    const takeOver =
      `INSERT INTO ${table} (id, original, retain_until_ms) VALUES ($1, $2, $3) ` +
      `ON CONFLICT (id) DO UPDATE SET original = EXCLUDED.original, retain_until_ms = EXCLUDED.retain_until_ms WHERE ${table}.retain_until_ms <= ${SERVER_NOW_MS}`;
    // Names are per table (pg refuses one name for two texts on a connection) and short (NAMEDATALEN).
    const named = (text: string, kind: string): PgQuery => (options.prepare === false ? { text } : { text, name: `agent_contracts_${kind}_${fnv1a(table)}` });
    this.insertSql = named(insert, "insert");
    this.takeOverSql = named(takeOver, "take_over");
  }

  /**
   * The migration the store applies (migrate: "apply") or that you run yourself (migrate: "none").
   * A table of the earlier layout (PRIMARY KEY (scope, key)) is converted in place, its records
   * kept under their digests.
   */
  static migrationSql(table = "agent_contracts_replay"): string {
    checkTableName(table);
    const index = `${table.replace(/^.*\./, "")}_retain_until_idx`;
    // Sent as one simple-protocol query, so it runs as one transaction: the advisory lock taken
    // first is held to the end, and replicas starting together do not race CREATE TABLE IF NOT
    // EXISTS (which is not safe concurrently in PostgreSQL).
    return [
      `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});`,
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('${table}') AND attname = 'scope' AND NOT attisdropped) THEN ` +
        `ALTER TABLE ${table} ADD COLUMN id bytea, ADD COLUMN original text; ` +
        `UPDATE ${table} SET id = sha256(int8send(octet_length(convert_to(scope, 'UTF8'))::bigint) || convert_to(scope, 'UTF8') || convert_to(key, 'UTF8')), original = json_build_array(scope, key)::text; ` +
        `EXECUTE format('ALTER TABLE ${table} DROP CONSTRAINT %I', (SELECT conname FROM pg_constraint WHERE conrelid = to_regclass('${table}') AND contype = 'p')); ` +
        `ALTER TABLE ${table} DROP COLUMN scope, DROP COLUMN key, ALTER COLUMN id SET NOT NULL, ALTER COLUMN original SET NOT NULL, ADD PRIMARY KEY (id); ` +
        `END IF; END $$;`,
      `CREATE TABLE IF NOT EXISTS ${table} (id bytea PRIMARY KEY, original text NOT NULL, retain_until_ms bigint NOT NULL);`,
      `CREATE INDEX IF NOT EXISTS ${index} ON ${table} (retain_until_ms);`,
    ].join("\n");
  }

  /** The primary key of (scope, key): SHA-256 of the scope's UTF-8 byte length (8 bytes, big endian), the scope and the key. */
  static recordId(scope: string, key: string): Buffer {
    const scopeBytes = Buffer.from(scope, "utf8");
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(scopeBytes.length));
    return createHash("sha256").update(length).update(scopeBytes).update(key, "utf8").digest();
  }

  async checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome> {
    const due = this.serverChecks.due(0);
    if (due !== undefined) await due;
    this.clock.assertWithin(nowMs, this.maxClockSkewMs, "PostgreSQL");
    if (nowMs >= this.nextSweepMs) {
      this.nextSweepMs = nowMs + this.sweepIntervalMs;
      // Off the caller's path: the check does not wait for (or fail with) a batch delete. The
      // check stays correct without it, since an expired row is taken over in the INSERT itself.
      // A failed sweep waits for the next interval; the check itself reports the server.
      this.evictExpired(nowMs).catch(() => undefined);
    }
    const values = [PostgresReplayStore.recordId(scope, key), JSON.stringify([scope, key]), Math.ceil(retainUntilMs)];
    const inserted = await this.connection.query(this.migration, { ...this.insertSql, values });
    if (inserted.rowCount === 1) return "recorded";
    const takenOver = await this.connection.query(this.migration, { ...this.takeOverSql, values });
    return takenOver.rowCount === 1 ? "recorded" : "replayed";
  }

  /** Deletes one bounded batch of rows expired on the server's clock (`_nowMs`, the caller's, is not used); resolves how many. */
  async evictExpired(_nowMs: number): Promise<number> {
    const result = await this.query(
      `DELETE FROM ${this.table} WHERE ctid = ANY (ARRAY (SELECT ctid FROM ${this.table} WHERE retain_until_ms <= ${SERVER_NOW_MS} LIMIT $1))`,
      [this.sweepBatch],
    );
    return result.rowCount ?? 0;
  }

  async size(): Promise<number> {
    const result = await this.query(`SELECT count(*)::bigint AS n FROM ${this.table}`, []);
    return Number((result.rows[0] as { n: string | number }).n);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private query(text: string, values: unknown[]): Promise<{ rowCount: number | null; rows: unknown[] }> {
    return this.connection.query(this.migration, { text, values });
  }

  /** Reads the server's clock (and, when required, its synchronous commit settings); throws StoreSafetyError while they break the fleet requirements. */
  private async checkServer(): Promise<void> {
    // The settings first (this query may connect and migrate), then the clock alone: the reading's
    // uncertainty is half its own round trip, which must not include connecting.
    const settings = await this.query(`SELECT current_setting('synchronous_commit') AS commit_mode, current_setting('synchronous_standby_names') AS standbys`, []);
    const row = settings.rows[0] as { commit_mode: string; standbys: string };
    const sentMs = performance.now();
    const clock = await this.query(`SELECT ${SERVER_NOW_MS} AS now_ms`, []);
    this.clock.observe(Number((clock.rows[0] as { now_ms: string | number }).now_ms), sentMs, performance.now());
    if (this.requireSynchronousStandby && (!["on", "remote_write", "remote_apply"].includes(row.commit_mode) || row.standbys.trim() === "")) {
      throw new StoreSafetyError(
        "no-synchronous-standby",
        `postgres commits do not wait for a synchronous standby (synchronous_commit ${row.commit_mode}, synchronous_standby_names "${row.standbys}"): a failover could lose acknowledged records`,
      );
    }
  }
}

/** Inbox bookmarks on PostgreSQL: one row per scope, moved forward with GREATEST in one upsert. */
export class PostgresBookmarkStore implements BookmarkStore {
  private readonly connection: PostgresConnection;
  private readonly table: string;
  private readonly migration: string;

  constructor(options: { url?: string; client?: PgQueryable; table?: string; timeoutMs?: number; migrate?: "apply" | "none" }) {
    this.table = options.table ?? "agent_contracts_bookmarks";
    this.migration = PostgresBookmarkStore.migrationSql(this.table);
    this.connection = new PostgresConnection(options);
  }

  static migrationSql(table = "agent_contracts_bookmarks"): string {
    checkTableName(table);
    return `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});\nCREATE TABLE IF NOT EXISTS ${table} (scope text PRIMARY KEY, position bigint NOT NULL);`;
  }

  async position(scope: string): Promise<number> {
    const result = await this.connection.query(this.migration, { text: `SELECT position FROM ${this.table} WHERE scope = $1`, values: [scope] });
    return result.rows.length === 0 ? 0 : Number((result.rows[0] as { position: string }).position);
  }

  async advance(scope: string, sequence: number): Promise<number> {
    assertSequence(sequence);
    const result = await this.connection.query(this.migration, {
      text: `INSERT INTO ${this.table} (scope, position) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET position = GREATEST(${this.table}.position, EXCLUDED.position) RETURNING position`,
      values: [scope, sequence],
    });
    return Number((result.rows[0] as { position: string }).position);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

function checkTableName(table: string): void {
  if (!TABLE_NAME.test(table)) throw new TypeError(`table must be a lower-case SQL identifier, optionally schema-qualified: ${JSON.stringify(table)}`);
}

/** 32-bit FNV-1a of `text` in hex: a short, stable statement name per table. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}
