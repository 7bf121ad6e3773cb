// The TypeScript target's all-errors validators (issue 17): per protocol, validators-all.js, the
// same schemas compiled by ajv with allErrors; at the root, all-errors.js, which names them by
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

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: unknown, refs: Record<string, string>) => string;

function protocolFiles(model: Model, protocol: Protocol, sources: string[], helpers: Map<string, AjvHelper>): OutputFile[] {
  const schemas = [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((s) => validatorView(s, (k) => PROSE_AND_EXAMPLES.has(k)) as JsonSchema);
  const ajv = createSchemaCompiler(schemas, { codegen: true, allErrors: true });
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

function rootFiles(model: Model): OutputFile[] {
  const imports = model.protocols.flatMap((p) => [
    `import * as ${protocolNamespace(p.id)}All from "./${p.id}/validators-all.js";`,
    `import * as ${protocolNamespace(p.id)} from "./${p.id}/messages.js";`,
  ]);
  const registry = model.protocols.map(
    (p) => `  ${JSON.stringify(p.id)}: Object.freeze({\n${p.messages.map((m) => `    ${m.name}: [${protocolNamespace(p.id)}All.validate${m.name}, ${protocolNamespace(p.id)}.validate${m.name}],`).join("\n")}\n  }),`,
  );
  const js = `${imports.join("\n")}
import { parseAllErrors, validateAllErrors } from "./runtime/all-errors.js";
import { UnknownMessageError } from "./registry.js";

export { DEFAULT_MAX_ERRORS } from "./runtime/all-errors.js";

const registry = Object.freeze({
${registry.join("\n")}
});

function entry(protocol, name) {
  const messages = Object.prototype.hasOwnProperty.call(registry, protocol) ? registry[protocol] : undefined;
  if (messages === undefined) throw new UnknownMessageError(protocol);
  if (!Object.prototype.hasOwnProperty.call(messages, name)) throw new UnknownMessageError(protocol, name);
  return messages[name];
}

/** Validates a value as the named message, reporting every error (up to options.maxErrors, default 100). */
export function validateMessageAllErrors(protocol, name, value, options = {}) {
  const [schemaAll, validate] = entry(protocol, name);
  return validateAllErrors(schemaAll, validate, value, options);
}

/** Strictly parses untrusted JSON, then validates it as the named message, reporting every error. */
export function parseMessageAllErrors(protocol, name, input, options = {}) {
  const [schemaAll, validate] = entry(protocol, name);
  return parseAllErrors(schemaAll, validate, input, options);
}
`;
  const dts = `import type { AllErrorsOptions, AllErrorsResult } from "./runtime/all-errors.js";

export { DEFAULT_MAX_ERRORS } from "./runtime/all-errors.js";

/** Validates a value as the named message, reporting every error (up to options.maxErrors, default 100). Throws UnknownMessageError for a name not in the spec. */
export declare function validateMessageAllErrors(protocol: string, name: string, value: unknown, options?: AllErrorsOptions): AllErrorsResult<unknown>;

/** Strictly parses untrusted JSON, then validates it as the named message, reporting every error. */
export declare function parseMessageAllErrors(protocol: string, name: string, input: string | Uint8Array, options?: AllErrorsOptions): AllErrorsResult<unknown>;
`;
  const sources = model.protocols.map((p) => p.location.file).sort();
  return [
    { path: "all-errors.js", contents: js, sources },
    { path: "all-errors.d.ts", contents: dts, sources },
  ];
}

export function emitAllErrors(model: Model, protocolSources: (protocol: Protocol) => string[], helpers: Map<string, AjvHelper>): OutputFile[] {
  return [...model.protocols.flatMap((p) => protocolFiles(model, p, protocolSources(p), helpers)), ...rootFiles(model)];
}
