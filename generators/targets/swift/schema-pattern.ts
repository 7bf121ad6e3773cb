// ECMAScript `u`-mode patterns (what JSON Schema `pattern` means) as data for the Swift runtime's
// backtracking matcher (runtime/SchemaPattern.swift), so a generated validator tests a string
// without NSRegularExpression (on Linux each call bridges the string to UTF-16 and costs
// microseconds). Handled: literals, escapes, classes (ranges, negation, \d \w \s and their
// complements), `.`, groups and non-capturing groups, alternation, greedy quantifiers, `^` and `$`.
// Anything else (lookarounds, \b, backreferences, lazy quantifiers, flags) gives undefined: that
// pattern stays on NSRegularExpression, as the interpreter runs every pattern. Classes become
// sorted code point ranges here, so the Swift side only compares numbers.

export type PatternNode =
  | { kind: "start" }
  | { kind: "end" }
  | { kind: "class"; ranges: [number, number][]; min: number; max: number }
  | { kind: "group"; alternatives: PatternNode[][]; min: number; max: number };

const MAX_CODE_POINT = 0x10ffff;
/** Unbounded repetition (`*`, `+`, `{n,}`). */
export const UNBOUNDED = -1;

const DIGIT: [number, number][] = [[0x30, 0x39]];
const WORD: [number, number][] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// ECMAScript WhiteSpace and LineTerminator.
const SPACE: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: [number, number][] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

