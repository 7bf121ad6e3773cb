// Decides whether one JSON Schema `pattern` admits every string another admits, for the regular
// subset specs use: literals, escapes, classes, groups, alternation, quantifiers, and `^`/`$` at
// the ends of a top-level alternative. Patterns are ECMA-262 with the `u` flag (as ajv compiles
// them) and unanchored, as JSON Schema says: `a` admits every string containing "a".
//
// Both patterns become NFAs over code-point intervals; a breadth-first walk of their product
// (subset construction on the fly) finds, in each direction, the shortest string one admits and
// the other refuses, or proves there is none. Anything outside the subset (lookaround, a back
// reference, \b) or over the size limits answers `undefined`: not decided, never a guess.

type Interval = [number, number];
type CharSet = Interval[];
type Node = { t: "set"; s: CharSet } | { t: "cat"; xs: Node[] } | { t: "alt"; xs: Node[] } | { t: "rep"; x: Node; min: number; max: number };

const MAX_CP = 0x10ffff;
const MAX_NFA_STATES = 4000;
const MAX_PRODUCT_STATES = 4000;

class Unsupported extends Error {}

function normalize(set: CharSet): CharSet {
  const sorted = [...set].sort((a, b) => a[0] - b[0]);
  const out: CharSet = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: CharSet = [];
  let next = 0;
  for (const [lo, hi] of normalize(set)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

const chars = (s: string): CharSet => [...s].map((c) => [c.codePointAt(0)!, c.codePointAt(0)!] as Interval);
// ECMA-262 WhiteSpace and LineTerminator: what \s matches.
const SPACE: CharSet = normalize([...chars("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"), [0x2000, 0x200a]]);
const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = normalize([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
const DOT: CharSet = complement(chars("\n\r\u2028\u2029"));
const ANY: CharSet = [[0, MAX_CP]];
const CLASS_ESCAPES: Record<string, CharSet> = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0 };

/** Parses a pattern into its top-level alternatives, each with whether it is anchored at each end. */
function parse(p: string): { body: Node; start: boolean; end: boolean }[] {
  let i = 0;
  const escape = (inClass: boolean): CharSet => {
    const e = p[i++];
    if (e === undefined) throw new Unsupported();
    if (CLASS_ESCAPES[e]) return CLASS_ESCAPES[e]!;
    if (CONTROL_ESCAPES[e] !== undefined && !(e === "0" && /[0-9]/.test(p[i] ?? ""))) return [[CONTROL_ESCAPES[e]!, CONTROL_ESCAPES[e]!]];
    if (e === "x" && /^[0-9a-fA-F]{2}/.test(p.slice(i))) return single(parseInt(p.slice(i, (i += 2)), 16));
    if (e === "u" && p[i] === "{") {
      const m = /^\{([0-9a-fA-F]{1,6})\}/.exec(p.slice(i));
      if (!m) throw new Unsupported();
      i += m[0].length;
      return single(parseInt(m[1]!, 16));
    }
    if (e === "u" && /^[0-9a-fA-F]{4}/.test(p.slice(i))) {
      const hi = parseInt(p.slice(i, (i += 4)), 16);
      // A surrogate pair written as two \u escapes is one code point under the u flag.
      if (hi >= 0xd800 && hi <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(p.slice(i))) {
        const lo = parseInt(p.slice(i + 2, i + 6), 16);
        i += 6;
        return single(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
      }
      return single(hi);
    }
    if (inClass && e === "-") return single(0x2d);
    // Under the u flag only syntax characters (and "/") may be escaped as themselves.
    if ("^$\\.*+?()[]{}|/".includes(e)) return single(e.codePointAt(0)!);
    throw new Unsupported(); // \b, \B, back references, \c, \p{...}
  };
  const single = (cp: number): CharSet => [[cp, cp]];
  const readChar = (): number => {
    const cp = p.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    return cp;
  };
  const parseClass = (): CharSet => {
    const negated = p[i] === "^";
    if (negated) i++;
    const out: CharSet = [];
    while (i < p.length && p[i] !== "]") {
      const first = p[i] === "\\" ? (i++, escape(true)) : single(readChar());
      if (p[i] === "-" && p[i + 1] !== "]" && i + 1 < p.length) {
        // A class escape cannot start a range under the u flag ([\d-z] is a SyntaxError).
        if (first.length !== 1 || first[0]![0] !== first[0]![1]) throw new Unsupported();
        i++;
        const last = p[i] === "\\" ? (i++, escape(true)) : single(readChar());
        if (last.length !== 1 || last[0]![0] !== last[0]![1] || last[0]![0] < first[0]![0]) throw new Unsupported();
        out.push([first[0]![0], last[0]![0]]);
      } else out.push(...first);
    }
    if (p[i] !== "]") throw new Unsupported();
    i++;
    return negated ? complement(out) : normalize(out);
  };
  const parseAtom = (): Node => {
    const c = p[i]!;
    if (c === "(") {
      i++;
      if (p.startsWith("?:", i)) i += 2;
      else if (/^\?<[A-Za-z_$][\w$]*>/.test(p.slice(i))) i = p.indexOf(">", i) + 1;
      else if (p[i] === "?") throw new Unsupported(); // lookaround
      const inner = parseAlt(false);
      if (p[i] !== ")") throw new Unsupported();
      i++;
      return inner;
    }
    if (c === "[") {
      i++;
      return { t: "set", s: parseClass() };
    }
    if (c === ".") {
      i++;
      return { t: "set", s: DOT };
    }
    if (c === "\\") {
      i++;
      return { t: "set", s: escape(false) };
    }
    if ("*+?{}])|".includes(c)) throw new Unsupported();
    return { t: "set", s: single(readChar()) };
  };
  const parseQuantified = (): Node => {
    const x = parseAtom();
    let min = 1;
    let max = 1;
    const c = p[i];
    if (c === "*" || c === "+" || c === "?") {
      i++;
      [min, max] = c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1];
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (!m) throw new Unsupported();
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) throw new Unsupported();
    } else return x;
    if (p[i] === "?") i++; // lazy: the same language
    return { t: "rep", x, min, max };
  };
  const parseSeq = (top: boolean): { body: Node; start: boolean; end: boolean } => {
    const xs: Node[] = [];
    let start = false;
    let end = false;
    while (i < p.length && p[i] !== "|" && p[i] !== ")") {
      if (p[i] === "^" || p[i] === "$") {
        // Anchors only at the ends of a top-level alternative.
        const isStart = p[i] === "^";
        i++;
        const atEnd = i >= p.length || p[i] === "|" || p[i] === ")";
        if (!top || (isStart ? xs.length > 0 || start : !atEnd)) throw new Unsupported();
        if (isStart) start = true;
        else end = true;
        continue;
      }
      xs.push(parseQuantified());
    }
    return { body: { t: "cat", xs }, start, end };
  };
  function parseAlt(top: true): { body: Node; start: boolean; end: boolean }[];
  function parseAlt(top: false): Node;
  function parseAlt(top: boolean): Node | { body: Node; start: boolean; end: boolean }[] {
    const alts = [parseSeq(top)];
    while (p[i] === "|") {
      i++;
      alts.push(parseSeq(top));
    }
    return top ? alts : { t: "alt", xs: alts.map((a) => a.body) };
  }
  const alts = parseAlt(true);
  if (i !== p.length) throw new Unsupported();
  return alts;
}

/** Thompson NFA: edges on a char set, or epsilon (set undefined). */
class Nfa {
  edges: { set?: CharSet; to: number }[][] = [];
  add(): number {
    if (this.edges.length >= MAX_NFA_STATES) throw new Unsupported();
    this.edges.push([]);
    return this.edges.length - 1;
  }
  /** Builds `node` from state `from`; returns the state it ends in. */
  build(node: Node, from: number): number {
    switch (node.t) {
      case "set": {
        const to = this.add();
        this.edges[from]!.push({ set: node.s, to });
        return to;
      }
      case "cat":
        return node.xs.reduce((s, x) => this.build(x, s), from);
      case "alt": {
        const to = this.add();
        for (const x of node.xs) this.edges[this.build(x, from)]!.push({ to });
        if (node.xs.length === 0) this.edges[from]!.push({ to });
        return to;
      }
      case "rep": {
        let s = from;
        for (let k = 0; k < node.min; k++) s = this.build(node.x, s);
        if (node.max === Infinity) {
          const loop = this.add();
          this.edges[s]!.push({ to: loop });
          this.edges[this.build(node.x, loop)]!.push({ to: loop });
          return loop;
        }
        const to = this.add();
        for (let k = node.min; k < node.max; k++) {
          this.edges[s]!.push({ to });
          s = this.build(node.x, s);
        }
        this.edges[s]!.push({ to });
        return to;
      }
    }
  }
}

function compile(pattern: string): { nfa: Nfa; start: number; accept: number } {
  const nfa = new Nfa();
  const start = nfa.add();
  const accept = nfa.add();
  const anyStar: Node = { t: "rep", x: { t: "set", s: ANY }, min: 0, max: Infinity };
  for (const alt of parse(pattern)) {
    // Unanchored ends admit anything around the match, as a JSON Schema pattern does.
    const body: Node = { t: "cat", xs: [...(alt.start ? [] : [anyStar]), alt.body, ...(alt.end ? [] : [anyStar])] };
    nfa.edges[nfa.build(body, start)]!.push({ to: accept });
  }
  return { nfa, start, accept };
}

function closure(nfa: Nfa, states: Iterable<number>): number[] {
  const seen = new Set<number>(states);
  const stack = [...seen];
  while (stack.length > 0) for (const e of nfa.edges[stack.pop()!]!) if (!e.set && !seen.has(e.to)) (seen.add(e.to), stack.push(e.to));
  return [...seen].sort((a, b) => a - b);
}

function step(nfa: Nfa, states: number[], cp: number): number[] {
  const next: number[] = [];
  for (const s of states) for (const e of nfa.edges[s]!) if (e.set && e.set.some(([lo, hi]) => cp >= lo && cp <= hi)) next.push(e.to);
  return closure(nfa, next);
}

/** One representative code point per class of characters no set tells apart, readable ones first. */
function alphabet(nfas: Nfa[]): number[] {
  const cuts = new Set<number>([0, MAX_CP + 1]);
  for (const nfa of nfas) for (const list of nfa.edges) for (const e of list) for (const [lo, hi] of e.set ?? []) cuts.add(lo).add(hi + 1);
  const bounds = [...cuts].sort((a, b) => a - b);
  const preferred = [..."a0A -_.x"].map((c) => c.codePointAt(0)!);
  const out: number[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const lo = bounds[k]!;
    const hi = bounds[k + 1]! - 1;
    out.push(preferred.find((cp) => cp >= lo && cp <= hi) ?? (lo < 0x20 && hi >= 0x21 ? 0x21 : lo));
  }
  // The walk tries symbols in this order, so separating strings use readable characters first.
  const rank = (cp: number) => (preferred.includes(cp) ? preferred.indexOf(cp) : cp >= 0x21 && cp <= 0x7e ? 100 : 200);
  return out.sort((x, y) => rank(x) - rank(y) || x - y);
}

export interface PatternRelation {
  /** The shortest string the old pattern admits and the new refuses; null: there is none. */
  oldOnly: string | null;
  /** The shortest string the new pattern admits and the old refuses; null: there is none. */
  newOnly: string | null;
  /** A few more separating strings (longer ones too, for schemas that also bound the length). */
  more: string[];
}

/** How two patterns' languages relate, or undefined when either is outside the subset or too large. */
export function comparePatterns(oldPattern: string, newPattern: string): PatternRelation | undefined {
  try {
    const a = compile(oldPattern);
    const b = compile(newPattern);
    const sigma = alphabet([a.nfa, b.nfa]);
    const startA = closure(a.nfa, [a.start]);
    const startB = closure(b.nfa, [b.start]);
    const key = (x: number[], y: number[]) => `${x.join(",")}|${y.join(",")}`;
    const seen = new Map<string, { x: number[]; y: number[]; path: string }>([[key(startA, startB), { x: startA, y: startB, path: "" }]]);
    const queue = [seen.get(key(startA, startB))!];
    const result: PatternRelation = { oldOnly: null, newOnly: null, more: [] };
    for (let q = 0; q < queue.length; q++) {
      const { x, y, path } = queue[q]!;
      const inA = x.includes(a.accept);
      const inB = y.includes(b.accept);
      if (inA !== inB) {
        if (inA && result.oldOnly === null) result.oldOnly = path;
        else if (inB && result.newOnly === null) result.newOnly = path;
        else if (result.more.length < 6) result.more.push(path);
      }
      for (const cp of sigma) {
        const nx = step(a.nfa, x, cp);
        const ny = step(b.nfa, y, cp);
        const k = key(nx, ny);
        if (seen.has(k)) continue;
        if (seen.size >= MAX_PRODUCT_STATES) return undefined;
        const entry = { x: nx, y: ny, path: path + String.fromCodePoint(cp) };
        seen.set(k, entry);
        queue.push(entry);
      }
    }
    return result;
  } catch (error) {
    if (error instanceof Unsupported || error instanceof RangeError) return undefined;
    throw error;
  }
}
