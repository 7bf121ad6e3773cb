// The provider-integration inbox cursor against the generated `inbox-handling` machine. A fake
// inbox grows (with sequence gaps and poison entries) while random notifications, live frames and
// reconnects (duplicates included), pages, read failures, runtime completions, interruptions and
// stops arrive; the cursor and the machine must agree on the state
// and on the actions (read, dispatch, bookmark), the handled position must move only when the
// runtime finished (or past an entry that needs no runtime), and every message reaches the runtime
// until it is finished, and never after.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { InboxCursor, isPoisonEntry, MESSAGE_RECEIVED, type CursorAction, type InboxEntryRef } from "../../generators/targets/ts/runtime/src/inbox-cursor.js";
import { importMachine, materialize, type GeneratedMachineModule } from "./support.js";

let machine: GeneratedMachineModule;
beforeAll(async () => {
  machine = await importMachine(materialize(), "provider-integration", "inbox-handling");
});

type Command =
  | { kind: "arrive"; type: "message" | "other" | "duplicate" | "poison"; gap: boolean }
  | { kind: "notify" | "live" | "connected" }
  | { kind: "page"; limit: number; shuffle: boolean }
  | { kind: "readFailed" }
  | { kind: "finish" }
  | { kind: "interrupt" }
  | { kind: "stop" };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("arrive" as const), type: fc.constantFrom("message" as const, "other" as const, "duplicate" as const, "poison" as const), gap: fc.boolean() }) },
  { weight: 3, arbitrary: fc.constantFrom({ kind: "notify" as const }, { kind: "live" as const }, { kind: "connected" as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("page" as const), limit: fc.integer({ min: 1, max: 3 }), shuffle: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "readFailed" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "finish" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "interrupt" as const }) },
  { weight: 1, arbitrary: fc.oneof({ weight: 1, arbitrary: fc.constant({ kind: "stop" as const }) }, { weight: 3, arbitrary: fc.constant({ kind: "notify" as const }) }) },
);

const EFFECT_OF_ACTION: Record<CursorAction["kind"], string> = { read: "readInbox", dispatch: "dispatchEntry", bookmark: "advanceHandledPosition", "report-poison": "reportPoisonEntry" };

