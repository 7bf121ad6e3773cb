// SHA-256 and HMAC-SHA256 through node:crypto (OpenSSL), for Node, Deno and Bun: the package's
// "#sha256-backend" import resolves here under the "node" condition (package.json `imports`) and
// to sha256-portable.ts (@noble/hashes) everywhere else, so a browser bundle never sees node:crypto.
// Same bytes as the portable backend for the same input (property-tests/runtime/sha256-backends.test.ts):
// Node encodes a string as UTF-8 with a lone surrogate as U+FFFD, as TextEncoder does.
//
// Speed (a verify hashes twice per message): node's one-shot crypto.hash makes no Hash object, and a
// digest read as a latin1 string skips the Buffer node would allocate for it; together a short hash
// costs about a quarter of createHash().update().digest() (property-tests/bench/verify.ts).
import * as nodeCrypto from "node:crypto";
import { Buffer } from "node:buffer";
import { createHash, createHmac } from "node:crypto";

/** Which implementation this is, for tests and the bench's notes. */
export const SHA256_BACKEND: string = "node:crypto";

/** The digest's text encodings this backend reads: "binary" (node's name for latin1, one character per byte) and padded standard base64. */
export type DigestText = "binary" | "base64";

/** SHA-256 as text through createHash: for runtimes without crypto.hash (Node before 20.12). */
export function sha256TextViaCreateHash(data: string | Uint8Array, encoding: DigestText): string {
  return createHash("sha256").update(data).digest(encoding);
}

type OneShotHash = (algorithm: string, data: string | Uint8Array, outputEncoding: DigestText) => string;
const oneShot = (nodeCrypto as { hash?: OneShotHash }).hash;

/** SHA-256 as text: crypto.hash where the runtime has it, the same bytes through createHash where not. */
export const sha256Text: (data: string | Uint8Array, encoding: DigestText) => string =
  typeof oneShot === "function" ? (data, encoding) => oneShot("sha256", data, encoding) : sha256TextViaCreateHash;

function sha256Latin1(data: string | Uint8Array): string {
  return sha256Text(data, "binary");
}

// A digest read as latin1 (one character per byte) as a plain Uint8Array of exactly those bytes,
// so callers and tests see the same type from both backends.
function latin1Bytes(digest: string): Uint8Array {
  const bytes = new Uint8Array(digest.length);
  for (let i = 0; i < digest.length; i++) bytes[i] = digest.charCodeAt(i);
  return bytes;
}

/** SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Digest(data: string | Uint8Array): Uint8Array {
  return latin1Bytes(sha256Latin1(data));
}

/**
 * base64-std-nopad(SHA-256(data)), the hmac-sha256-v1 digest line's text: node's padded base64 of
 * 32 bytes is 43 characters and one "=".
 */
export function sha256Base64StdNoPadDigest(data: string | Uint8Array): string {
  return sha256Text(data, "base64").slice(0, 43);
}

/** HMAC-SHA256 with a one-off key. */
export function hmacSha256Digest(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return latin1Bytes(createHmac("sha256", key).update(message).digest("binary"));
}

/** A key prepared for many MACs; destroy() makes it unusable. */
export interface PreparedHmacSha256 {
  mac(message: string | Uint8Array): Uint8Array;
  destroy(): void;
}

/** SHA-256's block size: RFC 2104's B, the length of each pad. */
export const HMAC_BLOCK_BYTES = 64;
/**
 * Message bytes a prepared key hashes from its own block buffer in one call; a longer message
 * streams through createHash instead (same bytes). A signing input is a few hundred bytes.
 */
export const HMAC_SCRATCH_BYTES = 2048;

/**
 * RFC 2104 with the pads made once: the key (hashed first when longer than a block) XOR ipad is
 * kept at the start of a block buffer the message is written behind, and XOR opad at the start
 * of a second buffer the inner digest is written behind, so each MAC is two one-shot hashes and
 * no Hash or Hmac object. Both buffers are allocated unpooled (Buffer.alloc), so no other Buffer
 * shares their memory; they derive from the secret, so they live exactly as long as the caller's
 * key object, destroy() overwrites them with zeros, and any later mac() throws. The key's own
 * bytes are overwritten as soon as the pads are made. mac() runs synchronously from write to
 * digest, so one buffer per key is never shared by two calls.
 */
export function prepareHmacSha256(key: string | Uint8Array): PreparedHmacSha256 {
  const keyBytes = Buffer.alloc(typeof key === "string" ? Buffer.byteLength(key, "utf8") : key.length);
  if (typeof key === "string") keyBytes.write(key, 0, "utf8");
  else keyBytes.set(key);
  const block = Buffer.alloc(HMAC_BLOCK_BYTES);
  if (keyBytes.length > HMAC_BLOCK_BYTES) block.write(sha256Latin1(keyBytes), 0, "latin1");
  else block.set(keyBytes);
  keyBytes.fill(0);
  const inner = Buffer.alloc(HMAC_BLOCK_BYTES + HMAC_SCRATCH_BYTES);
  const outer = Buffer.alloc(HMAC_BLOCK_BYTES + 32);
  for (let i = 0; i < HMAC_BLOCK_BYTES; i++) {
    inner[i] = (block[i] as number) ^ 0x36;
    outer[i] = (block[i] as number) ^ 0x5c;
  }
  block.fill(0);
  const innerPad = inner.subarray(0, HMAC_BLOCK_BYTES);
  let destroyed = false;

  // SHA-256(key XOR ipad || message), as latin1.
  function innerDigest(message: string | Uint8Array): string {
    if (typeof message === "string") {
      // At most 3 UTF-8 bytes per UTF-16 unit: only a string that may not fit is measured.
      if (message.length * 3 <= HMAC_SCRATCH_BYTES || Buffer.byteLength(message, "utf8") <= HMAC_SCRATCH_BYTES) {
        return sha256Latin1(inner.subarray(0, HMAC_BLOCK_BYTES + inner.write(message, HMAC_BLOCK_BYTES, "utf8")));
      }
    } else if (message.length <= HMAC_SCRATCH_BYTES) {
      inner.set(message, HMAC_BLOCK_BYTES);
      return sha256Latin1(inner.subarray(0, HMAC_BLOCK_BYTES + message.length));
    }
    return createHash("sha256").update(innerPad).update(message).digest("binary");
  }

  return {
    mac(message: string | Uint8Array): Uint8Array {
      if (destroyed) throw new Error("this HmacSha256Key was destroyed");
      outer.write(innerDigest(message), HMAC_BLOCK_BYTES, "latin1");
      return latin1Bytes(sha256Latin1(outer));
    },
    destroy(): void {
      destroyed = true;
      inner.fill(0);
      outer.fill(0);
    },
  };
}
