// Real data for the agent-service contract (document 003, cognokratos/simple-agent-template)
// against the generated validators. Sources, all under ../vectors/agent-service/ (provenance in
// its README):
//   wire_and_interaction_examples.constructed.json  exact wire strings from the Rig code, ids invented
//   contract_test_cases.transcribed.json             every HTTP case of contract.rs, approvals.rs, make auth-test
//   approval_token_python_minted.json                the token minted by the real Python code
//   header_percent_encoding_vectors.json             the gateway's header encoding tests
// The SSE parser and the header encoder below are driven by the data in
// spec/agent-service/protocol.yaml (x-sse, x-header-encoding, constants), not by knowledge of
// the wire restated here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { validateMessage } from "../../generated/ts/index.js";
import { loadSseSpec, SseReader } from "../../generators/conformance/sse.js";

const P = "agent-service";

const readJson = (name: string): any => JSON.parse(readFileSync(new URL(`../vectors/agent-service/${name}`, import.meta.url), "utf8"));
const wire = readJson("wire_and_interaction_examples.constructed.json");
const cases = readJson("contract_test_cases.transcribed.json");
const minted = readJson("approval_token_python_minted.json");
const headerVectors = readJson("header_percent_encoding_vectors.json");
const protocol: any = parseYaml(readFileSync(new URL("../../spec/agent-service/protocol.yaml", import.meta.url), "utf8"));

function constant(group: string, name: string): any {
  const g = (protocol.constants as any[]).find((c) => c.group === group);
  const item = g?.items.find((i: any) => i.name === name);
  if (item === undefined) throw new Error(`no constant ${group}.${name} in protocol.yaml`);
  return item.value;
}

interface FirstError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

function expectValid(name: string, value: unknown): void {
  const result = validateMessage(P, name, value);
  if (!result.ok) throw new Error(`${name} rejected ${JSON.stringify(value).slice(0, 200)}: ${JSON.stringify(result.errors)}`);
  expect(result.ok).toBe(true);
}

function firstError(name: string, value: unknown): FirstError {
  const result = validateMessage(P, name, value);
  if (result.ok) throw new Error(`${name} accepted ${JSON.stringify(value).slice(0, 200)}`);
  const error = result.errors[0]!;
  return { instancePath: error.instancePath, keyword: error.keyword, params: (error.params ?? {}) as Record<string, unknown> };
}

// The constructed examples use placeholders where the code would put fresh ids; the schema
// requires the real forms, so they are filled in with fixed values of that form.
const PLACEHOLDERS: Record<string, string> = {
  "<workflow-step-uuid>": "5c0f6e2a-8d43-4b8e-9f0a-2d1c3b4a5e6f",
  "<tool-step-uuid>": "9e8d7c6b-5a49-4382-b1c0-d9e8f7a6b5c4",
  "<32-hex trace id>": "4bf92f3577b34da6a3ce929d0e0e4736",
  "<payload_b64>.<sig_b64>": minted.token as string,
};
const fill = (text: string): string => Object.entries(PLACEHOLDERS).reduce((t, [k, v]) => t.split(k).join(v), text);
const filled = <T>(value: T): T => JSON.parse(fill(JSON.stringify(value))) as T;

// ---- The stream, read by the conformance kit's SSE reader, which takes the framing from x-sse ----

interface Frame {
  kind: string;
  message?: string;
  payload?: unknown;
}

const sseSpec = loadSseSpec(fileURLToPath(new URL("../..", import.meta.url)), P)!;

function parseStream(body: string): Frame[] {
  const reader = new SseReader(sseSpec, (_message, text) => {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  });
  const frames = reader.push(body).map(({ kind, message, payload }) => ({ kind, message, payload }));
  if (reader.problems.length > 0) throw new Error(`malformed stream: ${reader.problems.join("; ")}`);
  return frames;
}

