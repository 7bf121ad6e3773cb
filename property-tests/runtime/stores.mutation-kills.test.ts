// single-use, bookmark-store and store-support of the source runtime. The expectations are the
// documents' rules: an approval is used once per request, kept until its expiry plus the skew
// (research/agent-service-contract-recovered.md § 2.3-2.4: expiry strict, 60 s skew); a bookmark is
// the handled position and only moves forward (document 001 § Handling); a store call has a deadline
// and a missing optional peer names the package to install.
import { describe, expect, it, vi } from "vitest";
import { APPROVAL_TOKEN_USE_SCOPE, spendApprovalToken } from "../../generators/targets/ts/runtime/src/single-use.js";
import { MemoryBookmarkStore, assertSequence } from "../../generators/targets/ts/runtime/src/bookmark-store.js";
import { DEADLINE_TICK_MS, MissingPeerError, StoreTimeoutError, optionalPeer, withDeadline } from "../../generators/targets/ts/runtime/src/store-support.js";
import { MemoryReplayStore, type ReplayOutcome, type ReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";
import type { ApprovalClaims } from "../../generators/targets/ts/runtime/src/approval-token.js";

const claims = { exp: 1_700_000_600, request_id: "req-1" } as ApprovalClaims;
/** A store with only the call under test; the other two are never reached. */
const storeWith = (checkAndRecord: ReplayStore["checkAndRecord"]): ReplayStore => ({ checkAndRecord, evictExpired: async () => 0, size: async () => 0 });

describe("spendApprovalToken", () => {
  it("records the request id under the approval scope, kept past exp + 60 s skew", async () => {
    const calls: unknown[][] = [];
    const store = storeWith(async (...args) => (calls.push(args), "recorded"));
    expect(await spendApprovalToken(claims, store, 1_700_000_000_000)).toEqual({ ok: true });
    expect(calls).toEqual([["agent-service/approval-token", '["req-1"]', (1_700_000_600 + 1 + 60) * 1000, 1_700_000_000_000]]);
    expect(APPROVAL_TOKEN_USE_SCOPE).toBe("agent-service/approval-token");
  });
  it("a second use is already-used, on a shared store; another request is not", async () => {
    const store = new MemoryReplayStore();
    expect(await spendApprovalToken(claims, store, 1_700_000_000_000)).toEqual({ ok: true });
    expect(await spendApprovalToken(claims, store, 1_700_000_001_000)).toEqual({ ok: false, error: { code: "already-used", message: "approval token was already used for this request" } });
    expect(await spendApprovalToken({ ...claims, request_id: "req-2" }, store, 1_700_000_001_000)).toEqual({ ok: true });
    // Still refused at exp + 60 s (the token itself is refused as expired only after exp).
    expect((await spendApprovalToken(claims, store, (1_700_000_600 + 60) * 1000)).ok).toBe(false);
  });
  it("a full store and a failing store are their own codes; the message names the error class only", async () => {
    const full = storeWith(async (): Promise<ReplayOutcome> => "full");
    expect(await spendApprovalToken(claims, full)).toEqual({ ok: false, error: { code: "store-full", message: "once-only store is full of unexpired records" } });
    const down = storeWith(async () => { throw new TypeError("secret connection string"); });
    expect(await spendApprovalToken(claims, down)).toEqual({ ok: false, error: { code: "store-unavailable", message: "once-only store did not answer: TypeError" } });
    const odd = storeWith(async () => { throw "text"; });
    expect(await spendApprovalToken(claims, odd)).toEqual({ ok: false, error: { code: "store-unavailable", message: "once-only store did not answer: error" } });
  });
});

describe("MemoryBookmarkStore", () => {
  it("starts at 0 per scope and only moves forward", async () => {
    const store = new MemoryBookmarkStore();
    expect(await store.position("a")).toBe(0);
    expect(await store.advance("a", 11)).toBe(11);
    expect(await store.advance("a", 13)).toBe(13);
    expect(await store.advance("a", 12)).toBe(13);
    expect(await store.position("a")).toBe(13);
    expect(await store.position("b")).toBe(0);
    expect(await store.advance("b", 0)).toBe(0);
  });
  it("refuses a sequence that is not a non-negative safe integer, naming it", async () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) expect(() => assertSequence(bad), String(bad)).toThrow(RangeError);
    expect(() => assertSequence(-1)).toThrow("an inbox sequence is a non-negative safe integer, not -1");
    for (const ok of [0, 1, 2 ** 53 - 1]) expect(() => assertSequence(ok)).not.toThrow();
    await expect(new MemoryBookmarkStore().advance("a", -2)).rejects.toThrow(RangeError);
  });
});

