// The writer never follows a symbolic link (issue 31). A spec project that arrives as a git
// repository or a tarball can ship `generated/ts/evil -> /some/dir` or `generated/ts/README.md ->
// ~/.bashrc`: followed, the orphan sweep would delete the files of /some/dir and the writer would
// overwrite ~/.bashrc. So every link inside a folder a target owns, and every link on the way to a
// path generation writes, is found with lstat (never stat) before anything is written or removed,
// and refused by name; each write and removal is then checked once more to resolve inside the
// output root (realpath), in case something changed the tree in between.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";

import { SKIP_DIRS } from "./input-files.mjs";

export interface OutputLink {
  /** Root-relative path of the link. */
  path: string;
  /** What the link points to, as stored in it. */
  target: string;
}

/** Refusal: links where generation writes or removes. Nothing was written or removed when this is thrown. */
export class OutputLinkError extends Error {
  readonly code = "output-link";
  constructor(readonly links: readonly OutputLink[]) {
    super(`${links.length} symbolic link(s) where generation writes: ${links.map((l) => `${l.path} -> ${l.target}`).join(", ")}`);
  }
  /** One line per link, for the CLI. */
  lines(): string[] {
    return this.links.map((l) => `${l.path}: symbolic link to ${l.target}: generation never writes through or removes into a link; remove it [${this.code}]`);
  }
}

/** Refusal: a path that resolves outside the output root (a link raced in after the check). */
export class OutsideOutputRootError extends Error {
  readonly code = "outside-output-root";
  constructor(readonly path: string, readonly resolved: string) {
    super(`${path}: resolves to ${resolved}, outside the output folder; nothing is written there [outside-output-root]`);
  }
}

/**
 * The files under each owned folder (root-relative, sorted), never descending into a link or a
 * build tool's folder, and the links met on the way (which are not files to sweep).
 */
export function walkOwned(root: string, ownedDirs: readonly string[]): { files: string[]; links: OutputLink[] } {
  const files: string[] = [];
  const links: OutputLink[] = [];
  const visit = (rel: string): void => {
    const full = `${root}/${rel}`;
    const stat = lstatOrUndefined(full);
    if (stat === undefined) return;
    if (stat.isSymbolicLink()) {
      links.push({ path: rel, target: readlinkSync(full) });
      return;
    }
    if (!stat.isDirectory()) {
      files.push(rel);
      return;
    }
    for (const name of readdirSync(full).sort()) if (!SKIP_DIRS.has(name)) visit(`${rel}/${name}`);
  };
  for (const dir of ownedDirs) visit(dir);
  return { files, links };
}

/** Links on the way from root to each path (every existing component, the file itself included). */
export function linksOnPaths(root: string, paths: Iterable<string>): OutputLink[] {
  const seen = new Set<string>();
  const links: OutputLink[] = [];
  for (const path of paths) {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const rel = parts.slice(0, i).join("/");
      if (seen.has(rel)) continue;
      seen.add(rel);
      const stat = lstatOrUndefined(`${root}/${rel}`);
      if (stat === undefined) break; // nothing below a missing component exists yet
      if (stat.isSymbolicLink()) {
        links.push({ path: rel, target: readlinkSync(`${root}/${rel}`) });
        break;
      }
    }
  }
  return links;
}

/** Every link generation could follow: inside the owned folders and on the way to each output. Throws OutputLinkError naming them. */
export function refuseOutputLinks(root: string, outputs: Iterable<string>, ownedDirs: readonly string[]): { files: string[] } {
  const owned = walkOwned(root, ownedDirs);
  const byPath = new Map<string, OutputLink>();
  for (const link of [...owned.links, ...linksOnPaths(root, outputs)]) byPath.set(link.path, link);
  if (byPath.size > 0) throw new OutputLinkError([...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1)));
  return { files: owned.files };
}

/**
 * Throws unless `root/path` resolves inside root: its nearest existing ancestor's real path, plus
 * the rest, must lie under root's real path, and the file itself must not be a link.
 */
export function assertInsideRoot(root: string, path: string): void {
  const realRoot = realUpToExisting(resolve(root));
  const full = resolve(root, path);
  const stat = lstatOrUndefined(full);
  if (stat?.isSymbolicLink()) throw new OutsideOutputRootError(path, readlinkSync(full));
  const resolved = realUpToExisting(full);
  if (resolved !== realRoot && !resolved.startsWith(realRoot + sep)) throw new OutsideOutputRootError(path, resolved);
}

/** The real path of `full`'s nearest existing ancestor, plus the rest: an output root (`generate --out`) may not exist yet. */
function realUpToExisting(full: string): string {
  let existing = full;
  while (!existsSync(existing)) existing = dirname(existing);
  return resolve(realpathSync(existing), relative(existing, full));
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
