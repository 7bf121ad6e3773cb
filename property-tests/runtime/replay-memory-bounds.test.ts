// The in-memory replay store forgets a scope once its last record is evicted: scope names come
// from the message (provider and host ids), so emptied scopes kept forever would let a sender grow
// the store's memory without bound while its record count stays within maxEntries. The scope map is
// private; this reads it the way a heap snapshot would, since no public API counts scopes.
import { describe, expect, it } from "vitest";
import { MemoryReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";

const scopesOf = (store: MemoryReplayStore): number => (store as unknown as { scopes: Map<string, unknown> }).scopes.size;

describe("MemoryReplayStore scopes", () => {
  it("a scope whose records are all evicted is dropped, one with a live record kept", async () => {
    const store = new MemoryReplayStore(10_000, 10);
    for (let i = 0; i < 1000; i++) expect(await store.checkAndRecord(`sender-${i}`, "k", 1_000, 0)).toBe("recorded");
    expect(await store.checkAndRecord("live", "k", 5_000, 0)).toBe("recorded");
    expect(scopesOf(store)).toBe(1001);
    expect(await store.evictExpired(1_000)).toBe(1000);
    expect(scopesOf(store)).toBe(1);
    expect(await store.size()).toBe(1);
  });
});
