// Stage 2: is the spec well-formed? Meta-schemas first, then lints, then every example against
// the validator it documents. Later checks only run on files that passed earlier ones.
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { LoadedSpec } from "../load/load-spec.js";
import type { SpecFile } from "../load/spec-file.js";
import { joinPointer } from "../load/spec-file.js";
import { createSchemaCompiler } from "../model/schema-compiler.js";
import type { JsonSchema, JsonValue, SpecError } from "../model/types.js";
import { checkRules, type CrossFieldRule } from "../targets/ts/runtime/src/rules.js";
import { runValidator, type CompiledValidator } from "../targets/ts/runtime/src/validation.js";
import { lintIdMatchesFile, lintRefs, lintRulePointers, lintSchemaShapes, reporter } from "./lints.js";
import { checkProtocolReferences } from "./protocol-lints.js";
import { lintIntegerRange } from "./number-lints.js";
import { lintLinearPatterns } from "./regex-lint.js";

export function checkSpec(spec: LoadedSpec): SpecError[] {
  const errors: SpecError[] = [];
  const meta = new Ajv2020({ allErrors: true, strict: false });
  for (const m of spec.metaSchemas) meta.addSchema(m.value as object);
  const messageMeta = meta.getSchema("https://agent-contracts.dev/meta/message.schema.json");
  const protocolMeta = meta.getSchema("https://agent-contracts.dev/meta/protocol.schema.json");
  if (!messageMeta || !protocolMeta) throw new Error("spec/meta is missing message.schema.json or protocol.schema.json");

  const schemaFiles = [...spec.common, ...spec.protocols.flatMap((p) => p.messageFiles)];
  for (const file of schemaFiles) {
    metaCheck(file, (v) => meta.validateSchema(v as object) as boolean, () => meta.errors, "json-schema-2020-12", errors);
  }
  for (const protocol of spec.protocols) {
    metaCheck(protocol.protocolFile, messageValidate(protocolMeta), () => protocolMeta.errors, "protocol-meta-schema", errors);
    for (const file of protocol.messageFiles) {
      metaCheck(file, messageValidate(messageMeta), () => messageMeta.errors, "message-meta-schema", errors);
      lintIdMatchesFile(file, protocol.id, errors);
    }
    if (errors.length === 0) checkProtocolReferences(protocol, errors, spec.root);
  }
  if (errors.length > 0) return errors;

  const schemasById = new Map<string, JsonValue>(schemaFiles.map((f) => [String((f.value as JsonSchema)["$id"]), f.value]));
  for (const file of schemaFiles) {
    lintSchemaShapes(file, errors);
    lintRefs(file, schemasById, errors);
    lintRulePointers(file, schemasById, errors);
    lintLinearPatterns(file, errors);
    lintIntegerRange(file, errors);
  }
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
    ajv = createSchemaCompiler(schemaFiles.map((f) => f.value as JsonSchema));
  } catch (error) {
    const file = schemaFiles[0]!;
    errors.push({ file: file.file, line: 1, column: 1, pointer: "", message: `schemas do not compile: ${(error as Error).message}`, lint: "compile" });
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
      const check = (value: unknown) => runValidator(validate!, (v) => checkRules(v, rules), value);
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
