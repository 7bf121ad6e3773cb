// The YAML spec files (protocol files, message schemas, lifecycles, conformance suites) read
// without the YAML library when they keep to the plain block style this project and `init` write:
// block mappings and sequences, one-line plain and quoted scalars, flow collections (over several
// lines when those are indented beyond their block), literal and folded block scalars. The
// library spent about 0.3 s of a cold `generate` on them. Anything else (an anchor, alias or tag,
// a multi-line plain or quoted scalar, a duplicate key, a key that is not a string, a number the
// YAML core schema reads in a form this scanner does not, an escape it does not know, indentation
// it does not expect, nesting near the depth limit) returns undefined and the text goes through
// the library as before, which reports every error. For what it does read, the value and every
// JSON pointer's position are the ones the library path gives (spec-yaml.test.ts compares both on
// every YAML file of spec/ and examples/, on hand-written edge cases and on documents the library
// writes).
import type { JsonValue } from "../model/types.js";
import { numberNotShared } from "../emit/number-literal.js";
import type { FastJson } from "./spec-json.js";

class NotPlain {}
const NOT_PLAIN = new NotPlain();

/** `text` as plain block YAML with the positions of its pointers, or undefined: read it through the YAML library. */
export function readPlainYaml(text: string, maxDepth: number): FastJson | undefined {
  if (/[\r\t\ufeff]/.test(text)) return undefined;
  const scanner = new BlockScanner(text, maxDepth);
  try {
    const indent = scanner.nextContentLine();
    if (indent < 0 || indent > 0 || /^(?:---|\.\.\.|%)/.test(text.slice(scanner.at, scanner.at + 3))) return undefined;
    const value = scanner.blockNode("", 0, -1);
    return scanner.nextContentLine() < 0 ? { value, offsets: scanner.offsets } : undefined;
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
}

const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

// The YAML 1.2 core schema's tags for a plain scalar (yaml/dist/schema/core, common/null.js).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_TRUE = /^(?:[Tt]rue|TRUE)$/;
const CORE_FALSE = /^(?:[Ff]alse|FALSE)$/;
const CORE_NUMBER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
// The numbers this scanner reads itself: JSON's integers and decimals, without an exponent.
const SIMPLE_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** A one-line plain scalar as the core schema reads it; NOT_PLAIN for any number but SIMPLE_NUMBER. */
function plainScalar(source: string): JsonValue {
  if (CORE_NULL.test(source)) return null;
  if (CORE_TRUE.test(source)) return true;
  if (CORE_FALSE.test(source)) return false;
  if (!CORE_NUMBER.test(source)) return source;
  if (!SIMPLE_NUMBER.test(source) || /^-0(?:\.0*)?$/.test(source)) throw NOT_PLAIN;
  const value = Number(source);
  // What the number-exact lint refuses, the library path reports.
  if (numberNotShared(value) !== undefined || (!source.includes(".") && BigInt(source) !== BigInt(value))) throw NOT_PLAIN;
  return value;
}

const DQ_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", "0": "\0" };
// A plain scalar may not start with an indicator; "-" followed by a non-space starts one ("?" and ":"
// followed by a non-space could too, in YAML; this scanner leaves those to the library).
const INDICATOR = /[-?:,[\]{}#&*!|>'"%@`]/;

class BlockScanner {
  at = 0;
  readonly offsets = new Map<string, number>();
  /** The indentation of the block a flow collection being read is in: its later lines must go beyond it. */
  private flowIndent = -1;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  /** Skips blank and comment lines from the start of a line or after a value; the next content line's indentation, at its first character, or -1 at the end. */
  nextContentLine(): number {
    const t = this.text;
    for (;;) {
      const lineStart = this.at;
      while (t.charCodeAt(this.at) === 0x20) this.at++;
      const c = t[this.at];
      if (c === undefined) return -1;
      if (c === "#") {
        if (this.at > lineStart && t[this.at - 1] !== " ") throw NOT_PLAIN;
        const end = t.indexOf("\n", this.at);
        if (end < 0) return (this.at = t.length), -1;
        this.at = end + 1;
      } else if (c === "\n") this.at++;
      else return this.at - t.lastIndexOf("\n", this.at - 1) - 1;
    }
  }

  /** After an inline value: only spaces and a comment may follow on its line. */
  private endOfLine(): void {
    const t = this.text;
    const from = this.at;
    while (t.charCodeAt(this.at) === 0x20) this.at++;
    const c = t[this.at];
    if (c === undefined) return;
    if (c === "\n") return void this.at++;
    if (c !== "#" || this.at === from) throw NOT_PLAIN;
    const end = t.indexOf("\n", this.at);
    this.at = end < 0 ? t.length : end + 1;
  }

  private column(): number {
    return this.at - this.text.lastIndexOf("\n", this.at - 1) - 1;
  }

  /** The node whose first character is at `at`, in a collection indented `parent` (-1: the document). */
  blockNode(pointer: string, depth: number, parent: number): JsonValue {
    if (depth >= this.maxDepth - 2) throw NOT_PLAIN;
    const t = this.text;
    if (this.dashAhead()) return this.sequence(pointer, depth + 1);
    if (this.keyAhead() !== undefined) return this.mapping(pointer, depth + 1);
    if (t[this.at] === "|" || t[this.at] === ">") {
      this.offsets.set(pointer, this.at);
      return this.blockScalar(parent);
    }
    const value = this.inline(pointer, depth, parent);
    this.endOfLine();
    return value;
  }

  /** A block sequence entry's dash at `at`. */
  private dashAhead(): boolean {
    const t = this.text;
    return t[this.at] === "-" && (t[this.at + 1] === " " || t[this.at + 1] === "\n" || this.at + 1 === t.length);
  }

  private sequence(pointer: string, depth: number): JsonValue[] {
    const t = this.text;
    const column = this.column();
    this.offsets.set(pointer, this.at);
    const out: JsonValue[] = [];
    for (;;) {
      this.at++; // the dash
      while (t[this.at] === " ") this.at++;
      if (t[this.at] === "\n" || t[this.at] === "#" || this.at === t.length) {
        if (this.nextContentLine() <= column) throw NOT_PLAIN; // an empty item
      }
      out.push(this.item(`${pointer}/${out.length}`, depth, column));
      const next = this.nextContentLine();
      // At the same column, anything but a dash belongs to the mapping this sequence is a value of.
      if (next < column || (next === column && !this.dashAhead())) return out;
      if (next > column) throw NOT_PLAIN;
    }
  }

  /** A sequence item or mapping value that begins at `at`; the library records its position at its first character. */
  private item(pointer: string, depth: number, parent: number): JsonValue {
    const start = this.at;
    const value = this.blockNode(pointer, depth, parent);
    if (!this.offsets.has(pointer) || this.offsets.get(pointer)! > start) this.offsets.set(pointer, start);
    return value;
  }

  private mapping(pointer: string, depth: number): JsonValue {
    const t = this.text;
    const column = this.column();
    this.offsets.set(pointer, this.at);
    const out: { [key: string]: JsonValue } = {};
    for (;;) {
      const keyAt = this.at;
      const key = this.keyAhead();
      if (key === undefined || Object.hasOwn(out, key.name) || key.name === "__proto__" || key.name === "<<") throw NOT_PLAIN;
      this.at = key.end + 1; // past the colon
      const child = `${pointer}/${escapeToken(key.name)}`;
      while (t[this.at] === " ") this.at++;
      let next: number;
      if (t[this.at] === "\n" || t[this.at] === "#" || this.at === t.length) {
        // The value is on the lines below: more indented, or a sequence at this mapping's column.
        const indent = this.nextContentLine();
        if (indent > column || (indent === column && this.dashAhead())) {
          out[key.name] = this.item(child, depth, column);
          next = this.nextContentLine();
        } else {
          out[key.name] = null;
          next = indent;
        }
      } else {
        // On the key's line, a value cannot open a block mapping or sequence.
        if (this.dashAhead() || this.keyAhead() !== undefined) throw NOT_PLAIN;
        out[key.name] = this.item(child, depth, column);
        next = this.nextContentLine();
      }
      // The library records a member at its key, after its value's own position.
      this.offsets.set(child, keyAt);
      if (next < column) return out;
      if (next > column) throw NOT_PLAIN;
    }
  }

  /** The implicit key starting at `at` (plain or quoted, then ":" and a space or the line's end), if the line has one. */
  private keyAhead(): { name: string; end: number } | undefined {
    const t = this.text;
    const c = t[this.at];
    if (c === '"' || c === "'") {
      const save = this.at;
      const name = c === '"' ? this.doubleQuoted() : this.singleQuoted();
      let end = this.at;
      this.at = save;
      if (end - save > 1000) throw NOT_PLAIN;
      while (t[end] === " ") end++;
      if (t[end] !== ":") return undefined;
      return t[end + 1] === " " || t[end + 1] === "\n" || end + 1 === t.length ? { name, end } : undefined;
    }
    if (c === undefined || (INDICATOR.test(c) && !(c === "-" && t[this.at + 1] !== " " && t[this.at + 1] !== "\n"))) return undefined;
    const lineEnd = t.indexOf("\n", this.at) < 0 ? t.length : t.indexOf("\n", this.at);
    for (let i = this.at; i < lineEnd; i++) {
      if (t[i] === "#" && t[i - 1] === " ") return undefined;
      if (t[i] === ":" && (i + 1 === lineEnd || t[i + 1] === " ")) {
        const source = t.slice(this.at, i).trimEnd();
        if (i - this.at > 1000 || typeof plainScalar(source) !== "string") throw NOT_PLAIN;
        return { name: source, end: i };
      }
    }
    return undefined;
  }

  /** A scalar on this line, or a flow collection whose lines are indented beyond `parent`. */
  private inline(pointer: string, depth: number, parent: number): JsonValue {
    const t = this.text;
    const c = t[this.at]!;
    this.offsets.set(pointer, this.at);
    if (c === '"') return this.doubleQuoted();
    if (c === "'") return this.singleQuoted();
    if (c === "[" || c === "{") {
      this.flowIndent = parent;
      return this.flow(pointer, depth + 1);
    }
    if (INDICATOR.test(c) && !(c === "-" && t[this.at + 1] !== " ")) throw NOT_PLAIN;
    const lineEnd = t.indexOf("\n", this.at) < 0 ? t.length : t.indexOf("\n", this.at);
    let end = lineEnd;
    const comment = t.indexOf(" #", this.at);
    if (comment >= 0 && comment < end) end = comment;
    const source = t.slice(this.at, end).trimEnd();
    if (/: |:$/.test(source)) throw NOT_PLAIN;
    this.at += source.length;
    return plainScalar(source);
  }

  private doubleQuoted(): string {
    const t = this.text;
    let out = "";
    let i = this.at + 1;
    for (;;) {
      const c = t[i];
      if (c === undefined || c === "\n") throw NOT_PLAIN; // unterminated on this line
      if (c === '"') break;
      if (c === "\\") {
        const e = t[i + 1]!;
        if (e === "u" || e === "U") {
          const digits = e === "u" ? 4 : 8;
          const hex = t.slice(i + 2, i + 2 + digits);
          if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) throw NOT_PLAIN;
          const code = parseInt(hex, 16);
          if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) throw NOT_PLAIN;
          out += String.fromCodePoint(code);
          i += 2 + digits;
          continue;
        }
        const plain = DQ_ESCAPES[e];
        if (plain === undefined) throw NOT_PLAIN;
        out += plain;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    this.at = i + 1;
    return out;
  }

  private singleQuoted(): string {
    const t = this.text;
    let out = "";
    let i = this.at + 1;
    for (;;) {
      const close = t.indexOf("'", i);
      const newline = t.indexOf("\n", i);
      if (close < 0 || (newline >= 0 && newline < close)) throw NOT_PLAIN;
      out += t.slice(i, close);
      if (t[close + 1] !== "'") {
        this.at = close + 1;
        return out;
      }
      out += "'";
      i = close + 2;
    }
  }

  /** `|` or `>`, with an optional chomping indicator: its lines, more indented than `parent`. */
  private blockScalar(parent: number): string {
    const t = this.text;
    const folded = t[this.at] === ">";
    this.at++;
    const chomp = t[this.at] === "-" || t[this.at] === "+" ? t[this.at++] : "";
    this.endOfLine();
    const lines: string[] = [];
    let indent = -1;
    let afterContent = this.at;
    let pos = this.at;
    while (pos < t.length) {
      const newline = t.indexOf("\n", pos);
      if (newline < 0) throw NOT_PLAIN; // a last line without its line break
      const line = t.slice(pos, newline);
      const spaces = line.length - line.trimStart().length;
      if (spaces === line.length) {
        // A blank line with more spaces than the text lines has a subtle meaning.
        if (indent >= 0 && spaces > indent) throw NOT_PLAIN;
        lines.push("");
      } else {
        if (indent < 0) {
          if (spaces <= parent) break; // no text line: only blank lines, if any
          if (lines.length > 0) throw NOT_PLAIN; // blank lines before the first text line
          indent = spaces;
        }
        if (spaces < indent) break;
        const content = line.slice(indent);
        if (folded && content.startsWith(" ")) throw NOT_PLAIN; // more-indented lines keep their breaks
        lines.push(content);
        afterContent = newline + 1;
      }
      pos = newline + 1;
    }
    if (indent < 0) {
      // Blank lines only: kept as line breaks by "+", nothing otherwise.
      if (lines.length === 0) throw NOT_PLAIN;
      if (chomp !== "+") return "";
      this.at = pos;
      return "\n".repeat(lines.length);
    }
    let trailing = 0;
    while (lines[lines.length - 1] === "") (lines.pop(), trailing++);
    // The trailing blank lines are left to nextContentLine.
    this.at = afterContent;
    const body = folded ? fold(lines) : lines.join("\n");
    if (chomp === "-") return body;
    return chomp === "+" ? `${body}\n${"\n".repeat(trailing)}` : `${body}\n`;
  }

  private flow(pointer: string, depth: number): JsonValue {
    if (depth >= this.maxDepth - 2) throw NOT_PLAIN;
    const t = this.text;
    const isMap = t[this.at] === "{";
    const close = isMap ? "}" : "]";
    this.at++;
    const out: JsonValue[] | { [key: string]: JsonValue } = isMap ? {} : [];
    this.flowSpace();
    if (t[this.at] === close) return this.at++, out;
    for (;;) {
      if (isMap) {
        const map = out as { [key: string]: JsonValue };
        const keyAt = this.at;
        const name = this.flowScalar(pointer, true);
        if (typeof name !== "string" || Object.hasOwn(map, name) || name === "__proto__" || name === "<<") throw NOT_PLAIN;
        this.flowSpace();
        if (t[this.at] !== ":") throw NOT_PLAIN;
        this.at++;
        this.flowSpace();
        const child = `${pointer}/${escapeToken(name)}`;
        map[name] = this.flowValue(child, depth);
        this.offsets.set(child, keyAt);
      } else {
        const list = out as JsonValue[];
        list.push(this.flowValue(`${pointer}/${list.length}`, depth));
      }
      this.flowSpace();
      const next = t[this.at++];
      if (next === close) return out;
      if (next !== ",") throw NOT_PLAIN;
      this.flowSpace();
      if (t[this.at] === close) throw NOT_PLAIN; // a trailing comma
    }
  }

  /** Spaces, comments and line breaks between a flow collection's tokens. */
  private flowSpace(): void {
    const t = this.text;
    for (;;) {
      while (t[this.at] === " ") this.at++;
      const c = t[this.at];
      if (c === "#") {
        const end = t.indexOf("\n", this.at);
        if (t[this.at - 1] !== " " || end < 0) throw NOT_PLAIN;
        this.at = end;
        continue;
      }
      if (c !== "\n") return;
      const lineStart = ++this.at;
      while (t[this.at] === " ") this.at++;
      if (this.at - lineStart <= this.flowIndent || t[this.at] === "\n") throw NOT_PLAIN;
    }
  }

  private flowValue(pointer: string, depth: number): JsonValue {
    const c = this.text[this.at];
    if (c === "[" || c === "{") {
      this.offsets.set(pointer, this.at);
      return this.flow(pointer, depth + 1);
    }
    return this.flowScalar(pointer, false);
  }

  /** A quoted or plain scalar inside a flow collection; a key's quoted form may be followed by ":" directly. */
  private flowScalar(pointer: string, isKey: boolean): JsonValue {
    const t = this.text;
    const c = t[this.at];
    if (!isKey) this.offsets.set(pointer, this.at);
    if (c === '"') return this.doubleQuoted();
    if (c === "'") return this.singleQuoted();
    if (c === undefined || (INDICATOR.test(c) && !(c === "-" && t[this.at + 1] !== " "))) throw NOT_PLAIN;
    let end = this.at;
    for (;;) {
      const d = t[end];
      if (d === undefined || d === "\n" || d === "," || d === "]" || d === "}" || d === "[" || d === "{") break;
      if (d === "#" && t[end - 1] === " ") throw NOT_PLAIN;
      if (d === ":") {
        const after = t[end + 1];
        if (after === " " || after === "," || after === "]" || after === "}" || after === "[" || after === "{" || after === "\n") break;
      }
      end++;
    }
    const d = t[end];
    if (d === "[" || d === "{" || d === "\n" || d === undefined) throw NOT_PLAIN;
    const source = t.slice(this.at, end).trimEnd();
    if (source === "" || (d === ":" && !isKey)) throw NOT_PLAIN;
    this.at += source.length;
    const value = plainScalar(source);
    if (isKey && typeof value !== "string") throw NOT_PLAIN;
    return value;
  }
}

/** A folded block scalar's lines: a break between two text lines becomes a space, each blank line a break. */
function fold(lines: readonly string[]): string {
  let out = lines[0] ?? "";
  let blanks = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") {
      blanks++;
      continue;
    }
    out += blanks === 0 ? ` ${line}` : "\n".repeat(blanks) + line;
    blanks = 0;
  }
  return out;
}
