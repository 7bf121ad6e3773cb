// A spec file written as JSON (the lifecycle paths suites, vectors, JSON schemas: more than half of
// the spec's bytes) read without the YAML library, which spent about 0.7 s of a cold `generate` on
// them. Only plain, valid JSON takes this path: anything else (a syntax error, a duplicate key,
// nesting near the depth limit, a number the number-exact lint or the YAML core schema would treat
// differently, a carriage return, a byte order mark, a "__proto__" member) returns undefined and
// the file is read through YAML as before, so every error is still reported by that one path. For
// what it does read, the value and the position of every JSON pointer are the ones the YAML path
// gives (property-tests/load/spec-json.test.ts compares both on every JSON file of spec/ and on
// hand-written edge cases): an object member at its key, an array item and the root at its value.
import type { JsonValue } from "../model/types.js";
import { numberNotShared } from "../emit/number-literal.js";

export interface FastJson {
  value: JsonValue;
  /** Start offset (UTF-16 index) of each JSON pointer's node, as spec-file.ts's `offsets`. */
  offsets: Map<string, number>;
}

/** Thrown inside the scanner when the text must go the YAML way instead; never escapes this module. */
class NotPlain {}
const NOT_PLAIN = new NotPlain();

/** `text` as plain JSON with the positions of its pointers, or undefined: read it through YAML. */
export function readPlainJson(text: string, maxDepth: number): FastJson | undefined {
  if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) return undefined;
  const scanner = new Scanner(text, maxDepth);
  try {
    scanner.skipSpace();
    const value = scanner.value("", 0);
    scanner.skipSpace();
    if (scanner.at !== text.length) return undefined;
    return { value, offsets: scanner.offsets };
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
}

const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const SIMPLE_STRING = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Scanner {
  at = 0;
  readonly offsets = new Map<string, number>();

  constructor(
    private readonly text: string,
    // Two below the YAML path's limit: nesting anywhere near it is left to that path, which reports it.
    private readonly maxDepth: number,
  ) {}

  skipSpace(): void {
    const t = this.text;
    let c = t.charCodeAt(this.at);
    while (c === 0x20 || c === 0x0a || c === 0x09) c = t.charCodeAt(++this.at);
  }

  value(pointer: string, depth: number): JsonValue {
    this.offsets.set(pointer, this.at);
    const c = this.text[this.at];
    if (c === "{") return this.object(pointer, depth + 1);
    if (c === "[") return this.array(pointer, depth + 1);
    if (c === '"') return this.string();
    if (this.text.startsWith("true", this.at)) return this.word(4, true);
    if (this.text.startsWith("false", this.at)) return this.word(5, false);
    if (this.text.startsWith("null", this.at)) return this.word(4, null);
    return this.number();
  }

  private word<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  private object(pointer: string, depth: number): JsonValue {
    if (depth >= this.maxDepth - 2) throw NOT_PLAIN;
    this.at++;
    const out: { [key: string]: JsonValue } = {};
    const seen = new Set<string>();
    this.skipSpace();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      if (this.text[this.at] !== '"') throw NOT_PLAIN;
      const keyAt = this.at;
      const key = this.string();
      // YAML refuses an implicit key over 1024 characters or its colon on another line.
      if (seen.has(key) || key === "__proto__" || this.at - keyAt > 1000) throw NOT_PLAIN;
      seen.add(key);
      const keyEnd = this.at;
      this.skipSpace();
      if (this.text[this.at] !== ":" || this.text.slice(keyEnd, this.at).includes("\n")) throw NOT_PLAIN;
      this.at++;
      this.skipSpace();
      const child = `${pointer}/${escapeToken(key)}`;
      out[key] = this.value(child, depth);
      // The YAML path records a member at its key, after its value's own position.
      this.offsets.set(child, keyAt);
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === "}") return out;
      if (next !== ",") throw NOT_PLAIN;
      this.skipSpace();
    }
  }

  private array(pointer: string, depth: number): JsonValue {
    if (depth >= this.maxDepth - 2) throw NOT_PLAIN;
    this.at++;
    const out: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${pointer}/${out.length}`, depth));
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === "]") return out;
      if (next !== ",") throw NOT_PLAIN;
      this.skipSpace();
    }
  }

  private string(): string {
    const t = this.text;
    this.at++;
    let out = "";
    for (;;) {
      SIMPLE_STRING.lastIndex = this.at;
      SIMPLE_STRING.test(t);
      out += t.slice(this.at, SIMPLE_STRING.lastIndex);
      this.at = SIMPLE_STRING.lastIndex;
      const c = t[this.at];
      if (c === '"') {
        this.at++;
        return out;
      }
      if (c !== "\\") throw NOT_PLAIN; // a control character or the end of the text
      const e = t[this.at + 1];
      if (e === "u") {
        const hex = t.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw NOT_PLAIN;
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
      } else {
        const plain = e === undefined ? undefined : ESCAPES[e];
        if (plain === undefined) throw NOT_PLAIN;
        out += plain;
        this.at += 2;
      }
    }
  }

  private number(): number {
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(this.text);
    if (m === null) throw NOT_PLAIN;
    const literal = m[0];
    const value = Number(literal);
    // Negative zero, and anything the number-exact lint refuses or whose integer literal is not
    // exactly its double: the YAML path decides and reports those.
    if (!Number.isFinite(value) || Object.is(value, -0) || value === 0 && literal.startsWith("-")) throw NOT_PLAIN;
    if (/^-?\d+$/.test(literal) && BigInt(literal) !== BigInt(value)) throw NOT_PLAIN;
    if (numberNotShared(value) !== undefined) throw NOT_PLAIN;
    this.at += literal.length;
    return value;
  }
}
