// load -> check -> model -> targets (inputs, emit) -> write, in one straight line. The pipeline
// knows no target: each declares its folder, ownership and header rule (targets/target.ts), and
// targets/registry.ts lists them.
import { readFileSync } from "node:fs";
import { checkSpec, type CheckOptions } from "./check/check-spec.js";
import type { TargetSupport } from "./check/keyword-lints.js";
import { loadSpec } from "./load/load-spec.js";
import { buildModel } from "./model/build.js";
import { lintTypeShapes } from "./check/shape-lints.js";
import { addValidationCases } from "./model/validation-cases.js";
import type { Model, SpecError } from "./model/types.js";
import { commentSyntaxFor, type Target } from "./targets/target.js";
import { PACKAGE_HOME } from "./write/generator-home.mjs";
import { inputHashes } from "./write/inputs.js";
import { TargetInputError } from "./targets/input-error.js";
import { checkDrift, renderAll, writeAll, type DriftReport, type PlacedFile } from "./write/write-outputs.js";

/**
 * The generator's name and version, as every header and the manifest state it: the version of
 * this package (package.json), the generator's own, not the spec project's (spec/project.yaml
 * versions the protocols a project publishes; a user's project has its own).
 */
export const GENERATOR_VERSION = `agent-contracts ${(JSON.parse(readFileSync(`${PACKAGE_HOME}/package.json`, "utf8")) as { version: string }).version}`;

export type BuildResult = { ok: true; model: Model; rendered: Map<string, string>; owned: string[] } | { ok: false; errors: SpecError[] };

/** Loads, checks and models the spec; stops at the first stage that finds errors. */
export function loadModel(root: string, options: CheckOptions = {}): { ok: true; model: Model } | { ok: false; errors: SpecError[] } {
  const loaded = loadSpec(root);
  if (loaded.errors.length > 0) return { ok: false, errors: loaded.errors };
  const { errors, lifecycles } = checkSpec(loaded.spec, options);
  if (errors.length > 0) return { ok: false, errors };
  const model = buildModel(loaded.spec, (id) => lifecycles.get(id) ?? []);
  // Every message has a type in every language, before any emitter runs (lint type-shape).
  const shapeErrors = lintTypeShapes(model, [...loaded.spec.common, ...loaded.spec.protocols.flatMap((p) => p.messageFiles)]);
  if (shapeErrors.length > 0) return { ok: false, errors: shapeErrors };
  addValidationCases(model);
  return { ok: true, model };
}

/**
 * Runs every target's inputs and emit stages over one model, then renders headers and the
 * manifest. Without `targets`, the registry's (imported here, so commands that only need the
 * model never load an emitter).
 */
export async function build(root: string, targets?: readonly Target<unknown>[]): Promise<BuildResult> {
  const list = targets ?? (await import("./targets/registry.js")).TARGETS;
  // A keyword or format one of these targets' runtimes does not enforce is refused (check/keyword-lints.ts).
  const modelResult = loadModel(root, { targets: schemaSupportOf(list) });
  if (!modelResult.ok) return modelResult;
  const { model } = modelResult;
  const placed: PlacedFile[] = [];
  for (const target of list) {
    let inputs: unknown;
    try {
      inputs = await target.inputs(root, model);
    } catch (error) {
      if (error instanceof TargetInputError) return { ok: false, errors: error.errors };
      throw error;
    }
    for (const file of target.emit(model, inputs)) {
      placed.push({ ...file, path: target.outDir === "" ? file.path : `${target.outDir}/${file.path}`, comment: commentSyntaxFor(target, file.path) });
    }
  }
  return { ok: true, model, rendered: renderAll(placed, inputHashes(root), GENERATOR_VERSION), owned: list.flatMap((t) => t.owns) };
}

/** The targets that validate messages, with the keywords and formats each runtime enforces. */
export function schemaSupportOf(targets: readonly Target<unknown>[]): TargetSupport[] {
  return targets.flatMap((t) => (t.schemaSupport === undefined ? [] : [{ id: t.id, schemaSupport: t.schemaSupport }]));
}

/** `owned`: the folders the targets own entirely (BuildResult.owned); a file there that generation did not produce is stale. */
export function check(root: string, rendered: Map<string, string>, owned: readonly string[]): DriftReport {
  return checkDrift(root, rendered, owned);
}

export function write(root: string, rendered: Map<string, string>, owned: readonly string[]): { written: string[]; removed: string[] } {
  return writeAll(root, rendered, owned);
}
