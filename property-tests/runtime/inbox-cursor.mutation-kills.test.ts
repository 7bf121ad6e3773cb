// The inbox cursor of the source runtime driven through every edge and refusal of the expectation
// written by hand from document 001 (property-tests/lifecycles/expectations/provider-integration/
// inbox-handling.yaml, not the machine file), then the actions document 001 § Handling and the
// research note B4 require: read after the handled position, one entry at a time in sequence
// order, the handled position becomes the entry's own sequence (gaps allowed), dedupe by event_id
// or message_id, a poison entry reported and passed over, nothing moves on interruption.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { InboxCursor, type InboxEntryRef, isPoisonEntry } from "../../generators/targets/ts/runtime/src/inbox-cursor.js";
import { ROOT } from "../signing/helpers.js";

const exp = YAML.parse(readFileSync(join(ROOT, "property-tests/lifecycles/expectations/provider-integration/inbox-handling.yaml"), "utf8")) as {
  allowed: { from: string; event: string; to: string; guard?: string | string[] }[];
  refused: { from: string; event: string }[];
};
const msg = (sequence: number, extra: Partial<InboxEntryRef> = {}): InboxEntryRef => ({ sequence, type: "message.received", event_id: `e${sequence}`, payload: { message_id: `m${sequence}`, content: { encoding: "plaintext" } }, ...extra });

/** A cursor in `state`, reached through allowed steps. */
function cursorIn(state: string): InboxCursor {
  const c = new InboxCursor();
  if (state === "reading") c.notify();
  if (state === "pending") (c.notify(), c.notify());
  if (state === "handling") (c.notify(), c.pageReceived([msg(1)]));
  if (state === "stopped") c.stop();
  expect(c.state).toBe(state);
  return c;
}
/** A page satisfying the guard literals of an edge. */
function page(guard: string | string[] | undefined): InboxEntryRef[] {
  const g = new Set(guard === undefined ? [] : Array.isArray(guard) ? guard : [guard]);
  if (g.has("not hasEntry")) return [];
  if (g.has("needsRuntime")) return [msg(5)];
  if (g.has("poison")) return [msg(5, { payload: null })];
  return [{ sequence: 5, type: "contact.accepted" }];
}
function fire(c: InboxCursor, event: string, guard?: string | string[]) {
  switch (event) {
    case "notify": return c.notify();
    case "live_changed": return c.liveChanged();
    case "connected": return c.connected();
    case "page_received": return c.pageReceived(page(guard));
    case "read_failed": return c.readFailed();
    case "runtime_finished": return c.runtimeFinished();
    case "runtime_interrupted": return c.runtimeInterrupted();
    case "stop": return c.stop();
  }
  throw new Error(event);
}

describe("every edge of the document's expectation", () => {
  for (const e of exp.allowed) {
    it(`${e.from} --${e.event}--> ${e.to} ${JSON.stringify(e.guard ?? [])}`, () => {
      const step = fire(cursorIn(e.from), e.event, e.guard);
      expect(step.ok).toBe(true);
      expect(step.state).toBe(e.to);
    });
  }
  for (const r of exp.refused) {
    it(`${r.from} / ${r.event} is refused and changes nothing`, () => {
      const c = cursorIn(r.from);
      const before = c.snapshot();
      expect(fire(c, r.event, ["hasEntry", "needsRuntime"])).toEqual({ ok: false, state: r.from, reason: "not_allowed" });
      expect([c.state, c.snapshot()]).toEqual([r.from, before]);
    });
  }
});

