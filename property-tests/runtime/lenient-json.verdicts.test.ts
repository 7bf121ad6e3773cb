// The recorded JSON.parse verdicts (property-tests/oracle-vectors/lenient-json, which the Kotlin
// LenientJsonMutationKillsTest replays) are still what JSON.parse says, and the TS reader agrees
// with every one: the same vectors hold both runtimes to the same oracle.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readJsonObjectStrings } from "../../generators/targets/ts/runtime/src/lenient-json.js";

interface Case {
  kind: "table" | "generated" | "damaged";
  text: string;
  members: [string, string][] | null;
}
const file = JSON.parse(readFileSync(new URL("../oracle-vectors/lenient-json/verdicts.json", import.meta.url), "utf8")) as { cases: Case[] };
const byKey = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/** JSON.parse, asked here again: null unless an object, else its string members sorted by key. */
function jsonParse(text: string): [string, string][] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string").sort(byKey);
}

describe("lenient-json verdict vectors", () => {
  it("hold accepted and refused texts of every kind", () => {
    for (const kind of ["table", "generated", "damaged"] as const) {
      const ofKind = file.cases.filter((c) => c.kind === kind);
      expect(ofKind.some((c) => c.members !== null), kind).toBe(true);
      if (kind !== "generated") expect(ofKind.some((c) => c.members === null), kind).toBe(true);
    }
  });
  it("are what JSON.parse says", () => {
    const wrong = file.cases.filter((c) => JSON.stringify(jsonParse(c.text)) !== JSON.stringify(c.members));
    expect(wrong.map((c) => c.text)).toEqual([]);
  });
  it("readJsonObjectStrings gives every recorded verdict", () => {
    const wrong = file.cases.filter((c) => {
      const m = readJsonObjectStrings(c.text);
      return JSON.stringify(m === undefined ? null : [...m].sort(byKey)) !== JSON.stringify(c.members);
    });
    expect(wrong.map((c) => c.text)).toEqual([]);
  });
});

describe("the depth bound, the same in both runtimes (LenientJsonMutationKillsTest counts the same texts)", () => {
  const read = [["s", "v"]];
  const ours = (text: string) => {
    const m = readJsonObjectStrings(text);
    return m === undefined ? undefined : [...m];
  };
  const arrays = (n: number) => `{"s":"v","a":${"[".repeat(n)}${"]".repeat(n)}}`;
  const objects = (n: number, innermost = "{}") => `{"s":"v","a":${'{"b":'.repeat(n - 1)}${innermost}${"}".repeat(n - 1)}}`;
  it("512 nested containers inside the object are read (as JSON.parse reads them), the 513th is refused", () => {
    expect(jsonParse(arrays(512))).toEqual(read);
    expect(ours(arrays(512))).toEqual(read);
    expect(ours(arrays(513))).toBeUndefined();
    expect(jsonParse(objects(512))).toEqual(read);
    expect(ours(objects(512))).toEqual(read);
    expect(ours(objects(513))).toBeUndefined();
    expect(ours(objects(512, '{"b":1}'))).toEqual(read);
    expect(ours(objects(512, "[1]"))).toEqual(read);
    expect(ours(objects(512, "[[]]"))).toBeUndefined();
  });
});
