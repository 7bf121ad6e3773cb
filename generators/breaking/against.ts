// Where the other version comes from: a directory (a project root or a spec/ folder) or a git
// revision, whose spec/ is extracted with `git archive` into a temporary folder so the working
// tree is never touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

export class AgainstError extends Error {}

export interface SpecSource {
  /** A folder whose spec/ is the version. */
  root: string;
  label: string;
  cleanup(): void;
}

const looksLikeSpec = (dir: string) => ["meta", "common"].some((d) => existsSync(join(dir, d))) || basename(dir) === "spec";

/** A directory holding spec/, or a spec folder itself. */
export function fromDirectory(dir: string, label = dir): SpecSource {
  const abs = resolve(dir);
  if (existsSync(join(abs, "spec")) && statSync(join(abs, "spec")).isDirectory()) return { root: abs, label, cleanup: () => {} };
  if (!looksLikeSpec(abs)) throw new AgainstError(`${dir} holds no spec/ folder and is not one`);
  const tmp = mkdtempSync(join(tmpdir(), "agent-contracts-breaking-"));
  symlinkSync(abs, join(tmp, "spec"), "dir");
  return { root: tmp, label, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

function git(cwd: string, args: string[], input?: Buffer): Buffer {
  return execFileSync("git", ["-C", cwd, ...args], { input, maxBuffer: 512 * 1024 * 1024, stdio: ["pipe", "pipe", "pipe"] });
}

/** The commit a revision names, or undefined when it names none (or cwd is not a repository). */
export function resolveRevision(cwd: string, rev: string): string | undefined {
  if (rev.startsWith("-")) return undefined;
  try {
    return git(cwd, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]).toString().trim() || undefined;
  } catch {
    return undefined;
  }
}

export function fromRevision(cwd: string, rev: string, sha: string): SpecSource {
  const tmp = mkdtempSync(join(tmpdir(), "agent-contracts-breaking-"));
  try {
    const hasSpec = git(cwd, ["ls-tree", "--name-only", sha, "--", "spec"]).toString().trim() !== "";
    if (hasSpec) execFileSync("tar", ["-x", "-C", tmp], { input: git(cwd, ["archive", "--format=tar", sha, "--", "spec"]), maxBuffer: 512 * 1024 * 1024 });
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw new AgainstError(`cannot read spec/ at ${rev}: ${(error as Error).message.split("\n")[0]}`);
  }
  return { root: tmp, label: `${rev} (${sha.slice(0, 12)})`, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

/** A directory when one exists at that path, else a git revision of the repository at `cwd`. */
export function openAgainst(cwd: string, against: string): SpecSource {
  const asPath = resolve(cwd, against);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) return fromDirectory(asPath, against);
  const sha = resolveRevision(cwd, against);
  if (!sha) throw new AgainstError(`${against} is neither a directory nor a git revision of ${cwd}`);
  return fromRevision(cwd, against, sha);
}
