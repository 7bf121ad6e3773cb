// Hashing, MACs and the byte encodings the protocols put on the wire. Decoders are strict: a
// signature or token with padding, whitespace or stray bits is a different string from the one
// that was signed, so it is refused instead of being normalised into acceptance.
//
// Strings go to node:crypto as they are: Node hashes a string as its UTF-8 bytes (a lone surrogate
// as U+FFFD, exactly like TextEncoder), so encoding first only added a copy per call.

import * as nodeCrypto from "node:crypto";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

// Digests come back as Buffers that own their 32 bytes; a plain Uint8Array view over the same
// memory keeps the declared return type (no Buffer methods leak to callers) without a copy.
function plainBytes(buffer: Buffer): Uint8Array {
  return buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length ? new Uint8Array(buffer.buffer, 0, buffer.length) : new Uint8Array(buffer);
}

// Drops the one or two '=' that Node's base64 output ends with (the wire form is unpadded).
function stripPadding(text: string): string {
  const n = text.length;
  if (n === 0 || text.charCodeAt(n - 1) !== 61) return text;
  return text.charCodeAt(n - 2) === 61 ? text.slice(0, n - 2) : text.slice(0, n - 1);
}

// One-shot crypto.hash (Node >= 20.12) skips the Hash object; createHash is the 20.11 fallback.
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "base64") => string }).hash;

/** SHA-256 of raw bytes, or of a string's UTF-8 encoding. */
export function sha256(data: string | Uint8Array): Uint8Array {
  return plainBytes(createHash("sha256").update(data).digest());
}

/** Lowercase hex SHA-256. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** base64-std-nopad(SHA-256(data)), a string hashed as its UTF-8 bytes: the hmac-sha256-v1 `*_sha256` line value. */
export function sha256Base64StdNoPad(data: string | Uint8Array): string {
  return stripPadding(oneShotHash !== undefined ? oneShotHash("sha256", data, "base64") : createHash("sha256").update(data).digest("base64"));
}

/** HMAC-SHA256; a string key means its UTF-8 bytes (never hex- or base64-decoded). */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return plainBytes(createHmac("sha256", key).update(message).digest());
}

/** base64-std-nopad(HMAC-SHA256(key, message)), string key and message as UTF-8: the hmac-sha256-v1 signature. */
export function hmacSha256Base64StdNoPad(key: string | Uint8Array, message: string | Uint8Array): string {
  return stripPadding(createHmac("sha256", key).update(message).digest("base64"));
}

/**
 * Whether `expected` is HMAC-SHA256(key, message), compared in constant time (a length mismatch
 * still runs a same-length comparison and returns false).
 */
export function hmacSha256Matches(key: string | Uint8Array, message: string | Uint8Array, expected: Uint8Array): boolean {
  return constantTimeEqual(expected, createHmac("sha256", key).update(message).digest());
}

/**
 * Compares in time independent of where the inputs differ. Unequal lengths return false after a
 * same-length comparison, so the caller never branches on secret bytes.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Standard alphabet, padding removed (the hmac-sha256-v1 wire form). */
export function base64StdNoPadEncode(data: Uint8Array): string {
  return stripPadding(bufferView(data).toString("base64"));
}

/** base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(data: Uint8Array): string {
  return bufferView(data).toString("base64url");
}

// Encoders only read the bytes, so a Buffer view (no copy) serves as well as Buffer.from(data).
function bufferView(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Strict decode of unpadded standard base64; null for anything that is not its canonical form. */
export function base64StdNoPadDecode(text: string): Uint8Array | null {
  const bytes = base64StdNoPadDecodeBuffer(text);
  // A copy: small decodes are slices of Node's shared Buffer pool, whose .buffer would expose
  // unrelated bytes; the caller gets an array that owns exactly its own.
  return bytes === null ? null : new Uint8Array(bytes);
}

/**
 * base64StdNoPadDecode without the final copy, for a caller that only reads the bytes (e.g. a MAC
 * comparison): the result may be a slice of Node's shared Buffer pool, so it must not be handed on.
 */
export function base64StdNoPadDecodeTransient(text: string): Uint8Array | null {
  return base64StdNoPadDecodeBuffer(text);
}

// Sextet value of each standard-alphabet character code, -1 for every other code below 128.
const STD_VALUES: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

// Canonical unpadded standard base64 is decoded with one scan and no re-encoding: every character
// in the alphabet, a length that is not 1 mod 4, and zero trailing bits in the last character
// (Node ignores them, so "QR" would otherwise decode like "QQ"). The same strings are accepted as
// by decode-then-re-encode-and-compare.
function base64StdNoPadDecodeBuffer(text: string): Buffer | null {
  const n = text.length;
  const tail = n % 4;
  if (tail === 1) return null;
  let last = 0;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    last = code < 128 ? (STD_VALUES[code] as number) : -1;
    if (last < 0) return null;
  }
  if ((tail === 2 && (last & 0x0f) !== 0) || (tail === 3 && (last & 0x03) !== 0)) return null;
  return Buffer.from(text, "base64");
}

/** Strict decode of unpadded base64url; null for anything that is not its canonical form. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (!URL_ALPHABET.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, "base64url");
  // Node ignores non-zero trailing bits; re-encoding exposes them (e.g. "QR" vs "QQ").
  return bytes.toString("base64url") === text ? new Uint8Array(bytes) : null;
}

/** Lowercase hex. */
export function hexEncode(data: Uint8Array): string {
  return Buffer.from(data).toString("hex");
}

/** Strict lowercase-hex decode; null for odd length, uppercase or other characters. */
export function hexDecode(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  return new Uint8Array(Buffer.from(text, "hex"));
}
