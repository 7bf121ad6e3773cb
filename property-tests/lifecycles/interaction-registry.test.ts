// The agent-service interaction registry against the generated `pending-interaction` machine:
// random sequences of opens, answers (by the owner or not, offered or not), clock advances, run
// ends and runs that vanish must never make the two disagree on the state, the HTTP status each
// answer maps to (403, 404, 410, 422, 204) or the decision the run receives.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  InteractionRegistry,
  decide,
  type InteractionAnswer,
  type InteractionDecision,
  type InteractionPrompt,
} from "../../generators/targets/ts/runtime/src/interaction-registry.js";
import { importMachine, materialize, type GeneratedMachineModule } from "./support.js";

let machine: GeneratedMachineModule;
beforeAll(async () => {
  machine = await importMachine(materialize(), "agent-service", "pending-interaction");
});

const TIMEOUT = 10_000;
const OWNER = "alice";
const RADIO: InteractionPrompt = {
  inputType: "radio",
  options: [
    { id: "low", value: "low", label: "Keep — low" },
    { id: "high", value: "high", label: "Change to — high" },
    { id: "cancel", value: "__CANCEL__", label: "Cancel" },
  ],
};
const TEXT: InteractionPrompt = { inputType: "text" };
const KEYS = [
  { executionId: "e1", interactionId: "i1", prompt: RADIO },
  { executionId: "e1", interactionId: "i2", prompt: TEXT },
  { executionId: "e2", interactionId: "i3", prompt: RADIO },
] as const;

type Category = "good" | "cancel" | "bad" | "wrongType";

function answerFor(prompt: InteractionPrompt, category: Category, variant: number): InteractionAnswer {
  const radio = (id: string, value: string): InteractionAnswer => ({ type: "radio", selected_option: { id, label: "x", value } });
  const text = (t: string): InteractionAnswer => ({ type: "text", text: t });
  if (prompt.inputType === "radio") {
    switch (category) {
      case "good":
        return variant % 2 === 0 ? radio("low", "low") : radio("high", "high");
      case "cancel":
        return radio("cancel", "__CANCEL__");
      case "bad":
        return [radio("cancel", "low"), radio("__CANCEL__", "__CANCEL__"), radio("urgent", "urgent"), radio("low", "high")][variant % 4]!;
      case "wrongType":
        return variant % 2 === 0 ? text("high") : { type: "binary_choice", selected_option: { id: "confirm", label: "OK", value: true } };
    }
  }
  switch (category) {
    case "good":
      return text(variant % 2 === 0 ? "  because the customer asked  " : "ok");
    case "cancel":
      return text(" __CANCEL__ ");
    case "bad":
      return text(variant % 2 === 0 ? "" : " \n\t ");
    case "wrongType":
      return radio("low", "low");
  }
}

const STATUS_OF_EFFECT: Record<string, number> = { replyForbidden: 403, replyUnprocessable: 422, replyGone: 410, replyNoContent: 204 };

type Command =
  | { kind: "open"; k: number }
  | { kind: "respond"; k: number; owner: boolean; category: Category; variant: number }
  | { kind: "advance"; ms: number }
  | { kind: "runEnded"; execution: "e1" | "e2" }
  | { kind: "runVanishes"; k: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("open" as const), k: fc.nat(2) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("respond" as const),
      k: fc.nat(2),
      owner: fc.boolean(),
      category: fc.constantFrom<Category>("good", "cancel", "bad", "wrongType"),
      variant: fc.nat(7),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 12_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("runEnded" as const), execution: fc.constantFrom("e1" as const, "e2" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("runVanishes" as const), k: fc.nat(2) }) },
);

