// The TypeScript target: model -> the files of generated/ts, an ESM npm package
// (@agent-contracts/bindings) that imports under plain Node, tsx and vitest.
import standaloneModule from "ajv/dist/standalone/index.js";
import Handlebars from "handlebars";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type ts from "typescript";
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonSchema, JsonValue, Model, OutputFile, Protocol } from "../../model/types.js";
import { emitSigning } from "./emit-signing.js";
import { emitProtocolTypes } from "./emit-types.js";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: unknown, refs: Record<string, string>) => string;

/** The hand-written runtime, read by the pipeline and passed in so this emitter stays pure. */
export interface RuntimeSource {
  /** File name inside generators/targets/ts/runtime/src, e.g. `rules.ts`. */
  name: string;
  text: string;
}

export async function emitTypeScript(model: Model, runtime: readonly RuntimeSource[]): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const protocol of model.protocols) {
    const sources = protocolSources(model, protocol);
    files.push({ path: `${protocol.id}/types.d.ts`, contents: await emitProtocolTypes(model, protocol), sources });
    files.push(...emitValidators(model, protocol, sources));
    files.push(...emitMessagesApi(protocol, sources));
    files.push(...emitConstants(protocol));
    const signing = emitSigning(protocol);
    files.push(...signing);
    files.push(...emitProtocolIndex(protocol, sources, signing.length > 0));
  }
  files.push(...emitRootIndex(model));
  files.push(...emitRuntime(runtime));
  files.push(emitPackageJson(model));
  return files;
}

function protocolSources(model: Model, protocol: Protocol): string[] {
  return [...model.shared.map((s) => s.location.file), protocol.location.file, ...protocol.messages.map((m) => m.location.file)].sort();
}

// --- validators: ajv standalone code, nothing compiled at run time -----------------------------

const NOT_FOR_VALIDATION = new Set(["examples", "description", "x-invalid-examples", "x-source", "x-divergences"]);

function validatorView(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(validatorView);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (NOT_FOR_VALIDATION.has(key)) continue;
    out[key] = key === "properties" || key === "$defs" || key === "const" || key === "enum" ? (key === "const" || key === "enum" ? value : Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, validatorView(v)]))) : validatorView(value);
  }
  return out;
}

function emitValidators(model: Model, protocol: Protocol, sources: string[]): OutputFile[] {
  const schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s) as JsonSchema);
  const ajv = createSchemaCompiler(schemas, { codegen: true });
  const refs = Object.fromEntries(protocol.messages.map((m) => [`validate${m.name}`, m.id]));
  // ajv's standalone output still require()s its small runtime helpers; give ESM a require.
  const code = standaloneCode(ajv, refs).replace(/^"use strict";\n?/, "");
  const js = `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${code}\n`;
  const dts = [
    `import type { CompiledValidator } from "../runtime/validation.js";`,
    "",
    ...protocol.messages.map((m) => `/** The precompiled schema check for ${m.name} (no cross-field rules: use validate${m.name} from messages.js). */\nexport declare const validate${m.name}: CompiledValidator;`),
    "",
  ].join("\n");
  return [
    { path: `${protocol.id}/validators.js`, contents: js, sources },
    { path: `${protocol.id}/validators.d.ts`, contents: dts, sources },
  ];
}

// --- typed API: validateX / parseX -----------------------------------------------------------

const templates = new Map<string, HandlebarsTemplateDelegate>();
function render(name: string, context: object): string {
  let template = templates.get(name);
  if (!template) {
    const path = fileURLToPath(new URL(`./templates/${name}.hbs`, import.meta.url));
    template = Handlebars.compile(readFileSync(path, "utf8"), { noEscape: false, strict: true });
    templates.set(name, template);
  }
  return template(context);
}

function emitMessagesApi(protocol: Protocol, sources: string[]): OutputFile[] {
  const messages = protocol.messages.map((m) => ({
    name: m.name,
    idJson: JSON.stringify(m.id),
    rulesConst: `${screamingSnake(m.name)}_RULES`,
    rulesJson: JSON.stringify(m.rules.map(({ id, kind, message, ...fields }) => ({ id, kind, message, ...fields }))),
    ruleCount: m.rules.length,
  }));
  const context = { protocolId: protocol.id, messages, typeImports: protocol.messages.map((m) => m.name).join(", ") };
  return [
    { path: `${protocol.id}/messages.js`, contents: render("messages.js", context), sources },
    { path: `${protocol.id}/messages.d.ts`, contents: render("messages.d.ts", context), sources },
  ];
}

// --- wire constants --------------------------------------------------------------------------

