// The conformance kit against the reference servers (every case passes) and against deliberately
// non-conforming variants (exactly the cases that should fail, fail). Servers listen on 127.0.0.1
// port 0 and are closed after each test; every request has a timeout.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generators/cli/main.js";
import { randomUUID } from "node:crypto";
import { runClientCases } from "../../generators/conformance/client-runner.js";
import { Exchange } from "../../generators/conformance/http.js";
import { createHttpJsonClient, type HttpJsonClient } from "../../generators/conformance/http-json-client.js";
import { conformanceProtocols, loadSuite } from "../../generators/conformance/load.js";
import { loadBindings, runSuite, type Bindings, type RunSummary } from "../../generators/conformance/runner.js";
import type { LoadedSuite } from "../../generators/conformance/types.js";
import { startAgentService, type AgentServiceOptions } from "../../generators/mock/agent-service.js";
import { startConnectorEndpoint, type ConnectorEndpointOptions } from "../../generators/mock/connector-endpoint.js";
import { startProviderEndpoint, type ProviderEndpointOptions } from "../../generators/mock/provider-endpoint.js";
import { listen } from "../../generators/mock/http-support.js";

const ROOT = join(import.meta.dirname, "..", "..");
const TIMEOUT = 10_000;
let bindings: Bindings;
const suites = new Map<string, LoadedSuite>();

beforeAll(async () => {
  bindings = await loadBindings(ROOT);
  for (const p of ["agent-service", "agent-connector", "provider-integration"]) {
    const r = loadSuite(ROOT, p, (x) => bindings.listMessages().filter((m) => m.protocol === x).map((m) => m.name));
    if (!r.ok) throw new Error(`${p}: ${JSON.stringify(r.errors.slice(0, 3))}`);
    suites.set(p, r.suite);
  }
});

