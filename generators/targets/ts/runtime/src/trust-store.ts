// The connector trust store: the trust state of every imported package, kept as the hash-chained
// audit log (audit-chain.ts) and rebuilt by replaying it. It follows the `trust` lifecycle of
// spec/agent-connector/lifecycles/trust.machine.yaml (document 004's drawing): a model-based
// test drives it and the generated machine side by side.
//
// Storage (files, fsync, locking) is the caller's: the store hands out the entries to append and
// the head to keep apart from the log, and replays entries read back.

import { CONNECTOR_AUDIT_CHAIN, appendAuditEntry, verifyAuditChain, type AuditHead } from "./audit-chain.js";
import { type JsonObject, type JsonValue, isJsonObject } from "./json-value.js";
import { compareSemver } from "./rules.js";

export type PackageTrustState = "imported" | "approved" | "installed" | "disabled" | "revoked" | "removed";
export type TrustAuditAction = "imported" | "approved" | "installed" | "disabled" | "revoked" | "upgraded" | "removed";
export type TrustCommand = "approve" | "install" | "disable" | "revoke" | "remove" | "upgrade";

/** What the store needs to know about a package (from its validated ConnectorPackage). */
export interface TrustPackage {
  packageId: string;
  manifestId: string;
  connectorId: string;
  connectorVersion: string;
}

export interface ImportOrigin {
  /** Base name of the imported file, never a path. */
  originFilename: string;
  /** Lowercase hex SHA-256 of the package's canonical bytes. */
  originSha256: string;
}

export type TrustStoreErrorCode =
  | "PACKAGE_NOT_FOUND"
  | "TRANSITION_INVALID"
  | "IN_USE"
  | "UPGRADE_INVALID"
  | "PACKAGE_LIMIT"
  | "ORIGIN_INVALID"
  | "AUDIT_INVALID";

export interface TrustStoreError {
  code: TrustStoreErrorCode;
  message: string;
  /** For AUDIT_INVALID: 0-based index of the entry at fault. */
  index?: number;
}

export type TrustStoreResult =
  | { ok: true; state: PackageTrustState; entries: readonly JsonObject[] }
  | { ok: false; error: TrustStoreError };

export interface TrustStoreOptions {
  /** Timestamp of the next entry; Date#toISOString() by default. */
  now?: () => string;
  /** True while a configured connector instance references the manifestId. */
  isInUse?: (manifestId: string) => boolean;
  /** At most this many packages (128 by default). */
  maxPackages?: number;
}

export interface ReplayOptions extends TrustStoreOptions {
  /** Package facts by packageId; a package without them cannot be the target of a later upgrade. */
  packages?: Iterable<TrustPackage>;
  /** The head kept apart from the log; when given the log must end exactly there. */
  expectedHead?: AuditHead | null;
}

export type TrustReplayResult = { ok: true; store: TrustStore } | { ok: false; error: TrustStoreError };

export const RECORD_TYPE_AUDIT = "agent-connector-package-audit";
export const AUDIT_SCHEMA_VERSION = 1;
export const DEFAULT_MAX_PACKAGES = 128;

/** From which states each command is allowed (document 004). */
const ALLOWED_FROM: Readonly<Record<TrustCommand, readonly PackageTrustState[]>> = {
  approve: ["imported"],
  install: ["approved", "disabled"],
  disable: ["installed"],
  revoke: ["imported", "approved", "disabled"],
  remove: ["imported", "approved", "disabled", "revoked"],
  upgrade: ["approved"],
};

const TARGET: Readonly<Record<TrustCommand, PackageTrustState>> = {
  approve: "approved",
  install: "installed",
  disable: "disabled",
  revoke: "revoked",
  remove: "removed",
  upgrade: "installed",
};

const ACTION_OF: Readonly<Record<TrustCommand, TrustAuditAction>> = {
  approve: "approved",
  install: "installed",
  disable: "disabled",
  revoke: "revoked",
  remove: "removed",
  upgrade: "upgraded",
};

const COMMAND_OF: Readonly<Record<Exclude<TrustAuditAction, "imported">, TrustCommand>> = {
  approved: "approve",
  installed: "install",
  disabled: "disable",
  revoked: "revoke",
  removed: "remove",
  upgraded: "upgrade",
};

const ENTRY_KEYS = ["action", "details", "eventId", "packageId", "previousEventId", "recordType", "schemaVersion", "sequence", "timestamp"];
const PACKAGE_ID = /^connector-package-[0-9a-f]{64}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
// eslint-disable-next-line no-control-regex
const ORIGIN_FILENAME = /^[^/\\\u0000-\u001f\u007f]{1,255}$/;

function fail(code: TrustStoreErrorCode, message: string, index?: number): { ok: false; error: TrustStoreError } {
  return { ok: false, error: index === undefined ? { code, message } : { code, message, index } };
}

