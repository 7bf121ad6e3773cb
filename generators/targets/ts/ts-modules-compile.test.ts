// The TypeScript the emitter writes (before it ships as .js and .d.ts) compiles under strict
// mode with unused imports, locals and parameters as errors, against the hand-written runtime's
// sources and the declaration files emitted beside it (types.d.ts, validators.d.ts). The modules
// live in memory, under a folder of this checkout that does not exist, so the compiler resolves
// the runtime's npm types from the checkout's node_modules.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import type { Model } from "../../model/types.js";
import { runtimeKeywords } from "../../model/runtime-keywords.js";
import { emitAllErrors } from "./emit-all-errors.js";
import { formatDeclarations } from "./emit-schema-code.js";
import { typeScriptModules } from "./emit.js";
import { TsFile } from "./ts-file.js";
import { renderProtocolTypes } from "./ts-types.js";

const PACKAGE = `${REPO_ROOT}/.emitted-typescript-in-memory`;
const RUNTIME = `${REPO_ROOT}/generators/targets/ts/runtime/src`;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/** The diagnostics of `files` (path under the package -> text), for those files only, as `path:line:col message`. */
function compile(files: ReadonlyMap<string, string>): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const inPackage = (name: string): string | undefined => {
    if (!name.startsWith(`${PACKAGE}/`)) return undefined;
    const path = name.slice(PACKAGE.length + 1);
    if (files.has(path)) return files.get(path);
    // The hand-written runtime, read from its sources (emit ships it transpiled).
    if (path.startsWith("runtime/") && path.endsWith(".ts") && !path.endsWith(".d.ts")) {
      try {
        return readFileSync(`${RUNTIME}/${path.slice("runtime/".length)}`, "utf8");
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, create) => {
    const text = inPackage(name);
    return text !== undefined ? ts.createSourceFile(name, text, languageVersion, true) : getSourceFile(name, languageVersion, onError, create);
  };
  host.fileExists = (name) => inPackage(name) !== undefined || (!name.startsWith(`${PACKAGE}/`) && fileExists(name));
  host.readFile = (name) => inPackage(name) ?? readFile(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => name === PACKAGE || name.startsWith(`${PACKAGE}/`) || (directoryExists?.(name) ?? true);
  const roots = [...files.keys()].map((path) => `${PACKAGE}/${path}`);
  const program = ts.createProgram(roots, OPTIONS, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.has(d.file.fileName.slice(PACKAGE.length + 1)))
    .map((d) => {
      const { line, character } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${d.file!.fileName.slice(PACKAGE.length + 1)}:${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

/** Every emitted TypeScript module, and the declaration files they import. */
function emittedTypeScript(model: Model): Map<string, string> {
  const files = new Map<string, string>();
  for (const protocol of model.protocols) {
    files.set(`${protocol.id}/types.d.ts`, renderProtocolTypes(model, protocol));
    const validators = protocol.messages.map((m) => `export declare const validate${m.name}: CompiledValidator;`).join("\n");
    // What emit writes for ajv's all-errors validators (checked against generated/ts by generate --check).
    files.set(`${protocol.id}/validators-all.d.ts`, `import type { CompiledValidator } from "../runtime/validation.js";\n${validators}\n`);
  }
  files.set("ajv-runtime/formats.d.ts", formatDeclarations(runtimeKeywords().formats));
  const modules = [...typeScriptModules(model), emitAllErrors(model, () => [], new Map()).root];
  for (const module of modules) files.set(module.path, module.render());
  return files;
}

describe("the emitted TypeScript", () => {
  let model: Model;
  beforeAll(() => {
    const loaded = loadModel(REPO_ROOT);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
    model = loaded.model;
  });

  it("compiles strictly, with no unused import, local or parameter", () => {
    const files = emittedTypeScript(model);
    expect([...files.keys()].filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts")).length).toBeGreaterThan(80);
    expect(compile(files)).toEqual([]);
  }, 120_000);

  it("can fail: an unused import and a type error are reported at their line", () => {
    const files = new Map([
      ["probe.ts", 'import { canonicalize } from "./runtime/canonical-json.js";\nexport const n: number = "text";\n'],
    ]);
    const diagnostics = compile(files);
    expect(diagnostics.some((d) => d.startsWith("probe.ts:1:") && d.includes("canonicalize"))).toBe(true);
    expect(diagnostics.some((d) => d.startsWith("probe.ts:2:"))).toBe(true);
  }, 120_000);

  it("the file printer refuses an import the module does not use", () => {
    const f = new TsFile("probe/unused.ts", []);
    f.import("canonicalize", "runtime/canonical-json.js");
    f.print("export const n = 1;");
    expect(() => f.render()).toThrow("probe/unused.ts: imports canonicalize from runtime/canonical-json.js but never uses it");
  });
});
