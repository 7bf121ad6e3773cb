// The no-op check's stat cache (stat-cache.mjs): a hash is reused only for a file whose stat is
// what it was, a file changed in the same moment as its hash is never recorded, and a cache that
// cannot be read is no cache. Expected hashes come from node:crypto over the bytes written here.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StatCache } from "./stat-cache.mjs";
import { generationIsUpToDate, inputHashes } from "./input-files.mjs";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
const WHOLE_SECOND = Math.floor(Date.now() / 1000) - 3600;
const LATER = (BigInt(Date.now()) + 60_000n) * 1_000_000n;

function project(): { dir: string; cacheFile: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "stat-cache-"));
  mkdirSync(join(dir, "node_modules"));
  const file = join(dir, "a.txt");
  writeFileSync(file, "first");
  // A whole second, which utimes can set back exactly (it takes no nanoseconds).
  utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
  return { dir, cacheFile: join(dir, "cache.json"), file };
}

function hashWith(cacheFile: string, file: string, nowNs?: bigint): string {
  const cache = new StatCache(cacheFile, nowNs);
  const hash = cache.hash(file, statSync(file, { bigint: true }));
  cache.save(true);
  return hash;
}

describe("StatCache", () => {
  it("reuses the recorded hash while the stat is unchanged, and rereads once it is not", () => {
    const { cacheFile, file } = project();
    expect(hashWith(cacheFile, file, LATER)).toBe(sha("first"));
    // The record is what is reused: a recorded hash that is not the bytes' shows through...
    const saved = JSON.parse(readFileSync(cacheFile, "utf8")) as { entries: Record<string, { hash: string }> };
    saved.entries[file]!.hash = sha("recorded");
    writeFileSync(cacheFile, JSON.stringify(saved));
    expect(hashWith(cacheFile, file, LATER)).toBe(sha("recorded"));
    // ...until the file is written: same size, modification time set back, but a new change time.
    const before = statSync(file, { bigint: true });
    writeFileSync(file, "other");
    utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(hashWith(cacheFile, file, LATER)).toBe(sha("other"));
  });

  it("never records a file changed within two seconds of its hash", () => {
    const { cacheFile, file } = project();
    expect(hashWith(cacheFile, file)).toBe(sha("first"));
    expect(existsSync(cacheFile)).toBe(false);
    hashWith(cacheFile, file, LATER);
    expect(Object.keys((JSON.parse(readFileSync(cacheFile, "utf8")) as { entries: object }).entries)).toEqual([file]);
  });

  it("treats an unreadable or malformed cache as none", () => {
    const { cacheFile, file } = project();
    for (const text of ["{", "null", '{"format":1,"entries":{"x":{"key":1}}}', `{"format":2,"entries":{}}`]) {
      writeFileSync(cacheFile, text);
      expect(hashWith(cacheFile, file, LATER)).toBe(sha("first"));
    }
  });

  it("keeps what a run did not see unless it saw every file", () => {
    const { dir, cacheFile, file } = project();
    const other = join(dir, "b.txt");
    writeFileSync(other, "b");
    const both = new StatCache(cacheFile, LATER);
    for (const f of [file, other]) both.hash(f, statSync(f, { bigint: true }));
    both.save(true);
    const partial = new StatCache(cacheFile, LATER);
    partial.hash(file, statSync(file, { bigint: true }));
    partial.save(false);
    expect(Object.keys((JSON.parse(readFileSync(cacheFile, "utf8")) as { entries: object }).entries).sort()).toEqual([file, other].sort());
    const complete = new StatCache(cacheFile, LATER);
    complete.hash(file, statSync(file, { bigint: true }));
    complete.save(true);
    expect(Object.keys((JSON.parse(readFileSync(cacheFile, "utf8")) as { entries: object }).entries)).toEqual([file]);
  });
  it("keeps the newest eight caches of one folder", () => {
    const { dir, file } = project();
    const folder = join(dir, "node_modules", ".cache", "agent-contracts");
    mkdirSync(folder, { recursive: true });
    const name = (i: number): string => `no-op-${i.toString(16).padStart(16, "0")}.json`;
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(folder, name(i)), "{}");
      utimesSync(join(folder, name(i)), WHOLE_SECOND + i, WHOLE_SECOND + i);
    }
    writeFileSync(join(folder, "other.json"), "{}");
    hashWith(join(folder, name(99)), file, LATER);
    const left = readdirSync(folder).sort();
    expect(left).toEqual(["other.json", ...[3, 4, 5, 6, 7, 8, 9, 99].map(name)].sort());
  });
});

describe("the no-op check with a warm cache", () => {
  it("still sees an output rewritten with its size and modification time kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "stat-cache-project-"));
    mkdirSync(join(dir, "node_modules"));
    mkdirSync(join(dir, "spec"));
    writeFileSync(join(dir, "spec", "project.yaml"), "name: x\n");
    mkdirSync(join(dir, "generated"));
    const output = join(dir, "generated", "out.txt");
    writeFileSync(output, "generated");
    utimesSync(output, WHOLE_SECOND, WHOLE_SECOND);
    const manifest = { inputs: inputHashes(dir), outputs: { "generated/out.txt": sha("generated") } };
    writeFileSync(join(dir, "generated", "manifest.json"), JSON.stringify(manifest));
    expect(generationIsUpToDate(dir)).toBe(true);
    // Warm the cache for every file as a run two seconds later would.
    const warm = StatCache.forProject(dir);
    const later = new StatCache((warm as unknown as { file: string }).file, LATER);
    for (const f of [output, join(dir, "spec", "project.yaml")]) later.hash(f, statSync(f, { bigint: true }));
    later.save(false);
    expect(generationIsUpToDate(dir)).toBe(true);
    writeFileSync(output, "GENERATED");
    utimesSync(output, WHOLE_SECOND, WHOLE_SECOND);
    expect(generationIsUpToDate(dir)).toBe(false);
  });
});
