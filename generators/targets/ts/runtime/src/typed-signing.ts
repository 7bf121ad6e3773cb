// The typed face of hmac-sha256-v1 that each generated signX / verifyX binds to one message:
// signing takes the message without its signature fields and returns the signed message, checked
// against its schema; verifying returns the message typed, or a reason code. The wire work stays
// in signing-hmac-v1.ts; this file only adds the schema check and the types around it.
import {
  type HmacSha256V1Declaration,
  type HmacV1ErrorCode,
  type HmacV1Key,
  type HmacV1SigningInputFunction,
  signHmacV1,
  verifyHmacV1,
} from "./signing-hmac-v1.js";
import { isJsonObject, type JsonObject } from "./json-value.js";
import { parseStrictJson } from "./strict-json.js";
import type { ValidationError, ValidationResult } from "./validation.js";

/**
 * `T` without the fields its x-signature declaration writes (`K`: the signature and algorithm
 * fields). Each of them is `?: never`, so a value that already carries one is refused by the
 * compiler instead of being silently re-signed. Distributes over unions; keeps index signatures.
 */
export type Unsigned<T, K extends PropertyKey> = T extends unknown ? { [P in keyof T as P extends K ? never : P]: T[P] } & { [P in K]?: never } : never;

/** What refused a signature or a verification: the scheme's codes, a JSON error or the schema. */
export type TypedSigningErrorCode = HmacV1ErrorCode | "json-invalid" | "schema-invalid";

export interface TypedSigningError {
  code: TypedSigningErrorCode;
  message: string;
  /** For schema-invalid: every validation error (paths and keywords, never the values). */
  errors?: ValidationError[];
}

/** A verified message, typed, or the reason it was refused; `ok` tells which. */
export type VerifiedMessage<T> = { ok: true; message: T } | { ok: false; error: TypedSigningError };

/** Thrown by signX: an empty key, or a message that is not a valid `T` once signed. Never carries the key. */
export class SigningError extends Error {
  readonly code: TypedSigningErrorCode;
  readonly errors: readonly ValidationError[];
  constructor(error: TypedSigningError) {
    super(error.message);
    this.name = "SigningError";
    this.code = error.code;
    this.errors = error.errors ?? [];
  }
}

type Validate<T> = (value: unknown) => ValidationResult<T>;

function schemaInvalid(what: string, errors: ValidationError[]): TypedSigningError {
  return { code: "schema-invalid", message: `${what} is not a valid message: ${errors.map((e) => e.message).join("; ")}`, errors };
}

/**
 * Signs `unsigned` per `declaration` and returns the signed message after checking it against
 * the message's schema and rules, so a returned value is always a valid `T`. Throws SigningError.
 */
export function signTyped<T>(declaration: HmacSha256V1Declaration, validate: Validate<T>, unsigned: object, key: HmacV1Key, signingInput?: HmacV1SigningInputFunction): T {
  if (!isJsonObject(unsigned)) throw new SigningError({ code: "not-an-object", message: "a signed message must be a JSON object" });
  const signed = signHmacV1(declaration, unsigned as JsonObject, key, signingInput);
  if (!signed.ok) throw new SigningError(signed.error);
  const checked = validate(signed.message);
  if (!checked.ok) throw new SigningError(schemaInvalid("the signed message", checked.errors));
  return checked.value;
}

/**
 * Verifies a received message (a parsed value, or JSON text / UTF-8 bytes, which are parsed
 * strictly first): the signature in constant time first, so a forgery is refused before its
 * content is looked at, then the schema and rules.
 */
export function verifyTyped<T>(
  declaration: HmacSha256V1Declaration,
  validate: Validate<T>,
  input: unknown,
  key: HmacV1Key,
  signingInput?: HmacV1SigningInputFunction,
): VerifiedMessage<T> {
  let message = input;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const parsed = parseStrictJson(input);
    if (!parsed.ok) return { ok: false, error: { code: "json-invalid", message: `invalid JSON: ${parsed.error.message}` } };
    message = parsed.value;
  }
  if (!isJsonObject(message)) return { ok: false, error: { code: "not-an-object", message: "a signed message must be a JSON object" } };
  const verified = verifyHmacV1(declaration, message, key, signingInput);
  if (!verified.ok) return verified;
  const checked = validate(message);
  if (!checked.ok) return { ok: false, error: schemaInvalid("the message", checked.errors) };
  return { ok: true, message: checked.value };
}
