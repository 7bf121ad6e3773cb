// Hashing, MACs and the byte encodings the protocols put on the wire. Decoders are strict: a
// signature or token with padding, whitespace or stray bits is a different string from the one
// that was signed, so it is refused instead of being normalised into acceptance.

import { createHash, createHmac, timingSafeEqual } from "node:crypto";

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

/** SHA-256 of raw bytes, or of a string's UTF-8 encoding. */
export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(toBytes(data)).digest());
}

/** Lowercase hex SHA-256. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(toBytes(data)).digest("hex");
}

/** HMAC-SHA256; a string key means its UTF-8 bytes (never hex- or base64-decoded). */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", toBytes(key)).update(toBytes(message)).digest());
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

const STD_ALPHABET = /^[A-Za-z0-9+/]*$/;
const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Standard alphabet, padding removed (the hmac-sha256-v1 wire form). */
export function base64StdNoPadEncode(data: Uint8Array): string {
  return Buffer.from(data).toString("base64").replace(/=+$/, "");
}

/** base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(data: Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

/** Strict decode of unpadded standard base64; null for anything that is not its canonical form. */
export function base64StdNoPadDecode(text: string): Uint8Array | null {
  if (!STD_ALPHABET.test(text)) return null;
  return decodeCanonical(text, "base64", base64StdNoPadEncode);
}

/** Strict decode of unpadded base64url; null for anything that is not its canonical form. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (!URL_ALPHABET.test(text)) return null;
  return decodeCanonical(text, "base64url", base64UrlEncode);
}

function decodeCanonical(text: string, encoding: "base64" | "base64url", encode: (data: Uint8Array) => string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const bytes = new Uint8Array(Buffer.from(text, encoding));
  // Node ignores non-zero trailing bits; re-encoding exposes them (e.g. "QR" vs "QQ").
  return encode(bytes) === text ? bytes : null;
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
