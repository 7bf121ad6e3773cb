// The noSecrets rule: display text is refused when the Agent Connector host's secret filter would
// redact any part of it (Meldwork, desktop/src/security/secret-redaction.cjs, which defines what
// the SDK accepts). Each of the filter's shapes is recognised here by a single forward scan with
// precomputed run ends, never by a backtracking regex, so the cost is linear in the text length.
// The Kotlin (SecretText.kt) and Swift (SecretText.swift) runtimes implement the same scan; the
// shared vectors in spec/agent-connector/vectors/secret-text.json hold them to one verdict.
import { readJsonObjectStrings } from "./lenient-json.js";

/** Longer text is refused outright; SafeText fields are far shorter (maxLength 1000). */
export const SECRET_TEXT_MAX_UNITS = 65536;

/** The secret shape found first (in the filter's order), or undefined when the text is clean. */
export function findSecret(text: string): string | undefined {
  if (text.length > SECRET_TEXT_MAX_UNITS) return "too-long";
  const t = new Scan(text);
  if (t.privateKeyBlock()) return "private-key";
  if (t.bearer()) return "bearer";
  if (t.basicCredential()) return "basic";
  if (t.keyPrefix()) return "api-key-prefix";
  if (t.awsKey()) return "aws-access-key";
  if (t.googleKey()) return "google-api-key";
  if (t.jose()) return "jose";
  if (t.urlCredentials()) return "url-credentials";
  if (t.assignment()) return "assignment";
  return undefined;
}

export function containsSecret(text: string): boolean {
  return findSecret(text) !== undefined;
}

// ECMAScript's \s (WhiteSpace and LineTerminator), which the filter's patterns use.
export function isJsSpace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d || c === 0x20 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isAlpha = (c: number) => isUpper(c) || isLower(c);
const isAlnum = (c: number) => isAlpha(c) || isDigit(c);
/** \w without the u flag: ASCII letters, digits, underscore. */
const isWord = (c: number) => isAlnum(c) || c === 0x5f;
/** [A-Za-z0-9_-]: API key bodies and JOSE segments. */
const isKeyChar = (c: number) => isWord(c) || c === 0x2d;
/** [A-Za-z0-9_.-]: the name around a sensitive key. */
const isNameChar = (c: number) => isKeyChar(c) || c === 0x2e;
const isBase64Char = (c: number) => isAlnum(c) || c === 0x2b || c === 0x2f;
const isBearerChar = (c: number) => isAlnum(c) || c === 0x2e || c === 0x5f || c === 0x7e || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x2d;
const isSchemeChar = (c: number) => isAlnum(c) || c === 0x2b || c === 0x2e || c === 0x2d;
const lowerAscii = (c: number) => (isUpper(c) ? c + 0x20 : c);

// The sensitive key names of the key=value shape, as sequences of parts joined by an optional
// separator ('_', '-' or a space); `tail` parts are optional and joined the same way.
const KEY_NAMES: { parts: string[]; tail?: string[] }[] = [
  { parts: ["api", "key"] },
  { parts: ["access", "key"], tail: ["id"] },
  { parts: ["secret", "access", "key"] },
  { parts: ["access", "token"] },
  { parts: ["refresh", "token"] },
  { parts: ["auth", "token"] },
  { parts: ["database", "url"] },
  { parts: ["connection", "string"] },
  { parts: ["dsn"] },
  { parts: ["token"] },
  { parts: ["secret"] },
  { parts: ["password"] },
  { parts: ["credential"] },
  { parts: ["authorization"] },
  { parts: ["private", "key"] },
  { parts: ["session", "ref"] },
];
const KEY_PREFIXES = ["sk", "rk", "pk", "ghp", "github_pat", "xoxb", "xoxa", "xoxp", "xoxr", "xoxs", "xox"];
const IDENTITY_ASSIGNMENT = "credential=[redacted]";

class Scan {
  readonly n: number;

  // Code units are read from the string itself (every index read is inside it): a typed-array
  // copy per text was most of the scan's garbage.
  constructor(readonly text: string) {
    this.n = text.length;
  }

  private at(i: number): number {
    return i >= 0 && i < this.n ? this.text.charCodeAt(i) : -1;
  }

  /** ASCII case-insensitive match of a lowercase literal at i. */
  private lit(i: number, word: string): boolean {
    if (i + word.length > this.n) return false;
    for (let k = 0; k < word.length; k++) if (lowerAscii(this.text.charCodeAt(i + k)) !== word.charCodeAt(k)) return false;
    return true;
  }

