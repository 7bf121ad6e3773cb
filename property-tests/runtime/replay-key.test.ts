// MemoryReplayStore keeps a UUID key in a packed form (compactReplayKey, replay-guard.ts) to hold a
// live record in fewer bytes. The packing must be one-to-one over every string, or two different
// messages would share a record (a fresh message refused as a replay, or worse the reverse): checked
// on generated keys built to collide (UUID keys, their packed forms written out as keys, strings
// starting with the marks) and on hand-packed examples (the 128 bits of the UUID, 16 per unit).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactReplayKey, MemoryReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";

const uuidKey = (uuid: string): string => JSON.stringify([uuid]);
const units = (...values: number[]): string => String.fromCharCode(...values);

describe("compactReplayKey", () => {
  it("packs a lowercase UUID key into the mark and 8 units of 16 bits", () => {
    expect(compactReplayKey(uuidKey("00000000-0000-4000-8000-000000000000"))).toBe(units(1, 0, 0, 0, 0x4000, 0x8000, 0, 0, 0));
    expect(compactReplayKey(uuidKey("0123abcd-ef01-4567-89ab-cdef01234567"))).toBe(units(1, 0x0123, 0xabcd, 0xef01, 0x4567, 0x89ab, 0xcdef, 0x0123, 0x4567));
    expect(compactReplayKey(uuidKey("ffffffff-ffff-ffff-ffff-ffffffffffff"))).toBe(units(1, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff));
  });
  it("keeps every other key as it is: uppercase hex, a dash moved, a character outside hex, another length, other JSON", () => {
    for (const key of [
      uuidKey("0123ABCD-ef01-4567-89ab-cdef01234567"),
      uuidKey("0123abcd0-ef1-4567-89ab-cdef01234567"),
      uuidKey("0123abcg-ef01-4567-89ab-cdef01234567"),
      uuidKey("0123abcd-ef01-4567-89ab-cdef0123456"),
      uuidKey("0123abcd-ef01-4567-89ab-cdef012345678"),
      `['0123abcd-ef01-4567-89ab-cdef01234567']`,
      `["0123abcd-ef01-4567-89ab-cdef01234567",`,
      `("0123abcd-ef01-4567-89ab-cdef01234567"]`,
      `["0123abcd-ef01-4567-89ab-cdef01234567')`,
      `["0123abcd-ef01-4567-89ab-cdef01234567" `,
      uuidKey("trigger-1"),
      "",
      "k1",
    ]) {
      expect(compactReplayKey(key), key).toBe(key);
    }
  });
  it("puts the raw mark before a key that starts with either mark", () => {
    expect(compactReplayKey(units(1, 0x4000))).toBe(units(2, 1, 0x4000));
    expect(compactReplayKey(units(2))).toBe(units(2, 2));
    expect(compactReplayKey(units(3, 1))).toBe(units(3, 1));
  });
  it("is one-to-one on keys built to collide", () => {
    const hex = fc.constantFrom(..."0123456789abcdefA".split(""));
    const uuid = fc.array(hex, { minLength: 32, maxLength: 32 }).map((d) => `${d.slice(0, 8).join("")}-${d.slice(8, 12).join("")}-${d.slice(12, 16).join("")}-${d.slice(16, 20).join("")}-${d.slice(20).join("")}`);
    const key = fc.oneof(
      uuid.map(uuidKey),
      uuid.map((u) => compactReplayKey(uuidKey(u))),
      uuid.map((u) => units(2) + compactReplayKey(uuidKey(u))),
      fc.string({ unit: fc.constantFrom("\u0001", "\u0002", "a", "[", "\"", "]", "-") }),
      fc.string({ unit: "grapheme" }),
    );
    fc.assert(fc.property(key, key, (a, b) => (compactReplayKey(a) === compactReplayKey(b)) === (a === b)), { numRuns: 5000, seed: 36 });
  });
});

describe("MemoryReplayStore with packed keys", () => {
  it("a UUID key replays as itself, and a key spelled like its packed form is another key", () => {
    const store = new MemoryReplayStore(10, 10);
    const key = uuidKey("0123abcd-ef01-4567-89ab-cdef01234567");
    expect(store.checkAndRecordNow("s", key, 2_000, 1_000)).toBe("recorded");
    expect(store.checkAndRecordNow("s", key, 2_000, 1_500)).toBe("replayed");
    expect(store.checkAndRecordNow("s", compactReplayKey(key), 2_000, 1_500)).toBe("recorded");
    expect(store.checkAndRecordNow("s", compactReplayKey(key), 2_000, 1_500)).toBe("replayed");
    expect(store.checkAndRecordNow("s", uuidKey("0123ABCD-ef01-4567-89ab-cdef01234567"), 2_000, 1_500)).toBe("recorded");
    expect(store.checkAndRecordNow("s", key, 3_000, 2_000)).toBe("recorded");
  });
});
