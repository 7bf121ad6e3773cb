// TypeScript source -> the `.js` and `.d.ts` the package ships, for the hand-written runtime
// (runtime/src/*.ts, read by inputs.ts) and for every module the emitter writes as TypeScript
// (ts-file.ts): one compiler, one set of options, so both kinds of file ship in the same form.
// The JS is ts.transpileModule's; the declarations are ts.transpileDeclaration's, which needs
// every export's type written out (isolatedDeclarations) and reports a missing one as an error.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type ts from "typescript";
import { PACKAGE_HOME } from "../../write/generator-home.mjs";

export interface Transpiled {
  js: string;
  dts: string;
}

// Loading the compiler (~10 MB of JavaScript) plus transpileDeclaration's checker costs about a
// second per cold run, and the emitted modules add about 150 files. The result is a pure function
// of the source text, its name, these options and the compiler version, so it is cached under
// node_modules/.cache/agent-contracts keyed by a hash of all four: output bytes are identical
// with or without the cache, and a source edit, an option change here or a TypeScript upgrade
// misses and recompiles. Sources with declaration errors are never cached, so the error is
// reported on every run.
const require = createRequire(import.meta.url);
const TRANSPILE_OPTIONS = { target: "ES2022", module: "ESNext", verbatimModuleSyntax: false, removeComments: false, declaration: true, isolatedDeclarations: true, strict: true } as const;
// Under the package root (the checkout's node_modules; an installed package's own one).
const CACHE_DIR = `${PACKAGE_HOME}/node_modules/.cache/agent-contracts/runtime-transpile/`;
let typescriptVersion: string | undefined;

/**
 * `text` (a TypeScript module named `name`) as JS and declarations; `shownAs` is the path an error
 * names. Throws when an export lacks the explicit type its declaration needs.
 */
export function transpileTypeScript(name: string, text: string, shownAs: string): Transpiled {
  typescriptVersion ??= (require("typescript/package.json") as { version: string }).version;
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 1, typescript: typescriptVersion, options: TRANSPILE_OPTIONS, name, text }))
    .digest("hex");
  const cachePath = `${CACHE_DIR}${key}.json`;
  try {
    const cached = JSON.parse(readFileSync(cachePath, "utf8")) as { js?: unknown; dts?: unknown };
    if (typeof cached.js === "string" && typeof cached.dts === "string") return { js: cached.js, dts: cached.dts };
  } catch {
    // Missing or unreadable entry: transpile below.
  }
  const result = transpile(name, text, shownAs);
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

function transpile(name: string, text: string, shownAs: string): Transpiled {
  // Loaded only on a cache miss (CommonJS, so a synchronous require keeps the emitter synchronous).
  const typescript = require("typescript") as typeof ts;
  const o = TRANSPILE_OPTIONS;
  const options: ts.CompilerOptions = {
    target: typescript.ScriptTarget[o.target],
    module: typescript.ModuleKind[o.module],
    verbatimModuleSyntax: o.verbatimModuleSyntax,
    removeComments: o.removeComments,
    declaration: o.declaration,
    isolatedDeclarations: o.isolatedDeclarations,
    strict: o.strict,
  };
  const js = typescript.transpileModule(text, { compilerOptions: options, fileName: name, reportDiagnostics: false }).outputText;
  const dts = typescript.transpileDeclaration(text, { compilerOptions: options, fileName: name, reportDiagnostics: true });
  if (dts.diagnostics && dts.diagnostics.length > 0) {
    const d = dts.diagnostics[0]!;
    const { line, character } = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0) : { line: 0, character: 0 };
    throw new Error(`${shownAs}:${line + 1}:${character + 1}: ${typescript.flattenDiagnosticMessageText(d.messageText, "\n")} (exports need explicit types)`);
  }
  const clean = (output: string): string => output.replace(/\n?\/\/# sourceMappingURL=.*$/, "").trimEnd() + "\n";
  return { js: clean(js), dts: clean(dts.outputText) };
}
