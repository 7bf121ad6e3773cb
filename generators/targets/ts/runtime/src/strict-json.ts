// A strict JSON parser for untrusted bytes. JSON.parse accepts duplicate keys (last wins), lone
// surrogates and integers it silently rounds; two parties reading the same bytes then see
// different values, which breaks any signature or hash taken over them. This parser refuses all
// of those, is iterative (deep nesting cannot overflow the call stack) and runs in linear time.

import { type JsonArray, type JsonObject, type JsonValue, setMember } from "./json-value.js";
import { duplicateKeyMessage } from "./text-position.js";
import { checkedParse, FAST_PATH_MAX_DEPTH } from "./strict-json-check.js";
import { utf8ByteLength } from "./crypto.js";

export type StrictJsonErrorCode =
  | "too-large"
  | "invalid-utf8"
  | "bom"
  | "lone-surrogate"
  | "unexpected-end"
  | "unexpected-character"
  | "non-json-literal"
  | "invalid-number"
  | "number-out-of-range"
  | "number-not-exact"
  | "invalid-string"
  | "duplicate-key"
  | "too-deep"
  | "trailing-data";

export interface StrictJsonError {
  code: StrictJsonErrorCode;
  /** Byte offset for byte input; UTF-16 code unit offset for string input. */
  offset: number;
  message: string;
}

export type StrictJsonResult =
  | { ok: true; value: JsonValue }
  | { ok: false; error: StrictJsonError };

export interface StrictJsonLimits {
  /** Largest accepted input, in UTF-8 bytes. */
  maxBytes?: number;
  /** Deepest accepted nesting of arrays and objects (a scalar at top level has depth 0). */
  maxDepth?: number;
}

export const DEFAULT_MAX_JSON_BYTES: number = 4 * 1024 * 1024;
export const DEFAULT_MAX_JSON_DEPTH: number = 64;

const MAX_EXACT_INTEGER = 9007199254740992n; // 2^53

class ParseFailure {
  constructor(
    readonly code: StrictJsonErrorCode,
    readonly index: number,
    readonly message: string,
  ) {}
}

type Frame =
  | { kind: "array"; value: JsonArray }
  | { kind: "object"; value: JsonObject; key: string | null };

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses untrusted JSON text or UTF-8 bytes; never throws for bad input. */
export function parseStrictJson(input: string | Uint8Array, limits: StrictJsonLimits = {}): StrictJsonResult {
  return parse(input, limits, true);
}

/**
 * The same verdicts without the fast path: every character read by the stepwise parser. Every
 * error parseStrictJson reports comes from it; tests hold the two to the same results.
 */
export function parseStrictJsonStepwise(input: string | Uint8Array, limits: StrictJsonLimits = {}): StrictJsonResult {
  return parse(input, limits, false);
}

function parse(input: string | Uint8Array, limits: StrictJsonLimits, fast: boolean): StrictJsonResult {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_JSON_BYTES;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  let text: string;
  if (typeof input === "string") {
    // Checked before anything else so an oversized input costs no more than one length scan.
    if (input.length > maxBytes || utf8ByteLength(input) > maxBytes) {
      return failure("too-large", 0, `input is larger than ${maxBytes} bytes`);
    }
    text = input;
    if (!isWellFormed(text)) return failure("lone-surrogate", findLoneSurrogate(text), "raw lone surrogate in input");
  } else {
    if (input.length > maxBytes) return failure("too-large", 0, `input is larger than ${maxBytes} bytes`);
    try {
      text = utf8Decoder.decode(input);
    } catch {
      return failure("invalid-utf8", firstInvalidUtf8Offset(input), "input is not valid UTF-8");
    }
  }
  if (text.charCodeAt(0) === 0xfeff) return failure("bom", 0, "input starts with a byte order mark");
  if (fast && maxDepth <= FAST_PATH_MAX_DEPTH) {
    // JSON.parse refuses exactly what is not JSON; what it lets through is checked after it.
    let native: unknown;
    let parsed = true;
    try {
      native = JSON.parse(text);
    } catch {
      parsed = false; // the stepwise parser below says what is wrong, and where
    }
    if (parsed) {
      const value = checkedParse(text, native, maxDepth);
      if (value !== undefined) return { ok: true, value: value as JsonValue };
    }
  }
  try {
    const value = new Parser(text, maxDepth).parseDocument();
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    const offset = typeof input === "string" ? error.index : utf8ByteLength(text.slice(0, error.index));
    return failure(error.code, offset, error.message);
  }
}

