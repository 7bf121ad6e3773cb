// Type-level tests of the typed API (issue 17): signing takes Unsigned<M> and returns M, verify
// narrows to the message, validateMessage/parseMessage are typed by their literal names, content
// imports give the record type, no emitted type is an empty `{}` that accepts 42, messages are
// deeply readonly with literal const members, and a lifecycle's initialState widens to its state
// union (issue 33). Each
// `@ts-expect-error` fails the test when the line it marks stops being an error.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { diagnosticsIn, renderDeclarations } from "./support.js";

const CONSUMER = `
import { expectTypeOf } from "expect-type";
import { agentConnector, agentProvider, providerIntegration, parseMessage, validateMessage } from "./index.js";
import type { AgentTriggerRequest, UnsignedAgentTriggerRequest, UnsignedActionProposal, ActionProposal } from "./agent-provider/index.js";
import type { NoDetails, LocalEchoProviderConfig, ConnectorPackage, ConnectorManifest, AuditLogEntry } from "./agent-connector/index.js";
import type { TrustState } from "./agent-connector/lifecycles/trust.js";
import type { InboxEntry } from "./provider-integration/index.js";

const unsigned: UnsignedAgentTriggerRequest = {
  request_id: "trigger-1", provider_id: "provider", agent_id: "provider.agent", message: "Desk button pressed.",
  payload: { button: "desk" }, created_at: "2026-05-27T00:00:00Z", expires_at: "2030-01-01T00:00:00Z",
  nonce: "nonce-trigger", idempotency_key: "trigger-1", host_instance_id: "host-instance-1",
};

// signX returns the signed message type.
const signed = agentProvider.signAgentTriggerRequest(unsigned, "secret-1");
expectTypeOf(signed).toEqualTypeOf<AgentTriggerRequest>();
expectTypeOf(signed.signature).toEqualTypeOf<string>();
// The unsigned type is named from x-signature: neither signature field is in it.
expectTypeOf<UnsignedAgentTriggerRequest["nonce"]>().toEqualTypeOf<AgentTriggerRequest["nonce"]>();
expectTypeOf<UnsignedAgentTriggerRequest["signature"]>().toEqualTypeOf<undefined>();
expectTypeOf<UnsignedActionProposal["signature_algorithm"]>().toEqualTypeOf<undefined>();

// @ts-expect-error a message that already carries a signature is not an unsigned message
agentProvider.signAgentTriggerRequest(signed, "secret-1");
// @ts-expect-error nor is a literal with signature_algorithm
agentProvider.signAgentTriggerRequest({ ...unsigned, signature_algorithm: "hmac-sha256-v1" }, "secret-1");
const { nonce: _dropped, ...withoutNonce } = unsigned;
// @ts-expect-error nonce is a covered, required field
agentProvider.signAgentTriggerRequest(withoutNonce, "secret-1");
// @ts-expect-error a proposal is not a trigger
agentProvider.signAgentTriggerRequest({} as UnsignedActionProposal, "secret-1");

// verifyX: a discriminated union; success carries the typed message, failure a reason code.
const verified = agentProvider.verifyAgentTriggerRequest(JSON.stringify(signed), "secret-1");
if (verified.ok) {
  expectTypeOf(verified.message).toEqualTypeOf<AgentTriggerRequest>();
  // @ts-expect-error success has no error
  void verified.error;
} else {
  expectTypeOf(verified.error.code).toExtend<string>();
  expectTypeOf<"signature-mismatch">().toExtend<typeof verified.error.code>();
  expectTypeOf<"schema-invalid">().toExtend<typeof verified.error.code>();
  // @ts-expect-error failure has no message
  void verified.message;
}
expectTypeOf(agentProvider.verifyActionProposal).returns.toEqualTypeOf<
  { ok: true; message: ActionProposal } | { ok: false; error: import("./runtime/typed-signing.js").TypedSigningError }
>();

// The replay guard admits the typed message.
declare const store: import("./runtime/replay-guard.js").ReplayStore;
const guard = agentProvider.createAgentTriggerRequestReplayGuard(store, () => 0);
expectTypeOf(guard.admit).parameter(0).toEqualTypeOf<AgentTriggerRequest>();

// validateMessage / parseMessage: typed by literal protocol and message names.
const v = validateMessage("agent-provider", "ActionProposal", {});
if (v.ok) expectTypeOf(v.value).toEqualTypeOf<ActionProposal>();
const p = parseMessage("agent-connector", "ConnectorPackage", "{}");
if (p.ok) expectTypeOf(p.value).toEqualTypeOf<ConnectorPackage>();
const dynamicName: string = "ActionProposal";
const d = validateMessage("agent-provider", dynamicName, {});
if (d.ok) expectTypeOf(d.value).toEqualTypeOf<unknown>();
// @ts-expect-error a misspelt literal message name
validateMessage("agent-provider", "ActionProposl", {});
// @ts-expect-error a message of another protocol
parseMessage("agent-connector", "ActionProposal", "{}");
// @ts-expect-error an unknown literal protocol
validateMessage("agent-providers", dynamicName, {});

// importX gives the record type.
const imported = agentConnector.importConnectorManifest("{}");
if (imported.ok) expectTypeOf(imported.record).toEqualTypeOf<ConnectorManifest>();

// No empty object types: a closed empty object admits only {}; an open one any members, never 42.
const none: NoDetails = {};
// @ts-expect-error 42 is not an object with no members
const fortyTwo: NoDetails = 42;
// @ts-expect-error a member is not allowed in NoDetails
const withMember: NoDetails = { fromPackageId: "x" };
// @ts-expect-error a string is not a LocalEchoProviderConfig
const echo: LocalEchoProviderConfig = "config";
// @ts-expect-error an InboxEntry payload is an object, not a number
const payload: InboxEntry["payload"] = 7;
const openPayload: InboxEntry["payload"] = { contact: "bob/agent" };

// Messages are deeply readonly: a signed or parsed message cannot be changed without a type error.
// @ts-expect-error a covered member of a signed message
signed.nonce = "nonce-2";
// @ts-expect-error a member of a nested object of a signed message
signed.payload["button"] = "window";
const pkg = parseMessage("agent-provider", "AgentPackage", "{}");
// @ts-expect-error an array of a parsed message
if (pkg.ok) pkg.value.actions?.push(pkg.value.actions[0]!);
// Building a message from mutable parts still type-checks.
const built: UnsignedAgentTriggerRequest = { ...unsigned, payload: { button: "desk" } };
void built;

// Const members are literal types.
expectTypeOf<AuditLogEntry["schemaVersion"]>().toEqualTypeOf<1>();
expectTypeOf<AuditLogEntry["recordType"]>().toEqualTypeOf<"agent-connector-package-audit">();
expectTypeOf<ActionProposal["signature_algorithm"]>().toEqualTypeOf<"hmac-sha256-v1" | undefined>();

// A lifecycle's initial state widens to the machine's state union.
let state = agentConnector.lifecycles.trust.initialState;
const step = agentConnector.lifecycles.trust.transition(state, "approve");
state = step.state;
expectTypeOf(state).toEqualTypeOf<TrustState>();

void none; void fortyTwo; void withMember; void echo; void payload; void openPayload; void providerIntegration;
`;

