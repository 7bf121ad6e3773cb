// Hashing, MACs and the byte encodings the protocols put on the wire. Everything here is plain
// JavaScript that every runtime (browsers, workers, React Native, Deno, Bun, Node) runs alike, except
// SHA-256 and HMAC themselves, which come from "#sha256-backend" (package.json `imports`): node:crypto
// under the "node" condition (sha256-node.ts), @noble/hashes everywhere else (sha256-portable.ts), the
// same bytes from both. No Node built-in is imported on a browser's path that validates, signs or verifies.
//
// Base64 lives in base64.ts (re-exported here), which both backends share.

import { hmacSha256Digest, type PreparedHmacSha256, prepareHmacSha256, sha256Base64StdNoPadDigest, sha256Digest } from "#sha256-backend";
import { base64StdNoPadEncode } from "./base64.js";

export { base64StdNoPadDecode, base64StdNoPadDecodeTransient, base64StdNoPadEncode, base64UrlDecode, base64UrlEncode } from "./base64.js";

/** SHA-256 of raw bytes, or of a string's UTF-8 encoding (a lone surrogate as U+FFFD). */
export function sha256(data: string | Uint8Array): Uint8Array {
  return sha256Digest(data);
}

/** Lowercase hex SHA-256. */
export function sha256Hex(data: string | Uint8Array): string {
  return hexEncode(sha256(data));
}

/** base64-std-nopad(SHA-256(data)), a string hashed as its UTF-8 bytes: the hmac-sha256-v1 `*_sha256` line value. */
export function sha256Base64StdNoPad(data: string | Uint8Array): string {
  return sha256Base64StdNoPadDigest(data);
}

/** HMAC-SHA256; a string key means its UTF-8 bytes (never hex- or base64-decoded). */
export function hmacSha256(key: string | Uint8Array | HmacSha256Key, message: string | Uint8Array): Uint8Array {
  if (isHmacSha256Key(key)) return key.mac(message);
  if (typeof key !== "string" && !(key instanceof Uint8Array)) throw new TypeError("an HMAC-SHA256 key is a string, a Uint8Array or an HmacSha256Key");
  return hmacSha256Digest(key, message);
}

/** base64-std-nopad(HMAC-SHA256(key, message)), string key and message as UTF-8: the hmac-sha256-v1 signature. */
export function hmacSha256Base64StdNoPad(key: string | Uint8Array | HmacSha256Key, message: string | Uint8Array): string {
  return base64StdNoPadEncode(hmacSha256(key, message));
}

// The mark of a prepared key, shared by every copy of this runtime in one JavaScript realm
// (Symbol.for): an application that ends up with two copies of the package (two versions, or a
// bundle beside node_modules) passes keys between them, and `instanceof` would refuse a key the
// other copy made. The version in the name changes if a prepared key's members ever do.
const PREPARED_KEY_BRAND: symbol = Symbol.for("agent-contracts.HmacSha256Key.v1");

/**
 * Whether `key` is an HmacSha256Key made by this or any other copy of this runtime. Reads only
 * the brand's own data property (no getter or inherited member runs), so any value is safe to ask about.
 */
export function isHmacSha256Key(key: unknown): key is HmacSha256Key {
  if (typeof key !== "object" || key === null) return false;
  const brand = Object.getOwnPropertyDescriptor(key, PREPARED_KEY_BRAND);
  return brand !== undefined && brand.value === true;
}

/**
 * An HMAC-SHA256 key prepared once: with @noble/hashes, the key block XOR ipad and XOR opad are
 * absorbed into two SHA-256 states when it is made, so each MAC skips the two pad compressions a
 * fresh HMAC spends; with node:crypto, the secret is held as a KeyObject. Either derives from the
 * secret, so the object is as sensitive as the secret: it lives exactly as long as the caller
 * keeps it (no module holds one) and destroy() makes it unusable for good. Recognised by its brand
 * (isHmacSha256Key), not by `instanceof`, so a key from another copy of the runtime works here.
 */
export class HmacSha256Key {
  readonly #prepared: PreparedHmacSha256;
  /** Whether the secret was empty (zero bytes); hmac-sha256-v1 refuses to sign or verify with it. */
  readonly empty: boolean;

  constructor(secret: string | Uint8Array) {
    if (typeof secret !== "string" && !(secret instanceof Uint8Array)) throw new TypeError("an HMAC-SHA256 secret is a string or a Uint8Array");
    this.empty = secret.length === 0;
    this.#prepared = prepareHmacSha256(secret);
    Object.defineProperty(this, PREPARED_KEY_BRAND, { value: true });
  }

  /** HMAC-SHA256(secret, message); a string message means its UTF-8 bytes. */
  mac(message: string | Uint8Array): Uint8Array {
    return this.#prepared.mac(message);
  }

  /** Overwrites or drops the keyed state; any later mac() throws. */
  destroy(): void {
    this.#prepared.destroy();
  }
}

/**
 * Whether `expected` is HMAC-SHA256(key, message), compared in constant time (a length mismatch
 * still runs a same-length comparison and returns false).
 */
export function hmacSha256Matches(key: string | Uint8Array | HmacSha256Key, message: string | Uint8Array, expected: Uint8Array): boolean {
  return constantTimeEqual(expected, hmacSha256(key, message));
}

/**
 * Compares in time independent of where the inputs differ: every byte of both is read and the
 * differences are OR-ed together, with no early exit. Unequal lengths return false after a
 * same-length comparison of `a` with itself, so the caller never branches on secret bytes.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const other = a.length === b.length ? b : a;
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (other[i] as number);
  return difference === 0;
}

/** The number of bytes of a string's UTF-8 encoding (a lone surrogate counts as U+FFFD's 3), without encoding it. */
export function utf8ByteLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

/**
 * A random (version 4) UUID from the runtime's `crypto.getRandomValues`, which browsers, workers,
 * Deno, Bun, React Native (with its polyfill) and Node all offer, unlike `randomUUID` (secure
 * contexts only in browsers).
 */
export function randomUuid(): string {
  const source = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (typeof source?.getRandomValues !== "function") throw new Error("this JavaScript runtime has no crypto.getRandomValues: pass the nonce explicitly");
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = hexEncode(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const HEX_DIGITS = "0123456789abcdef";

/** Lowercase hex. */
export function hexEncode(data: Uint8Array): string {
  let out = "";
  for (let i = 0; i < data.length; i++) {
    const byte = data[i] as number;
    out += HEX_DIGITS[byte >>> 4]! + HEX_DIGITS[byte & 15]!;
  }
  return out;
}

/** Strict lowercase-hex decode; null for odd length, uppercase or other characters. */
export function hexDecode(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = HEX_DIGITS.indexOf(text[2 * i]!) * 16 + HEX_DIGITS.indexOf(text[2 * i + 1]!);
  return out;
}
