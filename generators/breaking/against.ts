// Where the other version comes from: a directory (a project root or a spec/ folder), a published
// package (an npm tarball, an installed package folder, a Kotlin jar, a Swift package folder: each
// carries the spec bundle it was made from), a spec bundle file, or a git revision, whose spec/ is
// extracted with `git archive` into a temporary folder so the working tree is never touched. In a
// shallow clone a revision that is not there is fetched, that one ref at depth 1 (issue 35).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { BUNDLE_FILE, BundleError, materializeBundle, MAX_BUNDLE_BYTES, parseBundle } from "./bundle.js";

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

function fromBundleText(text: string, where: string, label: string): SpecSource {
  try {
    const { root, cleanup } = materializeBundle(parseBundle(text, where));
    return { root, label, cleanup };
  } catch (error) {
    if (error instanceof BundleError) throw new AgainstError(error.message);
    throw error;
  }
}

/** One member of an archive, read by tar or unzip into memory (nothing is extracted to disk). */
function archiveMember(command: string, args: string[], file: string, member: string): string {
  try {
    return execFileSync(command, args, { maxBuffer: MAX_BUNDLE_BYTES + 1, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
  } catch (error) {
    const e = error as { code?: string; stderr?: Buffer };
    if (e.code === "ENOENT") throw new AgainstError(`reading ${file} needs \`${command}\`, which is not installed`);
    throw new AgainstError(`${file} holds no ${member} (a package made by agent-contracts carries its spec bundle there): ${String(e.stderr ?? "").trim().split("\n")[0]}`);
  }
}

/** A published package or bundle file: an npm tarball (.tgz), a jar, or the bundle's JSON itself. */
export function fromPackageFile(file: string, label = file): SpecSource {
  if (/\.(tgz|tar\.gz)$/.test(file)) return fromBundleText(archiveMember("tar", ["-xzOf", file, `package/${BUNDLE_FILE}`], file, `package/${BUNDLE_FILE}`), `${file}!package/${BUNDLE_FILE}`, label);
  if (/\.(jar|zip)$/.test(file)) {
    // The jar holds it in the project's package folder, whose name only the project knows: the one entry named so.
    const entries = archiveMember("unzip", ["-Z1", file], file, `a ${BUNDLE_FILE}`).split("\n").filter((e) => e === BUNDLE_FILE || e.endsWith(`/${BUNDLE_FILE}`));
    if (entries.length !== 1) throw new JarBundleError(file, entries);
    return fromBundleText(archiveMember("unzip", ["-p", file, entries[0]!], file, entries[0]!), `${file}!${entries[0]}`, label);
  }
  if (/\.json$/.test(file)) {
    if (statSync(file).size > MAX_BUNDLE_BYTES) throw new AgainstError(`${file}: a spec bundle over ${MAX_BUNDLE_BYTES} bytes is refused`);
    return fromBundleText(readFileSync(file, "utf8"), file, label);
  }
  throw new AgainstError(`${file} is a file but not a package agent-contracts reads: an npm tarball (.tgz), a jar, or a spec bundle (.json)`);
}

/** A jar with no bundle, or with several (which one is the package's own cannot be told). */
class JarBundleError extends AgainstError {
  constructor(file: string, entries: string[]) {
    super(entries.length === 0 ? `${file} holds no ${BUNDLE_FILE} (a package made by agent-contracts carries its spec bundle)` : `${file} holds ${entries.length} ${BUNDLE_FILE} entries (${entries.join(", ")}): name one by unpacking it`);
  }
}

/** Folders looked into for an unpacked jar's bundle, at most: a package folder is small. */
const MAX_FOLDER_ENTRIES = 10_000;

/**
 * The bundle an installed package folder carries: at its root (npm's node_modules/<name>, a Swift
 * package) or, for unpacked jar resources, the one spec-bundle.json below it (node_modules skipped).
 */
function bundleInFolder(dir: string): string | undefined {
  if (existsSync(join(dir, BUNDLE_FILE))) return join(dir, BUNDLE_FILE);
  const found: string[] = [];
  let seen = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (++seen > MAX_FOLDER_ENTRIES) throw new AgainstError(`${dir}: more than ${MAX_FOLDER_ENTRIES} entries looked at without finding one ${BUNDLE_FILE}; name the file itself`);
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) walk(join(d, e.name));
      else if (e.isFile() && e.name === BUNDLE_FILE) found.push(join(d, e.name));
    }
  };
  walk(dir);
  if (found.length > 1) throw new AgainstError(`${dir} holds ${found.length} ${BUNDLE_FILE} files (${found.join(", ")}): name one`);
  return found[0];
}

const isShallowClone = (cwd: string) => {
  try {
    return git(cwd, ["rev-parse", "--is-shallow-repository"]).toString().trim() === "true";
  } catch {
    return false;
  }
};

/**
 * In a shallow clone (CI checkouts at depth 1), fetches the one revision from `origin` at depth 1:
 * the history a shallow clone lacks is never needed, only that version's tree. Returns its commit,
 * or throws with the exact command that would make it available.
 */
export function fetchRevision(cwd: string, rev: string): string {
  const command = `git fetch --depth=1 origin ${rev}`;
  try {
    git(cwd, ["fetch", "--quiet", "--depth=1", "origin", rev]);
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim().split("\n")[0];
    throw new AgainstError(`${rev} is not in this shallow clone and \`${command}\` failed (${why}); fetch it yourself (a tag: git fetch --depth=1 origin tag ${rev}) or compare against a published package`);
  }
  const sha = resolveRevision(cwd, "FETCH_HEAD");
  if (!sha) throw new AgainstError(`\`${command}\` fetched no commit`);
  return sha;
}

/** A directory, a package or bundle file, else a git revision of the repository at `cwd`. */
export function openAgainst(cwd: string, against: string, log: (line: string) => void = () => {}): SpecSource {
  const asPath = resolve(cwd, against);
  if (existsSync(asPath) && statSync(asPath).isFile()) return fromPackageFile(asPath, against);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) {
    const bundle = existsSync(join(asPath, "spec")) ? undefined : bundleInFolder(asPath);
    return bundle ? fromPackageFile(bundle, against) : fromDirectory(asPath, against);
  }
  let sha = resolveRevision(cwd, against);
  if (!sha && !against.startsWith("-") && isShallowClone(cwd)) {
    log(`breaking: ${against} is not in this shallow clone: git fetch --depth=1 origin ${against}`);
    sha = fetchRevision(cwd, against);
  }
  if (!sha) throw new AgainstError(`${against} is neither a directory, a package nor a git revision of ${cwd}`);
  return fromRevision(cwd, against, sha);
}