  private exact(i: number, word: string): boolean {
    return this.text.startsWith(word, i);
  }

  private runEnd(i: number, inClass: (c: number) => boolean): number {
    while (i < this.n && inClass(this.text.charCodeAt(i))) i++;
    return i;
  }

  private wordStart(i: number): boolean {
    return i === 0 || !isWord(this.text.charCodeAt(i - 1));
  }

  /** A BEGIN … PRIVATE KEY header at i; returns where it ends, or -1. */
  private pemHeader(i: number, kind: "begin" | "end"): number {
    const open = kind === "begin" ? "-----begin " : "-----end ";
    if (!this.lit(i, open)) return -1;
    const runStart = i + open.length;
    const end = this.runEnd(runStart, (c) => isAlnum(c) || c === 0x20);
    const label = "private key";
    if (end - runStart < label.length || !this.lit(end - label.length, label) || !this.exact(end, "-----")) return -1;
    return end + 5;
  }

  privateKeyBlock(): boolean {
    let firstBeginEnd = -1;
    let lastEndStart = -1;
    for (let i = this.text.indexOf("-----"); i >= 0; i = this.text.indexOf("-----", i + 1)) {
      const b = this.pemHeader(i, "begin");
      if (b >= 0 && firstBeginEnd < 0) firstBeginEnd = b;
      if (this.pemHeader(i, "end") >= 0) lastEndStart = i;
    }
    return firstBeginEnd >= 0 && lastEndStart >= firstBeginEnd;
  }

  bearer(): boolean {
    for (let i = 0; i < this.n; i++) {
      if (!this.wordStart(i) || !this.lit(i, "bearer")) continue;
      let j = i + 6;
      if (!isJsSpace(this.at(j))) continue;
      while (isJsSpace(this.at(j))) j++;
      if (isBearerChar(this.at(j))) return true;
    }
    return false;
  }

  basicCredential(): boolean {
    let i = 0;
    while (i < this.n) {
      if (this.wordStart(i) && this.lit(i, "basic") && (this.at(i + 5) === 0x20 || this.at(i + 5) === 0x09)) {
        let j = i + 5;
        while (this.at(j) === 0x20 || this.at(j) === 0x09) j++;
        const runEnd = this.runEnd(j, isBase64Char);
        let pad = runEnd;
        while (this.at(pad) === 0x3d) pad++;
        if (runEnd > j && pad - runEnd <= 2 && !isBase64Char(this.at(pad))) {
          if (base64HasColon(this.text.slice(j, runEnd), false)) return true;
          i = pad; // the filter's global scan resumes after a candidate it leaves unchanged
          continue;
        }
      }
      i++;
    }
    return false;
  }

  keyPrefix(): boolean {
    // Every candidate needs a '_' or '-' after its prefix: most display text has neither.
    if (this.text.indexOf("_") < 0 && this.text.indexOf("-") < 0) return false;
    let lastBoundary: Int32Array | undefined;
    for (let i = 0; i < this.n; i++) {
      if (!this.wordStart(i) || !isAlpha(this.text.charCodeAt(i))) continue;
      for (const prefix of KEY_PREFIXES) {
        if (!this.lit(i, prefix)) continue;
        const sep = i + prefix.length;
        if (this.at(sep) !== 0x5f && this.at(sep) !== 0x2d) continue;
        lastBoundary ??= this.lastBoundaries();
        if (lastBoundary[sep]! >= sep + 13) return true;
      }
    }
    return false;
  }

  /** The largest \b position inside each [A-Za-z0-9_-] run, found once per run (only once a prefix is seen). */
  private lastBoundaries(): Int32Array {
    const lastBoundary = new Int32Array(this.n + 1).fill(-1);
    for (let s = 0; s < this.n; ) {
      if (!isKeyChar(this.text.charCodeAt(s))) { s++; continue; }
      const e = this.runEnd(s, isKeyChar);
      let best = isWord(this.text.charCodeAt(e - 1)) ? e : -1;
      for (let j = e - 1; best < 0 && j > s; j--) if (isWord(this.text.charCodeAt(j - 1)) !== isWord(this.text.charCodeAt(j))) best = j;
      for (let k = s; k < e; k++) lastBoundary[k] = best;
      s = e;
    }
    return lastBoundary;
  }

