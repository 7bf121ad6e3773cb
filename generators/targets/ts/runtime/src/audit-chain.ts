// The connector's hash-chained audit log. Each entry's id is a content address of the entry
// without that id, and the entry names its predecessor's id, so editing, reordering, inserting or
// deleting a middle entry breaks a link. Dropping entries from the end leaves a valid shorter
// chain (the reference implementation misses this), so verification also takes a head
// {sequence, eventId} stored apart from the log, and the log must end exactly there.

import { CanonicalJsonError, canonicalBytes } from "./canonical-json.js";
import { sha256Hex } from "./crypto.js";
import { type JsonObject, type JsonValue, isJsonObject, setMember, withoutMember } from "./json-value.js";
import { parseStrictJson } from "./strict-json.js";

export interface AuditChainDeclaration {
  idField: string;
  prefix: string;
  previousField: string;
  sequenceField: string;
  /** previousField value of the first entry. */
  genesisPrevious: string;
  /** When present, the entries must also replay through this lifecycle. */
  lifecycle?: AuditLifecycle;
}

/**
 * The lifecycle a log records, one state per subject (a packageId): each entry's action must be
 * allowed from its subject's state ("" before its first entry), and its details must have exactly
 * the action's members. Entries have exactly `fields`.
 */
export interface AuditLifecycle {
  subjectField: string;
  actionField: string;
  detailsField: string;
  fields: string[];
  transitions: Record<string, { from: string[]; to: string; details: string[] }>;
}

/** The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence. */
export const CONNECTOR_AUDIT_CHAIN: AuditChainDeclaration = {
  idField: "eventId",
  prefix: "connector-audit-",
  previousField: "previousEventId",
  sequenceField: "sequence",
  genesisPrevious: "",
};

/**
 * The connector audit log with its trust lifecycle (spec/agent-connector/lifecycles/trust.machine.yaml,
 * one transition per action its effects append), as Meldwork's package store replays it on load.
 */
export const CONNECTOR_AUDIT_LOG: AuditChainDeclaration = {
  ...CONNECTOR_AUDIT_CHAIN,
  lifecycle: {
    subjectField: "packageId",
    actionField: "action",
    detailsField: "details",
    fields: ["action", "details", "eventId", "packageId", "previousEventId", "recordType", "schemaVersion", "sequence", "timestamp"],
    transitions: {
      imported: { from: [""], to: "imported", details: ["originFilename", "originSha256"] },
      approved: { from: ["imported"], to: "approved", details: [] },
      installed: { from: ["approved", "disabled"], to: "installed", details: [] },
      disabled: { from: ["installed"], to: "disabled", details: [] },
      revoked: { from: ["imported", "approved", "disabled"], to: "revoked", details: [] },
      removed: { from: ["imported", "approved", "disabled", "revoked"], to: "removed", details: [] },
      upgraded: { from: ["approved"], to: "installed", details: ["fromPackageId"] },
    },
  },
};

/** Where the chain must end; kept outside the log (another file, a database row, a keychain). */
export interface AuditHead {
  sequence: number;
  eventId: string;
}

export type AuditChainErrorCode =
  | "log-empty"
  | "line-unterminated"
  | "entry-invalid"
  | "transition-invalid"
  | "details-invalid"
  | "sequence-mismatch"
  | "previous-mismatch"
  | "event-id-mismatch"
  | "head-mismatch";

export interface AuditChainError {
  code: AuditChainErrorCode;
  /** 0-based index of the entry at fault; entries.length for a head mismatch past the end. */
  index: number;
  message: string;
}

export type AuditChainResult = { ok: true; head: AuditHead | null } | { ok: false; error: AuditChainError };

/** The id an entry should carry (hash of the canonical entry without its id field). */
export function computeAuditEventId(declaration: AuditChainDeclaration, entry: JsonObject): string {
  return declaration.prefix + sha256Hex(canonicalBytes(withoutMember(entry, declaration.idField)));
}

/**
 * Builds the next entry: `body` plus sequence, link and id. Returns the entry and the new head,
 * which the caller stores apart from the log.
 */
export function appendAuditEntry(
  declaration: AuditChainDeclaration,
  head: AuditHead | null,
  body: JsonObject,
): { entry: JsonObject; head: AuditHead } {
  const entry: JsonObject = {};
  for (const name of Object.keys(body)) {
    if (name !== declaration.idField) setMember(entry, name, body[name] as JsonValue);
  }
  const sequence = head === null ? 1 : head.sequence + 1;
  setMember(entry, declaration.sequenceField, sequence);
  setMember(entry, declaration.previousField, head === null ? declaration.genesisPrevious : head.eventId);
  const eventId = computeAuditEventId(declaration, entry);
  setMember(entry, declaration.idField, eventId);
  return { entry, head: { sequence, eventId } };
}