function isOriginValid(origin: ImportOrigin): boolean {
  return ORIGIN_FILENAME.test(origin.originFilename) && origin.originFilename !== "." && origin.originFilename !== ".." && SHA256_HEX.test(origin.originSha256);
}

export class TrustStore {
  private readonly states = new Map<string, PackageTrustState>();
  private readonly facts = new Map<string, TrustPackage>();
  private readonly log: JsonObject[] = [];
  private currentHead: AuditHead | null = null;
  private readonly now: () => string;
  private readonly isInUse: (manifestId: string) => boolean;
  private readonly maxPackages: number;

  constructor(options: TrustStoreOptions = {}) {
    this.now = options.now ?? ((): string => new Date().toISOString());
    this.isInUse = options.isInUse ?? ((): boolean => false);
    this.maxPackages = options.maxPackages ?? DEFAULT_MAX_PACKAGES;
  }

  /** Rebuilds a store from audit entries: checks the chain, each entry's shape, and every transition. */
  static replay(entries: readonly JsonValue[], options: ReplayOptions = {}): TrustReplayResult {
    const chain = verifyAuditChain(CONNECTOR_AUDIT_CHAIN, entries, options.expectedHead);
    if (!chain.ok) return fail("AUDIT_INVALID", chain.error.message, chain.error.index);
    const store = new TrustStore(options);
    for (const p of options.packages ?? []) store.facts.set(p.packageId, { ...p });
    for (let index = 0; index < entries.length; index++) {
      const problem = store.replayEntry(entries[index] as JsonObject);
      if (problem !== undefined) return fail("AUDIT_INVALID", `${problem} (entry ${index + 1})`, index);
    }
    return { ok: true, store };
  }

  /** Current state of a package, or undefined if it was never imported. */
  state(packageId: string): PackageTrustState | undefined {
    return this.states.get(packageId);
  }

  /** Every known packageId, in import order. */
  packageIds(): string[] {
    return [...this.states.keys()];
  }

  installedPackages(): string[] {
    return this.packageIds().filter((id) => this.states.get(id) === "installed");
  }

  /** The whole log, oldest first. */
  entries(): readonly JsonObject[] {
    return this.log;
  }

  /** Sequence and eventId of the last entry: keep it apart from the log to detect truncation. */
  head(): AuditHead | null {
    return this.currentHead;
  }

  /**
   * Imports a validated package. A packageId already known, in any state including removed,
   * changes nothing and appends nothing.
   */
  importPackage(pkg: TrustPackage, origin: ImportOrigin): TrustStoreResult {
    const known = this.states.get(pkg.packageId);
    if (known !== undefined) return { ok: true, state: known, entries: [] };
    if (!PACKAGE_ID.test(pkg.packageId)) return fail("ORIGIN_INVALID", "packageId is not a connector package id");
    if (!isOriginValid(origin)) return fail("ORIGIN_INVALID", "origin filename must be a base name of 1-255 characters without control characters, with a SHA-256 hex digest");
    if (this.states.size >= this.maxPackages) return fail("PACKAGE_LIMIT", `at most ${this.maxPackages} packages`);
    this.facts.set(pkg.packageId, { ...pkg });
    this.states.set(pkg.packageId, "imported");
    const entry = this.append("imported", pkg.packageId, { originFilename: origin.originFilename, originSha256: origin.originSha256 });
    return { ok: true, state: "imported", entries: [entry] };
  }

  approve(packageId: string): TrustStoreResult {
    return this.apply("approve", packageId);
  }

  install(packageId: string): TrustStoreResult {
    return this.apply("install", packageId);
  }

  disable(packageId: string): TrustStoreResult {
    return this.apply("disable", packageId);
  }

  revoke(packageId: string): TrustStoreResult {
    return this.apply("revoke", packageId);
  }

  /** Refused with IN_USE while an instance references the package. */
  remove(packageId: string): TrustStoreResult {
    return this.apply("remove", packageId);
  }

  /**
   * Installs this approved package in place of the one installed package of the same connectorId
   * with a lower version, which is disabled first. Refused with IN_USE while an instance references
   * the replaced package.
   */
  upgrade(packageId: string): TrustStoreResult {
    return this.apply("upgrade", packageId);
  }

