// upperCamel (swift/naming.ts) on words with capitals after a digit: only an all-capitals word is
// recased (BIG_word -> BigWord in naming.test.ts); a word the writer cased otherwise keeps its
// casing.
import { describe, expect, it } from "vitest";
import { upperCamel } from "./naming.js";

describe("upperCamel keeps a mixed-case word's casing", () => {
  it.each([
    ["ES6module", "ES6module"],
    ["MP3player_id", "MP3playerID"],
  ])("upperCamel(%j) is %s", (spec, swift) => expect(upperCamel(spec)).toBe(swift));
});
