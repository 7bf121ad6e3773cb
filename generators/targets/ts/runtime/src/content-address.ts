// Records named by a hash of their own canonical bytes (the `x-content-address` annotation):
// id = prefix + lowercase hex SHA-256 of JCS(record without its id field).

import { CanonicalJsonError, canonicalBytes } from "./canonical-json.js";
import { constantTimeEqual, sha256Hex } from "./crypto.js";
import { type JsonObject, type JsonValue, isJsonObject, withoutMember } from "./json-value.js";
import { type StrictJsonErrorCode, parseStrictJson } from "./strict-json.js";

/** The `x-content-address` annotation (spec/meta/message.schema.json#/$defs/ContentAddress). */
export interface ContentAddressDeclaration {
  idField: string;
  prefix: string;
  digest: "sha256-hex";
  covers: "record-without-id";
  maxCanonicalBytes?: number;
  canonicalInput?: boolean;
}

/** Import failures, in the order they are checked (the reference parser's order). */
export type ContentImportErrorCode = "json-invalid" | "schema-invalid" | "id-mismatch" | "not-canonical";

export interface ContentImportError {
  code: ContentImportErrorCode;
  message: string;
  /** For json-invalid: what the strict parser refused. */
  jsonError?: StrictJsonErrorCode | "empty";
}

export type ContentImportResult<T> = { ok: true; record: T; id: string } | { ok: false; error: ContentImportError };

/** The schema (and cross-field rule) check for the record; the generated validator in practice. */
export type RecordValidator = (value: JsonValue) => boolean;

/** The id the record should carry. Throws CanonicalJsonError if the record is not JSON. */
export function computeContentId(declaration: ContentAddressDeclaration, record: JsonObject): string {
  return declaration.prefix + sha256Hex(canonicalBytes(withoutMember(record, declaration.idField)));
}

/** True when the record's id field holds the id its content hashes to. */
export function verifyContentId(declaration: ContentAddressDeclaration, record: JsonObject): boolean {
  const stated = record[declaration.idField];
  if (typeof stated !== "string") return false;
  try {
    return stated === computeContentId(declaration, record);
  } catch (error) {
    if (error instanceof CanonicalJsonError) return false;
    throw error;
  }
}

function importFailure(code: ContentImportErrorCode, message: string, jsonError?: StrictJsonErrorCode | "empty"): { ok: false; error: ContentImportError } {
  return { ok: false, error: jsonError === undefined ? { code, message } : { code, message, jsonError } };
}

/**
 * Imports a content-addressed record from untrusted bytes. Checks run in the reference order:
 * bytes and JSON, then schema, then id, then canonical size, then byte-for-byte canonical form, so
 * a forged id is reported as such even when the bytes are also pretty-printed.
 */
export function importCanonicalRecord<T extends JsonObject>(
  declaration: ContentAddressDeclaration,
  input: string | Uint8Array,
  validate: RecordValidator,
): ContentImportResult<T> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  if (bytes.length === 0) return importFailure("json-invalid", "input is empty", "empty");
  const limits = declaration.maxCanonicalBytes === undefined ? {} : { maxBytes: declaration.maxCanonicalBytes };
  // Text is parsed as text, so a raw lone surrogate is refused (lone-surrogate) like everywhere else
  // instead of being replaced by U+FFFD when encoded; the bytes are only compared, below.
  const parsed = parseStrictJson(input, limits);
  if (!parsed.ok) return importFailure("json-invalid", parsed.error.message, parsed.error.code);
  const value = parsed.value;
  if (!isJsonObject(value) || !validate(value)) return importFailure("schema-invalid", "record does not match its schema");
  const stated = value[declaration.idField];
  if (typeof stated !== "string") return importFailure("schema-invalid", `${declaration.idField} is not a string`);
  const canonical = canonicalBytes(withoutMember(value, declaration.idField));
  const expected = declaration.prefix + sha256Hex(canonical);
  if (stated !== expected) return importFailure("id-mismatch", `${declaration.idField} does not match the record's content`);
  const whole = canonicalBytes(value);
  if (declaration.maxCanonicalBytes !== undefined && whole.length > declaration.maxCanonicalBytes) {
    return importFailure("schema-invalid", `canonical record is larger than ${declaration.maxCanonicalBytes} bytes`);
  }
  if (declaration.canonicalInput === true && !constantTimeEqual(whole, bytes)) {
    return importFailure("not-canonical", "input bytes are not the record's canonical form");
  }
  return { ok: true, record: value as T, id: expected };
}
