// What generation depends on, hashed: the spec, the generator itself and the locked toolchain.
// The manifest records these so \`generate\` can skip all work when nothing changed and \`--check\`
// can name the input that did.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { MANIFEST_PATH, readManifest, sha256 } from "./write-outputs.js";

/** Every file generation depends on: the spec and the generator itself (tests excluded). */
/** Generator folders whose code never reaches generated/ (the docs site, the conformance runner, tests). */
const NOT_GENERATION_INPUTS = new Set(["generators/docs", "generators/conformance", "generators/test", "generators/cli"]);

export function inputHashes(root: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (dir: string): void => {
    if (!existsSync(`${root}/${dir}`)) return;
    for (const name of readdirSync(`${root}/${dir}`).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(`${root}/${rel}`).isDirectory()) {
        if (name !== "fixtures" && name !== "node_modules" && !NOT_GENERATION_INPUTS.has(rel)) walk(rel);
      } else if (!name.endsWith(".test.ts") && !name.endsWith(".paths.json") && !(dir.startsWith("generators") && name.endsWith(".md"))) {
        hashes[rel] = sha256(readFileSync(`${root}/${rel}`));
      }
    }
  };
  walk("spec");
  walk("generators");
  if (existsSync(`${root}/package-lock.json`)) hashes["package-lock.json"] = sha256(readFileSync(`${root}/package-lock.json`));
  return hashes;
}

/**
 * True when every input hashes as the manifest recorded and every output the manifest lists is
 * on disk with its recorded hash: a fresh generation would write nothing.
 */
export function generationIsUpToDate(root: string): boolean {
  const manifest = readManifest(root);
  if (!manifest) return false;
  const current = inputHashes(root);
  const keys = new Set([...Object.keys(current), ...Object.keys(manifest.inputs)]);
  for (const key of keys) if (current[key] !== manifest.inputs[key]) return false;
  for (const [path, hash] of Object.entries(manifest.outputs)) {
    const full = `${root}/${path}`;
    if (!existsSync(full) || sha256(readFileSync(full)) !== hash) return false;
  }
  return existsSync(`${root}/${MANIFEST_PATH}`);
}
