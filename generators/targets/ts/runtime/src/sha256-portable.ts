// SHA-256 and HMAC-SHA256 in plain JavaScript (@noble/hashes: audited, synchronous, no
// dependencies), for every JavaScript runtime that is not Node: browsers, workers, React Native,
// edge runtimes. crypto.ts reaches this module through the package's "#sha256-backend" import
// (package.json `imports`: "node" → sha256-node.js, "default" → this file); both give the same
// bytes for the same input (property-tests/runtime/sha256-backends.test.ts).
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64StdNoPadEncode } from "./base64.js";

// Pure annotation: a bundle that never hashes drops the encoder.
const UTF8 = /* @__PURE__ */ new TextEncoder();

/** A string's UTF-8 bytes (a lone surrogate becomes U+FFFD); bytes as they are. */
function asBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? UTF8.encode(data) : data;
}

/** Which implementation this is, for tests and the bench's notes. */
export const SHA256_BACKEND: string = "@noble/hashes";

/** SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Digest(data: string | Uint8Array): Uint8Array {
  return sha256(asBytes(data));
}

/** base64-std-nopad(SHA-256(data)): the hmac-sha256-v1 digest line's text. */
export function sha256Base64StdNoPadDigest(data: string | Uint8Array): string {
  return base64StdNoPadEncode(sha256Digest(data));
}

/** HMAC-SHA256 with a one-off key. */
export function hmacSha256Digest(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return hmac(sha256, asBytes(key), asBytes(message));
}

/** A key prepared for many MACs; destroy() makes it unusable. */
export interface PreparedHmacSha256 {
  mac(message: string | Uint8Array): Uint8Array;
  destroy(): void;
}

/**
 * The key block XOR ipad and XOR opad absorbed into two SHA-256 states once (RFC 2104), so each
 * MAC starts from a copy of them; destroy() overwrites both states.
 */
export function prepareHmacSha256(key: string | Uint8Array): PreparedHmacSha256 {
  // The keyed state is never updated with a message: every MAC copies it into scratch first.
  const keyed = hmac.create(sha256, asBytes(key));
  const scratch = keyed.clone();
  return {
    mac(message: string | Uint8Array): Uint8Array {
      // Synchronous from copy to digest, so one scratch state per key is never shared by two calls.
      const state = keyed._cloneInto(scratch);
      state.update(asBytes(message));
      return state.digest();
    },
    destroy(): void {
      keyed.destroy();
      scratch.destroy();
    },
  };
}
