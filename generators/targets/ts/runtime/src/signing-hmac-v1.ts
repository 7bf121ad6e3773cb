// The agent-provider `hmac-sha256-v1` scheme, driven entirely by the message's `x-signature`
// declaration: which lines, in which order, which field is hashed, what the key is and how the
// MAC is written. The wire format is the one the real SDKs use: `name=value` lines joined by LF,
// no escaping, the hashed object as base64-std-nopad(SHA-256(JCS(value))), the MAC as
// base64-std-nopad(HMAC-SHA256(utf8(secret), utf8(lines))).

import { CanonicalJsonError, canonicalize } from "./canonical-json.js";
import { base64StdNoPadDecodeTransient, type HmacSha256Key, hmacSha256Base64StdNoPad, hmacSha256Matches, isHmacSha256Key, sha256Base64StdNoPad } from "./crypto.js";
import { isJsonObject, type JsonObject, type JsonValue, setMember } from "./json-value.js";

/** One line of the signing input. */
export interface HmacV1Line {
  /** Text before '=' on the line. */
  name: string;
  /** Message field the value comes from. */
  field: string;
  /** `string`: the field's string value verbatim. `sha256-jcs-base64-std-nopad`: digest of the field's JCS bytes. */
  value: "string" | "sha256-jcs-base64-std-nopad";
  /** Used when the field is absent (a string for `string` lines, any JSON for digest lines); without it an absent field is an error. */
  default?: JsonValue;
}

/** The `x-signature` annotation for scheme `hmac-sha256-v1` (spec/meta/signing.schema.json). */
export interface HmacSha256V1Declaration {
  scheme: "hmac-sha256-v1";
  /** Value the algorithm field must hold, e.g. "hmac-sha256-v1". */
  algorithmId: string;
  algorithmField: string;
  signatureField: string;
  lineSeparator: "\n";
  lines: HmacV1Line[];
  key: { source: string; field: string; encoding: "utf8" };
  signatureEncoding: "base64-std-nopad";
}

export type HmacV1ErrorCode =
  | "not-an-object"
  | "unsigned"
  | "algorithm-mismatch"
  | "key-missing"
  | "covered-field-missing"
  | "covered-field-not-string"
  | "hashed-field-not-json"
  | "signature-encoding"
  | "signature-mismatch";

export interface HmacV1Error {
  code: HmacV1ErrorCode;
  message: string;
}

export type HmacV1InputResult = { ok: true; input: string } | { ok: false; error: HmacV1Error };
type HmacV1Failure = { ok: false; error: HmacV1Error };

/**
 * A secret as UTF-8 text or bytes, or prepared once as an HmacSha256Key (the fast form: its pads
 * are hashed when it is made, not on every sign and verify).
 */
export type HmacV1Key = string | Uint8Array | HmacSha256Key;

/**
 * The signing input of one message type, generated from its x-signature declaration (signing.js):
 * the same text and the same first error as hmacV1SigningInput with that declaration.
 */
export type HmacV1SigningInputFunction = (message: JsonObject) => HmacV1InputResult;
export type HmacV1VerifyResult = { ok: true } | { ok: false; error: HmacV1Error };
export type HmacV1SignResult = { ok: true; message: JsonObject; signature: string } | { ok: false; error: HmacV1Error };

function fail(code: HmacV1ErrorCode, message: string): HmacV1Failure {
  return { ok: false, error: { code, message } };
}

/** The failure of a generated signing-input function whose message is not an object. */
export function hmacV1NotAnObject(): HmacV1Failure {
  return fail("not-an-object", "a signed message must be a JSON object");
}

/** The failure of a generated signing-input function for an absent covered field with no default. */
export function hmacV1FieldMissing(field: string): HmacV1Failure {
  return fail("covered-field-missing", `covered field ${field} is missing`);
}

/** The failure of a generated signing-input function for a `string` line whose field is not a string. */
export function hmacV1FieldNotString(field: string): HmacV1Failure {
  return fail("covered-field-not-string", `covered field ${field} is not a string`);
}

/** A digest line's value for a generated signing-input function, or why the field has no JCS form. */
export function hmacV1DigestLine(field: string, raw: JsonValue): string | HmacV1Failure {
  try {
    return jcsSha256Base64(raw);
  } catch (error) {
    if (error instanceof CanonicalJsonError) return fail("hashed-field-not-json", `field ${field} cannot be canonicalized: ${error.code}`);
    throw error;
  }
}

