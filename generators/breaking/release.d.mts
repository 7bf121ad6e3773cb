// Types for release.mjs (plain JavaScript so `make check` runs it with node alone).

export declare const RELEASES_FILE: string;
export declare class ReleaseError extends Error {}
export interface Release {
  version: string;
  commit: string;
}
export declare function readReleases(root: string): Release[];
export declare function lastReleaseCommit(root: string, log?: (line: string) => void): Release;
export declare function ensureHistory(root: string, log?: (line: string) => void): { available: true } | { available: false; reason: string };
export declare function lastReleaseBundle(root: string): string;