describe("model-based: the cursor never disagrees with the generated machine", () => {
  it("random command sequences", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 50 }), (commands) => {
        const inbox: InboxEntryRef[] = [];
        const cursor = new InboxCursor();
        let state = machine.initialState;
        let lastRead: number | undefined; // after_sequence of the outstanding read
        let inFlight: InboxEntryRef | undefined;
        const finishedMessages = new Set<string>();
        const dispatched: string[] = [];

        for (const c of commands) {
          if (c.kind === "arrive") {
            // Sequences strictly increase and may skip (a valid page can be {11, 13}).
            const sequence = (inbox.at(-1)?.sequence ?? 0) + (c.gap ? 2 : 1);
            // A duplicate re-delivers a message a runtime handles; a poison entry never reaches one.
            const messages = inbox.filter((e) => e.type === MESSAGE_RECEIVED && !isPoisonEntry(e));
            const dupOf = c.type === "duplicate" ? messages[messages.length - 1] : undefined;
            const messageId = dupOf?.payload?.message_id ?? `m${sequence}`;
            inbox.push(
              c.type === "other"
                ? { sequence, type: "contact.requested", event_id: `evt${sequence}` }
                : c.type === "poison"
                  ? { sequence, type: MESSAGE_RECEIVED, event_id: `evt${sequence}`, payload: { message_id: `p${sequence}`, content: { encoding: "e2ee" } } }
                  : { sequence, type: MESSAGE_RECEIVED, event_id: `evt${sequence}`, payload: { message_id: messageId } },
            );
            continue;
          }

          const before = cursor.handledPosition;
          let event: string;
          let guards: Record<string, boolean> = {};
          let step;
          switch (c.kind) {
            case "notify":
              event = "notify";
              step = cursor.notify();
              break;
            case "live":
              event = "live_changed";
              step = cursor.liveChanged();
              break;
            case "connected":
              event = "connected";
              step = cursor.connected();
              break;
            case "page": {
              event = "page_received";
              const page = inbox.filter((e) => e.sequence > (lastRead ?? 0)).slice(0, c.limit);
              if (c.shuffle) page.reverse();
              const first = [...page].sort((a, b) => a.sequence - b.sequence).find((e) => e.sequence > before);
              // Oracle for the guards: the fake inbox's own record of what each entry is.
              const poison = first !== undefined && first.payload?.content?.encoding === "e2ee";
              guards = {
                hasEntry: first !== undefined,
                needsRuntime: first !== undefined && !poison && first.type === MESSAGE_RECEIVED && !finishedMessages.has(first.payload!.message_id!),
                poison,
              };
              step = cursor.pageReceived(page);
              break;
            }
            case "readFailed":
              event = "read_failed";
              step = cursor.readFailed();
              break;
            case "finish":
              event = "runtime_finished";
              step = cursor.runtimeFinished();
              break;
            case "interrupt":
              event = "runtime_interrupted";
              step = cursor.runtimeInterrupted();
              break;
            case "stop":
              event = "stop";
              step = cursor.stop();
              break;
          }
          const out = machine.transition(state, event, guards);
          expect(step.ok, `${event} in ${state}`).toBe(out.ok);
          seen.add(`${event}:${out.ok}`);
          if (!out.ok || !step.ok) {
            expect(cursor.state).toBe(state);
            expect(cursor.handledPosition).toBe(before);
            continue;
          }
          state = out.state;
          expect(step.state).toBe(state);
          // The actions are the transition's effects, in order.
          expect(step.actions.map((a) => EFFECT_OF_ACTION[a.kind])).toEqual(out.effects);
          for (const a of step.actions) {
            if (a.kind === "read") lastRead = a.afterSequence;
            if (a.kind === "dispatch") {
              inFlight = a.entry;
              dispatched.push(a.entry.payload!.message_id!);
              expect(finishedMessages.has(a.entry.payload!.message_id!), "a finished message never reaches the runtime again").toBe(false);
            }
            if (a.kind === "bookmark") expect(a.sequence).toBe(cursor.handledPosition);
          }
          // The handled position moves only on finish or past an entry that needs no runtime.
          if (cursor.handledPosition !== before) {
            expect(out.effects).toContain("advanceHandledPosition");
            expect(cursor.handledPosition).toBeGreaterThan(before);
          }
          if (event === "runtime_finished") {
            expect(cursor.handledPosition).toBe(inFlight!.sequence);
            finishedMessages.add(inFlight!.payload!.message_id!);
            inFlight = undefined;
          }
          if (event === "runtime_interrupted" || event === "stop") {
            expect(cursor.handledPosition).toBe(before);
            inFlight = undefined;
          }
          if (event === "read_failed") expect(cursor.handledPosition).toBe(before);
        }
        expect(cursor.state).toBe(state);
        // Every message up to the handled position was finished or needed no runtime.
        for (const e of inbox) {
          if (e.sequence <= cursor.handledPosition && e.type === MESSAGE_RECEIVED && !isPoisonEntry(e)) expect(finishedMessages.has(e.payload!.message_id!)).toBe(true);
        }
        void dispatched;
      }),
      {
        numRuns: 150,
        examples: [
          [[{ kind: "arrive", type: "message", gap: false }, { kind: "notify" }, { kind: "notify" }, { kind: "page", limit: 1, shuffle: false }, { kind: "interrupt" }, { kind: "notify" }, { kind: "page", limit: 2, shuffle: false }, { kind: "finish" }, { kind: "page", limit: 1, shuffle: false }]],
          [[{ kind: "arrive", type: "message", gap: false }, { kind: "arrive", type: "duplicate", gap: false }, { kind: "arrive", type: "other", gap: false }, { kind: "notify" }, { kind: "page", limit: 3, shuffle: true }, { kind: "finish" }, { kind: "page", limit: 3, shuffle: false }, { kind: "page", limit: 3, shuffle: false }, { kind: "page", limit: 3, shuffle: false }, { kind: "readFailed" }, { kind: "stop" }]],
        ],
      },
    );
    for (const corner of ["notify:true", "live_changed:true", "connected:true", "page_received:true", "page_received:false", "runtime_finished:true", "runtime_interrupted:true", "read_failed:true", "stop:true"]) {
      expect(seen, corner).toContain(corner);
    }
  });
});