describe("SSE stream of POST /v1/workflow/full (x-sse)", () => {
  const body = fill((wire.sse_blocks_in_wire_order_example as string[]).map((b) => b + protocol["x-sse"].blockTerminator).join(""));
  const frames = parseStream(body);

  it("classifies each block of the real wire example by its first line", () => {
    expect(frames.map((f) => f.kind)).toEqual(["step", "step", "answer", "interaction", "error"]);
    expect(frames.map((f) => f.message)).toEqual(["IntermediateStep", "IntermediateStep", "AnswerChunk", "InteractionRequired", "WorkflowErrorEvent"]);
  });

  it("every frame payload validates as the message x-sse names", () => {
    for (const f of frames) expectValid(f.message!, f.payload);
  });

  it("ignores [DONE], unknown blocks, and a final block without its terminator", () => {
    const extra = "data: [DONE]\n\n: keep-alive comment\n\nretry: 1000\n\ndata: {\"value\":\"cut";
    expect(parseStream(body + extra).map((f) => f.kind)).toEqual(["step", "step", "answer", "interaction", "error"]);
  });

  it("an error message containing 'data: ' is still an error block (first-line classification)", () => {
    const error = { error: "workflow_error", message: "upstream said data: nothing" };
    const parsed = parseStream(`${JSON.stringify(error)}\n\n`);
    expect(parsed).toEqual([{ kind: "error", message: "WorkflowErrorEvent", payload: error }]);
  });

  it("answer values stay strings: a number-looking answer is not an AnswerChunk when sent as a number", () => {
    for (const text of ["100", "true", "20260920", "null"]) expectValid("AnswerChunk", { value: text });
    expect(firstError("AnswerChunk", { value: 100 })).toMatchObject({ instancePath: "/value", keyword: "type" });
  });

  it("decision steps carry an Input/OutputGuardrailDecision in payload.data.output (spec examples)", () => {
    const spec: any = parseYaml(readFileSync(new URL("../../spec/agent-service/messages/IntermediateStep.yaml", import.meta.url), "utf8"));
    const prefix = { input: constant("stepNames", "INPUT_DECISION_PREFIX"), output: constant("stepNames", "OUTPUT_DECISION_PREFIX") };
    const decisions = (spec.examples as any[]).filter((s) => s.type === "FUNCTION_END" && String(s.name).endsWith(constant("stepNames", "DECISION_SUFFIX")));
    // One input and one output decision, by name (Rig's; NAT's output step is named presidio).
    expect(decisions.map((d) => d.name)).toEqual(["guardrail_input_self_check_decision", "guardrail_output_regex_pii_decision"]);
    for (const step of decisions) {
      expectValid("IntermediateStep", step);
      expectValid(String(step.name).startsWith(prefix.input) ? "InputGuardrailDecision" : "OutputGuardrailDecision", step.payload.data.output);
    }
  });

  it("the step filter uses the stepTypes constants", () => {
    const types = (protocol.constants as any[]).find((g) => g.group === "stepTypes").items.map((i: any) => i.value);
    for (const f of frames.filter((x) => x.kind === "step")) expect(types).toContain((f.payload as any).type);
  });
});

describe("interaction prompts and answers (constructed from the Rig code)", () => {
  it("the radio and text prompts validate as InteractionRequired", () => {
    expectValid("InteractionRequired", wire.interaction_required_radio_data);
    expectValid("InteractionRequired", wire.interaction_required_text_data);
  });

  it("both prompts of a run share the execution_id and offer the cancel option", () => {
    expect(wire.interaction_required_text_data.execution_id).toBe(wire.interaction_required_radio_data.execution_id);
    const cancel = { id: constant("interactionValues", "CANCEL_OPTION_ID"), value: constant("interactionValues", "CANCEL_VALUE") };
    expect(wire.interaction_required_radio_data.prompt.options).toContainEqual(expect.objectContaining(cancel));
  });

  it("a radio prompt without the cancel option is refused", () => {
    const prompt = wire.interaction_required_radio_data;
    const withoutCancel = { ...prompt, prompt: { ...prompt.prompt, options: prompt.prompt.options.filter((o: any) => o.id !== "cancel") } };
    expect(firstError("InteractionRequired", withoutCancel)).toMatchObject({ instancePath: "/prompt/options", keyword: "contains" });
  });

  it("every constructed answer body validates as InteractionResponse", () => {
    for (const [label, body] of Object.entries(wire.interaction_response_bodies)) {
      const result = validateMessage(P, "InteractionResponse", body);
      expect(result.ok, label).toBe(true);
    }
  });
});

