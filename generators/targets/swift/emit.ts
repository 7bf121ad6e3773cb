// The Swift target: model -> the files of generated/swift, a SwiftPM package with no outside
// dependencies. Pure: the hand-written runtime and the shared case files are read by the pipeline
// and passed in; paths are relative to generated/swift.
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Lifecycle } from "../../lifecycles/types.js";
import type { JsonSchema, JsonValue, Model, OutputFile, Protocol } from "../../model/types.js";
import { docComment, docText, identifier, lowerCamel, rawStringLiteral, stringLiteral, upperCamel } from "./naming.js";
import { ProtocolTypes, type SwiftDecl, type SwiftEnum, type SwiftStruct, type SwiftUnion } from "./types.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { swiftDoctorFiles } from "./emit-doctor.js";

/** A hand-written runtime file (generators/targets/swift/runtime/<name>). */
export interface SwiftRuntimeSource {
  name: string;
  text: string;
}

/** A language-neutral case file, copied as a test resource (path under Tests/AgentContractsTests/Resources). */
export interface SharedCaseFile {
  path: string;
  /** Where it comes from, relative to the repository root. */
  source: string;
  text: string;
}

const SOURCES = "Sources/AgentContracts";
const TESTS = "Tests/AgentContractsTests";

export function emitSwift(model: Model, runtime: readonly SwiftRuntimeSource[], cases: readonly SharedCaseFile[]): OutputFile[] {
  const files: OutputFile[] = [];
  const catalog: { protocol: Protocol; namespace: string; messages: { name: string; type: string }[] }[] = [];
  for (const protocol of model.protocols) {
    const namespace = upperCamel(protocol.id);
    const types = new ProtocolTypes(model, protocol);
    const messages = protocol.messages.map((m) => ({ name: m.name, type: types.declareMessage(m.name, m.schema, m.id) }));
    catalog.push({ protocol, namespace, messages });
    const sources = [...model.shared.map((s) => s.location.file), ...protocol.messages.map((m) => m.location.file)].sort();
    files.push({ path: `${SOURCES}/${namespace}/${namespace}Messages.swift`, contents: tidy(renderMessages(protocol, namespace, types)), sources });
    files.push({ path: `${SOURCES}/${namespace}/${namespace}Constants.swift`, contents: renderConstants(protocol, namespace), sources: [protocol.location.file] });
    const lifecycles = protocol.lifecycles as Lifecycle[];
    if (lifecycles.length > 0) {
      files.push({ path: `${SOURCES}/${namespace}/${namespace}Lifecycles.swift`, contents: renderLifecycles(namespace, lifecycles), sources: lifecycles.map((l) => l.location.file) });
    }
    const signing = renderSigning(protocol, namespace);
    if (signing !== undefined) files.push({ path: `${SOURCES}/${namespace}/${namespace}Signing.swift`, contents: signing.text, sources: signing.sources });
    files.push(...swiftDoctorFiles(protocol, namespace, SOURCES, TESTS));
  }
  files.push({ path: `${SOURCES}/Schemas.swift`, contents: renderSchemas(model), sources: model.sourceFiles });
  for (const source of [...runtime].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    files.push({ path: `${SOURCES}/Runtime/${source.name}`, contents: source.text, sources: [`generators/targets/swift/runtime/${source.name}`] });
  }
  files.push({ path: "Package.swift", contents: render("Package.swift", {}), sources: [] });
  files.push({
    path: "README.md",
    contents: render("README.md", { messageCount: catalog.reduce((n, c) => n + c.messages.length, 0), lifecycleCount: model.protocols.reduce((n, p) => n + p.lifecycles.length, 0) }),
    sources: [],
  });
  files.push(...emitTests(model, catalog, cases));
  return files;
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? "an" : "a";
}

