// lineColumn and duplicateKeyMessage (text-position.ts) at their edges, each expected value counted
// by hand from the input beside it: a line break at offset 0, offsets outside the input, an offset
// in the middle of a UTF-8 sequence, and the 64-character cut of a duplicate name.
import { describe, expect, it } from "vitest";
import { describeJsonError, duplicateKeyMessage, lineColumn } from "../../generators/targets/ts/runtime/src/text-position.js";

describe("lineColumn edges", () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const table: [string | Uint8Array, number, number, number][] = [
    ["\nab", 0, 1, 1],
    ["\nab", 1, 2, 1],
    ["\nab", 2, 2, 2],
    ["\n\n\nx", 3, 4, 1],
    ["a\n\nb", 3, 3, 1],
    ["abc", -1, 1, 1], // before the input: clamped to its start
    ["ab\ncd", 99, 2, 3], // past the end: the end of the input
    [utf8("\nab"), 2, 2, 2],
    [utf8("x\n😀y"), 6, 2, 2], // 😀 is four bytes (2-5): "y" at byte 6, one column after it
    [utf8("é"), 1, 1, 2], // inside "é": its first byte decodes to U+FFFD, one column
    [utf8("ab"), -5, 1, 1],
  ];
  for (const [input, offset, line, column] of table) {
    const shown = typeof input === "string" ? JSON.stringify(input) : `bytes ${Buffer.from(input).toString("hex")}`;
    it(`${shown} @ ${offset} -> ${line}:${column}`, () => expect(lineColumn(input, offset)).toEqual({ line, column }));
  }
  it("describeJsonError puts the position before the message", () => {
    expect(describeJsonError(utf8('[1,\n2 x]'), { code: "unexpected-character", offset: 6, message: "m" })).toBe("line 2, column 3: m");
  });
});

describe("duplicateKeyMessage", () => {
  it("keeps 64 characters whole and cuts 65 to 64 and an ellipsis", () => {
    expect(duplicateKeyMessage("")).toBe('duplicate member name ""');
    expect(duplicateKeyMessage("y".repeat(64))).toBe(`duplicate member name "${"y".repeat(64)}"`);
    expect(duplicateKeyMessage("y".repeat(64) + "z")).toBe(`duplicate member name "${"y".repeat(64)}…"`);
    expect(duplicateKeyMessage('q"\u0001')).toBe('duplicate member name "q\\"\\u0001"');
  });
});
