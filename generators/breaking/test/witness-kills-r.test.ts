// Pattern constructs, limits and samples the group's tests do not reach. Expectations come from
// ECMA-262 (what a pattern admits under the u flag, as ajv compiles it): a hand table of pattern
// pairs, every separating string re-checked with RegExp itself, and patterns ECMA-262 refuses to
// compile checked to be refused by RegExp too before the decider is asked about them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparePatterns } from "../regex-lang.js";
import { sampleForPattern } from "../regex-sample.js";
import { compareRoots } from "../compare.js";
import { baseFiles, expectWitness, M, OPEN, writeTree, type Files } from "./spec-fixture.js";
import { admits, compiles, expectRelation } from "./pattern-check.js";

// [old, new, old admits strings new refuses?, new admits strings old refuses?], worked out by hand.
const TABLE: [string, string, boolean, boolean][] = [
  // Escapes ECMA-262 gives a fixed code point.
  ["^\\x41$", "^A$", false, false],
  ["^\\u0041\\u{42}$", "^AB$", false, false],
  ["^\\n\\r\\t\\f\\v\\0$", "^\\x0a\\x0d\\x09\\x0c\\x0b\\x00$", false, false],
  ["^\\uD83D$", "^\\u{D83D}$", false, false], // a lone high surrogate stays one code point
  ["^\\uD83DA$", "^\\u{D83D}A$", false, false], // not followed by a low surrogate: no pair
  ["^😀$", "^\\u{1F600}$", false, false], // a literal astral character is one code point
  ["^\uffffa$", "^\\uffffa$", false, false], // U+FFFF written literally is one UTF-16 unit
  ["^\\uD800\\uDC00$", "^\\u{10000}$", false, false], // the first and last surrogate pairs
  ["^\\uDBFF\\uDFFF$", "^\\u{10FFFF}$", false, false],
  ["^\\ud83d\\ude00$", "^\\u{1F600}$", false, false], // hex digits in either case
  ["^\\uD83D\\uDBFF$", "^\\u{D83D}\\u{DBFF}$", false, false], // two high surrogates: no pair
  ["^[^\\0-\\u{10FFFE}]$", "^\\u{10FFFF}$", false, false], // the complement reaches the last code point
  ["^.$", "^😀$", true, false],
  // Class escapes and their complements (\s: WhiteSpace and LineTerminator, ECMA-262 22.2.2.9).
  ["^\\D$", "^[^0-9]$", false, false],
  ["^\\W$", "^[^A-Za-z0-9_]$", false, false],
  ["^\\S$", "^[^\\s]$", false, false],
  ["^\\s$", "^[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]$", false, false],
  ["^\\s$", "^[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u2009\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]$", true, false], // U+200A is a space too
  ["^.$", "^[^\\n\\r\\u2028\\u2029]$", false, false],
  ["^.$", "^[^\\n\\r\\u2028]$", false, true], // . stops at U+2029
  // Syntax characters escaped as themselves, outside and inside a class.
  ["^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$", "^[\\^][$][\\\\][.][*][+][?][(][)][\\[][\\]][{][}][|][/]$", false, false],
  ["^[a\\-z]$", "^[az-]$", false, false],
  ["^[a-]$", "^[-a]$", false, false],
  ["^[\\x41-\\x43]$", "^[A-C]$", false, false],
  ["^[\\d_]+$", "^[0-9_]+$", false, false],
  ["^[^\\d]$", "^\\D$", false, false],
  ["^[^a-c]$", "^[^a-b]$", false, true], // [^a-b] admits "c"
  ["^[x-za-c]$", "^[a-cx-z]$", false, false], // ranges in any order
  ["^[a-zb-c]$", "^[a-z]$", false, false], // overlapping ranges
  ["^[\\w\\d]$", "^\\w$", false, false],
  ["^[b-d]$", "^b$|^[c-d]$", false, false],
  ["^[^\\w\\d]$", "^\\W$", false, false], // a negated class of overlapping sets
  ["^[^a-zb-c]$", "^[^a-z]$", false, false],
  ["^a{10}$", "^a{9}a$", false, false],
  ["^[]$", "^a$", false, true], // the empty class admits nothing
  ["^[^]$", "^.$", true, false], // its complement admits every code point, "\n" too
  ["a[]", "^$", false, true],
  // Groups, named and not, nested, with an empty alternative.
  ["^(?<n>ab)+$", "^(?:ab)+$", false, false],
  ["^(?:a(?:b|c))$", "^a[bc]$", false, false],
  ["^(?:a|)b$", "^a?b$", false, false],
  ["^()a$", "^a$", false, false],
  // Quantifiers, greedy and lazy.
  ["^a{2,}$", "^aaa*$", false, false],
  ["^a{3}$", "^aaa$", false, false],
  ["^a{0}b$", "^b$", false, false],
  ["^a+?$", "^a+$", false, false],
  ["^a*?b$", "^a*b$", false, false],
  ["^a??b$", "^a?b$", false, false],
  ["^a{1,2}?$", "^aa?$", false, false],
  ["^a{2,2}$", "^aa$", false, false],
  ["^(?<$x>a)(?<ab_1>b)$", "^ab$", false, false],
  ["^a{2,3}$", "^a{2,}$", false, true],
  ["^a{2}$", "^a{3}$", true, true],
  // Anchors at the ends of top-level alternatives.
  ["^a|b$", "^(?:a|b)", true, true], // "cb" / "ba"
  ["^a$|^b$", "^[ab]$", false, false],
  ["^", "", false, false],
  ["$", "", false, false],
  ["^a", "^a$", true, false],
  ["a$", "^a$", true, false],
];

