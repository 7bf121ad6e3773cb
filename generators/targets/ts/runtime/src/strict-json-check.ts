// The strict parser's fast path: JSON.parse builds the value natively, then one scan of the text
// and one walk of the value establish what JSON.parse does not check (duplicate member names,
// escaped lone surrogates, nesting depth, I-JSON integers, numbers that overflow, -0). Whenever
// either is not certain the document passes, the caller runs the character-by-character parser,
// which gives the verdict and every error offset; this file only ever says "it passes".

/** Nesting past this is left to the stepwise parser, so the walk's recursion stays shallow. */
export const FAST_PATH_MAX_DEPTH = 512;

const TWO_53 = 9007199254740992;

/**
 * `value` is JSON.parse(text) and text is known to be valid JSON. Returns the value as the strict
 * parser would (-0 made 0), or undefined when the stepwise parser must decide.
 */
export function checkedParse(text: string, value: unknown, maxDepth: number): unknown {
  const members = scanText(text, maxDepth);
  if (members < 0) return undefined;
  const walk: Walk = { keys: 0, unsure: false };
  visit(value, walk);
  // JSON.parse keeps the last of repeated names, so a document with a duplicate has fewer own
  // keys in its objects than member separators in its text.
  if (walk.unsure || walk.keys !== members) return undefined;
  if (typeof value === "number") return value === 0 ? 0 : value;
  return value;
}

/**
 * One pass over valid JSON text: the number of members (':' outside strings), or -1 when nesting
 * goes past maxDepth or a string holds a \u escape of a surrogate that is not a proper pair.
 */
function scanText(text: string, maxDepth: number): number {
  const n = text.length;
  let members = 0;
  let depth = 0;
  let backslash = text.indexOf("\\");
  if (backslash < 0) backslash = n;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      if (backslash < end) {
        end = escapedStringEnd(text, i + 1);
        if (end < 0) return -1;
        backslash = text.indexOf("\\", end);
        if (backslash < 0) backslash = n;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x3a) members++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return -1;
    } else if (c === 0x7d || c === 0x5d) depth--;
    i++;
  }
  return members;
}

/** The index of the closing quote of a string with escapes that starts at `from`; -1 for a lone surrogate escape. */
function escapedStringEnd(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    if (text.charCodeAt(i + 1) !== 0x75) {
      i += 2;
      continue;
    }
    const unit = hex4(text, i + 2);
    if (unit >= 0xdc00 && unit <= 0xdfff) return -1;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.charCodeAt(i + 6) === 0x5c && text.charCodeAt(i + 7) === 0x75 ? hex4(text, i + 8) : -1;
      if (low < 0xdc00 || low > 0xdfff) return -1;
      i += 12;
    } else i += 6;
  }
}

function hex4(text: string, at: number): number {
  return parseInt(text.slice(at, at + 4), 16);
}

interface Walk {
  keys: number;
  unsure: boolean;
}

/** Counts own keys, makes -0 members 0, and is unsure of numbers the stepwise parser must judge. */
function visit(value: unknown, walk: Walk): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null) visit(item, walk);
      else if (typeof item === "number" && !numberIsSure(item)) {
        if (item === 0) value[i] = 0;
        else walk.unsure = true;
      }
    }
    return;
  }
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number" && value !== 0 && !numberIsSure(value)) walk.unsure = true;
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  walk.keys += keys.length;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const item = record[key];
    if (typeof item === "object" && item !== null) visit(item, walk);
    else if (typeof item === "number" && !numberIsSure(item)) {
      if (item === 0) record[key] = 0;
      else walk.unsure = true;
    }
  }
}

/**
 * True when the number certainly came from a literal the strict parser accepts as is: finite,
 * not -0, and below 2^53 in magnitude (an integer literal that big may not be exact; a double
 * that small always is, since rounding never crosses 2^53).
 */
function numberIsSure(n: number): boolean {
  return n < TWO_53 && n > -TWO_53 && (n !== 0 || 1 / n > 0);
}
