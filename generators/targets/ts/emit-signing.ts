// Per-message security functions, generated from the x-signature, x-content-address and
// x-approval-token declarations. The generated code only binds a declaration (data) to the
// generic runtime function; nothing protocol-specific is hand-written in the runtime.
import type { Message, OutputFile, Protocol } from "../../model/types.js";
import { withArticle } from "../../emit/prose.js";
import { nestedContentAddressed } from "../../model/queries.js";
import { canonicalizationDialects } from "../../model/dialects.js";
import { signingInputFunction, signingInputFunctionName } from "./emit-signing-input.js";
import { runtimeSymbol, type ContractId } from "../../emit/runtime-contract.js";

/** The TypeScript runtime's name for a contract function (generators/emit/runtime-contract.ts). */
const rt = (id: ContractId): string => runtimeSymbol("ts", id).name;

/** One import line for contract functions of one runtime module, names sorted. */
function runtimeImport(...ids: ContractId[]): string {
  const symbols = ids.map((id) => runtimeSymbol("ts", id));
  const files = new Set(symbols.map((s) => s.file));
  if (files.size !== 1) throw new Error(`TypeScript: ${ids.join(", ")} live in ${[...files].join(", ")}, not one module`);
  return `import { ${symbols.map((s) => s.name).sort().join(", ")} } from "../runtime/${[...files][0]!.replace(/\.ts$/, ".js")}";`;
}

