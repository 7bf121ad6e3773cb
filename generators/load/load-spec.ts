// Stage 1: find and read every spec file. No validation beyond "is it JSON-shaped data".
import { existsSync, readdirSync, statSync } from "node:fs";
import type { SpecError } from "../model/types.js";
import { readLifecycleFiles } from "../lifecycles/load.js";
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
  const read = (rel: string): SpecFile | undefined => {
    const result = readSpecFile(root, rel);
    if (!result.ok) {
      errors.push(...result.errors);
      return undefined;
    }
    return result.spec;
  };
  const readAll = (dir: string, pattern: RegExp, from = root): SpecFile[] =>
    listFiles(from, dir)
      .filter((name) => pattern.test(name))
      .map((name) => {
        const result = readSpecFile(from, `${dir}/${name}`);
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
  for (const id of listDirs(root, "spec").filter((d) => d !== "meta" && d !== "common")) {
    const protocolPath = `spec/${id}/protocol.yaml`;
    if (!existsSync(`${root}/${protocolPath}`)) {
      errors.push({ file: `spec/${id}`, line: 1, column: 1, pointer: "", message: "protocol folder has no protocol.yaml", lint: "layout" });
      continue;
    }
    const protocolFile = read(protocolPath);
    if (!protocolFile) continue;
    const messageFiles = readAll(`spec/${id}/messages`, SPEC_EXTENSIONS);
    const lifecycles = readLifecycleFiles(root, id);
    errors.push(...lifecycles.errors);
    spec.protocols.push({ id, protocolFile, messageFiles, lifecycleFiles: lifecycles.files });
  }
  return { spec, errors };
}

function listFiles(root: string, dir: string): string[] {
  const full = `${root}/${dir}`;
  if (!existsSync(full)) return [];
  return readdirSync(full).filter((n) => statSync(`${full}/${n}`).isFile()).sort();
}

function listDirs(root: string, dir: string): string[] {
  const full = `${root}/${dir}`;
  if (!existsSync(full)) return [];
  return readdirSync(full).filter((n) => statSync(`${full}/${n}`).isDirectory()).sort();
}