const failedIds = (s: RunSummary): string[] => s.results.filter((r) => r.status === "fail").map((r) => r.id).sort();
const failures = (s: RunSummary): string => s.results.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.detail}`).join("\n");
const idsTagged = (p: string, tag: string): string[] => suites.get(p)!.cases.filter((c) => c.tags.includes(tag)).map((c) => c.id);

describe("case files", () => {
  it("every protocol with HTTP cases has a suite, and the meta-schema is a valid 2020-12 schema", () => {
    expect(conformanceProtocols(ROOT)).toEqual(["agent-connector", "agent-service", "provider-integration"]);
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(JSON.parse(readFileSync(join(ROOT, "spec/meta/conformance.schema.json"), "utf8")) as object)).toBe(true);
  });

  it("every case is self-describing (id, title, description, declared tags)", () => {
    for (const s of suites.values()) {
      for (const c of [...s.cases, ...s.clientCases]) {
        expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(c.title.length).toBeGreaterThan(0);
        expect(c.description.length).toBeGreaterThan(0);
        for (const t of c.tags) expect(Object.keys(s.suite.tags)).toContain(t);
      }
    }
  });

  it("covers the transcribed contract and approval tests that need no model or ticket system", () => {
    const sources = suites.get("agent-service")!.cases.flatMap((c) => c.source ?? []);
    const transcribed = JSON.parse(readFileSync(join(ROOT, "property-tests/vectors/agent-service/contract_test_cases.transcribed.json"), "utf8")) as {
      contract_rs: { test: string }[];
      approvals_rs: { cases: { test: string }[] };
    };
    // Needs a model's verdict or the MCP ticket system (outside the agent's HTTP boundary), or a 5 s timeout setting.
    const outOfScope = new Set([
      "the_approval_token_cannot_be_replayed",
      "the_model_cannot_supply_approval_evidence",
      "an_unanswered_prompt_expires_as_a_cancellation",
      "a_refusal_by_the_mcp_server_is_reported_as_nothing_applied",
    ]);
    for (const t of transcribed.contract_rs.map((x) => x.test)) expect(sources.some((s) => s.endsWith(`contract_rs/${t}`)), t).toBe(true);
    for (const t of transcribed.approvals_rs.cases.map((x) => x.test).filter((t) => !outOfScope.has(t))) {
      expect(sources.some((s) => s.endsWith(`approvals_rs/${t}`)), t).toBe(true);
    }
    for (const n of [6, 7, 8, 9]) expect(sources.some((s) => s.endsWith(`make_auth_test/${n}`)), `make auth-test ${n}`).toBe(true);
  });

  it("the loader rejects a case file that breaks the meta-schema or the cross-file rules", () => {
    const dir = mkdtempSync(join(tmpdir(), "conformance-"));
    try {
      mkdirSync(join(dir, "spec/meta"), { recursive: true });
      cpSync(join(ROOT, "spec/meta/conformance.schema.json"), join(dir, "spec/meta/conformance.schema.json"));
      mkdirSync(join(dir, "spec/agent-service/conformance"), { recursive: true });
      cpSync(join(ROOT, "spec/agent-service/conformance/suite.yaml"), join(dir, "spec/agent-service/conformance/suite.yaml"));
      const file = join(dir, "spec/agent-service/conformance/bad.yaml");
      const good = `protocol: agent-service\ngroup: bad\ntitle: t\ndescription: d\ncases:\n  - { id: a-case, title: t, description: d, tags: [auth], steps: [{ request: { method: GET, path: /version }, expect: { status: 401 } }] }\n`;
      writeFileSync(file, good);
      expect(loadSuite(dir, "agent-service").ok).toBe(true);
      const broken: [string, RegExp][] = [
        [good.replace("tags: [auth]", "tags: []"), /minItems/],
        [good.replace("tags: [auth]", "tags: [nonsense]"), /tag nonsense is not declared/],
        [good.replace("group: bad", "group: other"), /group must equal the file name/],
        [good.replace("status: 401", "status: 4010"), /maximum/],
        [good.replace("method: GET", "method: FETCH"), /enum/],
        [good.replace("{ status: 401 }", "{ status: 401, body: { message: NoSuchMessage } }"), /unknown message NoSuchMessage/],
        [good.replace("  - { id: a-case", "  - { id: b-case, title: t, description: d, tags: [auth], steps: [{ continue: s }] }\n  - { id: a-case"), /stream s is not open/],
        [good + good.slice(good.indexOf("  - {")), /duplicate case id a-case/],
      ];
      for (const [text, message] of broken) {
        writeFileSync(file, text);
        const r = loadSuite(dir, "agent-service", () => ["ErrorBody"]);
        expect(r.ok, text).toBe(false);
        if (!r.ok) expect(r.errors.map((e) => e.message).join("\n")).toMatch(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function runAgentService(options: AgentServiceOptions, serverState: string): Promise<RunSummary> {
  const server = await startAgentService(options);
  try {
    return await runSuite(suites.get("agent-service")!, { root: ROOT, url: server.url, bindings, serverState, timeoutMs: TIMEOUT });
  } finally {
    await server.close();
  }
}

describe("agent-service", () => {
  it("the reference server (approvals on) passes every case of its state", async () => {
    const s = await runAgentService({ approvals: true }, "approvals-on");
    expect(failures(s)).toBe("");
    expect(s.passed).toBe(s.results.length - s.skipped);
    expect(s.results.filter((r) => r.status === "skip").every((r) => suites.get("agent-service")!.cases.find((c) => c.id === r.id)!.serverStates?.includes("approvals-off"))).toBe(true);
  });

  it("the reference server (approvals off) passes every case of its state", async () => {
    const s = await runAgentService({ approvals: false }, "approvals-off");
    expect(failures(s)).toBe("");
    expect(s.results.find((r) => r.id === "interaction-route-off-is-404")?.status).toBe("pass");
  });

  it("identity checked before the key fails exactly the key-first cases", async () => {
    const s = await runAgentService({ variant: { identityBeforeKey: true } }, "approvals-on");
    expect(failedIds(s)).toEqual(["key-checked-before-identity-neither", "key-missing-body", "limits-are-checked-after-auth", "unknown-path-needs-key"]);
  });

  it("an interaction answerable twice fails exactly the single-use case", async () => {
    const s = await runAgentService({ variant: { answerableTwice: true } }, "approvals-on");
    expect(failedIds(s)).toEqual(["only-the-owner-and-only-what-was-offered"]);
    expect(s.results.find((r) => r.status === "fail")!.detail).toMatch(/a second answer to the same prompt.*status 204, expected 404/);
  });

  it("an agent without tracing (workflow_trace_id \"\") fails only the tracing case, and passes the untraced one", async () => {
    const s = await runAgentService({ variant: { untraced: true } }, "approvals-on");
    expect(failedIds(s)).toEqual(["stream-joins-traceparent"]);
    expect(failedIds(s).every((id) => idsTagged("agent-service", "tracing").includes(id))).toBe(true);
    expect(s.results.find((r) => r.id === "stream-untraced-trace-id")?.status).toBe("pass");
    expect(s.results.find((r) => r.id === "stream-headers-and-vocabulary")?.status).toBe("pass");
  });

  it("no x-request-id validation fails exactly the invalid-request-id cases", async () => {
    const s = await runAgentService({ variant: { noRequestIdCheck: true } }, "approvals-on");
    expect(failedIds(s)).toEqual(
      ["request-id-at-most-128-bytes", "request-id-checked-before-route", "request-id-checked-on-interaction-route", "request-id-inner-space", "request-id-non-ascii", "request-id-repeated"].sort(),
    );
    expect(failedIds(s).every((id) => idsTagged("agent-service", "request-id").includes(id))).toBe(true);
  });

  it("the reference server answers 410 inside the abandon window and 404 after it", async () => {
    const server = await startAgentService({ abandonDelayMs: 300 });
    try {
      const base = new URL(server.url);
      const headers = (user: string): [string, string][] => [["authorization", "Bearer test-gateway-key"], ["x-authenticated-user-id", user], ["x-request-id", randomUUID()]];
      const run = new Exchange(base, { method: "POST", path: "/v1/workflow/full", headers: [...headers("alice"), ["content-type", "application/json"]], body: Buffer.from('{"messages":[{"role":"user","content":"Change TKT-1001 to high"}]}') }, TIMEOUT);
      expect((await run.head).status).toBe(200);
      let text = "";
      while (!text.includes("event: interaction_required")) text += (await run.next(TIMEOUT))!.toString("utf8");
      const frame = JSON.parse(/event: interaction_required\ndata: (.*)\n\n/.exec(text)![1]!) as { execution_id: string; interaction_id: string };
      run.destroy();
      await new Promise((r) => setTimeout(r, 50));
      const answer = async (): Promise<number> => {
        const x = new Exchange(base, { method: "POST", path: `/executions/${frame.execution_id}/interactions/${frame.interaction_id}/response`, headers: [...headers("alice"), ["content-type", "application/json"]], body: Buffer.from('{"response":{"type":"radio","selected_option":{"id":"cancel","label":"Cancel","value":"__CANCEL__"}}}') }, TIMEOUT);
        const status = (await x.head).status;
        x.destroy();
        return status;
      };
      expect(await answer()).toBe(410);
      expect(server.registry.state(frame.execution_id, frame.interaction_id)).toBe("abandoned");
      expect(await answer()).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("the CLI runs the kit in-process, one line per case and the closing summary", async () => {
    const server = await startAgentService({});
    try {
      const out: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), root: ROOT, readStdin: async () => Buffer.alloc(0) };
      const code = await main(["conformance", "agent-service", "--url", server.url, "--tags", "auth,identity", "--timeout", String(TIMEOUT)], io);
      expect(out.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
      expect(code).toBe(0);
      const n = suites.get("agent-service")!.cases.filter((c) => c.tags.some((t) => t === "auth" || t === "identity")).length;
      expect(out.length).toBe(n + 1);
      expect(out.slice(0, -1).every((l) => /^(pass|skip) [a-z0-9-]+ — /.test(l))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("the CLI exits 1 on a failing implementation and 2 on usage errors", async () => {
    const server = await startAgentService({ variant: { identityBeforeKey: true } });
    const keyFile = join(mkdtempSync(join(tmpdir(), "conformance-key-")), "key");
    writeFileSync(keyFile, "test-gateway-key\n");
    try {
      const out: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), root: ROOT, readStdin: async () => Buffer.alloc(0) };
      expect(await main(["conformance", "agent-service", "--url", server.url, "--key-file", keyFile, "--tags", "auth"], io)).toBe(1);
      expect(out.at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
      expect(out.some((l) => l.startsWith("FAIL key-missing-body — "))).toBe(true);
      expect(await main(["conformance", "agent-service"], io)).toBe(2);
      expect(await main(["conformance", "nope", "--url", server.url], io)).toBe(2);
      expect(await main(["conformance", "agent-service", "--url", server.url, "--tags", "nope"], io)).toBe(2);
      expect(await main(["conformance", "agent-service", "--url", "ftp://127.0.0.1/"], io)).toBe(2);
      expect(await main(["conformance", "agent-service", "--url", server.url, "--key-file", "/nonexistent/key"], io)).toBe(2);
      expect(await main(["conformance", "--help"], io)).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe("agent-connector", () => {
  async function runEndpoint(options: ConnectorEndpointOptions): Promise<RunSummary> {
    const server = await startConnectorEndpoint(options);
    try {
      return await runSuite(suites.get("agent-connector")!, { root: ROOT, url: server.endpoint, bindings, timeoutMs: TIMEOUT });
    } finally {
      await server.close();
    }
  }

  it("the reference endpoint passes every endpoint case", async () => {
    const s = await runEndpoint({});
    expect(failures(s)).toBe("");
    expect(s.passed).toBe(suites.get("agent-connector")!.cases.length);
  });

  it("an endpoint that redirects fails every endpoint case, and the kit never follows it", async () => {
    let otherHits = 0;
    const other = await listen((req, res) => {
      otherHits++;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" }).end('{"text":"elsewhere"}');
    });
    const redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(302, { location: `${other.url}/run` }).end();
    });
    try {
      const s = await runSuite(suites.get("agent-connector")!, { root: ROOT, url: `${redirector.url}/run`, bindings, timeoutMs: TIMEOUT });
      expect(s.failed).toBe(suites.get("agent-connector")!.cases.length);
      expect(otherHits).toBe(0);
    } finally {
      await redirector.close();
      await other.close();
    }
    const v = await runEndpoint({ variant: { redirect: true } });
    expect(v.failed).toBe(suites.get("agent-connector")!.cases.length);
  });

  it("an endpoint answering sessionRef null fails exactly the cases that validate the reply", async () => {
    const s = await runEndpoint({ variant: { nullSessionRef: true } });
    const validating = suites.get("agent-connector")!.cases.filter((c) => c.steps.some((st) => st.expect?.body?.message === "HttpJsonResponse")).map((c) => c.id).sort();
    expect(failedIds(s)).toEqual(validating);
    expect(failedIds(s)).not.toContain("endpoint-never-redirects");
  });

  let reference: HttpJsonClient;
  beforeAll(async () => {
    reference = await createHttpJsonClient(ROOT);
  });

  it("the reference http-json client passes every client case", async () => {
    const s = await runClientCases(suites.get("agent-connector")!, reference, { bindings });
    expect(failures(s)).toBe("");
    expect(s.passed).toBe(suites.get("agent-connector")!.clientCases.length);
  });

  it("a naive client (follows redirects, no origin check, no size bound, every failure final) fails exactly those cases", async () => {
    // fetch with redirect "follow": what sdk.http-json.v1 must not be.
    const naive: HttpJsonClient = async (call) => {
      const url = new URL(call.endpoint);
      const res = await fetch(`${call.resolve!(url.origin)}${url.pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(call.request),
        signal: AbortSignal.timeout(TIMEOUT),
      });
      if (!res.ok) return { outcome: "failed", code: "AGENT_CONNECTOR_HTTP_FAILED", retryable: false, reason: String(res.status) };
      try {
        const j = (await res.json()) as { text?: unknown; sessionRef?: string };
        if (typeof j.text !== "string") return { outcome: "failed", code: "AGENT_CONNECTOR_HTTP_RESPONSE_INVALID", retryable: false, reason: "no text" };
        return { outcome: "completed", text: j.text, sessionRef: j.sessionRef ?? "" };
      } catch {
        return { outcome: "failed", code: "AGENT_CONNECTOR_HTTP_RESPONSE_INVALID", retryable: false, reason: "not JSON" };
      }
    };
    const s = await runClientCases(suites.get("agent-connector")!, naive, { bindings });
    expect(failedIds(s)).toEqual(
      [
        "client-origin-includes-port",
        "client-refuses-permanent-redirect",
        "client-refuses-redirect",
        "client-requires-declared-origin",
        "client-requires-https",
        "client-response-over-4-mib",
        "client-response-session-ref-null",
        "client-sends-the-request",
        "client-status-5xx-retryable",
      ].sort(),
    );
  });
});

