// Escapes, class ranges, named groups, size limits and samples that the group's tests leave
// loose. Expectations come from ECMA-262 (what a pattern admits under the u flag, as ajv compiles
// it): a hand table of pattern pairs, every separating string re-checked with RegExp itself,
// patterns RegExp refuses checked to be refused before the decider is asked, and samples re-checked
// with RegExp.
import { describe, expect, it } from "vitest";
import { comparePatterns } from "../regex-lang.js";
import { sampleForPattern } from "../regex-sample.js";
import { admits, compiles, expectRelation } from "./pattern-check.js";

// [old, new, old admits strings new refuses?, new admits strings old refuses?], worked out by hand.
const TABLE: [string, string, boolean, boolean][] = [
  // A control escape followed by a digit is still that control character; only \0 is special.
  ["^\\n1$", "^\\x0a1$", false, false],
  // An escaped syntax character followed by "{" or by hex digits is that character: the
  // quantifier or the letters stay what they are (no \u reading of them).
  ["^\\.{2}$", "^[.][.]$", false, false],
  ["^\\.beef$", "^[.]beef$", false, false],
  // \uXXXX\uYYYY is one code point only for a high then a low surrogate (ECMA-262 22.2.1.1).
  ["^\\u0041\\uDC00$", "^A\\u{DC00}$", false, false],
  ["^\\uE000\\uDC00$", "^\\u{E000}\\u{DC00}$", false, false],
  ["^\\uDC00\\uDC00$", "^\\u{DC00}\\u{DC00}$", false, false],
  // "-" escaped as a range end (a ClassEscape under the u flag), and a one-character range.
  ["^[!-\\-]$", "^[!-,\\-]$", false, false],
  ["^[a-a]$", "^a$", false, false],
  // A named group nested in a plain group.
  ["^(a(?<n>b))$", "^ab$", false, false],
  // Only characters below "a" separate (and "", the other way): one of them must still be found.
  ["^[\\0-`]$", "^$", true, true],
  ["^[\\0-`]+$", "^[a-z]+$", true, true],
  // Class escapes and the dot, whose sets the module builds once.
  ["^\\s$", "^[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]$", false, false],
  ["^\\S$", "^[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]$", false, false],
  ["^.$", "^[^\\n\\r\\u2028\\u2029]$", false, false],
  ["^[^a-c]$", "^[^a-b]$", false, true],
];

describe("comparePatterns on escapes and ranges read one character off", () => {
  it.each(TABLE)("%s vs %s", (a, b, oldOnly, newOnly) => {
    expect(compiles(a) && compiles(b)).toBe(true);
    expectRelation(a, b, oldOnly, newOnly);
  });

  // RegExp refuses each under the u flag; a decider that reads them some other way would guess.
  const INVALID = ["\\u{}a{2}", "\\u004", "\\u00gab", "[!-\\d]", "a{xyz{2}"];
  it.each(INVALID)("a pattern ECMA-262 refuses is not decided: %s", (p) => {
    expect(compiles(p), "RegExp refuses it too").toBe(false);
    expect(comparePatterns("^a$", p)).toBeUndefined();
    expect(comparePatterns(p, "^a$")).toBeUndefined();
  });
});

describe("comparePatterns at its size limits", () => {
  // "^(?:a|…k times)$" builds 2 (start, accept) + 1 (the alternation's end) + k states; the
  // automaton may have 4000 states, not one more.
  const alts = (k: number) => `^(?:${Array(k).fill("a").join("|")})$`;

  it("decides a pattern whose automaton has exactly the 4000 states allowed", () => {
    expect(comparePatterns(alts(3997), "^a$")).toEqual({ oldOnly: null, newOnly: null, more: [] });
    expect(comparePatterns("^a$", alts(3997))).toEqual({ oldOnly: null, newOnly: null, more: [] });
  });

  it("leaves undecided a pattern one state past it", () => {
    expect(comparePatterns(alts(3998), "^a$")).toBeUndefined();
  });

  it("leaves undecided a pair whose product has 4001 states, one past the limit", () => {
    // The walk meets the start pair, the 31 x 129 pairs of residues of the a-count (all reached:
    // 31 and 129 are coprime), and the pair both reach on any other character: 4001.
    expect(comparePatterns("^(?:a{31})*$", "^(?:a{129})*$")).toBeUndefined();
  });

  it("decides a pair whose product stays just under the limit, each subset counted once", () => {
    // The b-runs alone give 128 x 31 residue pairs (3968), a few more come from the classes: under
    // 4000 only when a subset of states reached twice, in another order, is known as the same one.
    // By hand: "A" is no "a" and no digit, so only the old admits it; every string the new admits
    // holds a digit or a "b" (the old's [^a]+ takes it) or is empty (the old's b-runs take it).
    const rel = comparePatterns("[^a]+|^(?:b{128})*$", "\\d+|^(?:b{31})*$")!;
    expect(rel).toBeDefined();
    expect(rel.newOnly).toBeNull();
    expect(rel.oldOnly).not.toBeNull();
    expect([admits("[^a]+|^(?:b{128})*$", rel.oldOnly!), admits("\\d+|^(?:b{31})*$", rel.oldOnly!)]).toEqual([true, false]);
  });
});

// Samples: each must match its pattern (ECMA-262, u flag). A \u escape past the pattern's first
// characters, an escaped character followed by hex letters, "not starting with a dot" (a common
// name rule), a lookahead holding a group, a negated class starting with "-", and lookaheads that
// refuse the letters S and D, so a sample for \S or \D must be some other character.
const SAMPLED: string[] = ["^x\\u0041$", "^ab\\u00e9\\u0041$", "^\\.beef$", "^(?!\\.).+$", "^(?!\\.)[a-z.]+$", "^(?=(a))a$", "^[^-a]$", "^(?!S)\\S(?!D)\\D$"];

describe("sampleForPattern on escapes, lookaheads and negated classes", () => {
  it.each(SAMPLED)("%s: the samples match", (p) => {
    for (const v of [0, 1, 2, 3]) {
      const s = sampleForPattern(p, v);
      expect(s, `variant ${v}`).toBeDefined();
      expect(admits(p, s!), `variant ${v}: ${JSON.stringify(s)}`).toBe(true);
    }
  });

  it("a named group it cannot walk gives no sample rather than a wrong one", () => {
    for (const p of ["^(?<n>a(?=b))b$", "^(?<n>a(?!c))b$"]) {
      const s = sampleForPattern(p);
      if (s !== undefined) expect(admits(p, s), JSON.stringify(s)).toBe(true);
    }
  });

  it("the variant cycles through a class's members, an escaped range end counted once", () => {
    // [(-\)] is the range U+0028..U+0029: two members, so variants 0..3 alternate.
    expect([0, 1, 2, 3].map((v) => sampleForPattern("^[(-\\)]$", v))).toEqual(["(", ")", "(", ")"]);
  });
});
