// Stage 1: find and read every spec file. No validation beyond "is it JSON-shaped data".
import { existsSync, lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import type { SpecError } from "../model/types.js";
import { readLifecycleFiles } from "../lifecycles/load.js";
import { resolveInsideSpec, specReadBudget } from "./spec-guard.js";
import { readSpecFile, type SpecFile } from "./spec-file.js";
import { PACKAGE_HOME } from "../write/generator-home.mjs";

export interface LoadedProtocol {
  id: string;
  protocolFile: SpecFile;
  messageFiles: SpecFile[];
  /** spec/<id>/lifecycles/*.machine.yaml, sorted by name. */
  lifecycleFiles: SpecFile[];
}

export interface LoadedSpec {
  root: string;
  common: SpecFile[];
  protocols: LoadedProtocol[];
  metaSchemas: SpecFile[];
  /**
   * spec/project.yaml: the project's identity and policy lints (generators/model/project.ts).
   * Checked by the check stage, which refuses a spec without one; `breaking` reads older trees
   * that may lack it.
   */
  project?: SpecFile;
}

export const PROJECT_FILE = "spec/project.yaml";
const SPEC_EXTENSIONS = /\.(ya?ml|json)$/;

export function loadSpec(root: string): { spec: LoadedSpec; errors: SpecError[] } {
  const errors: SpecError[] = [];
  // One budget for the whole load: the limits on the number of files and their total size.
  const budget = specReadBudget();
  // Anything not a folder: a pipe or device named like a spec file is refused by name when read, not skipped.
  const listFiles = (dir: string, from = root) => listEntries(from, dir, errors, (s) => !s.isDirectory());
  const listDirs = (dir: string) => listEntries(root, dir, errors, (s) => s.isDirectory());
  const read = (rel: string): SpecFile | undefined => {
    const result = readSpecFile(root, rel, budget);
    if (!result.ok) {
      errors.push(...result.errors);
      return undefined;
    }
    return result.spec;
  };
  const readAll = (dir: string, pattern: RegExp, from = root): SpecFile[] =>
    listFiles(dir, from)
      .filter((name) => pattern.test(name))
      .map((name) => {
        const result = readSpecFile(from, `${dir}/${name}`, budget);
        if (result.ok) return result.spec;
        errors.push(...result.errors);
        return undefined;
      })
      .filter((f): f is SpecFile => f !== undefined);

  const spec: LoadedSpec = {
    root,
    // A project made by `agent-contracts init` has no spec/meta: the meta-schemas are the CLI's own,
    // so they change with the CLI, never copied into (and left behind in) a user's project.
    metaSchemas: readAll("spec/meta", /\.schema\.json$/, existsSync(`${root}/spec/meta`) ? root : PACKAGE_HOME),
    common: readAll("spec/common", SPEC_EXTENSIONS),
    protocols: [],
  };
  // Optional here so that older trees (a release tag read by `breaking`) still load.
  if (existsSync(`${root}/${PROJECT_FILE}`)) spec.project = read(PROJECT_FILE);
  for (const id of listDirs("spec").filter((d) => d !== "meta" && d !== "common")) {
    const protocolPath = `spec/${id}/protocol.yaml`;
    if (!existsSync(`${root}/${protocolPath}`)) {
      errors.push({ file: `spec/${id}`, line: 1, column: 1, pointer: "", message: "protocol folder has no protocol.yaml", lint: "layout" });
      continue;
    }
    const protocolFile = read(protocolPath);
    if (!protocolFile) continue;
    const messageFiles = readAll(`spec/${id}/messages`, SPEC_EXTENSIONS);
    const lifecycles = readLifecycleFiles(root, id, budget);
    errors.push(...lifecycles.errors);
    spec.protocols.push({ id, protocolFile, messageFiles, lifecycleFiles: lifecycles.files });
  }
  return { spec, errors };
}

/**
 * The names in a spec folder whose (resolved) kind `keep` accepts, sorted. A folder reached
 * through a link leading outside spec/ is not listed: its error names the link. An entry that is
 * such a link is listed, so that reading it reports it by name.
 */
function listEntries(root: string, dir: string, errors: SpecError[], keep: (stat: Stats) => boolean): string[] {
  const full = `${root}/${dir}`;
  if (!existsSync(full)) return [];
  const where = resolveInsideSpec(root, dir);
  if (!where.ok) {
    errors.push(where.error);
    return [];
  }
  return readdirSync(where.real)
    .filter((n) => {
      try {
        return keep(statSync(`${full}/${n}`));
      } catch {
        return keep(lstatSync(`${full}/${n}`)); // a dangling link: listed when files are, so the read names it
      }
    })
    .sort();
}
