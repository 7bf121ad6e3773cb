// Patterns and formats (wire-bounds.ts, compareStrings and splitAlternatives): a pattern outside
// the subset regex-lang decides (a lookahead) still reads as loosened when the new pattern keeps
// the old one as a top-level alternative, whatever the syntax around it; a pattern or format
// added, removed or changed is reported at its keyword, with the direction JSON Schema 2020-12
// gives it (a missing pattern or format admits every string). Each expectation is worked out by
// hand; every witness is re-checked with the tests' own ajv (expectWitness).
import { describe, expect, it } from "vitest";
import { expectWitness, M, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;
const none: Edit = () => {};
const pattern =
  (p: string | undefined): Edit =>
  (f) =>
    void (p === undefined ? delete props(f).name.pattern : (props(f).name.pattern = p));
const at = `${M}#/properties/name/pattern`;

// A lookahead puts the pattern outside what regex-lang decides, so only the alternative check
// (patternIncludes) can tell that the new pattern admits every string the old one did.
const OLD = "^(?!x)[a-z]+$";

describe("a witness for an undecided loosening, near the strings the old pattern admits", () => {
  // `code` is a new member on both sides, absent from the examples. Each new pattern adds an
  // alternative whose strings are an old string changed slightly (case, a trailing "!", the
  // first character dropped, a leading space, doubled): the only strings that show the change.
  // Under a union or an intersection a difference counts only with a witness, so a missing one
  // hides the change.
  const code =
    (s: object): Edit =>
    (f) =>
      void (props(f).code = s);
  const cases: [string, string, string, string][] = [
    ["upper case", "^(?!x)a!$", "^A!$", "A!"],
    ["lower case", "^(?!x)A!$", "^a!$", "a!"],
    ["a trailing !", "^(?!x)a{5}$", "^a{5}!$", "aaaaa!"],
    ["the first character dropped", "^(?!x)a!b$", "^!b$", "!b"],
    ["a leading space", "^(?!x)a{5}$", "^ a{5}$", " aaaaa"],
    ["doubled", "^(?!x)a!$", "^a!a!$", "a!a!"],
  ];
  it("a pattern widened while null is added to the type: the pattern's witness is a string", () => {
    // pattern constrains strings only (JSON Schema 2020-12, 6.3.3); null shows the type change,
    // not the pattern's, and has a finding of its own.
    const { wire, before, after } = pair(code({ type: "string", pattern: "^a$" }), code({ type: ["string", "null"], pattern: "^a$|^b$" }));
    const f = wire.find((x) => x.rule === "WIRE_PATTERN_CHANGED")!;
    expect(where(f)).toBe(`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern new-writer-old-reader`);
    expectWitness(f, before, after);
    expect(typeof (f.witness!.instance as { code: unknown }).code).toBe("string");
  });
  for (const [name, op, alt, only] of cases) {
    it(`${name}: ${JSON.stringify(only)} is the only kind of string new writers add`, () => {
      const np = `${op}|${alt}`;
      const { wire, before, after } = pair(code({ type: "string", pattern: op }), code({ type: "string", pattern: np }));
      expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern new-writer-old-reader`]);
      expectWitness(wire[0]!, before, after);
      // Worked out from the patterns: the old one admits exactly one string, the new one adds the
      // alternative's, so the witness must carry the latter.
      expect((wire[0]!.witness!.instance as { code: unknown }).code).toBe(only);
    });
  }
  it("a member that may also be an integer: the integer is no string to vary, and the string change is still shown", () => {
    const s = (p: string) => code({ type: ["string", "integer"], pattern: p });
    const { wire, before, after } = pair(s("^(?!x)a{5}$"), s("^(?!x)a{5}$|^A{5}$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a decided pattern change whose differing strings lie in a later alternative", () => {
  // Sampling a pattern yields strings of its first alternative ("a"), which both versions admit;
  // only the strings regex-lang finds in the later alternatives separate them.
  const code =
    (p: string): Edit =>
    (f) =>
      void (props(f).code = { type: "string", pattern: p });
  it("loosened: old readers refuse !b!, the one string the new pattern adds", () => {
    const { wire, before, after } = pair(code("^a$"), code("^a$|^!b!$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
    expect((wire[0]!.witness!.instance as { code: unknown }).code).toBe("!b!");
  });
  it("changed both ways: !c! is only old, !d! only new", () => {
    const { wire, before, after } = pair(code("^a$|^!c!$"), code("^a$|^!d!$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${M}#/properties/code/pattern either`]);
    expectWitness(wire[0]!, before, after);
    expect(["!c!", "!d!"]).toContain((wire[0]!.witness!.instance as { code: unknown }).code);
  });
});

