// store-support's fleet checks: StoreSafetyError, PeriodicCheck (first use, shared runs, the
// interval, a failed run, a new connection) and ServerClock (the server's time carried forward on
// the monotonic clock, compared within the bound plus half the round trip). The expectations are
// the rules docs-site/guides/running-a-fleet.md states; the stores using them run against real
// servers in property-tests/fleet/fleet-safety.test.ts.
import { describe, expect, it, vi } from "vitest";
import { PeriodicCheck, ServerClock, StoreSafetyError } from "../../generators/targets/ts/runtime/src/store-support.js";

describe("store-support fleet checks", () => {
  it("StoreSafetyError carries its problem, its message and its name", () => {
    const e = new StoreSafetyError("may-evict", "redis may evict keys");
    expect([e.name, e.problem, e.message, e instanceof Error]).toEqual(["StoreSafetyError", "may-evict", "redis may evict keys", true]);
  });
  it("PeriodicCheck: runs on first use, shares one run, is skipped within the interval, runs again after it, after a failure and on a new connection", async () => {
    // The monotonic clock is the test's: a loaded machine's stalls between two lines (40 ms of
    // real time did, at load 28) cannot age the last pass.
    let clockMs = 1000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => clockMs);
    try {
      let runs = 0;
      let fail = false;
      const check = new PeriodicCheck(40, async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 1));
        if (fail) throw new Error("refused");
      });
      const first = check.due(0);
      expect(first).toBeInstanceOf(Promise);
      expect(check.due(0)).toBe(first);
      await first;
      expect(runs).toBe(1);
      expect(check.due(0)).toBeUndefined();
      // Another connection (a reconnect) is checked at once.
      await check.due(1);
      expect(runs).toBe(2);
      expect(check.due(1)).toBeUndefined();
      clockMs += 50;
      fail = true;
      await expect(check.due(1)).rejects.toThrow("refused");
      expect(runs).toBe(3);
      // A failed run leaves the check due: the next call runs it again.
      fail = false;
      await check.due(1);
      expect(runs).toBe(4);
      expect(check.due(1)).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
  });
  it("PeriodicCheck: half an interval after a pass the next run starts in the background; callers wait only once the last pass is an interval old or failed", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let runs = 0;
    let fail = false;
    let release: () => void = () => {};
    let hold = false;
    const check = new PeriodicCheck(1000, async () => {
      runs++;
      if (hold) await new Promise<void>((r) => (release = r));
      if (fail) throw new Error("refused");
    });
    await check.due(0);
    expect(runs).toBe(1);
    // Before half the interval: nothing runs.
    await sleep(50);
    expect(check.due(0)).toBeUndefined();
    expect(runs).toBe(1);
    // After half the interval: the caller goes on, and a run has started behind it.
    await sleep(500);
    hold = true;
    expect(check.due(0)).toBeUndefined();
    expect(runs).toBe(2);
    // The run is shared: a second caller neither waits nor starts another.
    expect(check.due(0)).toBeUndefined();
    expect(runs).toBe(2);
    // Once the last pass is an interval old the caller waits for the run in flight.
    await sleep(500);
    const waiting = check.due(0);
    expect(waiting).toBeInstanceOf(Promise);
    release();
    await waiting;
    expect(runs).toBe(2);
    // A background run that fails leaves the store refused: the next caller waits for a new run.
    hold = false;
    await sleep(50);
    fail = true;
    hold = true;
    expect(check.due(0)).toBeUndefined();
    hold = false;
    release();
    await sleep(10);
    const refused = check.due(0);
    expect(refused).toBeInstanceOf(Promise);
    await expect(refused).rejects.toThrow("refused");
    expect(runs).toBe(4);
  });
  it("PeriodicCheck: a run in flight for the connection before a reconnect is not shared with the new connection", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const connections: number[] = [];
    const check = new PeriodicCheck(10_000, async () => {
      runs++;
      await new Promise<void>((r) => (release = r));
    });
    const old = check.due(0) as Promise<void>;
    const afterReconnect = check.due(1) as Promise<void>;
    expect(afterReconnect).not.toBe(old);
    void old.then(() => connections.push(0));
    void afterReconnect.then(() => connections.push(1));
    release();
    await old;
    // The old run has passed; the new connection's caller is still waiting, on a run of its own.
    await new Promise((r) => setTimeout(r, 10));
    expect([runs, connections]).toEqual([2, [0]]);
    release();
    await afterReconnect;
    expect(connections).toEqual([0, 1]);
    expect(check.due(1)).toBeUndefined();
  });
  it("ServerClock: the server's time carried forward locally, compared within the bound plus half the round trip", () => {
    const clock = new ServerClock();
    // Never read: refused.
    expect(() => clock.assertWithin(0, 1e9, "Redis")).toThrow(StoreSafetyError);
    const t = performance.now();
    // Read at server time 1 000 000 over a 1000 ms round trip: uncertain by 500 ms, so 1500 ms are
    // allowed around 1 000 500. Margins of a few hundred ms: the local clock moves on while the test runs.
    clock.observe(1_000_000, t - 1000, t);
    expect(() => clock.assertWithin(1_000_500 + 1450, 1000, "Redis")).not.toThrow();
    expect(() => clock.assertWithin(1_000_500 - 1200, 1000, "Redis")).not.toThrow();
    try {
      clock.assertWithin(1_000_500 + 1900, 1000, "Redis");
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: "StoreSafetyError", problem: "clock-skew" });
      expect((error as Error).message).toMatch(/^this replica's clock differs from the Redis server's by 1[5-9][0-9]{2} ms, more than the 1000 ms allowed \(maxClockSkewMs\): a record could expire while the message is still accepted; fix the clock \(NTP\)$/);
    }
    expect(() => clock.assertWithin(1_000_500 - 1600, 1000, "PostgreSQL")).toThrow(/PostgreSQL server's by -(1[6-9]|2[0-9])[0-9]{2} ms/);
    // Carried forward: read 300 ms ago on the local clock, the server is now 300 ms further on.
    const later = new ServerClock();
    const readAt = performance.now() - 300;
    later.observe(5000, readAt, readAt);
    expect(() => later.assertWithin(5300, 100, "Redis")).not.toThrow();
    expect(() => later.assertWithin(5000, 100, "Redis")).toThrow(StoreSafetyError);
  });
});
