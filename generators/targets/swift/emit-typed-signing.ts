// The typed signing layer of a protocol, in its namespace (names as in TypeScript and Kotlin):
// `Unsigned<Message>` (every member but the algorithm and signature fields), `sign<Message>`,
// `verify<Message>`, `create<Message>ReplayGuard`, and for content-addressed records
// `import<Message>` / `compute<Message>ID` returning and taking the typed record.
import { runtimeSymbol } from "../../emit/runtime-contract.js";
import type { Message, Protocol } from "../../model/types.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { stringLiteral, typeName } from "./naming.js";
import { article } from "./emit-support.js";
import { renderStruct } from "./emit-messages.js";
import type { ProtocolTypes, SwiftStruct } from "./types.js";
import { unsignedSummary } from "../../emit/prose.js";

export function renderTypedSigning(protocol: Protocol, namespace: string, types: ProtocolTypes): string[] {
  const members: string[] = [];
  for (const m of protocol.messages) {
    const t = typeName(m.name);
    if (m.signature) members.push(unsignedStruct(m, t, types), ...signFunctions(m, t));
    if (m.replay) {
      members.push(
        `    /// A replay guard for ${m.name} (x-replay) over \`store\` (\`FileReplayStore\` to survive restarts); run \`admit\` after ${m.signature ? `verify${m.name}` : "authenticating it"}, so forgeries leave no record. \`now\` is the clock in milliseconds (the system clock by default).`,
        `    public static func create${m.name}ReplayGuard(store: ReplayStore, now: ReplayClock? = nil) -> ReplayGuard {`,
        `        ${t}.replayGuard(store: store, now: now)`,
        `    }`,
        "",
      );
    }
    if (m.contentAddress) members.push(...importFunctions(m, t, protocol, namespace));
  }
  while (members[members.length - 1] === "") members.pop();
  return members.length === 0 ? [] : [`extension ${namespace} {`, ...members, "}", ""];
}

/** The message's struct without the fields signing fills in; nested enums stay the message's own. */
function unsignedStruct(m: Message, t: string, types: ProtocolTypes): string {
  const decl = [...types.decls.values()].find((d): d is SwiftStruct => d.kind === "struct" && d.name === t);
  if (decl === undefined) throw new Error(`swift: signed message ${m.name} has no struct declaration`);
  const filled = new Set([m.signature!.algorithmField, m.signature!.signatureField]);
  const qualify = (type: string): string => decl.nested.reduce((text, e) => text.replace(new RegExp(`\\b${e.name}\\b`, "g"), `${t}.${e.name}`), type);
  const unsigned: SwiftStruct = {
    ...decl,
    name: `Unsigned${t}`,
    title: `Unsigned${m.name}`,
    description: unsignedSummary(m.name, [...filled]),
    properties: decl.properties.filter((p) => !filled.has(p.json)).map((p) => ({ ...p, type: qualify(p.type) })),
    nested: [],
  };
  return renderStruct(unsigned, "    ");
}

function signFunctions(m: Message, t: string): string[] {
  const key = m.signature!.key.field;
  return [
    `    /// Signs ${article(m.name)} Unsigned${m.name} with \`secret\` (the UTF-8 bytes of ${key}): the signed ${m.name}, checked against its schema. Throws SigningFailure.`,
    `    public static func sign${m.name}(_ unsigned: Unsigned${t}, secret: [UInt8]) throws -> ${t} {`,
    `        try TypedSigning.sign(${t}.signatureDeclaration, unsigned, secret: secret, as: ${t}.self)`,
    `    }`,
    "",
    `    public static func sign${m.name}(_ unsigned: Unsigned${t}, secret: String) throws -> ${t} {`,
    `        try sign${m.name}(unsigned, secret: Array(secret.utf8))`,
    `    }`,
    "",
    `    /// Verifies ${article(m.name)} ${m.name}'s signature in constant time: \`.valid\` or \`.invalid(reason)\`.`,
    `    public static func verify${m.name}(_ message: ${t}, secret: [UInt8]) -> SignatureVerification {`,
    `        TypedSigning.verify(${t}.signatureDeclaration, message, secret: secret)`,
    `    }`,
    "",
    `    public static func verify${m.name}(_ message: ${t}, secret: String) -> SignatureVerification {`,
    `        verify${m.name}(message, secret: Array(secret.utf8))`,
    `    }`,
    "",
    `    /// Verifies ${article(m.name)} ${m.name} as received, before any typed decoding.`,
    `    public static func verify${m.name}(json message: JSONObject, secret: [UInt8]) -> SignatureVerification {`,
    `        TypedSigning.verify(${t}.signatureDeclaration, message, secret: secret)`,
    `    }`,
    "",
  ];
}

function importFunctions(m: Message, t: string, protocol: Protocol, namespace: string): string[] {
  const nested = nestedContentAddressed(m, protocol);
  const nestedChecks = nested
    .map((n) => ` && ${runtimeSymbol("swift", "verifyContentId").qualified}(${namespace}.${typeName(n.message.name)}.contentAddress, value[${stringLiteral(n.property)}]?.objectValue ?? JSONObject())`)
    .join("");
  const idField = m.contentAddress!.idField;
  return [
    `    /// Imports ${article(m.name)} ${m.name} from untrusted bytes (JSON, schema${nested.length > 0 ? ", nested ids" : ""}, ${idField}, canonical form): the typed record and its verified id.`,
    `    public static func import${m.name}(_ bytes: [UInt8]) -> Result<ImportedRecord<${t}>, ContentImportError> {`,
    `        TypedSigning.importRecord(${t}.contentAddress, bytes, as: ${t}.self) { value in ${t}.validate(value).isEmpty${nestedChecks} }`,
    `    }`,
    "",
    `    public static func import${m.name}(_ data: Data) -> Result<ImportedRecord<${t}>, ContentImportError> {`,
    `        import${m.name}([UInt8](data))`,
    `    }`,
    "",
    `    /// The ${idField} ${article(m.name)} ${m.name} you built should carry (prefix + SHA-256 of its canonical bytes without ${idField}). For received bytes use import${m.name}: its id is computed over the bytes as received.`,
    `    public static func compute${m.name}ID(_ record: ${t}) throws -> String {`,
    `        try TypedSigning.computeID(${t}.contentAddress, record)`,
    `    }`,
    "",
  ];
}
