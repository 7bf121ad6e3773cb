// The provider-integration inbox cursor: which inbox entries a provider adapter has handled. It
// follows spec/provider-integration/lifecycles/inbox-handling.machine.yaml; a model-based test
// drives it and the generated machine side by side.
//
// The cursor does no I/O. Each call returns the actions the adapter must perform (read the inbox
// after a sequence, dispatch an entry to its runtime, save the bookmark), so the rules are:
//   - a notification, a live frame or a (re)connect is only a hint; one that arrives during a read
//     is kept (`pending`) and the inbox is read once more when that read ends, so an entry written
//     during the read is not left waiting (Pi's lost wake-up); during handling it changes nothing,
//     since the adapter reads again after the entry anyway;
//   - entries are handled one at a time in sequence order; sequences may have gaps, and the
//     handled position becomes the entry's own sequence (never previous + 1);
//   - the handled position advances only when the runtime finished the entry, or past an entry
//     that needs no runtime (not message.received, or already handled by event_id / message_id),
//     or past a poison entry (malformed or not plaintext), which is reported, never retried;
//   - an interruption or a failed read leaves the handled position unchanged.

export type InboxCursorState = "idle" | "reading" | "pending" | "handling" | "stopped";

export const MESSAGE_RECEIVED = "message.received";

/** The parts of an InboxEntry the cursor reads. */
export interface InboxEntryRef {
  sequence: number;
  type: string;
  event_id?: string;
  payload?: { message_id?: string; content?: { encoding?: string } } | null;
}

/**
 * A poison entry: one no runtime can handle, so retrying cannot help. A message.received entry
 * without a payload object or whose content is not plaintext, or an entry without a type.
 */
export function isPoisonEntry(entry: InboxEntryRef): boolean {
  if (typeof entry.type !== "string" || entry.type === "") return true;
  if (entry.type !== MESSAGE_RECEIVED) return false;
  const payload = entry.payload;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return true;
  return payload.content !== undefined && payload.content?.encoding !== "plaintext";
}

export type CursorAction =
  | { kind: "read"; afterSequence: number }
  | { kind: "dispatch"; entry: InboxEntryRef }
  | { kind: "bookmark"; sequence: number }
  | { kind: "report-poison"; entry: InboxEntryRef };

export type CursorStep =
  | { ok: true; state: InboxCursorState; actions: CursorAction[] }
  | { ok: false; state: InboxCursorState; reason: "not_allowed" };

export interface InboxCursorSnapshot {
  handledPosition: number;
  /** Stable ids (event_id and message_id) of entries already handled. */
  handledIds: string[];
}

function idsOf(entry: InboxEntryRef): string[] {
  const ids: string[] = [];
  if (typeof entry.event_id === "string" && entry.event_id !== "") ids.push(`event:${entry.event_id}`);
  const messageId = entry.payload?.message_id;
  if (typeof messageId === "string" && messageId !== "") ids.push(`message:${messageId}`);
  return ids;
}

export class InboxCursor {
  private current: InboxCursorState = "idle";
  private handled: number;
  private readonly handledIds: Set<string>;
  private inFlight: InboxEntryRef | undefined;

  constructor(snapshot: InboxCursorSnapshot = { handledPosition: 0, handledIds: [] }) {
    this.handled = snapshot.handledPosition;
    this.handledIds = new Set(snapshot.handledIds);
  }

  get state(): InboxCursorState {
    return this.current;
  }

  /** The last sequence handled: the bookmark. */
  get handledPosition(): number {
    return this.handled;
  }

  /** The entry the runtime is handling, if any. */
  get handling(): InboxEntryRef | undefined {
    return this.inFlight;
  }

  /** What to persist across restarts (with mode 0600, like the bookmark file of the clients). */
  snapshot(): InboxCursorSnapshot {
    return { handledPosition: this.handled, handledIds: [...this.handledIds].sort() };
  }

  /** True when the entry needs no runtime: not a message, or one already handled. */
  isSkippable(entry: InboxEntryRef): boolean {
    return entry.type !== MESSAGE_RECEIVED || idsOf(entry).some((id) => this.handledIds.has(id));
  }

  /** A NotificationEvent arrived. */
  notify(): CursorStep {
    return this.hint();
  }

  /** A LiveInboxChanged frame (or, for Pi, any frame) arrived on the live channel. */
  liveChanged(): CursorStep {
    return this.hint();
  }

  /** The live channel connected or reconnected: drain, as both real clients do. */
  connected(): CursorStep {
    return this.hint();
  }

  private hint(): CursorStep {
    if (this.current === "idle") return this.move("reading", [this.read()]);
    if (this.current === "reading" || this.current === "pending") return this.move("pending", []);
    if (this.current === "handling") return this.move("handling", []);
    return this.refuse();
  }

  /** The inbox read returned these entries (any order; entries at or before the handled position are ignored). */
  pageReceived(entries: readonly InboxEntryRef[]): CursorStep {
    if (this.current !== "reading" && this.current !== "pending") return this.refuse();
    // An entry without a usable sequence cannot be ordered or bookmarked: it is not part of the page.
    const next = entries.filter((e) => Number.isSafeInteger(e.sequence) && e.sequence > this.handled).sort((a, b) => a.sequence - b.sequence)[0];
    if (next === undefined) return this.current === "pending" ? this.move("reading", [this.read()]) : this.move("idle", []);
    if (isPoisonEntry(next)) return this.move("reading", [{ kind: "report-poison", entry: next }, this.advance(next), this.read()]);
    if (!this.isSkippable(next)) {
      this.inFlight = next;
      return this.move("handling", [{ kind: "dispatch", entry: next }]);
    }
    return this.move("reading", [this.advance(next), this.read()]);
  }

  readFailed(): CursorStep {
    return this.current === "reading" || this.current === "pending" ? this.move("idle", []) : this.refuse();
  }

  /** The runtime finished the dispatched entry successfully. */
  runtimeFinished(): CursorStep {
    if (this.current !== "handling" || this.inFlight === undefined) return this.refuse();
    const entry = this.inFlight;
    this.inFlight = undefined;
    return this.move("reading", [this.advance(entry), this.read()]);
  }

  /** The runtime was interrupted: the entry stays unhandled and is attempted again later. */
  runtimeInterrupted(): CursorStep {
    if (this.current !== "handling") return this.refuse();
    this.inFlight = undefined;
    return this.move("idle", []);
  }

  stop(): CursorStep {
    if (this.current === "stopped") return this.refuse();
    this.inFlight = undefined;
    return this.move("stopped", []);
  }

  private read(): CursorAction {
    return { kind: "read", afterSequence: this.handled };
  }

  private advance(entry: InboxEntryRef): CursorAction {
    this.handled = entry.sequence;
    for (const id of idsOf(entry)) this.handledIds.add(id);
    return { kind: "bookmark", sequence: entry.sequence };
  }

  private move(state: InboxCursorState, actions: CursorAction[]): CursorStep {
    this.current = state;
    return { ok: true, state, actions };
  }

  private refuse(): CursorStep {
    return { ok: false, state: this.current, reason: "not_allowed" };
  }
}
