// agent-service approval tokens: base64url(JCS(claims)) + "." + base64url(HMAC-SHA256(secret,
// ASCII of the first part)). The MAC covers the received payload text verbatim, so only the
// payload digest depends on two encoders agreeing. Checks run in the reference verifier's order
// (format, signature encoding, MAC, payload encoding, claims, version, expiry, lifetime) so the
// same bad token gets the same error everywhere; bindings to the request are a second step.

import { canonicalize } from "./canonical-json.js";
import { base64UrlDecode, base64UrlEncode, constantTimeEqual, hmacSha256, randomUuid, sha256Hex } from "./crypto.js";
import { type JsonObject, type JsonValue, isJsonObject } from "./json-value.js";
import { parseStrictJson } from "./strict-json.js";

/** The `x-approval-token` annotation (spec/meta/signing.schema.json#/$defs/ApprovalToken). */
export interface ApprovalTokenDeclaration {
  version: number;
  maxLifetimeSeconds: number;
  clockSkewSeconds: number;
  minTtlSeconds: number;
  maxTtlSeconds: number;
  defaultTtlSeconds: number;
  /** Smallest accepted secret, in UTF-8 bytes; an empty secret is key-missing. */
  minSecretBytes: number;
}

/** The values the reference implementation uses. */
export const APPROVAL_TOKEN_V1: ApprovalTokenDeclaration = {
  version: 1,
  maxLifetimeSeconds: 1800,
  clockSkewSeconds: 60,
  minTtlSeconds: 60,
  maxTtlSeconds: 1800,
  defaultTtlSeconds: 600,
  minSecretBytes: 32,
};

export interface ApprovalClaims {
  v: number;
  exp: number;
  action: string;
  resource_id: string;
  actor_id: string;
  request_id: string;
  choice: string | null;
  expected_choice: string | null;
  override_requested: boolean;
  rationale: string | null;
  payload: JsonValue;
  payload_sha256: string | null;
  nonce: string;
}

export type ApprovalTokenErrorCode =
  | "invalid-format"
  | "signature-not-base64url"
  | "signature-invalid"
  | "payload-not-base64url"
  | "payload-invalid"
  | "version-unsupported"
  | "expired"
  | "lifetime-exceeded"
  | "not-bound-to-action"
  | "not-bound-to-request"
  | "payload-digest-mismatch"
  | "expected-choice-mismatch"
  | "missing-identity"
  | "mint-ttl-out-of-range"
  | "mint-identity-missing"
  | "key-missing"
  | "key-too-short";

export interface ApprovalTokenError {
  code: ApprovalTokenErrorCode;
  message: string;
}

export type ApprovalDecodeResult = { ok: true; claims: ApprovalClaims } | { ok: false; error: ApprovalTokenError };
export type ApprovalMintResult = { ok: true; token: string; claims: ApprovalClaims } | { ok: false; error: ApprovalTokenError };

function fail(code: ApprovalTokenErrorCode, message: string): { ok: false; error: ApprovalTokenError } {
  return { ok: false, error: { code, message } };
}

/** hex(SHA-256(JCS(payload))), or null for a null payload. */
export function approvalPayloadDigest(payload: JsonValue): string | null {
  return payload === null ? null : sha256Hex(canonicalize(payload));
}

export interface MintApprovalInput {
  action: string;
  resource_id: string;
  actor_id: string;
  request_id: string;
  choice?: string | null;
  expected_choice?: string | null;
  rationale?: string | null;
  payload?: JsonValue;
  nonce?: string;
}

export interface MintOptions {
  nowMs?: number;
  ttlSeconds?: number;
  declaration?: ApprovalTokenDeclaration;
}

/** An empty or short secret would let anyone (or a brute force) mint valid tokens. */
function secretProblem(secret: string | Uint8Array, declaration: ApprovalTokenDeclaration): { ok: false; error: ApprovalTokenError } | null {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret).length : secret.length;
  if (bytes === 0) return fail("key-missing", "approval token secret is empty");
  if (bytes < declaration.minSecretBytes) return fail("key-too-short", `approval token secret must be at least ${declaration.minSecretBytes} bytes`);
  return null;
}

/** Mints a token; refuses a TTL outside the declared range and a blank actor or request id. */
export function mintApprovalToken(input: MintApprovalInput, secret: string | Uint8Array, options: MintOptions = {}): ApprovalMintResult {
  const declaration = options.declaration ?? APPROVAL_TOKEN_V1;
  const weak = secretProblem(secret, declaration);
  if (weak) return weak;
  const ttl = options.ttlSeconds ?? declaration.defaultTtlSeconds;
  if (!Number.isInteger(ttl) || ttl < declaration.minTtlSeconds || ttl > declaration.maxTtlSeconds) {
    return fail("mint-ttl-out-of-range", `ttl must be ${declaration.minTtlSeconds}-${declaration.maxTtlSeconds} seconds`);
  }
  if (input.actor_id.trim() === "" || input.request_id.trim() === "") {
    return fail("mint-identity-missing", "approval requires an authenticated actor and a gateway request id");
  }
  const choice = input.choice ?? null;
  const expectedChoice = input.expected_choice ?? null;
  const payload = input.payload === undefined ? {} : input.payload;
  const claims: ApprovalClaims = {
    v: declaration.version,
    exp: Math.floor((options.nowMs ?? Date.now()) / 1000) + ttl,
    action: input.action,
    resource_id: input.resource_id,
    actor_id: input.actor_id,
    request_id: input.request_id,
    choice,
    expected_choice: expectedChoice,
    // Recorded only; the verifier's caller re-derives it at the point of use.
    override_requested: choice !== null && choice !== expectedChoice,
    rationale: input.rationale ?? null,
    payload,
    payload_sha256: approvalPayloadDigest(payload),
    nonce: input.nonce ?? randomUuid(),
  };
  const payloadText = base64UrlEncode(new TextEncoder().encode(canonicalize(claims)));
  const signature = base64UrlEncode(hmacSha256(secret, payloadText));
  return { ok: true, token: `${payloadText}.${signature}`, claims };
}

