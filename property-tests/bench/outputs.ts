// What a cold generate starts from, for generation.ts and write-floor.ts.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const MANIFEST = "generated/manifest.json";

/** Outputs a cold run keeps: generated/ts/runtime, which the docs builder imports (it documents the package users import, b310b2d) and without which generate cannot start. */
export const keptOutput = (path: string): boolean => path.startsWith("generated/ts/runtime/");

/** The outputs `removeOutputs` deletes (the manifest's, less the kept ones) and the manifest, as paths relative to `repo`. */
export function removableOutputs(repo: string): string[] {
  const manifestPath = join(repo, MANIFEST);
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { outputs?: Record<string, string> };
  return [...Object.keys(manifest.outputs ?? {}).filter((p) => !keptOutput(p)), MANIFEST];
}

/**
 * Deletes every output the manifest lists, and the manifest: a checkout that was never generated,
 * except the kept outputs; their files are still rewritten and compared like every other output,
 * so the work measured is the same.
 */
export function removeOutputs(repo: string): void {
  for (const path of removableOutputs(repo)) rmSync(join(repo, path), { force: true });
  for (const entry of readdirSync(join(repo, "generated/ts"))) {
    if (entry !== "runtime") rmSync(join(repo, "generated/ts", entry), { recursive: true, force: true });
  }
}