/** base64-std-nopad(SHA-256(JCS(value))): the `*_sha256` line value. */
export function jcsSha256Base64(value: JsonValue): string {
  // The canonical text goes to the hash as a string (hashed as its UTF-8 bytes, the JCS bytes).
  return sha256Base64StdNoPad(canonicalize(value));
}

/** The exact text that is MACed, or which covered field is missing or malformed. */
export function hmacV1SigningInput(declaration: HmacSha256V1Declaration, message: JsonObject): HmacV1InputResult {
  // Appended to one string (V8 ropes, flattened once when hashed) rather than pushed to an array
  // and joined: this runs on every verify, and the array and per-line strings were most of its cost.
  // Callers hand over parsed untrusted JSON: anything but an object is refused, not dereferenced.
  if (!isJsonObject(message)) return hmacV1NotAnObject();
  const lines = declaration.lines;
  let input = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as HmacV1Line;
    const raw = Object.prototype.hasOwnProperty.call(message, line.field) ? message[line.field] : line.default;
    if (raw === undefined) return hmacV1FieldMissing(line.field);
    let value: string;
    if (line.value === "string") {
      if (typeof raw !== "string") return hmacV1FieldNotString(line.field);
      value = raw;
    } else {
      const digest = hmacV1DigestLine(line.field, raw as JsonValue);
      if (typeof digest !== "string") return digest;
      value = digest;
    }
    input = i === 0 ? line.name + "=" + value : input + declaration.lineSeparator + line.name + "=" + value;
  }
  return { ok: true, input };
}

// A string key is used as is (hashed as its UTF-8 bytes); it is empty exactly when its UTF-8
// encoding is.
// A prepared key remembers whether its secret was empty.
function isEmptyKey(key: HmacV1Key): boolean {
  return isHmacSha256Key(key) ? key.empty : key.length === 0;
}

// The canonical unpadded base64 of 32 bytes is always 43 characters; any other length cannot be a
// valid hmac-sha256-v1 signature, so it is refused before decoding.
const SIGNATURE_TEXT_LENGTH = 43;

/**
 * Returns a copy of `message` with the algorithm and signature fields set. The algorithm field is
 * written first, as the real signers do, though it is not a covered line. `signingInput`, when given,
 * is the message type's generated signing-input function (the same text, without reading the lines).
 */
export function signHmacV1(declaration: HmacSha256V1Declaration, message: JsonObject, key: HmacV1Key, signingInput?: HmacV1SigningInputFunction): HmacV1SignResult {
  if (isEmptyKey(key)) return fail("key-missing", "signing key is empty");
  const input = signingInput === undefined ? hmacV1SigningInput(declaration, message) : signingInput(message);
  if (!input.ok) return input;
  const signature = hmacSha256Base64StdNoPad(key, input.input);
  const signed: JsonObject = {};
  for (const name of Object.keys(message)) setMember(signed, name, message[name] as JsonValue);
  setMember(signed, declaration.algorithmField, declaration.algorithmId);
  setMember(signed, declaration.signatureField, signature);
  return { ok: true, message: signed, signature };
}

/**
 * Verifies a received message exactly as it arrived; compares MAC bytes in constant time.
 * `signingInput` as for signHmacV1.
 */
export function verifyHmacV1(declaration: HmacSha256V1Declaration, message: JsonObject, key: HmacV1Key, signingInput?: HmacV1SigningInputFunction): HmacV1VerifyResult {
  if (!isJsonObject(message)) return fail("not-an-object", "a signed message must be a JSON object");
  const signatureText = message[declaration.signatureField];
  if (typeof signatureText !== "string" || signatureText === "") return fail("unsigned", "message carries no signature");
  if (message[declaration.algorithmField] !== declaration.algorithmId) {
    return fail("algorithm-mismatch", `${declaration.algorithmField} is not ${declaration.algorithmId}`);
  }
  if (isEmptyKey(key)) return fail("key-missing", "verification key is empty");
  const received = signatureText.length === SIGNATURE_TEXT_LENGTH ? base64StdNoPadDecodeTransient(signatureText) : null;
  if (received === null || received.length !== 32) {
    return fail("signature-encoding", "signature is not 32 bytes of unpadded standard base64");
  }
  const input = signingInput === undefined ? hmacV1SigningInput(declaration, message) : signingInput(message);
  if (!input.ok) return input;
  // received is a transient view (see base64StdNoPadDecodeTransient): read here, never returned.
  if (!hmacSha256Matches(key, input.input, received)) return fail("signature-mismatch", "signature does not match");
  return { ok: true };
}
