// JSDoc text of the TypeScript target against hand-written expectations: a `*/` in spec prose must
// not end the comment (ECMA-262 §12.4: a MultiLineComment ends at the first `*/`, and does not
// nest), and blocks wrap at 100 columns.
import { describe, expect, it } from "vitest";
import { jsdocBlock, jsdocText } from "./ts-doc.js";

describe("jsdocText", () => {
  it.each([
    ["plain", "plain"],
    ["  two\n lines\t here ", "two lines here"],
    ["accept */* here", "accept *\\/* here"],
    ["a */ b */", "a *\\/ b *\\/"],
    ["/* opens", "/* opens"],
    ["", ""],
  ])("%j is %j", (text, doc) => expect(jsdocText(text)).toBe(doc));
});

describe("jsdocBlock", () => {
  const w = (n: number, c = "a") => c.repeat(n);
  it("is one line when `/** text */` fits in 100 columns", () => {
    expect(jsdocBlock("short  text")).toBe("/** short text */\n");
    expect(jsdocBlock(" padded\n")).toBe("/** padded */\n");
    expect(jsdocBlock("ends */ early", "  ")).toBe("  /** ends *\\/ early */\n");
    // 7 columns of `/** ` and ` */`: 93 characters of text fit exactly, 94 do not.
    expect(jsdocBlock(`${w(46)} ${w(46, "b")}`)).toBe(`/** ${w(46)} ${w(46, "b")} */\n`);
    expect(jsdocBlock(`${w(46)} ${w(47, "b")}`)).toBe(`/**\n * ${w(46)} ${w(47, "b")}\n */\n`);
    expect(jsdocBlock(`${w(44)} ${w(46, "b")}`, "  ")).toBe(`  /** ${w(44)} ${w(46, "b")} */\n`);
    expect(jsdocBlock(`${w(44)} ${w(47, "b")}`, "  ")).toBe(`  /**\n   * ${w(44)} ${w(47, "b")}\n   */\n`);
  });
  it("wraps ` * ` lines at 100 columns", () => {
    // 3 columns of ` * `: 97 characters a line without indent.
    expect(jsdocBlock(`${w(48)} ${w(48, "b")} c`)).toBe(`/**\n * ${w(48)} ${w(48, "b")}\n * c\n */\n`);
    expect(jsdocBlock(`${w(48)} ${w(49, "b")}`)).toBe(`/**\n * ${w(48)}\n * ${w(49, "b")}\n */\n`);
    expect(jsdocBlock(`${w(47)} ${w(47, "b")}`, "  ")).toBe(`  /**\n   * ${w(47)} ${w(47, "b")}\n   */\n`);
    expect(jsdocBlock(`${w(47)} ${w(48, "b")}`, "  ")).toBe(`  /**\n   * ${w(47)}\n   * ${w(48, "b")}\n   */\n`);
  });
  it("keeps a word longer than a line whole", () => {
    expect(jsdocBlock(`x ${w(120)} y`)).toBe(`/**\n * x\n * ${w(120)}\n * y\n */\n`);
    expect(jsdocBlock(`${w(120)} y`, "  ")).toBe(`  /**\n   * ${w(120)}\n   * y\n   */\n`);
  });
  it("writes an empty block for no words", () => {
    expect(jsdocBlock(" \n ")).toBe("/**\n */\n");
  });
});
