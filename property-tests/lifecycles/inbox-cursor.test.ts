// The provider-integration inbox cursor against the generated `inbox-handling` machine. A fake
// inbox grows while random notifications (duplicates included), pages, read failures, runtime
// completions, interruptions and stops arrive; the cursor and the machine must agree on the state
// and on the actions (read, dispatch, bookmark), the handled position must move only when the
// runtime finished (or past an entry that needs no runtime), and every message reaches the runtime
// until it is finished, and never after.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { InboxCursor, MESSAGE_RECEIVED, type CursorAction, type InboxEntryRef } from "../../generators/targets/ts/runtime/src/inbox-cursor.js";
import { importMachine, materialize, type GeneratedMachineModule } from "./support.js";

let machine: GeneratedMachineModule;
beforeAll(async () => {
  machine = await importMachine(materialize(), "provider-integration", "inbox-handling");
});

type Command =
  | { kind: "arrive"; type: "message" | "other" | "duplicate" }
  | { kind: "notify" }
  | { kind: "page"; limit: number; shuffle: boolean }
  | { kind: "readFailed" }
  | { kind: "finish" }
  | { kind: "interrupt" }
  | { kind: "stop" };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("arrive" as const), type: fc.constantFrom("message" as const, "other" as const, "duplicate" as const) }) },
  { weight: 3, arbitrary: fc.constant({ kind: "notify" as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("page" as const), limit: fc.integer({ min: 1, max: 3 }), shuffle: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "readFailed" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "finish" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "interrupt" as const }) },
  { weight: 1, arbitrary: fc.oneof({ weight: 1, arbitrary: fc.constant({ kind: "stop" as const }) }, { weight: 3, arbitrary: fc.constant({ kind: "notify" as const }) }) },
);

const EFFECT_OF_ACTION: Record<CursorAction["kind"], string> = { read: "readInbox", dispatch: "dispatchEntry", bookmark: "advanceHandledPosition" };

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
            const sequence = inbox.length + 1;
            const messages = inbox.filter((e) => e.type === MESSAGE_RECEIVED);
            const dupOf = c.type === "duplicate" ? messages[messages.length - 1] : undefined;
            const messageId = dupOf?.payload?.message_id ?? `m${sequence}`;
            inbox.push(
              c.type === "other"
                ? { sequence, type: "contact.requested", event_id: `evt${sequence}` }
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
            case "page": {
              event = "page_received";
              const page = inbox.filter((e) => e.sequence > (lastRead ?? 0)).slice(0, c.limit);
              if (c.shuffle) page.reverse();
              const first = [...page].sort((a, b) => a.sequence - b.sequence).find((e) => e.sequence > before);
              guards = {
                hasEntry: first !== undefined,
                needsRuntime: first !== undefined && first.type === MESSAGE_RECEIVED && !finishedMessages.has(first.payload!.message_id!),
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
          if (e.sequence <= cursor.handledPosition && e.type === MESSAGE_RECEIVED) expect(finishedMessages.has(e.payload!.message_id!)).toBe(true);
        }
        void dispatched;
      }),
      {
        numRuns: 150,
        examples: [
          [[{ kind: "arrive", type: "message" }, { kind: "notify" }, { kind: "notify" }, { kind: "page", limit: 1, shuffle: false }, { kind: "interrupt" }, { kind: "notify" }, { kind: "page", limit: 2, shuffle: false }, { kind: "finish" }, { kind: "page", limit: 1, shuffle: false }]],
          [[{ kind: "arrive", type: "message" }, { kind: "arrive", type: "duplicate" }, { kind: "arrive", type: "other" }, { kind: "notify" }, { kind: "page", limit: 3, shuffle: true }, { kind: "finish" }, { kind: "page", limit: 3, shuffle: false }, { kind: "page", limit: 3, shuffle: false }, { kind: "page", limit: 3, shuffle: false }, { kind: "readFailed" }, { kind: "stop" }]],
        ],
      },
    );
    for (const corner of ["notify:true", "page_received:true", "page_received:false", "runtime_finished:true", "runtime_interrupted:true", "read_failed:true", "stop:true"]) {
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
    expect(cursor.notify()).toEqual({ ok: true, state: "reading", actions: [] });
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
