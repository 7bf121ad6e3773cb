// Type-level tests of the emitted .d.ts, as a user's TypeScript sees them: the declarations the
// pipeline renders in-process from the current spec are written to a temp dir, and a consumer
// file using expect-type (and `@ts-expect-error` lines, which fail when they stop being errors)
// must compile with zero diagnostics. A type emitter that widens a literal union to string, makes
// a required member optional or loses a discriminated union fails here.
import { beforeAll, expect, it } from "vitest";
import { diagnosticsIn, renderDeclarations } from "./support.js";

const CONSUMER = `
import { expectTypeOf } from "expect-type";
import type { ActionResult, AgentTriggerRequest, InstallBinding, ActionRisk, TriggerAcknowledgement } from "./agent-provider/index.js";
import type { ConnectorResume } from "./agent-connector/index.js";
import type { ChatMessage } from "./agent-service/index.js";
import { validateActionResult } from "./agent-provider/index.js";
import * as provider from "./agent-provider/index.js";

// Open enums (no x-closed-enum in the spec): the known literals, and any string a later version
// may send ("string & {}" keeps the literals offered by editors).
expectTypeOf<ActionResult["status"]>().toEqualTypeOf<"succeeded" | "failed" | "canceled" | (string & {})>();
expectTypeOf<ActionRisk>().toEqualTypeOf<"low" | "medium" | "high" | "critical" | (string & {})>();
expectTypeOf<TriggerAcknowledgement["status"]>().toEqualTypeOf<"accepted" | "queued" | "rejected" | "unsupported" | "host_unavailable" | (string & {})>();
const laterStatus: ActionResult["status"] = "a-status-of-a-later-version";
// Closed enums (x-closed-enum) and constants stay literal.
expectTypeOf<ChatMessage["role"]>().toEqualTypeOf<"user" | "assistant">();
expectTypeOf<AgentTriggerRequest["signature_algorithm"]>().toEqualTypeOf<"hmac-sha256-v1">();
// @ts-expect-error "system" is refused: the role enum is closed
const badRole: ChatMessage["role"] = "system";
// @ts-expect-error a plain string is not a role
const widened: ChatMessage["role"] = String("user");

// Required members are required, optional ones optional.
expectTypeOf<AgentTriggerRequest>().toHaveProperty("signature").toEqualTypeOf<string>();
expectTypeOf<ActionResult>().toHaveProperty("completed_at").toEqualTypeOf<string>();
expectTypeOf<{ source?: string }>().toMatchTypeOf<Pick<AgentTriggerRequest, "source">>();
// @ts-expect-error completed_at is required
const noCompletedAt: ActionResult = { request_id: "r", status: "succeeded" };
// @ts-expect-error request_id is required
const noRequestId: TriggerAcknowledgement = { status: "accepted" };

// Discriminated unions narrow on their tag.
function platformOf(binding: InstallBinding): string {
  if (binding.platform === "ios") {
    expectTypeOf(binding.platform).toEqualTypeOf<"ios">();
    expectTypeOf(binding).toHaveProperty("action_url");
    return binding.action_url;
  }
  expectTypeOf(binding.platform).toEqualTypeOf<"android">();
  return binding.signing_cert_sha256;
}
expectTypeOf<InstallBinding["platform"]>().toEqualTypeOf<"android" | "ios">();
expectTypeOf<ConnectorResume["type"]>().toEqualTypeOf<"input" | "permission">();
// @ts-expect-error an unknown platform is not a binding
const harmony: InstallBinding["platform"] = "harmonyos";

// Validators narrow to the message type.
const checked = validateActionResult({});
if (checked.ok) expectTypeOf(checked.value).toEqualTypeOf<ActionResult>();
expectTypeOf(provider.validateActionResult).parameter(0).toEqualTypeOf<unknown>();

void laterStatus; void badRole; void widened; void noCompletedAt; void noRequestId; void harmony; void platformOf;
`;

let dir = "";
beforeAll(async () => {
  dir = await renderDeclarations();
}, 120_000);

const diagnostics = (source: string): string[] => diagnosticsIn(dir, source);

it("the emitted declarations meet the consumer's type expectations", () => {
  expect(diagnostics(CONSUMER)).toEqual([]);
});

it("the consumer can fail: a widened closed enum and a stale @ts-expect-error are reported", () => {
  const widenedStatus = CONSUMER.replace('toEqualTypeOf<"user" | "assistant">()', "toEqualTypeOf<string>()");
  expect(diagnostics(widenedStatus).length).toBeGreaterThanOrEqual(1);
  const stale = CONSUMER.replace('const harmony: InstallBinding["platform"] = "harmonyos";', 'const harmony: InstallBinding["platform"] = "ios";');
  expect(diagnostics(stale).join("\n")).toMatch(/Unused '@ts-expect-error' directive/);
});
