// MemoryReplayStore's sweep schedule (replay-guard.ts): the scan a full store runs is for a new
// key's room; a held key already has its slot, so re-recording it scans nothing and the other
// expired records wait for the periodic sweep (a minute after the last), as the class comment says.
import { describe, expect, it } from "vitest";
import { MemoryReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";

describe("MemoryReplayStore between sweeps", () => {
  it("re-recording an expired key of a full store scans nothing: the other expired records wait for the sweep", async () => {
    const s = new MemoryReplayStore(2, 2);
    expect(await s.checkAndRecord("s", "a", 10, 0)).toBe("recorded"); // the sweep ran at 0
    expect(await s.checkAndRecord("s", "b", 10, 0)).toBe("recorded");
    expect(await s.checkAndRecord("s", "a", 100_000, 20)).toBe("recorded");
    expect(await s.size()).toBe(2);
    expect(await s.checkAndRecord("s", "c", 100_000, 30)).toBe("recorded"); // a new key: the scan frees b's slot
    expect(await s.size()).toBe(2);
  });
});
