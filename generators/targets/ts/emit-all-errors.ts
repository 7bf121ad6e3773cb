// The TypeScript target's all-errors validators (issue 17): per protocol, validators-all.js, the
// same schemas compiled by ajv with allErrors; at the root, all-errors.ts, which names them by
// protocol and message (validateMessageAllErrors / parseMessageAllErrors). A separate entry
// point (@agent-contracts/bindings/all-errors), so code that never asks for every error never
// loads them.
import standaloneModule from "ajv/dist/standalone/index.js";
import { validatorView, PROSE_AND_EXAMPLES } from "../../emit/validator-view.js";
import { createSchemaCompiler } from "../../model/schema-compiler.js";
import type { JsonSchema, Model, OutputFile, Protocol } from "../../model/types.js";
import { pruneSchemaConstants } from "./prune-schema-constants.js";
import { type AjvHelper, standaloneAsEsm } from "./ajv-esm.js";
import { protocolNamespace } from "./naming.js";
import { TsFile } from "./ts-file.js";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: unknown, refs: Record<string, string>) => string;

function protocolFiles(model: Model, protocol: Protocol, sources: string[], helpers: Map<string, AjvHelper>): OutputFile[] {
  const schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
  const ajv = createSchemaCompiler(schemas, { codegen: true, allErrors: true, metaChecked: true });
  const refs = Object.fromEntries(protocol.messages.map((m) => [`validate${m.name}`, m.id]));
  const js = pruneSchemaConstants(standaloneAsEsm(standaloneCode(ajv, refs), helpers));
  const dts = [
    `import type { CompiledValidator } from "../runtime/validation.js";`,
    "",
    ...protocol.messages.map((m) => `/** ${m.name}'s schema check collecting every error (allErrors); no cross-field rules. */\nexport declare const validate${m.name}: CompiledValidator;`),
    "",
  ].join("\n");
  return [
    { path: `${protocol.id}/validators-all.js`, contents: js, sources },
    { path: `${protocol.id}/validators-all.d.ts`, contents: dts, sources },
  ];
}

/**
 * `<protocol>/validators-ajv.js` and `.d.ts`: ajv's standalone code without allErrors (its first
 * error) for `messages`, the ones whose schemas the generated checks do not cover
 * (emit-schema-code.ts ungeneratedMessages); validators.ts's check<Message> calls them. None when
 * `messages` is empty.
 */
export function firstErrorAjvFiles(model: Model, protocol: Protocol, messages: readonly { name: string; id: string; reason: string }[], sources: string[], helpers: Map<string, AjvHelper>): OutputFile[] {
  if (messages.length === 0) return [];
  const schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
  const ajv = createSchemaCompiler(schemas, { codegen: true, metaChecked: true });
  const refs = Object.fromEntries(messages.map((m) => [`validate${m.name}`, m.id]));
  const js = pruneSchemaConstants(standaloneAsEsm(standaloneCode(ajv, refs), helpers));
  const dts = [
    `import type { CompiledValidator } from "../runtime/validation.js";`,
    "",
    ...messages.map((m) => `/** ${m.name}'s schema check as ajv's standalone code, stopping at the first error (${m.reason.replace(/\*\//g, "*\\/")}). */\nexport declare const validate${m.name}: CompiledValidator;`),
    "",
  ].join("\n");
  return [
    { path: `${protocol.id}/validators-ajv.js`, contents: js, sources },
    { path: `${protocol.id}/validators-ajv.d.ts`, contents: dts, sources },
  ];
}

/** all-errors.ts: every protocol's allErrors validators by protocol and message name. */
function rootModule(model: Model): TsFile {
  const f = new TsFile("all-errors.ts", model.protocols.map((p) => p.location.file).sort());
  const ALL_ERRORS = "runtime/all-errors.js";
  const registry = model.protocols.map((p) => {
    const all = f.importNamespace(`${p.id}/validators-all.js`, `${protocolNamespace(p.id)}All`);
    const messages = f.importNamespace(`${p.id}/messages.js`, protocolNamespace(p.id));
    return `  ${JSON.stringify(p.id)}: Object.freeze({\n${p.messages.map((m) => `    ${m.name}: [${all}.validate${m.name}, ${messages}.validate${m.name}] as const,`).join("\n")}\n  }),`;
  });
  const options = f.importType("AllErrorsOptions", ALL_ERRORS);
  const result = f.importType("AllErrorsResult", ALL_ERRORS);
  const entry = `readonly [${f.importType("CompiledValidator", "runtime/validation.js")}, (value: unknown) => ${f.importType("ValidationResult", "runtime/validation.js")}<unknown>]`;
  f.print(
    `export { DEFAULT_MAX_ERRORS } from "./runtime/all-errors.js";`,
    "",
    `const registry: Readonly<Record<string, Readonly<Record<string, ${entry}>>>> = Object.freeze({`,
    ...registry,
    "});",
    "",
    `function entry(protocol: string, name: string): ${entry} {`,
    "  const messages = Object.prototype.hasOwnProperty.call(registry, protocol) ? registry[protocol] : undefined;",
    `  if (messages === undefined) throw new ${f.import("UnknownMessageError", "registry.js")}(protocol);`,
    "  if (!Object.prototype.hasOwnProperty.call(messages, name)) throw new UnknownMessageError(protocol, name);",
    "  return messages[name]!;",
    "}",
    "",
    "/** Validates a value as the named message, reporting every error (up to options.maxErrors, default 100). Throws UnknownMessageError for a name not in the spec. */",
    `export function validateMessageAllErrors(protocol: string, name: string, value: unknown, options: ${options} = {}): ${result}<unknown> {`,
    "  const [schemaAll, validate] = entry(protocol, name);",
    `  return ${f.import("validateAllErrors", ALL_ERRORS)}(schemaAll, validate, value, options);`,
    "}",
    "",
    "/** Strictly parses untrusted JSON, then validates it as the named message, reporting every error. */",
    `export function parseMessageAllErrors(protocol: string, name: string, input: string | Uint8Array, options: ${options} = {}): ${result}<unknown> {`,
    "  const [schemaAll, validate] = entry(protocol, name);",
    `  return ${f.import("parseAllErrors", ALL_ERRORS)}(schemaAll, validate, input, options);`,
    "}",
  );
  return f;
}

/** Each protocol's validators-all.js and .d.ts (ajv's output), and the root module naming them. */
export function emitAllErrors(model: Model, protocolSources: (protocol: Protocol) => string[], helpers: Map<string, AjvHelper>): { validators: OutputFile[]; root: TsFile } {
  return { validators: model.protocols.flatMap((p) => protocolFiles(model, p, protocolSources(p), helpers)), root: rootModule(model) };
}