/** No blank line right after an opening brace, never two blank lines in a row. */
function tidy(text: string): string {
  return text.replace(/\{\n(\s*\n)+/g, "{\n").replace(/\n(\s*\n){2,}/g, "\n\n");
}

// --- templates ---------------------------------------------------------------------------------

const templates = new Map<string, HandlebarsTemplateDelegate>();
function render(name: string, context: object): string {
  let template = templates.get(name);
  if (!template) {
    const path = fileURLToPath(new URL(`./templates/${name}.hbs`, import.meta.url));
    template = Handlebars.compile(readFileSync(path, "utf8"), { noEscape: true, strict: true });
    templates.set(name, template);
  }
  return template(context);
}

// --- messages ----------------------------------------------------------------------------------

function renderMessages(protocol: Protocol, namespace: string, types: ProtocolTypes): string {
  const roots = new Map(protocol.messages.map((m) => [m.name, m]));
  const out: string[] = ["import Foundation", "", docComment(`${protocol.title} (${protocol.id} ${protocol.version}). ${protocol.summary}`, "") + `public enum ${namespace} {}`, ""];
  const decls = [...types.decls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const decl of decls) {
    const message = roots.get(decl.name);
    const body = decl.kind === "struct" ? renderStruct(decl, "    ") : decl.kind === "union" ? renderUnion(decl, "    ") : renderEnum(decl, "    ", true);
    const conformance = message === undefined ? "" : messageConformance(message.id, message.rules, "        ");
    out.push(`extension ${namespace} {\n${insertConformance(body, message !== undefined, conformance)}}\n`);
  }
  return out.join("\n");
}

/** Root messages conform to ContractMessage (schema id and rules); other types are plain Codable. */
function insertConformance(body: string, isMessage: boolean, members: string): string {
  if (!isMessage) return body;
  const header = ": Codable, Equatable, Sendable {\n";
  if (body.includes(header)) return body.replace(header, `: ContractMessage, Equatable {\n${members}\n`);
  return body.replace(": String, Codable, CaseIterable, Sendable {\n", `: String, ContractMessage, CaseIterable {\n${members}\n`);
}

function messageConformance(id: string, rules: Protocol["messages"][number]["rules"], indent: string): string {
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
    }
  });
  const rulesText = ruleLines.length === 0 ? "[]" : `[\n${ruleLines.map((l) => `${indent}    ${l},`).join("\n")}\n${indent}]`;
  return `${indent}public static let schemaID = ${stringLiteral(id)}\n${indent}/// Cross-field rules (x-rules), checked after the schema.\n${indent}public static let rules: [CrossFieldRule] = ${rulesText}\n`;
}

function swiftLiteral(value: JsonValue): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  throw new Error(`no Swift literal for ${JSON.stringify(value)}`);
}

function jsonValueLiteral(value: JsonValue): string {
  if (typeof value === "string") return `.string(${stringLiteral(value)})`;
  if (typeof value === "boolean") return `.bool(${value})`;
  if (typeof value === "number") return `.number(${Number.isInteger(value) ? value.toFixed(0) : String(value)})`;
  if (value === null) return ".null";
  if (Array.isArray(value)) return `.array([${value.map(jsonValueLiteral).join(", ")}])`;
  return `.object(JSONObject(pairs: [${Object.entries(value).map(([k, v]) => `(${stringLiteral(k)}, ${jsonValueLiteral(v)})`).join(", ")}]))`;
}

