// Replay protection behind one interface, for the in-memory and SQLite stores. A message is
// admitted once: the guard rejects expired and not-yet-valid messages first, then atomically
// records its key. Expiry is strict (as in every real SDK), but a record is kept until expiry plus
// the declared skew: longer than the guard would accept the message itself, so dropping it can
// never readmit a still-valid message, even if the clock steps back by up to the skew.

import { type JsonObject } from "./json-value.js";

/** The `x-replay` annotation (spec/meta/signing.schema.json#/$defs/Replay). */
export interface ReplayDeclaration {
  /** Fields whose values together form the single-use key, e.g. ["request_id"]. */
  keyFields: string[];
  /** Fields naming the instance the key is unique within, e.g. ["provider_id", "host_instance_id"]. */
  scopeFields: string[];
  /** Expiry field. */
  expiresAtField: string;
  /** Creation field, checked against the clock for messages from the future. */
  notBeforeField?: string;
  /** How the time fields are written: RFC 3339 strings (default) or integer Unix seconds. */
  timeFormat?: "rfc3339" | "unix-seconds";
  /** Clock tolerance: how far in the future created_at may be, and how long past expiry records are kept. */
  skewSeconds: number;
  /** Ceiling on expires_at - now: a message expiring later is refused (lifetime-exceeded), which bounds how long one record is kept. */
  maxLifetimeSeconds?: number;
}

export type ReplayRejectCode =
  | "field-missing"
  | "invalid-timestamp"
  | "expired"
  | "not-yet-valid"
  | "lifetime-exceeded"
  | "replayed"
  | "capacity-exceeded"
  | "store-unavailable";

export type ReplayDecision = { ok: true } | { ok: false; error: { code: ReplayRejectCode; message: string } };

/** What a store says of one check: the key was new and is now held, was already held, or no room. */
export type ReplayOutcome = "recorded" | "replayed" | "full";

/**
 * Atomic check-and-record, the once-only primitive behind replay guards, approval-token single use
 * and interaction answers. Implementations must make the check and the write one step, also across
 * processes and machines when the store is shared (SQLite file, Redis, PostgreSQL). Asynchronous so
 * that network stores fit; a store that cannot answer rejects, and the guard then refuses (fail
 * closed): it never admits a message it could not record.
 */
export interface ReplayStore {
  /**
   * Records (scope, key) until `retainUntilMs` and resolves "recorded", or "replayed" if a record
   * for it is still held at `nowMs`, or "full" if no room can be made without dropping a live one
   * (the whole store, or this scope's quota).
   */
  checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome>;
  /** Drops records whose retention has passed; resolves how many. */
  evictExpired(nowMs: number): Promise<number>;
  /** Records currently held. */
  size(): Promise<number>;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Epoch milliseconds of a strict RFC 3339 timestamp (no leap second, no space separator), or null. */
export function parseRfc3339(text: string): number | null {
  const match = RFC3339.exec(text);
  if (match === null) return null;
  // Fields read one by one: mapping the whole match to numbers allocated an array per message.
  const y = Number(match[1]);
  const mo = Number(match[2]);
  const d = Number(match[3]);
  if (mo < 1 || mo > 12 || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6]) > 59) return null;
  // Proleptic Gregorian (RFC 3339 appendix C), so year 0000 is a leap year. Date.UTC is no help
  // here: it maps years 0-99 to 1900-1999.
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  if (d < 1 || d > days) return null;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? null : ms;
}

function readTime(value: unknown, format: "rfc3339" | "unix-seconds"): number | null {
  if (format === "unix-seconds") return Number.isSafeInteger(value) ? (value as number) * 1000 : null;
  return typeof value === "string" ? parseRfc3339(value) : null;
}

/**
 * Joins the declared fields' values so that distinct tuples never produce the same string. This is
 * the scope and key the store persists (SqliteReplayStore keeps them on disk), so its form stays
 * the JSON array it has always been: records written by earlier versions keep matching.
 */
function joinKey(parts: string[]): string {
  return JSON.stringify(parts);
}

