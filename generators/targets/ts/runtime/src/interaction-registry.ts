// The agent-service interaction registry: pending human-in-the-loop interactions keyed by
// (execution_id, interaction_id), answered at most once by their owner with an answer the prompt
// offered. It follows spec/agent-service/lifecycles/pending-interaction.machine.yaml; a
// model-based test drives it and the generated machine side by side.
//
// Timeouts are applied at the start of every call, so an interaction past its deadline is
// expired (and its run told) before anything else looks at it.
//
// Statuses of POST /executions/{e}/interactions/{i}/response, checked in this order:
//   404 no pending entry (never opened, answered, cancelled, expired or abandoned)
//   403 not the owner (entry unchanged)
//   422 wrong kind, choice not offered, half-cancel, empty text (entry unchanged)
//   410 the run has gone (entry removed)
//   204 accepted: the entry is removed (single use), then the decision is delivered

import type { ReplayStore } from "./replay-guard.js";

/** The once-only store scope of interaction answers (key: JSON [execution_id, interaction_id]). */
export const INTERACTION_ANSWER_SCOPE = "agent-service/interaction-answer";
// An answer's claim is kept a minute past the interaction's deadline, past which no answer is taken anyway.
const ANSWER_RETAIN_MARGIN_MS = 60_000;

export type InteractionState = "pending" | "answered" | "cancelled" | "expired" | "abandoned";

export const CANCEL_ID = "cancel";
export const CANCEL_VALUE = "__CANCEL__";
export const DEFAULT_INTERACTION_TIMEOUT_MS = 600_000;
export const MIN_INTERACTION_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_PENDING = 1024;

export interface OfferedOption {
  id: string;
  value: string;
  label?: string;
  description?: string;
}

/** What the prompt asked for: one of its options (radio), or free text. */
export type InteractionPrompt = { inputType: "radio"; options: readonly OfferedOption[] } | { inputType: "text" };

/** The `response` member of an InteractionResponse body. */
export type InteractionAnswer =
  | { type: "radio"; selected_option: { id: string; label: string; value: string; description?: string } }
  | { type: "text"; text: string }
  | { type: "binary_choice"; selected_option: { id: string; label: string; value: boolean } };

/** What the waiting run receives. */
export type InteractionDecision =
  | { kind: "selected"; id: string; value: string }
  | { kind: "answered"; text: string }
  | { kind: "cancelled" }
  | { kind: "expired" };

/** Delivers the decision to the waiting run; false when the run has already gone. */
export type DecisionSink = (decision: InteractionDecision) => boolean;

export interface OpenInteraction {
  executionId: string;
  interactionId: string;
  /** The authenticated user the prompt is addressed to. */
  owner: string;
  prompt: InteractionPrompt;
  deliver: DecisionSink;
}

export type OpenResult = { ok: true } | { ok: false; error: "already_open" | "too_many_pending" };

export type RespondStatus = 204 | 403 | 404 | 410 | 422;

export interface RespondResult {
  status: RespondStatus;
  /** The error body's message for every status but 204. */
  error?: string;
  /** The state the interaction is in afterwards (undefined for a key that was never opened). */
  state?: InteractionState;
}

export interface InteractionRegistryOptions {
  /** Milliseconds an interaction stays answerable; at least 5000 (600000 by default). */
  timeoutMs?: number;
  maxPending?: number;
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number;
}

interface Entry {
  owner: string;
  prompt: InteractionPrompt;
  deliver: DecisionSink;
  deadline: number;
}

const key = (executionId: string, interactionId: string): string => `${executionId}\u0000${interactionId}`;

export class InteractionRegistry {
  private readonly pending = new Map<string, Entry>();
  private readonly settled = new Map<string, Exclude<InteractionState, "pending">>();
  private readonly timeoutMs: number;
  private readonly maxPending: number;
  private readonly now: () => number;

  constructor(options: InteractionRegistryOptions = {}) {
    this.timeoutMs = Math.max(options.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS, MIN_INTERACTION_TIMEOUT_MS);
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.now = options.now ?? Date.now;
  }

  /** Registers a pending interaction; do this before emitting interaction_required. */
  open(input: OpenInteraction): OpenResult {
    const k = key(input.executionId, input.interactionId);
    if (this.pending.has(k) || this.settled.has(k)) return { ok: false, error: "already_open" };
    this.expireDue();
    if (this.pending.size >= this.maxPending) return { ok: false, error: "too_many_pending" };
    this.pending.set(k, { owner: input.owner, prompt: input.prompt, deliver: input.deliver, deadline: this.now() + this.timeoutMs });
    return { ok: true };
  }

  /** Applies one answer; see the status table at the top of this file. */
  respond(executionId: string, interactionId: string, userId: string, answer: InteractionAnswer): RespondResult {
    const checked = this.check(executionId, interactionId, userId, answer);
    return "status" in checked ? checked : this.settle(checked.k, checked.entry, checked.decision);
  }

