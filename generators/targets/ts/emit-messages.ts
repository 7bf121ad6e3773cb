// The typed message API as TypeScript modules (ts-file.ts): per message, validate<M> and parse<M>
// beside its compiled cross-field rules; per protocol, messages.ts (the by-name tables); at the
// root, registry.ts (lookup by protocol and message name at run time) and index.ts.
import type { Model, Protocol } from "../../model/types.js";
import { compileRules, type RuleHelper } from "./emit-rules.js";
import { protocolNamespace, rulesConstant } from "./naming.js";
import { TsFile } from "./ts-file.js";

const VALIDATION = "runtime/validation.js";

/** `<protocol>/messages/<M>.ts` for every message, then `<protocol>/messages.ts`. */
export function messageModules(protocol: Protocol, sources: readonly string[]): TsFile[] {
  const perMessage = protocol.messages.map((m) => {
    const f = new TsFile(`${protocol.id}/messages/${m.name}.ts`, sources);
    f.comment(
      `${m.name} alone: its cross-field rules, validate${m.name} and parse${m.name}. A bundler asked for one`,
      "message keeps this module, the generated schema functions of ../validators.js it reaches, and the runtime.",
    );
    const type = f.importType(m.name, `${protocol.id}/types.js`);
    const result = f.importType("ValidationResult", VALIDATION);
    const schema = f.import(`check${m.name}`, `${protocol.id}/validators.js`);
    if (m.rules.length > 0) {
      const table = rulesConstant(m.name);
      // What an error names of each rule (ruleError reads id, kind and message): the compiled check
      // needs only these, so a bundle keeps the whole table only when crossFieldRules is imported.
      const named = `${table}_NAMED`;
      const check = `check${m.name}Rules`;
      const compiled = compileRules(check, named, m.rules, {
        helper: (name: RuleHelper) => f.import(name, "runtime/rules.js"),
        errorType: () => f.importType("ValidationError", VALIDATION),
      });
      f.print(
        `const ${named} = ${JSON.stringify(m.rules.map(({ id, kind, message }) => ({ id, kind, message })))} as const;`,
        `const ${table}: readonly ${f.importType("CrossFieldRule", "runtime/rules.js")}[] = ${JSON.stringify(m.rules.map(({ id, kind, message, ...fields }) => ({ id, kind, message, ...fields })))};`,
        "",
        `// The ${m.rules.length} rule(s) above compiled to straight-line code (generators/targets/ts/emit-rules.ts);`,
        "// checkRules in runtime/rules.js is the reference evaluation they are tested against.",
        compiled,
        "",
        `/** Validates ${m.name}: the schema, then ${m.rules.length} cross-field rule(s). */`,
        `export function validate${m.name}(value: unknown): ${result}<${type}> {`,
        `  const schemaErrors = ${schema}(value);`,
        "  if (schemaErrors !== undefined) return { ok: false, errors: schemaErrors };",
        `  const errors = ${check}(value);`,
        `  return errors === undefined ? { ok: true, value: value as ${type} } : { ok: false, errors };`,
        "}",
        "",
        "/** The x-rules table beside its compiled check, for testing one against the reference evaluator. */",
        `export const crossFieldRules: ${f.importType("CompiledRules", `${protocol.id}/messages.js`)} = /* @__PURE__ */ Object.freeze({ rules: ${table}, check: ${check} });`,
      );
    } else {
      f.print(
        `/** Validates ${m.name} against its schema (it has no cross-field rules). */`,
        `export function validate${m.name}(value: unknown): ${result}<${type}> {`,
        `  const errors = ${schema}(value);`,
        `  return errors === undefined ? { ok: true, value: value as ${type} } : { ok: false, errors };`,
        "}",
      );
    }
    f.print(
      "",
      `/** Strictly parses untrusted JSON text or UTF-8 bytes (duplicate keys, lone surrogates, BOM, ... are errors), then validates it as ${m.name}. */`,
      `export function parse${m.name}(input: string | Uint8Array): ${result}<${type}> {`,
      `  return ${f.import("parseAndValidate", VALIDATION)}(input, validate${m.name});`,
      "}",
    );
    return f;
  });
  return [...perMessage, messagesTable(protocol, sources)];
}

