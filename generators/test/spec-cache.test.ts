// The disk cache of `--spec` builds (issue 30, generators/cli/spec-cache.ts): the second build of
// an unchanged spec is read from the cache, an edited spec misses, a corrupt or foreign entry is
// ignored with one line and rebuilt, the folder stays within its bounds, and the folder is the
// one the XDG base directory rules name. Built on a copy of examples/parcel-lockers.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { specBuild, type SpecBuild } from "../cli/spec-bindings.js";
import { MAX_SPEC_CACHE_ENTRIES, specCacheDir, trimSpecCache } from "../cli/spec-cache.js";

const ROOT = join(import.meta.dirname, "..", "..");
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function temporary(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `agent-contracts-${name}-`));
  made.push(dir);
  return dir;
}

function lockers(): string {
  const root = temporary("cache-project");
  cpSync(join(ROOT, "examples/parcel-lockers"), root, { recursive: true });
  return root;
}

const entries = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
/** An entry written as the cache writes one, with a body of our choosing and its true SHA-256. */
const entryText = (key: string, body: string): string => JSON.stringify({ format: 1, key, sha256: sha256(body), body });

describe("the --spec build cache", () => {
  it("a second build of the same spec is read from the cache; an edited spec misses", async () => {
    const root = lockers();
    const cacheDir = temporary("cache");
    const warnings: string[] = [];
    const options = { cacheDir, warn: (l: string) => void warnings.push(l) };
    const first = await specBuild(root, options);
    expect(first.protocols.map((p) => [p.id, p.messages.map((m) => m.name)])).toEqual([["locker", ["DeliveryNotice", "OpenCompartment"]]]);
    const [file] = entries(cacheDir);
    expect(entries(cacheDir)).toEqual([file]);
    expect(file).toMatch(/^[0-9a-f]{64}\.json$/);
    // Proof that the next build reads the entry: a valid entry whose build names a message the
    // spec does not have is what comes back.
    const key = file!.slice(0, 64);
    const stored = JSON.parse(JSON.parse(readFileSync(join(cacheDir, file!), "utf8")).body as string) as SpecBuild;
    expect(stored).toEqual(first);
    stored.protocols[0]!.messages[0]!.name = "FromTheCache";
    writeFileSync(join(cacheDir, file!), entryText(key, JSON.stringify(stored)));
    expect((await specBuild(root, options)).protocols[0]!.messages[0]!.name).toBe("FromTheCache");
    // An edit anywhere in spec/ is another key: the spec is loaded again and cached beside.
    const notice = join(root, "spec/locker/messages/DeliveryNotice.yaml");
    writeFileSync(notice, readFileSync(notice, "utf8").replace(/^description: .*$/m, "description: Edited."));
    const edited = await specBuild(root, options);
    expect(edited.protocols[0]!.messages[0]!.name).toBe("DeliveryNotice");
    expect(entries(cacheDir)).toHaveLength(2);
    expect(warnings).toEqual([]);
  }, 120_000);

  it("a corrupt, foreign or oversized entry is ignored with one line on stderr and rebuilt", async () => {
    const root = lockers();
    const cacheDir = temporary("cache");
    const warnings: string[] = [];
    const options = { cacheDir, warn: (l: string) => void warnings.push(l) };
    const good = await specBuild(root, options);
    const [file] = entries(cacheDir);
    const path = join(cacheDir, file!);
    const text = readFileSync(path, "utf8");
    const cases: [string, string | Buffer, RegExp][] = [
      // One character of the body changed, SHA-256 left as it was.
      ["corrupt", text.replace("DeliveryNotice", "DeliveryNoticf"), /its content does not match its SHA-256/],
      ["truncated", text.slice(0, text.length / 2), /unreadable: /],
      // A valid entry, but of another key (copied over from elsewhere).
      ["foreign", entryText("0".repeat(64), JSON.stringify(good)), /not an entry of this format for this key/],
      ["another format", JSON.stringify({ ...JSON.parse(text), format: 0 }), /not an entry of this format for this key/],
      ["oversized", Buffer.alloc(16 * 1024 * 1024 + 1, 32), /over the 16777216-byte entry limit/],
    ];
    for (const [what, content, why] of cases) {
      warnings.length = 0;
      writeFileSync(path, content);
      expect(await specBuild(root, options), what).toEqual(good);
      expect(warnings, what).toHaveLength(1);
      expect(warnings[0], what).toMatch(new RegExp(`^agent-contracts: ignoring the cached spec build ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(`));
      expect(warnings[0], what).toMatch(why);
      // Rebuilt: the entry is whole again, and read without a word.
      expect(readFileSync(path, "utf8"), what).toBe(text);
      warnings.length = 0;
      await specBuild(root, options);
      expect(warnings, what).toEqual([]);
    }
  }, 180_000);

  it("the CLI reports a corrupt entry in one line on stderr and still answers (validate --spec, a real process)", () => {
    const root = lockers();
    const cacheDir = temporary("cache");
    const message = join(temporary("message"), "notice.json");
    writeFileSync(message, JSON.stringify({ parcel_id: "P-1", signature_required: false, delivered_at: "2026-06-01T07:55:00Z" }));
    const run = () => {
      const r = spawnSync(process.execPath, [join(ROOT, "bin/agent-contracts.mjs"), "validate", "locker", "DeliveryNotice", "--spec", root, message], {
        encoding: "utf8",
        env: { ...process.env, AGENT_CONTRACTS_CACHE_DIR: cacheDir },
      });
      // A checkout compiles its CLI on first use after a change (bin/agent-contracts.mjs), saying so.
      return { ...r, stderr: r.stderr.replace(/^agent-contracts: compiling the CLI \(.*\)\n/, "") };
    };
    const first = run();
    expect([first.status, first.stderr]).toEqual([0, ""]);
    const dir = join(cacheDir, "spec-builds");
    const [file] = entries(dir);
    writeFileSync(join(dir, file!), readFileSync(join(dir, file!), "utf8").replace('"sha256":"', '"sha256":"0'));
    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(second.stderr).toMatch(/^agent-contracts: ignoring the cached spec build .*; rebuilding it\n$/);
    expect(run().stderr).toBe("");
  }, 180_000);

  it("keeps at most MAX_SPEC_CACHE_ENTRIES entries, dropping the least recently used, and removes temporary files a dead run left", () => {
    const dir = temporary("cache-bound");
    const names = Array.from({ length: MAX_SPEC_CACHE_ENTRIES + 3 }, (_, i) => `${i.toString(16).padStart(64, "0")}.json`);
    names.forEach((name, i) => {
      writeFileSync(join(dir, name), "{}");
      utimesSync(join(dir, name), new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    });
    writeFileSync(join(dir, "ab.json.tmp-1-00"), "partial");
    utimesSync(join(dir, "ab.json.tmp-1-00"), new Date(0), new Date(0));
    writeFileSync(join(dir, "cd.json.tmp-2-00"), "being written now");
    trimSpecCache(dir);
    expect(entries(dir)).toEqual(names.slice(3));
    expect(existsSync(join(dir, "ab.json.tmp-1-00"))).toBe(false);
    expect(existsSync(join(dir, "cd.json.tmp-2-00"))).toBe(true);
  });

  it("lives in AGENT_CONTRACTS_CACHE_DIR, else $XDG_CACHE_HOME/agent-contracts (absolute only), else ~/.cache/agent-contracts", () => {
    expect(specCacheDir({ AGENT_CONTRACTS_CACHE_DIR: "/c", XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/c/spec-builds");
    expect(specCacheDir({ XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/x/agent-contracts/spec-builds");
    expect(specCacheDir({ XDG_CACHE_HOME: "relative", HOME: "/h" })).toBe("/h/.cache/agent-contracts/spec-builds");
    expect(specCacheDir({ AGENT_CONTRACTS_CACHE_DIR: "", HOME: "/h" })).toBe("/h/.cache/agent-contracts/spec-builds");
  });
});