  /**
   * respond() for a fleet, where several replicas may hold the same interaction: the answer is
   * first claimed in a shared once-only store (Redis, PostgreSQL, SQLite; see replay-guard.ts), so
   * of any number of answers across replicas exactly one is delivered; the others get the
   * protocol's 404. A store that cannot answer rejects, and nothing is delivered (fail closed).
   */
  async respondOnce(answers: ReplayStore, executionId: string, interactionId: string, userId: string, answer: InteractionAnswer): Promise<RespondResult> {
    const checked = this.check(executionId, interactionId, userId, answer);
    if ("status" in checked) return checked;
    const claim = await answers.checkAndRecord(INTERACTION_ANSWER_SCOPE, JSON.stringify([executionId, interactionId]), checked.entry.deadline + ANSWER_RETAIN_MARGIN_MS, this.now());
    if (claim !== "recorded") {
      // Answered elsewhere (or no room to prove it was not): this replica's copy is settled too.
      this.pending.delete(checked.k);
      this.settled.set(checked.k, "answered");
      return { status: 404, error: "no pending interaction with that id", state: "answered" };
    }
    // The entry may have been settled while the claim was in flight (timeout, run ended).
    if (this.pending.get(checked.k) !== checked.entry) return { status: 404, error: "no pending interaction with that id", state: this.settled.get(checked.k) ?? "expired" };
    return this.settle(checked.k, checked.entry, checked.decision);
  }

  // The 404/403/422 checks of the status table, in order; the entry and decision when they pass.
  private check(executionId: string, interactionId: string, userId: string, answer: InteractionAnswer): RespondResult | { k: string; entry: Entry; decision: InteractionDecision } {
    this.expireDue();
    const k = key(executionId, interactionId);
    const entry = this.pending.get(k);
    if (entry === undefined) {
      const state = this.settled.get(k);
      return { status: 404, error: "no pending interaction with that id", ...(state === undefined ? {} : { state }) };
    }
    if (userId !== entry.owner) return { status: 403, error: "this approval was not addressed to the authenticated user", state: "pending" };
    const decision = decide(entry.prompt, answer);
    if ("error" in decision) return { status: 422, error: decision.error, state: "pending" };
    return { k, entry, decision };
  }

  // 410 or 204: the entry is removed (single use), then the decision is delivered.
  private settle(k: string, entry: Entry, decision: InteractionDecision): RespondResult {
    this.pending.delete(k);
    if (!entry.deliver(decision)) {
      this.settled.set(k, "abandoned");
      return { status: 410, error: "the run this interaction belonged to has ended", state: "abandoned" };
    }
    const state = decision.kind === "cancelled" ? "cancelled" : "answered";
    this.settled.set(k, state);
    return { status: 204, state };
  }

  /** Expires every interaction whose timeout has passed; the run is told. Returns how many. */
  expireDue(): number {
    const now = this.now();
    let count = 0;
    for (const [k, entry] of this.pending) {
      if (now < entry.deadline) continue;
      this.pending.delete(k);
      this.settled.set(k, "expired");
      entry.deliver({ kind: "expired" });
      count++;
    }
    return count;
  }

  /** The run of `executionId` ended (client disconnect, abort): its interactions are abandoned. */
  runEnded(executionId: string): number {
    this.expireDue();
    let count = 0;
    for (const k of [...this.pending.keys()]) {
      if (k.slice(0, k.indexOf("\u0000")) !== executionId) continue;
      this.pending.delete(k);
      this.settled.set(k, "abandoned");
      count++;
    }
    return count;
  }

  /** The interaction's state; timeouts that have passed are applied first, as on every call. */
  state(executionId: string, interactionId: string): InteractionState | undefined {
    this.expireDue();
    const k = key(executionId, interactionId);
    return this.pending.has(k) ? "pending" : this.settled.get(k);
  }

  pendingCount(): number {
    this.expireDue();
    return this.pending.size;
  }
}

/** The decision an answer gives for a prompt, or why it is refused (422). */
export function decide(prompt: InteractionPrompt, answer: InteractionAnswer): InteractionDecision | { error: string } {
  if (answer.type !== prompt.inputType) {
    return { error: `response type "${answer.type}" does not match the pending prompt type "${prompt.inputType}"` };
  }
  if (prompt.inputType === "text") {
    const text = (answer as { text: string }).text.trim();
    if (text === "") return { error: "a text answer must not be empty" };
    return text === CANCEL_VALUE ? { kind: "cancelled" } : { kind: "answered", text };
  }
  const { id, value } = (answer as { selected_option: { id: string; value: string } }).selected_option;
  const notOffered = { error: "the submitted choice was not offered by this prompt" };
  if (id === CANCEL_ID || value === CANCEL_VALUE) return id === CANCEL_ID && value === CANCEL_VALUE ? { kind: "cancelled" } : notOffered;
  return prompt.options.some((o) => o.id === id && o.value === value) ? { kind: "selected", id, value } : notOffered;
}
