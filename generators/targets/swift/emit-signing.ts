// <Protocol>Signing.swift: the signing, replay, content-address and approval-token declarations
// of each message that has them (x-signature, x-replay, x-content-address, x-approval-token).
import { runtimeSymbol, type ContractId } from "../../emit/runtime-contract.js";
import type { JsonValue, Protocol, SignatureDeclaration } from "../../model/types.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { stringLiteral, typeName } from "./naming.js";
import { article, jsonValueLiteral } from "./emit-support.js";
import { renderTypedSigning } from "./emit-typed-signing.js";
import type { ProtocolTypes } from "./types.js";

/** The Swift runtime's name for a contract function (generators/emit/runtime-contract.ts). */
const rt = (id: ContractId): string => runtimeSymbol("swift", id).qualified;

export function renderSigning(protocol: Protocol, namespace: string, types: ProtocolTypes): { text: string; sources: string[] } | undefined {
  const out: string[] = ["import Foundation", ""];
  const sources = new Set<string>();
  for (const m of protocol.messages) {
    const { signature, replay, approvalToken: token } = m;
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
        `${i1}public static let signatureDeclaration = HMACSHA256V1Declaration(`,
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
        ...signingInputFunction(m.name, signature, i1, i2),
        "",
        `${i1}/// Signs ${article(m.name)} ${m.name} given as JSON: returns it with ${signature.algorithmField} and ${signature.signatureField} set.`,
        `${i1}public static func sign(_ message: JSONObject, key: [UInt8]) throws -> (message: JSONObject, signature: String) {`,
        `${i2}try sign(message, key: HMACSHA256Key(key))`,
        `${i1}}`,
        "",
        `${i1}/// \`sign\` with a key prepared once (HMACSHA256Key: the pads are not hashed again per message).`,
        `${i1}public static func sign(_ message: JSONObject, key: HMACSHA256Key) throws -> (message: JSONObject, signature: String) {`,
        `${i2}try ${rt("hmacSign")}(signatureDeclaration, message, key: key, input: buildSigningInput)`,
        `${i1}}`,
        "",
        `${i1}/// Verifies the signature of a received ${m.name} exactly as it arrived; throws HMACV1Error.`,
        `${i1}public static func verifySignature(_ message: JSONObject, key: [UInt8]) throws {`,
        `${i2}try verifySignature(message, key: HMACSHA256Key(key))`,
        `${i1}}`,
        "",
        `${i1}/// \`verifySignature\` with a key prepared once: what a receiver holding one key per install binding calls.`,
        `${i1}public static func verifySignature(_ message: JSONObject, key: HMACSHA256Key) throws {`,
        `${i2}try ${rt("hmacVerify")}(signatureDeclaration, message, key: key, input: buildSigningInput)`,
        `${i1}}`,
        "",
        `${i1}/// This message, signed with \`key\` (a UTF-8 secret's bytes).`,
        `${i1}public func signed(key: [UInt8]) throws -> Self {`,
        `${i2}guard case let .object(object) = try jsonValue() else { throw HMACV1Error.coveredFieldMissing }`,
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
        `${i1}/// A replay guard for ${m.name} over \`store\` (in memory by default; back it with the Keychain or a database: its methods are async, and a store that throws makes \`admit\` refuse with \`.storeUnavailable\`); \`now\` is the clock (the system clock by default; tests pass one).`,
        `${i1}public static func replayGuard(store: ReplayStore = InMemoryReplayStore(), now: ReplayClock? = nil) -> ReplayGuard {`,
        `${i2}now.map { ReplayGuard(declaration: replayDeclaration, store: store, now: $0) } ?? ReplayGuard(declaration: replayDeclaration, store: store)`,
        `${i1}}`,
        "",
      );
    }
    if (address) {
      const nested = nestedContentAddressed(m, protocol);
      const nestedChecks = nested.map((n) => ` && ${rt("verifyContentId")}(${namespace}.${typeName(n.message.name)}.contentAddress, value[${stringLiteral(n.property)}]?.objectValue ?? JSONObject())`).join("");
      body.push(
        `${i1}/// How ${m.name} is named by its content (x-content-address).`,
        `${i1}public static let contentAddress = ContentAddressDeclaration(idField: ${stringLiteral(address.idField)}, prefix: ${stringLiteral(address.prefix)}, maxCanonicalBytes: ${address.maxCanonicalBytes ?? "nil"}, canonicalInput: ${address.canonicalInput === true})`,
        "",
        `${i1}/// The ${address.idField} ${article(m.name)} ${m.name} should carry: prefix + SHA-256 of its canonical bytes without the id.`,
        `${i1}public static func computeID(_ record: JSONObject) throws -> String {`,
        `${i2}try ${rt("computeContentId")}(contentAddress, record)`,
        `${i1}}`,
        "",
        `${i1}public static func verifyID(_ record: JSONObject) -> Bool {`,
        `${i2}${rt("verifyContentId")}(contentAddress, record)`,
        `${i1}}`,
        "",
        `${i1}/// Imports untrusted bytes: JSON, then schema${nested.length > 0 ? " (with nested ids)" : ""}, then id, then canonical form.`,
        `${i1}public static func importRecord(_ bytes: [UInt8]) -> Result<(record: JSONObject, id: String), ContentImportError> {`,
        `${i2}${rt("importContentRecord")}(contentAddress, bytes) { value in validate(value).isEmpty${nestedChecks} }`,
        `${i1}}`,
        "",
      );
    }
    if (token) {
      body.push(
        `${i1}/// The approval token rules (x-approval-token).`,
        `${i1}public static let tokenDeclaration = ApprovalTokenDeclaration(version: ${token.version}, maxLifetimeSeconds: ${token.maxLifetimeSeconds}, clockSkewSeconds: ${token.clockSkewSeconds}, minTTLSeconds: ${token.minTtlSeconds}, maxTTLSeconds: ${token.maxTtlSeconds}, defaultTTLSeconds: ${token.defaultTtlSeconds}, minSecretBytes: ${token.minSecretBytes})`,
        "",
        `${i1}public static func mintToken(_ input: MintApprovalInput, secret: [UInt8], nowSeconds: Int64, ttlSeconds: Int64? = nil) throws -> (token: String, claims: ApprovalClaims) {`,
        `${i2}try ${rt("approvalMint")}(input, secret: secret, declaration: tokenDeclaration, nowSeconds: nowSeconds, ttlSeconds: ttlSeconds)`,
        `${i1}}`,
        "",
        `${i1}/// Authenticates a token and reads its claims; throws ApprovalTokenError.`,
        `${i1}public static func decodeToken(_ token: String, secret: [UInt8], nowSeconds: Int64) throws -> ApprovalClaims {`,
        `${i2}try ${rt("approvalDecode")}(token, secret: secret, declaration: tokenDeclaration, nowSeconds: nowSeconds)`,
        `${i1}}`,
        "",
        `${i1}/// decodeToken, then the checks binding the token to this request.`,
        `${i1}public static func verifyToken(_ token: String, secret: [UInt8], bindings: ApprovalBindings, nowSeconds: Int64) throws -> ApprovalClaims {`,
        `${i2}try ${rt("approvalVerify")}(token, secret: secret, bindings: bindings, declaration: tokenDeclaration, nowSeconds: nowSeconds)`,
        `${i1}}`,
        "",
      );
    }
    while (body[body.length - 1] === "") body.pop();
    out.push(`extension ${namespace}.${typeName(m.name)} {`, ...body, "}", "");
  }
  if (sources.size === 0) return undefined;
  out.push(...renderTypedSigning(protocol, namespace, types));
  return { text: out.join("\n"), sources: [...sources].sort() };
}