describe("the agent -> MCP side", () => {
  it("the execute request validates (with the real Python-minted token in place of the placeholder)", () => {
    expectValid("ExecuteApprovalRequest", filled(wire.mcp_approvals_execute.request));
    expect(firstError("ExecuteApprovalRequest", wire.mcp_approvals_execute.request)).toMatchObject({ instancePath: "/approval_token", keyword: "pattern" });
  });

  it("every execute answer validates as ExecuteApprovalResult", () => {
    for (const key of ["200_applied", "200_refused_replay", "200_refused_policy_example", "403_bad_token_example"]) {
      expectValid("ExecuteApprovalResult", wire.mcp_approvals_execute[key]);
    }
  });

  it("the refusal and error texts are the executeRefusals / approvalTokenErrors constants", () => {
    expect(wire.mcp_approvals_execute["200_refused_replay"].result.refused).toBe(constant("executeRefusals", "ALREADY_USED"));
    expect(wire.mcp_approvals_execute["403_bad_token_example"].result.error).toBe(constant("approvalTokenErrors", "TOKEN_SIGNATURE_INVALID"));
    expect(wire.mcp_approvals_execute["200_applied"].result.policy_version).toBe(constant("approvalToken", "POLICY_VERSION"));
  });

  it("the claims of the Python-minted token validate as ApprovalTokenClaims, decoded from the token itself", () => {
    expectValid("ApprovalTokenClaims", minted.decoded_claims);
    const [payloadB64] = (minted.token as string).split(constant("approvalToken", "TOKEN_SEPARATOR"));
    const claims = JSON.parse(Buffer.from(payloadB64!, "base64url").toString("utf8"));
    expect(claims).toEqual(minted.decoded_claims);
    expectValid("ApprovalTokenClaims", claims);
    expect(claims.v).toBe(constant("approvalToken", "TOKEN_VERSION"));
  });

  it("exp is integer seconds; an ISO string or a version 2 is refused", () => {
    expect(firstError("ApprovalTokenClaims", { ...minted.decoded_claims, exp: "2026-09-20T10:14:48Z" })).toMatchObject({ instancePath: "/exp", keyword: "type" });
    expect(firstError("ApprovalTokenClaims", { ...minted.decoded_claims, v: 2 })).toMatchObject({ instancePath: "/v", keyword: "const" });
  });

  it("unknown claims are kept (the verifier ignores them; the ETF variant adds its own)", () => {
    expectValid("ApprovalTokenClaims", { ...minted.decoded_claims, etf_id: "ETF-1" });
  });
});

describe("trusted header encoding (x-header-encoding) against the gateway's tests", () => {
  const enc = protocol["x-header-encoding"];
  const encode = (text: string): string =>
    [...Buffer.from(text, "utf8")]
      .map((b) => {
        const pass = (enc.passThrough.ranges as [number, number][]).some(([lo, hi]) => b >= lo && b <= hi) && !(enc.passThrough.except as number[]).includes(b);
        return pass ? String.fromCharCode(b) : "%" + b.toString(16).toUpperCase().padStart(2, "0");
      })
      .join("");

  it("reproduces every vector", () => {
    for (const v of headerVectors.vectors) expect(encode(v.in), JSON.stringify(v.in)).toBe(v.out);
    expect(headerVectors.roles_header_example.roles.map(encode).join(enc.rolesJoin)).toBe(headerVectors.roles_header_example["x-authenticated-roles"]);
  });

  it("names every identity header in the trustedHeaders constants", () => {
    const names = (protocol.constants as any[]).find((g) => g.group === "trustedHeaders").items.map((i: any) => i.value);
    for (const h of enc.appliesTo) expect(names).toContain(h);
  });
});

// ---- Request bodies of the contract tests ----------------------------------------------------

// The one WorkflowRequest rule neither JSON Schema nor an x-rules kind states (a sum over all
// items); the route applies it after the schema and the rules. The final turn being a user turn is
// the x-rule final-turn-is-user.
function routeRuleViolation(body: any): string | undefined {
  const total = (body.messages as any[]).reduce((n, m) => n + [...(m.content as string)].length, 0);
  if (total > constant("limits", "MAX_HISTORY_CHARS")) return "HISTORY_TOO_LARGE";
  return undefined;
}

type Why = { instancePath: string; keyword: string; rule?: string } | { route: string };

function whyRefused(body: unknown): Why | undefined {
  const result = validateMessage(P, "WorkflowRequest", body);
  if (!result.ok) {
    const e = result.errors[0]!;
    return e.keyword === "x-rule" ? { instancePath: e.instancePath, keyword: e.keyword, rule: String(e.params["rule"]) } : { instancePath: e.instancePath, keyword: e.keyword };
  }
  const route = routeRuleViolation(body);
  return route ? { route } : undefined;
}

const expand = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_k, v) => {
    const m = typeof v === "string" ? /^<'(.)' repeated ([0-9]+) times/.exec(v) : null;
    return m ? m[1]!.repeat(Number(m[2])) : v;
  });

