// The TypeScript target: model -> the files of generated/ts, an ESM npm package
// (the npm name spec/project.yaml gives) that imports under plain Node, tsx and vitest.
import standaloneModule from "ajv/dist/standalone/index.js";
import { numberLiteral } from "../../emit/number-literal.js";
import { templateFolder, templateRenderer } from "../../emit/render.js";
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonSchema, JsonValue, Model, OutputFile, Protocol } from "../../model/types.js";
import { pruneSchemaConstants } from "./prune-schema-constants.js";
import { type AjvHelper, ajvHelperModules, standaloneAsEsm } from "./ajv-esm.js";
import { emitAllErrors } from "./emit-all-errors.js";
import { emitPackageDocs } from "./emit-package-docs.js";
import { COMPILED_RULE_IMPORTS, compileRules } from "./emit-rules.js";
import { emitSigning } from "./emit-signing.js";
import type { TranspiledRuntime, TsInputs } from "./inputs.js";
import { checkTsNames, protocolNamespace, rulesConstant } from "./naming.js";
import { jsdocText } from "./ts-doc.js";
import { renderProtocolTypes } from "./ts-types.js";
import { packageDependencies } from "./package-dependencies.js";
// From the package root, not this file: compiled, every target shares dist/cli/ (generator-home.mjs).
import { packageFileUrl } from "../../write/generator-home.mjs";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: unknown, refs: Record<string, string>) => string;

/** Pure: the runtime's transpiled text comes from inputs.ts; the types are rendered from the shape model. */
export function emitTypeScript(model: Model, inputs: TsInputs): OutputFile[] {
  checkTsNames(model.protocols);
  const files: OutputFile[] = [];
  const ajvHelpers = new Map<string, AjvHelper>();
  for (const protocol of model.protocols) {
    const sources = protocolSources(model, protocol);
    files.push({ path: `${protocol.id}/types.d.ts`, contents: renderProtocolTypes(model, protocol), sources });
    files.push(...emitValidators(model, protocol, sources, ajvHelpers));
    files.push(...emitMessagesApi(protocol, sources));
    files.push(...emitConstants(protocol));
    const signing = emitSigning(protocol);
    files.push(...signing);
    files.push(...emitProtocolIndex(protocol, sources, signing.length > 0));
  }
  files.push(...emitRootIndex(model));
  files.push(...emitAllErrors(model, (p) => protocolSources(model, p), ajvHelpers));
  files.push(...ajvHelperModules(ajvHelpers).map((m) => ({ ...m, sources: model.sourceFiles })));
  files.push(...emitRuntime(inputs.runtime));
  files.push(emitNodeOnlyStub(model));
  files.push(emitPackageJson(model, files));
  files.push(...emitPackageDocs(model, inputs.license));
  return files;
}

function protocolSources(model: Model, protocol: Protocol): string[] {
  return [...model.shared.map((s) => s.location.file), protocol.location.file, ...protocol.messages.map((m) => m.location.file)].sort();
}

// --- validators: ajv standalone code, nothing compiled at run time -----------------------------

// x- annotations stay: createSchemaCompiler declares them as keywords without code.
const dropForTs = (keyword: string): boolean => PROSE_AND_EXAMPLES.has(keyword);

function emitValidators(model: Model, protocol: Protocol, sources: string[], helpers: Map<string, AjvHelper>): OutputFile[] {
  const schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s, dropForTs) as JsonSchema);
  const ajv = createSchemaCompiler(schemas, { codegen: true });
  const refs = Object.fromEntries(protocol.messages.map((m) => [`validate${m.name}`, m.id]));
  const js = pruneSchemaConstants(standaloneAsEsm(standaloneCode(ajv, refs), helpers));
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

const render = templateRenderer(templateFolder(packageFileUrl("generators/targets/ts/templates/")), { htmlEscape: true });

function emitMessagesApi(protocol: Protocol, sources: string[]): OutputFile[] {
  const messages = protocol.messages.map((m) => ({
    name: m.name,
    idJson: JSON.stringify(m.id),
    rulesConst: rulesConstant(m.name),
    rulesJson: JSON.stringify(m.rules.map(({ id, kind, message, ...fields }) => ({ id, kind, message, ...fields }))),
    ruleCount: m.rules.length,
    compiledRules: m.rules.length > 0 ? compileRules(`check${m.name}Rules`, rulesConstant(m.name), m.rules) : "",
  }));
  const withRules = messages.filter((m) => m.ruleCount > 0);
  const context = {
    protocolId: protocol.id,
    messages,
    withRules,
    reexports: messages.flatMap((m) => [`validate${m.name}`, `parse${m.name}`]).join(", "),
    typeImports: protocol.messages.map((m) => m.name).join(", "),
  };
  const perMessage = messages.flatMap((m) => {
    const messageContext = { ...m, ruleImports: m.ruleCount > 0 ? COMPILED_RULE_IMPORTS.join(", ") : "" };
    return [
      { path: `${protocol.id}/messages/${m.name}.js`, contents: render("message.js", messageContext), sources },
      { path: `${protocol.id}/messages/${m.name}.d.ts`, contents: render("message.d.ts", messageContext), sources },
    ];
  });
  return [
    ...perMessage,
    { path: `${protocol.id}/messages.js`, contents: render("messages.js", context), sources },
    { path: `${protocol.id}/messages.d.ts`, contents: render("messages.d.ts", context), sources },
  ];
}

// --- wire constants --------------------------------------------------------------------------

/** A constant's literal: numbers through the shared exact-literal helper, strings and booleans as JSON. */
function tsLiteral(value: string | number | boolean): string {
  return typeof value === "number" ? numberLiteral(value, "ts").literal : JSON.stringify(value);
}

