// SHA-256 and HMAC-SHA256 through node:crypto (OpenSSL), for Node, Deno and Bun: the package's
// "#sha256-backend" import resolves here under the "node" condition (package.json `imports`) and
// to sha256-portable.ts (@noble/hashes) everywhere else, so a browser bundle never sees node:crypto.
// Same bytes as the portable backend for the same input (property-tests/runtime/sha256-backends.test.ts):
// Node encodes a string as UTF-8 with a lone surrogate as U+FFFD, as TextEncoder does.
import { createHash, createHmac, createSecretKey, type KeyObject } from "node:crypto";

/** Which implementation this is, for tests and the bench's notes. */
export const SHA256_BACKEND: string = "node:crypto";

// A Buffer's bytes as a plain Uint8Array of exactly those bytes (a copy: 32 bytes), so callers
// and tests see the same type from both backends.
function plain(digest: Uint8Array): Uint8Array {
  return new Uint8Array(digest);
}

/** SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Digest(data: string | Uint8Array): Uint8Array {
  return plain(createHash("sha256").update(data).digest());
}

/** HMAC-SHA256 with a one-off key. */
export function hmacSha256Digest(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return plain(createHmac("sha256", key).update(message).digest());
}

/** A key prepared for many MACs; destroy() makes it unusable. */
export interface PreparedHmacSha256 {
  mac(message: string | Uint8Array): Uint8Array;
  destroy(): void;
}

/**
 * The secret copied once into a KeyObject (OpenSSL memory, not a JavaScript string or array the
 * caller might share), which each MAC keys from; destroy() drops it, so it is freed with the
 * object and any later mac() throws.
 */
export function prepareHmacSha256(key: string | Uint8Array): PreparedHmacSha256 {
  // Buffer.from: a string's UTF-8 bytes, or a copy of the caller's bytes.
  let secret: KeyObject | undefined = createSecretKey(Buffer.from(key as never));
  return {
    mac(message: string | Uint8Array): Uint8Array {
      if (secret === undefined) throw new Error("this HmacSha256Key was destroyed");
      return plain(createHmac("sha256", secret).update(message).digest());
    },
    destroy(): void {
      secret = undefined;
    },
  };
}
