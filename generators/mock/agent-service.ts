// The agent-service mock (and the conformance kit's reference server), written against the generated TypeScript bindings: the
// request-admission and execution machines, the message validators and parsers, the approval
// token minting/verifying, the errorMessages/answerTexts/gateMessages constants and the
// interaction registry. A scripted agent stands in for the model; a map stands in for the ticket
// system (its /approvals/execute is the in-process verifier). `variant` switches on deliberate
// deviations so the conformance kit can be shown to fail them.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { agentService, parseStrictJson, InteractionRegistry, type InteractionAnswer, type InteractionDecision } from "../../generated/ts/index.js";
import { headerValues, listen, readBody, sendJson, sendText, type Running } from "./http-support.js";

const S = agentService;
const E = S.errorMessages;
const L = S.limits;
const lifecycles = S.lifecycles as unknown as {
  requestAdmission: { initialState: string; transition(s: string, e: string, g?: Record<string, boolean>): { ok: boolean; state: string; effects?: readonly string[] } };
  execution: { initialState: string; transition(s: string, e: string, g?: Record<string, boolean>): { ok: boolean; state: string } };
};

/** The invalid-key answer of x-auth (also what a scenario's `unauthorized` fault sends). */
export function agentServiceUnauthorized(res: http.ServerResponse): void {
  const body = { error: E.INVALID_API_KEY as string };
  assertValid("ErrorBody", S.validateErrorBody(body));
  sendJson(res, 401, body, { "www-authenticate": S.headerValues.WWW_AUTHENTICATE_BEARER as string });
}

export interface AgentServiceOptions {
  /** The clock (ms since the epoch) for approval tokens and prompt expiry; the wall clock when absent. */
  now?: () => number;
  key?: string;
  approvals?: boolean;
  approvalSecret?: string;
  interactionTimeoutMs?: number;
  /** How long after a client disconnect the run's prompts are abandoned (the 410 window). */
  abandonDelayMs?: number;
  inputMaxChars?: number;
  /** Scripted answers: the chunks of the first entry whose `match` the latest user message contains (case-insensitive), before the built-in script. */
  replies?: readonly { match: string; chunks: readonly string[] }[];
  variant?: {
    /** Check x-authenticated-user-id before the service key. */
    identityBeforeKey?: boolean;
    /** An accepted interaction can be answered again (no single use). */
    answerableTwice?: boolean;
    /** x-request-id is not validated (NAT-like). */
    noRequestIdCheck?: boolean;
    /** Runs without tracing: ignores traceparent and sends workflow_trace_id "" (the contract allows it). */
    untraced?: boolean;
  };
}

/** The agent-service behaviour as a request handler (the mock command serves it, wrapped in its scenario). */
export interface AgentServiceHandler {
  handle: http.RequestListener;
  registry: InteractionRegistry;
  tickets: Map<string, string>;
  applied: string[];
  /** Clears the timers of abandoned runs. */
  stop(): void;
}

export interface RunningAgentService extends Running {
  registry: InteractionRegistry;
  tickets: Map<string, string>;
  applied: string[];
}

