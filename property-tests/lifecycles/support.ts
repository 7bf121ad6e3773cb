// Test support: loads every lifecycle from spec/, and materialises what emitLifecyclesTs returns
// (plus the runtime it imports, transpiled per file) in a temp dir so tests import the generated
// machines exactly as plain Node ESM would.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { loadLifecycles } from "../../generators/lifecycles/load.js";
import type { Lifecycle } from "../../generators/model/lifecycle.js";
import { protocolIds } from "../../generators/lifecycles/write-paths.js";
import { emitLifecyclesTs } from "../../generators/targets/ts/emit-lifecycles.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export function loadAllLifecycles(): { id: string; lifecycles: Lifecycle[] }[] {
  return protocolIds(ROOT).map((id) => {
    const result = loadLifecycles(ROOT, id);
    if (result.errors.length > 0) {
      throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.pointer} ${e.message} [${e.lint}]`).join("\n"));
    }
    return { id, lifecycles: result.lifecycles };
  });
}

export const RUNTIME_FILES = ["lifecycle-runner.ts"];

/** Writes the emitted lifecycle modules and the runtime files they need; returns the directory. */
export function materialize(protocols = loadAllLifecycles(), runtimeFiles: string[] = RUNTIME_FILES): string {
  const dir = mkdtempSync(join(tmpdir(), "lifecycles-ts-"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const name of runtimeFiles) {
    const source = readFileSync(join(ROOT, "generators/targets/ts/runtime/src", name), "utf8");
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const dts = ts.transpileDeclaration(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const base = name.replace(/\.ts$/, "");
    mkdirSync(join(dir, "runtime"), { recursive: true });
    writeFileSync(join(dir, "runtime", `${base}.js`), js);
    writeFileSync(join(dir, "runtime", `${base}.d.ts`), dts);
  }
  for (const file of emitLifecyclesTs(protocols)) {
    const target = join(dir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  return dir;
}

export interface GeneratedMachineModule {
  initialState: string;
  states: readonly string[];
  events: readonly string[];
  transition(state: string, event: string, guards?: Record<string, boolean>): {
    ok: boolean;
    state: string;
    effects?: readonly string[];
    refusal?: string;
    guard?: string;
  };
  allowedEvents(state: string): readonly string[];
  isTerminal(state: string): boolean;
}

export async function importMachine(dir: string, protocol: string, name: string): Promise<GeneratedMachineModule> {
  return (await import(pathToFileURL(join(dir, protocol, "lifecycles", `${name}.js`)).href)) as GeneratedMachineModule;
}