function failure(code: StrictJsonErrorCode, offset: number, message: string): StrictJsonResult {
  return { ok: false, error: { code, offset, message: `${message} (at offset ${offset})` } };
}

// String.prototype.isWellFormed (Node 20) finds lone surrogates natively; the loop is the fallback.
const nativeWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;
function isWellFormed(text: string): boolean {
  return nativeWellFormed !== undefined ? nativeWellFormed.call(text) : findLoneSurrogate(text) < 0;
}

/** Index of the first unpaired UTF-16 surrogate, or -1. */
export function findLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  // TextDecoder does not say where decoding failed, so walk the sequences by hand (RFC 3629:
  // no overlong forms, no surrogates, nothing above U+10FFFF); this only runs on the error path.
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

class Parser {
  private index = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): JsonValue {
    const stack: Frame[] = [];
    let result: JsonValue | undefined;
    let haveResult = false;
    // Each turn either opens a container (pushed on `stack`) or produces a complete value, which
    // is attached to the innermost open container or becomes the document.
    for (;;) {
      this.skipWhitespace();
      let value: JsonValue;
      let complete = true;
      const top = stack[stack.length - 1];
      if (top?.kind === "object" && top.key === null) {
        top.key = this.readMemberName(top);
        continue;
      }
      const ch = this.text.charCodeAt(this.index);
      if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
        if (stack.length >= this.maxDepth) throw new ParseFailure("too-deep", this.index, `nesting deeper than ${this.maxDepth}`);
        this.index++;
        this.skipWhitespace();
        const closer = ch === 0x7b ? 0x7d : 0x5d;
        if (this.text.charCodeAt(this.index) === closer) {
          this.index++;
          value = ch === 0x7b ? {} : [];
        } else {
          stack.push(ch === 0x7b ? { kind: "object", value: {}, key: null } : { kind: "array", value: [] });
          complete = false;
          value = null;
        }
      } else {
        value = this.readScalar();
      }
      if (!complete) continue;
      // Attach the finished value, then close every container that ends here.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          result = value;
          haveResult = true;
          break;
        }
        if (frame.kind === "array") frame.value.push(value);
        else {
          setMember(frame.value, frame.key as string, value);
          frame.key = null;
        }
        this.skipWhitespace();
        const next = this.text.charCodeAt(this.index);
        if (next === 0x2c /* , */) {
          this.index++;
          this.skipWhitespace();
          const after = this.text.charCodeAt(this.index);
          if (after === 0x5d || after === 0x7d) throw new ParseFailure("unexpected-character", this.index, "trailing comma");
          break;
        }
        const closer = frame.kind === "array" ? 0x5d : 0x7d;
        if (next === closer) {
          this.index++;
          stack.pop();
          value = frame.value;
          continue;
        }
        if (Number.isNaN(next)) throw new ParseFailure("unexpected-end", this.index, "input ends inside a container");
        throw new ParseFailure("unexpected-character", this.index, `expected ',' or '${frame.kind === "array" ? "]" : "}"}'`);
      }
      if (haveResult) break;
    }
    this.skipWhitespace();
    if (this.index < this.text.length) throw new ParseFailure("trailing-data", this.index, "data after the JSON value");
    return result as JsonValue;
  }

  private readMemberName(frame: { value: JsonObject }): string {
    const start = this.index;
    if (this.text.charCodeAt(this.index) !== 0x22) {
      if (this.index >= this.text.length) throw new ParseFailure("unexpected-end", this.index, "input ends inside an object");
      throw new ParseFailure("unexpected-character", this.index, "expected a member name");
    }
    const key = this.readString();
    if (Object.prototype.hasOwnProperty.call(frame.value, key)) {
      throw new ParseFailure("duplicate-key", start, duplicateKeyMessage(key));
    }
    this.skipWhitespace();
    if (this.text.charCodeAt(this.index) !== 0x3a /* : */) {
      if (this.index >= this.text.length) throw new ParseFailure("unexpected-end", this.index, "input ends inside an object");
      throw new ParseFailure("unexpected-character", this.index, "expected ':'");
    }
    this.index++;
    return key;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.index;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.index = i;
  }

  private readScalar(): JsonValue {
    const c = this.text.charCodeAt(this.index);
    if (c === 0x22) return this.readString();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.readNumber();
    if (this.text.startsWith("true", this.index)) {
      this.index += 4;
      return true;
    }
    if (this.text.startsWith("false", this.index)) {
      this.index += 5;
      return false;
    }
    if (this.text.startsWith("null", this.index)) {
      this.index += 4;
      return null;
    }
    if (Number.isNaN(c)) throw new ParseFailure("unexpected-end", this.index, "expected a value");
    if (/^(?:NaN|[+-]?Infinity|undefined|'|\+)/.test(this.text.slice(this.index, this.index + 9))) {
      throw new ParseFailure("non-json-literal", this.index, "not a JSON value (NaN, Infinity, quotes or sign)");
    }
    throw new ParseFailure("unexpected-character", this.index, "expected a value");
  }

  private readNumber(): number {
    const start = this.index;
    const match = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    match.lastIndex = start;
    const found = match.exec(this.text);
    if (found === null && /^-(?:Infinity|NaN)/.test(this.text.slice(start, start + 9))) {
      throw new ParseFailure("non-json-literal", start, "not a JSON value (NaN, Infinity, quotes or sign)");
    }
    if (found === null) throw new ParseFailure("invalid-number", start, "malformed number");
    const literal = found[0];
    const end = start + literal.length;
    const following = this.text.charCodeAt(end);
    // "01", "1.", "1e" and "-" leave a digit, '.', or 'e' behind the longest valid prefix.
    if ((following >= 0x30 && following <= 0x39) || following === 0x2e || following === 0x65 || following === 0x45) {
      throw new ParseFailure("invalid-number", start, "malformed number");
    }
    const value = Number(literal);
    if (!Number.isFinite(value)) throw new ParseFailure("number-out-of-range", start, "number overflows a double");
    // I-JSON (RFC 7493): an integer written without fraction or exponent must survive the round
    // trip through a double, or two readers may see different values.
    if (found[1] === undefined && found[2] === undefined && literal.length > 15) {
      const exact = BigInt(literal);
      const magnitude = exact < 0n ? -exact : exact;
      if (magnitude > MAX_EXACT_INTEGER && BigInt(value) !== exact) {
        throw new ParseFailure("number-not-exact", start, "integer is not exactly representable as a double");
      }
    }
    this.index = end;
    return value === 0 ? 0 : value; // -0 is 0 in JSON's data model and in RFC 8785.
  }

  private readString(): string {
    const text = this.text;
    const start = this.index;
    let i = start + 1;
    let out = "";
    let runStart = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) throw new ParseFailure("unexpected-end", i, "input ends inside a string");
      if (c === 0x22) {
        out += text.slice(runStart, i);
        this.index = i + 1;
        return out;
      }
      if (c < 0x20) throw new ParseFailure("invalid-string", i, "unescaped control character in string");
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(runStart, i);
      const e = text.charCodeAt(i + 1);
      switch (e) {
        case 0x22: out += '"'; i += 2; break;
        case 0x5c: out += "\\"; i += 2; break;
        case 0x2f: out += "/"; i += 2; break;
        case 0x62: out += "\b"; i += 2; break;
        case 0x66: out += "\f"; i += 2; break;
        case 0x6e: out += "\n"; i += 2; break;
        case 0x72: out += "\r"; i += 2; break;
        case 0x74: out += "\t"; i += 2; break;
        case 0x75: {
          const unit = this.readHex4(i + 2);
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const low = text.charCodeAt(i + 6) === 0x5c && text.charCodeAt(i + 7) === 0x75 ? this.readHex4(i + 8) : -1;
            if (low < 0xdc00 || low > 0xdfff) throw new ParseFailure("lone-surrogate", i, "escaped high surrogate without a low surrogate");
            out += String.fromCharCode(unit, low);
            i += 12;
          } else if (unit >= 0xdc00 && unit <= 0xdfff) {
            throw new ParseFailure("lone-surrogate", i, "escaped low surrogate without a high surrogate");
          } else {
            out += String.fromCharCode(unit);
            i += 6;
          }
          break;
        }
        default:
          if (Number.isNaN(e)) throw new ParseFailure("unexpected-end", i, "input ends inside a string");
          throw new ParseFailure("invalid-string", i, "invalid escape sequence");
      }
      runStart = i;
    }
  }

  private readHex4(at: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) {
      // Only a well-formed prefix cut off by the end of input is "unexpected end".
      if (at + 4 > this.text.length && /^[0-9a-fA-F]*$/.test(digits)) throw new ParseFailure("unexpected-end", at, "input ends inside a \\u escape");
      throw new ParseFailure("invalid-string", at, "invalid \\u escape");
    }
    return parseInt(digits, 16);
  }
}