describe("store-support", () => {
  it("withDeadline passes the answer through, or refuses with a StoreTimeoutError naming the call", async () => {
    expect(await withDeadline(Promise.resolve(7), 1000, "redis GET")).toBe(7);
    const late = withDeadline(new Promise(() => {}), 20, "redis GET");
    await expect(late).rejects.toThrow(StoreTimeoutError);
    await expect(withDeadline(new Promise(() => {}), 20, "redis GET")).rejects.toThrow("redis GET did not answer within 20 ms");
    const e = new StoreTimeoutError("x", 1);
    expect([e.name, e instanceof Error]).toEqual(["StoreTimeoutError", true]);
    await expect(withDeadline(Promise.reject(new Error("boom")), 1000, "x")).rejects.toThrow("boom");
  });
  it("the shared deadline timer stops once the last pending call settles, and a runtime whose timers are numbers works", async () => {
    vi.useFakeTimers();
    try {
      expect(await withDeadline(Promise.resolve(1), 60_000, "x")).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    // Browsers' setInterval returns a number, which has no unref.
    vi.stubGlobal("setInterval", () => 1);
    vi.stubGlobal("clearInterval", () => undefined);
    try {
      expect(await withDeadline(new Promise((resolve) => setImmediate(() => resolve(2))), 60_000, "x")).toBe(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });
  it("the shared deadline: each pending call times out on its own length, never sooner, at most a tick or two late, with its own label; settled calls anywhere in a list do not", async () => {
    const hung = () => new Promise<never>(() => {});
    let settleMiddle!: (v: string) => void;
    const started = performance.now();
    const elapsed = (p: Promise<unknown>): Promise<[string, number]> => p.then(() => ["ok", performance.now() - started], (e: Error) => [e.message, performance.now() - started]);
    const results = Promise.all([
      elapsed(withDeadline(hung(), 60, "a")),
      elapsed(withDeadline(new Promise<string>((resolve) => (settleMiddle = resolve)), 60, "b")),
      elapsed(withDeadline(hung(), 60, "c")),
      elapsed(withDeadline(hung(), 25, "d")),
      elapsed(withDeadline(new Promise((resolve) => setTimeout(() => resolve("late ok"), 10)), 1000, "e")),
    ]);
    settleMiddle("middle ok"); // taken out of the middle of the 60 ms list
    const got = await results;
    expect(got.map(([label]) => label)).toEqual(["a did not answer within 60 ms", "ok", "c did not answer within 60 ms", "d did not answer within 25 ms", "ok"]);
    for (const [i, ms] of [[0, 60], [2, 60], [3, 25]] as const) {
      expect(got[i]![1]).toBeGreaterThanOrEqual(ms);
      // One tick late at most, plus what a loaded machine adds to any timer.
      expect(got[i]![1]).toBeLessThan(ms + 1000);
    }
    expect(DEADLINE_TICK_MS).toBe(10);
  });
  it("the shared deadline timer runs again after it stopped, and a call that settles after its deadline changes nothing", async () => {
    await expect(withDeadline(new Promise(() => {}), 15, "first")).rejects.toThrow("first did not answer within 15 ms");
    let late!: (v: number) => void;
    const p = withDeadline(new Promise<number>((resolve) => (late = resolve)), 15, "second");
    await expect(p).rejects.toThrow("second did not answer within 15 ms");
    late(1);
    await expect(p).rejects.toThrow(StoreTimeoutError);
    expect(await withDeadline(Promise.resolve(3), 15, "third")).toBe(3);
  });
  it("optionalPeer loads, names a missing package (both module-not-found codes), and rethrows anything else", async () => {
    expect(await optionalPeer("ioredis", "the Redis store", async () => ({ ok: 1 }))).toEqual({ ok: 1 });
    for (const code of ["ERR_MODULE_NOT_FOUND", "MODULE_NOT_FOUND"]) {
      const missing = optionalPeer("ioredis", "the Redis store", async () => { throw Object.assign(new Error("nope"), { code }); });
      await expect(missing).rejects.toThrow(MissingPeerError);
      await expect(optionalPeer("ioredis", "the Redis store", async () => { throw Object.assign(new Error("nope"), { code }); })).rejects.toThrow('the Redis store needs the npm package "ioredis": npm install ioredis');
    }
    const other = new Error("syntax");
    await expect(optionalPeer("ioredis", "x", async () => { throw other; })).rejects.toBe(other);
    const e = new MissingPeerError("pg", "the PostgreSQL store");
    expect([e.name, e.packageName]).toEqual(["MissingPeerError", "pg"]);
  });
});
