// releases.json and the history the breaking gate needs: the recorded release is real (its commit
// carries that version in spec/project.yaml), and a shallow clone is fetched or the run fails with
// one line, on throwaway repositories cloned with --depth 1.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../test/fixture.js";
import { isBundled, parseBundle } from "../bundle.js";
import { bundlePath } from "../changelog.js";
import { ensureHistory, lastReleaseCommit, readReleases, ReleaseError } from "../release.mjs";

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" }).trim();
const made: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "agent-contracts-release-"));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An origin with three commits, the first recorded as release 1.0.0; returns [origin, first sha]. */
function origin(): [string, string] {
  const dir = tmp();
  git(dir, "init", "-q");
  const commit = (n: number) => {
    writeFileSync(join(dir, "f.txt"), String(n));
    git(dir, "add", "-A");
    git(dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", `c${n}`);
    return git(dir, "rev-parse", "HEAD");
  };
  const first = commit(1);
  writeFileSync(join(dir, "releases.json"), JSON.stringify({ releases: [{ version: "1.0.0", commit: first }] }));
  commit(2);
  commit(3);
  return [dir, first];
}
const shallowClone = (from: string) => {
  const dir = join(tmp(), "clone");
  execFileSync("git", ["clone", "-q", "--depth", "1", `file://${from}`, dir], { stdio: "ignore" });
  return dir;
};

describe("this repository's releases.json", () => {
  it("each recorded commit carries its version in spec/project.yaml (where the history is here)", () => {
    const releases = readReleases(REPO_ROOT);
    expect(releases.length).toBeGreaterThan(0);
    if (!ensureHistory(REPO_ROOT).available) return console.log("releases.json check against history skipped: not a git checkout");
    for (const r of releases) expect(git(REPO_ROOT, "show", `${r.commit}:spec/project.yaml`), r.commit).toMatch(new RegExp(`^\\s+version: ${r.version.replace(/\./g, "\\.")}$`, "m"));
  });
  it("each release has its spec bundle in releases/, holding exactly the spec files of its commit", () => {
    const releases = readReleases(REPO_ROOT);
    const history = ensureHistory(REPO_ROOT).available;
    for (const r of releases) {
      const bundle = parseBundle(readFileSync(join(REPO_ROOT, bundlePath(r.version)), "utf8"), bundlePath(r.version));
      expect(bundle.version, bundlePath(r.version)).toBe(r.version);
      if (!history) continue;
      // Compared with git's own listing and blobs, not with the code that wrote the bundle.
      const paths = git(REPO_ROOT, "ls-tree", "-r", "--name-only", r.commit, "--", "spec").split("\n").filter(isBundled).sort();
      expect(Object.keys(bundle.files).sort(), r.version).toEqual(paths);
      for (const p of paths) expect(bundle.files[p], `${r.version} ${p}`).toBe(execFileSync("git", ["-C", REPO_ROOT, "show", `${r.commit}:${p}`], { encoding: "utf8" }));
    }
  });
  it("the script prints the last release's commit", () => {
    const r = spawnSync("node", [join(REPO_ROOT, "generators/breaking/release.mjs")], { encoding: "utf8" });
    expect([r.status, r.stdout.trim()]).toEqual([0, readReleases(REPO_ROOT).at(-1)!.commit]);
  });
});

describe("a shallow clone", () => {
  it("is fetched: the release commit missing at depth 1 is there afterwards, with one line said", () => {
    const [from, first] = origin();
    const clone = shallowClone(from);
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
    const lines: string[] = [];
    expect(lastReleaseCommit(clone, (l) => lines.push(l))).toEqual({ version: "1.0.0", commit: first });
    expect(lines).toEqual(["release 1.0.0: shallow clone, fetching its history (git fetch --unshallow)"]);
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("false");
  });
  it("whose origin is gone fails with one line (no skip), for the gate and for the history test", () => {
    const [from] = origin();
    const clone = shallowClone(from);
    rmSync(from, { recursive: true, force: true });
    expect(() => lastReleaseCommit(clone, () => {})).toThrow(ReleaseError);
    expect(() => ensureHistory(clone, () => {})).toThrow(/repository history: the clone is shallow and `git fetch --unshallow` failed \(.+\); clone without --depth$/);
    const r = spawnSync("node", [join(REPO_ROOT, "generators/breaking/release.mjs"), "--root", clone], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n").at(-1)).toMatch(/^breaking: release 1\.0\.0: the clone is shallow and `git fetch --unshallow` failed/);
  });
  it("a full clone needs no fetch; a folder outside any repository has no history, said as a reason", () => {
    const [from] = origin();
    const lines: string[] = [];
    expect(ensureHistory(from, (l) => lines.push(l))).toEqual({ available: true });
    expect(lines).toEqual([]);
    const bare = tmp();
    expect(ensureHistory(bare)).toEqual({ available: false, reason: `${bare} is not a git checkout` });
  });
});

describe("releases.json is checked", () => {
  it.each([
    [{ releases: [] }, /\/releases must be a non-empty list/],
    [{ releases: [{ version: "1", commit: "a".repeat(40) }] }, /\/releases\/0\/version must be a semantic version/],
    [{ releases: [{ version: "1.0.0", commit: "abc" }] }, /\/releases\/0\/commit must be a full 40-hex commit id/],
  ])("%j", (data, message) => {
    const dir = tmp();
    writeFileSync(join(dir, "releases.json"), JSON.stringify(data));
    expect(() => readReleases(dir)).toThrow(message);
  });
  it("a recorded commit the repository does not have is an error, not a skip", () => {
    const [from] = origin();
    writeFileSync(join(from, "releases.json"), JSON.stringify({ releases: [{ version: "2.0.0", commit: "0".repeat(40) }] }));
    expect(() => lastReleaseCommit(from)).toThrow(/release 2\.0\.0: commit 0{40} \(releases\.json\) is not in this repository/);
  });
});