describe("inbox cursor rules", () => {
  it("an interrupted entry is attempted again; a duplicate message is bookmarked without dispatch", () => {
    const cursor = new InboxCursor();
    const m1: InboxEntryRef = { sequence: 1, type: MESSAGE_RECEIVED, event_id: "e1", payload: { message_id: "m1" } };
    const m1again: InboxEntryRef = { sequence: 2, type: MESSAGE_RECEIVED, event_id: "e2", payload: { message_id: "m1" } };
    expect(cursor.notify()).toEqual({ ok: true, state: "reading", actions: [{ kind: "read", afterSequence: 0 }] });
    expect(cursor.notify()).toEqual({ ok: true, state: "pending", actions: [] });
    expect(cursor.pageReceived([m1, m1again])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: m1 }] });
    expect(cursor.runtimeInterrupted()).toEqual({ ok: true, state: "idle", actions: [] });
    expect(cursor.handledPosition).toBe(0);
    cursor.notify();
    expect(cursor.pageReceived([m1, m1again]).ok).toBe(true);
    expect(cursor.runtimeFinished()).toEqual({ ok: true, state: "reading", actions: [{ kind: "bookmark", sequence: 1 }, { kind: "read", afterSequence: 1 }] });
    expect(cursor.pageReceived([m1again])).toEqual({ ok: true, state: "reading", actions: [{ kind: "bookmark", sequence: 2 }, { kind: "read", afterSequence: 2 }] });
    expect(cursor.pageReceived([])).toEqual({ ok: true, state: "idle", actions: [] });
    expect(cursor.snapshot()).toEqual({ handledPosition: 2, handledIds: ["event:e1", "event:e2", "message:m1"] });
    expect(cursor.runtimeFinished()).toEqual({ ok: false, state: "idle", reason: "not_allowed" });
  });
});

describe("inbox cursor: the real clients' defects (myagent-clients README)", () => {
  const message = (sequence: number): InboxEntryRef => ({ sequence, type: MESSAGE_RECEIVED, event_id: `e${sequence}`, payload: { message_id: `m${sequence}` } });
  it("a hint during a read is not lost: the inbox is read again when the read ends (Pi's lost wake-up)", () => {
    const cursor = new InboxCursor();
    cursor.connected();
    expect(cursor.liveChanged()).toEqual({ ok: true, state: "pending", actions: [] });
    // The read started before entry 1 was written: it comes back empty, and the kept hint reads again.
    expect(cursor.pageReceived([])).toEqual({ ok: true, state: "reading", actions: [{ kind: "read", afterSequence: 0 }] });
    expect(cursor.pageReceived([message(1)])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: message(1) }] });
  });
  it("a gapped page {11, 13} is handled as 11 then 13, once each (Hermes stalls at candidate + 1)", () => {
    const cursor = new InboxCursor({ handledPosition: 10, handledIds: [] });
    cursor.notify();
    expect(cursor.pageReceived([message(13), message(11)]).ok).toBe(true);
    expect(cursor.runtimeFinished()).toEqual({ ok: true, state: "reading", actions: [{ kind: "bookmark", sequence: 11 }, { kind: "read", afterSequence: 11 }] });
    expect(cursor.pageReceived([message(13)])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: message(13) }] });
    expect(cursor.runtimeFinished().ok).toBe(true);
    expect(cursor.pageReceived([message(13)])).toEqual({ ok: true, state: "idle", actions: [] });
    expect(cursor.handledPosition).toBe(13);
  });
  it("a poison entry is reported and passed over; the next entry follows in order (Hermes freezes)", () => {
    const cursor = new InboxCursor();
    const poison: InboxEntryRef = { sequence: 1, type: MESSAGE_RECEIVED, event_id: "e1", payload: { message_id: "m1", content: { encoding: "e2ee" } } };
    cursor.notify();
    expect(cursor.pageReceived([poison, message(2)])).toEqual({ ok: true, state: "reading", actions: [{ kind: "report-poison", entry: poison }, { kind: "bookmark", sequence: 1 }, { kind: "read", afterSequence: 1 }] });
    expect(cursor.pageReceived([message(2)])).toEqual({ ok: true, state: "handling", actions: [{ kind: "dispatch", entry: message(2) }] });
    expect(isPoisonEntry({ sequence: 3, type: "" })).toBe(true);
    expect(isPoisonEntry({ sequence: 3, type: MESSAGE_RECEIVED, payload: null })).toBe(true);
    expect(isPoisonEntry({ sequence: 3, type: "contact.requested" })).toBe(false);
  });
});
