// The disk cache of `--spec` run-time builds (issue 30): loading and checking a user's spec is
// most of what `validate --spec DIR` costs (seconds), and it is the same work every run until
// the spec or the CLI changes. An entry is keyed by a hash of everything the build read (the
// spec's files, the recorded releases, the generator's own inputs: generators/write/input-files.mjs,
// the rule `generate`'s no-op check uses), the CLI's version and this cache's format. It holds
// text (JSON), never code, and is trusted only after its own SHA-256 and key check out: a corrupt
// or foreign entry is ignored with one line on stderr and rebuilt. Written atomically (a
// temporary file renamed into place); the folder is bounded in entries and bytes, least recently
// used first out.
import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { inputHashes, sha256Hex } from "../write/input-files.mjs";
import { PACKAGE_HOME } from "../write/generator-home.mjs";

/** Bumped whenever what an entry holds changes shape: older entries then simply miss. */
export const SPEC_CACHE_FORMAT = 1;
/** Largest entry read or written (bytes): a spec within the loader's limits gives far less. */
export const MAX_SPEC_CACHE_ENTRY_BYTES = 16 * 1024 * 1024;
/** The cache folder's bounds; past either, the least recently used entries are removed. */
export const MAX_SPEC_CACHE_BYTES = 64 * 1024 * 1024;
export const MAX_SPEC_CACHE_ENTRIES = 32;
/** A temporary file this old was left by a run that died mid-write. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/**
 * The cache folder: AGENT_CONTRACTS_CACHE_DIR when set (the override), else
 * $XDG_CACHE_HOME/agent-contracts (an absolute XDG_CACHE_HOME only, as the XDG spec says), else
 * ~/.cache/agent-contracts; spec builds go in its spec-builds/ folder.
 */
export function specCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env["AGENT_CONTRACTS_CACHE_DIR"];
  if (override !== undefined && override !== "") return join(override, "spec-builds");
  const xdg = env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env["HOME"] || homedir(), ".cache");
  return join(base, "agent-contracts", "spec-builds");
}

/** The key of a build of the project at `root` by this CLI (`version`): a SHA-256 in hex. */
export function specCacheKey(root: string, version: string): string {
  const hashes: Record<string, string> = inputHashes(root);
  // A project made by `init` has no spec/meta: the CLI's meta-schemas are then inputs too.
  if (!existsSync(`${root}/spec/meta`)) {
    for (const name of readdirSync(`${PACKAGE_HOME}/spec/meta`).sort()) hashes[`(cli)/spec/meta/${name}`] = sha256Hex(readFileSync(`${PACKAGE_HOME}/spec/meta/${name}`));
  }
  return sha256Hex(JSON.stringify({ format: SPEC_CACHE_FORMAT, version, inputs: Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) }));
}

interface Entry {
  format: number;
  key: string;
  sha256: string;
  body: string;
}

/** The body stored under `key`, or undefined (a miss; a corrupt or foreign entry is reported by `warn` and left to be rebuilt). */
export function readSpecCache(dir: string, key: string, warn: (line: string) => void): string | undefined {
  const path = join(dir, `${key}.json`);
  let size: number;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return ignore(path, "not a regular file", warn);
    size = stat.size;
  } catch {
    return undefined; // no entry: a plain miss
  }
  if (size > MAX_SPEC_CACHE_ENTRY_BYTES) return ignore(path, `${size} bytes, over the ${MAX_SPEC_CACHE_ENTRY_BYTES}-byte entry limit`, warn);
  let entry: Partial<Entry>;
  try {
    entry = JSON.parse(readFileSync(path, "utf8")) as Partial<Entry>;
  } catch (error) {
    return ignore(path, `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, warn);
  }
  if (entry === null || typeof entry !== "object" || entry.format !== SPEC_CACHE_FORMAT || entry.key !== key || typeof entry.body !== "string" || typeof entry.sha256 !== "string") {
    return ignore(path, "not an entry of this format for this key", warn);
  }
  if (sha256Hex(entry.body) !== entry.sha256) return ignore(path, "its content does not match its SHA-256", warn);
  try {
    // Recently used: the folder's bound removes least recently used entries first.
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // A read-only cache still serves hits.
  }
  return entry.body;
}

/** Stores `body` under `key` atomically, then trims the folder to its bounds; a failure is one line on `warn`, never the command's failure. */
export function writeSpecCache(dir: string, key: string, body: string, warn: (line: string) => void): void {
  const text = JSON.stringify({ format: SPEC_CACHE_FORMAT, key, sha256: sha256Hex(body), body } satisfies Entry);
  if (Buffer.byteLength(text) > MAX_SPEC_CACHE_ENTRY_BYTES) {
    warn(`agent-contracts: the spec build is over the ${MAX_SPEC_CACHE_ENTRY_BYTES}-byte cache entry limit; not cached`);
    return;
  }
  const temporary = join(dir, `${key}.json.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, text, { flag: "wx", mode: 0o600 });
    renameSync(temporary, join(dir, `${key}.json`));
  } catch (error) {
    rmSync(temporary, { force: true });
    warn(`agent-contracts: cannot write the spec build cache in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (the command goes on without it)`);
    return;
  }
  trimSpecCache(dir);
}

/** Removes the least recently used entries past MAX_SPEC_CACHE_ENTRIES or MAX_SPEC_CACHE_BYTES, and temporary files a dead run left. */
export function trimSpecCache(dir: string): void {
  const entries: { path: string; size: number; usedMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue; // removed meanwhile by another run
    }
    if (/\.json\.tmp-/.test(name)) {
      if (Date.now() - stat.mtimeMs > STALE_TEMPORARY_MS) rmSync(path, { force: true });
    } else if (/^[0-9a-f]{64}\.json$/.test(name) && stat.isFile()) entries.push({ path, size: stat.size, usedMs: stat.mtimeMs });
  }
  entries.sort((a, b) => b.usedMs - a.usedMs);
  let bytes = 0;
  entries.forEach((e, i) => {
    bytes += e.size;
    if (i >= MAX_SPEC_CACHE_ENTRIES || bytes > MAX_SPEC_CACHE_BYTES) rmSync(e.path, { force: true });
  });
}

function ignore(path: string, why: string, warn: (line: string) => void): undefined {
  warn(`agent-contracts: ignoring the cached spec build ${path} (${why}); rebuilding it`);
  return undefined;
}