function chainError(code: AuditChainErrorCode, index: number, message: string): AuditChainResult {
  return { ok: false, error: { code, index, message: `${message} (entry ${index + 1})` } };
}

/**
 * Checks every link. With `expectedHead` (pass null for "the log must be empty"), the last entry
 * must be exactly that head, which is what catches deleted tail entries. Omit it only when no
 * head is kept; then tail truncation cannot be detected.
 */
export function verifyAuditChain(
  declaration: AuditChainDeclaration,
  entries: readonly JsonValue[],
  expectedHead?: AuditHead | null,
): AuditChainResult {
  let previous = declaration.genesisPrevious;
  const states = new Map<string, string>();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    if (!isJsonObject(entry)) return chainError("entry-invalid", index, "entry is not an object");
    if (entry[declaration.sequenceField] !== index + 1) return chainError("sequence-mismatch", index, "sequence is not the entry's position");
    if (entry[declaration.previousField] !== previous) return chainError("previous-mismatch", index, "link to the previous entry is broken");
    const stated = entry[declaration.idField];
    let expected: string;
    try {
      expected = computeAuditEventId(declaration, entry);
    } catch (error) {
      if (error instanceof CanonicalJsonError) return chainError("entry-invalid", index, "entry is not canonical JSON");
      throw error;
    }
    if (stated !== expected) return chainError("event-id-mismatch", index, "entry id does not match its content");
    previous = expected;
    if (declaration.lifecycle !== undefined) {
      const failure = replayEntry(declaration.lifecycle, entry, states);
      if (failure !== undefined) return chainError(failure[0], index, failure[1]);
    }
  }
  const last = entries[entries.length - 1];
  const head: AuditHead | null = isJsonObject(last) ? { sequence: entries.length, eventId: previous } : null;
  if (expectedHead !== undefined) {
    const matches =
      expectedHead === null ? head === null : head !== null && head.sequence === expectedHead.sequence && head.eventId === expectedHead.eventId;
    if (!matches) return chainError("head-mismatch", entries.length, "log does not end at the stored head");
  }
  return { ok: true, head };
}

function sameMembers(value: JsonObject, names: readonly string[]): boolean {
  const keys = Object.keys(value);
  return keys.length === names.length && names.every((name) => Object.prototype.hasOwnProperty.call(value, name));
}

/** Applies one entry to the subjects' states; the failure, or undefined when the entry is allowed. */
function replayEntry(lifecycle: AuditLifecycle, entry: JsonObject, states: Map<string, string>): [AuditChainErrorCode, string] | undefined {
  if (!sameMembers(entry, lifecycle.fields)) return ["entry-invalid", "entry does not have exactly the log's members"];
  const subject = entry[lifecycle.subjectField];
  const action = entry[lifecycle.actionField];
  const details = entry[lifecycle.detailsField];
  if (typeof subject !== "string" || typeof action !== "string") return ["entry-invalid", "subject or action is not a string"];
  const transition = Object.prototype.hasOwnProperty.call(lifecycle.transitions, action) ? lifecycle.transitions[action] : undefined;
  if (transition === undefined) return ["transition-invalid", `unknown action ${JSON.stringify(action)}`];
  const state = states.get(subject) ?? "";
  if (!transition.from.includes(state)) return ["transition-invalid", `${action} is not allowed from ${state === "" ? "no entry" : state}`];
  if (!isJsonObject(details) || !sameMembers(details, transition.details)) return ["details-invalid", `details of ${action} must have exactly [${transition.details.join(", ")}]`];
  states.set(subject, transition.to);
  return undefined;
}

/**
 * Parses a JSON Lines audit log strictly (one entry per line, each line ended by "\n") and
 * verifies it. An existing log file is never empty: the first entry is written with the file.
 */
export function verifyAuditLog(declaration: AuditChainDeclaration, text: string, expectedHead?: AuditHead | null): AuditChainResult {
  if (text === "") return { ok: false, error: { code: "log-empty", index: 0, message: "the log file is empty" } };
  const lines = text.split("\n");
  if (lines[lines.length - 1] !== "") return chainError("line-unterminated", lines.length - 1, "the last line has no line feed");
  lines.pop();
  const entries: JsonValue[] = [];
  for (let index = 0; index < lines.length; index++) {
    const parsed = parseStrictJson(lines[index] as string);
    if (!parsed.ok) return chainError("entry-invalid", index, `line is not strict JSON: ${parsed.error.code}`);
    entries.push(parsed.value);
  }
  return verifyAuditChain(declaration, entries, expectedHead);
}