describe("comparePatterns on constructs the group's table leaves out", () => {
  it.each(TABLE)("%s vs %s", (a, b, oldOnly, newOnly) => {
    expectRelation(a, b, oldOnly, newOnly);
  });

  it("never claims inclusion that a string contradicts", () => {
    const patterns = TABLE.flatMap(([a, b]) => [a, b]);
    const unit = fc.constantFrom("a", "b", "c", "z", "A", "B", "0", "9", "_", "-", " ", "\n", "\r", "\t", "\u2028", "\u2029", "\u200a", "\ufeff", "\0", "😀", "\ud83d", ".", "^", "$", "\\", "*", "[", "]", "{", "}", "|", "/", "(", ")", "+", "?");
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.constantFrom(...patterns), fc.string({ unit, maxLength: 6 }), (a, b, s) => {
        const rel = comparePatterns(a, b)!;
        if (admits(a, s) && !admits(b, s)) expect(rel.oldOnly, JSON.stringify(s)).not.toBeNull();
        if (admits(b, s) && !admits(a, s)) expect(rel.newOnly, JSON.stringify(s)).not.toBeNull();
      }),
      { numRuns: 1500, seed: 20261206 },
    );
  });

  it("the separating strings are the shortest ones", () => {
    // The shortest strings "a{2}" admits and "a{5}" refuses is "aa"; the other way, "aaaaa".
    const rel = comparePatterns("^a{2}$", "^a{5}$")!;
    expect([rel.oldOnly, rel.newOnly]).toEqual(["aa", "aaaaa"]);
    // "^a{1,3}$" admits "a", "aa", "aaa" and "^$" none of them: the shortest is "a", both ways.
    expect(comparePatterns("^$", "^a{1,3}$")!.newOnly).toBe("a");
    expect(comparePatterns("^a{1,3}$", "^$")!.oldOnly).toBe("a");
  });

  it("shows readable characters when a readable separating string of the shortest length exists", () => {
    // A message quotes these strings: "such as \u0000" tells a reader nothing.
    for (const [a, b] of [["^[\\x1f ]$", "^$"], ["^[\\x01!]$", "^$"], ["^[\\x01~]$", "^$"], ["^.$", "^$"], ["^$", "^[^\\n]$"], ["^\\S+$", "^\\s+$"], ["^[^a]$", "^a$"], ["^\\W$", "^$"], ["^[\\0-\\x1f!-~]$", "^$"]]) {
      const rel = comparePatterns(a!, b!)!;
      for (const s of [rel.oldOnly, rel.newOnly].filter((x): x is string => x !== null)) expect(s, `${a} vs ${b}`).toMatch(/^[\x20-\x7e]*$/);
    }
  });

  it("gives more separating strings, longer ones too, for a schema that also bounds the length", () => {
    // "^[a-z]{1,8}$" admits lengths 1 to 8 and "^[a-z]{1,3}$" 1 to 3: lengths 4 to 8 separate,
    // so a minLength of 5 on both still leaves separating strings among the longer ones.
    const rel = comparePatterns("^[a-z]{1,8}$", "^[a-z]{1,3}$")!;
    expect(rel.oldOnly).toHaveLength(4);
    const longer = rel.more.filter((s) => s.length >= 5 && admits("^[a-z]{1,8}$", s) && !admits("^[a-z]{1,3}$", s));
    expect(longer.length).toBeGreaterThan(0);
    // A few, not every separating string of an unbounded language.
    expect(comparePatterns("^a*$", "^$")!.more.length).toBeLessThanOrEqual(6);
  });

  it("the extra strings stop at a few: a pattern pair with many separating lengths gives at most six", () => {
    const rel = comparePatterns("^a{0,40}$", "^$")!;
    expect(rel.more.length).toBeGreaterThan(0);
    expect(rel.more.length).toBeLessThanOrEqual(6);
  });

  // Each of these ECMA-262 refuses under the u flag (RegExp throws): the decider must not guess.
  const INVALID = ["\\a", "a{3,2}", "[z-a]", "a{", "}", "]", "*a", "(a", "a)", "[a", "\\", "\\x4", "\\00", "\\01", "\\u{}", "\\u{110000}", "\\u{1234567}", "(?<1a>x)", "a|*", "\\-", "[a-", "[a-\\d]", "a{,5}"];
  it.each(INVALID)("a pattern ECMA-262 refuses is not decided: %s", (p) => {
    expect(compiles(p), "RegExp refuses it too").toBe(false);
    expect(comparePatterns("^a$", p)).toBeUndefined();
    expect(comparePatterns(p, "^a$")).toBeUndefined();
  });

  // Valid ECMA-262 the automata do not model: answered undefined, never guessed.
  const OUTSIDE = ["a^b", "(^a)", "a$b", "(a$)", "^^a", "a$$", "(?=a)", "(?<!a)b", "\\k<n>(?<n>a)", "\\cA", "\\B"];
  it.each(OUTSIDE)("a construct outside the subset is not decided: %s", (p) => {
    expect(compiles(p)).toBe(true);
    expect(comparePatterns("^a$", p)).toBeUndefined();
  });

  it("a pattern nested deeper than the parser's stack is not decided, and does not throw", () => {
    const deep = `^${"(?:".repeat(20000)}a${")".repeat(20000)}$`;
    const rel = comparePatterns(deep, "^a$");
    if (rel !== undefined) expect([rel.oldOnly, rel.newOnly]).toEqual([null, null]);
  });

  it("leaves undecided, quickly, a pair whose product automaton is exponential", () => {
    // "a" at the 14th place from the end: its deterministic automaton remembers the last 14
    // letters, 2^14 states, past any product the walk should explore; at the 40th, 2^40.
    for (const k of [13, 39]) {
      const t0 = Date.now();
      expect(comparePatterns(`^[ab]*a[ab]{${k}}$`, "^[ab]*$")).toBeUndefined();
      expect(Date.now() - t0).toBeLessThan(10_000);
    }
  });

  it("leaves undecided, quickly, a pattern whose automaton alone is too large", () => {
    const t0 = Date.now();
    // A small language (one string) spelt with thousands of alternatives: the automaton is large
    // even when the product walk would be short.
    const many = `^(?:${Array(5000).fill("abc").join("|")})$`;
    expect(comparePatterns(many, "^abc$")).toBeUndefined();
    // 10^12 states written in a few characters.
    expect(comparePatterns("^(?:a{1000000}){1000000}$", "^a+$")).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});

