// Types for input-files.mjs (plain JavaScript so the CLI can run it before tsx is loaded).
import type { StatCache } from "./stat-cache.mjs";

/** Where the manifest lives by default (write-outputs.ts MANIFEST_PATH). */
export declare const DEFAULT_MANIFEST_PATH: string;

/** Lowercase hex SHA-256, as the manifest records every hash. */
export declare function sha256Hex(data: string | Uint8Array): string;

/** Every file generation depends on, by repository-relative path, with its hash (`cache`: the no-op check's only). */
export declare function inputHashes(root: string, cache?: StatCache): Record<string, string>;

/** True when a fresh generation would write nothing (inputs and outputs match the manifest). */
export declare function generationIsUpToDate(root: string, manifestPath?: string, outRoot?: string): boolean;

/** The generator's own inputs (its sources, the outside data it copies, the lockfile) under `root`. */
export declare function generatorInputHashes(root: string, cache?: StatCache): Record<string, string>;

/** Folders inside an owned output folder that build tools fill (npm, Maven, SwiftPM): the writer never looks into them. */
export declare const SKIP_DIRS: ReadonlySet<string>;
