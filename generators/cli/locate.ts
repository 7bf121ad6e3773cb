// Where a validation error is in the user's file: the CLI prints `proposal.json:3:7 /nonce: …`.
// The input has already passed the strict parser, so this scanner only walks valid JSON to the
// value a JSON pointer names (or to an unknown member's name) and returns its offset.
import type { ValidationError } from "../targets/ts/runtime/src/validation.js";
import { formatError } from "../targets/ts/runtime/src/validation.js";
import { lineColumn } from "../targets/ts/runtime/src/text-position.js";

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

class Scanner {
  i = 0;
  constructor(readonly text: string) {}
  ws(): void {
    while (this.i < this.text.length && " \t\r\n".includes(this.text[this.i]!)) this.i++;
  }
  /** Reads a string token at i and returns its value (JSON.parse of the token: valid JSON only). */
  string(): string {
    const start = this.i;
    this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === "\\" ? 2 : 1;
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }
  /** Skips one value at i. */
  skip(): void {
    const c = this.text[this.i];
    if (c === '"') return void this.string();
    if (c === "{" || c === "[") {
      let depth = 0;
      do {
        const d = this.text[this.i];
        if (d === '"') {
          this.string();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") depth--;
        this.i++;
      } while (depth > 0);
      return;
    }
    while (this.i < this.text.length && !",]} \t\r\n".includes(this.text[this.i]!)) this.i++;
  }
  /** Moves i to the member `key` of the object at i: to its name when `atName`, else to its value. Returns false when absent. */
  member(key: string, atName: boolean): boolean {
    this.i++; // {
    for (;;) {
      this.ws();
      if (this.text[this.i] === "}") return false;
      const nameAt = this.i;
      const name = this.string();
      this.ws();
      this.i++; // :
      this.ws();
      if (name === key) {
        if (atName) this.i = nameAt;
        return true;
      }
      this.skip();
      this.ws();
      if (this.text[this.i] === ",") this.i++;
    }
  }
  element(index: number): boolean {
    this.i++; // [
    for (let n = 0; ; n++) {
      this.ws();
      if (this.text[this.i] === "]") return false;
      if (n === index) return true;
      this.skip();
      this.ws();
      if (this.text[this.i] === ",") this.i++;
    }
  }
}

/**
 * The offset in `text` of the value at `pointer`, or of the member name `memberName` inside it.
 * Falls back to the deepest value found when the pointer leads nowhere (it never should).
 */
export function locate(text: string, pointer: string, memberName?: string): number {
  const s = new Scanner(text);
  s.ws();
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken);
  if (memberName !== undefined) tokens.push(memberName);
  for (const [n, token] of tokens.entries()) {
    const last = n === tokens.length - 1 && memberName !== undefined;
    const at = s.i;
    const c = text[s.i];
    const found = c === "{" ? s.member(token, last) : c === "[" && /^(0|[1-9][0-9]*)$/.test(token) ? s.element(Number(token)) : false;
    if (!found) {
      s.i = at;
      break;
    }
  }
  return s.i;
}

/** A validation error at its place in the text: line and column (1-based), the JSON pointer, and the error as one line. */
export interface LocatedError {
  line: number;
  column: number;
  pointer: string;
  /** The failed keyword; "json" when the text is not JSON. */
  keyword: string;
  /** `formatError`'s line, or for invalid JSON the parser's words without the position prefix. */
  message: string;
  json: boolean;
}

/** Each error at its line and column in `text`; JSON errors carry their own position. Used by the CLI and the docs playground. */
export function locateErrors(text: string, errors: readonly ValidationError[]): LocatedError[] {
  return errors.map((e) => {
    if (e.keyword === "json" && typeof e.params["offset"] === "number") {
      return { line: e.params["line"] as number, column: e.params["column"] as number, pointer: e.instancePath, keyword: "json", message: e.message.replace(/^invalid JSON at line \d+, column \d+: /, ""), json: true };
    }
    const { line, column } = lineColumn(text, locate(text, e.instancePath, memberOf(e)));
    return { line, column, pointer: e.instancePath, keyword: e.keyword, message: formatError(e), json: false };
  });
}

/** `file:line:col /pointer: message` for each error; JSON errors carry their own offset. */
export function formatLocatedErrors(file: string, input: Uint8Array, errors: readonly ValidationError[]): string {
  return locateErrors(new TextDecoder().decode(input), errors)
    .map((e) => `${file}:${e.line}:${e.column} ${e.json ? `invalid JSON: ${e.message}` : e.message}`)
    .join("\n");
}

function memberOf(e: ValidationError): string | undefined {
  const m = e.params["additionalProperty"] ?? e.params["unevaluatedProperty"];
  return typeof m === "string" ? m : undefined;
}