function messagesTable(protocol: Protocol, sources: readonly string[]): TsFile {
  const f = new TsFile(`${protocol.id}/messages.ts`, sources);
  f.comment(
    `Every message of ${protocol.id}: each one's validate/parse re-exported from its own module under`,
    "messages/, and the by-name tables, which a bundler drops when nothing reads them (pure calls).",
  );
  const result = f.importType("ValidationResult", VALIDATION);
  const names = protocol.messages.map((m) => {
    const module = `${protocol.id}/messages/${m.name}.js`;
    return {
      name: m.name,
      id: m.id,
      type: f.importType(m.name, `${protocol.id}/types.js`),
      validate: f.import(`validate${m.name}`, module),
      parse: f.import(`parse${m.name}`, module),
      rules: m.rules.length > 0 ? f.import("crossFieldRules", module, `${m.name}Rules`) : undefined,
    };
  });
  const withRules = names.filter((n) => n.rules !== undefined);
  f.print(
    `export { ${names.flatMap((n) => [n.validate, n.parse]).join(", ")} };`,
    "",
    "export interface MessageEntry<T> {",
    "  readonly id: string;",
    `  validate(value: unknown): ${result}<T>;`,
    `  parse(input: string | Uint8Array): ${result}<T>;`,
    "}",
    "",
    "/** Each message's type, by name: what validateMessage and parseMessage return for this protocol. */",
    "export interface MessageTypes {",
    ...names.map((n) => `  ${n.name}: ${n.type};`),
    "}",
    "",
    `/** Every message of ${protocol.id}, by name. */`,
    `export const messages: {${names.map((n) => ` readonly ${n.name}: MessageEntry<${n.type}>;`).join("")} } = /* @__PURE__ */ Object.freeze({`,
    ...names.map((n) => `  ${n.name}: /* @__PURE__ */ Object.freeze({ id: ${JSON.stringify(n.id)}, validate: ${n.validate}, parse: ${n.parse} }),`),
    "});",
    "",
    "export interface CompiledRules {",
    "  /** The x-rules table, as the reference evaluator (checkRules in runtime/rules.js) reads it. */",
    `  readonly rules: readonly ${f.importType("CrossFieldRule", "runtime/rules.js")}[];`,
    "  /** The same rules compiled to code: undefined when every rule holds, else the errors in rule order. */",
    `  check(value: unknown): ${f.importType("ValidationError", VALIDATION)}[] | undefined;`,
    "}",
    "",
    "/** Each message's x-rules table beside its compiled check, for testing one against the reference evaluator. */",
    `export const crossFieldRules: {${withRules.map((n) => ` readonly ${n.name}: CompiledRules;`).join("")} } = /* @__PURE__ */ Object.freeze({`,
    ...withRules.map((n) => `  ${n.name}: ${n.rules},`),
    "});",
  );
  return f;
}

