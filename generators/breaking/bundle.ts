// A spec bundle: the files of one spec version `breaking` compares, as text in one JSON file, so a
// released version can be compared against without its git history (issue 35, issue 39). Each
// generated package carries the bundle it was made from; releases/<version>.spec.json records each
// released version in the repository. Text, not parsed values: positions (line:col) of the old
// version stay exact.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

export const BUNDLE_FORMAT = "agent-contracts-spec-bundle/1";
/** The file name a package carries its bundle under (npm and Swift package root, Kotlin jar resource folder). */
export const BUNDLE_FILE = "spec-bundle.json";
/** Where the Kotlin jar carries it: beside the schemas, in the project's package folder (dev/agentcontracts/spec-bundle.json). */
export const jarBundlePath = (mavenPackage: string) => `${mavenPackage.replace(/\./g, "/")}/${BUNDLE_FILE}`;
/** A bundle larger than this is refused before it is parsed: the spec's own limit is far below. */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

export interface SpecBundle {
  format: typeof BUNDLE_FORMAT;
  /** spec/project.yaml's version, when the spec has one. */
  version?: string;
  /** Repository-relative path ("spec/p/messages/M.yaml") -> the file's text. */
  files: Record<string, string>;
}

export class BundleError extends Error {}

/** The files `breaking` reads: project and breaking config, common schemas, protocols, messages, machines. */
export function isBundled(rel: string): boolean {
  return (
    rel === "spec/project.yaml" ||
    rel === "spec/breaking.yaml" ||
    /^spec\/common\/[^/]+\.(ya?ml|json)$/.test(rel) ||
    /^spec\/[^/]+\/protocol\.yaml$/.test(rel) ||
    /^spec\/[^/]+\/messages\/[^/]+\.(ya?ml|json)$/.test(rel) ||
    /^spec\/[^/]+\/lifecycles\/[^/]+\.machine\.yaml$/.test(rel)
  );
}

/** The bundle of the spec under `root` (a folder holding spec/), files in path order. */
export function bundleOf(root: string, version?: string): SpecBundle {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const rel = relative(root, abs).split(sep).join("/");
      if (statSync(abs).isDirectory()) {
        if (rel !== "spec/meta") walk(abs);
      } else if (isBundled(rel)) files[rel] = readFileSync(abs, "utf8");
    }
  };
  if (existsSync(join(root, "spec"))) walk(join(root, "spec"));
  return { format: BUNDLE_FORMAT, ...(version === undefined ? {} : { version }), files };
}

export function serializeBundle(bundle: SpecBundle): string {
  return `${JSON.stringify(bundle, null, 1)}\n`;
}

/** Parses and checks a bundle's text; `where` names it in errors. */
export function parseBundle(text: string, where: string): SpecBundle {
  if (text.length > MAX_BUNDLE_BYTES) throw new BundleError(`${where}: a spec bundle over ${MAX_BUNDLE_BYTES} bytes is refused`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new BundleError(`${where}: not JSON (${(error as Error).message})`);
  }
  const b = data as Partial<SpecBundle> | null;
  if (!b || typeof b !== "object" || b.format !== BUNDLE_FORMAT) throw new BundleError(`${where}: not a spec bundle (/format must be ${JSON.stringify(BUNDLE_FORMAT)})`);
  if (!b.files || typeof b.files !== "object" || Array.isArray(b.files)) throw new BundleError(`${where}: /files must be an object of path -> text`);
  for (const [path, text] of Object.entries(b.files)) {
    // Only the paths a bundle can hold: nothing is written outside the temporary folder.
    if (!isBundled(path) || path.split("/").some((t) => t === ".." || t === ".")) throw new BundleError(`${where}: /files/${path.replace(/~/g, "~0").replace(/\//g, "~1")} is not a spec file a bundle holds`);
    if (typeof text !== "string") throw new BundleError(`${where}: /files/${path.replace(/~/g, "~0").replace(/\//g, "~1")} must be text`);
  }
  if (b.version !== undefined && typeof b.version !== "string") throw new BundleError(`${where}: /version must be a string`);
  return b as SpecBundle;
}

/** Writes the bundle's files into a new temporary folder: a root `loadTree` reads. */
export function materializeBundle(bundle: SpecBundle): { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), "agent-contracts-bundle-"));
  for (const [path, text] of Object.entries(bundle.files)) {
    const abs = resolve(root, path);
    if (!abs.startsWith(root + sep)) throw new BundleError(`bundle path ${path} leaves its folder`);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
