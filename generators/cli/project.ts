// Where a command finds its spec and its bindings, wherever it is run from (issue 17):
// - the spec: `--spec DIR`, else the nearest folder at or above the current one holding an
//   agent-contracts spec (spec/meta/), else the spec the CLI ships with;
// - the bindings: always the ones the CLI ships with (CLI_HOME/generated/ts), so a message is
//   checked by the same code whatever folder the user stands in.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "./io.js";

/**
 * The folder the CLI was installed or checked out in. This module sits two folders below it both
 * as source (generators/cli/project.ts) and compiled (dist/cli/agent-contracts.mjs, see
 * generators/cli/build.mjs), so one relative URL serves both.
 */
export const CLI_HOME = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

export type SpecSource = "--spec" | "found" | "shipped";

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * A project root is a folder whose spec/ has a project file (spec/project.yaml, what `init` writes;
 * the meta-schemas then come from the CLI) or the meta-schemas: a bare spec/ (rspec, …) is not one.
 */
function isProjectRoot(dir: string): boolean {
  return isSpecFolder(join(dir, "spec"));
}

function isSpecFolder(spec: string): boolean {
  return isDir(join(spec, "meta")) || existsSync(join(spec, "project.yaml"));
}

/**
 * The project root (the folder holding spec/) a spec-reading command uses. `specFlag` may name the
 * project folder or its spec/ folder itself.
 */
export function findSpecRoot(start: string, specFlag?: string | true): { root: string; source: SpecSource } {
  if (typeof specFlag === "string") {
    const dir = resolve(start, specFlag);
    if (isProjectRoot(dir)) return { root: dir, source: "--spec" };
    if (basename(dir) === "spec" && isSpecFolder(dir)) return { root: dirname(dir), source: "--spec" };
    throw new UsageError(`--spec ${specFlag}: neither a spec/ folder (with project.yaml or meta/) nor a folder holding one`);
  }
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (isProjectRoot(dir)) return { root: dir, source: "found" };
    if (dirname(dir) === dir) break;
  }
  return { root: CLI_HOME, source: "shipped" };
}

/** The generated TypeScript bindings the CLI ships with (`module`: another entry point of the package). */
export async function loadShippedBindings<T>(module = "index.js"): Promise<T> {
  const entry = join(CLI_HOME, "generated", "ts", module);
  if (!existsSync(entry)) throw new UsageError(`the bindings are missing at ${entry}: run \`make\` in ${CLI_HOME}`);
  return (await import(pathToFileURL(entry).href)) as T;
}

/**
 * One protocol's module of the shipped bindings (generated/ts/<protocol>/index.js), or undefined
 * for a name that is none: loading one protocol instead of the root index spares a command the
 * other protocols' validators (most of its start-up).
 */
export async function loadShippedProtocol(protocol: string): Promise<Record<string, unknown> | undefined> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(protocol)) return undefined;
  const entry = join(CLI_HOME, "generated", "ts", protocol, "index.js");
  if (!existsSync(entry)) return undefined;
  return (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
}

export function cliVersion(): string {
  return (JSON.parse(readFileSync(join(CLI_HOME, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * A checkout of this repository: the generator's sources are there. An installed package ships
 * generators/targets/ (templates, runtimes) and docs-site/ (templates, assets) but none of the
 * generator's code.
 */
export function isCheckout(root: string): boolean {
  return existsSync(join(root, "generators", "cli", "main.ts"));
}
