// Where an inbox handler keeps its bookmark: the sequence of the last inbox entry its runtime
// finished (provider-integration, inbox-handling). A bookmark only moves forward, atomically, so
// two handlers racing after a restart can never move it back past work already done. Durable
// versions live beside the replay stores (SQLite, Redis, PostgreSQL), with the same guarantees.

export interface BookmarkStore {
  /** The bookmark of `scope` (0 when none was saved). */
  position(scope: string): Promise<number>;
  /** Moves the bookmark to `sequence` if that is further; resolves the bookmark afterwards. */
  advance(scope: string, sequence: number): Promise<number>;
}

/** A sequence a bookmark can hold: a safe, non-negative integer. */
export function assertSequence(sequence: number): void {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError(`an inbox sequence is a non-negative safe integer, not ${sequence}`);
}

export class MemoryBookmarkStore implements BookmarkStore {
  private readonly bookmarks = new Map<string, number>();

  async position(scope: string): Promise<number> {
    return this.bookmarks.get(scope) ?? 0;
  }

  async advance(scope: string, sequence: number): Promise<number> {
    assertSequence(sequence);
    const next = Math.max(this.bookmarks.get(scope) ?? 0, sequence);
    this.bookmarks.set(scope, next);
    return next;
  }
}