/** registry.ts (messages by protocol and name at run time) and the package's index.ts. */
export function rootModules(model: Model): TsFile[] {
  const sources = model.protocols.map((p) => p.location.file);
  const protocols = model.protocols.map((p) => ({ id: p.id, idJson: JSON.stringify(p.id), namespace: protocolNamespace(p.id) }));

  const registry = new TsFile("registry.ts", sources);
  registry.comment(
    "parseMessage, validateMessage and listMessages: messages looked up by protocol and message name",
    "at run time. Every message of every protocol is reachable from here, so this is the one module",
    "that costs the whole package in a bundle: import it (the package's `/registry` subpath,",
    "or these names from the root) only where names arrive at run time. The table is built on first use.",
  );
  const result = registry.importType("ValidationResult", VALIDATION);
  const tables = protocols.map((p) => ({ ...p, messages: registry.import("messages", `${p.id}/messages.js`, `${p.namespace}Messages`), types: registry.importType("MessageTypes", `${p.id}/messages.js`, `${p.namespace}MessageTypes`) }));
  registry.print(
    `export type ProtocolId = ${protocols.map((p) => p.idJson).join(" | ") || "never"};`,
    "",
    "/** Each protocol's message types by name: `MessageTypes[\"<protocol>\"][\"<Message>\"]`. */",
    "export interface MessageTypes {",
    ...tables.map((p) => `  ${p.idJson}: ${p.types};`),
    "}",
    "",
    "/** `T` when it is the type `string` (a name known only at run time), else `Literal`: literals must be known names. */",
    "export type RuntimeName<T extends string, Literal> = string extends T ? T : Literal;",
    "",
    "/** The message names of one protocol. */",
    "export type MessageName<P extends ProtocolId> = keyof MessageTypes[P] & string;",
    "",
    "interface RegistryEntry {",
    `  validate(value: unknown): ${result}<unknown>;`,
    `  parse(input: string | Uint8Array): ${result}<unknown>;`,
    "}",
    "",
    "let registry: Readonly<Record<string, Readonly<Record<string, RegistryEntry>>>> | undefined;",
    "function protocols(): Readonly<Record<string, Readonly<Record<string, RegistryEntry>>>> {",
    "  return (registry ??= Object.freeze({",
    ...tables.map((p) => `    ${p.idJson}: ${p.messages},`),
    "  }));",
    "}",
    "",
    "/** Thrown when a protocol or message name is not in the spec: a programming error, not bad input. */",
    "export class UnknownMessageError extends Error {",
    "  declare readonly protocol: string;",
    "  declare readonly messageName: string | undefined;",
    "  constructor(protocol: string, message?: string) {",
    "    super(message === undefined ? `unknown protocol ${protocol}` : `unknown message ${message} in protocol ${protocol}`);",
    '    this.name = "UnknownMessageError";',
    "    this.protocol = protocol;",
    "    this.messageName = message;",
    "  }",
    "}",
    "",
    "function entry(protocol: string, name: string): RegistryEntry {",
    "  const messages = Object.prototype.hasOwnProperty.call(protocols(), protocol) ? protocols()[protocol] : undefined;",
    "  if (messages === undefined) throw new UnknownMessageError(protocol);",
    "  if (!Object.prototype.hasOwnProperty.call(messages, name)) throw new UnknownMessageError(protocol, name);",
    "  return messages[name]!;",
    "}",
    "",
    "/** Validates a value as the named message; with literal names the result is that message's type. */",
    `export function validateMessage<P extends ProtocolId, N extends MessageName<P>>(protocol: P, name: N, value: unknown): ${result}<MessageTypes[P][N]>;`,
    "/**",
    " * Names known only at run time (a CLI argument): the value is not narrowed; unknown names throw",
    " * UnknownMessageError. A literal name or protocol the spec does not have is a compile error.",
    " */",
    `export function validateMessage<P extends string, N extends string>(protocol: RuntimeName<P, ProtocolId>, name: RuntimeName<N, never>, value: unknown): ${result}<unknown>;`,
    `export function validateMessage(protocol: string, name: string, value: unknown): ${result}<unknown> {`,
    "  return entry(protocol, name).validate(value);",
    "}",
    "",
    "/** Strictly parses and validates untrusted JSON as the named message; typed like validateMessage. */",
    `export function parseMessage<P extends ProtocolId, N extends MessageName<P>>(protocol: P, name: N, input: string | Uint8Array): ${result}<MessageTypes[P][N]>;`,
    `export function parseMessage<P extends string, N extends string>(protocol: RuntimeName<P, ProtocolId>, name: RuntimeName<N, never>, input: string | Uint8Array): ${result}<unknown>;`,
    `export function parseMessage(protocol: string, name: string, input: string | Uint8Array): ${result}<unknown> {`,
    "  return entry(protocol, name).parse(input);",
    "}",
    "",
    "/** Every protocol and message name, sorted. */",
    "export function listMessages(): { protocol: ProtocolId; name: string }[] {",
    "  const table = protocols();",
    "  return Object.keys(table).flatMap((protocol) => Object.keys(table[protocol]!).map((name) => ({ protocol: protocol as ProtocolId, name })));",
    "}",
  );

  const index = new TsFile("index.ts", sources);
  const namespaces = protocols.map((p) => index.importNamespace(`${p.id}/index.js`, p.namespace));
  index.print(
    `export { ${namespaces.join(", ")} };`,
    'export * from "./runtime/index.js";',
    "// By-name lookup (every protocol's validators): a bundler keeps it only when one of these is used.",
    'export { UnknownMessageError, listMessages, parseMessage, validateMessage } from "./registry.js";',
    'export type { MessageName, MessageTypes, ProtocolId, RuntimeName } from "./registry.js";',
  );
  return [registry, index];
}