const STEP_TYPES = Object.values(S.stepTypes as Record<string, string>);
const WORKFLOW = S.stepNames.WORKFLOW_NAME as string;
const PRIORITIES = ["low", "medium", "high", "urgent"];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The 128-bit value of a UUID in any of the forms uuid::Uuid::parse_str accepts, as lowercase hyphenated text. */
export function normalizeUuid(text: string): string | undefined {
  let t = text.toLowerCase();
  if (t.startsWith("urn:uuid:")) t = t.slice(9);
  if (t.startsWith("{") && t.endsWith("}")) t = t.slice(1, -1);
  if (/^[0-9a-f]{32}$/.test(t)) t = `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
  return UUID_RE.test(t) ? t : undefined;
}

const visible = (v: string): boolean => /^[\x20-\x7e]*$/.test(v);

/** The trace id of a valid W3C traceparent (version 00), if one was sent. */
function traceId(req: http.IncomingMessage): string | undefined {
  const values = headerValues(req, S.trustedHeaders.TRACEPARENT as string);
  const m = values.length === 1 ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(values[0]!.trim()) : null;
  return m && !/^0+$/.test(m[1]!) && !/^0+$/.test(m[2]!) ? m[1] : undefined;
}

function assertValid(what: string, r: { ok: boolean; errors?: { instancePath: string; message: string }[] }): void {
  if (!r.ok) throw new Error(`reference server produced an invalid ${what}: ${JSON.stringify(r.errors?.[0])}`);
}

export async function startAgentService(options: AgentServiceOptions = {}): Promise<RunningAgentService> {
  const handler = agentServiceHandler(options);
  const running = await listen(handler.handle);
  return {
    ...running,
    registry: handler.registry,
    tickets: handler.tickets,
    applied: handler.applied,
    close: async () => {
      handler.stop();
      await running.close();
    },
  };
}

export function agentServiceHandler(options: AgentServiceOptions = {}): AgentServiceHandler {
  const key = options.key ?? "test-gateway-key";
  const approvals = options.approvals ?? true;
  const secret = options.approvalSecret ?? "test-approval-secret-of-at-least-24";
  const abandonDelayMs = options.abandonDelayMs ?? 250;
  const inputMax = options.inputMaxChars ?? (L.INPUT_MAX_CHARS as number);
  const variant = options.variant ?? {};
  // Time-dependent checks take the clock as a parameter, so no conformance case depends on the date.
  const now = options.now ?? ((): number => Date.now());
  const registry = new InteractionRegistry({ timeoutMs: options.interactionTimeoutMs ?? 30_000, now });
  const tickets = new Map([["TKT-1001", "medium"], ["TKT-1002", "urgent"]]);
  const applied: string[] = [];
  const usedNonces = new Set<string>();
  const accepted = new Map<string, string>(); // answerableTwice variant: key -> owner
  const timers = new Set<NodeJS.Timeout>();
  const expected = Buffer.from(`${S.headerValues.BEARER_PREFIX}${key}`, "latin1");

  const version = {
    available: true,
    agent_runtime: "reference",
    model: "scripted",
    guard_model: "scripted",
    reasoning_effort: "",
    guard_reasoning_effort: "",
    build_commit: "unknown",
    config_sha256: createHash("sha256").update("reference-config").digest("hex"),
    prompt_sha256: createHash("sha256").update("reference-prompt").digest("hex"),
    guardrails_prompts_sha256: createHash("sha256").update("{}").digest("hex"),
    tools_exposed: (S.configuration.MCP_READ_ONLY_TOOLS as string).split(","),
  };
  assertValid("VersionInfo", S.validateVersionInfo(version));

  const error = (res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void => {
    assertValid("ErrorBody", S.validateErrorBody({ error: message }));
    sendJson(res, status, { error: message }, headers);
  };

  function keyValid(req: http.IncomingMessage): boolean {
    const values = headerValues(req, "authorization");
    if (values.length !== 1) return false;
    const got = Buffer.from(values[0]!, "latin1");
    return got.length === expected.length && timingSafeEqual(got, expected);
  }

  function identity(req: http.IncomingMessage): string | undefined {
    const ids = headerValues(req, S.trustedHeaders.X_AUTHENTICATED_USER_ID as string);
    if (ids.length !== 1) return undefined;
    const id = ids[0]!.trim();
    if (id === "" || id.length > (L.MAX_IDENTITY_CHARS as number) || !visible(id)) return undefined;
    for (const h of [S.trustedHeaders.X_AUTHENTICATED_USERNAME, S.trustedHeaders.X_AUTHENTICATED_ROLES] as string[]) {
      const v = headerValues(req, h);
      if (v.length > 1) return undefined;
      if (v.length === 1 && (v[0]!.length > (L.MAX_IDENTITY_CHARS as number) || !visible(v[0]!))) return undefined;
    }
    return id;
  }

  /** x-auth: key, identity, request id. Answers and returns undefined when refused. */
  function admit(req: http.IncomingMessage, res: http.ServerResponse): { user: string; requestId: string; generated: boolean } | undefined {
    const M = lifecycles.requestAdmission;
    let state = M.initialState;
    const checkKey = (): boolean => {
      const t = M.transition(state, "check_key", { keyValid: keyValid(req) });
      if (!t.ok) throw new Error("admission machine refused check_key");
      state = t.state;
      if (state === "key_refused") {
        agentServiceUnauthorized(res);
        return false;
      }
      return true;
    };
    const user = identity(req);
    if (variant.identityBeforeKey) {
      if (user === undefined) {
        error(res, 401, E.MISSING_IDENTITY as string);
        return undefined;
      }
      if (!checkKey()) return undefined;
      state = M.transition(state, "check_identity", { identityUnambiguous: true }).state;
    } else {
      if (!checkKey()) return undefined;
      const t = M.transition(state, "check_identity", { identityUnambiguous: user !== undefined });
      state = t.state;
      if (state === "identity_refused") {
        error(res, 401, E.MISSING_IDENTITY as string);
        return undefined;
      }
    }
    const ids = headerValues(req, S.trustedHeaders.X_REQUEST_ID as string);
    const trimmed = ids.map((v) => v.trim());
    if (!variant.noRequestIdCheck) {
      const bad =
        ids.length > 1 ||
        (trimmed.length === 1 && trimmed[0] !== "" && (Buffer.byteLength(trimmed[0]!, "latin1") > (L.MAX_REQUEST_ID_BYTES as number) || !/^[\x21-\x7e]+$/.test(trimmed[0]!)));
      if (bad) {
        error(res, 400, E.INVALID_REQUEST_ID as string);
        return undefined;
      }
    }
    const given = trimmed.find((v) => v !== "");
    return given === undefined ? { user: user!, requestId: randomUUID(), generated: true } : { user: user!, requestId: given, generated: false };
  }

  const listener: http.RequestListener = (req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) sendText(res, 500, `reference server error: ${e.message}`);
      else res.destroy();
    });
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://reference");
    const path = (req.url ?? "/").split("?")[0]!;
    const R = S.routePaths;
    if (path === R.HEALTH || path === R.HEALTH_LIVE || path === R.HEALTH_READY) {
      await readBody(req, 0);
      if (req.method !== "GET") return sendText(res, 405, "method not allowed");
      return sendText(res, 200, (path === R.HEALTH_READY ? S.healthBodies.READY : S.healthBodies.HEALTH_OK) as string);
    }
    const admitted = admit(req, res);
    if (!admitted) {
      req.resume();
      return;
    }
    const { body, tooLarge } = await readBody(req, L.MAX_BODY_BYTES as number);
    if (tooLarge) return sendText(res, 413, "length limit exceeded");

    const interaction = /^\/executions\/([^/]+)\/interactions\/([^/]+)\/response$/.exec(path);
    if (path === R.VERSION) {
      if (req.method !== "GET") return error(res, 405, "method not allowed");
      return sendJson(res, 200, version);
    }
    if (path === R.WORKFLOW_FULL) {
      if (req.method !== "POST") return error(res, 405, "method not allowed");
      return workflow(req, res, url, body, admitted);
    }
    if (interaction && approvals) {
      if (req.method !== "POST") return error(res, 405, "method not allowed");
      return respond(res, interaction[1]!, interaction[2]!, body, admitted.user);
    }
    return error(res, 404, E.NOT_FOUND as string);
  }

  function respond(res: http.ServerResponse, rawE: string, rawI: string, body: Buffer, user: string): void {
    const e = normalizeUuid(rawE);
    if (!e) return error(res, 400, E.INVALID_EXECUTION_ID as string);
    const i = normalizeUuid(rawI);
    if (!i) return error(res, 400, E.INVALID_INTERACTION_ID as string);
    if (body.length > (L.INTERACTION_RESPONSE_MAX_BYTES as number)) return error(res, 400, E.INTERACTION_RESPONSE_TOO_LARGE as string);
    const parsed = S.parseInteractionResponse(body);
    if (!parsed.ok) {
      const first = parsed.errors[0]!;
      return error(res, 400, `${E.INVALID_INTERACTION_RESPONSE_PREFIX as string}${first.instancePath || "/"} ${first.message}`);
    }
    const k = `${e} ${i}`;
    const result = registry.respond(e, i, user, parsed.value.response as InteractionAnswer);
    if (result.status === 404 && variant.answerableTwice && accepted.get(k) === user) {
      res.writeHead(204).end();
      return;
    }
    if (result.status !== 204) return error(res, result.status, result.error!);
    accepted.set(k, user);
    res.writeHead(204).end();
  }

  /** WorkflowRequest checks in errorMessages order; the shape (serde) errors first. */
  function validateWorkflow(body: Buffer): { ok: true; messages: { role: string; content: string }[] } | { ok: false; error: string } {
    const json = parseStrictJson(body);
    if (!json.ok) return { ok: false, error: `${E.INVALID_WORKFLOW_REQUEST_PREFIX as string}${json.error.message}` };
    const checked = S.validateWorkflowRequest(json.value);
    const shape = checked.ok ? [] : checked.errors.filter((x) => ["type", "required", "additionalProperties", "json"].includes(x.keyword));
    if (shape.length > 0) return { ok: false, error: `${E.INVALID_WORKFLOW_REQUEST_PREFIX as string}${shape[0]!.instancePath || "/"} ${shape[0]!.message}` };
    const messages = (json.value as { messages: { role: string; content: string }[] }).messages;
    if (messages.length === 0) return { ok: false, error: E.NO_MESSAGES as string };
    if (messages.length > (L.MAX_MESSAGES as number)) return { ok: false, error: E.TOO_MANY_MESSAGES as string };
    if (messages.some((m) => m.role !== "user" && m.role !== "assistant")) return { ok: false, error: E.BAD_ROLE as string };
    if (messages.some((m) => m.content.trim() === "")) return { ok: false, error: E.EMPTY_MESSAGE as string };
    let chars = 0;
    for (const m of messages) for (const _ of m.content) chars++;
    if (chars > (L.MAX_HISTORY_CHARS as number)) return { ok: false, error: E.HISTORY_TOO_LARGE as string };
    if (messages[messages.length - 1]!.role !== "user") return { ok: false, error: E.FINAL_NOT_USER as string };
    return { ok: true, messages };
  }

  async function workflow(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer, who: { user: string; requestId: string; generated: boolean }): Promise<void> {
    const v = validateWorkflow(body);
    if (!v.ok) return error(res, 400, v.error);
    const filterParam = url.searchParams.get(S.queryParameters.FILTER_STEPS as string);
    const selected = new Set(filterParam === null ? STEP_TYPES : filterParam.split(",").map((s) => s.trim().toUpperCase()).filter((s) => STEP_TYPES.includes(s)));
    res.writeHead(200, {
      "content-type": S.mediaTypes.EVENT_STREAM as string,
      "cache-control": S.headerValues.SSE_CACHE_CONTROL as string,
      "x-accel-buffering": S.headerValues.SSE_ACCEL_BUFFERING as string,
      "x-request-id": who.requestId,
    });
    const executionId = randomUUID();
    let gone = false;
    res.on("close", () => {
      if (res.writableEnded) return;
      gone = true;
      const t = setTimeout(() => {
        timers.delete(t);
        registry.runEnded(executionId);
      }, abandonDelayMs);
      timers.add(t);
    });
    const X = lifecycles.execution;
    let state = X.initialState;
    const go = (event: string): void => {
      const t = X.transition(state, event);
      if (!t.ok) throw new Error(`execution machine refused ${event} in ${state}`);
      state = t.state;
    };
    const write = (text: string): void => {
      if (!gone) res.write(text);
    };
    const workflowId = randomUUID();
    const step = (type: string, name: string, id: string, payload: Record<string, unknown>): void => {
      const frame = { id, parent_id: type.startsWith("WORKFLOW") ? null : workflowId, type, name, payload: { event_type: type, name, UUID: id, ...payload } };
      assertValid("IntermediateStep", S.validateIntermediateStep(frame));
      if (selected.has(type)) write(`intermediate_data: ${JSON.stringify(frame)}\n\n`);
    };
    const answer = (value: string): void => {
      assertValid("AnswerChunk", S.validateAnswerChunk({ value }));
      write(`data: ${JSON.stringify({ value })}\n\n`);
    };
    const meta = {
      metadata: {
        provided_metadata: { workflow_trace_id: variant.untraced === true ? "" : (traceId(req) ?? randomBytes(16).toString("hex")), workflow_run_id: executionId, request_id: who.requestId, agent_runtime: "reference" },
      },
    };
    step("WORKFLOW_START", WORKFLOW, workflowId, meta);
    go("screen_input");
    const latest = v.messages[v.messages.length - 1]!.content;
    const latestChars = [...latest].length;
    const inputName = S.stepNames.INPUT_DECISION as string;
    const inputId = randomUUID();
    step("FUNCTION_START", inputName, inputId, { data: { input: { user_message_sha256: createHash("sha256").update(latest).digest("hex"), user_message_length: latestChars } } });
    if (latestChars > inputMax) {
      const output = { stage: "input", outcome: "blocked", blocked: true, decision_source: S.decisionSources.DETERMINISTIC_INPUT_LIMIT, input_length: latestChars, input_limit: inputMax };
      assertValid("InputGuardrailDecision", S.validateInputGuardrailDecision(output));
      step("FUNCTION_END", inputName, inputId, { data: { output } });
      go("block");
      answer(S.answerTexts.INPUT_TOO_LONG as string);
      step("WORKFLOW_END", WORKFLOW, workflowId, meta);
      res.end();
      return;
    }
    const decision = {
      stage: "input", name: "self check input", outcome: "passed", blocked: false, modified: false, llm_blocked: false, classifier_available: true,
      deterministic_blocked: false, deterministic_block_matches: [], deterministic_allow_matches: [], allow_override_applied: false, decision_source: S.decisionSources.LLM, llm_call_count: 1,
    };
    assertValid("InputGuardrailDecision", S.validateInputGuardrailDecision(decision));
    step("FUNCTION_END", inputName, inputId, { data: { output: decision } });
    go("allow");

    // The scripted agent.
    let text: string[];
    const change = /change (TKT-\d+) to (low|medium|high|urgent)/i.exec(latest);
    const show = /(TKT-\d+)/.exec(latest);
    const scripted = (options.replies ?? []).find((r) => latest.toLowerCase().includes(r.match.toLowerCase()));
    if (scripted !== undefined) {
      text = [...scripted.chunks];
    } else if (change && approvals) {
      const outcome = await gate(change[1]!, change[2]!.toLowerCase());
      if (outcome === undefined) {
        go("cancel");
        return; // the client went away: the run is aborted
      }
      text = [outcome];
    } else if (show) {
      const ticketId = show[1]!;
      const args = { ticket_id: ticketId };
      const toolId = randomUUID();
      const tool = `tickets_mcp${S.stepNames.TOOL_NAME_SEPARATOR as string}get_ticket`;
      step("TOOL_START", tool, toolId, { data: { input: args }, metadata: { tool_inputs: args } });
      const priority = tickets.get(ticketId);
      const output = priority === undefined ? { error: `${ticketId} not found` } : { ticket: { id: ticketId, priority } };
      step("TOOL_END", tool, toolId, { data: { input: args, output }, metadata: { tool_inputs: args, tool_outputs: output } });
      text = priority === undefined ? [`${ticketId} `, "was not found."] : [`${ticketId} `, "is ", `${priority}.`];
    } else {
      text = ["Hello", "."];
    }
    for (const t of text) answer(t);
    const out = { stage: "output", name: "regex + deterministic PII output", outcome: "passed", blocked: false, modified: false, oversized: false, masked_entities: {}, sanitized_output_length: text.join("").length };
    assertValid("OutputGuardrailDecision", S.validateOutputGuardrailDecision(out));
    step("FUNCTION_END", S.stepNames.OUTPUT_DECISION_RIG as string, randomUUID(), { data: { input: { raw_output_length: text.join("").length }, output: out } });
    go("complete");
    step("WORKFLOW_END", WORKFLOW, workflowId, meta);
    res.end();

    /** The approval gate; the answer text for the model, or undefined when the run went away. */
    async function gate(ticketId: string, requested: string): Promise<string | undefined> {
      const G = S.gateMessages;
      const current = tickets.get(ticketId) ?? "medium";
      const note = "Second follow-up on 2026-09-17.";
      const summary = "The customer has followed up twice.";
      const proposal = { ticket_id: ticketId, current_priority: current, requested_priority: requested, summary, note };
      const gateName = S.stepNames.APPROVAL_GATE as string;
      const gateId = randomUUID();
      step("FUNCTION_START", gateName, gateId, { data: { input: proposal }, metadata: { tool_inputs: proposal } });
      const finish = (output: Record<string, unknown>): string => {
        step("FUNCTION_END", gateName, gateId, { data: { input: proposal, output }, metadata: { tool_inputs: proposal, tool_outputs: output } });
        return String(output["message"] ?? output["next_step"] ?? "");
      };
      if (who.generated) return finish({ approved: false, message: G.GATE_NO_REQUEST_ID });
      const disclosure = `Model-supplied note (not verified by a human; will be signed and recorded verbatim if you approve): ${note}`;
      const options = [
        ...PRIORITIES.map((p) =>
          p === current
            ? { id: p, label: `Keep — ${p}`, value: p, description: "No change is applied." }
            : { id: p, label: `Change to — ${p}`, value: p, description: "Requires a reason, recorded against your identity." },
        ),
        { id: S.interactionValues.CANCEL_OPTION_ID as string, label: "Cancel", value: S.interactionValues.CANCEL_VALUE as string, description: "Change nothing." },
      ];
      const choiceText = [`Ticket ${ticketId} is currently '${current}' priority.`, `The assistant proposes '${requested}'.`, `Summary: ${summary}`, disclosure, "Choose the priority to record. Any change requires a reason."].join("\n");
      const first = await ask({ input_type: "radio", text: choiceText, required: true, options }, { inputType: "radio", options });
      if (first === undefined) return undefined;
      if (first === "too_many") return finish({ approved: false, message: G.GATE_REGISTRY_FULL });
      if (first.kind === "cancelled") return finish({ approved: false, message: G.GATE_CANCELLED });
      if (first.kind === "expired") return finish({ approved: false, message: G.GATE_EXPIRED });
      if (first.kind !== "selected") throw new Error("a radio prompt answered with text");
      const choice = first.value;
      if (choice === current) return finish({ approved: false, message: (G.GATE_KEPT as string).replace("<p>", current) });
      const reasonText = [
        `Ticket ${ticketId}: ${summary}`,
        `The ticket is currently '${current}' priority. You are changing it to '${choice}'. This is recorded in the append-only audit trail against your identity and requires a reason.`,
        disclosure,
      ].join("\n");
      const second = await ask({ input_type: "text", text: reasonText, placeholder: "Why should this ticket's priority change?", required: true }, { inputType: "text" });
      if (second === undefined) return undefined;
      if (second === "too_many") return finish({ approved: false, message: G.GATE_REGISTRY_FULL });
      if (second.kind === "cancelled") return finish({ approved: false, message: G.GATE_CANCELLED });
      if (second.kind === "expired") return finish({ approved: false, message: G.GATE_EXPIRED });
      if (second.kind !== "answered") throw new Error("a text prompt answered with a choice");
      const action = S.approvalToken.ACTION_SET_TICKET_PRIORITY as string;
      const minted = S.mintApprovalTokenClaimsToken(
        { action, resource_id: ticketId, actor_id: who.user, request_id: who.requestId, choice, expected_choice: current, rationale: second.text, payload: { note } },
        secret,
        { nowMs: now() },
      );
      if (!minted.ok) return finish({ approved: true, committed: false, result: { error: minted.error.message }, next_step: G.NEXT_STEP_REFUSED });
      const executed = execute(minted.token, who.requestId);
      return finish({ approved: true, resource_id: ticketId, action, request_id: who.requestId, committed: executed.ok, result: executed.result, next_step: executed.ok ? G.NEXT_STEP_COMMITTED : G.NEXT_STEP_REFUSED });
    }

    /** Opens one pending interaction (before its frame is sent) and waits for its decision. */
    async function ask(prompt: Record<string, unknown>, offer: Parameters<InteractionRegistry["open"]>[0]["prompt"]): Promise<InteractionDecision | "too_many" | undefined> {
      const interactionId = randomUUID();
      let resolve!: (d: InteractionDecision) => void;
      const decided = new Promise<InteractionDecision>((r) => (resolve = r));
      const opened = registry.open({
        executionId,
        interactionId,
        owner: who.user,
        prompt: offer,
        deliver: (d) => {
          if (gone) return false;
          resolve(d);
          return true;
        },
      });
      if (!opened.ok) return "too_many";
      const frame = { execution_id: executionId, interaction_id: interactionId, prompt };
      assertValid("InteractionRequired", S.validateInteractionRequired(frame));
      go("await_approval");
      write(`${S.sseFields.EVENT as string}: ${S.sseFields.INTERACTION_REQUIRED as string}\ndata: ${JSON.stringify(frame)}\n\n`);
      const expiry = setInterval(() => registry.expireDue(), 1000);
      const abandoned = new Promise<undefined>((r) => res.on("close", () => r(undefined)));
      try {
        const d = await Promise.race([decided, abandoned]);
        if (d === undefined || gone) return undefined;
        go("resume");
        return d;
      } finally {
        clearInterval(expiry);
      }
    }
  }

  /** The MCP side of an approval: one nonce, verified against the locked state, applied once. */
  function execute(token: string, requestId: string): { ok: boolean; result: Record<string, unknown> } {
    const decoded = S.decodeApprovalTokenClaimsToken(token, secret, now());
    if (!decoded.ok) return { ok: false, result: { error: decoded.error.message } };
    const claims = decoded.claims;
    if (usedNonces.has(claims.nonce)) return { ok: false, result: { refused: S.executeRefusals.ALREADY_USED } };
    const current = tickets.get(claims.resource_id) ?? null;
    const verified = S.verifyApprovalTokenClaimsToken(token, secret, { action: claims.action, resource_id: claims.resource_id, request_id: requestId, expected_choice: current });
    if (!verified.ok) return { ok: false, result: { error: verified.error.message } };
    usedNonces.add(claims.nonce);
    tickets.set(claims.resource_id, claims.choice!);
    applied.push(token);
    return {
      ok: true,
      result: {
        resource_id: claims.resource_id,
        action: claims.action,
        previous_priority: current,
        new_priority: claims.choice,
        override: claims.override_requested,
        policy_version: S.approvalToken.POLICY_VERSION,
        note_recorded: true,
        rationale_recorded: claims.rationale !== null,
      },
    };
  }

  return {
    handle: listener,
    registry,
    tickets,
    applied,
    stop: () => {
      for (const t of timers) clearTimeout(t);
    },
  };
}
