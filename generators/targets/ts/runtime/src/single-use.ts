// Approval tokens spent once, across every replica that shares a once-only store. A verified token
// is still a bearer credential until its expiry: recording the request id it is bound to makes a
// second use fail even on another machine. The store is any ReplayStore (memory for one process;
// SQLite, Redis or PostgreSQL for several); see replay-guard.ts for what each guarantees.

import { APPROVAL_TOKEN_V1, type ApprovalClaims, type ApprovalTokenDeclaration } from "./approval-token.js";
import type { ReplayStore } from "./replay-guard.js";

/** The once-only store scope of spent approval tokens (key: the request_id the token is bound to). */
export const APPROVAL_TOKEN_USE_SCOPE = "agent-service/approval-token";

export type ApprovalSpendResult = { ok: true } | { ok: false; error: { code: "already-used" | "store-full" | "store-unavailable"; message: string } };

/**
 * Spends a token whose claims verifyApprovalToken accepted: the first call for its request id
 * succeeds, every later one (on any replica sharing the store) is refused with already-used. The
 * record is kept until exp plus the declared skew, after which the token is refused as expired.
 */
export async function spendApprovalToken(
  claims: ApprovalClaims,
  store: ReplayStore,
  nowMs: number = Date.now(),
  declaration: ApprovalTokenDeclaration = APPROVAL_TOKEN_V1,
): Promise<ApprovalSpendResult> {
  const retainUntilMs = (claims.exp + 1 + declaration.clockSkewSeconds) * 1000;
  let outcome: Awaited<ReturnType<ReplayStore["checkAndRecord"]>>;
  try {
    outcome = await store.checkAndRecord(APPROVAL_TOKEN_USE_SCOPE, JSON.stringify([claims.request_id]), retainUntilMs, nowMs);
  } catch (error) {
    return { ok: false, error: { code: "store-unavailable", message: `once-only store did not answer: ${error instanceof Error ? error.name : "error"}` } };
  }
  if (outcome === "recorded") return { ok: true };
  if (outcome === "full") return { ok: false, error: { code: "store-full", message: "once-only store is full of unexpired records" } };
  return { ok: false, error: { code: "already-used", message: "approval token was already used for this request" } };
}
