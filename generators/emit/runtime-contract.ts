// The runtime contract (issue 29): the functions every language's hand-written runtime offers, so
// a new language knows what to implement, and the symbol that implements each in each language.
// A symbol names the runtime file (generators/targets/ts/runtime/src, kotlin/runtime, swift/runtime,
// rust/runtime), the object or type that holds it when there is one, and its name; null: that
// runtime does not offer it yet (the docs site's Runtime contract page shows the gap). Each target
// reaches its runtime through its column (runtimeSymbol below), never by a name of its own, and
// generators/test/runtime-contract.test.ts checks every symbol against the runtime's real exports
// (TypeScript: the module imported) and declarations (Kotlin, Swift, Rust: the sources read), and
// each symbol's name against the entry's `name`, modulo casing (camelCase, PascalCase, snake_case
// and Swift's upper-case initialisms all spell the same words).

/** The languages with a hand-written runtime, by target id. */
export const RUNTIME_LANGUAGES = { ts: "TypeScript", kotlin: "Kotlin", swift: "Swift", rust: "Rust" } as const;

export type RuntimeLanguage = keyof typeof RUNTIME_LANGUAGES;

export interface RuntimeSymbol {
  /** The runtime source file that declares it. */
  readonly file: string;
  /** The object (Kotlin), enum or type (Swift) it is a member of; absent for a top-level export. */
  readonly container?: string;
  readonly name: string;
  /**
   * The name a released runtime had before it took the contract's name, still declared as a
   * deprecated alias, and the version that renamed it (RUNTIME_RENAMES: the changelog says so).
   */
  readonly formerly?: { readonly name: string; readonly renamedIn: string };
}

export interface ContractEntry {
  /** The entry's key in emitters (camelCase). */
  readonly id: string;
  /**
   * The function's name (camelCase): every language's symbol is named this, modulo casing. It is
   * the TypeScript export's name, since TypeScript's runtime is one flat namespace (the package
   * root re-exports every module), where a short `verify` or `sign` would collide.
   */
  readonly name: string;
  /** What it does, for the parity table. */
  readonly does: string;
  readonly ts: RuntimeSymbol | null;
  readonly kotlin: RuntimeSymbol | null;
  readonly swift: RuntimeSymbol | null;
  readonly rust: RuntimeSymbol | null;
}