function readClaims(value: JsonValue): ApprovalClaims | null {
  if (!isJsonObject(value)) return null;
  const o: JsonObject = value;
  const str = (k: string): boolean => typeof o[k] === "string";
  const optStr = (k: string): boolean => o[k] === undefined || o[k] === null || typeof o[k] === "string";
  if (!Number.isInteger(o.v) || (o.v as number) < 0 || (o.v as number) > 255) return null;
  if (!Number.isSafeInteger(o.exp)) return null;
  if (!["action", "resource_id", "actor_id", "request_id", "nonce"].every(str)) return null;
  if (!["choice", "expected_choice", "rationale", "payload_sha256"].every(optStr)) return null;
  if (o.override_requested !== undefined && typeof o.override_requested !== "boolean") return null;
  return {
    v: o.v as number,
    exp: o.exp as number,
    action: o.action as string,
    resource_id: o.resource_id as string,
    actor_id: o.actor_id as string,
    request_id: o.request_id as string,
    choice: (o.choice ?? null) as string | null,
    expected_choice: (o.expected_choice ?? null) as string | null,
    override_requested: (o.override_requested ?? false) as boolean,
    rationale: (o.rationale ?? null) as string | null,
    payload: o.payload === undefined ? null : (o.payload as JsonValue),
    payload_sha256: (o.payload_sha256 ?? null) as string | null,
    nonce: o.nonce as string,
  };
}

/** Decodes and authenticates a token; `nowMs` is injectable so tests can fix the clock. */
export function decodeApprovalToken(
  token: string,
  secret: string | Uint8Array,
  nowMs: number = Date.now(),
  declaration: ApprovalTokenDeclaration = APPROVAL_TOKEN_V1,
): ApprovalDecodeResult {
  const weak = secretProblem(secret, declaration);
  if (weak) return weak;
  const dot = token.indexOf(".");
  if (dot < 0) return fail("invalid-format", "approval token has invalid format");
  const payloadText = token.slice(0, dot);
  const signature = base64UrlDecode(token.slice(dot + 1));
  if (signature === null) return fail("signature-not-base64url", "approval token signature is not base64url");
  if (!constantTimeEqual(signature, hmacSha256(secret, payloadText))) return fail("signature-invalid", "approval token signature is invalid");
  const payloadBytes = base64UrlDecode(payloadText);
  if (payloadBytes === null) return fail("payload-not-base64url", "approval token payload is not base64url");
  const parsed = parseStrictJson(payloadBytes);
  const claims = parsed.ok ? readClaims(parsed.value) : null;
  if (claims === null) return fail("payload-invalid", "approval token payload is invalid");
  if (claims.v !== declaration.version) return fail("version-unsupported", "approval token version is not supported");
  const now = Math.floor(nowMs / 1000);
  if (claims.exp < now) return fail("expired", "approval token has expired");
  if (claims.exp - now > declaration.maxLifetimeSeconds + declaration.clockSkewSeconds) {
    return fail("lifetime-exceeded", "approval token lifetime exceeds the maximum this server accepts");
  }
  return { ok: true, claims };
}

export interface ApprovalBindings {
  action: string;
  resource_id: string;
  request_id: string;
  /** The authoritative current state, read under lock; null for a choice-free action. */
  expected_choice: string | null;
}

/** decodeApprovalToken, then the checks that bind the token to this request, in reference order. */
export function verifyApprovalToken(
  token: string,
  secret: string | Uint8Array,
  bindings: ApprovalBindings,
  nowMs: number = Date.now(),
  declaration: ApprovalTokenDeclaration = APPROVAL_TOKEN_V1,
): ApprovalDecodeResult {
  const decoded = decodeApprovalToken(token, secret, nowMs, declaration);
  if (!decoded.ok) return decoded;
  const c = decoded.claims;
  if (c.action !== bindings.action || c.resource_id !== bindings.resource_id) {
    return fail("not-bound-to-action", "approval token is not bound to this action and resource");
  }
  if (c.request_id !== bindings.request_id) return fail("not-bound-to-request", "approval token is not bound to this authenticated request");
  let digest: string | null;
  try {
    digest = approvalPayloadDigest(c.payload);
  } catch {
    digest = "";
  }
  if (c.payload_sha256 !== digest) return fail("payload-digest-mismatch", "approval token payload does not match its own signature");
  if (c.expected_choice !== bindings.expected_choice) {
    return fail("expected-choice-mismatch", "approval token was issued against a different authoritative choice");
  }
  if (c.actor_id.trim() === "" || c.request_id.trim() === "" || c.nonce.trim() === "") {
    return fail("missing-identity", "approval token is missing audit identity or request correlation");
  }
  return decoded;
}
