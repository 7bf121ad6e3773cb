// The spec's declaration annotations as the model types them: x-rules, x-content-address,
// x-signature, x-replay, x-approval-token. The TypeScript runtime (targets/ts/runtime/src) ships
// without the generator, so it declares the same shapes itself; declarations.typetest.ts makes
// `tsc` fail when the two drift apart. Both follow spec/meta/message.schema.json and
// spec/meta/signing.schema.json, which the check stage enforces before the model is built.
import type { JsonValue } from "./json.js";

/** One x-rules entry: a cross-field rule JSON Schema cannot state, with JSON-pointer operands. */
export type CrossFieldRule =
  | { id: string; kind: "equal"; message: string; left: string; right: string }
  | { id: string; kind: "urlOriginIn"; message: string; url: string; list: string }
  | { id: string; kind: "semverLte"; message: string; lower: string; upper: string }
  | { id: string; kind: "semverRangeIncludes"; message: string; min: string; max: string; version: string }
  | { id: string; kind: "uniqueBy"; message: string; array: string; key: string }
  | { id: string; kind: "lastItemEquals"; message: string; array: string; key: string; value: string }
  | { id: string; kind: "noSecrets"; message: string; text: string }
  | { id: string; kind: "whatwgUrl"; message: string; url: string; form: "origin" | "endpoint" };

/** x-content-address: id = prefix + hex SHA-256 of JCS(record without its id field). */
export interface ContentAddress {
  idField: string;
  prefix: string;
  digest: "sha256-hex";
  covers: "record-without-id";
  maxCanonicalBytes?: number;
  canonicalInput?: boolean;
}

export interface SigningLine {
  name: string;
  field: string;
  value: "string" | "sha256-jcs-base64-std-nopad";
  default?: JsonValue;
}

/** x-signature (scheme hmac-sha256-v1, the only scheme the meta-schema allows). */
export interface SignatureDeclaration {
  scheme: "hmac-sha256-v1";
  algorithmId: string;
  algorithmField: string;
  signatureField: string;
  lineSeparator: "\n";
  lines: SigningLine[];
  key: { source: string; field: string; encoding: "utf8" };
  signatureEncoding: "base64-std-nopad";
}

/** x-replay: which fields make a message single-use, and the clock tolerance. */
export interface ReplayDeclaration {
  keyFields: string[];
  scopeFields: string[];
  expiresAtField: string;
  notBeforeField?: string;
  timeFormat?: "rfc3339" | "unix-seconds";
  skewSeconds: number;
  maxLifetimeSeconds?: number;
}

/** x-approval-token: the token version and its lifetime bounds. */
export interface ApprovalTokenDeclaration {
  version: number;
  maxLifetimeSeconds: number;
  clockSkewSeconds: number;
  minTtlSeconds: number;
  maxTtlSeconds: number;
  defaultTtlSeconds: number;
  /** Shortest secret mint and verify accept, in bytes. */
  minSecretBytes: number;
}

/** x-inferred-from-clients: fields known only from client code. */
export interface InferredFromClients {
  fields: string[];
  clients: string[];
}
