// The no-op check's file hashes, remembered by stat (git's index does the same): a file whose size,
// modification and change times, inode and device are those recorded with its hash is not read
// again. Reading and hashing the 35 MB of inputs and outputs was most of a no-op `generate`.
//
// Only the no-op check uses it: what a manifest records and what `generate --check` compares are
// always hashed from the bytes. The change time cannot be set back by a user (any write moves it),
// and a file changed within RACY_NS of being hashed is never recorded, so an edit in the same
// clock tick as a hash is not missed. The cache lives under the project's node_modules/.cache
// (never in generated/), one file per project folder, written whole and renamed into place, the
// newest eight kept; a missing, unreadable or malformed cache is no cache.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const RACY_NS = 2_000_000_000n;
const FORMAT = 1;
/** Caches kept in one node_modules (test fixtures and bench copies link the same one): the newest. */
const KEPT_CACHES = 8;
const CACHE_NAME = /^no-op-[0-9a-f]{16}\.json$/;

/** Hashes files, reusing the hash of one whose stat is unchanged since it was recorded. */
export class StatCache {
  /** The cache of the project at `root` (an absolute path), or a cache that remembers nothing when it has no node_modules. */
  static forProject(root) {
    const modules = join(root, "node_modules");
    if (!existsSync(modules)) return new StatCache(undefined);
    const name = `no-op-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.json`;
    return new StatCache(join(modules, ".cache", "agent-contracts", name));
  }

  /** `nowNs`: the wall clock in nanoseconds, for tests. */
  constructor(file, nowNs = BigInt(Date.now()) * 1_000_000n) {
    this.file = file;
    this.entries = file === undefined ? new Map() : readEntries(file);
    /** What this run hashed or reused: what is saved, so files that are gone drop out. */
    this.seen = new Map();
    this.changed = false;
    this.startedNs = nowNs;
  }

  /** Lowercase hex SHA-256 of the regular file at `full`, whose bigint lstat is `stat`. */
  hash(full, stat) {
    const key = statKey(stat);
    const known = this.entries.get(full);
    if (known !== undefined && known.key === key) {
      this.seen.set(full, known);
      return known.hash;
    }
    const hash = createHash("sha256").update(readFileSync(full)).digest("hex");
    if (this.file !== undefined && stat.mtimeNs < this.startedNs - RACY_NS && stat.ctimeNs < this.startedNs - RACY_NS) {
      this.seen.set(full, { key, hash });
      this.changed = true;
    }
    return hash;
  }

  /**
   * Writes the cache when a hash was added or a file dropped out; a cache that cannot be written is
   * left alone. `complete`: this run saw every file (else the ones it did not see are kept).
   */
  save(complete) {
    if (!complete) for (const [path, entry] of this.entries) if (!this.seen.has(path)) this.seen.set(path, entry);
    if (this.file === undefined || (!this.changed && this.seen.size === this.entries.size)) return;
    try {
      mkdirSync(join(this.file, ".."), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ format: FORMAT, entries: Object.fromEntries(this.seen) }));
      renameSync(temporary, this.file);
      pruneOldCaches(dirname(this.file));
    } catch {
      // Read-only node_modules: the next no-op hashes again.
    }
  }
}

/** Removes all but the newest KEPT_CACHES caches, so projects that came and went do not pile up. */
function pruneOldCaches(folder) {
  const caches = readdirSync(folder)
    .filter((name) => CACHE_NAME.test(name))
    .map((name) => ({ path: join(folder, name), time: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const old of caches.slice(KEPT_CACHES)) rmSync(old.path, { force: true });
}

function statKey(stat) {
  return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}:${stat.dev}`;
}

function readEntries(file) {
  const entries = new Map();
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8"));
    if (parsed?.format !== FORMAT || typeof parsed.entries !== "object" || parsed.entries === null) return entries;
    for (const [path, entry] of Object.entries(parsed.entries)) {
      if (typeof entry?.key === "string" && typeof entry.hash === "string" && /^[0-9a-f]{64}$/.test(entry.hash)) entries.set(path, entry);
    }
  } catch {
    // No cache yet, or one this version cannot read.
  }
  return entries;
}
