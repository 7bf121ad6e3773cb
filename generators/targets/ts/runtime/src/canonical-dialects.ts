// The non-RFC 8785 JSON writers that real agent-provider implementations hash with (the
// divergences that carry a `canonicalization` entry in spec/agent-provider/protocol.yaml). They
// exist only to explain a failed signature: nothing here is ever used to accept one.
//
// A dialect works on the received text, not on parsed values, because the platforms differ in
// what a number token is (serde_json keeps `12.0` a float and `12` an integer; org.json 20240303
// keeps `1E+21` a BigDecimal), which a parsed double has forgotten.

import { serializeNumber } from "./canonical-json.js";

/** One recorded canonicalization dialect (spec/meta/message.schema.json Divergence.canonicalization). */
export interface CanonicalizationDialect {
  /** The divergence that records it; printed as the diagnosis. */
  divergence: string;
  name: string;
  /** How number tokens are written (see formatNumberToken). */
  numbers: "rfc8785" | "serde-json" | "java-double" | "java-bigdecimal";
  /** serde_json 1.0.154 writes `1e+21`, 1.0.140 `1e21`. */
  exponentPlus?: boolean;
  /** Alternatives tried for integer tokens: as their digits, or as the double a signer held (12 -> 12.0). */
  integerTokens: ("exact" | "double")[];
  keyOrder: "utf16" | "code-point";
  /** "/" as "\/": never, always (AOSP org.json), or only after "<" (org.json 20240303). */
  escapeSlash: "none" | "all" | "after-lt";
  /** Inclusive code point ranges written as \uxxxx (org.json 20240303: C1 controls, U+2000-U+20FF). */
  escapeRanges: [number, number][];
  duplicateKeys: "last-wins" | "reject";
  /** A hashed field that is absent: no signing input, or hashed as the text null (the Rust host's serde default). */
  absentHashedField?: "refuse" | "null";
}

/** JSON text as tokens: numbers keep their lexeme, objects keep every member in order. */
export type LexValue =
  | { t: "num"; lexeme: string }
  | { t: "str"; value: string }
  | { t: "lit"; value: "true" | "false" | "null" }
  | { t: "arr"; items: LexValue[] }
  | { t: "obj"; members: [string, LexValue][] };

const MAX_DEPTH = 64;

/** Parses JSON text keeping number lexemes and duplicate members; null when it is not JSON. */
export function parseLexical(text: string): LexValue | null {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const str = (): string | null => {
    if (text[i] !== '"') return null;
    i++;
    let out = "";
    while (i < text.length) {
      const c = text[i++] as string;
      if (c === '"') return out;
      if (c === "\\") {
        const e = text[i++];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e !== undefined && e in simple) out += simple[e];
        else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
          out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
          i += 4;
        } else return null;
      } else if (c < " ") return null;
      else out += c;
    }
    return null;
  };
  // RFC 8259's number, scanned in one pass whatever its length (the Kotlin and Swift readers take
  // any length too, so a 400-digit integer gets the same diagnosis in every language).
  const isDigit = (at: number): boolean => text[at] !== undefined && text[at]! >= "0" && text[at]! <= "9";
  const digits = (): number => {
    const from = i;
    while (isDigit(i)) i++;
    return i - from;
  };
  const numberToken = (): string | null => {
    const start = i;
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else if (digits() === 0) return ((i = start), null);
    if (text[i] === "." && (i++, digits() === 0)) return ((i = start), null);
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (digits() === 0) return ((i = start), null);
    }
    return text.slice(start, i);
  };
  const value = (depth: number): LexValue | null => {
    if (depth > MAX_DEPTH) return null;
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      const object = c === "{";
      const members: [string, LexValue][] = [];
      const items: LexValue[] = [];
      ws();
      if (text[i] === (object ? "}" : "]")) {
        i++;
        return object ? { t: "obj", members } : { t: "arr", items };
      }
      for (;;) {
        ws();
        let key = "";
        if (object) {
          const k = str();
          if (k === null) return null;
          key = k;
          ws();
          if (text[i++] !== ":") return null;
        }
        const v = value(depth + 1);
        if (v === null) return null;
        if (object) members.push([key, v]);
        else items.push(v);
        ws();
        const sep = text[i++];
        if (sep === ",") continue;
        if (sep === (object ? "}" : "]")) return object ? { t: "obj", members } : { t: "arr", items };
        return null;
      }
    }
    if (c === '"') {
      const s = str();
      return s === null ? null : { t: "str", value: s };
    }
    const lexeme = numberToken();
    if (lexeme !== null) return { t: "num", lexeme };
    for (const literal of ["true", "false", "null"] as const) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return { t: "lit", value: literal };
      }
    }
    return null;
  };
  const result = value(0);
  ws();
  return result !== null && i === text.length ? result : null;
}

/** The shortest round-trip digits of a finite non-zero double and the position of its decimal point. */
function shortestDigits(x: number): { digits: string; point: number } {
  const [mantissa, exponent] = Math.abs(x).toExponential().split("e") as [string, string];
  return { digits: mantissa.replace(".", ""), point: Number(exponent) + 1 };
}

// serde_json formats f64 with ryu's layout: plain up to 16 integer digits, 0.000ddd down to
// four zeros, otherwise d.ddde<exp>.
function ryuLayout(x: number, plus: boolean): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, point } = shortestDigits(x);
  const n = digits.length;
  if (point >= n && point <= 16) return sign + digits + "0".repeat(point - n) + ".0";
  if (point > 0 && point <= 16) return sign + digits.slice(0, point) + "." + digits.slice(point);
  if (point > -5 && point <= 0) return sign + "0." + "0".repeat(-point) + digits;
  const exp = point - 1;
  const e = "e" + (plus && exp > 0 ? "+" : "") + exp;
  return sign + digits[0] + (n > 1 ? "." + digits.slice(1) : "") + e;
}