describe("provider-integration", () => {
  const casesFor = (state: string) => suites.get("provider-integration")!.cases.filter((c) => c.serverStates === undefined || c.serverStates.includes(state));
  async function runProvider(options: ProviderEndpointOptions, serverState: string): Promise<RunSummary & { scheduled: string[] }> {
    const server = await startProviderEndpoint(options);
    try {
      const s = await runSuite(suites.get("provider-integration")!, { root: ROOT, url: server.url, bindings, serverState, timeoutMs: TIMEOUT });
      return { ...s, scheduled: [...server.scheduled] };
    } finally {
      await server.close();
    }
  }

  it("the reference endpoint passes every case in each state", async () => {
    for (const state of ["ready", "integration-disabled", "runtime-missing"] as const) {
      const s = await runProvider({ state }, state);
      expect(failures(s), state).toBe("");
      expect(s.passed, state).toBe(casesFor(state).length);
      expect(s.failed + s.skipped, state).toBe(suites.get("provider-integration")!.cases.length - casesFor(state).length);
      if (state !== "ready") expect(s.scheduled).toEqual([]);
    }
  });

  it("a ready endpoint schedules each accepted event once", async () => {
    const s = await runProvider({}, "ready");
    expect(new Set(s.scheduled).size).toBe(s.scheduled.length);
    // Counted by hand from notifications.yaml: the first delivery of each event the ready endpoint
    // accepts. accepted 1, duplicate 1 (its retry is not scheduled), distinct-events 2,
    // refused-schedules-nothing 1 (after its refusal), bad-body-then-good 1, answers-carry-no-credential 1.
    expect(s.scheduled).toHaveLength(7);
  });

  it("an endpoint without deduplication fails exactly the duplicate case", async () => {
    const s = await runProvider({ variant: { noDedupe: true } }, "ready");
    expect(failedIds(s)).toEqual(["notification-duplicate"]);
  });

  it("an endpoint that validates the body before authenticating fails exactly the auth-first case", async () => {
    const s = await runProvider({ variant: { bodyBeforeAuth: true } }, "ready");
    expect(failedIds(s)).toEqual(["notification-auth-before-body"]);
  });
});