function normalize(ranges: readonly [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

class Unsupported extends Error {}

class Parser {
  private i = 0;
  private readonly chars: string[];

  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  parse(): PatternNode[][] {
    const alternatives = this.alternation();
    if (this.i !== this.chars.length) throw new Unsupported(`unexpected ${this.chars[this.i]}`);
    return alternatives;
  }

  private peek(): string | undefined {
    return this.chars[this.i];
  }

  private alternation(): PatternNode[][] {
    const alternatives = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      alternatives.push(this.sequence());
    }
    return alternatives;
  }

  private sequence(): PatternNode[] {
    const nodes: PatternNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      if (c === "^" || c === "$") {
        this.i++;
        nodes.push({ kind: c === "^" ? "start" : "end" });
        continue;
      }
      const atom = this.atom();
      const [min, max] = this.quantifier();
      if (atom.kind === "class") nodes.push({ ...atom, min, max });
      else nodes.push({ kind: "group", alternatives: atom.alternatives, min, max });
    }
    return nodes;
  }

  private quantifier(): [number, number] {
    const c = this.peek();
    let bounds: [number, number] = [1, 1];
    if (c === "*") bounds = [0, UNBOUNDED];
    else if (c === "+") bounds = [1, UNBOUNDED];
    else if (c === "?") bounds = [0, 1];
    else if (c === "{") {
      const rest = this.chars.slice(this.i).join("");
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (m === null) throw new Unsupported("a lone {");
      this.i += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? UNBOUNDED : Number(m[3]);
      if (max !== UNBOUNDED && max < min) throw new Unsupported("numbers out of order in {}");
      bounds = [min, max];
      if (this.peek() === "?") throw new Unsupported("lazy quantifier");
      return bounds;
    } else return bounds;
    this.i++;
    if (this.peek() === "?") throw new Unsupported("lazy quantifier");
    return bounds;
  }

  private atom(): { kind: "class"; ranges: [number, number][] } | { kind: "group"; alternatives: PatternNode[][] } {
    const c = this.chars[this.i++]!;
    if (c === "(") {
      if (this.peek() === "?") {
        if (this.chars[this.i + 1] !== ":") throw new Unsupported("lookaround or named group");
        this.i += 2;
      }
      const alternatives = this.alternation();
      if (this.chars[this.i++] !== ")") throw new Unsupported("unclosed group");
      return { kind: "group", alternatives };
    }
    if (c === "[") return { kind: "class", ranges: this.characterClass() };
    if (c === ".") return { kind: "class", ranges: complement(LINE_TERMINATORS) };
    if (c === "\\") return { kind: "class", ranges: this.escape(false) };
    if (SYNTAX.has(c) && c !== "/") throw new Unsupported(`unexpected ${c}`);
    const code = c.codePointAt(0)!;
    return { kind: "class", ranges: [[code, code]] };
  }

  /** After `\`: the code points the escape stands for. */
  private escape(inClass: boolean): [number, number][] {
    const c = this.chars[this.i++];
    if (c === undefined) throw new Unsupported("trailing \\");
    const one = (code: number): [number, number][] => [[code, code]];
    switch (c) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "n":
        return one(0x0a);
      case "r":
        return one(0x0d);
      case "t":
        return one(0x09);
      case "f":
        return one(0x0c);
      case "v":
        return one(0x0b);
      case "0":
        if (/[0-9]/.test(this.peek() ?? "")) throw new Unsupported("octal escape");
        return one(0);
      case "b":
        if (inClass) return one(0x08);
        throw new Unsupported("word boundary");
      case "-":
        if (inClass) return one(0x2d);
        throw new Unsupported("\\- outside a class");
      case "x": {
        const hex = this.chars.slice(this.i, this.i + 2).join("");
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Unsupported("bad \\x");
        this.i += 2;
        return one(parseInt(hex, 16));
      }
      case "u": {
        if (this.peek() === "{") {
          const rest = this.chars.slice(this.i).join("");
          const m = /^\{([0-9A-Fa-f]{1,6})\}/.exec(rest);
          if (m === null || parseInt(m[1]!, 16) > MAX_CODE_POINT) throw new Unsupported("bad \\u{}");
          this.i += m[0].length;
          return one(parseInt(m[1]!, 16));
        }
        const hex = this.chars.slice(this.i, this.i + 4).join("");
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw new Unsupported("bad \\u");
        this.i += 4;
        const code = parseInt(hex, 16);
        // A surrogate pair written as two escapes is one code point in u-mode.
        if (code >= 0xd800 && code <= 0xdbff && this.chars[this.i] === "\\" && this.chars[this.i + 1] === "u") {
          const low = this.chars.slice(this.i + 2, this.i + 6).join("");
          const lowCode = /^[0-9A-Fa-f]{4}$/.test(low) ? parseInt(low, 16) : 0;
          if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
            this.i += 6;
            return one(0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00));
          }
        }
        if (code >= 0xd800 && code <= 0xdfff) throw new Unsupported("lone surrogate");
        return one(code);
      }
      default:
        if (SYNTAX.has(c)) return one(c.codePointAt(0)!);
        throw new Unsupported(`escape \\${c}`);
    }
  }

  private characterClass(): [number, number][] {
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.i++;
    }
    const ranges: [number, number][] = [];
    const classAtom = (): [number, number][] => {
      const c = this.chars[this.i++];
      if (c === undefined) throw new Unsupported("unclosed class");
      if (c === "\\") return this.escape(true);
      const code = c.codePointAt(0)!;
      return [[code, code]];
    };
    while (this.peek() !== "]") {
      const from = classAtom();
      if (this.peek() === "-" && this.chars[this.i + 1] !== "]" && this.chars[this.i + 1] !== undefined) {
        this.i++;
        const to = classAtom();
        if (from.length !== 1 || to.length !== 1 || from[0]![0] !== from[0]![1] || to[0]![0] !== to[0]![1]) throw new Unsupported("class escape in a range");
        if (to[0]![0] < from[0]![0]) throw new Unsupported("range out of order");
        ranges.push([from[0]![0], to[0]![0]]);
      } else ranges.push(...from);
    }
    this.i++;
    return negated ? complement(ranges) : normalize(ranges);
  }
}

/** The pattern as matcher data, or undefined when it uses what the Swift matcher does not implement. */
export function compilePattern(pattern: string): PatternNode[][] | undefined {
  try {
    return new Parser(pattern).parse();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function nodeLiteral(node: PatternNode): string {
  switch (node.kind) {
    case "start":
      return ".start";
    case "end":
      return ".end";
    case "class":
      return `.scalars(PatternClass([${node.ranges.flat().map((n) => `0x${n.toString(16)}`).join(", ")}]), min: ${node.min}, max: ${node.max})`;
    case "group":
      return `.group([${node.alternatives.map(sequenceLiteral).join(", ")}], min: ${node.min}, max: ${node.max})`;
  }
}

function sequenceLiteral(nodes: PatternNode[]): string {
  return `[${nodes.map(nodeLiteral).join(", ")}]`;
}

/** The Swift expression of type [[PatternNode]] for compiled alternatives. */
export function patternLiteral(alternatives: PatternNode[][]): string {
  return `[${alternatives.map(sequenceLiteral).join(", ")}]`;
}
