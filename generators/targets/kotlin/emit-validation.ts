// Validation for the Kotlin bindings: every protocol's JSON Schemas as one JSON resource (the
// validator view: no descriptions, examples or x- annotations), read by the hand-written
// interpreter runtime/JsonSchemaValidator.kt, and a generated `<Protocol>Validators` object that
// names each message's schema, holds its x-rules as Kotlin values (the reference evaluation) and
// checks them with straight-line code (emit-compiled-rules.ts). Pure.
import type { CrossFieldRule, JsonSchema, JsonValue, Message, Model, OutputFile, Protocol } from "../../model/types.js";
import { PROSE_AND_EXAMPLES, validatorView } from "../../emit/validator-view.js";
import { lengthFirst } from "../../model/length-first.js";
import { compiledRulesContext } from "./emit-compiled-rules.js";
import { schemaCode, type SchemaCode } from "./emit-schema-code.js";
import { pascalCase, protocolPackage, stringLiteral, validatorsName } from "./kotlin-names.js";

/** `<Protocol>Schemas`, the generated code of a protocol's JSON Schemas (emit-schema-code.ts). */
export function schemasName(protocolId: string): string {
  return `${pascalCase(protocolId)}Schemas`;
}

/** The interpreter needs no prose, titles or defaults, and no x- keys (rules become Kotlin code). */
const dropForKotlin = (keyword: string): boolean => keyword.startsWith("x-") || keyword === "title" || keyword === "default" || PROSE_AND_EXAMPLES.has(keyword);

export function schemaResourcePath(protocol: Protocol): string {
  return `dev/agentcontracts/schemas/${protocol.id}.json`;
}

/** Every schema document a protocol's messages can reach, the shared ones and its messages, as the validators read them. */
function validatorDocuments(model: Model, protocol: Protocol): JsonValue[] {
  return [...model.shared.map((s) => s.schema), ...protocol.messages.map((m) => m.schema)].map((d) => validatorView(lengthFirst(d), dropForKotlin));
}

/** The schema documents as one JSON resource: what the interpreter (the generated checks' test oracle) loads. */
export function emitSchemaResource(model: Model, protocol: Protocol): OutputFile {
  const documents = validatorDocuments(model, protocol);
  return {
    path: `src/main/resources/${schemaResourcePath(protocol)}`,
    contents: `${JSON.stringify(documents)}\n`,
    sources: [...model.shared.map((s) => s.location.file), ...protocol.messages.map((m) => m.location.file)],
  };
}


/** The same documents as `<Protocol>Schemas`: one Kotlin function per reachable subschema (emit-schema-code.ts). */
export function schemaCodeOf(model: Model, protocol: Protocol): SchemaCode {
  return schemaCode(validatorDocuments(model, protocol), protocol.messages.map((m) => m.id));
}

/** Template context of `<Protocol>Schemas.kt`. */
export function schemasContext(protocol: Protocol, code: SchemaCode): object {
  return { package: protocolPackage(protocol.id), protocolId: protocol.id, objectName: schemasName(protocol.id), declarations: code.declarations.flatMap((d) => d.split("\n")) };
}

/** Template context of `<Protocol>Validators.kt`. */
export function validatorsContext(protocol: Protocol, code: SchemaCode): object {
  const schemas = schemasName(protocol.id);
  return {
    package: protocolPackage(protocol.id),
    protocolId: protocol.id,
    objectName: validatorsName(protocol.id),
    resourceLiteral: stringLiteral(`/${schemaResourcePath(protocol)}`),
    schemasObject: schemas,
    anyInterpreted: code.interpreted.size > 0,
    messages: protocol.messages.map((m: Message) => ({
      name: m.name,
      nameLiteral: stringLiteral(m.name),
      idLiteral: stringLiteral(m.id),
      rules: m.rules.map(ruleLiteral),
      schemaCheck: code.entries.has(m.id) ? `{ ${schemas}.${code.entries.get(m.id)}(it, "", false) }` : "null",
      interpretedBecause: code.interpreted.get(m.id),
      ...compiledRulesContext(m),
    })),
  };
}

function ruleLiteral(rule: CrossFieldRule): string {
  const s = stringLiteral;
  const head = `id = ${s(rule.id)}, message = ${s(rule.message)}`;
  switch (rule.kind) {
    case "equal":
      return `CrossFieldRule.Equal(${head}, left = ${s(rule.left)}, right = ${s(rule.right)})`;
    case "urlOriginIn":
      return `CrossFieldRule.UrlOriginIn(${head}, url = ${s(rule.url)}, list = ${s(rule.list)})`;
    case "semverLte":
      return `CrossFieldRule.SemverLte(${head}, lower = ${s(rule.lower)}, upper = ${s(rule.upper)})`;
    case "semverRangeIncludes":
      return `CrossFieldRule.SemverRangeIncludes(${head}, min = ${s(rule.min)}, max = ${s(rule.max)}, version = ${s(rule.version)})`;
    case "uniqueBy":
      return `CrossFieldRule.UniqueBy(${head}, array = ${s(rule.array)}, key = ${s(rule.key)})`;
    case "lastItemEquals":
      return `CrossFieldRule.LastItemEquals(${head}, array = ${s(rule.array)}, key = ${s(rule.key)}, value = ${s(rule.value)})`;
    case "noSecrets":
      return `CrossFieldRule.NoSecrets(${head}, text = ${s(rule.text)})`;
    case "whatwgUrl":
      return `CrossFieldRule.WhatwgUrl(${head}, url = ${s(rule.url)}, form = ${s(rule.form)})`;
  }
}