// Samples: every one must match its pattern (ECMA-262, u flag); where the pattern has a choice,
// the variant picks the variant-th member of a class, so variants give different strings.
const SAMPLED: string[] = [
  "^[a-z]+$", "^\\d{3}$", "^[A-Z][A-Z0-9_]*$", "^(?:ab|cd)$", "^x{2,5}$", "^x{2,}?$", "^a?b$", "^a{0}b$", "^a??b$",
  "^[^abx]$", "^[^]{2}$", "^\\w+\\s\\S\\D\\W$", "^\\u0041\\n\\t$", "^a\\.b\\*$", "^(?:a|b)+?c$", "^[\\-a]$", "^[a\\-]$",
  "^[\\d\\-]+$", "^[\\w]$", "^[\\n]$", "^[\\t]$", "^(?:x(?:y|z)*)$", "^[a-cx-z]{2}$", "^[+*]$", "^.$", "^\\$$",
  "^[a-]$", "^[-a]$", "^[(-\\)]$", "^(?!a)a?b$",
  "^a{10}$", "^a{10,12}b{2,}$",
];

describe("sampleForPattern", () => {
  it.each(SAMPLED)("%s: the samples match", (p) => {
    for (const v of [0, 1, 2, 3]) {
      const s = sampleForPattern(p, v);
      expect(s, `variant ${v}`).toBeDefined();
      expect(admits(p, s!), `variant ${v}: ${JSON.stringify(s)}`).toBe(true);
    }
  });

  it("the variant picks another member of a class, so callers get several candidates", () => {
    for (const p of ["^[a-c]$", "^[abc]$", "^\\d$", "^\\w$", "^[^a]$", "^[\\d]$"]) {
      const got = [0, 1, 2].map((v) => sampleForPattern(p, v));
      expect(new Set(got).size, `${p}: ${JSON.stringify(got)}`).toBe(3);
      for (const s of got) expect(admits(p, s!)).toBe(true);
    }
    expect([0, 1, 2].map((v) => sampleForPattern("^[a-c]$", v))).toEqual(["a", "b", "c"]);
  });

  it("a lookahead consumes nothing: the rest of the pattern makes the sample", () => {
    expect(sampleForPattern("^(?=a)\\w+$")).toBe("a");
    expect(sampleForPattern("^(?!b)[a-z]$")).toBe("a");
    expect(sampleForPattern("^(?<=)a$")).toBe("a");
  });

  it("a pattern it cannot walk gives no sample rather than a wrong one", () => {
    for (const p of ["^(a$", "^a)$", "^[a$"]) expect(sampleForPattern(p)).toBeUndefined();
    for (const p of ["^(?<n>a)$", "^(?<n>a)\\k<n>$"]) {
      const s = sampleForPattern(p);
      if (s !== undefined) expect(admits(p, s), JSON.stringify(s)).toBe(true);
    }
  });

  it("a starred atom still gives a character, so a sample can name a property", () => {
    // wire.ts drops an empty candidate name: "^[a-z_]*$" must still yield one.
    for (const p of ["^[a-z_]*$", "^x*$", "^\\d*?$"]) {
      const s = sampleForPattern(p)!;
      expect(admits(p, s)).toBe(true);
      expect(s.length, p).toBeGreaterThan(0);
    }
  });
});