describe("an undecided pattern kept as a top-level alternative is a loosening", () => {
  // Each new pattern is OLD | something that admits a digit string ("0", "1": not [a-z]+), so
  // new writers may send a string that old readers refuse, and old writers' strings still pass.
  const wider: [string, string, string][] = [
    ["old pattern first", OLD, `${OLD}|^[0-9]+$`],
    ["old pattern last", OLD, `^[0-9]+$|${OLD}`],
    ["old pattern between two others", OLD, `^[0-9]+$|${OLD}|^-$`],
    // No class anywhere: every "|" and "(" counts from the first character on.
    ["no class in either alternative", "^(?!x)a+$", "^(?!x)a+$|^0+$"],
    // "(" and "|" inside a class are literal characters: neither opens a group nor splits.
    ["a class holding ( and | before it", OLD, `^[0(|]+$|${OLD}`],
    // An escaped "(" is a literal: it opens no group, so the "|" after it is still top level.
    ["an escaped ( before it", OLD, `^\\(?[0-9]+$|${OLD}`],
    // A "|" inside a group belongs to the group; it does not cut the old pattern in two.
    ["a group with its own | inside the old pattern", "^(?!x)(?:[a-z]|-)+$", "^[0-9]+$|^(?!x)(?:[a-z]|-)+$"],
  ];
  for (const [name, op, np] of wider) {
    it(name, () => {
      const { wire, before, after } = pair(pattern(op), pattern(np));
      expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} new-writer-old-reader`]);
      // The message names both patterns: it is what tells the reader what was widened.
      expect(wire[0]!.message).toContain(`from ${JSON.stringify(op)} to ${JSON.stringify(np)}`);
      expectWitness(wire[0]!, before, after);
      expect(wire[0]!.witness!.acceptedBy).toBe("new");
    });
  }

  it("the same undecided pattern on both sides is no finding", () => {
    const { wire } = pair(none, none, pattern(OLD));
    expect(wire).toEqual([]);
  });
});

describe("an undecided pattern added, removed or replaced", () => {
  it("removed: every string is admitted, so old readers refuse some new strings", () => {
    const { wire, before, after } = pair(pattern(OLD), pattern(undefined));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} new-writer-old-reader`]);
    // The message says the new side has no pattern at all: what the reader acts on.
    expect(wire[0]!.message).toContain(`from ${JSON.stringify(OLD)} to none`);
    expectWitness(wire[0]!, before, after);
  });
  // The second text merely spells "undefined" in a group: it must not pass for the missing old pattern.
  for (const np of [OLD, `${OLD}|(undefined)`]) {
    it(`added (${np}): new readers refuse some old strings`, () => {
      const { wire, before, after } = pair(pattern(undefined), pattern(np));
      expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} old-writer-new-reader`]);
      expect(wire[0]!.message).toContain(`pattern ${JSON.stringify(np)} added`);
      expectWitness(wire[0]!, before, after);
    });
  }
  it("replaced by one that is not an alternative of it: either side may be hurt, reported at the pattern", () => {
    // "x" passes ^[a-z]+$ and fails the lookahead: old writers' "x" is refused by new readers.
    const { wire, before, after } = pair(none, pattern(OLD));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} either`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a decided pattern added, removed or changed both ways", () => {
  it("added: the message says added, and new readers refuse some old strings", () => {
    const { wire, before, after } = pair(pattern(undefined), pattern("^[a-z]+$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} old-writer-new-reader`]);
    // What the reader acts on: which pattern appeared.
    expect(wire[0]!.message.startsWith('pattern "^[a-z]+$" added, tightened')).toBe(true);
    expectWitness(wire[0]!, before, after);
  });
  it("removed: the message says removed, and old readers refuse some new strings", () => {
    const { wire, before, after } = pair(none, pattern(undefined));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} new-writer-old-reader`]);
    expect(wire[0]!.message.startsWith('pattern "^[a-z]+$" removed, loosened')).toBe(true);
    expectWitness(wire[0]!, before, after);
  });
  it("changed both ways: reported at the pattern, either side may be hurt", () => {
    // "a" passes only the old pattern, "0" only the new one.
    const { wire, before, after } = pair(none, pattern("^[0-9]+$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${at} either`]);
    expect(wire[0]!.message.startsWith('pattern "^[a-z]+$" -> "^[0-9]+$" changed both ways')).toBe(true);
    expectWitness(wire[0]!, before, after);
  });
});

describe("a format added, removed or changed", () => {
  // `when` is {type: string, format: date-time}; ajv (with ajv-formats) asserts formats.
  const format =
    (fmt: string | undefined): Edit =>
    (f) =>
      void (fmt === undefined ? delete props(f).when.format : (props(f).when.format = fmt));
  const fat = `${M}#/properties/when/format`;
  it("removed: old readers refuse new writers' non-date-time strings", () => {
    const { wire, before, after } = pair(none, format(undefined));
    expect(wire.map(where)).toEqual([`WIRE_FORMAT_CHANGED ${fat} new-writer-old-reader`]);
    // The message names both formats, "none" for the missing one: what the reader acts on.
    expect(wire[0]!.message).toBe('format changed from "date-time" to "none"');
    expectWitness(wire[0]!, before, after);
  });
  it("added: new readers refuse old writers' strings that are not emails", () => {
    const { wire, before, after } = pair(format(undefined), format("email"));
    expect(wire.map(where)).toEqual([`WIRE_FORMAT_CHANGED ${fat} old-writer-new-reader`]);
    expect(wire[0]!.message).toBe('format changed from "none" to "email"');
    expectWitness(wire[0]!, before, after);
  });
  it("changed: a date-time is no date and a date no date-time, so either side may be hurt", () => {
    const { wire, before, after } = pair(none, format("date"));
    expect(wire.map(where)).toEqual([`WIRE_FORMAT_CHANGED ${fat} either`]);
    expect(wire[0]!.message).toBe('format changed from "date-time" to "date"');
    expectWitness(wire[0]!, before, after);
  });
});
