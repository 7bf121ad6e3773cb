// Strict base64 in the two alphabets the protocols use, standard (hmac-sha256-v1 signatures and
// digests) and base64url (approval tokens), both unpadded. Plain JavaScript for every runtime; its
// own module so that both SHA-256 backends and crypto.ts (which re-exports it) share one encoder.
//
// Decoders are strict: a signature or token with padding, whitespace or stray bits is a different
// string from the one that was signed, so it is refused instead of being normalised into acceptance.

const STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Each alphabet's character codes, indexed by sextet value.
function alphabetCodes(alphabet: string): Uint8Array {
  return Uint8Array.from(alphabet, (character) => character.charCodeAt(0));
}
const STD_CODES: Uint8Array = /* @__PURE__ */ alphabetCodes(STD_ALPHABET);
const URL_CODES: Uint8Array = /* @__PURE__ */ alphabetCodes(URL_ALPHABET);

// Characters turned into a string by one String.fromCharCode call: bounds apply()'s argument count.
const CHARACTERS_PER_CALL = 8192;

// Unpadded base64 of `data` in the given alphabet (its character codes): three bytes to four
// characters, a last group of one or two bytes to two or three characters (zero bits fill the
// last one). The codes are collected in a plain array (apply() over a typed array is several
// times slower) first and made into a string a chunk at a time, not appended
// group by group: half the time for a 32-byte digest, which every sign and verify encodes.
function base64Encode(data: Uint8Array, codes: Uint8Array): string {
  const out: number[] = new Array<number>(Math.ceil((data.length * 4) / 3));
  let o = 0;
  let i = 0;
  for (; i + 2 < data.length; i += 3) {
    const group = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
    out[o++] = codes[group >>> 18] as number;
    out[o++] = codes[(group >>> 12) & 63] as number;
    out[o++] = codes[(group >>> 6) & 63] as number;
    out[o++] = codes[group & 63] as number;
  }
  const rest = data.length - i;
  if (rest > 0) {
    const group = ((data[i] as number) << 16) | (rest === 2 ? (data[i + 1] as number) << 8 : 0);
    out[o++] = codes[group >>> 18] as number;
    out[o++] = codes[(group >>> 12) & 63] as number;
    if (rest === 2) out[o++] = codes[(group >>> 6) & 63] as number;
  }
  if (out.length <= CHARACTERS_PER_CALL) return String.fromCharCode.apply(null, out);
  let text = "";
  for (let start = 0; start < out.length; start += CHARACTERS_PER_CALL) {
    text += String.fromCharCode.apply(null, out.slice(start, start + CHARACTERS_PER_CALL));
  }
  return text;
}

/** Standard alphabet, padding removed (the hmac-sha256-v1 wire form). */
export function base64StdNoPadEncode(data: Uint8Array): string {
  return base64Encode(data, STD_CODES);
}

/** base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(data: Uint8Array): string {
  return base64Encode(data, URL_CODES);
}

// Sextet value of each alphabet character code, -1 for every other code below 128.
function sextetTable(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const STD_VALUES: Int8Array = /* @__PURE__ */ sextetTable(STD_ALPHABET);
const URL_VALUES: Int8Array = /* @__PURE__ */ sextetTable(URL_ALPHABET);

// Canonical unpadded base64 is decoded with one scan: every character in the alphabet, a length
// that is not 1 mod 4, and zero bits left over after the last whole byte (otherwise "QR" would
// decode like "QQ", and two strings would carry one signature).
function base64Decode(text: string, values: Int8Array): Uint8Array | null {
  const n = text.length;
  if (n % 4 === 1) return null;
  const out = new Uint8Array((n * 3) >>> 2);
  let pending = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    const sextet = code < 128 ? (values[code] as number) : -1;
    if (sextet < 0) return null;
    pending = (pending << 6) | sextet;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = pending >>> bits;
      pending &= (1 << bits) - 1;
    }
  }
  return pending === 0 ? out : null;
}

/** Strict decode of unpadded standard base64; null for anything that is not its canonical form. */
export function base64StdNoPadDecode(text: string): Uint8Array | null {
  return base64Decode(text, STD_VALUES);
}

/**
 * The same as base64StdNoPadDecode (kept for callers that only read the bytes, e.g. a MAC
 * comparison): every decode now returns an array that owns exactly its own bytes.
 */
export function base64StdNoPadDecodeTransient(text: string): Uint8Array | null {
  return base64Decode(text, STD_VALUES);
}

/** Strict decode of unpadded base64url; null for anything that is not its canonical form. */
export function base64UrlDecode(text: string): Uint8Array | null {
  return base64Decode(text, URL_VALUES);
}