/** Java Double.toString (shortest digits, as JDK 19+): plain in [1e-3, 1e7), else d.dddEn. */
export function javaDoubleToString(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, point } = shortestDigits(x);
  const n = digits.length;
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    if (point <= 0) return sign + "0." + "0".repeat(-point) + digits;
    if (point >= n) return sign + digits + "0".repeat(point - n) + ".0";
    return sign + digits.slice(0, point) + "." + digits.slice(point);
  }
  return sign + digits[0] + "." + (n > 1 ? digits.slice(1) : "0") + "E" + (point - 1);
}

/** Java new BigDecimal(token).toString(): plain when the scale is >= 0 and the exponent >= -6. */
export function javaBigDecimalToString(lexeme: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  if (!m) return lexeme;
  const [, sign, int, frac = "", exp = "0"] = m as unknown as [string, string, string, string | undefined, string | undefined];
  const unscaled = (int + frac).replace(/^0+(?=\d)/, "");
  const scale = frac.length - Number(exp);
  const adjusted = -scale + (unscaled.length - 1);
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) return sign + unscaled;
    const padded = unscaled.padStart(scale + 1, "0");
    return sign + padded.slice(0, padded.length - scale) + "." + padded.slice(padded.length - scale);
  }
  return sign + unscaled[0] + (unscaled.length > 1 ? "." + unscaled.slice(1) : "") + "E" + (adjusted >= 0 ? "+" : "") + adjusted;
}

const isIntegerToken = (lexeme: string): boolean => /^-?\d+$/.test(lexeme);
const fitsLong = (lexeme: string): boolean => BigInt(lexeme) >= -(2n ** 63n) && BigInt(lexeme) < 2n ** 63n;
const fitsSerdeInteger = (lexeme: string): boolean => BigInt(lexeme) >= -(2n ** 63n) && BigInt(lexeme) < 2n ** 64n;

/**
 * How `dialect` writes one number token, or null when it would have to write an infinite double (a
 * token past the double range, e.g. 1e400): no platform writer produces that text, so the dialect
 * is not tried rather than compared with made-up bytes.
 */
export function formatNumberToken(lexeme: string, dialect: CanonicalizationDialect, integers: "exact" | "double"): string | null {
  const value = Number(lexeme);
  const integer = isIntegerToken(lexeme);
  const double = (layout: (x: number) => string): string | null => (Number.isFinite(value) ? layout(value) : null);
  switch (dialect.numbers) {
    case "rfc8785":
      return double(serializeNumber);
    case "serde-json":
      // serde_json reads "-0" as the float -0.0; other integer tokens in i64/u64 stay integers.
      if (integer && lexeme !== "-0" && fitsSerdeInteger(lexeme)) return BigInt(lexeme).toString();
      return double((x) => ryuLayout(x, dialect.exponentPlus === true));
    case "java-double":
      if (integer && integers === "exact" && fitsLong(lexeme)) return BigInt(lexeme).toString();
      return double(javaDoubleToString);
    case "java-bigdecimal":
      // org.json 20240303 keeps -0 as the double -0.0, integers as Integer/Long/BigInteger, decimals as BigDecimal.
      if (integer && lexeme === "-0") return "-0.0";
      if (integer) return integers === "exact" ? BigInt(lexeme).toString() : double(javaDoubleToString);
      if (value === 0 && lexeme.startsWith("-")) return "-0.0";
      return javaBigDecimalToString(lexeme);
  }
}

function quote(s: string, dialect: CanonicalizationDialect): string {
  let out = '"';
  const short: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    const code = c.charCodeAt(0);
    if (c in short) out += short[c];
    else if (code < 0x20 || dialect.escapeRanges.some(([lo, hi]) => code >= lo && code <= hi)) out += "\\u" + code.toString(16).padStart(4, "0");
    else if (c === "/" && (dialect.escapeSlash === "all" || (dialect.escapeSlash === "after-lt" && s[i - 1] === "<"))) out += "\\/";
    else out += c;
  }
  return out + '"';
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The bytes `dialect` would hash for `value`, or null when the dialect refuses it (duplicate keys). */
export function renderDialect(value: LexValue, dialect: CanonicalizationDialect, integers: "exact" | "double"): string | null {
  switch (value.t) {
    case "num":
      return formatNumberToken(value.lexeme, dialect, integers);
    case "str":
      return quote(value.value, dialect);
    case "lit":
      return value.value;
    case "arr": {
      const items: string[] = [];
      for (const item of value.items) {
        const text = renderDialect(item, dialect, integers);
        if (text === null) return null;
        items.push(text);
      }
      return "[" + items.join(",") + "]";
    }
    case "obj": {
      const members = new Map<string, LexValue>();
      for (const [key, member] of value.members) {
        if (members.has(key) && dialect.duplicateKeys === "reject") return null;
        members.delete(key);
        members.set(key, member);
      }
      const keys = [...members.keys()].sort(dialect.keyOrder === "utf16" ? (a, b) => (a < b ? -1 : a > b ? 1 : 0) : compareCodePoints);
      const parts: string[] = [];
      for (const key of keys) {
        const text = renderDialect(members.get(key)!, dialect, integers);
        if (text === null) return null;
        parts.push(quote(key, dialect) + ":" + text);
      }
      return "{" + parts.join(",") + "}";
    }
  }
}
