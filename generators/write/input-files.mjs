// What generation depends on, and whether generated/ is already what a fresh generation would
// write. Plain JavaScript so that bin/agent-contracts.mjs can answer a no-op `generate` before
// loading tsx and the TypeScript generator (start-up is most of a no-op's cost); inputs.ts
// re-exports the same functions, so the file-set rules below exist once.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { generatorHome, recordedGeneratorInputs } from "./generator-home.mjs";

/** Where the manifest lives by default (write-outputs.ts MANIFEST_PATH; inputs.ts passes that one explicitly). */
export const DEFAULT_MANIFEST_PATH = "generated/manifest.json";

/** Generator folders whose code never reaches generated/ (the docs site, the conformance runner, tests, the CLI). */
const NOT_GENERATION_INPUTS = new Set(["generators/targets/docs", "generators/conformance", "generators/test", "generators/cli"]);

/** Lowercase hex SHA-256, as the manifest records every hash. */
export function sha256Hex(data) {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Every file generation depends on, by repository-relative path, with its hash: the spec, the
 * generator itself (tests, fixtures, docs and the folders above excluded) and the lockfile.
 */
export function inputHashes(root) {
  const hashes = {};
  walkInto(hashes, root, "spec");
  // The generator's side comes from where the generator is (generator-home.mjs): the project
  // itself in a checkout, else the installed package, which recorded them when it was packed.
  const home = generatorHome(root);
  const recorded = recordedGeneratorInputs(home);
  if (recorded !== undefined) return Object.assign(hashes, recorded);
  Object.assign(hashes, generatorInputHashes(home));
  return hashes;
}

/** The inputs that are the generator's, not the spec's: its sources, the outside data it copies and the lockfile. */
export function generatorInputHashes(root) {
  const hashes = {};
  const walk = (dir) => walkInto(hashes, root, dir);
  walk("generators");
  // Outside data a target copies into generated/ (the Swift test resources): the fuzz corpus and
  // the real implementations' verdicts. Without them here, the no-op check would miss their edits.
  walk("property-tests/fuzz/corpus");
  walk("property-tests/vectors/real-implementations");
  // The outside vectors the Kotlin target copies into its test resources (emit-test-data.ts).
  for (const dir of ["agent-connector/generated", "agent-provider", "jcs", "stdwebhooks"]) walk(`property-tests/vectors/${dir}`);
  if (existsSync(`${root}/package-lock.json`)) hashes["package-lock.json"] = sha256Hex(readFileSync(`${root}/package-lock.json`));
  return hashes;
}

function walkInto(hashes, root, top) {
  const walk = (dir) => {
    if (!existsSync(`${root}/${dir}`)) return;
    for (const name of readdirSync(`${root}/${dir}`).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(`${root}/${rel}`).isDirectory()) {
        if (name !== "fixtures" && name !== "node_modules" && !NOT_GENERATION_INPUTS.has(rel)) walk(rel);
      } else if (!name.endsWith(".test.ts") && !name.endsWith(".paths.json") && !(dir.startsWith("generators") && name.endsWith(".md"))) {
        hashes[rel] = sha256Hex(readFileSync(`${root}/${rel}`));
      }
    }
  };
  walk(top);
}

function readManifest(root, manifestPath) {
  const full = `${root}/${manifestPath}`;
  if (!existsSync(full)) return undefined;
  try {
    return JSON.parse(readFileSync(full, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * True when every input hashes as the manifest recorded and every output the manifest lists is
 * on disk with its recorded hash: a fresh generation would write nothing. `outRoot`: where the
 * outputs and the manifest are (`generate --out`), when not in the project itself.
 */
export function generationIsUpToDate(root, manifestPath = DEFAULT_MANIFEST_PATH, outRoot = root) {
  const manifest = readManifest(outRoot, manifestPath);
  if (!manifest || typeof manifest.inputs !== "object" || typeof manifest.outputs !== "object" || manifest.inputs === null || manifest.outputs === null) return false;
  const current = inputHashes(root);
  const keys = new Set([...Object.keys(current), ...Object.keys(manifest.inputs)]);
  for (const key of keys) if (current[key] !== manifest.inputs[key]) return false;
  for (const [path, hash] of Object.entries(manifest.outputs)) {
    const full = `${outRoot}/${path}`;
    if (!existsSync(full) || sha256Hex(readFileSync(full)) !== hash) return false;
  }
  return existsSync(`${outRoot}/${manifestPath}`);
}
