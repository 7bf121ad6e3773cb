// Stage 2: is the spec well-formed? Meta-schemas first, then lints, then every example against
// the validator it documents. Later checks only run on files that passed earlier ones.
import type { Ajv2020, ErrorObject } from "ajv/dist/2020.js";
import { checkConfigFile } from "../breaking/config.js";
import { RULES } from "../breaking/rules.js";
import { checkLifecycleFile, lifecycleName } from "../lifecycles/load.js";
import { PROJECT_FILE, type LoadedSpec } from "../load/load-spec.js";
import { enabledPolicyLints, projectIdentity, type PolicyLints, type ProjectIdentity } from "../model/project.js";
import { checkPolicy } from "./policy-lints.js";
import { lintTargetKeywords, lintUnknownKeywords, type TargetSupport } from "./keyword-lints.js";
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import { SchemaKeywordError } from "../model/runtime-keywords.js";
import type { CrossFieldRule, JsonSchema, JsonValue, Lifecycle, SpecError } from "../model/types.js";
import { createMetaAjv, META_IDS } from "./meta.js";
import { referenceCheck, referenceCompiler, type CompiledValidator } from "./reference-validator.js";
import { lintIdMatchesFile, lintRefs, lintRulePointers, lintSchemaShapes, reporter } from "./lints.js";
import { checkProtocolReferences } from "./protocol-lints.js";
import { lintIntegerRange } from "./number-lints.js";
import { lintRefCycles } from "./ref-cycles.js";
import { lintLinearPatterns } from "./regex-lint.js";

export interface CheckedSpec {
  errors: SpecError[];
  /** Each protocol's lifecycles as the lifecycle checks built them, by protocol id. */
  lifecycles: Map<string, Lifecycle[]>;
}

export interface CheckOptions {
  /** The targets `generate` will run, with what each runtime enforces: a keyword one lacks is refused. */
  targets?: readonly TargetSupport[];
}

export function checkSpec(spec: LoadedSpec, options: CheckOptions = {}): CheckedSpec {
  const lifecycles = new Map<string, Lifecycle[]>();
  const meta = createMetaAjv(spec.metaSchemas.map((m) => m.value));
  const project = checkProjectFile(spec, meta);
  if (!project.ok) return { errors: project.errors, lifecycles };
  const errors = checkSchemas(spec, meta, lifecycles, project.identity.schemaBase, enabledPolicyLints(spec.project?.value), options.targets ?? []);
  return { errors, lifecycles };
}

/** spec/project.yaml: present (every project names itself) and of the meta-schema's shape. */
function checkProjectFile(spec: LoadedSpec, meta: Ajv2020): { ok: true; identity: ProjectIdentity } | { ok: false; errors: SpecError[] } {
  const file = spec.project;
  if (file === undefined) {
    const message = "spec/project.yaml is missing: the project's name, version, $id prefix and package names (agent-contracts init writes one)";
    return { ok: false, errors: [{ file: PROJECT_FILE, line: 1, column: 1, pointer: "", message, lint: "project-meta-schema" }] };
  }
  const projectMeta = meta.getSchema(META_IDS.project);
  if (!projectMeta) throw new Error("spec/meta is missing project.schema.json");
  const errors: SpecError[] = [];
  metaCheck(file, messageValidate(projectMeta), () => projectMeta.errors, "project-meta-schema", errors);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, identity: projectIdentity(file.value) };
}

/**
 * The lifecycle files of one protocol, checked on their own (meta-schema, then the machine lints).
 * Run before protocol.yaml's references, which read the machines: an error in a machine file is
 * reported at that file instead of as unresolved references in protocol.yaml.
 */
function checkLifecycles(protocol: LoadedSpec["protocols"][number], meta: Ajv2020, lifecycles: Map<string, Lifecycle[]>, errors: SpecError[]): void {
  const lifecycleMeta = meta.getSchema(META_IDS.lifecycle);
  if (!lifecycleMeta) throw new Error("spec/meta is missing lifecycle.schema.json");
  const messageNames = new Set(protocol.messageFiles.map((f) => String((f.value as JsonSchema)["title"])));
  const checked = protocol.lifecycleFiles.map((file) => checkLifecycleFile(file, protocol.id, lifecycleName(file.file), lifecycleMeta, { messageNames }));
  errors.push(...checked.flatMap((c) => c.errors));
  lifecycles.set(protocol.id, checked.flatMap((c) => (c.lifecycle === undefined ? [] : [c.lifecycle])));
}

