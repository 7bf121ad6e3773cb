// The part of ECMAScript's JSON.parse the secret filter's JOSE header test relies on (secret-text.ts):
// it must accept what JSON.parse accepts (duplicate members, lone surrogate escapes), which the
// strict I-JSON reader refuses by design.

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * ECMAScript JSON.parse's grammar, kept to what the header test needs: undefined unless the whole
 * text is one JSON value that is an object; then its string-valued top-level members (a later
 * duplicate replaces an earlier one, as JSON.parse does; a non-string later value removes it).
 */
export function readJsonObjectStrings(text: string): Map<string, string> | undefined {
  const r = new JsonReader(text);
  r.ws();
  if (r.peek() !== 0x7b) return undefined;
  const members = r.object(true);
  if (members === undefined) return undefined;
  r.ws();
  return r.done() ? members : undefined;
}

class JsonReader {
  private i = 0;
  constructor(private readonly s: string) {}
  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }
  done(): boolean {
    return this.i === this.s.length;
  }
  ws(): void {
    for (let c = this.peek(); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = this.peek()) this.i++;
  }
  /** An object at the cursor; with `collect`, its string members. Depth is bounded by the input (≤ 64 KiB). */
  object(collect: boolean, depth = 0): Map<string, string> | undefined {
    if (depth > 512) return undefined;
    const members = new Map<string, string>();
    this.i++;
    this.ws();
    if (this.peek() === 0x7d) { this.i++; return members; }
    for (;;) {
      this.ws();
      if (this.peek() !== 0x22) return undefined;
      const key = this.string();
      if (key === undefined) return undefined;
      this.ws();
      if (this.peek() !== 0x3a) return undefined;
      this.i++;
      this.ws();
      if (this.peek() === 0x22) {
        const v = this.string();
        if (v === undefined) return undefined;
        if (collect) members.set(key, v);
      } else {
        if (!this.value(depth + 1)) return undefined;
        if (collect) members.delete(key);
      }
      this.ws();
      const c = this.peek();
      this.i++;
      if (c === 0x7d) return members;
      if (c !== 0x2c) return undefined;
    }
  }
  value(depth: number): boolean {
    const c = this.peek();
    if (c === 0x7b) return this.object(false, depth) !== undefined;
    if (c === 0x5b) {
      if (depth > 512) return false;
      this.i++;
      this.ws();
      if (this.peek() === 0x5d) { this.i++; return true; }
      for (;;) {
        this.ws();
        if (!this.value(depth + 1)) return false;
        this.ws();
        const d = this.peek();
        this.i++;
        if (d === 0x5d) return true;
        if (d !== 0x2c) return false;
      }
    }
    if (c === 0x22) return this.string() !== undefined;
    for (const word of ["true", "false", "null"]) {
      if (this.s.startsWith(word, this.i)) { this.i += word.length; return true; }
    }
    return this.number();
  }
  number(): boolean {
    const start = this.i;
    if (this.peek() === 0x2d) this.i++;
    if (this.peek() === 0x30) this.i++;
    else if (this.peek() >= 0x31 && this.peek() <= 0x39) while (isDigit(this.peek())) this.i++;
    else return false;
    if (this.peek() === 0x2e) {
      this.i++;
      if (!isDigit(this.peek())) return false;
      while (isDigit(this.peek())) this.i++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.i++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.i++;
      if (!isDigit(this.peek())) return false;
      while (isDigit(this.peek())) this.i++;
    }
    return this.i > start;
  }
  string(): string | undefined {
    this.i++;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c < 0 || c < 0x20) return undefined;
      this.i++;
      if (c === 0x22) return out;
      if (c !== 0x5c) { out += String.fromCharCode(c); continue; }
      const e = this.peek();
      this.i++;
      const simple: Record<number, string> = { 0x22: '"', 0x5c: "\\", 0x2f: "/", 0x62: "\b", 0x66: "\f", 0x6e: "\n", 0x72: "\r", 0x74: "\t" };
      if (simple[e] !== undefined) { out += simple[e]; continue; }
      if (e !== 0x75) return undefined;
      const hex = this.s.slice(this.i, this.i + 4);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      this.i += 4;
    }
  }
}
