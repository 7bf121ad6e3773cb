// Security functions for the Kotlin bindings: per protocol a `<Protocol>Signing` object that binds
// each message's x-signature, x-content-address and x-approval-token declaration (rendered as
// Kotlin values) to the generic schemes in the runtime. The same surface as generators/targets/ts/emit-signing.ts.
import { runtimeSymbol, type ContractId } from "../../emit/runtime-contract.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { canonicalizationDialects } from "../../model/dialects.js";
import { withArticle } from "../../emit/prose.js";
import type { JsonValue, Message, Protocol, SignatureDeclaration } from "../../model/types.js";
import { protocolPackage, screamingSnake, signingName, stringLiteral, validatorsName } from "./kotlin-names.js";

/** The Kotlin runtime's names for the contract functions signing.kt calls (generators/emit/runtime-contract.ts). */
const KOTLIN_RUNTIME_CALLS = Object.fromEntries(
  (["strictParse", "hmacSign", "hmacVerify", "computeContentId", "verifyContentId", "importContentRecord", "approvalMint", "approvalDecode", "approvalVerify"] as const satisfies readonly ContractId[]).map((id) => [id, runtimeSymbol("kotlin", id).qualified]),
);


const RUNTIME = "dev.agentcontracts.runtime";

/** Template context of `<Protocol>Signing.kt`, or undefined when no message declares any scheme. */
export function signingContext(protocol: Protocol): object | undefined {
  const signed = protocol.messages.filter((m) => m.signature !== undefined);
  const addressed = protocol.messages.filter((m) => m.contentAddress !== undefined);
  const tokens = protocol.messages.filter((m) => m.approvalToken !== undefined);
  const replayed = protocol.messages.filter((m) => m.replay !== undefined);
  if (signed.length + addressed.length + tokens.length + replayed.length === 0) return undefined;
  const imports = new Set<string>();
  if (signed.length > 0) {
    for (const name of ["CanonicalizationDialect", "HmacSha256Key", "HmacSha256V1", "HmacSha256V1Declaration", "HmacV1Exception", "HmacV1Line", "HmacV1SignResult", "HmacV1Verification", "SignatureDoctor", "SignatureExplanation"]) imports.add(`${RUNTIME}.${name}`);
    for (const name of ["Json", "JsonObject", "jsonObject"]) imports.add(`kotlinx.serialization.json.${name}`);
  }
  if (addressed.length > 0) {
    for (const name of ["ContentAddress", "ContentAddressDeclaration", "ContentImport"]) imports.add(`${RUNTIME}.${name}`);
    for (const name of ["Json", "JsonObject", "jsonObject"]) imports.add(`kotlinx.serialization.json.${name}`);
  }
  if (replayed.length > 0) {
    for (const name of ["ReplayDeclaration", "ReplayGuard", "ReplayStore", "ReplayTimeFormat", "TypedReplayGuard"]) imports.add(`${RUNTIME}.${name}`);
    imports.add("java.time.Clock");
  }
  if (tokens.length > 0) {
    for (const name of ["ApprovalBindings", "ApprovalToken", "ApprovalTokenDeclaration", "ApprovalTokenResult", "MintApprovalInput"]) imports.add(`${RUNTIME}.${name}`);
  }
  if (signed.some((m) => signatureOf(m).lines.some((l) => l.default !== undefined))) imports.add(`${RUNTIME}.StrictJson`);
  return {
    package: protocolPackage(protocol.id),
    runtime: KOTLIN_RUNTIME_CALLS,
    protocolId: protocol.id,
    objectName: signingName(protocol.id),
    imports: [...imports].sort(),
    signed: signed.map((m) => ({ ...signatureContext(m), validatorsName: validatorsName(protocol.id) })),
    dialectsLiteral: stringLiteral(JSON.stringify(canonicalizationDialects(protocol))),
    addressed: addressed.map((m) => ({
      name: m.name,
      aName: withArticle(m.name),
      nameLiteral: stringLiteral(m.name),
      constName: screamingSnake(m.name),
      idField: m.contentAddress!.idField,
      idFieldLiteral: stringLiteral(m.contentAddress!.idField),
      prefix: stringLiteral(m.contentAddress!.prefix),
      maxCanonicalBytes: m.contentAddress!.maxCanonicalBytes === undefined ? "null" : String(m.contentAddress!.maxCanonicalBytes),
      canonicalInput: m.contentAddress!.canonicalInput === true,
      validatorsName: validatorsName(protocol.id),
      nested: nestedContentAddressed(m, protocol).map((n) => ({ propertyLiteral: stringLiteral(n.property), messageName: n.message.name })),
    })),
    tokens: tokens.map((m) => ({ name: m.name, constName: screamingSnake(m.name), ...m.approvalToken })),
    replayed: replayed.map((m) => replayContext(m)),
  };
}

