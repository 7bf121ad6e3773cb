// The hand-written Kotlin sources: the runtime (generators/targets/kotlin/runtime/*.kt) and the JUnit
// suites that check it and the bindings against the shared vectors (generators/targets/kotlin/tests/*.kt).
// Both are shipped as source inside generated/kotlin, so that folder is a self-contained Maven
// project a consumer can build or vendor on its own, the same way generated/ts carries its
// runtime, and every file in it comes from the generator.
import { readdirSync, readFileSync } from "node:fs";
import type { OutputFile } from "../../model/types.js";

/** One hand-written source file, read by the caller so the emitters stay pure. */
export interface KotlinSource {
  /** File name, e.g. `CanonicalJson.kt`. */
  name: string;
  text: string;
}

export const KOTLIN_RUNTIME_PACKAGE = "dev.agentcontracts.runtime";

/** Reads the `.kt` files of generators/targets/kotlin/<folder> in name order; the only I/O here. */
export function readKotlinSources(root: string, folder: "runtime" | "tests"): KotlinSource[] {
  const dir = `${root}/generators/targets/kotlin/${folder}`;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".kt"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

/** The runtime's data files (generators/targets/kotlin/runtime/*.txt, e.g. the UTS 46 table), read like the sources. */
export function readKotlinRuntimeResources(root: string): KotlinSource[] {
  const dir = `${root}/generators/targets/kotlin/runtime`;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".txt"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

/** The runtime's data files as jar resources beside its classes (Uts46.kt reads /dev/agentcontracts/runtime/uts46.txt). */
export function emitKotlinRuntimeResources(resources: readonly KotlinSource[]): OutputFile[] {
  return resources.map((r) => ({
    path: `src/main/resources/${KOTLIN_RUNTIME_PACKAGE.replaceAll(".", "/")}/${r.name}`,
    contents: r.text,
    sources: [`generators/targets/kotlin/runtime/${r.name}`],
  }));
}

/** The runtime as output files (paths relative to generated/kotlin). */
export function emitKotlinRuntime(runtime: readonly KotlinSource[]): OutputFile[] {
  return place(runtime, "runtime", "src/main/kotlin", (pkg) => pkg === KOTLIN_RUNTIME_PACKAGE);
}

/**
 * The JUnit suites, each under src/test/kotlin in the folder of its package. A suite written for
 * one protocol's types or vectors names them (a `dev.agentcontracts.<package>` of a protocol, a
 * `"spec/<protocol>/vectors/..."` file); it is left out of a spec that lacks them, as the Swift
 * target leaves out a template whose `reads:` files are missing, so every spec's project compiles
 * and passes. `protocolPackages` are the spec's protocol packages, `testData` the repository paths
 * copied as test resources (emit-test-data.ts).
 */
export function emitKotlinTests(tests: readonly KotlinSource[], protocolPackages: ReadonlySet<string>, testData: ReadonlySet<string>): OutputFile[] {
  const own = new Set([KOTLIN_RUNTIME_PACKAGE, "dev.agentcontracts.bindings", ...protocolPackages]);
  const available = (source: KotlinSource) =>
    [...source.text.matchAll(/\bdev\.agentcontracts\.[a-z][a-z0-9]*\b/g)].every((m) => own.has(m[0])) &&
    [...source.text.matchAll(/"(spec\/[^"$]+)"/g)].every((m) => testData.has(m[1]!));
  return place(tests.filter(available), "tests", "src/test/kotlin", (pkg) => pkg.startsWith("dev.agentcontracts."));
}

function place(sources: readonly KotlinSource[], folder: string, sourceRoot: string, allowed: (pkg: string) => boolean): OutputFile[] {
  return [...sources]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((source) => {
      const from = `generators/targets/kotlin/${folder}/${source.name}`;
      // The package decides the folder; a file in the wrong one compiles but no import finds it.
      const pkg = /^package ([a-z][a-z0-9_.]*)\n/.exec(source.text)?.[1];
      if (pkg === undefined || !allowed(pkg)) throw new Error(`${from}: must start with a 'package dev.agentcontracts...' line this folder allows`);
      return { path: `${sourceRoot}/${pkg.replaceAll(".", "/")}/${source.name}`, contents: source.text, sources: [from] };
    });
}
