// The Rust target's naming service: Rust names from spec names (RFC 430 casing). Types and enum
// variants are UpperCamelCase, members and modules snake_case, constants SCREAMING_SNAKE_CASE;
// a member that is a Rust keyword is written as a raw identifier (`r#type`). Words come from the
// shared splitter (emit/case.ts), so a name splits the same in every language.
import { capitalize, words } from "../../emit/case.js";
import type { Naming } from "../target.js";

const KEYWORDS = new Set([
  "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop",
  "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use",
  "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv",
  "typeof", "unsized", "virtual", "yield", "try", "gen",
]);
/** Keywords a raw identifier cannot spell: these get a trailing underscore instead. */
const NOT_RAW = new Set(["self", "Self", "super", "crate", "_"]);

/** `packageId` -> `package_id`, `sdk.local-echo.v1` -> `sdk_local_echo_v1`. */
export function snakeCase(text: string): string {
  const parts = words(text).map((w) => w.toLowerCase());
  const name = parts.length === 0 ? "value" : parts.join("_");
  return /^[0-9]/.test(name) ? `v${name}` : name;
}

/** `live_channel` -> `LiveChannel`, `HTTPServer` -> `HttpServer` (an all-capitals word is one word). */
export function upperCamel(text: string): string {
  const parts = words(text);
  if (parts.length === 0) return "Value";
  const name = parts.map((w) => capitalize(w === w.toUpperCase() ? w.toLowerCase() : w)).join("");
  return /^[0-9]/.test(name) ? `V${name}` : name;
}

/** A snake_case name made safe as an identifier. */
export function identifier(name: string): string {
  if (NOT_RAW.has(name)) return `${name}_`;
  return KEYWORDS.has(name) ? `r#${name}` : name;
}

/** Names made distinct by numbering the later ones (`value`, `value_2`). */
export function uniqueNames(names: readonly string[], separator = "_"): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}${separator}${count}`;
  });
}

/** A Rust string literal (escapes as `{:?}` writes them). */
export function stringLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A raw string literal with enough `#` marks that the text cannot end it. */
export function rawStringLiteral(text: string): string {
  let hashes = "#";
  while (text.includes(`"${hashes}`)) hashes += "#";
  return `r${hashes}"${text}"${hashes}`;
}

/** `///` lines (or `//!` with inner) for spec prose; empty when there is none. */
export function docComment(text: string | undefined, indent: string, marker = "///"): string {
  if (text === undefined || text.trim() === "") return "";
  return text.trim().split("\n").map((line) => `${indent}${marker}${line.trim() === "" ? "" : ` ${line.trimEnd()}`}\n`).join("");
}

export const rustNaming: Naming = {
  type: (title) => upperCamel(title),
  member: (wireName) => identifier(snakeCase(wireName)),
  enumCase: (value) => {
    const name = upperCamel(value);
    // `Unknown(String)` holds the values an open enum does not list.
    return name === "Unknown" ? "UnknownValue" : name;
  },
  constant: (name) => name.toUpperCase().replace(/[^A-Z0-9_]/g, "_"),
  file: (protocolId) => `src/${snakeCase(protocolId)}/messages.rs`,
};