describe("the actions (document 001 § Handling, research B4)", () => {
  it("a hint reads after the handled position; hints during a read or handling ask for nothing", () => {
    const c = new InboxCursor({ handledPosition: 7, handledIds: [] });
    expect(c.connected()).toEqual({ ok: true, state: "reading", actions: [{ kind: "read", afterSequence: 7 }] });
    expect(c.liveChanged()).toEqual({ ok: true, state: "pending", actions: [] });
    expect(c.pageReceived([])).toEqual({ ok: true, state: "reading", actions: [{ kind: "read", afterSequence: 7 }] });
    expect(c.pageReceived([{ sequence: 7, type: "message.received" }, msg(3)])).toEqual({ ok: true, state: "idle", actions: [] });
  });
  it("one entry at a time, lowest sequence first; gaps {11, 13}: the position becomes 11, then 13", () => {
    const c = new InboxCursor({ handledPosition: 10, handledIds: [] });
    c.notify();
    expect(c.pageReceived([msg(13), msg(11)])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: msg(11) }] });
    expect(c.handling).toEqual(msg(11));
    expect(c.notify()).toEqual({ ok: true, state: "handling", actions: [] });
    expect(c.runtimeFinished()).toEqual({ ok: true, state: "reading", actions: [{ kind: "bookmark", sequence: 11 }, { kind: "read", afterSequence: 11 }] });
    expect(c.handling).toBeUndefined();
    expect(c.pageReceived([msg(11), msg(13)])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: msg(13) }] });
    c.runtimeFinished();
    expect(c.handledPosition).toBe(13);
    expect(c.snapshot()).toEqual({ handledPosition: 13, handledIds: ["event:e11", "event:e13", "message:m11", "message:m13"] });
  });
  it("entries without a safe integer sequence are not part of the page", () => {
    const c = cursorIn("reading");
    expect(c.pageReceived([msg(1.5), msg(Number.NaN), msg(2 ** 53)])).toEqual({ ok: true, state: "idle", actions: [] });
  });
  it("an interruption leaves the position, so the same entry is dispatched again", () => {
    const c = cursorIn("handling");
    expect(c.runtimeInterrupted()).toEqual({ ok: true, state: "idle", actions: [] });
    expect([c.handledPosition, c.handling]).toEqual([0, undefined]);
    c.notify();
    expect(c.pageReceived([msg(1)]).ok && c.state).toBe("handling");
    expect(c.handling).toEqual(msg(1));
  });
  it("dedupe: an entry whose event_id or message_id was handled is bookmarked without the runtime", () => {
    for (const dup of [msg(9, { event_id: "e1", payload: { message_id: "new", content: { encoding: "plaintext" } } }), msg(9, { event_id: "new", payload: { message_id: "m1", content: { encoding: "plaintext" } } })]) {
      const c = new InboxCursor({ handledPosition: 1, handledIds: ["event:e1", "message:m1"] });
      c.notify();
      expect(c.pageReceived([dup])).toEqual({ ok: true, state: "reading", actions: [{ kind: "bookmark", sequence: 9 }, { kind: "read", afterSequence: 9 }] });
    }
    const fresh = new InboxCursor({ handledPosition: 1, handledIds: ["event:", "message:"] });
    fresh.notify();
    expect(fresh.pageReceived([msg(2, { event_id: "", payload: { message_id: "", content: { encoding: "plaintext" } } })]).state).toBe("handling");
    expect(fresh.isSkippable({ sequence: 3, type: "other" })).toBe(true);
    expect(fresh.isSkippable(msg(3))).toBe(false);
  });
  it("a poison entry is reported and passed over, and the next is handled in order", () => {
    const c = cursorIn("pending");
    const poison = msg(1, { payload: { message_id: "x", content: { encoding: "base64" } } });
    expect(c.pageReceived([msg(2), poison])).toEqual({ ok: true, state: "reading", actions: [{ kind: "report-poison", entry: poison }, { kind: "bookmark", sequence: 1 }, { kind: "read", afterSequence: 1 }] });
    expect(c.pageReceived([msg(2)]).state).toBe("handling");
    expect(c.snapshot().handledIds).toEqual(["event:e1", "message:x"]);
  });
  it("isPoisonEntry: no type, or a message without a payload object or with non-plaintext content", () => {
    expect(isPoisonEntry({ sequence: 1, type: "" })).toBe(true);
    expect(isPoisonEntry({ sequence: 1 } as InboxEntryRef)).toBe(true);
    expect(isPoisonEntry({ sequence: 1, type: "contact.accepted" })).toBe(false);
    expect(isPoisonEntry({ sequence: 1, type: "message.received" })).toBe(true);
    expect(isPoisonEntry({ sequence: 1, type: "message.received", payload: null })).toBe(true);
    expect(isPoisonEntry({ sequence: 1, type: "message.received", payload: [] as never })).toBe(true);
    expect(isPoisonEntry({ sequence: 1, type: "message.received", payload: {} })).toBe(false);
    expect(isPoisonEntry({ sequence: 1, type: "message.received", payload: { content: {} } })).toBe(true);
    expect(isPoisonEntry(msg(1))).toBe(false);
  });
  it("stop keeps the handled position and forgets the entry in flight; the snapshot is sorted", () => {
    const c = new InboxCursor({ handledPosition: 4, handledIds: ["message:b", "event:a"] });
    expect(c.snapshot()).toEqual({ handledPosition: 4, handledIds: ["event:a", "message:b"] });
    c.notify();
    c.pageReceived([msg(5)]);
    expect(c.stop()).toEqual({ ok: true, state: "stopped", actions: [] });
    expect([c.handledPosition, c.handling]).toEqual([4, undefined]);
  });
  it("ids are strings only; a null content is poison, not a crash; a failed read asks for nothing", () => {
    const c = new InboxCursor({ handledPosition: 1, handledIds: ["event:5", "message:7"] });
    c.notify();
    expect(c.pageReceived([msg(2, { event_id: 5 as never, payload: { message_id: 7 as never, content: { encoding: "plaintext" } } })]).state).toBe("handling");
    expect(isPoisonEntry({ sequence: 1, type: "message.received", payload: { content: null as never } })).toBe(true);
    const r = cursorIn("reading");
    expect(r.readFailed()).toStrictEqual({ ok: true, state: "idle", actions: [] });
  });
});