export function emitSigning(protocol: Protocol): OutputFile[] {
  const signed = protocol.messages.filter((m) => m.signature !== undefined);
  const addressed = protocol.messages.filter((m) => m.contentAddress !== undefined);
  const tokens = protocol.messages.filter((m) => m.approvalToken !== undefined);
  const replayed = protocol.messages.filter((m) => m.replay !== undefined);
  if (signed.length + addressed.length + tokens.length + replayed.length === 0) return [];
  const sources = [...new Set([...signed, ...addressed, ...tokens, ...replayed].map((m) => m.location.file))].sort();

  const js: string[] = [
    // The generated signing-input functions need the runtime's line helpers only where a message is signed.
    ...(signed.length > 0
      ? [
          `import { hmacV1DigestLine, hmacV1FieldMissing, hmacV1FieldNotString, hmacV1NotAnObject, signHmacV1, verifyHmacV1 } from "../runtime/signing-hmac-v1.js";`,
          `import { isJsonObject } from "../runtime/json-value.js";`,
        ]
      : [`import { signHmacV1, verifyHmacV1 } from "../runtime/signing-hmac-v1.js";`]),
    `import { explainHmacV1 } from "../runtime/signature-doctor.js";`,
    runtimeImport("computeContentId", "importContentRecord", "verifyContentId"),
    runtimeImport("approvalDecode", "approvalMint", "approvalVerify"),
    runtimeImport("replayGuard"),
    `import { signTyped, verifyTyped } from "../runtime/typed-signing.js";`,
    `import * as messages from "./messages.js";`,
  ];
  const dts: string[] = [
    `import type { HmacSha256V1Declaration, ${signed.length > 0 ? "HmacV1InputResult, HmacV1Key, " : ""}HmacV1SignResult, HmacV1VerifyResult } from "../runtime/signing-hmac-v1.js";`,
    `import type { CanonicalizationDialect } from "../runtime/canonical-dialects.js";`,
    `import type { SignatureExplanation } from "../runtime/signature-doctor.js";`,
    `import type { ContentAddressDeclaration, ContentImportResult } from "../runtime/content-address.js";`,
    `import type { ApprovalTokenDeclaration, ApprovalBindings, ApprovalDecodeResult, ApprovalMintResult, MintApprovalInput, MintOptions } from "../runtime/approval-token.js";`,
    `import type { JsonObject } from "../runtime/json-value.js";`,
    `import type { ReplayDeclaration, ReplayGuard, ReplayStore } from "../runtime/replay-guard.js";`,
    `import type { Unsigned, VerifiedMessage } from "../runtime/typed-signing.js";`,
    `import type { ${[...new Set([...signed, ...addressed, ...tokens, ...replayed].map((m) => m.name))].sort().join(", ")} } from "./types.js";`,
  ];
  if (signed.length > 0) {
    js.push(
      `\n/** The recorded platform JSON writers (divergences with a canonicalization entry): what the signature doctor tries. */\nexport const CANONICALIZATION_DIALECTS = /* @__PURE__ */ Object.freeze(${JSON.stringify(canonicalizationDialects(protocol))});`,
    );
    dts.push(`\nexport declare const CANONICALIZATION_DIALECTS: readonly CanonicalizationDialect[];`);
    js.push(`\nconst hasOwn = Object.prototype.hasOwnProperty;`);
  }
  for (const m of signed) {
    const decl = `${constName(m.name)}_SIGNATURE`;
    // The unsigned type drops exactly the fields signing writes, named by the x-signature declaration.
    const unsigned = `Unsigned${m.name}`;
    const signedFields = [m.signature!.signatureField, m.signature!.algorithmField];
    const input = signingInputFunctionName(m.name);
    js.push(
      `\n/** How ${m.name} is signed (x-signature). */\nexport const ${decl} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.signature)});`,
      signingInputFunction(m.name, m.signature!),
      `\n/** Signs an ${unsigned}: returns the signed ${m.name}, checked against its schema; throws SigningError. */\nexport function sign${m.name}(unsigned, key) {\n  return signTyped(${decl}, messages.validate${m.name}, unsigned, key, ${input});\n}`,
      `\n/** Verifies a received ${m.name} (value, JSON text or bytes): signature in constant time, then schema; returns it typed or a reason code. */\nexport function verify${m.name}(input, key) {\n  return verifyTyped(${decl}, messages.validate${m.name}, input, key, ${input});\n}`,
      `\n/** The ${m.name} signature as a result, without the schema check: the generic form the CLI uses. */\nexport function compute${m.name}Signature(message, key) {\n  return ${rt("hmacSign")}(${decl}, message, key, ${input});\n}`,
      `\n/** Verifies ${withArticle(m.name)}'s signature in constant time; the reason code says what failed. */\nexport function verify${m.name}Signature(message, key) {\n  return ${rt("hmacVerify")}(${decl}, message, key, ${input});\n}`,
      `\n/** Verifies the received ${m.name} text and, when that fails, names each recorded dialect whose bytes the signature matches (never acceptance). */\nexport function explain${m.name}Signature(text, key) {\n  return explainHmacV1(${decl}, CANONICALIZATION_DIALECTS, text, key);\n}`,
    );
    dts.push(
      `\nexport declare const ${decl}: HmacSha256V1Declaration;`,
      `/** The ${m.name} signing input, built by code generated from ${decl}'s lines. */`,
      `export declare function ${input}(message: ${m.name} | ${unsigned} | JsonObject): HmacV1InputResult;`,
      `/** ${m.name} before signing: without ${signedFields.map((f) => `\`${f}\``).join(" and ")}, which sign${m.name} writes. */`,
      `export type ${unsigned} = Unsigned<${m.name}, ${signedFields.map((f) => JSON.stringify(f)).join(" | ")}>;`,
      `/** Signs an ${unsigned} and returns the signed ${m.name}, checked against its schema and rules. Throws SigningError (empty key, invalid message). */`,
      `export declare function sign${m.name}(unsigned: ${unsigned}, key: HmacV1Key): ${m.name};`,
      `/** Verifies a received ${m.name} (parsed value, or JSON text / UTF-8 bytes parsed strictly): the MAC in constant time, then the schema. */`,
      `export declare function verify${m.name}(input: unknown, key: HmacV1Key): VerifiedMessage<${m.name}>;`,
      `export declare function compute${m.name}Signature(message: ${m.name} | ${unsigned} | JsonObject, key: HmacV1Key): HmacV1SignResult;`,
      `export declare function verify${m.name}Signature(message: ${m.name} | JsonObject, key: HmacV1Key): HmacV1VerifyResult;`,
      `export declare function explain${m.name}Signature(text: string, key: string | Uint8Array): SignatureExplanation;`,
    );
  }
  for (const m of replayed) {
    const decl = `${constName(m.name)}_REPLAY`;
    js.push(
      `\n/** How a receiver admits ${m.name} only once (x-replay). */\nexport const ${decl} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.replay)});`,
      `\n/** A replay guard for ${m.name}: run admit() after the signature verifies, so forgeries leave no record. */\nexport function create${m.name}ReplayGuard(store, now) {\n  return new ${rt("replayGuard")}(${decl}, store, now);\n}`,
    );
    dts.push(
      `\nexport declare const ${decl}: ReplayDeclaration;`,
      `export declare function create${m.name}ReplayGuard(store: ReplayStore, now?: () => number): ReplayGuard<${m.name}>;`,
    );
  }
  for (const m of addressed) {
    const decl = `${constName(m.name)}_CONTENT_ADDRESS`;
    const nested = nestedContentAddressed(m, protocol);
    const nestedChecks = nested.map((n) => ` && ${rt("verifyContentId")}(${constName(n.message.name)}_CONTENT_ADDRESS, value[${JSON.stringify(n.property)}])`).join("");
    js.push(
      `\n/** How ${m.name} is named by its content (x-content-address). */\nexport const ${decl} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.contentAddress)});`,
      `\n/** The ${m.contentAddress!.idField} of a ${m.name}: prefix + SHA-256 of its canonical bytes without the id. */\nexport function compute${m.name}Id(record) {\n  return ${rt("computeContentId")}(${decl}, record);\n}`,
      `\nexport function verify${m.name}Id(record) {\n  return ${rt("verifyContentId")}(${decl}, record);\n}`,
      `\n/** Imports untrusted bytes: JSON, then schema${nested.length ? " (with nested ids)" : ""}, then id, then canonical form. */\nexport function import${m.name}(input) {\n  return ${rt("importContentRecord")}(${decl}, input, (value) => messages.validate${m.name}(value).ok${nestedChecks});\n}`,
    );
    dts.push(
      `\nexport declare const ${decl}: ContentAddressDeclaration;`,
      `export declare function compute${m.name}Id(record: ${m.name} | JsonObject): string;`,
      `export declare function verify${m.name}Id(record: ${m.name} | JsonObject): boolean;`,
      `export declare function import${m.name}(input: string | Uint8Array): ContentImportResult<${m.name}>;`,
    );
  }
  for (const m of tokens) {
    const decl = `${constName(m.name)}_TOKEN`;
    js.push(
      `\n/** The approval token rules for ${m.name} (x-approval-token). */\nexport const ${decl} = /* @__PURE__ */ Object.freeze(${JSON.stringify(m.approvalToken)});`,
      `\nexport function mint${m.name}Token(input, secret, options = {}) {\n  return ${rt("approvalMint")}(input, secret, { ...options, declaration: ${decl} });\n}`,
      `\nexport function decode${m.name}Token(token, secret, nowMs = Date.now()) {\n  return ${rt("approvalDecode")}(token, secret, nowMs, ${decl});\n}`,
      `\nexport function verify${m.name}Token(token, secret, bindings, nowMs = Date.now()) {\n  return ${rt("approvalVerify")}(token, secret, bindings, nowMs, ${decl});\n}`,
    );
    dts.push(
      `\nexport declare const ${decl}: ApprovalTokenDeclaration;`,
      `export declare function mint${m.name}Token(input: MintApprovalInput, secret: string | Uint8Array, options?: Omit<MintOptions, "declaration">): ApprovalMintResult;`,
      `export declare function decode${m.name}Token(token: string, secret: string | Uint8Array, nowMs?: number): ApprovalDecodeResult;`,
      `export declare function verify${m.name}Token(token: string, secret: string | Uint8Array, bindings: ApprovalBindings, nowMs?: number): ApprovalDecodeResult;`,
    );
  }
  return [
    { path: `${protocol.id}/signing.js`, contents: js.join("\n") + "\n", sources },
    { path: `${protocol.id}/signing.d.ts`, contents: dts.join("\n") + "\n", sources },
  ];
}

function constName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
