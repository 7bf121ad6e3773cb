// The TypeScript target's inputs stage: everything emit.ts needs besides the model, computed with
// I/O and asynchronous tools so that emitTypeScript stays pure and synchronous:
// the hand-written runtime (runtime/src/*.ts), transpiled to JS and declarations, and the licence.
// (Each protocol's types.d.ts is rendered from the shape model by ts-types.ts, in emit.)
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type ts from "typescript";
import type { Model } from "../../model/types.js";
import { generatorHome, PACKAGE_HOME } from "../../write/generator-home.mjs";

/** A hand-written runtime file, e.g. `rules.ts`, and what ships for it. */
export interface TranspiledRuntime {
  name: string;
  js: string;
  dts: string;
}

export interface TsInputs {
  runtime: TranspiledRuntime[];
  /** The Apache-2.0 text shipped as generated/ts/LICENSE (package-files/README.md names its source). */
  license: string;
}

export async function readTsInputs(root: string, model: Model): Promise<TsInputs> {
  const home = generatorHome(root);
  const license = readFileSync(`${home}/generators/targets/ts/package-files/LICENSE`, "utf8");
  return { runtime: readRuntime(home).map((source) => ({ name: source.name, ...transpileRuntimeCached(source) })), license };
}

interface RuntimeSource {
  name: string;
  text: string;
}

function readRuntime(root: string): RuntimeSource[] {
  const dir = `${root}/generators/targets/ts/runtime/src`;
  return readdirSync(dir)
    .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
    .sort()
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, "utf8") }));
}

// Transpiling the runtime is the only use of the TypeScript compiler in generation, and loading
// it (~10 MB of JavaScript) plus transpileDeclaration's checker costs about a second per cold run.
// The result is a pure function of the source text, its name, these options and the compiler
// version, so it is cached under node_modules/.cache/agent-contracts keyed by a hash of all four:
// output bytes are identical with or without the cache, and a runtime edit, an option change here
// (the key includes RUNTIME_TRANSPILE_OPTIONS) or a TypeScript upgrade misses and recompiles.
// Sources with declaration errors are never cached, so the error is reported on every run.
const require = createRequire(import.meta.url);
const RUNTIME_TRANSPILE_OPTIONS = { target: "ES2022", module: "ESNext", verbatimModuleSyntax: false, removeComments: false, declaration: true, isolatedDeclarations: true, strict: true } as const;
// Under the package root (the checkout's node_modules; an installed package's own one).
const CACHE_DIR = `${PACKAGE_HOME}/node_modules/.cache/agent-contracts/runtime-transpile/`;
let typescriptVersion: string | undefined;

function transpileRuntimeCached(source: RuntimeSource): { js: string; dts: string } {
  typescriptVersion ??= (require("typescript/package.json") as { version: string }).version;
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 1, typescript: typescriptVersion, options: RUNTIME_TRANSPILE_OPTIONS, name: source.name, text: source.text }))
    .digest("hex");
  const cachePath = `${CACHE_DIR}${key}.json`;
  try {
    const cached = JSON.parse(readFileSync(cachePath, "utf8")) as { js?: unknown; dts?: unknown };
    if (typeof cached.js === "string" && typeof cached.dts === "string") return { js: cached.js, dts: cached.dts };
  } catch {
    // Missing or unreadable entry: transpile below.
  }
  const result = transpileRuntime(source);
  try {
    // Write-then-rename so a concurrent or interrupted run never reads half an entry.
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(result));
    renameSync(temporary, cachePath);
  } catch {
    // A read-only or missing node_modules only costs the next run the transpile.
  }
  return result;
}

function transpileRuntime(source: RuntimeSource): { js: string; dts: string } {
  // Loaded only on a cache miss (CommonJS, so a synchronous require keeps the emitter synchronous).
  const typescript = require("typescript") as typeof ts;
  const o = RUNTIME_TRANSPILE_OPTIONS;
  const options: ts.CompilerOptions = {
    target: typescript.ScriptTarget[o.target],
    module: typescript.ModuleKind[o.module],
    verbatimModuleSyntax: o.verbatimModuleSyntax,
    removeComments: o.removeComments,
    declaration: o.declaration,
    isolatedDeclarations: o.isolatedDeclarations,
    strict: o.strict,
  };
  const js = typescript.transpileModule(source.text, { compilerOptions: options, fileName: source.name, reportDiagnostics: false }).outputText;
  const dts = typescript.transpileDeclaration(source.text, { compilerOptions: options, fileName: source.name, reportDiagnostics: true });
  if (dts.diagnostics && dts.diagnostics.length > 0) {
    const d = dts.diagnostics[0]!;
    const { line } = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0) : { line: 0 };
    throw new Error(`generators/targets/ts/runtime/src/${source.name}:${line + 1}: ${typescript.flattenDiagnosticMessageText(d.messageText, "\n")} (runtime exports need explicit types)`);
  }
  const clean = (text: string): string => text.replace(/\n?\/\/# sourceMappingURL=.*$/, "").trimEnd() + "\n";
  return { js: clean(js), dts: clean(dts.outputText) };
}