export const RUNTIME_CONTRACT = [
  {
    id: "strictParse",
    name: "parseStrictJson",
    does: "Parses untrusted bytes as strict JSON (RFC 8259 with I-JSON limits: no duplicate keys, no lone surrogates, bounded depth and size), the first step before any validation.",
    ts: { file: "strict-json.ts", name: "parseStrictJson" },
    kotlin: { file: "StrictJson.kt", container: "StrictJson", name: "parseStrictJson", formerly: { name: "parse", renamedIn: "0.1.1" } },
    swift: { file: "StrictJSON.swift", container: "StrictJSON", name: "parseStrictJSON", formerly: { name: "parse", renamedIn: "0.1.1" } },
    rust: { file: "strict_json.rs", name: "parse_strict_json" },
  },
  {
    id: "canonicalize",
    name: "canonicalize",
    does: "Writes a JSON value as RFC 8785 (JCS) canonical text: the bytes every hash and signature is computed over.",
    ts: { file: "canonical-json.ts", name: "canonicalize" },
    kotlin: { file: "CanonicalJson.kt", container: "CanonicalJson", name: "canonicalize" },
    swift: { file: "CanonicalJSON.swift", container: "CanonicalJSON", name: "canonicalize" },
    rust: { file: "canonical_json.rs", name: "canonicalize" },
  },
  {
    id: "hmacSigningInput",
    name: "hmacV1SigningInput",
    does: "The exact text an hmac-sha256-v1 signature covers (x-signature): the canonical message without its signature member.",
    ts: { file: "signing-hmac-v1.ts", name: "hmacV1SigningInput" },
    kotlin: { file: "HmacSha256V1.kt", container: "HmacSha256V1", name: "hmacV1SigningInput", formerly: { name: "signingInput", renamedIn: "0.1.1" } },
    swift: { file: "SigningHmacV1.swift", container: "HMACSHA256V1", name: "hmacV1SigningInput", formerly: { name: "signingInput", renamedIn: "0.1.1" } },
    rust: { file: "hmac_v1.rs", name: "hmac_v1_signing_input" },
  },
  {
    id: "hmacSign",
    name: "signHmacV1",
    does: "Signs a message held as JSON with hmac-sha256-v1: a copy with its algorithm and signature members set.",
    ts: { file: "signing-hmac-v1.ts", name: "signHmacV1" },
    kotlin: { file: "HmacSha256V1.kt", container: "HmacSha256V1", name: "signHmacV1", formerly: { name: "sign", renamedIn: "0.1.1" } },
    swift: { file: "SigningHmacV1.swift", container: "HMACSHA256V1", name: "signHMACV1", formerly: { name: "sign", renamedIn: "0.1.1" } },
    rust: { file: "hmac_v1.rs", name: "sign_hmac_v1" },
  },
  {
    id: "hmacVerify",
    name: "verifyHmacV1",
    does: "Verifies an hmac-sha256-v1 signature in constant time and says why it failed (a reason code).",
    ts: { file: "signing-hmac-v1.ts", name: "verifyHmacV1" },
    kotlin: { file: "HmacSha256V1.kt", container: "HmacSha256V1", name: "verifyHmacV1", formerly: { name: "check", renamedIn: "0.1.1" } },
    swift: { file: "SigningHmacV1.swift", container: "HMACSHA256V1", name: "verifyHMACV1", formerly: { name: "verify", renamedIn: "0.1.1" } },
    rust: { file: "hmac_v1.rs", name: "verify_hmac_v1" },
  },
  {
    id: "replayGuard",
    name: "ReplayGuard",
    does: "Admits a signed message once within its freshness window (x-replay): refuses a replayed nonce or a stale timestamp, over a pluggable store.",
    ts: { file: "replay-guard.ts", name: "ReplayGuard" },
    kotlin: { file: "ReplayGuard.kt", name: "ReplayGuard" },
    swift: { file: "ReplayGuard.swift", name: "ReplayGuard" },
    rust: { file: "replay.rs", name: "ReplayGuard" },
  },
  {
    id: "computeContentId",
    name: "computeContentId",
    does: "The id of a content-addressed record (x-content-address): prefix + SHA-256 of its canonical bytes without the id member.",
    ts: { file: "content-address.ts", name: "computeContentId" },
    kotlin: { file: "ContentAddress.kt", container: "ContentAddress", name: "computeContentId", formerly: { name: "computeId", renamedIn: "0.1.1" } },
    swift: { file: "ContentAddress.swift", container: "ContentAddress", name: "computeContentID", formerly: { name: "computeID", renamedIn: "0.1.1" } },
    rust: { file: "content_address.rs", name: "compute_content_id" },
  },
  {
    id: "verifyContentId",
    name: "verifyContentId",
    does: "Whether a content-addressed record carries the id its bytes give.",
    ts: { file: "content-address.ts", name: "verifyContentId" },
    kotlin: { file: "ContentAddress.kt", container: "ContentAddress", name: "verifyContentId", formerly: { name: "verifyId", renamedIn: "0.1.1" } },
    swift: { file: "ContentAddress.swift", container: "ContentAddress", name: "verifyContentID", formerly: { name: "verifyID", renamedIn: "0.1.1" } },
    rust: { file: "content_address.rs", name: "verify_content_id" },
  },
  {
    id: "importContentRecord",
    name: "importCanonicalRecord",
    does: "Imports untrusted bytes as a content-addressed record: strict JSON, schema, id, then canonical form.",
    ts: { file: "content-address.ts", name: "importCanonicalRecord" },
    kotlin: { file: "ContentAddress.kt", container: "ContentAddress", name: "importCanonicalRecord", formerly: { name: "importAs", renamedIn: "0.1.1" } },
    swift: { file: "ContentAddress.swift", container: "ContentAddress", name: "importCanonicalRecord", formerly: { name: "importRecord", renamedIn: "0.1.1" } },
    rust: null,
  },
  {
    id: "auditEventId",
    name: "computeAuditEventId",
    does: "The event id of an audit-chain entry (x-audit-chain): SHA-256 of the canonical entry without its id.",
    ts: { file: "audit-chain.ts", name: "computeAuditEventId" },
    kotlin: { file: "AuditChain.kt", container: "AuditChain", name: "computeAuditEventId", formerly: { name: "computeEventId", renamedIn: "0.1.1" } },
    swift: { file: "AuditChain.swift", container: "AuditChain", name: "computeAuditEventID", formerly: { name: "eventID", renamedIn: "0.1.1" } },
    rust: { file: "audit_chain.rs", name: "compute_audit_event_id" },
  },
  {
    id: "auditAppend",
    name: "appendAuditEntry",
    does: "Appends an entry to a hash-chained audit log: sequence, previous id and event id filled in.",
    ts: { file: "audit-chain.ts", name: "appendAuditEntry" },
    kotlin: { file: "AuditChain.kt", container: "AuditChain", name: "appendAuditEntry" },
    swift: { file: "AuditChain.swift", container: "AuditChain", name: "appendAuditEntry", formerly: { name: "append", renamedIn: "0.1.1" } },
    rust: { file: "audit_chain.rs", name: "append_audit_entry" },
  },
  {
    id: "auditVerify",
    name: "verifyAuditChain",
    does: "Verifies a hash-chained audit log: every link, sequence number and id, and the expected head.",
    ts: { file: "audit-chain.ts", name: "verifyAuditChain" },
    kotlin: { file: "AuditChain.kt", container: "AuditChain", name: "verifyAuditChain", formerly: { name: "verify", renamedIn: "0.1.1" } },
    swift: { file: "AuditChain.swift", container: "AuditChain", name: "verifyAuditChain", formerly: { name: "verify", renamedIn: "0.1.1" } },
    rust: { file: "audit_chain.rs", name: "verify_audit_chain" },
  },
  {
    id: "auditVerifyLog",
    name: "verifyAuditLog",
    does: "Verifies an audit log read as JSON lines (audit.jsonl).",
    ts: { file: "audit-chain.ts", name: "verifyAuditLog" },
    kotlin: { file: "AuditChain.kt", container: "AuditChain", name: "verifyAuditLog", formerly: { name: "verifyLog", renamedIn: "0.1.1" } },
    swift: { file: "AuditChain.swift", container: "AuditChain", name: "verifyAuditLog", formerly: { name: "verifyLog", renamedIn: "0.1.1" } },
    rust: { file: "audit_chain.rs", name: "verify_audit_log" },
  },
  {
    id: "approvalMint",
    name: "mintApprovalToken",
    does: "Mints a signed, expiring approval token (x-approval-token) bound to the request it approves.",
    ts: { file: "approval-token.ts", name: "mintApprovalToken" },
    kotlin: { file: "ApprovalToken.kt", container: "ApprovalToken", name: "mintApprovalToken", formerly: { name: "mint", renamedIn: "0.1.1" } },
    swift: { file: "ApprovalToken.swift", container: "ApprovalToken", name: "mintApprovalToken", formerly: { name: "mint", renamedIn: "0.1.1" } },
    rust: null,
  },
  {
    id: "approvalDecode",
    name: "decodeApprovalToken",
    does: "Decodes an approval token: signature and expiry checked, claims returned.",
    ts: { file: "approval-token.ts", name: "decodeApprovalToken" },
    kotlin: { file: "ApprovalToken.kt", container: "ApprovalToken", name: "decodeApprovalToken", formerly: { name: "decode", renamedIn: "0.1.1" } },
    swift: { file: "ApprovalToken.swift", container: "ApprovalToken", name: "decodeApprovalToken", formerly: { name: "decode", renamedIn: "0.1.1" } },
    rust: null,
  },
  {
    id: "approvalVerify",
    name: "verifyApprovalToken",
    does: "Verifies an approval token against the request it must approve (its bindings).",
    ts: { file: "approval-token.ts", name: "verifyApprovalToken" },
    kotlin: { file: "ApprovalToken.kt", container: "ApprovalToken", name: "verifyApprovalToken", formerly: { name: "verify", renamedIn: "0.1.1" } },
    swift: { file: "ApprovalToken.swift", container: "ApprovalToken", name: "verifyApprovalToken", formerly: { name: "verify", renamedIn: "0.1.1" } },
    rust: null,
  },
  {
    id: "lifecycleMachine",
    name: "lifecycleMachine",
    does: "Runs a lifecycle state machine: the transition an event takes from a state under its guards, the allowed events, the terminal states.",
    ts: { file: "lifecycle-runner.ts", name: "lifecycleMachine", formerly: { name: "defineMachine", renamedIn: "0.1.1" } },
    kotlin: { file: "LifecycleMachine.kt", name: "LifecycleMachine" },
    swift: { file: "Lifecycle.swift", name: "LifecycleMachine" },
    rust: { file: "lifecycle.rs", name: "LifecycleMachine" },
  },
] as const satisfies readonly ContractEntry[];