/** `M`: the message type it admits (a generated guard takes its typed message; the default any JSON object). */
export class ReplayGuard<M extends object = JsonObject> {
  constructor(
    private readonly declaration: ReplayDeclaration,
    private readonly store: ReplayStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Admits the message once; run it after the signature check so forged messages leave no record. */
  async admit(received: M): Promise<ReplayDecision> {
    const message = received as unknown as JsonObject;
    const d = this.declaration;
    const keyParts = readFields(message, d.keyFields);
    if (!Array.isArray(keyParts)) return keyParts;
    const scopeParts = readFields(message, d.scopeFields);
    if (!Array.isArray(scopeParts)) return scopeParts;
    const format = d.timeFormat ?? "rfc3339";
    const expiresField = readTime(message[d.expiresAtField], format);
    // Unix-seconds expiry is inclusive (the approval token's exp == now passes): valid through that second.
    const expiresAt = expiresField === null ? null : format === "unix-seconds" ? expiresField + 1000 : expiresField;
    if (expiresAt === null) return reject("invalid-timestamp", `${d.expiresAtField} is not a ${format} time`);
    const now = this.now();
    const skewMs = d.skewSeconds * 1000;
    const retainUntil = expiresAt + skewMs;
    if (now >= expiresAt) return reject("expired", "message has expired");
    if (d.notBeforeField !== undefined) {
      const createdAt = readTime(message[d.notBeforeField], format);
      if (createdAt === null) return reject("invalid-timestamp", `${d.notBeforeField} is not a ${format} time`);
      if (createdAt > now + skewMs) return reject("not-yet-valid", "message was created in the future");
    }
    if (d.maxLifetimeSeconds !== undefined && expiresAt - now > (d.maxLifetimeSeconds + d.skewSeconds) * 1000) {
      return reject("lifetime-exceeded", "message expires further ahead than this receiver accepts");
    }
    let outcome: ReplayOutcome;
    try {
      outcome = await this.store.checkAndRecord(joinKey(scopeParts), joinKey(keyParts), retainUntil, now);
    } catch (error) {
      // Fail closed: a message the store could not record is refused, whatever the store's trouble.
      return reject("store-unavailable", `replay store did not answer: ${describeStoreError(error)}`);
    }
    if (outcome === "replayed") return reject("replayed", "message was already accepted");
    if (outcome === "full") return reject("capacity-exceeded", "replay store is full of unexpired records");
    return { ok: true };
  }
}

// The declared fields' values in order, or the rejection for the first missing or empty one.
function readFields(message: JsonObject, fields: readonly string[]): string[] | ReplayDecision {
  const values: string[] = [];
  for (const field of fields) {
    const value = message[field];
    if (typeof value !== "string" || value === "") return reject("field-missing", `${field} is missing or empty`);
    values.push(value);
  }
  return values;
}

/** The store error's own message, without stack or connection details (which may name credentials). */
function describeStoreError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\/\/[^@/\s]*@/g, "//***@").slice(0, 200);
}

function reject(code: ReplayRejectCode, message: string): ReplayDecision {
  return { ok: false, error: { code, message } };
}

// The in-memory store's form of a record's key. Senders use UUIDs for their message ids, and the
// guard's key for one id field is JSON.stringify([id]): 40 one-byte characters, about 64 bytes of
// heap. A key that is exactly one lowercase RFC 9562 UUID in that form is held as UUID_MARK and its
// 128 bits in 8 UTF-16 units (about 40 bytes); every other key is held as it is, except that a key
// which itself starts with one of the two marks gets RAW_MARK in front. So two different keys never
// get the same form, and nothing ever needs to turn a form back into its key.
const UUID_MARK = 0x01;
const RAW_MARK = 0x02;
const UUID_KEY_LENGTH = 40;

/** The form MemoryReplayStore keeps a key in: one-to-one, shorter for a UUID key. */
export function compactReplayKey(key: string): string {
  if (key.length === UUID_KEY_LENGTH) {
    const packed = packUuidKey(key);
    if (packed !== undefined) return packed;
  }
  const first = key.charCodeAt(0);
  return first === UUID_MARK || first === RAW_MARK ? String.fromCharCode(RAW_MARK) + key : key;
}

