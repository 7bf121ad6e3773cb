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
}

/** The connector audit log: `connector-audit-` ids, genesis link "", 1-based sequence. */
export const CONNECTOR_AUDIT_CHAIN: AuditChainDeclaration = {
  idField: "eventId",
  prefix: "connector-audit-",
  previousField: "previousEventId",
  sequenceField: "sequence",
  genesisPrevious: "",
};

/** Where the chain must end; kept outside the log (another file, a database row, a keychain). */
export interface AuditHead {
  sequence: number;
  eventId: string;
}

export type AuditChainErrorCode =
  | "entry-invalid"
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

/** Parses a JSON Lines audit log strictly (one entry per non-empty line) and verifies it. */
export function verifyAuditLog(declaration: AuditChainDeclaration, text: string, expectedHead?: AuditHead | null): AuditChainResult {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const entries: JsonValue[] = [];
  for (let index = 0; index < lines.length; index++) {
    const parsed = parseStrictJson(lines[index] as string);
    if (!parsed.ok) return chainError("entry-invalid", index, `line is not strict JSON: ${parsed.error.code}`);
    entries.push(parsed.value);
  }
  return verifyAuditChain(declaration, entries, expectedHead);
}