/**
 * \`buildSigningInput\`: one runtime line helper per x-signature line, in order (each throws the
 * interpreter's error for its field), then the input appended literal by value; a default is read
 * from the declaration's own line, so the generated function and the interpreter share it.
 */
function signingInputFunction(messageName: string, signature: SignatureDeclaration, i1: string, i2: string): string[] {
  const reads = signature.lines.map((l, i) => {
    const helper = l.value === "string" ? "stringLine" : "digestLine";
    const fallback = l.default === undefined ? "nil" : `signatureDeclaration.lines[${i}].defaultValue`;
    return `${i2}let v${i} = try HMACSHA256V1.${helper}(message, ${stringLiteral(l.field)}, ${fallback})`;
  });
  const prefixes = signature.lines.map((l, i) => (i === 0 ? "" : signature.lineSeparator) + l.name + "=");
  // Room for every prefix and a 44-character value per line (a digest is 43).
  const capacity = prefixes.reduce((sum, p) => sum + p.length + 44, 0);
  return [
    `${i1}/// The ${messageName} signing input, built by code generated from the x-signature lines above (no walk over`,
    `${i1}/// them at run time); throws HMACV1Error for the first missing or malformed covered field.`,
    `${i1}public static func buildSigningInput(_ message: JSONObject) throws -> String {`,
    ...reads,
    `${i2}var text = ""`,
    `${i2}text.reserveCapacity(${capacity})`,
    ...prefixes.flatMap((p, i) => [`${i2}text += ${stringLiteral(p)}`, `${i2}text += v${i}`]),
    `${i2}return text`,
    `${i1}}`,
  ];
}
