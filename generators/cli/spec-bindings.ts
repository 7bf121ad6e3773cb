// The bindings of a user's spec, built when a command runs (issue 30): `validate`, `sign`,
// `verify`, `id` and the signature doctor read messages of the spec of `--spec DIR` (or the
// project found from the current folder), not only the protocols compiled into the CLI. The spec
// is loaded and checked as `generate` does, its schemas compiled by the same ajv setup
// (model/schema-compiler.ts) and the TS runtime does the rest, so a protocol module built here
// exposes the same names and verdicts as generated/ts/<protocol>/index.js. What the bindings need
// from the checked spec (SpecBuild: schemas and declarations, plain JSON) is kept in a disk cache
// (spec-cache.ts), so only the first run after a change loads and checks the spec; one build per
// process either way.
import type { JsonSchema, Model } from "../model/types.js";
import type { ContentAddress, CrossFieldRule, SignatureDeclaration } from "../model/declarations.js";
import { canonicalizationDialects } from "../model/dialects.js";
import { nestedContentAddressed } from "../model/queries.js";
import { createSchemaCompiler } from "../model/schema-compiler.js";
import { checkRules } from "../targets/ts/runtime/src/rules.js";
import { computeContentId, importCanonicalRecord, verifyContentId, type ContentAddressDeclaration } from "../targets/ts/runtime/src/content-address.js";
import { explainHmacV1 } from "../targets/ts/runtime/src/signature-doctor.js";
import { signHmacV1, verifyHmacV1, type HmacSha256V1Declaration } from "../targets/ts/runtime/src/signing-hmac-v1.js";
import { parseAndValidate, runValidator, type CompiledValidator } from "../targets/ts/runtime/src/validation.js";
import { parseAllErrors, type AllErrorsResult } from "../targets/ts/runtime/src/all-errors.js";
import type { CanonicalizationDialect } from "../targets/ts/runtime/src/canonical-dialects.js";
import type { JsonObject, JsonValue } from "../targets/ts/runtime/src/json-value.js";
import { formatSpecError, UsageError } from "./io.js";
import { cliVersion } from "./project.js";
import { readSpecCache, specCacheDir, specCacheKey, writeSpecCache } from "./spec-cache.js";

/** What the bindings need of a checked spec, as plain JSON (the disk cache stores it). */
export interface SpecBuild {
  /** Every schema to compile, shared ones first, in the order the model lists them. */
  schemas: JsonSchema[];
  protocols: {
    id: string;
    /** canonicalizationDialects(protocol): the signature doctor's recorded dialects. */
    dialects: object[];
    messages: {
      id: string;
      name: string;
      rules: CrossFieldRule[];
      signature?: SignatureDeclaration;
      contentAddress?: ContentAddress;
      /** nestedContentAddressed: properties holding content-addressed messages, by message name. */
      nested: { property: string; message: string }[];
    }[];
  }[];
}

export interface SpecBindings {
  /** Every protocol id of the spec, for "unknown protocol" messages. */
  protocols: string[];
  /** The protocol's module, named as the generated one (parse<Name>, validate<Name>, <NAME>_SIGNATURE, …), or undefined. */
  protocol(id: string): Record<string, unknown> | undefined;
  /** Every message of the spec as { protocol, name }. */
  listMessages(): { protocol: string; name: string }[];
  /** `validate --all-errors`: every error, from validators compiled with ajv's allErrors. */
  parseMessageAllErrors(protocol: string, name: string, input: Uint8Array, options: { maxErrors: number }): AllErrorsResult<unknown>;
}

const built = new Map<string, SpecBindings>();

export interface SpecBindingsOptions {
  /** Where one-line notes go (a corrupt cache entry ignored, a cache that cannot be written). */
  warn: (line: string) => void;
  /** The cache folder; default specCacheDir() (AGENT_CONTRACTS_CACHE_DIR, XDG_CACHE_HOME, ~/.cache). */
  cacheDir?: string;
}

/** The bindings of the spec project at `root`; a spec error is a usage error naming file:line:col. */
export async function specBindings(root: string, options: SpecBindingsOptions): Promise<SpecBindings> {
  const cached = built.get(root);
  if (cached !== undefined) return cached;
  const bindings = bindingsOfBuild(await specBuild(root, options));
  built.set(root, bindings);
  return bindings;
}

/** The spec's build from the disk cache, or loaded, checked and then cached. */
export async function specBuild(root: string, options: SpecBindingsOptions): Promise<SpecBuild> {
  const dir = options.cacheDir ?? specCacheDir();
  const key = specCacheKey(root, cliVersion());
  const body = readSpecCache(dir, key, options.warn);
  if (body !== undefined) return JSON.parse(body) as SpecBuild;
  const { loadModel } = await import("../pipeline.js");
  const loaded = loadModel(root);
  if (!loaded.ok) throw new UsageError(`the spec at ${root} has errors (agent-contracts generate --spec ${root} lists them):\n${loaded.errors.slice(0, 5).map(formatSpecError).join("\n")}`);
  const build = buildOf(loaded.model);
  writeSpecCache(dir, key, JSON.stringify(build), options.warn);
  return build;
}