describe("WorkflowRequest bodies from contract.rs and make auth-test", () => {
  const malformed = cases.contract_rs.find((c: any) => c.test === "malformed_requests_are_refused_before_any_model_call");

  // Why each body the Rig agent answered 400 is refused, in the order of the test's list.
  const expected: Why[] = [
    { instancePath: "/messages", keyword: "minItems" }, // {"messages":[]}: at least one chat message is required
    { instancePath: "/messages/0/role", keyword: "enum" }, // system role
    { instancePath: "/messages/1/role", keyword: "x-rule", rule: "final-turn-is-user" }, // ends with an assistant turn
    { instancePath: "/messages/0/content", keyword: "pattern" }, // "   ": empty after trimming
    { instancePath: "/messages/0", keyword: "additionalProperties" }, // extra "name" in a message
    { instancePath: "", keyword: "additionalProperties" }, // top-level "system"
    { instancePath: "/messages/0/content", keyword: "maxLength" }, // 614 400 characters > 524 288
    { instancePath: "", keyword: "type" }, // "not an object"
  ];

  it("every body the agent answered 400 is refused, and the reason is named", () => {
    expect(malformed.expect_status).toBe(400);
    expect(malformed.bodies).toHaveLength(expected.length);
    malformed.bodies.forEach((raw: unknown, i: number) => {
      expect(whyRefused(expand(raw)), `body ${i}`).toEqual(expected[i]);
    });
  });

  it("the final-turn rule is an x-rule whose message is the agent's 400 text", () => {
    const result = validateMessage(P, "WorkflowRequest", expand(malformed.bodies[2]));
    expect(result.ok ? undefined : result.errors[0]!.message).toContain(constant("errorMessages", "FINAL_NOT_USER"));
  });

  it("the 524 288-character total is checked over all messages, not only per message", () => {
    const half = "x".repeat(constant("limits", "MAX_HISTORY_CHARS") / 2 + 1);
    const body = { messages: [{ role: "user", content: half }, { role: "assistant", content: half }, { role: "user", content: "hi" }] };
    expect(whyRefused(body)).toEqual({ route: "HISTORY_TOO_LARGE" });
    expect(whyRefused({ messages: [{ role: "user", content: "x".repeat(constant("limits", "MAX_HISTORY_CHARS")) }] })).toBeUndefined();
  });

  it("at most 200 messages", () => {
    const max = constant("limits", "MAX_MESSAGES");
    const turns = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}` }));
    expect(whyRefused({ messages: turns(max - 1) })).toBeUndefined();
    expect(whyRefused({ messages: turns(max + 1) })).toEqual({ instancePath: "/messages", keyword: "maxItems" });
  });

  it("the key-before-identity case (e) body is refused past authentication", () => {
    const order = cases.contract_rs.find((c: any) => c.test === "the_service_key_is_checked_before_the_identity");
    expect(whyRefused(order.body_default)).toBeUndefined();
    const invalid = order.requests.find((r: any) => r.expect_status === 400);
    expect(whyRefused(invalid.body)).toEqual({ instancePath: "/messages", keyword: "minItems" });
  });

  it("make auth-test check 9 (key + identity, not 401; Rig 400) sends a refused body", () => {
    const check = cases.make_auth_test.checks.find((c: any) => c.n === 9);
    const body = JSON.parse(/body (\{.*\})$/.exec(check.request)![1]!);
    expect(whyRefused(body)).toEqual({ instancePath: "/messages", keyword: "minItems" });
  });

  it("every body the agent accepted (200) validates", () => {
    for (const test of cases.contract_rs) {
      for (const request of test.requests ?? []) {
        if (request.expect_status === 200 && request.body !== undefined) expect(whyRefused(request.body), test.test).toBeUndefined();
      }
    }
    expect(whyRefused({ messages: [{ role: "user", content: "Change TKT-1001 to high" }] })).toBeUndefined(); // approvals.rs chat body
  });

  it("the evaluator's shape (stream, user, evaluation_case_id) is accepted", () => {
    const evaluator = cases.contract_rs.find((c: any) => c.test === "the_evaluator_request_shape_is_accepted").requests[0];
    expectValid("WorkflowRequest", evaluator.body);
    expect(evaluator.headers["x-authenticated-user-id"]).toBe(constant("headerValues", "EVALUATOR_USER_ID"));
  });

  it("max_history keeps the last 20 messages starting on a user turn (workflow.rs test vector)", () => {
    const maxHistory: number = constant("limits", "MAX_HISTORY");
    const messages = [...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}` })), { role: "user", content: "last" }];
    expect(whyRefused({ messages })).toBeUndefined();
    const kept = messages.slice(-maxHistory);
    while (kept.length > 0 && kept[0]!.role !== "user") kept.shift();
    expect(kept).toHaveLength(19);
    expect(kept[kept.length - 1]!.content).toBe("last");
    expect(kept.slice(0, -1)).toHaveLength(18);
    expect(kept[0]!.role).toBe("user");
  });
});

