// String enums of message members. Closed ones (x-closed-enum: the spec says why no other value
// may ever appear) are plain `String` enums whose decoding refuses anything else. Open ones follow
// smithy-swift: a catch-all case keeps a value this version does not know, so a peer's newer
// value does not make the whole message undecodable, and encodes it back unchanged.
import { docComment, stringLiteral } from "./naming.js";
import type { SwiftEnum } from "./types.js";

/** The catch-all case of an open enum: `unknown`, or `sdkUnknown` when a value is spelled "unknown". */
export function unknownCase(decl: SwiftEnum): string {
  return decl.cases.some((c) => c.name.replace(/`/g, "") === "unknown") ? "sdkUnknown" : "unknown";
}

export function renderEnum(decl: SwiftEnum, indent: string, topLevel: boolean): string {
  const text = decl.closed === undefined ? renderOpenEnum(decl, indent) : renderClosedEnum(decl, indent);
  return text + (topLevel ? "\n" : "");
}

function renderClosedEnum(decl: SwiftEnum, indent: string): string {
  const doc = [decl.description ?? "", `Closed: ${decl.closed}`].filter((t) => t !== "").join(" ");
  const lines = [docComment(doc, indent) + `${indent}public enum ${decl.name}: String, Codable, JSONValueDecodable, CaseIterable, Sendable {`];
  for (const c of decl.cases) {
    const bare = c.name.replace(/`/g, "");
    lines.push(bare === c.raw ? `${indent}    case ${c.name}` : `${indent}    case ${c.name} = ${stringLiteral(c.raw)}`);
  }
  lines.push("", `${indent}    public init(jsonValue value: JSONValue) throws {`);
  lines.push(`${indent}        guard let known = Self(rawValue: try String(jsonValue: value)) else { throw JSONValueMismatch(reason: "not a value of ${decl.name}") }`);
  lines.push(`${indent}        self = known`, `${indent}    }`);
  lines.push(`${indent}}`);
  return lines.join("\n");
}

function renderOpenEnum(decl: SwiftEnum, indent: string): string {
  const i1 = `${indent}    `;
  const i2 = `${i1}    `;
  const unknown = unknownCase(decl);
  const lines = [docComment(decl.description, indent) + `${indent}public enum ${decl.name}: RawRepresentable, Hashable, Codable, JSONValueDecodable, CaseIterable, Sendable {`];
  for (const c of decl.cases) lines.push(`${i1}case ${c.name}`);
  lines.push(`${i1}/// A value this version does not know; it encodes back unchanged.`, `${i1}case ${unknown}(String)`, "");
  lines.push(`${i1}/// The values this version knows.`, `${i1}public static let allCases: [Self] = [${decl.cases.map((c) => `.${c.name}`).join(", ")}]`, "");
  lines.push(`${i1}public init(rawValue: String) {`, `${i2}switch rawValue {`);
  for (const c of decl.cases) lines.push(`${i2}case ${stringLiteral(c.raw)}: self = .${c.name}`);
  lines.push(`${i2}default: self = .${unknown}(rawValue)`, `${i2}}`, `${i1}}`, "");
  lines.push(`${i1}public var rawValue: String {`, `${i2}switch self {`);
  for (const c of decl.cases) lines.push(`${i2}case .${c.name}: return ${stringLiteral(c.raw)}`);
  lines.push(`${i2}case let .${unknown}(value): return value`, `${i2}}`, `${i1}}`, "");
  // Equality and hashing by spelling: `.unknown("x")` built by hand equals the known case `x`.
  lines.push(`${i1}public static func == (lhs: Self, rhs: Self) -> Bool {`, `${i2}lhs.rawValue == rhs.rawValue`, `${i1}}`, "");
  lines.push(`${i1}public func hash(into hasher: inout Hasher) {`, `${i2}hasher.combine(rawValue)`, `${i1}}`, "");
  lines.push(`${i1}public init(from decoder: Decoder) throws {`, `${i2}self.init(rawValue: try decoder.singleValueContainer().decode(String.self))`, `${i1}}`, "");
  lines.push(`${i1}public init(jsonValue value: JSONValue) throws {`, `${i2}self.init(rawValue: try String(jsonValue: value))`, `${i1}}`, "");
  lines.push(`${i1}public func encode(to encoder: Encoder) throws {`, `${i2}var container = encoder.singleValueContainer()`, `${i2}try container.encode(rawValue)`, `${i1}}`);
  lines.push(`${indent}}`);
  return lines.join("\n");
}