function emitConstants(protocol: Protocol): OutputFile[] {
  const sources = [protocol.location.file];
  const js: string[] = [];
  const dts: string[] = [];
  for (const group of protocol.constants) {
    const body = group.items.map((item) => `  /** ${jsdocText(item.description)}${item.unit ? ` (${item.unit})` : ""} */\n  ${item.name}: ${tsLiteral(item.value)},`).join("\n");
    js.push(`/** ${jsdocText(group.description)} */\nexport const ${group.group} = Object.freeze({\n${body}\n});`);
    const types = group.items.map((item) => `  readonly ${item.name}: ${tsLiteral(item.value)};`).join("\n");
    dts.push(`/** ${jsdocText(group.description)} */\nexport declare const ${group.group}: {\n${types}\n};`);
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
  const protocols = model.protocols.map((p) => ({ id: p.id, idJson: JSON.stringify(p.id), namespace: protocolNamespace(p.id) }));
  const context = {
    protocols,
    namespaceList: protocols.map((p) => p.namespace).join(", "),
    protocolIdUnion: protocols.map((p) => p.idJson).join(" | ") || "never",
  };
  const sources = model.protocols.map((p) => p.location.file);
  return [
    { path: "index.js", contents: render("index.js", context), sources },
    { path: "index.d.ts", contents: render("index.d.ts", context), sources },
    { path: "registry.js", contents: render("registry.js", context), sources },
    { path: "registry.d.ts", contents: render("registry.d.ts", context), sources },
  ];
}

/** The runtime is authored in TypeScript; ship it as per-file JS plus declarations (transpiled by inputs.ts). */
function emitRuntime(runtime: readonly TranspiledRuntime[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const source of [...runtime].sort((a, b) => a.name.localeCompare(b.name, "en"))) {
    const base = source.name.replace(/\.ts$/, "");
    const from = [`generators/targets/ts/runtime/src/${source.name}`];
    files.push({ path: `runtime/${base}.js`, contents: source.js, sources: from });
    files.push({ path: `runtime/${base}.d.ts`, contents: source.dts, sources: from });
  }
  return files;
}

// Where each entry point runs. The validate/parse/sign/verify/lifecycle paths are plain ES2022
// with no Node built-in, so one file serves every runtime ("default"). The durable stores need
// their Node drivers: under the "browser" condition they resolve to a module that throws a clear
// error when imported, instead of a bundler failing on node:module or a driver deep inside.
const SHA256_BACKEND_IMPORT = "#sha256-backend";
const NODE_ONLY_RUNTIME = ["replay-sqlite", "replay-redis", "replay-postgres"] as const;
type ExportEntry = { types: string; browser?: string; node?: string; default: string };

/** What a "browser" build gets for a Node-only store subpath: an error naming the subpath, at load. */
function emitNodeOnlyStub(model: Model): OutputFile {
  const names = NODE_ONLY_RUNTIME.map((n) => `runtime/${n}`).join(", ");
  const message = `${model.project.packages.npm}: ${names} need Node drivers (better-sqlite3, redis, pg) and are not built for browsers; keep those stores on a server, or use the in-memory stores exported from the package root`;
  return { path: "runtime/node-only.js", contents: `// The "browser" condition's target for the Node-only store subpaths (package.json exports).\nthrow new Error(${JSON.stringify(message)});\n`, sources: model.sourceFiles };
}

/** package.json; its dependencies are the packages the other emitted files import (package-dependencies.ts). */
function emitPackageJson(model: Model, files: readonly OutputFile[]): OutputFile {
  const exportsMap: Record<string, ExportEntry> = {
    ".": { types: "./index.d.ts", default: "./index.js" },
    "./registry": { types: "./registry.d.ts", default: "./registry.js" },
  };
  for (const name of NODE_ONLY_RUNTIME) {
    exportsMap[`./runtime/${name}`] = { types: `./runtime/${name}.d.ts`, browser: "./runtime/node-only.js", node: `./runtime/${name}.js`, default: `./runtime/${name}.js` };
  }
  exportsMap["./runtime/*"] = { types: "./runtime/*.d.ts", default: "./runtime/*.js" };
  exportsMap["./all-errors"] = { types: "./all-errors.d.ts", default: "./all-errors.js" };
  for (const p of model.protocols) exportsMap[`./${p.id}`] = { types: `./${p.id}/index.d.ts`, default: `./${p.id}/index.js` };
  const pkg = {
    name: model.project.packages.npm,
    version: model.version,
    description: `Generated TypeScript bindings (types, precompiled validators, signing, lifecycles) for the ${model.project.name} protocols.`,
    type: "module",
    license: "Apache-2.0",
    sideEffects: false,
    exports: exportsMap,
    // The runtime's own SHA-256/HMAC (runtime/crypto.js imports "#sha256-backend"): OpenSSL through
    // node:crypto where Node's built-ins exist (Node, Deno, Bun), @noble/hashes everywhere else.
    imports: { [SHA256_BACKEND_IMPORT]: { node: "./runtime/sha256-node.js", default: "./runtime/sha256-portable.js" } },
    types: "./index.d.ts",
    // Optional peers: the durable stores' drivers, each loaded only by the runtime module that
    // names it (runtime/replay-sqlite, runtime/replay-redis, runtime/replay-postgres).
    ...packageDependencies(files),
    engines: { node: ">=20.11" },
  };
  return { path: "package.json", contents: JSON.stringify(pkg, null, 2) + "\n", sources: model.sourceFiles };
}
