// What a pattern admits, judged by the engine itself (RegExp with the u flag, as ajv compiles
// patterns): the oracle the pattern tables check the decider against.
import { expect } from "vitest";
import { comparePatterns } from "../regex-lang.js";

export const admits = (pattern: string, s: string) => new RegExp(pattern, "u").test(s);

export const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
};

/**
 * comparePatterns decides the pair as the hand table says (does old admit strings new refuses,
 * and the other way), and every separating string it returns separates them by RegExp too.
 */
export function expectRelation(a: string, b: string, oldOnly: boolean, newOnly: boolean) {
  const rel = comparePatterns(a, b)!;
  expect(rel).toBeDefined();
  expect(rel.oldOnly !== null).toBe(oldOnly);
  expect(rel.newOnly !== null).toBe(newOnly);
  if (rel.oldOnly !== null) expect([admits(a, rel.oldOnly), admits(b, rel.oldOnly)]).toEqual([true, false]);
  if (rel.newOnly !== null) expect([admits(a, rel.newOnly), admits(b, rel.newOnly)]).toEqual([false, true]);
  for (const s of rel.more) expect(admits(a, s) !== admits(b, s), JSON.stringify(s)).toBe(true);
}
