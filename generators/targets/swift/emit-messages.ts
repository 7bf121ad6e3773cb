// Message types: a struct per titled object, an enum with associated values per discriminated
// union, a String enum per string enum; root messages also conform to ContractMessage.
import type { Protocol } from "../../model/types.js";
import { docComment, docText, stringLiteral, typeName } from "./naming.js";
import { jsonValueLiteral, swiftLiteral } from "./emit-support.js";
import type { ProtocolTypes, SwiftStruct, SwiftUnion } from "./types.js";
import { renderEnum } from "./emit-enums.js";
import { compiledRulesMember } from "./emit-compiled-rules.js";

/** `validatorOf`: the generated validator enum of each schema document, by `$id` (emit-validators.ts). */
export function renderMessages(protocol: Protocol, namespace: string, types: ProtocolTypes, validatorOf: ReadonlyMap<string, string>): string {
  const roots = new Map(protocol.messages.map((m) => [typeName(m.name), m]));
  const out: string[] = ["import Foundation", "", docComment(`${protocol.title} (${protocol.id} ${protocol.version}). ${protocol.summary}`, "") + `public enum ${namespace} {}`, ""];
  const decls = [...types.decls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const decl of decls) {
    const message = roots.get(decl.name);
    const body = decl.kind === "struct" ? renderStruct(decl, "    ") : decl.kind === "union" ? renderUnion(decl, "    ") : renderEnum(decl, "    ", true);
    const conformance = message === undefined ? "" : messageConformance(message.id, message.rules, validatorFor(validatorOf, message.id), "        ");
    out.push(`extension ${namespace} {\n${insertConformance(body, message !== undefined, conformance)}}\n`);
  }
  return out.join("\n");
}

/** Root messages conform to ContractMessage (schema id and rules); other types are plain Codable. */
function insertConformance(body: string, isMessage: boolean, members: string): string {
  if (!isMessage) return body;
  const header = ": Codable, JSONValueDecodable, Equatable, Sendable {\n";
  if (body.includes(header)) return body.replace(header, `: ContractMessage, Equatable {\n${members}\n`);
  return body.replace("Codable, JSONValueDecodable, CaseIterable, Sendable {\n", `ContractMessage, CaseIterable {\n${members}\n`);
}

function validatorFor(validatorOf: ReadonlyMap<string, string>, id: string): string {
  const name = validatorOf.get(id);
  if (name === undefined) throw new Error(`Swift: no generated validator for the message schema ${id}`);
  return name;
}

function messageConformance(id: string, rules: Protocol["messages"][number]["rules"], validator: string, indent: string): string {
  const ruleLines = rules.map((r) => {
    switch (r.kind) {
      case "equal":
        return `.equal(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, left: ${stringLiteral(r.left)}, right: ${stringLiteral(r.right)})`;
      case "urlOriginIn":
        return `.urlOriginIn(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, url: ${stringLiteral(r.url)}, list: ${stringLiteral(r.list)})`;
      case "semverLte":
        return `.semverLte(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, lower: ${stringLiteral(r.lower)}, upper: ${stringLiteral(r.upper)})`;
      case "semverRangeIncludes":
        return `.semverRangeIncludes(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, min: ${stringLiteral(r.min)}, max: ${stringLiteral(r.max)}, version: ${stringLiteral(r.version)})`;
      case "uniqueBy":
        return `.uniqueBy(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, array: ${stringLiteral(r.array)}, key: ${stringLiteral(r.key)})`;
      case "lastItemEquals":
        return `.lastItemEquals(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, array: ${stringLiteral(r.array)}, key: ${stringLiteral(r.key)}, value: ${stringLiteral(r.value)})`;
      case "noSecrets":
        return `.noSecrets(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, text: ${stringLiteral(r.text)})`;
      case "whatwgUrl":
        return `.whatwgURL(id: ${stringLiteral(r.id)}, message: ${stringLiteral(r.message)}, url: ${stringLiteral(r.url)}, form: ${stringLiteral(r.form)})`;
    }
  });
  const rulesText = ruleLines.length === 0 ? "[]" : `[\n${ruleLines.map((l) => `${indent}    ${l},`).join("\n")}\n${indent}]`;
  const schema = `${indent}/// The schema's checks as generated code (Validators/${validator}.swift).\n${indent}public static func validateSchema(_ value: JSONValue) -> [ValidationError] { ${validator}.validate(value) }\n`;
  return `${indent}public static let schemaID = ${stringLiteral(id)}\n${schema}${indent}/// Cross-field rules (x-rules), checked after the schema.\n${indent}public static let rules: [CrossFieldRule] = ${rulesText}\n${compiledRulesMember(rules, indent)}`;
}