function signatureOf(message: Message): SignatureDeclaration {
  const declaration = message.signature;
  if (declaration === undefined) throw new Error(`${message.location.file}: no x-signature`);
  return declaration;
}

function signatureContext(message: Message): object {
  const d = signatureOf(message);
  const s = stringLiteral;
  return {
    name: message.name,
    aName: withArticle(message.name),
    constName: screamingSnake(message.name),
    algorithmId: s(d.algorithmId),
    algorithmField: s(d.algorithmField),
    signatureField: s(d.signatureField),
    lineSeparator: s(d.lineSeparator),
    keySource: s(d.key.source),
    keyField: s(d.key.field),
    inputBody: signingInputBody(message.name, d),
    lines: d.lines.map((l) => {
      const value = l.value === "string" ? "HmacV1Line.Value.STRING" : "HmacV1Line.Value.SHA256_JCS_BASE64_STD_NOPAD";
      const fallback = l.default === undefined ? "" : `, default = ${KOTLIN_RUNTIME_CALLS["strictParse"]}(${s(JSON.stringify(l.default))})`;
      return `HmacV1Line(${s(l.name)}, ${s(l.field)}, ${value}${fallback})`;
    }),
  };
}

/**
 * The statements of `build<Message>SigningInput`: one runtime line helper per x-signature line, in
 * order (each refuses its field with the interpreter's error), then the input as one StringBuilder
 * chain of the lines' literal prefixes and values. A default is read from the declaration's own
 * line, so the generated function and the interpreter share it.
 */
function signingInputBody(messageName: string, d: SignatureDeclaration): string[] {
  const s = stringLiteral;
  const reads = d.lines.map((l, i) => {
    const helper = l.value === "string" ? "stringLine" : "digestLine";
    const fallback = l.default === undefined ? "null" : `${screamingSnake(messageName)}_SIGNATURE.lines[${i}].default`;
    return `val v${i} = HmacSha256V1.${helper}(message, ${s(l.field)}, ${fallback})`;
  });
  const prefixes = d.lines.map((l, i) => (i === 0 ? "" : d.lineSeparator) + l.name + "=");
  // Room for every prefix and a 44-character value per line (a digest is 43), so most inputs never grow the buffer.
  const capacity = prefixes.reduce((sum, p) => sum + p.length + 44, 0);
  return [
    ...reads,
    `return StringBuilder(${capacity})`,
    ...prefixes.map((p, i) => `    .append(${s(p)}).append(v${i})`),
    `    .toString()`,
  ];
}

/** The x-replay declaration as Kotlin constructor arguments, and the names its factory needs. */
function replayContext(message: Message): object {
  const d = message.replay!;
  const s = stringLiteral;
  const list = (fields: readonly string[]) => (fields.length === 0 ? "emptyList()" : `listOf(${fields.map(s).join(", ")})`);
  const args = [
    `keyFields = ${list(d.keyFields)}`,
    `scopeFields = ${list(d.scopeFields)}`,
    `expiresAtField = ${s(d.expiresAtField)}`,
    ...(d.notBeforeField === undefined ? [] : [`notBeforeField = ${s(d.notBeforeField)}`]),
    `skewSeconds = ${d.skewSeconds}`,
    ...(d.maxLifetimeSeconds === undefined ? [] : [`maxLifetimeSeconds = ${d.maxLifetimeSeconds}`]),
    `timeFormat = ReplayTimeFormat.${(d.timeFormat ?? "rfc3339") === "unix-seconds" ? "UNIX_SECONDS" : "RFC3339"}`,
  ];
  return { name: message.name, constName: screamingSnake(message.name), args };
}
