// What generation depends on, and whether generated/ is already what a fresh generation would
// write. Plain JavaScript so that bin/agent-contracts.mjs can answer a no-op `generate` before
// loading tsx and the TypeScript generator (start-up is most of a no-op's cost); inputs.ts
// re-exports the same functions, so the file-set rules below exist once.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { MAX_SPEC_FILE_BYTES } from "../load/spec-limits.mjs";
import { generatorHome, recordedGeneratorInputs } from "./generator-home.mjs";
import { StatCache } from "./stat-cache.mjs";

/** Folders inside an owned output folder that build tools fill (npm, Maven, SwiftPM): the writer never looks into them (output-links.ts). */
export const SKIP_DIRS = new Set(["node_modules", "target", ".build", ".swiftpm"]);

/** Where the manifest lives by default (write-outputs.ts MANIFEST_PATH; inputs.ts passes that one explicitly). */
export const DEFAULT_MANIFEST_PATH = "generated/manifest.json";

/** Generator folders whose code never reaches generated/ (the docs site, the conformance runner, tests, the CLI). */
const NOT_GENERATION_INPUTS = new Set(["generators/targets/docs", "generators/conformance", "generators/test", "generators/cli"]);

/** Lowercase hex SHA-256, as the manifest records every hash. */
export function sha256Hex(data) {
  return createHash("sha256").update(data).digest("hex");
}

/** The hash of the file at `full`: from its bytes, or through the no-op check's stat cache. */
function fileHash(full, cache) {
  return cache === undefined ? sha256Hex(readFileSync(full)) : cache.hash(full, statSync(full, { bigint: true }));
}

/**
 * Every file generation depends on, by repository-relative path, with its hash: the spec, the
 * generator itself (tests, fixtures, docs and the folders above excluded) and the lockfile.
 * `cache` (a StatCache) only for the no-op check: a manifest records hashes of the bytes.
 */
export function inputHashes(root, cache) {
  const hashes = {};
  walkInto(hashes, root, "spec", cache);
  // The recorded releases and their spec bundles: the changelog every package ships is made from them.
  if (existsSync(`${root}/releases.json`)) hashes["releases.json"] = fileHash(`${root}/releases.json`, cache);
  walkInto(hashes, root, "releases", cache);
  // The generator's side comes from where the generator is (generator-home.mjs): the project
  // itself in a checkout, else the installed package, which recorded them when it was packed.
  const home = generatorHome(root);
  const recorded = recordedGeneratorInputs(home);
  if (recorded !== undefined) return Object.assign(hashes, recorded);
  Object.assign(hashes, generatorInputHashes(home, cache));
  return hashes;
}

/** The inputs that are the generator's, not the spec's: its sources, the outside data it copies and the lockfile. */
export function generatorInputHashes(root, cache) {
  const hashes = {};
  const walk = (dir) => walkInto(hashes, root, dir, cache);
  walk("generators");
  // Outside data a target copies into generated/ (the Swift test resources): the fuzz corpus and
  // the real implementations' verdicts. Without them here, the no-op check would miss their edits.
  walk("property-tests/fuzz/corpus");
  walk("property-tests/vectors/real-implementations");
  // The outside vectors the Kotlin target copies into its test resources (emit-test-data.ts).
  for (const dir of ["agent-connector/generated", "agent-provider", "jcs", "stdwebhooks", "json-schema-test-suite", "json-schema-kills", "wpt-url", "unicode-idna"]) walk(`property-tests/vectors/${dir}`);
  // What the suites over them compare with, copied too (input-coverage.test.ts holds this list to every output's sources).
  walk("property-tests/oracle-vectors/lenient-json");
  for (const file of ["property-tests/json-schema-suite/counts.json"]) {
    if (existsSync(`${root}/${file}`)) hashes[file] = fileHash(`${root}/${file}`, cache);
  }
  if (existsSync(`${root}/package-lock.json`)) hashes["package-lock.json"] = fileHash(`${root}/package-lock.json`, cache);
  return hashes;
}

/**
 * Hashes every file under root/top. Nothing is read that the loader would refuse to read (issue
 * 31, generators/load/spec-guard.ts): a symbolic link is hashed as its target's name (an in-spec
 * link's target is hashed where it lies), a device or pipe as its kind, a file over the spec
 * file limit as its size. Those stand-ins match no manifest the loader could have written, so
 * the no-op check answers "not up to date" and the full run reports the file.
 */
function walkInto(hashes, root, top, cache) {
  const walk = (dir) => {
    if (!existsSync(`${root}/${dir}`)) return;
    for (const name of readdirSync(`${root}/${dir}`).sort()) {
      const rel = `${dir}/${name}`;
      const stat = lstatSync(`${root}/${rel}`, { bigint: cache !== undefined });
      if (stat.isSymbolicLink()) {
        hashes[rel] = sha256Hex(`symbolic link to ${readlinkSync(`${root}/${rel}`)}`);
      } else if (stat.isDirectory()) {
        if (name !== "fixtures" && name !== "node_modules" && !NOT_GENERATION_INPUTS.has(rel)) walk(rel);
      } else if (!name.endsWith(".test.ts") && !name.endsWith(".paths.json") && !(dir.startsWith("generators") && name.endsWith(".md"))) {
        if (!stat.isFile()) hashes[rel] = sha256Hex("not a regular file");
        else if (stat.size > MAX_SPEC_FILE_BYTES && top === "spec") hashes[rel] = sha256Hex(`${stat.size} bytes: over the spec file limit`);
        else hashes[rel] = cache === undefined ? sha256Hex(readFileSync(`${root}/${rel}`)) : cache.hash(`${root}/${rel}`, stat);
      }
    }
  };
  walk(top);
}

/** Whether a symbolic link sits under root/generated (outside build tools' folders): the writer refuses it, so generation is not a no-op. */
function linkUnderGenerated(root) {
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) return true;
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name) && walk(`${dir}/${entry.name}`)) return true;
    }
    return false;
  };
  return existsSync(`${root}/generated`) && (lstatSync(`${root}/generated`).isSymbolicLink() || walk(`${root}/generated`));
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
  const projectRoot = resolve(root);
  const cache = StatCache.forProject(projectRoot);
  const upToDate = everyHashAsRecorded(projectRoot, manifest, manifestPath, resolve(outRoot), cache);
  cache.save(upToDate);
  return upToDate;
}

function everyHashAsRecorded(root, manifest, manifestPath, outRoot, cache) {
  const current = inputHashes(root, cache);
  const keys = new Set([...Object.keys(current), ...Object.keys(manifest.inputs)]);
  for (const key of keys) if (current[key] !== manifest.inputs[key]) return false;
  if (linkUnderGenerated(outRoot)) return false;
  for (const [path, hash] of Object.entries(manifest.outputs)) {
    const full = `${outRoot}/${path}`;
    if (!existsSync(full)) return false;
    const stat = lstatSync(full, { bigint: true });
    if (!stat.isFile() || cache.hash(full, stat) !== hash) return false;
  }
  return existsSync(`${outRoot}/${manifestPath}`);
}