/** Meta-schemas first, then lints, then every example against the validator it documents. */
function checkSchemas(spec: LoadedSpec, meta: Ajv2020, lifecycles: Map<string, Lifecycle[]>, schemaBase: string, policy: PolicyLints, targets: readonly TargetSupport[]): SpecError[] {
  const errors: SpecError[] = [];
  const messageMeta = meta.getSchema(META_IDS.message);
  const protocolMeta = meta.getSchema(META_IDS.protocol);
  if (!messageMeta || !protocolMeta) throw new Error("spec/meta is missing message.schema.json or protocol.schema.json");

  const schemaFiles = [...spec.common, ...spec.protocols.flatMap((p) => p.messageFiles)];
  for (const file of schemaFiles) {
    metaCheck(file, (v) => meta.validateSchema(v as object) as boolean, () => meta.errors, "json-schema-2020-12", errors);
  }
  for (const protocol of spec.protocols) {
    metaCheck(protocol.protocolFile, messageValidate(protocolMeta), () => protocolMeta.errors, "protocol-meta-schema", errors);
    for (const file of protocol.messageFiles) {
      metaCheck(file, messageValidate(messageMeta), () => messageMeta.errors, "message-meta-schema", errors);
      lintIdMatchesFile(file, protocol.id, schemaBase, errors);
    }
    checkPolicy(protocol, policy, errors);
    checkLifecycles(protocol, meta, lifecycles, errors);
    if (errors.length === 0) checkProtocolReferences(protocol, errors, spec.root, policy.has("section-coverage"));
  }
  errors.push(...checkConfigFile(spec.root, meta, new Set(RULES.map((r) => r.id))));
  if (errors.length > 0) return errors;

  const schemasById = new Map<string, JsonValue>(schemaFiles.map((f) => [String((f.value as JsonSchema)["$id"]), f.value]));
  for (const file of schemaFiles) {
    lintUnknownKeywords(file, errors);
    lintTargetKeywords(file, targets, errors);
    lintSchemaShapes(file, errors);
    lintRefs(file, schemasById, errors);
    lintRulePointers(file, schemasById, errors);
    lintLinearPatterns(file, errors);
    lintIntegerRange(file, errors);
  }
  if (errors.length === 0) lintRefCycles(schemaFiles, schemasById, errors);
  if (errors.length > 0) return errors;

  checkExamples(spec, schemaFiles, errors);
  return errors;
}

function messageValidate(v: (value: unknown) => unknown): (value: JsonValue) => boolean {
  return (value) => v(value) as boolean;
}

function metaCheck(file: SpecFile, validate: (v: JsonValue) => boolean, errorsOf: () => ErrorObject[] | null | undefined, lint: string, out: SpecError[]): void {
  if (validate(file.value)) return;
  const report = reporter(file, lint, out);
  const seen = new Set<string>();
  for (const e of errorsOf() ?? []) {
    // oneOf/if noise repeats what the branch errors say; keep the specific ones.
    if (e.keyword === "oneOf" || e.keyword === "if" || e.keyword === "anyOf" || e.keyword === "propertyNames") continue;
    // A bad key (propertyNames) is reported at the key itself.
    const pointer = e.propertyName !== undefined ? joinPointer(e.instancePath, e.propertyName) : e.instancePath;
    const subject = e.propertyName !== undefined ? `key ${e.propertyName} is not allowed: ` : "";
    const detail = e.keyword === "additionalProperties" ? ` (${String(e.params["additionalProperty"])})` : e.keyword === "enum" ? `: ${JSON.stringify(e.params["allowedValues"])}` : "";
    const text = `${subject}${e.message ?? "is invalid"}${detail}`;
    const key = `${pointer} ${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    report(pointer, text);
  }
}

function checkExamples(spec: LoadedSpec, schemaFiles: SpecFile[], errors: SpecError[]): void {
  let ajv;
  try {
    ajv = referenceCompiler(schemaFiles.map((f) => f.value as JsonSchema));
  } catch (error) {
    // A keyword or format the runtimes do not enforce: reported in its file, at its JSON pointer.
    const file = error instanceof SchemaKeywordError ? schemaFiles.find((f) => (f.value as JsonSchema)["$id"] === error.document) : undefined;
    if (error instanceof SchemaKeywordError && file !== undefined) {
      reporter(file, "runtime-keywords", errors)(error.pointer, `${error.detail} (generators/targets/runtime-keywords.json)`);
      return;
    }
    const first = schemaFiles[0]!;
    errors.push({ file: first.file, line: 1, column: 1, pointer: "", message: `schemas do not compile: ${(error as Error).message}`, lint: "compile" });
    return;
  }
  for (const protocol of spec.protocols) {
    for (const file of protocol.messageFiles) {
      const schema = file.value as JsonSchema;
      const report = reporter(file, "examples", errors);
      let validate: CompiledValidator | undefined;
      try {
        validate = ajv.getSchema(String(schema["$id"])) as CompiledValidator | undefined;
      } catch (error) {
        report("", `schema does not compile: ${(error as Error).message}`);
        continue;
      }
      if (!validate) continue;
      const rules = (schema["x-rules"] ?? []) as unknown as CrossFieldRule[];
      const check = (value: unknown) => referenceCheck(validate!, rules, value);
      ((schema["examples"] ?? []) as JsonValue[]).forEach((example, i) => {
        const result = check(example);
        if (!result.ok) {
          const e = result.errors[0]!;
          report(joinPointer("/examples", i), `valid example fails: ${e.instancePath || "(root)"} ${e.keyword}: ${e.message}`);
        }
      });
      ((schema["x-invalid-examples"] ?? []) as JsonSchema[]).forEach((example, i) => {
        const expected = example["error"] as JsonSchema;
        const result = check(example["instance"]);
        const where = joinPointer("/x-invalid-examples", i);
        if (result.ok) {
          report(where, `invalid example "${String(example["description"])}" passes validation`);
          return;
        }
        const e = result.errors[0]!;
        const ruleOk = expected["rule"] === undefined || e.params["rule"] === expected["rule"];
        if (e.instancePath !== expected["instancePath"] || e.keyword !== expected["keyword"] || !ruleOk) {
          const got = `${e.instancePath || "(root)"} ${e.keyword}${e.params["rule"] ? ` (${String(e.params["rule"])})` : ""}`;
          const want = `${String(expected["instancePath"]) || "(root)"} ${String(expected["keyword"])}${expected["rule"] ? ` (${String(expected["rule"])})` : ""}`;
          report(joinPointer(where, "error"), `invalid example "${String(example["description"])}" fails at ${got}, declared ${want}: ${e.message}`);
        }
      });
    }
  }
}