/** What the bindings need of a model. */
export function buildOf(model: Model): SpecBuild {
  return {
    schemas: [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))],
    protocols: model.protocols.map((p) => ({
      id: p.id,
      dialects: canonicalizationDialects(p),
      messages: p.messages.map((m) => ({
        id: m.id,
        name: m.name,
        rules: m.rules,
        ...(m.signature === undefined ? {} : { signature: m.signature }),
        ...(m.contentAddress === undefined ? {} : { contentAddress: m.contentAddress }),
        nested: nestedContentAddressed(m, p).map((n) => ({ property: n.property, message: n.message.name })),
      })),
    })),
  };
}

/** The bindings of an already loaded model (the mock command has the model for its routes). */
export function bindingsOf(model: Model): SpecBindings {
  return bindingsOfBuild(buildOf(model));
}

function bindingsOfBuild(build: SpecBuild): SpecBindings {
  const schemas = build.schemas;
  const ajv = createSchemaCompiler(schemas);
  let ajvAll: ReturnType<typeof createSchemaCompiler> | undefined;
  const modules = new Map<string, Record<string, unknown>>();
  type BuiltProtocol = SpecBuild["protocols"][number];
  const moduleOf = (protocol: BuiltProtocol): Record<string, unknown> => {
    const mod: Record<string, unknown> = {};
    const validators = new Map<string, (value: unknown) => ReturnType<typeof runValidator>>();
    for (const m of protocol.messages) {
      const schema = ajv.getSchema(m.id) as CompiledValidator | undefined;
      if (schema === undefined) throw new Error(`no compiled schema for ${m.id}`);
      const rules = m.rules.length === 0 ? undefined : (value: unknown) => checkRules(value, m.rules);
      const validate = (value: unknown) => runValidator(schema, rules, value);
      validators.set(m.name, validate);
      mod[`validate${m.name}`] = validate;
      mod[`parse${m.name}`] = (input: string | Uint8Array) => parseAndValidate(input, validate);
    }
    const dialects = protocol.dialects as unknown as CanonicalizationDialect[];
    for (const m of protocol.messages) {
      const constant = m.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
      if (m.signature !== undefined) {
        const decl = m.signature as unknown as HmacSha256V1Declaration;
        mod[`${constant}_SIGNATURE`] = decl;
        mod[`compute${m.name}Signature`] = (message: JsonObject, key: string | Uint8Array) => signHmacV1(decl, message, key);
        mod[`verify${m.name}Signature`] = (message: JsonObject, key: string | Uint8Array) => verifyHmacV1(decl, message, key);
        mod[`explain${m.name}Signature`] = (text: string, key: string | Uint8Array) => explainHmacV1(decl, dialects, text, key);
      }
      if (m.contentAddress !== undefined) {
        const decl = m.contentAddress as unknown as ContentAddressDeclaration;
        const nested = m.nested.map((n) => ({ property: n.property, decl: protocol.messages.find((x) => x.name === n.message)!.contentAddress as unknown as ContentAddressDeclaration }));
        const validate = validators.get(m.name)!;
        mod[`${constant}_CONTENT_ADDRESS`] = decl;
        mod[`compute${m.name}Id`] = (record: JsonObject) => computeContentId(decl, record);
        mod[`verify${m.name}Id`] = (record: JsonObject) => verifyContentId(decl, record);
        mod[`import${m.name}`] = (input: string | Uint8Array) =>
          importCanonicalRecord(decl, input, (value: JsonValue) => validate(value).ok && nested.every((n) => verifyContentId(n.decl, (value as JsonObject)[n.property] as JsonObject)));
      }
    }
    return mod;
  };
  return {
    protocols: build.protocols.map((p) => p.id),
    protocol(id) {
      const protocol = build.protocols.find((p) => p.id === id);
      if (protocol === undefined) return undefined;
      if (!modules.has(id)) modules.set(id, moduleOf(protocol));
      return modules.get(id);
    },
    listMessages: () => build.protocols.flatMap((p) => p.messages.map((m) => ({ protocol: p.id, name: m.name }))),
    parseMessageAllErrors(protocolId, name, input, options) {
      const message = build.protocols.find((p) => p.id === protocolId)?.messages.find((m) => m.name === name);
      const validate = this.protocol(protocolId)?.[`validate${name}`] as ((value: unknown) => ReturnType<typeof runValidator>) | undefined;
      if (message === undefined || validate === undefined) throw new UsageError(`unknown message ${protocolId} ${name}`);
      ajvAll ??= createSchemaCompiler(schemas, { allErrors: true });
      return parseAllErrors(ajvAll.getSchema(message.id) as CompiledValidator, validate, input, options);
    },
  };
}
