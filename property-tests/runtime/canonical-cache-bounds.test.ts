// canonical-json.ts remembers sorted member names per object shape (at most 1024 shapes, first
// name at most 64 UTF-16 units) and quoted member names (at most 4096, each at most 64 units):
// input decides what goes in, so the bounds are a memory limit an attacker would otherwise set.
// Each test imports a fresh copy of the module, so the caches start empty; the numbers expected
// are the bounds the source's comments state, counted here by hand.
import { beforeEach, describe, expect, it, vi } from "vitest";

type Module = typeof import("../../generators/targets/ts/runtime/src/canonical-json.js");
let m: Module;
beforeEach(async () => {
  vi.resetModules();
  m = await import("../../generators/targets/ts/runtime/src/canonical-json.js");
});
/** An object whose members are `names`, in that insertion order. */
const obj = (...names: string[]): Record<string, number> => Object.fromEntries(names.map((n, i) => [n, i]));

describe("the shape cache", () => {
  it("starts empty; a shape seen again is found, not stored again", () => {
    expect(m.canonicalCacheSizes()).toEqual({ shapes: 0, shapesStored: 0, quotedKeys: 0 });
    m.canonicalize(obj("b", "a"));
    m.canonicalize(obj("b", "a"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 1, shapesStored: 1 });
  });
  it("objects of one member are never stored (nothing to sort)", () => {
    m.canonicalize(obj("a"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 0, shapesStored: 0 });
  });
  it("shapes sharing a first name are both kept and both found again", () => {
    for (let round = 0; round < 3; round++) {
      expect(m.canonicalize(obj("m", "a"))).toBe('{"a":1,"m":0}');
      expect(m.canonicalize(obj("m", "b", "a"))).toBe('{"a":2,"b":1,"m":0}');
    }
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 2, shapesStored: 2 });
  });
  it("at most 1024 shapes, however many distinct ones arrive", () => {
    for (let i = 0; i < 1500; i++) m.canonicalize(obj(`k${i}`, "z"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 1024, shapesStored: 1024 });
    for (let i = 0; i < 1024; i++) m.canonicalize(obj(`k${i}`, "z"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 1024, shapesStored: 1024 });
  });
  it("a first name of 64 units is stored, one of 65 is not", () => {
    m.canonicalize(obj("x".repeat(64), "a"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 1, shapesStored: 1 });
    m.canonicalize(obj("y".repeat(65), "a"));
    expect(m.canonicalCacheSizes()).toMatchObject({ shapes: 1, shapesStored: 1 });
  });
});

describe("the quoted-name cache", () => {
  it("at most 4096 names, however many distinct ones arrive", () => {
    for (let i = 0; i < 2500; i++) m.canonicalize(obj(`a${i}`, `b${i}`));
    expect(m.canonicalCacheSizes().quotedKeys).toBe(4096);
  });
  it("a name of 64 units is stored, one of 65 is not; a repeat is not stored twice", () => {
    m.canonicalize(obj("n".repeat(64)));
    m.canonicalize(obj("n".repeat(64)));
    expect(m.canonicalCacheSizes().quotedKeys).toBe(1);
    m.canonicalize(obj("o".repeat(65)));
    expect(m.canonicalCacheSizes().quotedKeys).toBe(1);
  });
});