function renderEnum(decl: SwiftEnum, indent: string, topLevel: boolean): string {
  const lines = [docComment(decl.description, indent) + `${indent}public enum ${decl.name}: String, Codable, CaseIterable, Sendable {`];
  for (const c of decl.cases) {
    const bare = c.name.replace(/`/g, "");
    lines.push(bare === c.raw ? `${indent}    case ${c.name}` : `${indent}    case ${c.name} = ${stringLiteral(c.raw)}`);
  }
  lines.push(`${indent}}`);
  return lines.join("\n") + (topLevel ? "\n" : "");
}

function renderStruct(decl: SwiftStruct, indent: string): string {
  const i1 = `${indent}    `;
  const i2 = `${i1}    `;
  const stored = decl.properties.filter((p) => p.constant === undefined);
  const constants = decl.properties.filter((p) => p.constant !== undefined);
  const typeText = (p: (typeof stored)[number]): string => `${p.type}${p.optional ? "?" : ""}`;
  const lines: string[] = [docComment(decl.description, indent) + `${indent}public struct ${decl.name}: Codable, Equatable, Sendable {`];
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
  const lines: string[] = [docComment(decl.description, indent) + `${indent}public enum ${decl.name}: Codable, Equatable, Sendable {`];
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
  lines.push("", `${i1}public func encode(to encoder: Encoder) throws {`, `${i2}switch self {`);
  for (const c of decl.cases) lines.push(`${i2}case let .${c.name}(value):`, `${i2}    try value.encode(to: encoder)`);
  lines.push(`${i2}}`, `${i1}}`);
  lines.push(`${indent}}`);
  return lines.join("\n") + "\n";
}

// --- schemas -----------------------------------------------------------------------------------

const NOT_FOR_VALIDATION = new Set(["examples", "description", "x-invalid-examples", "x-source", "x-divergences", "x-inferred-from-clients", "x-open"]);

/** Keywords whose members are names chosen by the spec, not keywords. */
const NAME_MAPS = new Set(["properties", "$defs", "patternProperties", "dependentRequired", "dependentSchemas"]);

/** The schema without prose and examples; `properties`, `$defs`, `const` and `enum` keep every key. */
function validatorView(node: JsonValue, parentKey = ""): JsonValue {
  if (Array.isArray(node)) return parentKey === "enum" || parentKey === "const" ? node : node.map((n) => validatorView(n));
  if (node === null || typeof node !== "object") return node;
  if (parentKey === "const" || parentKey === "enum" || parentKey === "default") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const namesMembers = NAME_MAPS.has(parentKey);
    if (!namesMembers && NOT_FOR_VALIDATION.has(key)) continue;
    out[key] = validatorView(value, namesMembers ? "" : key);
  }
  return out;
}

function renderSchemas(model: Model): string {
  const documents = [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))];
  const literals = documents.map((d) => `        ${rawStringLiteral(JSON.stringify(validatorView(d)))},`);
  return [
    "import Foundation",
    "",
    "/// Every schema document of the spec (shared types and each message), without prose and examples.",
    "public enum ContractSchemas {",
    "    public static let registry = SchemaRegistry(sources: [",
    ...literals,
    "    ])",
    "}",
    "",
    "extension ContractMessage {",
    "    public static var schemaRegistry: SchemaRegistry { ContractSchemas.registry }",
    "}",
    "",
  ].join("\n");
}

// --- constants ---------------------------------------------------------------------------------

function renderConstants(protocol: Protocol, namespace: string): string {
  const out: string[] = ["import Foundation", "", `extension ${namespace} {`];
  for (const group of protocol.constants) {
    out.push(docComment(group.description, "    ") + `    public enum ${upperCamel(group.group)} {`);
    for (const item of group.items) {
      const doc = `${docText(item.description)}${item.unit ? ` (${item.unit})` : ""}`;
      const type = typeof item.value === "string" ? "String" : typeof item.value === "boolean" ? "Bool" : Number.isInteger(item.value) ? "Int" : "Double";
      out.push(docComment(doc, "        ") + `        public static let ${identifier(lowerCamel(item.name))}: ${type} = ${swiftLiteral(item.value)}`);
    }
    out.push("    }", "");
  }
  if (protocol.routes.length > 0) {
    out.push("    /// HTTP routes with their auth and every response status.", "    public enum Routes {");
    for (const route of protocol.routes) {
      const responses = route.responses
        .map((r) => `RouteResponse(status: ${r.status}, message: ${r.message === undefined ? "nil" : stringLiteral(r.message)}, contentType: ${r.contentType === undefined ? "nil" : stringLiteral(r.contentType)})`)
        .join(", ");
      out.push(
        docComment(route.description, "        ") +
          `        public static let ${identifier(lowerCamel(route.id))} = Route(id: ${stringLiteral(route.id)}, method: ${stringLiteral(route.method)}, path: ${stringLiteral(route.path)}, auth: ${stringLiteral(route.auth)}, request: ${route.request === undefined ? "nil" : stringLiteral(route.request)}, responses: [${responses}])`,
      );
    }
    out.push(`        public static let all: [Route] = [${protocol.routes.map((r) => identifier(lowerCamel(r.id))).join(", ")}]`);
    out.push("    }");
  }
  out.push("}", "");
  return out.join("\n");
}

// --- lifecycles --------------------------------------------------------------------------------

export function lifecycleTypeName(lifecycle: Lifecycle): string {
  return `${upperCamel(lifecycle.name)}Lifecycle`;
}

function nameEnum(name: string, doc: string, values: { name: string; description: string }[], indent: string): string {
  const lines: string[] = [];
  if (values.length === 0) {
    lines.push(
      docComment(`${doc} (None are declared.)`, indent) + `${indent}public enum ${name}: RawRepresentable, Hashable, CaseIterable, Sendable {`,
      `${indent}    public init?(rawValue: String) {`,
      `${indent}        return nil`,
      `${indent}    }`,
      "",
      `${indent}    public var rawValue: String {`,
      `${indent}        switch self {}`,
      `${indent}    }`,
      `${indent}}`,
    );
    return lines.join("\n");
  }
  lines.push(docComment(doc, indent) + `${indent}public enum ${name}: String, CaseIterable, Codable, Sendable {`);
  for (const v of values) {
    const swift = identifier(lowerCamel(v.name));
    lines.push(docComment(v.description, `${indent}    `) + (swift.replace(/`/g, "") === v.name ? `${indent}    case ${swift}` : `${indent}    case ${swift} = ${stringLiteral(v.name)}`));
  }
  lines.push(`${indent}}`);
  return lines.join("\n");
}

function renderLifecycles(namespace: string, lifecycles: readonly Lifecycle[]): string {
  const out: string[] = ["import Foundation", "", `extension ${namespace} {`];
  for (const l of lifecycles) {
    const i1 = "        ";
    const member = (name: string): string => `.${identifier(lowerCamel(name))}`;
    out.push(docComment(`${l.title}: ${l.description} Role: ${l.role}.`, "    ") + `    public enum ${lifecycleTypeName(l)}: LifecycleMachine {`);
    out.push(nameEnum("State", "States; terminal ones refuse every event.", l.states, i1), "");
    out.push(nameEnum("Event", "Events; `transition` says whether one applies.", l.events, i1), "");
    out.push(nameEnum("Condition", "Guards the caller evaluates (see each description).", l.guards, i1), "");
    out.push(nameEnum("Effect", "Side effects a transition requires.", l.effects, i1), "");
    out.push(`${i1}public static let protocolID = ${stringLiteral(l.protocol)}`);
    out.push(`${i1}public static let name = ${stringLiteral(l.name)}`);
    out.push(`${i1}public static let initial: State = ${member(l.initial)}`);
    const terminal = l.states.filter((s) => s.terminal).map((s) => member(s.name));
    out.push(`${i1}public static let terminalStates: Set<State> = [${terminal.join(", ")}]`);
    if (l.mutuallyExclusive.length > 0) {
      out.push(`${i1}/// Groups of guards of which at most one holds at a time.`);
      out.push(`${i1}public static let mutuallyExclusive: [[Condition]] = [${l.mutuallyExclusive.map((g) => `[${g.map(member).join(", ")}]`).join(", ")}]`);
    }
    out.push(`${i1}public typealias Transition = LifecycleTransition<State, Event, Condition, Effect>`, "");
    out.push(`${i1}public static let transitions: [Transition] = [`);
    for (const t of l.transitions) {
      const guards = t.guards.map((g) => `${g.negated ? ".not" : ".holds"}(${member(g.guard)})`).join(", ");
      const parts = [`from: ${member(t.from)}`, `event: ${member(t.event)}`, `to: ${member(t.to)}`];
      if (t.guards.length > 0) parts.push(`guards: [${guards}]`);
      if (t.effects.length > 0) parts.push(`effects: [${t.effects.map(member).join(", ")}]`);
      out.push(`${i1}    Transition(${parts.join(", ")}),`);
    }
    out.push(`${i1}]`, "    }", "");
  }
  out.push("}", "");
  return out.join("\n");
}

// --- signing -----------------------------------------------------------------------------------

interface HmacDecl {
  algorithmId: string;
  algorithmField: string;
  signatureField: string;
  lineSeparator: string;
  lines: { name: string; field: string; value: string; default?: JsonValue }[];
  key: { source: string; field: string };
}

function renderSigning(protocol: Protocol, namespace: string): { text: string; sources: string[] } | undefined {
  const out: string[] = ["import Foundation", ""];
  const sources = new Set<string>();
  for (const m of protocol.messages) {
    const signature = m.annotations["x-signature"] as unknown as HmacDecl | undefined;
    const replay = m.annotations["x-replay"] as unknown as { keyFields: string[]; scopeFields: string[]; expiresAtField: string; notBeforeField?: string; timeFormat?: string; skewSeconds: number; maxLifetimeSeconds?: number } | undefined;
    const token = m.annotations["x-approval-token"] as unknown as { version: number; maxLifetimeSeconds: number; clockSkewSeconds: number; minTtlSeconds: number; maxTtlSeconds: number; defaultTtlSeconds: number } | undefined;
    const address = m.contentAddress;
    if (!signature && !replay && !token && !address) continue;
    sources.add(m.location.file);
    const body: string[] = [];
    const i1 = "    ";
    const i2 = "        ";
    if (signature) {
      const lines = signature.lines
        .map((l) => `${i2}    .init(name: ${stringLiteral(l.name)}, field: ${stringLiteral(l.field)}, value: ${l.value === "string" ? ".string" : ".sha256JCSBase64StdNoPad"}${l.default === undefined ? "" : `, defaultValue: ${jsonValueLiteral(l.default)}`}),`)
        .join("\n");
      body.push(
        `${i1}/// How ${m.name} is signed (x-signature, hmac-sha256-v1).`,
        `${i1}public static let signatureDeclaration = HmacSHA256V1Declaration(`,
        `${i2}algorithmID: ${stringLiteral(signature.algorithmId)},`,
        `${i2}algorithmField: ${stringLiteral(signature.algorithmField)},`,
        `${i2}signatureField: ${stringLiteral(signature.signatureField)},`,
        `${i2}lineSeparator: ${stringLiteral(signature.lineSeparator)},`,
        `${i2}lines: [`,
        lines,
        `${i2}],`,
        `${i2}keySource: ${stringLiteral(signature.key.source)},`,
        `${i2}keyField: ${stringLiteral(signature.key.field)}`,
        `${i1})`,
        "",
        `${i1}/// Signs ${article(m.name)} ${m.name} given as JSON: returns it with ${signature.algorithmField} and ${signature.signatureField} set.`,
        `${i1}public static func sign(_ message: JSONObject, key: [UInt8]) throws -> (message: JSONObject, signature: String) {`,
        `${i2}try HmacSHA256V1.sign(signatureDeclaration, message, key: key)`,
        `${i1}}`,
        "",
        `${i1}/// Verifies the signature of a received ${m.name} exactly as it arrived; throws HmacV1Error.`,
        `${i1}public static func verifySignature(_ message: JSONObject, key: [UInt8]) throws {`,
        `${i2}try HmacSHA256V1.verify(signatureDeclaration, message, key: key)`,
        `${i1}}`,
        "",
        `${i1}/// This message, signed with \`key\` (a UTF-8 secret's bytes).`,
        `${i1}public func signed(key: [UInt8]) throws -> Self {`,
        `${i2}guard case let .object(object) = try jsonValue() else { throw HmacV1Error.coveredFieldMissing }`,
        `${i2}return try Self.decode(.object(try Self.sign(object, key: key).message))`,
        `${i1}}`,
        "",
      );
    }
    if (replay) {
      const args = [
        `keyFields: [${replay.keyFields.map(stringLiteral).join(", ")}]`,
        `scopeFields: [${replay.scopeFields.map(stringLiteral).join(", ")}]`,
        `expiresAtField: ${stringLiteral(replay.expiresAtField)}`,
      ];
      if (replay.notBeforeField !== undefined) args.push(`notBeforeField: ${stringLiteral(replay.notBeforeField)}`);
      if (replay.timeFormat === "unix-seconds") args.push("timeFormat: .unixSeconds");
      args.push(`skewSeconds: ${replay.skewSeconds}`);
      if (replay.maxLifetimeSeconds !== undefined) args.push(`maxLifetimeSeconds: ${replay.maxLifetimeSeconds}`);
      body.push(
        `${i1}/// Which fields make ${article(m.name)} ${m.name} single-use, and for how long (x-replay).`,
        `${i1}public static let replayDeclaration = ReplayDeclaration(`,
        args.map((a) => `${i2}${a}`).join(",\n"),
        `${i1})`,
        "",
        `${i1}/// A replay guard for ${m.name} over \`store\` (in memory by default; back it with the Keychain or a database); \`now\` is the clock (the system clock by default; tests pass one).`,
        `${i1}public static func replayGuard(store: ReplayStore = InMemoryReplayStore(), now: ReplayClock? = nil) -> ReplayGuard {`,
        `${i2}now.map { ReplayGuard(declaration: replayDeclaration, store: store, now: $0) } ?? ReplayGuard(declaration: replayDeclaration, store: store)`,
        `${i1}}`,
        "",
      );
    }
    if (address) {
      const nested = nestedContentAddressed(m, protocol);
      const nestedChecks = nested.map((n) => ` && ContentAddress.verifyID(${namespace}.${n.message.name}.contentAddress, value[${stringLiteral(n.property)}]?.objectValue ?? JSONObject())`).join("");
      body.push(
        `${i1}/// How ${m.name} is named by its content (x-content-address).`,
        `${i1}public static let contentAddress = ContentAddressDeclaration(idField: ${stringLiteral(address.idField)}, prefix: ${stringLiteral(address.prefix)}, maxCanonicalBytes: ${address.maxCanonicalBytes ?? "nil"}, canonicalInput: ${address.canonicalInput === true})`,
        "",
        `${i1}/// The ${address.idField} ${article(m.name)} ${m.name} should carry: prefix + SHA-256 of its canonical bytes without the id.`,
        `${i1}public static func computeID(_ record: JSONObject) throws -> String {`,
        `${i2}try ContentAddress.computeID(contentAddress, record)`,
        `${i1}}`,
        "",
        `${i1}public static func verifyID(_ record: JSONObject) -> Bool {`,
        `${i2}ContentAddress.verifyID(contentAddress, record)`,
        `${i1}}`,
        "",
        `${i1}/// Imports untrusted bytes: JSON, then schema${nested.length > 0 ? " (with nested ids)" : ""}, then id, then canonical form.`,
        `${i1}public static func importRecord(_ bytes: [UInt8]) -> Result<(record: JSONObject, id: String), ContentImportError> {`,
        `${i2}ContentAddress.importRecord(contentAddress, bytes) { value in validate(value).isEmpty${nestedChecks} }`,
        `${i1}}`,
        "",
      );
    }
    if (token) {
      body.push(
        `${i1}/// The approval token rules (x-approval-token).`,
        `${i1}public static let tokenDeclaration = ApprovalTokenDeclaration(version: ${token.version}, maxLifetimeSeconds: ${token.maxLifetimeSeconds}, clockSkewSeconds: ${token.clockSkewSeconds}, minTTLSeconds: ${token.minTtlSeconds}, maxTTLSeconds: ${token.maxTtlSeconds}, defaultTTLSeconds: ${token.defaultTtlSeconds})`,
        "",
        `${i1}public static func mintToken(_ input: MintApprovalInput, secret: [UInt8], nowSeconds: Int64, ttlSeconds: Int64? = nil) throws -> (token: String, claims: ApprovalClaims) {`,
        `${i2}try ApprovalToken.mint(input, secret: secret, declaration: tokenDeclaration, nowSeconds: nowSeconds, ttlSeconds: ttlSeconds)`,
        `${i1}}`,
        "",
        `${i1}/// Authenticates a token and reads its claims; throws ApprovalTokenError.`,
        `${i1}public static func decodeToken(_ token: String, secret: [UInt8], nowSeconds: Int64) throws -> ApprovalClaims {`,
        `${i2}try ApprovalToken.decode(token, secret: secret, declaration: tokenDeclaration, nowSeconds: nowSeconds)`,
        `${i1}}`,
        "",
        `${i1}/// decodeToken, then the checks binding the token to this request.`,
        `${i1}public static func verifyToken(_ token: String, secret: [UInt8], bindings: ApprovalBindings, nowSeconds: Int64) throws -> ApprovalClaims {`,
        `${i2}try ApprovalToken.verify(token, secret: secret, bindings: bindings, declaration: tokenDeclaration, nowSeconds: nowSeconds)`,
        `${i1}}`,
        "",
      );
    }
    while (body[body.length - 1] === "") body.pop();
    out.push(`extension ${namespace}.${m.name} {`, ...body, "}", "");
  }
  if (sources.size === 0) return undefined;
  return { text: out.join("\n"), sources: [...sources].sort() };
}


// --- tests -------------------------------------------------------------------------------------

function emitTests(model: Model, catalog: { protocol: Protocol; namespace: string; messages: { name: string; type: string }[] }[], cases: readonly SharedCaseFile[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const c of cases) files.push({ path: `${TESTS}/Resources/${c.path}`, contents: c.text, sources: [c.source] });
  // Examples: the valid and invalid instances of every message, as data.
  for (const protocol of model.protocols) {
    const examples = protocol.messages.map((m) => ({
      message: m.name,
      valid: m.examples,
      invalid: m.invalidExamples.map((e) => ({ description: e.description, instance: e.instance, error: e.error })),
    }));
    files.push({ path: `${TESTS}/Resources/examples/${protocol.id}.json`, contents: JSON.stringify({ protocol: protocol.id, messages: examples }, null, 1) + "\n", sources: protocol.messages.map((m) => m.location.file) });
  }
  const messageRows = catalog.flatMap((c) => c.messages.map((m) => ({ protocol: c.protocol.id, name: m.name, type: `${c.namespace}.${m.type}` })));
  const lifecycleRows = catalog.flatMap((c) =>
    (c.protocol.lifecycles as Lifecycle[]).map((l) => ({ protocol: c.protocol.id, name: l.name, type: `${c.namespace}.${lifecycleTypeName(l)}`, resource: `${c.protocol.id}/lifecycles/${l.name}.paths.json` })),
  );
  const context = {
    messages: messageRows.map((r) => ({ ...r, protocolLiteral: stringLiteral(r.protocol), nameLiteral: stringLiteral(r.name) })),
    lifecycles: lifecycleRows.map((r) => ({ ...r, resourceLiteral: stringLiteral(r.resource) })),
    protocols: model.protocols.map((p) => ({ resourceLiteral: stringLiteral(`examples/${p.id}.json`) })),
    messageCount: messageRows.length,
    lifecycleCount: lifecycleRows.length,
    ...signingContext(catalog, cases),
  };
  const testSources = ["generators/targets/swift/templates"];
  for (const name of ["SharedCases", "CanonicalJSONTests", "StrictJSONTests", "CryptoTests", "ExampleTests", "LifecycleTests", "SigningTests", "ReplayGuardTests"]) {
    files.push({ path: `${TESTS}/${name}.swift`, contents: render(`${name}.swift`, context), sources: testSources });
  }
  return files;
}

/** Which generated types the signing and replay tests drive, and which vector files they read. */
function signingContext(catalog: { protocol: Protocol; namespace: string }[], cases: readonly SharedCaseFile[]): object {
  const rows = catalog.flatMap((c) => c.protocol.messages.map((m) => ({ m, protocol: c.protocol, type: `${c.namespace}.${m.name}` })));
  const resource = (file: string): string | false => {
    const found = cases.find((c) => c.path.endsWith(`/vectors/${file}`));
    return found === undefined ? false : stringLiteral(found.path);
  };
  const token = rows.find((r) => r.m.annotations["x-approval-token"] !== undefined);
  return {
    signed: rows.filter((r) => r.m.annotations["x-signature"] !== undefined).map((r) => ({ name: r.m.name, type: r.type })),
    replayed: rows.filter((r) => r.m.annotations["x-replay"] !== undefined).map((r) => ({ name: r.m.name, type: r.type })),
    addressed: rows
      .filter((r) => r.m.contentAddress !== undefined)
      .map((r) => ({
        name: r.m.name,
        type: r.type,
        idFieldLiteral: stringLiteral(r.m.contentAddress!.idField),
        examplesResource: stringLiteral(`examples/${r.protocol.id}.json`),
        canonicalInput: r.m.contentAddress!.canonicalInput === true,
      })),
    tokenType: token === undefined ? false : token.type,
    hmacResource: resource("hmac-sha256-v1.json"),
    tokenResource: token === undefined ? false : resource("approval-token.json"),
    contentResource: resource("content-ids.json"),
    auditResource: resource("audit-chain.json"),
  };
}

