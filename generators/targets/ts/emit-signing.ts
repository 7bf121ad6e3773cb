// Per-message security functions, generated from the x-signature, x-content-address and
// x-approval-token declarations, as one TypeScript module per protocol (signing.ts). The generated
// code only binds a declaration (data) to the generic runtime function; nothing protocol-specific
// is hand-written in the runtime.
import type { Protocol } from "../../model/types.js";
import { withArticle } from "../../emit/prose.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { canonicalizationDialects } from "../../model/dialects.js";
import { signingInputFunction, signingInputFunctionName } from "./emit-signing-input.js";
import { TsFile } from "./ts-file.js";

const SIGNING = "runtime/signing-hmac-v1.js";
const JSON_VALUE = "runtime/json-value.js";

/** `<protocol>/signing.ts`, or nothing when no message of the protocol is signed, addressed, a token or single-use. */
export function signingModules(protocol: Protocol): TsFile[] {
  const signed = protocol.messages.filter((m) => m.signature !== undefined);
  const addressed = protocol.messages.filter((m) => m.contentAddress !== undefined);
  const tokens = protocol.messages.filter((m) => m.approvalToken !== undefined);
  const replayed = protocol.messages.filter((m) => m.replay !== undefined);
  if (signed.length + addressed.length + tokens.length + replayed.length === 0) return [];
  const sources = [...new Set([...signed, ...addressed, ...tokens, ...replayed].map((m) => m.location.file))].sort();
  const f = new TsFile(`${protocol.id}/signing.ts`, sources);
  const type = (name: string): string => f.importType(name, `${protocol.id}/types.js`);
  const jsonObject = (): string => f.importType("JsonObject", JSON_VALUE);
  const messages = (): string => f.importNamespace(`${protocol.id}/messages.js`, "messages");

  if (signed.length > 0) {
    f.print(
      "/** The recorded platform JSON writers (divergences with a canonicalization entry): what the signature doctor tries. */",
      `export const CANONICALIZATION_DIALECTS: readonly ${f.importType("CanonicalizationDialect", "runtime/canonical-dialects.js")}[] = /* @__PURE__ */ Object.freeze(${JSON.stringify(canonicalizationDialects(protocol))}) as readonly CanonicalizationDialect[];`,
      "",
      "const hasOwn = Object.prototype.hasOwnProperty;",
    );
  }
  for (const m of signed) {
    const decl = `${constName(m.name)}_SIGNATURE`;
    // The unsigned type drops exactly the fields signing writes, named by the x-signature declaration.
    const unsigned = `Unsigned${m.name}`;
    const signedFields = [m.signature!.signatureField, m.signature!.algorithmField];
    const input = signingInputFunctionName(m.name);
    const key = f.importType("HmacV1Key", SIGNING);
    const t = type(m.name);
    const validate = (): string => `${messages()}.validate${m.name}`;
    f.print(
      "",
      `/** How ${m.name} is signed (x-signature). */`,
      `export const ${decl}: ${f.importType("HmacSha256V1Declaration", SIGNING)} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.signature)}) as HmacSha256V1Declaration;`,
      "",
      `/** ${m.name} before signing: without ${signedFields.map((field) => `\`${field}\``).join(" and ")}, which sign${m.name} writes. */`,
      `export type ${unsigned} = ${f.importType("Unsigned", "runtime/typed-signing.js")}<${t}, ${signedFields.map((field) => JSON.stringify(field)).join(" | ")}>;`,
      signingInputFunction(m.name, m.signature!, {
        helper: (name) => f.import(name, SIGNING),
        isJsonObject: () => f.import("isJsonObject", JSON_VALUE),
        parameter: `${t} | ${unsigned} | ${jsonObject()}`,
        result: () => f.importType("HmacV1InputResult", SIGNING),
      }),
      "",
      `/** Signs an ${unsigned} and returns the signed ${m.name}, checked against its schema and rules. Throws SigningError (empty key, invalid message). */`,
      `export function sign${m.name}(unsigned: ${unsigned}, key: ${key}): ${t} {`,
      `  return ${f.import("signTyped", "runtime/typed-signing.js")}(${decl}, ${validate()}, unsigned, key, ${input});`,
      "}",
      "",
      `/** Verifies a received ${m.name} (parsed value, or JSON text / UTF-8 bytes parsed strictly): the MAC in constant time, then the schema; returns it typed or a reason code. */`,
      `export function verify${m.name}(input: unknown, key: ${key}): ${f.importType("VerifiedMessage", "runtime/typed-signing.js")}<${t}> {`,
      `  return ${f.import("verifyTyped", "runtime/typed-signing.js")}(${decl}, ${validate()}, input, key, ${input});`,
      "}",
      "",
      `/** The ${m.name} signature as a result, without the schema check: the generic form the CLI uses. */`,
      `export function compute${m.name}Signature(message: ${t} | ${unsigned} | ${jsonObject()}, key: ${key}): ${f.importType("HmacV1SignResult", SIGNING)} {`,
      `  return ${f.runtime("hmacSign")}(${decl}, message as ${jsonObject()}, key, ${input});`,
      "}",
      "",
      `/** Verifies ${withArticle(m.name)}'s signature in constant time; the reason code says what failed. */`,
      `export function verify${m.name}Signature(message: ${t} | ${jsonObject()}, key: ${key}): ${f.importType("HmacV1VerifyResult", SIGNING)} {`,
      `  return ${f.runtime("hmacVerify")}(${decl}, message as ${jsonObject()}, key, ${input});`,
      "}",
      "",
      `/** Verifies the received ${m.name} text and, when that fails, names each recorded dialect whose bytes the signature matches (never acceptance). */`,
      `export function explain${m.name}Signature(text: string, key: string | Uint8Array): ${f.importType("SignatureExplanation", "runtime/signature-doctor.js")} {`,
      `  return ${f.import("explainHmacV1", "runtime/signature-doctor.js")}(${decl}, CANONICALIZATION_DIALECTS, text, key);`,
      "}",
    );
  }
  for (const m of replayed) {
    const decl = `${constName(m.name)}_REPLAY`;
    const declaration = f.importType("ReplayDeclaration", "runtime/replay-guard.js");
    f.print(
      "",
      `/** How a receiver admits ${m.name} only once (x-replay). */`,
      `export const ${decl}: ${declaration} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.replay)}) as ${declaration};`,
      "",
      `/** A replay guard for ${m.name}: run admit() after the signature verifies, so forgeries leave no record. */`,
      `export function create${m.name}ReplayGuard(store: ${f.importType("ReplayStore", "runtime/replay-guard.js")}, now?: () => number): ${f.runtime("replayGuard")}<${type(m.name)}> {`,
      `  return new ${f.runtime("replayGuard")}(${decl}, store, now);`,
      "}",
    );
  }
  for (const m of addressed) {
    const decl = `${constName(m.name)}_CONTENT_ADDRESS`;
    const nested = nestedContentAddressed(m, protocol);
    const nestedChecks = nested.map((n) => ` && ${f.runtime("verifyContentId")}(${constName(n.message.name)}_CONTENT_ADDRESS, (value as ${jsonObject()})[${JSON.stringify(n.property)}] as ${jsonObject()})`).join("");
    const declaration = f.importType("ContentAddressDeclaration", "runtime/content-address.js");
    const t = type(m.name);
    f.print(
      "",
      `/** How ${m.name} is named by its content (x-content-address). */`,
      `export const ${decl}: ${declaration} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.contentAddress)}) as ${declaration};`,
      "",
      `/** The ${m.contentAddress!.idField} of a ${m.name}: prefix + SHA-256 of its canonical bytes without the id. */`,
      `export function compute${m.name}Id(record: ${t} | ${jsonObject()}): string {`,
      `  return ${f.runtime("computeContentId")}(${decl}, record as ${jsonObject()});`,
      "}",
      "",
      `/** Whether ${withArticle(m.name)} carries the ${m.contentAddress!.idField} its bytes give. */`,
      `export function verify${m.name}Id(record: ${t} | ${jsonObject()}): boolean {`,
      `  return ${f.runtime("verifyContentId")}(${decl}, record as ${jsonObject()});`,
      "}",
      "",
      `/** Imports untrusted bytes: JSON, then schema${nested.length ? " (with nested ids)" : ""}, then id, then canonical form. */`,
      `export function import${m.name}(input: string | Uint8Array): ${f.importType("ContentImportResult", "runtime/content-address.js")}<${t}> {`,
      `  return ${f.runtime("importContentRecord")}(${decl}, input, (value) => ${messages()}.validate${m.name}(value).ok${nestedChecks}) as ContentImportResult<${t}>;`,
      "}",
    );
  }
  for (const m of tokens) {
    const decl = `${constName(m.name)}_TOKEN`;
    const declaration = f.importType("ApprovalTokenDeclaration", "runtime/approval-token.js");
    const decoded = f.importType("ApprovalDecodeResult", "runtime/approval-token.js");
    f.print(
      "",
      `/** The approval token rules for ${m.name} (x-approval-token). */`,
      `export const ${decl}: ${declaration} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.approvalToken)}) as ${declaration};`,
      "",
      `/** Mints a signed, expiring ${m.name} token bound to the request it approves. */`,
      `export function mint${m.name}Token(input: ${f.importType("MintApprovalInput", "runtime/approval-token.js")}, secret: string | Uint8Array, options: Omit<${f.importType("MintOptions", "runtime/approval-token.js")}, "declaration"> = {}): ${f.importType("ApprovalMintResult", "runtime/approval-token.js")} {`,
      `  return ${f.runtime("approvalMint")}(input, secret, { ...options, declaration: ${decl} });`,
      "}",
      "",
      `/** Decodes ${withArticle(m.name)} token: signature and expiry checked, claims returned. */`,
      `export function decode${m.name}Token(token: string, secret: string | Uint8Array, nowMs: number = Date.now()): ${decoded} {`,
      `  return ${f.runtime("approvalDecode")}(token, secret, nowMs, ${decl});`,
      "}",
      "",
      `/** Verifies ${withArticle(m.name)} token against the request it must approve (its bindings). */`,
      `export function verify${m.name}Token(token: string, secret: string | Uint8Array, bindings: ${f.importType("ApprovalBindings", "runtime/approval-token.js")}, nowMs: number = Date.now()): ${decoded} {`,
      `  return ${f.runtime("approvalVerify")}(token, secret, bindings, nowMs, ${decl});`,
      "}",
    );
  }
  return [f];
}

function constName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
