// The Swift target's naming service: Swift names from spec names. Types come from schema titles,
// members from JSON names, enum cases from values; every identifier is checked against Swift's
// keywords and escaped with backticks when it is one. Words come from the shared splitter
// (emit/case.ts), so a name splits the same in every language.
import { capitalize, words } from "../../emit/case.js";
import type { Naming } from "../target.js";
// emit-support imports this module too: SOURCES is read when file() runs, long after both loaded.
import { SOURCES } from "./emit-support.js";

const KEYWORDS = new Set([
  "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
  "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
  "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
  "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is",
  "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any", "required", "convenience",
  "dynamic", "final", "lazy", "mutating", "nonmutating", "optional", "override", "unowned", "weak", "indirect",
  "borrowing", "consuming", "nonisolated",
]);

/**
 * Initialisms the Swift API Design Guidelines write uniformly cased: all upper inside a name
 * (`requestID`, `installURL`, `HTTPJSONRequest`), all lower at the start of a lowerCamel name
 * (`id`, `urlScheme`). A plural keeps a lower-case `s` (`attachmentIDs`); digits stay attached
 * (`SHA256`).
 */
const INITIALISMS = new Set([
  "id", "url", "uri", "http", "https", "json", "jcs", "sha", "hmac", "api", "sdk", "ttl", "uuid", "sse", "pii", "llm",
  "mcp", "acp", "cli", "ios", "jwt", "tls", "html", "rfc", "oauth",
]);

/** The initialism a word spells (letters, optional plural s, optional digits), or undefined. */
function initialism(word: string): { letters: string; plural: boolean; digits: string } | undefined {
  const m = /^([a-z]+?)(s?)([0-9]*)$/.exec(word.toLowerCase());
  if (m === null) return undefined;
  if (INITIALISMS.has(m[1]! + m[2]!)) return { letters: m[1]! + m[2]!, plural: false, digits: m[3]! };
  if (INITIALISMS.has(m[1]!)) return { letters: m[1]!, plural: m[2] === "s", digits: m[3]! };
  return undefined;
}

/** One word inside a camel-case name (not the first word of a lowerCamel one). */
function innerWord(word: string): string {
  const acronym = initialism(word);
  if (acronym !== undefined) return `${acronym.letters.toUpperCase()}${acronym.plural ? "s" : ""}${acronym.digits}`;
  return capitalize(word === word.toUpperCase() ? word.toLowerCase() : word);
}

/** `request_id` -> `requestID`, `URL` -> `url`, `sdk.local-echo.v1` -> `sdkLocalEchoV1`. */
export function lowerCamel(text: string): string {
  const parts = words(text);
  if (parts.length === 0) return "value";
  const [first, ...rest] = parts;
  let name = first!.toLowerCase() + rest.map((w) => innerWord(w.toLowerCase())).join("");
  if (/^[0-9]/.test(name)) name = `v${name}`;
  return name;
}

/** `live_channel` -> `LiveChannel`, `HttpJsonRequest` -> `HTTPJSONRequest`. */
export function upperCamel(text: string): string {
  const parts = words(text);
  if (parts.length === 0) return "Value";
  let name = parts.map(innerWord).join("");
  if (/^[0-9]/.test(name)) name = `V${name}`;
  return name;
}

/** A type name from a schema title, a message name or a protocol id: one rule for all three. */
export function typeName(title: string): string {
  return upperCamel(title);
}

/** The name of the element type of a collection named `plural` (`items` -> `item`). */
export function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/(ss|us|is)$/.test(name)) return name;
  if (/(ss|us|x|ch|sh)es$/.test(name)) return name.replace(/es$/, "");
  return name.replace(/s$/, "");
}

/** An identifier safe in declarations and after `.`. */
export function identifier(name: string): string {
  return KEYWORDS.has(name) ? `\`${name}\`` : name;
}

/**
 * Makes `names` unique by appending 2, 3, ... to later duplicates, skipping a suffixed name that is
 * already taken (`a`, `a2`, `a` gives `a`, `a2`, `a3`, never a second `a2`).
 */
export function uniqueNames(names: readonly string[]): string[] {
  const given = new Set(names);
  const used = new Set<string>();
  return names.map((name) => {
    let unique = name;
    // A suffix must not take a name given later in the list either: that one keeps its name.
    for (let n = 2; used.has(unique); n++) if (!given.has(`${name}${n}`)) unique = `${name}${n}`;
    used.add(unique);
    return unique;
  });
}

/** A Swift string literal (no interpolation). */
export function stringLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // A Swift String holds Unicode scalars only: `\u{d800}` does not compile.
    if (code >= 0xd800 && code <= 0xdfff) throw new Error(`Swift: no string literal holds the lone surrogate U+${code.toString(16).toUpperCase()} (in ${JSON.stringify(text)})`);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/** A raw string literal `#"..."#` with enough `#` that nothing inside ends or interpolates it. */
export function rawStringLiteral(text: string): string {
  // A single-line literal ends at a line break, and the JSON texts it carries never hold one.
  if (/[\n\r]/.test(text)) throw new Error(`Swift: a raw string literal cannot hold a line break (${JSON.stringify(text.slice(0, 40))})`);
  let hashes = 1;
  while (text.includes(`"${"#".repeat(hashes)}`) || text.includes(`\\${"#".repeat(hashes)}`)) hashes++;
  const fence = "#".repeat(hashes);
  return `${fence}"${text}"${fence}`;
}

/** One-line documentation text. */
export function docText(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** `/// ...` lines, wrapped at about 100 columns, with the given indent. */
export function docComment(text: string | undefined, indent: string): string {
  const clean = docText(text);
  if (clean === "") return "";
  const lines: string[] = [];
  let line = "";
  for (const word of clean.split(" ")) {
    if (line.length > 0 && line.length + word.length + 1 > 96 - indent.length) {
      lines.push(line);
      line = word;
    } else line = line.length > 0 ? `${line} ${word}` : word;
  }
  if (line.length > 0) lines.push(line);
  return lines.map((l) => `${indent}/// ${l}\n`).join("");
}

/** The Swift naming service as the target declares it: every protocol's types are in one file, nested in its namespace enum. */
export const swiftNaming: Naming = {
  type: typeName,
  member: (wireName) => identifier(lowerCamel(wireName)),
  enumCase: (value) => identifier(lowerCamel(value)),
  constant: (name) => identifier(lowerCamel(name)),
  file: (protocolId) => `${SOURCES}/${typeName(protocolId)}/${typeName(protocolId)}Messages.swift`,
};
