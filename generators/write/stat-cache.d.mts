// Types for stat-cache.mjs (plain JavaScript, loaded by input-files.mjs before tsx is).
import type { BigIntStats } from "node:fs";

/** Hashes files, reusing the hash of one whose stat is unchanged since it was recorded. */
export declare class StatCache {
  /** The cache of the project at `root` (an absolute path); one that remembers nothing without node_modules. */
  static forProject(root: string): StatCache;
  /** `nowNs`: the wall clock in nanoseconds, for tests. */
  constructor(file: string | undefined, nowNs?: bigint);
  /** Lowercase hex SHA-256 of the regular file at `full`, whose bigint stat is `stat`. */
  hash(full: string, stat: BigIntStats): string;
  /** Writes the cache when it changed; `complete`: this run saw every file. */
  save(complete: boolean): void;
}