// Through the detector: a before/after spec pair, each witness re-checked with the fixture's ajv.
function run(edit: (f: Files) => void) {
  const before = baseFiles();
  const after = baseFiles();
  edit(after);
  const findings = compareRoots(writeTree(before), writeTree(after)).findings.filter((f) => f.status === "breaking");
  return { findings, before, after };
}

describe("witnesses that need a pattern's own strings", () => {
  it("a not added against unexpanded placeholders is proven with a string of that shape", () => {
    // Only strings such as "${A}" separate the versions: no stock string has that form.
    const { findings, before, after } = run((f) => void (f[OPEN].properties.a = { type: "string", not: { pattern: "^\\$\\{[A-Z_]+\\}$" } }));
    const f = findings.find((x) => x.rule === "WIRE_SCHEMA_CHANGED");
    expect(f, findings.map((x) => x.rule).join(", ")).toBeDefined();
    expect(f!.direction).toBe("old-writer-new-reader");
    expectWitness(f!, before, after);
  });

  it("a pattern tightened only past a length the schema also requires is proven with a longer string", () => {
    // Lengths 4 to 8 separate "{1,8}" from "{1,3}"; minLength 5 leaves 5 to 8.
    const name = (pattern: string) => (f: Files) => void (f[M].properties.name = { type: "string", minLength: 5, maxLength: 10, pattern });
    const before = baseFiles();
    name("^[a-z]{1,8}$")(before);
    const after = baseFiles();
    name("^[a-z]{1,3}$")(after);
    const findings = compareRoots(writeTree(before), writeTree(after)).findings.filter((x) => x.rule === "WIRE_PATTERN_CHANGED");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain("tightened");
    expectWitness(findings[0]!, before, after);
  });
});
