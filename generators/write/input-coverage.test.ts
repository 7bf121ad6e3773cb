// `generate` skips all work when every input hashes as the manifest recorded (input-files.mjs):
// so every file an output is generated from must be one of those inputs, or an edit to it (a
// count in counts.json, a suite file) leaves generated/ stale with "no input changed". The
// sources come from the pipeline itself: each emitted file names what it was made from.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel, schemaSupportOf } from "../pipeline.js";
import { TARGETS } from "../targets/registry.js";
import { inputHashes } from "./inputs.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the no-op check's inputs", () => {
  it("hash every file an output names as its source", async () => {
    const loaded = loadModel(ROOT, { targets: schemaSupportOf(TARGETS) });
    if (!loaded.ok) throw new Error("spec has errors");
    const files = [];
    for (const target of TARGETS) files.push(...target.emit(loaded.model, await target.inputs(ROOT, loaded.model)));
    const hashed = inputHashes(ROOT);
    const sources = [...new Set(files.flatMap((f) => f.sources ?? []))].sort();
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((s) => !existsSync(join(ROOT, s)))).toEqual([]);
    // A folder source (the Swift templates) is covered by the files under it; a lifecycle's
    // paths suite (*.paths.json) is an output of the same run, made from its machine, an input.
    const covered = (s: string) => Object.hasOwn(hashed, s) || Object.keys(hashed).some((k) => k.startsWith(`${s}/`)) || (s.endsWith(".paths.json") && Object.hasOwn(hashed, s.replace(/\.paths\.json$/, ".machine.yaml")));
    expect(sources.filter((s) => !covered(s))).toEqual([]);
  }, 300_000);
});