let dir = "";
beforeAll(async () => {
  dir = await renderDeclarations();
}, 120_000);

const diagnostics = (source: string): string[] => diagnosticsIn(dir, source);

it("the typed signing, validation and import declarations meet the consumer's expectations", () => {
  expect(diagnostics(CONSUMER)).toEqual([]);
});

// Each case puts back one regression in the rendered declarations and expects the consumer to
// report it, then restores the file.
function withEdited(file: string, from: string, to: string): string[] {
  const path = join(dir, file);
  const original = readFileSync(path, "utf8");
  expect(original).toContain(from);
  writeFileSync(path, original.replace(from, to));
  try {
    return diagnostics(CONSUMER);
  } finally {
    writeFileSync(path, original);
  }
}

it("can fail: an empty NoDetails interface is reported (it accepts 42)", () => {
  const found = withEdited("agent-connector/types.d.ts", "export type NoDetails = { readonly [k: string]: never };", "export interface NoDetails {}");
  expect(found.join("\n")).toMatch(/Unused '@ts-expect-error' directive/);
});

it("can fail: a signX that accepts a signed message is reported", () => {
  const found = withEdited("agent-provider/signing.d.ts", "signAgentTriggerRequest(unsigned: UnsignedAgentTriggerRequest,", "signAgentTriggerRequest(unsigned: UnsignedAgentTriggerRequest | AgentTriggerRequest,");
  expect(found.join("\n")).toMatch(/Unused '@ts-expect-error' directive/);
});

it("can fail: a mutable member, or an initialState typed as its literal, is reported", () => {
  const mutable = withEdited("agent-provider/types.d.ts", "  readonly payload: { readonly [k: string]", "  payload: { [k: string]");
  expect(mutable.join("\n")).toMatch(/Unused '@ts-expect-error' directive/);
  const literal = withEdited("agent-connector/lifecycles/trust.d.ts", "export declare const initialState: TrustState;", 'export declare const initialState: "imported";');
  expect(literal.join("\n")).toMatch(/not assignable to type '"imported"'/);
});

it("can fail: an untyped validateMessage, or one that accepts any literal name, is reported", () => {
  const found = withEdited("registry.d.ts", "value: unknown): ValidationResult<MessageTypes[P][N]>;", "value: unknown): ValidationResult<unknown>;");
  expect(found.length).toBeGreaterThanOrEqual(1);
  const anyName = withEdited("registry.d.ts", "name: RuntimeName<N, never>, value: unknown", "name: string, value: unknown");
  expect(anyName.join("\n")).toMatch(/Unused '@ts-expect-error' directive/);
});
