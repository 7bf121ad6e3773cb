// load -> check -> model -> emit -> write, in one straight line.
import { readdirSync, readFileSync } from "node:fs";
import { checkSpec } from "./check/check-spec.js";
import { loadSpec } from "./load/load-spec.js";
import { loadLifecycles } from "./lifecycles/load.js";
import type { Lifecycle } from "./lifecycles/types.js";
import { buildModel } from "./model/build.js";
import type { Model, OutputFile, SpecError } from "./model/types.js";
import type { RuntimeSource } from "./targets/ts/emit.js";
import { inputHashes } from "./write/inputs.js";
import { checkDrift, renderAll, writeAll, type DriftReport, type PlacedFile } from "./write/write-outputs.js";

export const GENERATOR_VERSION = "agent-contracts 0.1.0";

/** Output folders the pipeline owns entirely: anything in them it did not produce is stale. */
export const OWNED_DIRS = ["generated/ts", "generated/kotlin/src", "generated/swift"] as const;

export type BuildResult = { ok: true; model: Model; rendered: Map<string, string> } | { ok: false; errors: SpecError[] };

/** Loads, checks and models the spec; stops at the first stage that finds errors. */
export function loadModel(root: string): { ok: true; model: Model } | { ok: false; errors: SpecError[] } {
  const loaded = loadSpec(root);
  if (loaded.errors.length > 0) return { ok: false, errors: loaded.errors };
  const errors = checkSpec(loaded.spec);
  if (errors.length > 0) return { ok: false, errors };
  const lifecycles = new Map<string, Lifecycle[]>();
  for (const protocol of loaded.spec.protocols) {
    const messageNames = new Set(protocol.messageFiles.map((f) => String((f.value as { title?: unknown }).title)));
    const result = loadLifecycles(root, protocol.id, { messageNames });
    errors.push(...result.errors);
    lifecycles.set(protocol.id, result.lifecycles);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, model: buildModel(loaded.spec, (id) => lifecycles.get(id) ?? []) };
}

export async function build(root: string): Promise<BuildResult> {
  const modelResult = loadModel(root);
  if (!modelResult.ok) return modelResult;
  const { model } = modelResult;
  // Emitters pull in heavy tools (typescript, json-schema-to-typescript): load them only to emit.
  const [{ emitTypeScript }, { emitLifecyclesTs }, { emitCoverage }, { pathsFiles }, { emitKotlin }, kotlinRuntime] = await Promise.all([
    import("./targets/ts/emit.js"),
    import("./targets/ts/emit-lifecycles.js"),
    import("./targets/coverage/emit-coverage.js"),
    import("./lifecycles/write-paths.js"),
    import("./targets/kotlin/emit.js"),
    import("./targets/kotlin/emit-runtime.js"),
  ]);
  const [{ emitSwift }, swiftInputs] = await Promise.all([import("./targets/swift/emit.js"), import("./targets/swift/inputs.js")]);
  const placed: PlacedFile[] = [
    ...place("generated/ts", await emitTypeScript(model, readRuntime(root)), (p) => !p.endsWith(".json")),
    ...place("generated/ts", emitLifecyclesTs(model.protocols.map((p) => ({ id: p.id, lifecycles: lifecyclesOf(p) }))), (p) => !p.endsWith(".json")),
    ...place("generated", emitCoverage(model), (p) => !p.endsWith(".json")),
    ...place(
      "generated/kotlin",
      [
        ...kotlinRuntime.emitKotlinRuntime(kotlinRuntime.readKotlinSources(root, "runtime")),
        ...kotlinRuntime.emitKotlinTests(kotlinRuntime.readKotlinSources(root, "tests")),
        ...emitKotlin(model),
      ],
      (p) => !p.endsWith(".json"),
    ),
    ...place("generated/swift", emitSwift(model, swiftInputs.readSwiftRuntime(root), swiftInputs.readSwiftCases(root, model)), (p) => p.endsWith(".swift") && p !== "Package.swift"),
    // The language-neutral lifecycle test suites live beside their machines in spec/.
    ...pathsFiles(model.protocols.flatMap(lifecyclesOf)).map((f) => ({ ...f, sources: [], header: false })),
  ];
  return { ok: true, model, rendered: renderAll(placed, inputHashes(root), GENERATOR_VERSION) };
}

export function check(root: string, rendered: Map<string, string>): DriftReport {
  return checkDrift(root, rendered, OWNED_DIRS);
}

export function write(root: string, rendered: Map<string, string>): { written: string[]; removed: string[] } {
  return writeAll(root, rendered, OWNED_DIRS);
}

function lifecyclesOf(protocol: Model["protocols"][number]): Lifecycle[] {
  return protocol.lifecycles as Lifecycle[];
}

function place(dir: string, files: OutputFile[], header: (path: string) => boolean): PlacedFile[] {
  return files.map((f) => ({ ...f, path: dir === "" ? f.path : `${dir}/${f.path}`, header: header(f.path) }));
}

function readRuntime(root: string): RuntimeSource[] {
  const dir = `${root}/generators/targets/ts/runtime/src`;
  return readdirSync(dir)
    .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}