// `["xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"]` (lowercase hex) as UUID_MARK + 8 units of 16 bits:
// the four digits at 2, 6, 11, 16, 21, 26, 30 and 34, with the dashes at 10, 15, 20 and 25.
function packUuidKey(key: string): string | undefined {
  if (key.charCodeAt(0) !== 0x5b || key.charCodeAt(1) !== 0x22 || key.charCodeAt(38) !== 0x22 || key.charCodeAt(39) !== 0x5d) return undefined;
  if (key.charCodeAt(10) !== 0x2d || key.charCodeAt(15) !== 0x2d || key.charCodeAt(20) !== 0x2d || key.charCodeAt(25) !== 0x2d) return undefined;
  const u0 = hexUnit(key, 2);
  const u1 = hexUnit(key, 6);
  const u2 = hexUnit(key, 11);
  const u3 = hexUnit(key, 16);
  const u4 = hexUnit(key, 21);
  const u5 = hexUnit(key, 26);
  const u6 = hexUnit(key, 30);
  const u7 = hexUnit(key, 34);
  // Any -1 (a character that is not a lowercase hex digit) makes the OR negative.
  if ((u0 | u1 | u2 | u3 | u4 | u5 | u6 | u7) < 0) return undefined;
  return String.fromCharCode(UUID_MARK, u0, u1, u2, u3, u4, u5, u6, u7);
}

// The value of the four lowercase hex digits at `at`, or -1.
function hexUnit(key: string, at: number): number {
  const a = hexDigit(key.charCodeAt(at));
  const b = hexDigit(key.charCodeAt(at + 1));
  const c = hexDigit(key.charCodeAt(at + 2));
  const d = hexDigit(key.charCodeAt(at + 3));
  return (a | b | c | d) < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

function hexDigit(c: number): number {
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
}

/**
 * In-memory store. Memory is bounded by `maxEntries`: when full it first evicts expired records
 * and, if none are, refuses the new message rather than forget a live one (fail closed). Each
 * scope (one provider and host instance, say) may hold at most `maxEntriesPerScope` records, so
 * one sender with a valid key cannot fill the store and lock the others out.
 */
export class MemoryReplayStore implements ReplayStore {
  // Per scope, each record's key (compactReplayKey's form) and the time it is kept until: a
  // Map<string, number> per scope holds a record in about 85 bytes with a UUID key, 150 with a
  // 40-character key kept as text (the key, a boxed double and the entry), where a composite key
  // string and a record object per entry took nearly three times that.
  private readonly scopes = new Map<string, Map<string, number>>();
  private total = 0;
  private nextSweepMs = Number.NEGATIVE_INFINITY;
  private readonly maxEntriesPerScope: number;

  constructor(private readonly maxEntries: number = 100_000, maxEntriesPerScope?: number) {
    this.maxEntriesPerScope = maxEntriesPerScope ?? Math.max(1, Math.floor(maxEntries / 10));
  }

  async checkAndRecord(scope: string, key: string, retainUntilMs: number, nowMs: number): Promise<ReplayOutcome> {
    return this.checkAndRecordNow(scope, key, retainUntilMs, nowMs);
  }

  /** The same decision, synchronously: this store never waits on anything. */
  checkAndRecordNow(scope: string, key: string, retainUntilMs: number, nowMs: number): ReplayOutcome {
    key = compactReplayKey(key);
    const held = this.scopes.get(scope)?.get(key);
    if (held !== undefined && held > nowMs) return "replayed";
    const overQuota = () => this.total >= this.maxEntries || (this.scopes.get(scope)?.size ?? 0) >= this.maxEntriesPerScope;
    if (held === undefined && overQuota()) {
      this.evictNow(nowMs);
      if (overQuota()) return "full";
    } else if (nowMs >= this.nextSweepMs) {
      // Periodic sweep keeps memory close to the live set without scanning on every call.
      this.evictNow(nowMs);
      this.nextSweepMs = nowMs + 60_000;
    }
    // Looked up again: the sweep may have removed the scope's records (and this key's).
    let records = this.scopes.get(scope);
    if (records === undefined) {
      records = new Map();
      this.scopes.set(scope, records);
    }
    if (!records.has(key)) this.total++;
    records.set(key, retainUntilMs);
    return "recorded";
  }

  async evictExpired(nowMs: number): Promise<number> {
    return this.evictNow(nowMs);
  }

  private evictNow(nowMs: number): number {
    let evicted = 0;
    for (const [scope, records] of this.scopes) {
      for (const [key, until] of records) {
        if (until <= nowMs) {
          records.delete(key);
          evicted++;
        }
      }
      if (records.size === 0) this.scopes.delete(scope);
    }
    this.total -= evicted;
    return evicted;
  }

  async size(): Promise<number> {
    return this.total;
  }
}
