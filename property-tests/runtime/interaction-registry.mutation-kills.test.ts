// interaction-registry.ts against research/agent-service-contract-recovered.md § 1.6 (the respond
// rules and their messages, in order) and § 3.1 (MAX_PENDING 1024, timeout default 600 s and at
// least 5 s, a disconnect abandons the run's entries, a later answer is 404), written out by hand;
// respondOnce against a recording once-only store.
import { describe, expect, it } from "vitest";
import {
  CANCEL_ID,
  CANCEL_VALUE,
  DEFAULT_INTERACTION_TIMEOUT_MS,
  DEFAULT_MAX_PENDING,
  INTERACTION_ANSWER_SCOPE,
  InteractionRegistry,
  MIN_INTERACTION_TIMEOUT_MS,
  decide,
  type InteractionAnswer,
  type InteractionDecision,
  type InteractionPrompt,
} from "../../generators/targets/ts/runtime/src/interaction-registry.js";
import type { ReplayOutcome, ReplayStore } from "../../generators/targets/ts/runtime/src/replay-guard.js";

const RADIO: InteractionPrompt = { inputType: "radio", options: [{ id: "low", value: "low" }, { id: "high", value: "high" }, { id: "cancel", value: "__CANCEL__" }] };
const TEXT: InteractionPrompt = { inputType: "text" };
const HIGH: InteractionAnswer = { type: "radio", selected_option: { id: "high", label: "x", value: "high" } };
const NOT_FOUND = "no pending interaction with that id";

/** A registry on a hand-driven clock, with every decision each interaction received. */
function setUp(options: { timeoutMs?: number; maxPending?: number } = {}) {
  let t = 1_000_000;
  const got: Record<string, InteractionDecision[]> = {};
  const registry = new InteractionRegistry({ ...options, now: () => t });
  const open = (executionId: string, interactionId: string, prompt: InteractionPrompt = RADIO, alive = true) =>
    registry.open({ executionId, interactionId, owner: "alice", prompt, deliver: (d) => ((got[`${executionId}/${interactionId}`] ??= []).push(d), alive) });
  return { registry, open, got, advance: (ms: number) => (t += ms), now: () => t };
}

describe("constants (§ 3.1)", () => {
  it("are the documented ones", () => {
    expect([DEFAULT_INTERACTION_TIMEOUT_MS, MIN_INTERACTION_TIMEOUT_MS, DEFAULT_MAX_PENDING, CANCEL_ID, CANCEL_VALUE]).toEqual([600_000, 5_000, 1024, "cancel", "__CANCEL__"]);
    expect(INTERACTION_ANSWER_SCOPE).toBe("agent-service/interaction-answer");
  });
});

describe("timeouts", () => {
  it("default 600 s: pending until then, expired (and the run told) once it has passed", () => {
    const { registry, open, got, advance } = setUp();
    open("e", "i");
    advance(599_999);
    expect(registry.state("e", "i")).toBe("pending");
    advance(1);
    expect(registry.state("e", "i")).toBe("expired");
    expect(got["e/i"]).toEqual([{ kind: "expired" }]);
    expect(registry.respond("e", "i", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "expired" });
  });
  it("a timeout below 5 s is raised to 5 s", () => {
    const { registry, open, advance } = setUp({ timeoutMs: 1000 });
    open("e", "i");
    advance(4_999);
    expect(registry.pendingCount()).toBe(1);
    advance(1);
    expect(registry.pendingCount()).toBe(0);
  });
  it("a longer timeout is kept", () => {
    const { registry, open, advance } = setUp({ timeoutMs: 700_000 });
    open("e", "i");
    advance(699_999);
    expect(registry.state("e", "i")).toBe("pending");
  });
  it("expireDue expires every due entry once and counts them", () => {
    const { registry, open, got, advance } = setUp({ timeoutMs: 10_000 });
    open("e", "a");
    advance(5_000);
    open("e", "b");
    expect(registry.expireDue()).toBe(0);
    advance(5_000);
    expect(registry.expireDue()).toBe(1);
    advance(5_000);
    expect(registry.expireDue()).toBe(1);
    expect(registry.expireDue()).toBe(0);
    expect([got["e/a"], got["e/b"]]).toEqual([[{ kind: "expired" }], [{ kind: "expired" }]]);
  });
  it("the clock defaults to Date.now", () => {
    const registry = new InteractionRegistry();
    registry.open({ executionId: "e", interactionId: "i", owner: "alice", prompt: TEXT, deliver: () => true });
    expect(registry.state("e", "i")).toBe("pending");
  });
});