  awsKey(): boolean {
    for (let i = this.text.indexOf("AKIA"); i >= 0; i = this.text.indexOf("AKIA", i + 1)) {
      if (!this.wordStart(i)) continue;
      let k = 0;
      while (k < 16 && (isUpper(this.at(i + 4 + k)) || isDigit(this.at(i + 4 + k)))) k++;
      if (k === 16 && !isWord(this.at(i + 20))) return true;
    }
    return false;
  }

  googleKey(): boolean {
    for (let i = this.text.indexOf("AIza"); i >= 0; i = this.text.indexOf("AIza", i + 1)) {
      if (isKeyChar(this.at(i - 1))) continue;
      if (this.runEnd(i, isKeyChar) - i === 39) return true;
    }
    return false;
  }

  jose(): boolean {
    // Chains of [A-Za-z0-9_-]+ segments joined by single dots; the filter takes five segments,
    // else three, from each start it reaches, and redacts when the first is a JOSE header.
    let i = 0;
    while (i < this.n) {
      if (!isKeyChar(this.text.charCodeAt(i)) || isKeyChar(this.at(i - 1))) { i++; continue; }
      // A chain of fewer than three segments takes nothing: skip it without collecting them.
      let count = 0;
      let chainEnd = i;
      for (let s = i; ; count++) {
        chainEnd = this.runEnd(s, isKeyChar);
        if (this.at(chainEnd) === 0x2e && isKeyChar(this.at(chainEnd + 1))) s = chainEnd + 1;
        else break;
      }
      if (count + 1 < 3) { i = chainEnd; continue; }
      const segments: [number, number][] = [];
      let s = i;
      for (;;) {
        const e = this.runEnd(s, isKeyChar);
        segments.push([s, e]);
        if (this.at(e) === 0x2e && isKeyChar(this.at(e + 1))) s = e + 1;
        else break;
      }
      let k = 0;
      while (k < segments.length) {
        const take = segments.length - k >= 5 ? 5 : segments.length - k >= 3 ? 3 : 0;
        if (take === 0) { k++; continue; }
        const [hs, he] = segments[k]!;
        if (hasJoseHeader(this.text.slice(hs, he))) return true;
        k += take;
      }
      i = segments[segments.length - 1]![1];
    }
    return false;
  }

  urlCredentials(): boolean {
    for (let i = this.text.indexOf("://"); i >= 0; i = this.text.indexOf("://", i + 1)) {
      let hasLetter = false;
      for (let p = i - 1; p >= 0 && isSchemeChar(this.text.charCodeAt(p)); p--) if (isAlpha(this.text.charCodeAt(p))) hasLetter = true;
      if (!hasLetter) continue;
      const userEnd = this.runEnd(i + 3, (c) => !isJsSpace(c) && c !== 0x2f && c !== 0x40 && c !== 0x3a);
      if (userEnd === i + 3 || this.at(userEnd) !== 0x3a) continue;
      const passEnd = this.runEnd(userEnd + 1, (c) => !isJsSpace(c) && c !== 0x2f && c !== 0x40);
      if (passEnd > userEnd + 1 && this.at(passEnd) === 0x40) return true;
    }
    return false;
  }

  private assignCache: Int8Array | undefined;

  /** After a key name ending at e (and its closing quote, if any): `\s*[:=]\s*` and a value. Memoized per e. */
  private assignedAt(e: number): boolean {
    const cache = (this.assignCache ??= new Int8Array(this.n + 2));
    if (cache[e] !== 0) return cache[e] === 1;
    let j = e;
    while (isJsSpace(this.at(j))) j++;
    let ok = false;
    if (this.at(j) === 0x3a || this.at(j) === 0x3d) {
      j++;
      while (isJsSpace(this.at(j))) j++;
      const v = this.at(j);
      ok = v >= 0 && v !== 0x2c && v !== 0x3b && v !== 0x7d && v !== 0x5d;
    }
    cache[e] = ok ? 1 : -1;
    return ok;
  }

  /** Ends of the sensitive key names that start at i. */
  private keyEnds(i: number): number[] {
    const ends: number[] = [];
    for (const key of KEY_NAMES) {
      // The first part joins [i] unseparated, so a key whose first part is not at i adds no end;
      // checking that first keeps the scan from allocating for every letter of the text.
      if (!this.lit(i, key.parts[0]!)) continue;
      let positions = [i];
      for (let p = 0; p < key.parts.length; p++) positions = this.joinPart(positions, key.parts[p]!, p > 0);
      ends.push(...positions);
      if (key.tail) {
        let tails = positions;
        for (const part of key.tail) tails = this.joinPart(tails, part, true);
        ends.push(...tails);
      }
    }
    return ends;
  }