export function renderStruct(decl: SwiftStruct, indent: string): string {
  const i1 = `${indent}    `;
  const i2 = `${i1}    `;
  const stored = decl.properties.filter((p) => p.constant === undefined);
  const constants = decl.properties.filter((p) => p.constant !== undefined);
  const typeText = (p: (typeof stored)[number]): string => `${p.type}${p.optional ? "?" : ""}`;
  const lines: string[] = [docComment(decl.description, indent) + `${indent}public struct ${decl.name}: Codable, JSONValueDecodable, Equatable, Sendable {`];
  for (const nested of decl.nested) lines.push(renderEnum(nested, i1, false), "");
  for (const p of stored) {
    const doc = docText(p.description);
    const note = p.nullableRequired ? "Always present on the wire; nil is written as null." : "";
    lines.push(docComment([doc, note].filter((t) => t !== "").join(" "), i1) + `${i1}public var ${p.swift}: ${typeText(p)}`);
  }
  for (const p of constants) {
    lines.push(docComment(`${docText(p.description)} Always ${JSON.stringify(p.constant)}.`.trim(), i1) + `${i1}public var ${p.swift}: ${p.type} { ${swiftLiteral(p.constant!)} }`);
  }
  // Memberwise initializer: optional members default to nil.
  const params = stored.map((p) => `${p.swift}: ${typeText(p)}${p.optional && !p.nullableRequired ? " = nil" : ""}`);
  lines.push("");
  lines.push(`${i1}public init(${params.join(", ")}) {`);
  for (const p of stored) lines.push(`${i2}self.${p.swift} = ${p.swift}`);
  lines.push(`${i1}}`);
  // Coding keys: JSON names, always spelled out.
  if (decl.properties.length > 0) {
    lines.push("", `${i1}private enum CodingKeys: String, CodingKey {`);
    for (const p of decl.properties) {
      const bare = p.swift.replace(/`/g, "");
      lines.push(bare === p.json ? `${i2}case ${p.swift}` : `${i2}case ${p.swift} = ${stringLiteral(p.json)}`);
    }
    lines.push(`${i1}}`);
  }
  // Decoding: unknown members, constants, then each member.
  lines.push("", `${i1}public init(from decoder: Decoder) throws {`);
  if (decl.closed) {
    lines.push(`${i2}try ContractCoding.rejectUnknownKeys(decoder, known: [${decl.properties.map((p) => stringLiteral(p.json)).join(", ")}], type: ${stringLiteral(decl.name)})`);
  }
  for (const p of constants) {
    lines.push(`${i2}try ContractCoding.expectConstant(decoder, key: ${stringLiteral(p.json)}, expected: ${jsonValueLiteral(p.constant!)}, type: ${stringLiteral(decl.name)})`);
  }
  if (stored.length > 0) {
    lines.push(`${i2}let container = try decoder.container(keyedBy: CodingKeys.self)`);
    for (const p of stored) {
      const key = `.${p.swift}`;
      if (p.nullableRequired) lines.push(`${i2}${p.swift} = try container.decode(${p.type}?.self, forKey: ${key})`);
      else if (p.optional) lines.push(`${i2}${p.swift} = try container.decodeIfPresent(${p.type}.self, forKey: ${key})`);
      else lines.push(`${i2}${p.swift} = try container.decode(${p.type}.self, forKey: ${key})`);
    }
  } else if (!decl.closed && constants.length === 0) {
    lines.push(`${i2}_ = try decoder.container(keyedBy: AnyCodingKey.self)`);
  }
  lines.push(`${i1}}`);
  lines.push("", ...structReader(decl, i1));
  lines.push("", `${i1}public func encode(to encoder: Encoder) throws {`);
  if (decl.properties.length > 0) {
    lines.push(`${i2}var container = encoder.container(keyedBy: CodingKeys.self)`);
    for (const p of decl.properties) {
      const key = `.${p.swift}`;
      if (p.constant !== undefined) lines.push(`${i2}try container.encode(${swiftLiteral(p.constant)}, forKey: ${key})`);
      else if (p.nullableRequired) lines.push(`${i2}try container.encode(${p.swift}, forKey: ${key})`);
      else if (p.optional) lines.push(`${i2}try container.encodeIfPresent(${p.swift}, forKey: ${key})`);
      else lines.push(`${i2}try container.encode(${p.swift}, forKey: ${key})`);
    }
  } else {
    lines.push(`${i2}_ = encoder.container(keyedBy: AnyCodingKey.self)`);
  }
  lines.push(`${i1}}`);
  lines.push(`${indent}}`);
  return lines.join("\n") + "\n";
}

function renderUnion(decl: SwiftUnion, indent: string): string {
  const i1 = `${indent}    `;
  const i2 = `${i1}    `;
  const lines: string[] = [docComment(decl.description, indent) + `${indent}public enum ${decl.name}: Codable, JSONValueDecodable, Equatable, Sendable {`];
  for (const c of decl.cases) {
    lines.push(docComment(`${decl.tagKey} ${c.tags.map((t) => JSON.stringify(t)).join(" or ")}`, i1) + `${i1}case ${c.name}(${c.type})`);
  }
  lines.push("", `${i1}/// The member whose value picks the variant.`, `${i1}public static let tagKey = ${stringLiteral(decl.tagKey)}`);
  lines.push("", `${i1}public init(from decoder: Decoder) throws {`);
  lines.push(`${i2}let tag = try ContractCoding.tag(decoder, key: Self.tagKey)`);
  lines.push(`${i2}switch tag {`);
  for (const c of decl.cases) {
    lines.push(`${i2}case ${c.tags.map(jsonValueLiteral).join(", ")}:`);
    lines.push(`${i2}    self = .${c.name}(try ${c.type}(from: decoder))`);
  }
  lines.push(`${i2}default:`, `${i2}    throw ContractCoding.unknownTag(decoder, key: Self.tagKey, value: tag, type: ${stringLiteral(decl.name)})`);
  lines.push(`${i2}}`, `${i1}}`);
  lines.push("", ...unionReader(decl, i1));
  lines.push("", `${i1}public func encode(to encoder: Encoder) throws {`, `${i2}switch self {`);
  for (const c of decl.cases) lines.push(`${i2}case let .${c.name}(value):`, `${i2}    try value.encode(to: encoder)`);
  lines.push(`${i2}}`, `${i1}}`);
  lines.push(`${indent}}`);
  return lines.join("\n") + "\n";
}

/** `init(jsonValue:)`: the members read from the parsed value directly (Runtime/JSONValueDecodable.swift), with Codable's checks. */
function structReader(decl: SwiftStruct, i1: string): string[] {
  const i2 = `${i1}    `;
  const type = stringLiteral(decl.name);
  const lines = [`${i1}/// Reads a parsed value (what \`decode(json:)\` does after validating it), refusing one that does not fit this type.`];
  lines.push(`${i1}public init(jsonValue value: JSONValue) throws {`);
  if (decl.properties.length === 0 && !decl.closed) {
    lines.push(`${i2}_ = try JSONValueReading.object(value, type: ${type})`, `${i1}}`);
    return lines;
  }
  lines.push(`${i2}let object = try JSONValueReading.object(value, type: ${type})`);
  if (decl.closed) lines.push(`${i2}try JSONValueReading.rejectUnknownMembers(object, known: Self.knownMembers, type: ${type})`);
  for (const p of decl.properties) {
    const key = stringLiteral(p.json);
    if (p.constant !== undefined) lines.push(`${i2}try JSONValueReading.expectConstant(object, ${key}, ${jsonValueLiteral(p.constant)}, type: ${type})`);
    else if (p.optional && !p.nullableRequired) lines.push(`${i2}self.${p.swift} = try JSONValueReading.optional(object, ${key})`);
    else lines.push(`${i2}self.${p.swift} = try JSONValueReading.required(object, ${key})`);
  }
  lines.push(`${i1}}`);
  if (decl.closed) lines.push("", `${i1}private static let knownMembers: [String] = [${decl.properties.map((p) => stringLiteral(p.json)).join(", ")}]`);
  return lines;
}

function unionReader(decl: SwiftUnion, i1: string): string[] {
  const i2 = `${i1}    `;
  const type = stringLiteral(decl.name);
  const lines = [`${i1}/// Reads a parsed value: the variant its tag names, read as that variant's type.`];
  lines.push(`${i1}public init(jsonValue value: JSONValue) throws {`);
  lines.push(`${i2}switch try JSONValueReading.tag(try JSONValueReading.object(value, type: ${type}), Self.tagKey) {`);
  for (const c of decl.cases) lines.push(`${i2}case ${c.tags.map(jsonValueLiteral).join(", ")}:`, `${i2}    self = .${c.name}(try ${c.type}(jsonValue: value))`);
  lines.push(`${i2}default:`, `${i2}    throw JSONValueReading.unknownTag(Self.tagKey, type: ${type})`, `${i2}}`, `${i1}}`);
  return lines;
}
