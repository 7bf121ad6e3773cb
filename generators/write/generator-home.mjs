// Where the generator finds its own files (templates, hand-written runtimes, the test data the
// targets copy), as distinct from the project it generates (spec/ in, generated/ out). Plain
// JavaScript for the same reason as input-files.mjs. Issue 17: an installed CLI generates a user's
// own spec project, which has no generators/ folder; the generator's files then come from the
// installed package, whose `files` (package.json) ship exactly the ones the targets read.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The folder this package was checked out or installed in. This module sits two folders below it
 * as source (generators/write/) and compiled (dist/cli/, generators/cli/build.mjs), so one
 * relative URL serves both.
 */
export const PACKAGE_HOME = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Where the generator's own inputs recorded at pack time sit in an installed package. */
export const RECORDED_INPUTS = "dist/cli/generator-inputs.json";

/**
 * The folder holding generators/ and property-tests/ for a generation of `root`: the project
 * itself when it is a checkout (unchanged behaviour, and a fixture's own generator copy), else
 * this package.
 */
export function generatorHome(root) {
  return existsSync(`${root}/generators/targets`) ? root : PACKAGE_HOME;
}

/** A file of the generator itself (a template folder), as a URL under this package. */
export function packageFileUrl(relativePath) {
  return new URL(relativePath, pathToFileURL(`${PACKAGE_HOME}/`));
}

/**
 * An installed package carries no generator sources and no lockfile (npm pack never ships
 * package-lock.json), so the hashes generated/manifest.json records for them were taken when the
 * package was packed (build.mjs --for-pack) from the checkout it was packed from. A checkout has
 * generators/cli/main.ts and hashes its files live.
 */
export function recordedGeneratorInputs(home) {
  if (existsSync(`${home}/generators/cli/main.ts`)) return undefined;
  try {
    const recorded = JSON.parse(readFileSync(`${home}/${RECORDED_INPUTS}`, "utf8"));
    return typeof recorded?.inputs === "object" && recorded.inputs !== null ? recorded.inputs : undefined;
  } catch {
    return undefined;
  }
}
