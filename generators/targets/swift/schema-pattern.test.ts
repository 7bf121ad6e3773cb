// The pattern parse the Swift matcher runs on (schema-pattern.ts) against JavaScript's own RegExp
// in u-mode, the engine ajv and the spec's reference verdicts use: every pattern of the spec, and
// hand-picked ones for each construct, walked by a backtracking reading of the parsed nodes (the
// algorithm of runtime/SchemaPattern.swift, whose Swift code XCTest compares with ICU) on strings
// made from an alphabet of the characters patterns single out.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compilePattern, type PatternNode } from "./schema-pattern.js";

function test(alternatives: PatternNode[][], text: string): boolean {
  const s = [...text].map((c) => c.codePointAt(0)!);
  const inClass = (ranges: [number, number][], c: number): boolean => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  const sequence = (nodes: PatternNode[], i: number, pos: number, next: (p: number) => boolean): boolean => {
    if (i === nodes.length) return next(pos);
    const node = nodes[i]!;
    switch (node.kind) {
      case "start":
        return pos === 0 && sequence(nodes, i + 1, pos, next);
      case "end":
        return pos === s.length && sequence(nodes, i + 1, pos, next);
      case "class": {
        let end = pos;
        while (end < s.length && (node.max < 0 || end - pos < node.max) && inClass(node.ranges, s[end]!)) end++;
        if (end - pos < node.min) return false;
        for (; end >= pos + node.min; end--) if (sequence(nodes, i + 1, end, next)) return true;
        return false;
      }
      case "group": {
        const repeated = (count: number, at: number): boolean => {
          if (node.max < 0 || count < node.max) {
            for (const alt of node.alternatives) {
              if (sequence(alt, 0, at, (end) => !(end === at && count >= node.min) && repeated(count + 1, end))) return true;
            }
          }
          return count >= node.min && sequence(nodes, i + 1, at, next);
        };
        return repeated(0, pos);
      }
    }
  };
  for (let start = 0; start <= s.length; start++) for (const alt of alternatives) if (sequence(alt, 0, start, () => true)) return true;
  return false;
}

function specPatterns(): string[] {
  const schemas = readFileSync(join(import.meta.dirname, "../../../generated/swift/Sources/AgentContracts/Schemas.swift"), "utf8");
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "pattern" && typeof x === "string") found.add(x);
        if (k === "patternProperties" && x !== null && typeof x === "object") for (const p of Object.keys(x)) found.add(p);
        walk(x);
      }
    }
  };
  for (const m of schemas.matchAll(/##"(.*)"##/g)) walk(JSON.parse(m[1]!));
  return [...found];
}

const ALPHABET = [..."afgzAFZT0179-_.+/:=~!@#? \n\r\t\u0000\u000b\u001f\u007f\u0085\u00a0\u2028\u3000\ufeffé😀"];

function* strings(seed: number): Generator<string> {
  let state = seed;
  const next = (bound: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % bound;
  };
  for (let n = 0; n < 400; n++) yield Array.from({ length: next(20) }, () => ALPHABET[next(ALPHABET.length)]).join("");
}

/** Strings the nodes describe (each repeat a few times at most), and each with one character changed. */
function samples(alternatives: PatternNode[][], seed: number): string[] {
  let state = seed;
  const next = (bound: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % bound;
  };
  const make = (alts: PatternNode[][]): string => {
    let out = "";
    for (const node of alts[next(alts.length)]!) {
      if (node.kind === "class") {
        const count = node.min + next((node.max < 0 ? node.min + 4 : Math.min(node.max, node.min + 4)) - node.min + 1);
        for (let i = 0; i < count; i++) {
          const [lo, hi] = node.ranges[next(node.ranges.length)]!;
          const code = lo + next(Math.min(hi, lo + 200) - lo + 1);
          out += String.fromCodePoint(code >= 0xd800 && code <= 0xdfff ? lo : code);
        }
      } else if (node.kind === "group") {
        const count = node.min + next((node.max < 0 ? node.min + 3 : Math.min(node.max, node.min + 3)) - node.min + 1);
        for (let i = 0; i < count; i++) out += make(node.alternatives);
      }
    }
    return out;
  };
  const out: string[] = [];
  for (let n = 0; n < 100; n++) {
    const made = [...make(alternatives)];
    out.push(made.join(""));
    const at = next(made.length + 1);
    made.splice(at, next(2), ALPHABET[next(ALPHABET.length)]!);
    out.push(made.join(""));
  }
  return out;
}

const HAND_PICKED: [string, string[]][] = [
  ["^(a|ab)c$", ["ac", "abc", "abbc", "c"]],
  ["^(?:x|)+$", ["", "x", "xx", "y"]],
  ["^[\\d\\-]{2,3}$", ["1-", "12-3", "-", "a1"]],
  ["^\\u{1F600}+$", ["😀", "😀😀", ""]],
  ["^\\ud83d\\ude00$", ["😀", "x"]],
  ["[\\b]", ["\b", "b"]],
  ["^.$", ["\n", "a", "\u2028", "😀"]],
  ["^[^\\S\\n]*\\S[^\\n]*$", [" x", "\n", " \u00a0y z", "x\n"]],
  ["^\\w+\\W\\D\\s$", ["ab!x ", "a_\u00e9x\t", "a b1 "]],
  ["(ab){2}c?$", ["xababc", "ababab", "abc"]],
];

describe("Swift pattern parse against JavaScript RegExp (u-mode)", () => {
  it.each(specPatterns().map((p) => [p]))("%s: the same verdicts as RegExp", (pattern) => {
    const nodes = compilePattern(pattern);
    expect(nodes, "the spec's patterns all run on the matcher").toBeDefined();
    const reference = new RegExp(pattern, "u");
    let matched = 0;
    for (const s of [...strings(pattern.length), ...samples(nodes!, pattern.length)]) {
      expect(test(nodes!, s), JSON.stringify(s)).toBe(reference.test(s));
      if (reference.test(s)) matched++;
    }
    expect(matched, "some strings match").toBeGreaterThan(50);
  });

  it.each(HAND_PICKED)("%s", (pattern, inputs) => {
    const nodes = compilePattern(pattern)!;
    const reference = new RegExp(pattern, "u");
    for (const s of [...inputs, ...strings(7)]) expect(test(nodes, s), JSON.stringify(s)).toBe(reference.test(s));
  });

  it.each(["\\bword", "a(?=b)", "a(?!b)", "(?<=a)b", "(a)\\1", "a+?", "a{2,3}?", "(?<name>a)", "\\p{L}"])("leaves %s to NSRegularExpression (undefined)", (pattern) => {
    expect(compilePattern(pattern)).toBeUndefined();
  });
});
