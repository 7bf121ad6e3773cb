// What the network-backed stores share: a deadline on every call, loading a client package that
// is an optional peer dependency with an error that names it, and the server checks a fleet
// relies on (settings read again periodically, the caller's clock compared with the server's).

/** Thrown when a store call does not settle before its deadline. */
export class StoreTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "StoreTimeoutError";
  }
}

/** Thrown when the package a store needs is not installed. */
export class MissingPeerError extends Error {
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`${what} needs the npm package "${packageName}": npm install ${packageName}`);
    this.name = "MissingPeerError";
  }
}

/** How often the shared deadline timer looks at pending calls (ms): a deadline fires at most this late. */
export const DEADLINE_TICK_MS = 10;

/** A call waiting for its answer, in the doubly linked list of the calls with the same deadline length. */
interface PendingCall {
  readonly dueMs: number;
  readonly reject: (error: unknown) => void;
  readonly what: string;
  readonly ms: number;
  readonly list: PendingList;
  previous: PendingCall | undefined;
  next: PendingCall | undefined;
}

/** Calls of one deadline length, oldest first: they are due in the order they started. */
interface PendingList {
  head: PendingCall | undefined;
  tail: PendingCall | undefined;
}

const pendingByMs = new Map<number, PendingList>();
let pendingCount = 0;
let ticker: ReturnType<typeof setInterval> | undefined;

/**
 * `promise`, or a StoreTimeoutError once `ms` have passed (never sooner; at most
 * DEADLINE_TICK_MS later). Every store round trip carries one, so they share one timer, which
 * ticks only while a call is pending and never keeps the process alive: a call costs a clock
 * reading and a list entry instead of a timer of its own (the Redis store's floor is a bare
 * command on the same client, where a timer per call was a measurable share of the CPU).
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const call = enlist(ms, what, reject);
    promise.then(
      (value) => {
        unlist(call);
        resolve(value);
      },
      (error: unknown) => {
        unlist(call);
        reject(error);
      },
    );
  });
}

function enlist(ms: number, what: string, reject: (error: unknown) => void): PendingCall {
  let list = pendingByMs.get(ms);
  if (list === undefined) {
    list = { head: undefined, tail: undefined };
    pendingByMs.set(ms, list);
  }
  const call: PendingCall = { dueMs: performance.now() + ms, reject, what, ms, list, previous: list.tail, next: undefined };
  if (list.tail === undefined) list.head = call;
  else list.tail.next = call;
  list.tail = call;
  if (pendingCount++ === 0) {
    ticker = setInterval(expireDue, DEADLINE_TICK_MS);
    ticker.unref?.();
  }
  return call;
}

/** Takes a call out of its list (it settled, or its deadline passed); the timer stops with the last one. */
function unlist(call: PendingCall): void {
  const list = call.list;
  if (call.previous === undefined) {
    if (list.head !== call) return; // already taken out
    list.head = call.next;
  } else call.previous.next = call.next;
  if (call.next === undefined) list.tail = call.previous;
  else call.next.previous = call.previous;
  call.previous = call.next = undefined;
  if (list.head === undefined) pendingByMs.delete(call.ms);
  if (--pendingCount === 0) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

function expireDue(): void {
  const nowMs = performance.now();
  for (const list of [...pendingByMs.values()]) {
    while (list.head !== undefined && list.head.dueMs <= nowMs) {
      const call = list.head;
      unlist(call);
      call.reject(new StoreTimeoutError(call.what, call.ms));
    }
  }
}

/** Imports an optional peer dependency, or throws MissingPeerError naming it. */
export async function optionalPeer<T>(packageName: string, what: string, load: () => Promise<unknown>): Promise<T> {
  try {
    return (await load()) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new MissingPeerError(packageName, what);
    throw error;
  }
}

/** Why a fleet store refuses to record: the server (or the caller's clock) could let a replay through. */
export type StoreSafetyProblem = "clock-skew" | "may-evict" | "not-persistent" | "not-replicated" | "no-synchronous-standby";

/** Thrown (and the guard refuses, fail closed) while a server setting or the clock breaks a fleet requirement. */
export class StoreSafetyError extends Error {
  constructor(
    readonly problem: StoreSafetyProblem,
    message: string,
  ) {
    super(message);
    this.name = "StoreSafetyError";
  }
}

/**
 * Runs a store's server checks when they are due: first use, `intervalMs` after the start of the
 * last passing run, and whenever the connection changed (a reconnect may reach another server).
 * Concurrent callers share one run; a failed run is due again at once, so the store stays refused
 * until a run passes. Half an interval after a pass the next run starts in the background, while
 * callers go on without waiting: a busy store then never stalls every caller on a check, and no
 * answer is given more than `intervalMs` after the start of the run that vouched for it.
 */
export class PeriodicCheck {
  private running: Promise<void> | undefined;
  private runningConnection = -1;
  private passedAtMs = Number.NEGATIVE_INFINITY;
  private checkedConnection = -1;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<void>,
  ) {}

  /** undefined when the caller need not wait (the fast path), else the run's promise. */
  due(connection: number): Promise<void> | undefined {
    const ageMs = performance.now() - this.passedAtMs;
    if (connection === this.checkedConnection && ageMs < this.intervalMs) {
      if (this.running === undefined && ageMs >= this.intervalMs / 2) this.start(connection);
      return undefined;
    }
    if (this.running === undefined) return this.start(connection);
    if (this.runningConnection === connection) return this.running;
    // A run for the connection before a reconnect vouches for nothing on this one.
    return this.running.catch(() => undefined).then(() => this.due(connection));
  }

  private start(connection: number): Promise<void> {
    const startedAtMs = performance.now();
    const run = this.run();
    this.running = run;
    this.runningConnection = connection;
    run.then(
      () => {
        this.passedAtMs = startedAtMs;
        this.checkedConnection = connection;
        this.running = undefined;
      },
      () => {
        this.passedAtMs = Number.NEGATIVE_INFINITY;
        this.running = undefined;
      },
    );
    return run;
  }
}

/**
 * The server's clock as last read, carried forward on the local monotonic clock. A reading taken
 * over a round trip of r ms is uncertain by r/2, which the comparison allows for.
 */
export class ServerClock {
  private serverMs = Number.NaN;
  private localMs = 0;
  private uncertaintyMs = 0;

  /** Records a server time read between the local monotonic instants `sentMs` and `receivedMs`. */
  observe(serverMs: number, sentMs: number, receivedMs: number): void {
    this.serverMs = serverMs;
    this.localMs = (sentMs + receivedMs) / 2;
    this.uncertaintyMs = (receivedMs - sentMs) / 2;
  }

  /** Throws StoreSafetyError("clock-skew") when `callerNowMs` is further than `maxSkewMs` from the server's clock (or it was never read). */
  assertWithin(callerNowMs: number, maxSkewMs: number, server: string): void {
    const offsetMs = callerNowMs - (this.serverMs + (performance.now() - this.localMs));
    if (!(Math.abs(offsetMs) <= maxSkewMs + this.uncertaintyMs)) {
      throw new StoreSafetyError(
        "clock-skew",
        `this replica's clock differs from the ${server} server's by ${Math.round(offsetMs)} ms, more than the ${maxSkewMs} ms allowed (maxClockSkewMs): a record could expire while the message is still accepted; fix the clock (NTP)`,
      );
    }
  }
}