function emitConstants(protocol: Protocol): OutputFile[] {
  const sources = [protocol.location.file];
  const js: string[] = [];
  const dts: string[] = [];
  for (const group of protocol.constants) {
    const body = group.items.map((item) => `  /** ${oneLine(item.description)}${item.unit ? ` (${item.unit})` : ""} */\n  ${item.name}: ${JSON.stringify(item.value)},`).join("\n");
    js.push(`/** ${oneLine(group.description)} */\nexport const ${group.group} = Object.freeze({\n${body}\n});`);
    const types = group.items.map((item) => `  readonly ${item.name}: ${JSON.stringify(item.value)};`).join("\n");
    dts.push(`/** ${oneLine(group.description)} */\nexport declare const ${group.group}: {\n${types}\n};`);
  }
  const routesJs = `/** HTTP routes with their auth and every response status. */\nexport const routes = Object.freeze(${JSON.stringify(Object.fromEntries(protocol.routes.map((r) => [r.id, r])), null, 2)});`;
  js.push(routesJs);
  dts.push(`export interface RouteResponse { readonly status: number; readonly message?: string; readonly contentType?: string; readonly description: string }\nexport interface Route { readonly id: string; readonly method: string; readonly path: string; readonly auth: string; readonly description: string; readonly request?: string; readonly requestContentType?: string; readonly responses: readonly RouteResponse[] }\nexport declare const routes: { readonly [id: string]: Route };`);
  return [
    { path: `${protocol.id}/constants.js`, contents: js.join("\n\n") + "\n", sources },
    { path: `${protocol.id}/constants.d.ts`, contents: dts.join("\n\n") + "\n", sources },
  ];
}

// --- indexes and package ---------------------------------------------------------------------

function emitProtocolIndex(protocol: Protocol, sources: string[], hasSigning: boolean): OutputFile[] {
  const lines = [`export * from "./messages.js";`, `export * from "./constants.js";`];
  if (hasSigning) lines.push(`export * from "./signing.js";`);
  if (protocol.lifecycles.length > 0) lines.push(`export * as lifecycles from "./lifecycles/index.js";`);
  return [
    { path: `${protocol.id}/index.js`, contents: lines.join("\n") + "\n", sources },
    { path: `${protocol.id}/index.d.ts`, contents: [...lines, `export type * from "./types.js";`].join("\n") + "\n", sources },
  ];
}

function emitRootIndex(model: Model): OutputFile[] {
  const protocols = model.protocols.map((p) => ({ id: p.id, idJson: JSON.stringify(p.id), namespace: camel(p.id) }));
  const context = {
    protocols,
    namespaceList: protocols.map((p) => p.namespace).join(", "),
    protocolIdUnion: protocols.map((p) => p.idJson).join(" | ") || "never",
  };
  const sources = model.protocols.map((p) => p.location.file);
  return [
    { path: "index.js", contents: render("index.js", context), sources },
    { path: "index.d.ts", contents: render("index.d.ts", context), sources },
  ];
}

/** The runtime is authored in TypeScript; ship it as per-file JS plus declarations. */
function emitRuntime(runtime: readonly RuntimeSource[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const source of [...runtime].sort((a, b) => a.name.localeCompare(b.name, "en"))) {
    const base = source.name.replace(/\.ts$/, "");
    const from = [`generators/targets/ts/runtime/src/${source.name}`];
    const { js, dts } = transpileRuntimeCached(source);
    files.push({ path: `runtime/${base}.js`, contents: js, sources: from });
    files.push({ path: `runtime/${base}.d.ts`, contents: dts, sources: from });
  }
  return files;
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
const CACHE_DIR = fileURLToPath(new URL("../../../node_modules/.cache/agent-contracts/runtime-transpile/", import.meta.url));
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

function emitPackageJson(model: Model): OutputFile {
  const exportsMap: Record<string, { types: string; default: string }> = {
    ".": { types: "./index.d.ts", default: "./index.js" },
    "./runtime/*": { types: "./runtime/*.d.ts", default: "./runtime/*.js" },
  };
  for (const p of model.protocols) exportsMap[`./${p.id}`] = { types: `./${p.id}/index.d.ts`, default: `./${p.id}/index.js` };
  const pkg = {
    name: "@agent-contracts/bindings",
    version: "0.1.0",
    description: "Generated TypeScript bindings (types, precompiled validators, signing, lifecycles) for the agent-contracts protocols.",
    type: "module",
    license: "Apache-2.0",
    sideEffects: false,
    exports: exportsMap,
    types: "./index.d.ts",
    dependencies: { ajv: "^8.20.0", "ajv-formats": "^3.0.1" },
    // The durable stores' drivers: each is needed only by the runtime module that names it
    // (runtime/replay-sqlite, runtime/replay-redis, runtime/replay-postgres).
    peerDependencies: { "better-sqlite3": "^12.0.0", pg: "^8.0.0", redis: "^5.0.0 || ^6.0.0" },
    peerDependenciesMeta: { "better-sqlite3": { optional: true }, pg: { optional: true }, redis: { optional: true } },
    engines: { node: ">=20.11" },
  };
  return { path: "package.json", contents: JSON.stringify(pkg, null, 2) + "\n", sources: model.sourceFiles };
}

function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

function camel(id: string): string {
  return id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\*\//g, "*\\/").trim();
}
