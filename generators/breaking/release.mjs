// The last released spec version, as recorded in releases.json (version and commit), and the git
// history the breaking gate and the repository-history test need. A shallow clone (CI checkouts
// often are) lacks both: the history is fetched, and when it cannot be, that is an error with one
// line saying so, never a silent skip.
//
// Usage: node generators/breaking/release.mjs [--root DIR]   prints the last release's commit
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const RELEASES_FILE = "releases.json";
const SHA = /^[0-9a-f]{40}$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export class ReleaseError extends Error {}

const git = (root, ...args) => execFileSync("git", ["-C", root, ...args], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" }).trim();
const firstLine = (error) => String(error.stderr || error.message).trim().split("\n")[0];

/** releases.json's entries, checked: each a semantic version and a full commit id. */
export function readReleases(root) {
  const path = join(root, RELEASES_FILE);
  if (!existsSync(path)) throw new ReleaseError(`${RELEASES_FILE}: missing (it records each released spec version and its commit)`);
  let data;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ReleaseError(`${RELEASES_FILE}: not JSON: ${error.message}`);
  }
  if (!Array.isArray(data?.releases) || data.releases.length === 0) throw new ReleaseError(`${RELEASES_FILE}: /releases must be a non-empty list`);
  data.releases.forEach((r, i) => {
    if (typeof r?.version !== "string" || !SEMVER.test(r.version)) throw new ReleaseError(`${RELEASES_FILE}: /releases/${i}/version must be a semantic version`);
    if (typeof r.commit !== "string" || !SHA.test(r.commit)) throw new ReleaseError(`${RELEASES_FILE}: /releases/${i}/commit must be a full 40-hex commit id`);
  });
  return data.releases;
}

const isShallow = (root) => git(root, "rev-parse", "--is-shallow-repository") === "true";
const hasCommit = (root, sha) => {
  try {
    git(root, "cat-file", "-e", `${sha}^{commit}`);
    return true;
  } catch {
    return false;
  }
};

/** Unshallows the clone at `root` (one line on `log`); a fetch that fails is a ReleaseError. */
function unshallow(root, log, why) {
  log(`${why}: shallow clone, fetching its history (git fetch --unshallow)`);
  try {
    git(root, "fetch", "--quiet", "--unshallow");
  } catch (error) {
    throw new ReleaseError(`${why}: the clone is shallow and \`git fetch --unshallow\` failed (${firstLine(error)}); clone without --depth`);
  }
}

/** The last release's commit, present locally (fetched when the clone is shallow). */
export function lastReleaseCommit(root, log = console.error) {
  const last = readReleases(root).at(-1);
  if (!hasCommit(root, last.commit) && isShallow(root)) unshallow(root, log, `release ${last.version}`);
  if (!hasCommit(root, last.commit)) throw new ReleaseError(`release ${last.version}: commit ${last.commit} (${RELEASES_FILE}) is not in this repository`);
  return { version: last.version, commit: last.commit };
}

/**
 * Whether `root` is a git checkout with its full history (fetched first when shallow): the
 * repository-history test needs it. Not a checkout at all (an unpacked package) is the one case
 * with no history to fetch: { available: false, reason }.
 */
export function ensureHistory(root, log = console.log) {
  try {
    git(root, "rev-parse", "--git-dir");
  } catch {
    return { available: false, reason: `${root} is not a git checkout` };
  }
  if (isShallow(root)) unshallow(root, log, "repository history");
  return { available: true };
}

/** The last release's spec bundle (releases/<version>.spec.json): the gate's baseline, no git history needed. */
export function lastReleaseBundle(root) {
  const last = readReleases(root).at(-1);
  const path = `releases/${last.version}.spec.json`;
  if (!existsSync(join(root, path))) throw new ReleaseError(`release ${last.version}: ${path} is missing; write it with: agent-contracts breaking --against ${last.commit} --write-bundle ${path}`);
  return path;
}

function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log("usage: node generators/breaking/release.mjs [--root DIR] [--bundle]\n  Prints the commit of the last release recorded in releases.json (fetching the history of a\n  shallow clone first), or with --bundle the path of its spec bundle (releases/<version>.spec.json);\n  exits 1 with one line when it cannot.");
    return 0;
  }
  const at = argv.indexOf("--root");
  const root = at >= 0 ? argv[at + 1] : fileURLToPath(new URL("../..", import.meta.url));
  try {
    console.log(argv.includes("--bundle") ? lastReleaseBundle(root) : lastReleaseCommit(root).commit);
    return 0;
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`breaking: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
