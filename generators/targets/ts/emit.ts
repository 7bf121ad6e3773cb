// The TypeScript target: model -> the files of generated/ts, an ESM npm package
// (the npm name spec/project.yaml gives) that imports under plain Node, tsx and vitest.
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { lengthFirst } from "../../model/length-first.js";
import { runtimeKeywords } from "../../model/runtime-keywords.js";
import type { JsonValue, Model, OutputFile, Protocol } from "../../model/types.js";
import { type AjvHelper, ajvHelperModules } from "./ajv-esm.js";
import { formatDeclarations, printSchemaCode, ungeneratedMessages } from "./emit-schema-code.js";
import { emitAllErrors, firstErrorAjvFiles } from "./emit-all-errors.js";
import { emitPackageDocs } from "./emit-package-docs.js";
import { constantsModule, protocolIndexModule } from "./emit-constants.js";
import { lifecycleModules } from "./emit-lifecycles.js";
import { messageModules, rootModules } from "./emit-messages.js";
import { signingModules } from "./emit-signing.js";
import type { TranspiledRuntime, TsInputs } from "./inputs.js";
import { checkTsNames } from "./naming.js";
import { shipModules, TsFile } from "./ts-file.js";
import { renderProtocolTypes } from "./ts-types.js";
import { packageDependencies } from "./package-dependencies.js";

/**
 * Pure: the runtime's transpiled text comes from inputs.ts; the types are rendered from the shape
 * model. Every module of the typed API is emitted once, as TypeScript (typeScriptModules), and ships
 * as the .js and .d.ts the compiler derives from it, the schema checks (emit-schema-code.ts) too;
 * only the all-errors validators are ajv's JavaScript, and validators-ajv.js: the first-error checks
 * of the messages whose schemas reach unevaluatedProperties/unevaluatedItems, which the generated
 * checks leave to ajv (emit-schema-code.ts).
 */
export function emitTypeScript(model: Model, inputs: TsInputs): OutputFile[] {
  checkTsNames(model.protocols);
  const files: OutputFile[] = [];
  const ajvHelpers = new Map<string, AjvHelper>();
  // The generated schema checks import ajv-formats' functions from ajv-runtime/formats.js by these names.
  for (const format of runtimeKeywords().formats) ajvHelpers.set(`formats_fullFormats_${format}`, { specifier: "ajv-formats/dist/formats", member: `.fullFormats.${format}` });
  for (const protocol of model.protocols) {
    const sources = protocolSources(model, protocol);
    files.push({ path: `${protocol.id}/types.d.ts`, contents: renderProtocolTypes(model, protocol), sources });
  }
  const allErrors = emitAllErrors(model, (p) => protocolSources(model, p), ajvHelpers);
  files.push(...allErrors.validators);
  for (const protocol of model.protocols) {
    const ungenerated = ungeneratedMessages(validatorDocuments(model, protocol), protocol.messages);
    files.push(...firstErrorAjvFiles(model, protocol, ungenerated, protocolSources(model, protocol), ajvHelpers));
  }
  files.push(...shipModules([...typeScriptModules(model), allErrors.root]));
  files.push(...ajvHelperModules(ajvHelpers).map((m) => ({ ...m, sources: model.sourceFiles })));
  files.push({ path: "ajv-runtime/formats.d.ts", contents: formatDeclarations(runtimeKeywords().formats), sources: model.sourceFiles });
  files.push(...emitRuntime(inputs.runtime));
  files.push(emitNodeOnlyStub(model));
  files.push(emitPackageJson(model, files));
  files.push(...emitPackageDocs(model, inputs.license));
  return files;
}

/**
 * The package's own TypeScript modules, before they ship as .js and .d.ts (all-errors.ts, which
 * needs the validators' helpers, aside): each protocol's messages, constants, signing and index,
 * its lifecycles, and the root registry and index.
 */
export function typeScriptModules(model: Model): TsFile[] {
  const modules: TsFile[] = [];
  for (const protocol of model.protocols) {
    const sources = protocolSources(model, protocol);
    const signing = signingModules(protocol);
    modules.push(validatorsModule(model, protocol, sources), ...messageModules(protocol, sources), constantsModule(protocol), ...signing, protocolIndexModule(protocol, sources, signing.length > 0));
  }
  modules.push(...lifecycleModules(model.protocols), ...rootModules(model));
  return modules;
}

function protocolSources(model: Model, protocol: Protocol): string[] {
  return [...model.shared.map((s) => s.location.file), protocol.location.file, ...protocol.messages.map((m) => m.location.file)].sort();
}

// --- validators: the schemas as generated TypeScript checks (emit-schema-code.ts) ----------------

// The documents as Kotlin's and Swift's checks read them: maxLength first, prose and examples dropped.
const dropForTs = (keyword: string): boolean => PROSE_AND_EXAMPLES.has(keyword);

function validatorsModule(model: Model, protocol: Protocol, sources: string[]): TsFile {
  const f = new TsFile(`${protocol.id}/validators.ts`, sources);
  f.comment(
    `The JSON Schemas of ${protocol.id} as code: one function per subschema, named after its location, each`,
    "returning ajv's first error (runtime/schema-checks.js) or undefined; check<Message> per message.",
  );
  printSchemaCode(f, validatorDocuments(model, protocol), protocol.messages.map((m) => ({ name: m.name, id: m.id })), `${protocol.id}/validators-ajv.js`);
  return f;
}

/** The schema documents of `protocol` as its generated checks read them. */
function validatorDocuments(model: Model, protocol: Protocol): JsonValue[] {
  return [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((d) => validatorView(lengthFirst(d), dropForTs));
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
