// The hand-written Kotlin runtime (generators/kotlin/runtime/*.kt) is shipped as source inside
// generated/kotlin, so that folder is a self-contained Maven project a consumer can build or
// vendor on its own, the same way generated/ts carries its runtime.
import { readdirSync, readFileSync } from "node:fs";
import type { OutputFile } from "../model/types.js";

/** One runtime source file, read by the caller so the emitter stays pure. */
export interface KotlinRuntimeSource {
  /** File name inside generators/kotlin/runtime, e.g. `CanonicalJson.kt`. */
  name: string;
  text: string;
}

export const KOTLIN_RUNTIME_PACKAGE = "dev.agentcontracts.runtime";
/** Where the runtime lands, relative to generated/kotlin. */
export const KOTLIN_RUNTIME_DIR = `src/main/kotlin/${KOTLIN_RUNTIME_PACKAGE.replaceAll(".", "/")}`;

/** Reads the runtime sources in name order; the only I/O in this module. */
export function readKotlinRuntime(root: string): KotlinRuntimeSource[] {
  const dir = `${root}/generators/kotlin/runtime`;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".kt"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

/** The runtime as output files (paths relative to generated/kotlin). */
export function emitKotlinRuntime(runtime: readonly KotlinRuntimeSource[]): OutputFile[] {
  return [...runtime]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((source) => {
      // A file in the wrong package would compile but land where no import finds it.
      if (!source.text.startsWith(`package ${KOTLIN_RUNTIME_PACKAGE}\n`)) {
        throw new Error(`generators/kotlin/runtime/${source.name}: must start with 'package ${KOTLIN_RUNTIME_PACKAGE}'`);
      }
      return {
        path: `${KOTLIN_RUNTIME_DIR}/${source.name}`,
        contents: source.text,
        sources: [`generators/kotlin/runtime/${source.name}`],
      };
    });
}