describe("InteractionResponse bodies from approvals.rs and contract.rs", () => {
  const owner = cases.approvals_rs.cases.find((c: any) => c.test === "only_the_owner_can_answer_and_only_with_what_was_offered");

  it("the 403/404/422 bodies are structurally valid: those statuses come from the pending-interaction rules, not the schema", () => {
    const literal = owner.steps.filter((s: any) => typeof s.response === "object");
    expect(literal.length).toBeGreaterThanOrEqual(6);
    for (const step of literal) expectValid("InteractionResponse", { response: step.response });
  });

  it("the binary_choice answer (always 422: no binary prompts exist) is a valid InteractionResponse", () => {
    const binary = owner.steps.find((s: any) => s.response?.type === "binary_choice");
    expect(binary.expect_status).toBe(422);
    expectValid("InteractionResponse", { response: binary.response });
  });

  it("the body sent when approvals are off (404) is valid", () => {
    const off = cases.contract_rs.find((c: any) => c.test === "the_interaction_route_does_not_exist_when_approvals_are_off").requests[0];
    expect(off.expect_status).toBe(404);
    expectValid("InteractionResponse", off.body);
  });

  it("structural faults the route answers 400 are refused with a named reason", () => {
    expect(firstError("InteractionResponse", { response: { type: "text", text: "x" }, extra: 1 })).toMatchObject({ instancePath: "", keyword: "additionalProperties" });
    expect(firstError("InteractionResponse", { response: { type: "binary_choice", selected_option: { id: "confirm", label: "Confirm", value: "true" } } })).toMatchObject({
      instancePath: "/response/selected_option/value",
      keyword: "type",
    });
    expect(firstError("InteractionResponse", { response: { type: "checkbox" } })).toMatchObject({ keyword: "discriminator" });
    const tooLong = "x".repeat(constant("limits", "INTERACTION_RESPONSE_MAX_BYTES") + 1);
    expect(firstError("InteractionResponse", { response: { type: "text", text: tooLong } })).toMatchObject({ instancePath: "/response/text", keyword: "maxLength" });
  });
});

describe("GET /version and error bodies", () => {
  it("the 401 bodies of the_unauthorised_bodies_match_main are ErrorBody and the errorMessages constants", () => {
    const test = cases.contract_rs.find((c: any) => c.test === "the_unauthorised_bodies_match_main");
    const [noKey, noIdentity] = test.requests;
    expectValid("ErrorBody", noKey.expect_json);
    expectValid("ErrorBody", noIdentity.expect_json);
    expect(noKey.expect_json.error).toBe(constant("errorMessages", "INVALID_API_KEY"));
    expect(noKey.expect_headers["www-authenticate"]).toBe(constant("headerValues", "WWW_AUTHENTICATE_BEARER"));
    expect(noIdentity.expect_json.error).toBe(constant("errorMessages", "MISSING_IDENTITY"));
  });

  it("a VersionInfo with the fields contract.rs asserts validates", () => {
    const test = cases.contract_rs.find((c: any) => c.test === "version_reports_the_runtime_and_digests_but_no_secret");
    const fields = test.requests[0].expect_json_fields;
    const body = {
      available: true,
      ...fields,
      model: "unknown",
      guard_model: "unknown",
      reasoning_effort: "",
      guard_reasoning_effort: "",
      build_commit: "unknown",
      config_sha256: null,
      prompt_sha256: "51acbb10cfcf2ea800d127627afecafdbb65d7b142c8d7f7a2bd1f45cb91f0a0",
      guardrails_prompts_sha256: null,
    };
    expectValid("VersionInfo", body);
    expect(body.agent_runtime).toBe(constant("runtimeIds", "RUNTIME_RIG"));
    expect(firstError("VersionInfo", { ...body, prompt_sha256: "You are a customer-support assistant." })).toMatchObject({ instancePath: "/prompt_sha256" });
  });
});
