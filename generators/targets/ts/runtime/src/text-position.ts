// Where in a JSON text an error is, as a person looks for it: line and column (1-based, columns
// counted in Unicode code points, lines ended by LF). Computed only on the error path, from the
// offset the strict parser reports, so parsing itself pays nothing for it.
import type { StrictJsonError } from "./strict-json.js";

export interface TextPosition {
  line: number;
  column: number;
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** The line and column of `offset`: a byte offset into bytes, a UTF-16 offset into a string (as StrictJsonError.offset). */
export function lineColumn(input: string | Uint8Array, offset: number): TextPosition {
  const before = typeof input === "string" ? input.slice(0, Math.max(0, offset)) : decoder.decode(input.subarray(0, Math.max(0, offset)));
  let line = 1;
  let lineStart = 0;
  for (let i = before.indexOf("\n"); i >= 0; i = before.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  // Code points, not UTF-16 units: an emoji before the error is one column.
  return { line, column: Array.from(before.slice(lineStart)).length + 1 };
}

/** A strict-parse error as one line: `line 3, column 7: duplicate member name "a" (at offset 25)`. */
export function describeJsonError(input: string | Uint8Array, error: StrictJsonError): string {
  const { line, column } = lineColumn(input, error.offset);
  return `line ${line}, column ${column}: ${error.message}`;
}

/** The duplicate-key message: names the key (shortened past 64 characters, JSON-quoted so control characters stay visible). */
export function duplicateKeyMessage(key: string): string {
  const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key;
  return `duplicate member name ${JSON.stringify(shown)}`;
}