describe("open", () => {
  it(`at most ${DEFAULT_MAX_PENDING} pending; an expired one makes room`, () => {
    const { registry, open, advance } = setUp();
    for (let i = 0; i < 1024; i++) expect(open("e", `i${i}`)).toEqual({ ok: true });
    expect(open("e", "one-more")).toEqual({ ok: false, error: "too_many_pending" });
    advance(600_000);
    expect(open("e", "one-more")).toEqual({ ok: true });
    expect(registry.pendingCount()).toBe(1);
  });
  it("maxPending is configurable", () => {
    const { open } = setUp({ maxPending: 1 });
    expect([open("e", "a").ok, open("e", "b").ok]).toEqual([true, false]);
  });
  it("a key already pending or settled cannot be opened again", () => {
    const { registry, open } = setUp();
    open("e", "i");
    expect(open("e", "i")).toEqual({ ok: false, error: "already_open" });
    registry.respond("e", "i", "alice", HIGH);
    expect(open("e", "i")).toEqual({ ok: false, error: "already_open" });
  });
});

describe("respond (§ 1.6, rules in order)", () => {
  it("404 without a state for a key never opened", () => {
    // toStrictEqual: no state member at all, not one set to undefined.
    expect(setUp().registry.respond("e", "i", "alice", HIGH)).toStrictEqual({ status: 404, error: NOT_FOUND });
  });
  it("403 and 422 leave the entry pending, with the documented messages", () => {
    const { registry, open } = setUp();
    open("e", "i");
    expect(registry.respond("e", "i", "mallory", HIGH)).toEqual({ status: 403, error: "this approval was not addressed to the authenticated user", state: "pending" });
    expect(registry.respond("e", "i", "alice", { type: "text", text: "x" })).toEqual({ status: 422, error: 'response type "text" does not match the pending prompt type "radio"', state: "pending" });
    expect(registry.respond("e", "i", "alice", { type: "binary_choice", selected_option: { id: "high", label: "x", value: true } }).status).toBe(422);
    expect(registry.state("e", "i")).toBe("pending");
  });
  it("410 when the run has gone: the entry is removed, a later answer is 404", () => {
    const { registry, open, got } = setUp();
    open("e", "i", RADIO, false);
    expect(registry.respond("e", "i", "alice", HIGH)).toEqual({ status: 410, error: "the run this interaction belonged to has ended", state: "abandoned" });
    expect(got["e/i"]).toEqual([{ kind: "selected", id: "high", value: "high" }]);
    expect(registry.respond("e", "i", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "abandoned" });
  });
  it("204 cancelled for the text cancellation, answered for text", () => {
    const { registry, open, got } = setUp();
    open("e", "t", TEXT);
    open("e", "u", TEXT);
    expect(registry.respond("e", "t", "alice", { type: "text", text: " __CANCEL__ " })).toEqual({ status: 204, state: "cancelled" });
    expect(registry.state("e", "t")).toBe("cancelled");
    expect(registry.respond("e", "u", "alice", { type: "text", text: "\tok\n" })).toEqual({ status: 204, state: "answered" });
    expect(got).toEqual({ "e/t": [{ kind: "cancelled" }], "e/u": [{ kind: "answered", text: "ok" }] });
  });
  it("keys do not run together: (e, i) is not (e\\u0000i, '') or another execution's i", () => {
    const { registry, open } = setUp();
    open("e", "i");
    expect(registry.respond("e\u0000i", "", "alice", HIGH).status).toBe(404);
    expect(registry.respond("f", "i", "alice", HIGH).status).toBe(404);
    expect(registry.state("e", "i")).toBe("pending");
  });
});

describe("decide (§ 1.6 rules 3-4)", () => {
  const notOffered = { error: "the submitted choice was not offered by this prompt" };
  const radio = (id: string, value: string): InteractionAnswer => ({ type: "radio", selected_option: { id, label: "any", value } });
  it("half a cancel pair is not offered; the whole pair is a cancellation", () => {
    expect(decide(RADIO, radio("cancel", "high"))).toEqual(notOffered);
    expect(decide(RADIO, radio("high", "__CANCEL__"))).toEqual(notOffered);
    expect(decide(RADIO, radio("cancel", "__CANCEL__"))).toEqual({ kind: "cancelled" });
    // The cancel pair is always offered, even by a prompt whose options omit it.
    expect(decide({ inputType: "radio", options: [{ id: "a", value: "a" }] }, radio("cancel", "__CANCEL__"))).toEqual({ kind: "cancelled" });
  });
  it("either half of the cancel pair decides alone, even against an option that offers it (rule 4a before 4b)", () => {
    const odd: InteractionPrompt = { inputType: "radio", options: [{ id: "cancel", value: "stop" }, { id: "quit", value: "__CANCEL__" }] };
    expect(decide(odd, radio("cancel", "stop"))).toEqual(notOffered);
    expect(decide(odd, radio("quit", "__CANCEL__"))).toEqual(notOffered);
    expect(decide(odd, radio("cancel", "__CANCEL__"))).toEqual({ kind: "cancelled" });
  });
  it("an option needs the same id and value; label and description are not compared", () => {
    expect(decide(RADIO, radio("low", "low"))).toEqual({ kind: "selected", id: "low", value: "low" });
    expect(decide(RADIO, radio("low", "high"))).toEqual(notOffered);
    expect(decide(RADIO, radio("none", "none"))).toEqual(notOffered);
  });
  it("text: trimmed, not empty", () => {
    expect(decide(TEXT, { type: "text", text: "\u00a0 \n" })).toEqual({ error: "a text answer must not be empty" });
    expect(decide(TEXT, { type: "text", text: "__CANCEL__x" })).toEqual({ kind: "answered", text: "__CANCEL__x" });
  });
});

