// Compile-time check, run by `tsc -p tsconfig.json --noEmit`: the model's declaration types and
// the TypeScript runtime's are the same shapes in both directions, so a field added on one side
// only fails the type check instead of drifting silently. Nothing here runs.
import type { ApprovalTokenDeclaration as RuntimeToken } from "../targets/ts/runtime/src/approval-token.js";
import type { ContentAddressDeclaration as RuntimeAddress } from "../targets/ts/runtime/src/content-address.js";
import type { ReplayDeclaration as RuntimeReplay } from "../targets/ts/runtime/src/replay-guard.js";
import type { CrossFieldRule as RuntimeRule } from "../targets/ts/runtime/src/rules.js";
import type { HmacSha256V1Declaration as RuntimeSignature } from "../targets/ts/runtime/src/signing-hmac-v1.js";
import type { ApprovalTokenDeclaration, ContentAddress, CrossFieldRule, ReplayDeclaration, SignatureDeclaration } from "./declarations.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type DeclarationsAgree = [
  Assert<Same<CrossFieldRule, RuntimeRule>>,
  Assert<Same<ContentAddress, RuntimeAddress>>,
  Assert<Same<SignatureDeclaration, RuntimeSignature>>,
  Assert<Same<ReplayDeclaration, RuntimeReplay>>,
  Assert<Same<ApprovalTokenDeclaration, RuntimeToken>>,
];