  apply(command: TrustCommand, packageId: string): TrustStoreResult {
    const state = this.states.get(packageId);
    if (state === undefined) return fail("PACKAGE_NOT_FOUND", `unknown package ${packageId}`);
    if (!ALLOWED_FROM[command].includes(state)) return fail("TRANSITION_INVALID", `cannot ${command} a package that is ${state}`);
    if (command === "remove" && this.inUse(packageId)) return fail("IN_USE", "remove the package's connector instances first");
    if (command !== "upgrade") {
      this.states.set(packageId, TARGET[command]);
      return { ok: true, state: TARGET[command], entries: [this.append(ACTION_OF[command], packageId, {})] };
    }
    const previous = this.upgradePredecessor(packageId);
    if (previous === undefined) {
      return fail("UPGRADE_INVALID", "exactly one other version of the connector must be installed, and this version must be newer");
    }
    if (this.inUse(previous)) return fail("IN_USE", "remove the replaced package's connector instances first");
    this.states.set(previous, "disabled");
    const disabled = this.append("disabled", previous, {});
    this.states.set(packageId, "installed");
    const upgraded = this.append("upgraded", packageId, { fromPackageId: previous });
    return { ok: true, state: "installed", entries: [disabled, upgraded] };
  }

  /** The package an upgrade to `packageId` would replace, if the upgrade is valid. */
  upgradePredecessor(packageId: string): string | undefined {
    const target = this.facts.get(packageId);
    if (target === undefined) return undefined;
    const installed = [...this.states].filter(
      ([id, s]) => id !== packageId && s === "installed" && this.facts.get(id)?.connectorId === target.connectorId,
    );
    if (installed.length !== 1) return undefined;
    const [previous] = installed[0]!;
    const order = compareSemver(this.facts.get(previous)!.connectorVersion, target.connectorVersion);
    return order !== undefined && order < 0 ? previous : undefined;
  }

  private inUse(packageId: string): boolean {
    const facts = this.facts.get(packageId);
    return facts !== undefined && this.isInUse(facts.manifestId);
  }

  private append(action: TrustAuditAction, packageId: string, details: JsonObject): JsonObject {
    const { entry, head } = appendAuditEntry(CONNECTOR_AUDIT_CHAIN, this.currentHead, {
      action,
      details,
      packageId,
      recordType: RECORD_TYPE_AUDIT,
      schemaVersion: AUDIT_SCHEMA_VERSION,
      timestamp: this.now(),
    });
    this.log.push(entry);
    this.currentHead = head;
    return entry;
  }

  /** Applies one logged entry; returns what is wrong with it, if anything. */
  private replayEntry(entry: JsonObject): string | undefined {
    const keys = Object.keys(entry).sort();
    if (keys.length !== ENTRY_KEYS.length || keys.some((k, i) => k !== ENTRY_KEYS[i])) return "entry must have exactly the nine audit keys";
    const { action, details, packageId, recordType, schemaVersion, timestamp } = entry;
    if (recordType !== RECORD_TYPE_AUDIT || schemaVersion !== AUDIT_SCHEMA_VERSION) return "wrong recordType or schemaVersion";
    if (typeof packageId !== "string" || !PACKAGE_ID.test(packageId)) return "packageId is not a connector package id";
    if (typeof timestamp !== "string" || timestamp.length > 40 || Number.isNaN(Date.parse(timestamp)) || new Date(timestamp).toISOString() !== timestamp) {
      return "timestamp is not an ISO instant";
    }
    if (!isJsonObject(details)) return "details is not an object";
    const detailKeys = Object.keys(details).sort().join(",");
    if (action === "imported") {
      if (detailKeys !== "originFilename,originSha256") return "imported details must be {originFilename, originSha256}";
      const origin = { originFilename: details.originFilename, originSha256: details.originSha256 };
      if (typeof origin.originFilename !== "string" || typeof origin.originSha256 !== "string" || !isOriginValid(origin as ImportOrigin)) {
        return "imported details are invalid";
      }
      if (this.states.has(packageId)) return "package imported twice";
      if (this.states.size >= this.maxPackages) return `more than ${this.maxPackages} packages`;
      this.states.set(packageId, "imported");
      this.log.push(entry);
      this.currentHead = { sequence: entry.sequence as number, eventId: entry.eventId as string };
      return undefined;
    }
    if (typeof action !== "string" || !Object.prototype.hasOwnProperty.call(COMMAND_OF, action)) return "unknown action";
    const command = COMMAND_OF[action as Exclude<TrustAuditAction, "imported">];
    if (action === "upgraded") {
      if (detailKeys !== "fromPackageId" || typeof details.fromPackageId !== "string" || !PACKAGE_ID.test(details.fromPackageId)) {
        return "upgraded details must be {fromPackageId}";
      }
      const from = details.fromPackageId;
      // The replaced package was disabled by the entry just before (disablePrevious).
      if (from === packageId || this.states.get(from) !== "disabled") return "upgrade does not follow the disabling of the replaced package";
    } else if (detailKeys !== "") return `${action} details must be {}`;
    const state = this.states.get(packageId);
    if (state === undefined) return "package was never imported";
    if (!ALLOWED_FROM[command].includes(state)) return `cannot ${command} a package that is ${state}`;
    this.states.set(packageId, TARGET[command]);
    this.log.push(entry);
    this.currentHead = { sequence: entry.sequence as number, eventId: entry.eventId as string };
    return undefined;
  }
}
