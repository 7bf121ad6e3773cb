// compactReplayKey (replay-guard.ts) packs a key only when every one of its 40 characters is where
// a one-UUID key has it; a key that differs from a UUID key in any single place must keep its own
// form, or two messages would share one replay record. Each case below changes one character class
// at one place of a real UUID key (or makes the key longer) and must not pack to the UUID key's
// form; the nil UUID, whose units are all zero, must pack. Hand-written from the key layout
// `["8-4-4-4-12"]`, not from the packing code. (Written after the ts-replay-guard mutation run of
// 2026-12-05, which these cases were checked by hand to kill; not yet part of that group's run.)
import { describe, expect, it } from "vitest";
import { compactReplayKey } from "../../generators/targets/ts/runtime/src/replay-guard.js";

const KEY = JSON.stringify(["0123abcd-ef01-4567-89ab-cdef01234567"]);
const PACKED = compactReplayKey(KEY);
const at = (index: number, char: string): string => KEY.slice(0, index) + char + KEY.slice(index + 1);

describe("compactReplayKey keeps apart keys one change away from a UUID key", () => {
  it("the UUID key itself packs to 9 units", () => expect(PACKED.length).toBe(9));
  it.each([
    ["a character after the closing bracket", `${KEY}x`],
    ["a second element", `${KEY.slice(0, -1)},1]`],
    ["no opening quote", at(1, "'")],
    ["no closing quote", at(38, "'")],
    ["no opening bracket", at(0, "(")],
    ["no closing bracket", at(39, ")")],
    ["the first dash replaced", at(10, "x")],
    ["the second dash replaced", at(15, "x")],
    ["the third dash replaced", at(20, "x")],
    ["the fourth dash replaced", at(25, "x")],
    ["a dash replaced by a hex digit", at(15, "0")],
  ])("%s", (_what, key) => {
    expect(key).not.toBe(KEY);
    expect(compactReplayKey(key)).not.toBe(PACKED);
    expect(compactReplayKey(key)).toBe(key);
  });
  it.each(["W", "X", "Z", "[", "_", "`", "G", "g", "/", ":", "@", " "])("%s in place of a hex digit keeps the key as text", (char) => {
    for (const index of [2, 9, 11, 37]) {
      const key = at(index, char);
      expect(compactReplayKey(key), `${index}: ${key}`).toBe(key);
    }
  });
  it("the nil UUID (every unit zero) packs, and differs from a key with one bit set", () => {
    const nil = JSON.stringify(["00000000-0000-0000-0000-000000000000"]);
    expect(compactReplayKey(nil)).toBe(String.fromCharCode(1, 0, 0, 0, 0, 0, 0, 0, 0));
    expect(compactReplayKey(JSON.stringify(["00000000-0000-0000-0000-000000000001"]))).toBe(String.fromCharCode(1, 0, 0, 0, 0, 0, 0, 0, 1));
  });
});