describe("runEnded (§ 3.1: a disconnect abandons the run's entries)", () => {
  it("abandons exactly that execution's pending entries, without telling the gone run", () => {
    const { registry, open, got } = setUp();
    open("e", "a");
    open("e", "b");
    open("e2", "a");
    open("x", "e");
    registry.respond("e", "b", "alice", HIGH);
    expect(registry.runEnded("e")).toBe(1);
    expect([registry.state("e", "a"), registry.state("e", "b"), registry.state("e2", "a"), registry.state("x", "e")]).toEqual(["abandoned", "answered", "pending", "pending"]);
    expect(got["e/a"]).toBeUndefined();
    expect(registry.respond("e", "a", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "abandoned" });
    expect(registry.runEnded("e")).toBe(0);
    expect(registry.pendingCount()).toBe(2);
  });
  it("expires due entries first, so they are expired, not abandoned", () => {
    const { registry, open, got, advance } = setUp();
    open("e", "a");
    advance(600_000);
    expect(registry.runEnded("e")).toBe(0);
    expect(registry.state("e", "a")).toBe("expired");
    expect(got["e/a"]).toEqual([{ kind: "expired" }]);
  });
});

describe("respondOnce (the answer claimed in a shared once-only store)", () => {
  function recording(outcome: ReplayOutcome | (() => Promise<ReplayOutcome>)) {
    const calls: unknown[][] = [];
    const store: ReplayStore = {
      checkAndRecord: (...args) => (calls.push(args), typeof outcome === "function" ? outcome() : Promise.resolve(outcome)),
      evictExpired: async () => 0,
      size: async () => 0,
    };
    return { store, calls };
  }
  it("claims JSON [execution_id, interaction_id] until a minute past the deadline, then delivers", async () => {
    const { registry, open, got, now } = setUp({ timeoutMs: 10_000 });
    open("e", "i");
    const { store, calls } = recording("recorded");
    expect(await registry.respondOnce(store, "e", "i", "alice", HIGH)).toEqual({ status: 204, state: "answered" });
    expect(calls).toEqual([["agent-service/interaction-answer", '["e","i"]', now() + 10_000 + 60_000, now()]]);
    expect(got["e/i"]).toEqual([{ kind: "selected", id: "high", value: "high" }]);
  });
  it("refused before the claim (403, 404, 422): the store is not asked", async () => {
    const { registry, open } = setUp();
    open("e", "i");
    const { store, calls } = recording("recorded");
    expect((await registry.respondOnce(store, "e", "i", "mallory", HIGH)).status).toBe(403);
    expect((await registry.respondOnce(store, "e", "nope", "alice", HIGH)).status).toBe(404);
    expect((await registry.respondOnce(store, "e", "i", "alice", { type: "text", text: "x" })).status).toBe(422);
    expect(calls).toEqual([]);
  });
  for (const outcome of ["replayed", "full"] as const) {
    it(`a ${outcome} claim (answered elsewhere) is 404 and settles this replica's copy`, async () => {
      const { registry, open, got } = setUp();
      open("e", "i");
      expect(await registry.respondOnce(recording(outcome).store, "e", "i", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "answered" });
      expect(registry.state("e", "i")).toBe("answered");
      expect(registry.pendingCount()).toBe(0);
      expect(got["e/i"]).toBeUndefined();
    });
  }
  it("an entry settled while the claim was in flight is 404 with the state it reached", async () => {
    const { registry, open, got } = setUp();
    open("e", "i");
    const ended = recording(async () => (registry.runEnded("e"), "recorded"));
    expect(await registry.respondOnce(ended.store, "e", "i", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "abandoned" });
    expect(got["e/i"]).toBeUndefined();
  });
  it("an entry that timed out while the claim was in flight is 404 expired", async () => {
    const { registry, open, got, advance } = setUp();
    open("e", "i");
    const late = recording(async () => (advance(600_000), registry.expireDue(), "recorded"));
    expect(await registry.respondOnce(late.store, "e", "i", "alice", HIGH)).toEqual({ status: 404, error: NOT_FOUND, state: "expired" });
    expect(got["e/i"]).toEqual([{ kind: "expired" }]);
  });
  it("a store that rejects delivers nothing (fail closed)", async () => {
    const { registry, open, got } = setUp();
    open("e", "i");
    const broken = recording(() => Promise.reject(new Error("store down")));
    await expect(registry.respondOnce(broken.store, "e", "i", "alice", HIGH)).rejects.toThrow("store down");
    expect(got["e/i"]).toBeUndefined();
    expect(registry.state("e", "i")).toBe("pending");
  });
});
