// One full regeneration in process, split into phases; prints JSON (seconds). Run by
// generation.ts as `node --import tsx generation-phases.ts <repo copy>` in an up-to-date copy, so
// the final write compares every file and writes none.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

const startup = process.uptime();
const root = process.argv[2];
if (root === undefined) throw new Error("usage: generation-phases.ts <repo root>");
const t = (): number => performance.now() / 1000;
const phases: Record<string, number> = { "node + tsx start-up": startup };

let mark = t();
const pipeline = (await import(pathToFileURL(`${root}/generators/pipeline.ts`).href)) as typeof import("../../generators/pipeline.js");
phases["import generators/pipeline.ts"] = t() - mark;

// The no-op fast path (hash inputs and outputs against generated/manifest.json), where it exists.
const inputsModule = `${root}/generators/write/inputs.ts`;
if (existsSync(inputsModule)) {
  mark = t();
  const inputs = (await import(pathToFileURL(inputsModule).href)) as { generationIsUpToDate?: (root: string) => boolean };
  const upToDate = inputs.generationIsUpToDate?.(root);
  phases[`no-op fast path: hash inputs + outputs vs manifest (${upToDate === true ? "up to date" : "not up to date"})`] = t() - mark;
}

mark = t();
const loaded = pipeline.loadModel(root);
phases["loadModel: read YAML, check, model"] = t() - mark;
if (!loaded.ok) throw new Error("spec has errors");
// build() runs loadModel again, now with warm JIT; subtract a warm loadModel to isolate emit.
mark = t();
pipeline.loadModel(root);
const loadWarm = t() - mark;
mark = t();
const built = await pipeline.build(root);
const buildAll = t() - mark;
if (!built.ok) throw new Error("build failed");
phases["emit + render (import emitters, TS, Kotlin, coverage; build() minus a warm loadModel)"] = Math.max(0, buildAll - loadWarm);
mark = t();
const { written } = pipeline.write(root, built.rendered, built.owned);
phases["write: compare every output with disk"] = t() - mark;
if (written.length !== 0) throw new Error(`regeneration of an up-to-date copy wrote ${written.length} files`);

console.log(JSON.stringify(phases));
