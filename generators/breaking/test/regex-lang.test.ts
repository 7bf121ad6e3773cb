// Pattern inclusion on automata. Expectations are a hand-written table of pattern pairs and
// what a reader of ECMA-262 says about them; every separating string the decider returns is
// re-checked with the engine itself (RegExp with the u flag, as ajv compiles patterns), and random
// strings check that no proof of inclusion is contradicted by an actual string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparePatterns } from "../regex-lang.js";
import { admits, expectRelation } from "./pattern-check.js";

// [old, new, old admits strings new refuses?, new admits strings old refuses?]
const TABLE: [string, string, boolean, boolean][] = [
  ["^[^\\n]*\\S[^\\n]*$", "^[^\\S\\n]*\\S[^\\n]*$", false, false], // SingleLineId's ReDoS rewrite
  ["^[a-z0-9]+$", "^[a-z]+$", true, false],
  ["^[a-z]+$", "^[a-z]+$|^[0-9]+$", false, true],
  ["^[a-z]+$", "^[a-z][a-z]*$", false, false],
  ["^(?:ab|a)c$", "^a(?:b)?c$", false, false],
  ["a", "^.*a", true, false], // unanchored: "\na" contains "a", but . stops at the newline
  ["^x{2,3}$", "^xx(?:x)?$", false, false],
  ["^x{2,3}$", "^x{2,4}$", false, true],
  ["^[A-Z][A-Z0-9_]*$", "^[A-Z][A-Z0-9_]{0,63}$", true, false],
  ["^\\d+$", "^[0-9]+$", false, false],
  ["^\\w+$", "^[A-Za-z0-9_]+$", false, false],
  ["^\\s$", "^ $", true, false],
  ["^\\u{1F600}$", "^\\uD83D\\uDE00$", false, false], // one code point under the u flag
  ["^[^a]$", "^.$", true, true], // [^a] admits "\n", . admits "a"
  ["", "^$", true, false], // no pattern admits every string
];

describe("comparePatterns", () => {
  it.each(TABLE)("%s vs %s", (a, b, oldOnly, newOnly) => {
    expectRelation(a, b, oldOnly, newOnly);
  });

  it("does not decide what it does not model: lookaround, back references, word boundaries", () => {
    for (const p of ["^(?!x)a$", "^(a)\\1$", "\\bword", "(?<=a)b", "^\\p{L}+$"]) expect(comparePatterns("^a$", p), p).toBeUndefined();
  });

  it("never claims inclusion that a string contradicts", () => {
    const patterns = TABLE.flatMap(([a, b]) => [a, b]);
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.constantFrom(...patterns), fc.string({ unit: fc.constantFrom("a", "b", "c", "x", "z", "0", "9", "_", " ", "\n", "A", "Z", "😀"), maxLength: 8 }), (a, b, s) => {
        const rel = comparePatterns(a, b)!;
        if (admits(a, s) && !admits(b, s)) expect(rel.oldOnly).not.toBeNull();
        if (admits(b, s) && !admits(a, s)) expect(rel.newOnly).not.toBeNull();
      }),
      { numRuns: 400, seed: 19 },
    );
  });
});