  private joinPart(from: number[], part: string, separated: boolean): number[] {
    const out: number[] = [];
    for (const p of from) {
      if (this.lit(p, part)) out.push(p + part.length);
      const s = this.at(p);
      if (separated && (s === 0x5f || s === 0x2d || s === 0x20) && this.lit(p + 1, part)) out.push(p + 1 + part.length);
    }
    return out;
  }

  assignment(): boolean {
    // assignedAt needs a ':' or '=' after the name: text with neither has no assignment.
    if (this.text.indexOf(":") < 0 && this.text.indexOf("=") < 0) return false;
    // ok[q][mode]: a name with a sensitive key starting in the name run at q completes an
    // assignment; mode 0 unquoted, 1 inside "…", 2 inside '…'. Filled right to left.
    const quotes = [-1, 0x22, 0x27];
    const any = [new Uint8Array(this.n + 1), new Uint8Array(this.n + 1), new Uint8Array(this.n + 1)];
    const nameEnd = new Int32Array(this.n + 1);
    nameEnd[this.n] = this.n;
    for (let k = this.n - 1; k >= 0; k--) nameEnd[k] = isNameChar(this.text.charCodeAt(k)) ? nameEnd[k + 1]! : k;
    for (let k = this.n - 1; k >= 0; k--) {
      if (!isNameChar(this.text.charCodeAt(k))) continue;
      const ends = isAlpha(this.text.charCodeAt(k)) ? this.keyEnds(k) : [];
      for (let mode = 0; mode < 3; mode++) {
        let hit = any[mode]![k + 1]!;
        for (const end of ends) {
          if (hit) break;
          const e = nameEnd[end]!;
          if (mode === 0 ? this.assignedAt(e) : this.at(e) === quotes[mode] && this.assignedAt(e + 1)) hit = 1;
        }
        any[mode]![k] = hit;
      }
    }
    let q = 0;
    while (q < this.n) {
      const c = this.text.charCodeAt(q);
      const matches = any[0]![q] === 1 || (c === 0x22 && any[1]![q + 1] === 1) || (c === 0x27 && any[2]![q + 1] === 1);
      if (!matches) { q++; continue; }
      // The filter's own replacement text is the one match it leaves unchanged.
      if (!this.exact(q, IDENTITY_ASSIGNMENT)) return true;
      q += IDENTITY_ASSIGNMENT.length;
    }
    return false;
  }
}

function sextet(c: number, url: boolean): number {
  if (isUpper(c)) return c - 0x41;
  if (isLower(c)) return c - 0x61 + 26;
  if (isDigit(c)) return c - 0x30 + 52;
  if (c === (url ? 0x2d : 0x2b)) return 62;
  if (c === (url ? 0x5f : 0x2f)) return 63;
  return -1;
}

/** Canonical unpadded base64 (or base64url) decoding, as the filter accepts it; undefined otherwise. */
export function decodeCanonicalBase64(text: string, url: boolean): number[] | undefined {
  if (text.length === 0 || text.length % 4 === 1 || text.length > SECRET_TEXT_MAX_UNITS) return undefined;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const v = sextet(text.charCodeAt(i), url);
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  // Leftover bits must be zero, or re-encoding would not give the same text.
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out.length === 0 ? undefined : out;
}

function base64HasColon(text: string, url: boolean): boolean {
  return decodeCanonicalBase64(text, url)?.includes(0x3a) === true;
}

/** The first segment decodes (base64url) to a JSON object whose alg or enc is a non-blank string. */
function hasJoseHeader(segment: string): boolean {
  const bytes = decodeCanonicalBase64(segment, true);
  if (bytes === undefined) return false;
  const json = new TextDecoder("utf-8", { fatal: false }).decode(Uint8Array.from(bytes));
  const members = readJsonObjectStrings(json);
  if (members === undefined) return false;
  return ["alg", "enc"].some((name) => {
    const v = members.get(name);
    return v !== undefined && [...v].some((ch) => !isJsSpace(ch.charCodeAt(0)));
  });
}