describe("model-based: the registry never disagrees with the generated machine", () => {
  it("random command sequences", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 40 }), (commands) => {
        let now = 1_000_000;
        const registry = new InteractionRegistry({ timeoutMs: TIMEOUT, now: () => now });
        // Model: machine state per key, deadline, whether its run can still receive, what it received.
        const model = KEYS.map(() => ({ state: undefined as string | undefined, deadline: 0, alive: true }));
        const received = KEYS.map(() => [] as InteractionDecision[]);
        const expectedReceived = KEYS.map(() => [] as string[]);

        const applyTimeouts = (): void => {
          model.forEach((m, i) => {
            if (m.state === "pending" && now >= m.deadline) {
              const out = machine.transition(m.state, "timeout", {});
              expect(out.ok).toBe(true);
              m.state = out.state;
              if (out.effects!.includes("deliverTimeout")) expectedReceived[i]!.push("expired");
            }
          });
        };

        for (const c of commands) {
          if (c.kind === "advance") {
            now += c.ms;
            applyTimeouts();
          } else if (c.kind === "open") {
            const m = model[c.k]!;
            const spec = KEYS[c.k]!;
            const r = registry.open({
              ...spec,
              owner: OWNER,
              deliver: (d) => {
                received[c.k]!.push(d);
                return m.alive;
              },
            });
            expect(r.ok).toBe(m.state === undefined);
            if (m.state === undefined) {
              m.state = machine.initialState;
              m.deadline = now + TIMEOUT;
            }
          } else if (c.kind === "runEnded") {
            registry.runEnded(c.execution);
            KEYS.forEach((spec, i) => {
              const m = model[i]!;
              if (spec.executionId !== c.execution || m.state === undefined) return;
              const out = machine.transition(m.state, "run_ended", {});
              if (out.ok) m.state = out.state;
              else expect(out.refusal).toBe("terminal");
            });
          } else if (c.kind === "runVanishes") {
            model[c.k]!.alive = false;
          } else {
            const spec = KEYS[c.k]!;
            const m = model[c.k]!;
            const answer = answerFor(spec.prompt, c.category, c.variant);
            const result = registry.respond(spec.executionId, spec.interactionId, c.owner ? OWNER : "mallory", answer);
            seen.add(String(result.status));
            if (m.state === undefined) {
              expect(result).toMatchObject({ status: 404 });
              expect(result.state).toBeUndefined();
              continue;
            }
            const guards = {
              isOwner: c.owner,
              answerValid: c.category === "good" || c.category === "cancel",
              isCancellation: c.category === "cancel",
              runAlive: m.alive,
            };
            const out = machine.transition(m.state, "answer", guards);
            if (!out.ok) {
              expect(out.refusal).toBe("terminal");
              expect(result.status).toBe(404);
            } else {
              const statuses = out.effects!.filter((e) => e in STATUS_OF_EFFECT).map((e) => STATUS_OF_EFFECT[e]);
              expect(statuses).toHaveLength(1);
              expect(result.status, `${m.state} ${JSON.stringify(guards)}`).toBe(statuses[0]);
              if (out.effects!.includes("deliverDecision")) expectedReceived[c.k]!.push("decision");
              if (out.effects!.includes("deliverCancellation")) expectedReceived[c.k]!.push("cancelled");
              // The run had gone: delivery was attempted and refused (410).
              if (out.effects!.includes("replyGone")) expectedReceived[c.k]!.push(c.category === "cancel" ? "cancelled" : "decision");
              m.state = out.state;
            }
            expect(result.state).toBe(m.state);
          }
          // After every command: the same state for every key, and the run received what the effects say.
          KEYS.forEach((spec, i) => {
            expect(registry.state(spec.executionId, spec.interactionId)).toBe(model[i]!.state);
            const kinds = received[i]!.map((d) => (d.kind === "selected" || d.kind === "answered" ? "decision" : d.kind));
            expect(kinds).toEqual(expectedReceived[i]);
          });
          expect(registry.pendingCount()).toBe(model.filter((m) => m.state === "pending").length);
        }
      }),
      {
        numRuns: 150,
        examples: [
          [[{ kind: "open", k: 0 }, { kind: "runVanishes", k: 0 }, { kind: "respond", k: 0, owner: true, category: "good", variant: 0 }]],
          [[{ kind: "open", k: 1 }, { kind: "respond", k: 1, owner: false, category: "good", variant: 0 }, { kind: "respond", k: 1, owner: true, category: "bad", variant: 1 }]],
          [[{ kind: "open", k: 2 }, { kind: "advance", ms: 10_000 }, { kind: "respond", k: 2, owner: true, category: "cancel", variant: 0 }]],
        ],
      },
    );
    for (const status of ["204", "403", "404", "410", "422"]) expect(seen, status).toContain(status);
  });
});

describe("answer rules", () => {
  it("the registry's decisions follow the agent-service rules", () => {
    expect(decide(RADIO, { type: "radio", selected_option: { id: "high", label: "anything", value: "high" } })).toEqual({ kind: "selected", id: "high", value: "high" });
    expect(decide(RADIO, { type: "radio", selected_option: { id: "cancel", label: "Cancel", value: "__CANCEL__" } })).toEqual({ kind: "cancelled" });
    expect(decide(RADIO, { type: "radio", selected_option: { id: "__CANCEL__", label: "Cancel", value: "__CANCEL__" } })).toMatchObject({ error: expect.stringMatching(/not offered/) });
    expect(decide(RADIO, { type: "radio", selected_option: { id: "low", label: "x", value: "high" } })).toMatchObject({ error: expect.stringMatching(/not offered/) });
    expect(decide(RADIO, { type: "text", text: "high" })).toMatchObject({ error: 'response type "text" does not match the pending prompt type "radio"' });
    expect(decide(TEXT, { type: "text", text: "  why  " })).toEqual({ kind: "answered", text: "why" });
    expect(decide(TEXT, { type: "text", text: " __CANCEL__\n" })).toEqual({ kind: "cancelled" });
    expect(decide(TEXT, { type: "text", text: "  " })).toEqual({ error: "a text answer must not be empty" });
  });

  it("a refused answer leaves the interaction answerable by its owner; a second answer is 404", () => {
    const got: InteractionDecision[] = [];
    const registry = new InteractionRegistry();
    expect(registry.open({ executionId: "e", interactionId: "i", owner: OWNER, prompt: RADIO, deliver: (d) => (got.push(d), true) })).toEqual({ ok: true });
    const good: InteractionAnswer = { type: "radio", selected_option: { id: "high", label: "x", value: "high" } };
    expect(registry.respond("e", "i", "mallory", good).status).toBe(403);
    expect(registry.respond("e", "i", OWNER, { type: "text", text: "x" }).status).toBe(422);
    expect(registry.respond("e", "i", OWNER, good)).toEqual({ status: 204, state: "answered" });
    expect(registry.respond("e", "i", OWNER, good)).toMatchObject({ status: 404, state: "answered" });
    expect(got).toEqual([{ kind: "selected", id: "high", value: "high" }]);
  });
});