export type ContractId = (typeof RUNTIME_CONTRACT)[number]["id"];

/**
 * How a language's emitted code names a contract function: `Container.name`, or the bare name of a
 * top-level export. Throws when that runtime does not offer it: an emitter must not emit a call
 * into a function its runtime lacks.
 */
export function runtimeSymbol(language: RuntimeLanguage, id: ContractId): RuntimeSymbol & { qualified: string } {
  const entry: ContractEntry = RUNTIME_CONTRACT.find((e) => e.id === id)!;
  const symbol = entry[language];
  if (symbol === null) throw new Error(`the ${RUNTIME_LANGUAGES[language]} runtime does not offer ${id} (generators/emit/runtime-contract.ts)`);
  return { ...symbol, qualified: symbol.container === undefined ? symbol.name : `${symbol.container}.${symbol.name}` };
}

/** A name with its casing and word separators removed: `verify_hmac_v1`, `verifyHMACV1` and `verifyHmacV1` are alike. */
export function caseless(name: string): string {
  return name.replace(/_/g, "").toLowerCase();
}

/**
 * The symbols whose name still differs from the entry's, as `<language>:<entry id>`: renames owed
 * (each needs a deprecated alias under the old name once a runtime has shipped it). Empty since
 * 0.1.1 renamed the last Kotlin and Swift ones; the contract test fails on a symbol that differs
 * and is not listed here, and on a listed one that no longer differs, so a name that drifts from
 * its entry fails until it is renamed back or listed here with a reason.
 */
export const NAMES_NOT_YET_ALIGNED: readonly string[] = [];

/** Every symbol renamed to its contract name, with the old name it keeps as a deprecated alias, for the changelog. */
export const RUNTIME_RENAMES: readonly { language: RuntimeLanguage; from: string; to: string; version: string }[] = RUNTIME_CONTRACT.flatMap((entry: ContractEntry) =>
  (Object.keys(RUNTIME_LANGUAGES) as RuntimeLanguage[]).flatMap((language) => {
    const symbol = entry[language];
    if (symbol?.formerly === undefined) return [];
    const qualified = (name: string): string => (symbol.container === undefined ? name : `${symbol.container}.${name}`);
    return [{ language, from: qualified(symbol.formerly.name), to: qualified(symbol.name), version: symbol.formerly.renamedIn }];
  }),
);
