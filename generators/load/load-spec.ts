// Stage 1: find and read every spec file. No validation beyond "is it JSON-shaped data".
import { existsSync, lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import type { SpecError } from "../model/types.js";
import { readLifecycleFiles } from "../lifecycles/load.js";
import { resolveInsideSpec, specReadBudget } from "./spec-guard.js";
import { readSpecFile, type SpecFile } from "./spec-file.js";

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
  /** spec/project.yaml: the project's one version, written into every package. */
  project?: SpecFile;
}

const SPEC_EXTENSIONS = /\.(ya?ml|json)$/;

export function loadSpec(root: string): { spec: LoadedSpec; errors: SpecError[] } {
  const errors: SpecError[] = [];
  // One budget for the whole load: the limits on the number of files and their total size.
  const budget = specReadBudget();
  // Anything not a folder: a pipe or device named like a spec file is refused by name when read, not skipped.
  const listFiles = (dir: string) => listEntries(root, dir, errors, (s) => !s.isDirectory());
  const listDirs = (dir: string) => listEntries(root, dir, errors, (s) => s.isDirectory());
  const read = (rel: string): SpecFile | undefined => {
    const result = readSpecFile(root, rel, budget);
    if (!result.ok) {
      errors.push(...result.errors);
      return undefined;
    }
    return result.spec;
  };
  const readAll = (dir: string, pattern: RegExp): SpecFile[] =>
    listFiles(dir)
      .filter((name) => pattern.test(name))
      .map((name) => read(`${dir}/${name}`))
      .filter((f): f is SpecFile => f !== undefined);

  const spec: LoadedSpec = {
    root,
    metaSchemas: readAll("spec/meta", /\.schema\.json$/),
    common: readAll("spec/common", SPEC_EXTENSIONS),
    protocols: [],
  };
  // Optional so that older trees (a release tag read by `breaking`, test fixtures) still load.
  if (existsSync(`${root}/spec/project.yaml`)) {
    spec.project = read("spec/project.yaml");
    if (spec.project !== undefined) errors.push(...projectErrors(spec.project));
  }
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

// Semantic Versioning 2.0.0's grammar, the form npm, Maven and SwiftPM all accept.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** spec/project.yaml holds `project: { name, version }`, the version a semantic version. */
function projectErrors(file: SpecFile): SpecError[] {
  const at = (pointer: string, message: string): SpecError[] => [{ file: file.file, line: 1, column: 1, pointer, message, lint: "project" }];
  const project = (file.value as { project?: unknown } | null)?.project;
  if (typeof project !== "object" || project === null || Array.isArray(project)) return at("/project", "project must be an object with name and version");
  const { name, version, ...rest } = project as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return at(`/project/${unknown[0]}`, `unknown member "${unknown[0]}" (project has name and version)`);
  if (typeof name !== "string" || name === "") return at("/project/name", "name must be a non-empty string");
  if (typeof version !== "string" || !SEMVER.test(version)) return at("/project/version", `version must be a semantic version (e.g. 1.2.3), not ${JSON.stringify(version)}`);
  return [];
}

/** The version spec/project.yaml declares; "0.0.0" for a tree without one (an older release tag). */
export function projectVersion(spec: LoadedSpec): string {
  const project = (spec.project?.value as { project?: { version?: unknown } } | undefined)?.project;
  return typeof project?.version === "string" ? project.version : "0.0.0";
}
