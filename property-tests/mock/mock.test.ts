// `agent-contracts mock` against the conformance kit (every case of every server state passes)
// and against the spec: each answer the mock wrote is checked against the response its route
// declares for that status (the message, or the x-sse frames of a stream), with the bindings
// compiled from the spec, not with the code that produced the answer.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSuite } from "../../generators/conformance/load.js";
import { loadBindings, runSuite, type Bindings } from "../../generators/conformance/runner.js";
import { loadSseSpec, SseReader } from "../../generators/conformance/sse.js";
import { startMock, type RecordedAnswer, type RunningMock } from "../../generators/mock/server.js";
import { ScenarioError } from "../../generators/mock/scenario.js";
import { responseFor, routeFor, specChecker } from "../../generators/mock/spec-answers.js";
import { loadModel } from "../../generators/pipeline.js";
import type { Model } from "../../generators/model/types.js";

const ROOT = join(import.meta.dirname, "..", "..");
let model: Model;
let bindings: Bindings;
const dir = mkdtempSync(join(tmpdir(), "mock-test-"));

beforeAll(async () => {
  const loaded = loadModel(ROOT);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors.slice(0, 3)));
  model = loaded.model;
  bindings = await loadBindings(ROOT);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The route an answer belongs to: by method and path, or the peer-configured route of the endpoint the mock mounts. */
function declaredRoute(protocol: string, a: RecordedAnswer) {
  const routes = model.protocols.find((p) => p.id === protocol)!.routes;
  const path = a.path.split("?")[0]!;
  if (protocol === "provider-integration" && path === "/notify") return routes.find((r) => r.id === "notifyProvider");
  if (protocol === "agent-connector" && path === "/run") return routes.find((r) => r.id === "httpJsonRun");
  return routeFor(routes, a.method, a.path);
}

/** Every problem of the recorded answers against the spec ([] when each is a declared answer). */
function answerProblems(protocol: string, answers: readonly RecordedAnswer[]): string[] {
  const checker = specChecker(model, protocol);
  const sse = loadSseSpec(ROOT, protocol);
  const problems: string[] = [];
  for (const a of answers) {
    const where = `${a.method} ${a.path} ${a.status}`;
    const route = declaredRoute(protocol, a);
    if (route === undefined) {
      // Paths no route declares: agent-service puts every path behind x-auth and answers an ErrorBody.
      if (protocol === "agent-service") problems.push(...checker.check("ErrorBody", JSON.parse(a.body.toString("utf8"))).map((e) => `${where}: ${e}`));
      else if (a.status !== 404) problems.push(`${where}: no route, but not 404`);
      continue;
    }
    const declared = responseFor(route, a.status);
    if (declared === undefined) {
      problems.push(`${where}: route ${route.id} declares no ${a.status}`);
      continue;
    }
    if (declared.contentType !== undefined && !(a.contentType ?? "").startsWith(declared.contentType)) problems.push(`${where}: content-type ${a.contentType}, declared ${declared.contentType}`);
    if (declared.message !== undefined) {
      problems.push(...checker.check(declared.message, JSON.parse(a.body.toString("utf8"))).map((e) => `${where}: ${declared.message} ${e}`));
    } else if (declared.contentType === "text/event-stream") {
      const reader = new SseReader(sse!, (name, text) => {
        const r = bindings.parseMessage(protocol, name, text);
        return r.ok ? { ok: true, value: r.value } : { ok: false, error: JSON.stringify(r.errors[0]) };
      });
      reader.push(a.body.toString("utf8"));
      problems.push(...reader.problems.map((p) => `${where}: ${p}`));
      if (reader.frames.length === 0) problems.push(`${where}: an empty stream`);
    }
  }
  return problems;
}

async function kitAgainstMock(protocol: string, serverState: string, endpointPath = ""): Promise<void> {
  const answers: RecordedAnswer[] = [];
  const file = scenario(`${protocol}-${serverState}.yaml`, `serverState: ${serverState}\n`);
  const mock = await startMock({ root: ROOT, model, protocol, scenarioFile: file, onAnswer: (a) => answers.push(a) });
  try {
    const loaded = loadSuite(ROOT, protocol);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const forState = loaded.suite.cases.filter((c) => c.serverStates === undefined || c.serverStates.includes(serverState));
    const summary = await runSuite(loaded.suite, { root: ROOT, url: `${mock.url}${endpointPath}`, bindings, serverState, timeoutMs: 10_000 });
    expect(summary.results.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
    expect(summary.passed).toBe(forState.length);
    expect(forState.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(0);
    expect(answerProblems(protocol, answers)).toEqual([]);
  } finally {
    await mock.close();
  }
}

describe("the conformance kit against the mock passes every case", () => {
  it.each([
    ["agent-service", "approvals-on", ""],
    ["agent-service", "approvals-off", ""],
    ["provider-integration", "ready", "/notify"],
    ["provider-integration", "integration-disabled", "/notify"],
    ["provider-integration", "runtime-missing", "/notify"],
    ["agent-connector", "ready", "/run"],
  ])("%s in state %s", async (protocol, state, path) => kitAgainstMock(protocol, state, path), 120_000);
});

describe("the routes a runtime calls (provider-integration), answered from the spec", () => {
  let mock: RunningMock;
  const answers: RecordedAnswer[] = [];
  beforeAll(async () => {
    mock = await startMock({ root: ROOT, model, protocol: "provider-integration", onAnswer: (a) => answers.push(a) });
  });
  afterAll(() => mock.close());
  const auth = { authorization: "Bearer test-notification-key" };

  it("answers each served route with its declared message, refuses a wrong credential and a malformed body", async () => {
    const whoami = await fetch(`${mock.url}/v1/whoami`, { headers: auth });
    expect(whoami.status).toBe(200);
    expect(((await whoami.json()) as { address: string }).address).toMatch(/^[^/]+\/[^/]+$/);
    expect((await fetch(`${mock.url}/v1/whoami`)).status).toBe(401);
    expect((await fetch(`${mock.url}/v1/whoami`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${mock.url}/v1/inbox?after_sequence=0&limit=10`, { headers: auth })).status).toBe(200);
    const bad = await fetch(`${mock.url}/v1/messages`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: '{"not":"a SendMessageRequest"}' });
    expect(bad.status).toBe(400);
    const notJson = await fetch(`${mock.url}/v1/connect/start`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${mock.url}/v1/no-such-route`, { headers: auth })).status).toBe(404);
    // What the mock cannot answer from the spec, it says, and does not make up.
    expect(mock.notServed.some((n) => n.startsWith("liveChannel:"))).toBe(true);
    expect(answerProblems("provider-integration", answers)).toEqual([]);
  });
});

describe("a spec that is not the CLI's own (--spec)", () => {
  it("gets only the routes answerable from the spec, each answer declared; a protocol without such routes is refused", async () => {
    const project = join(dir, "other");
    cpSync(join(ROOT, "spec"), join(project, "spec"), { recursive: true });
    const loaded = loadModel(project);
    if (!loaded.ok) throw new Error("spec copy");
    const answers: RecordedAnswer[] = [];
    const mock = await startMock({ root: project, model: loaded.model, protocol: "agent-service", onAnswer: (a) => answers.push(a) });
    try {
      // No built-in behaviour: /version is answered with VersionInfo's example behind the bearer key,
      // the workflow stream (no message for its SSE body) is not served.
      const version = await fetch(`${mock.url}/version`, { headers: { authorization: "Bearer test-gateway-key" } });
      expect(version.status).toBe(200);
      expect((await fetch(`${mock.url}/version`)).status).toBe(401);
      expect((await fetch(`${mock.url}/v1/workflow/full`, { method: "POST" })).status).toBe(404);
      expect(mock.notServed.some((n) => n.startsWith("postWorkflowFull:"))).toBe(true);
      expect(answerProblems("agent-service", answers.filter((a) => a.status !== 404))).toEqual([]);
    } finally {
      await mock.close();
    }
    await expect(startMock({ root: project, model: loaded.model, protocol: "agent-provider" })).rejects.toThrow(/agent-provider has no HTTP route the mock can answer/);
  }, 120_000);
});

describe("scenarios", () => {
  it("a 401 fault answers the protocol's own 401 for the first N requests, then the mock answers normally", async () => {
    const answers: RecordedAnswer[] = [];
    const file = scenario("unauthorized.yaml", "faults:\n  - match: { method: GET, path: /version, times: 1 }\n    unauthorized: true\n");
    const mock = await startMock({ root: ROOT, model, protocol: "agent-service", scenarioFile: file, onAnswer: (a) => answers.push(a) });
    try {
      const headers = { authorization: "Bearer test-gateway-key", "x-authenticated-user-id": "alice" };
      const first = await fetch(`${mock.url}/version`, { headers });
      expect(first.status).toBe(401);
      expect(first.headers.get("www-authenticate")).toBe("Bearer");
      expect((await fetch(`${mock.url}/version`, { headers })).status).toBe(200);
      expect(answerProblems("agent-service", answers)).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  const workflow = (url: string, text: string) =>
    fetch(`${url}/v1/workflow/full`, {
      method: "POST",
      headers: { authorization: "Bearer test-gateway-key", "x-authenticated-user-id": "alice", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: text }] }),
    });

  it("replies script the answer chunks of the stream; slow delays every frame", async () => {
    const file = scenario("slow.yaml", "replies:\n  - { match: refund, chunks: ['Refunds take ', '3 days.'] }\nfaults:\n  - match: { path: /v1/workflow/full }\n    slow: { delayMs: 40 }\n");
    const answers: RecordedAnswer[] = [];
    const mock = await startMock({ root: ROOT, model, protocol: "agent-service", scenarioFile: file, onAnswer: (a) => answers.push(a) });
    try {
      const started = performance.now();
      const res = await workflow(mock.url, "How do refunds work?");
      const text = await res.text();
      const elapsed = performance.now() - started;
      const chunks = text.split("\n\n").filter((b) => b.startsWith("data: ")).map((b) => (JSON.parse(b.slice(6)) as { value: string }).value);
      expect(chunks).toEqual(["Refunds take ", "3 days."]);
      // A lower bound the delays guarantee (timers never fire early), not a speed check: at least
      // one 40 ms delay per frame (steps and answers).
      const frames = text.split("\n\n").filter((b) => b !== "").length;
      expect(frames).toBeGreaterThanOrEqual(6);
      expect(elapsed).toBeGreaterThanOrEqual(frames * 40);
      expect(answerProblems("agent-service", answers)).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it("drop cuts the stream after N frames; afterWrites 0 closes before the head", async () => {
    const file = scenario("drop.yaml", "faults:\n  - match: { path: /v1/workflow/full, times: 1 }\n    drop: { afterWrites: 2 }\n  - match: { path: /version }\n    drop: { afterWrites: 0 }\n");
    const mock = await startMock({ root: ROOT, model, protocol: "agent-service", scenarioFile: file });
    try {
      const res = await workflow(mock.url, "hello");
      expect(res.status).toBe(200);
      const cut = await res.text().then(
        () => "ended",
        (e: Error) => `cut: ${e.message}`,
      );
      expect(cut).toMatch(/^cut/);
      const whole = await (await workflow(mock.url, "hello")).text();
      expect(whole).toContain("WORKFLOW_END");
      await expect(fetch(`${mock.url}/version`)).rejects.toThrow();
    } finally {
      await mock.close();
    }
  });

  it("a bad scenario is refused with file:line:col and pointer, before the mock starts", async () => {
    const cases: [string, RegExp][] = [
      ["serverState: approvals-maybe\n", /bad\.yaml:1:1 \/serverState unknown server state approvals-maybe; known: approvals-on, approvals-off/],
      ["faults:\n  - match: { path: /x }\n    slow: { delayMs: 0 }\n", /bad\.yaml:3:\d+ \/faults\/0\/slow\/delayMs must be >= 1/],
      ["faults:\n  - match: { path: /x }\n", /\/faults\/0 must NOT have fewer than 2 properties/],
      ["bogus: 1\n", /bad\.yaml:1:1 \/ must NOT have additional properties \(bogus\)/],
      ["key: a\nkey: b\n", /bad\.yaml:2:1 .*duplicate/i],
    ];
    for (const [text, expected] of cases) {
      const file = scenario("bad.yaml", text);
      const error = await startMock({ root: ROOT, model, protocol: "agent-service", scenarioFile: file }).then(
        (m) => (void m.close(), undefined),
        (e: unknown) => e,
      );
      expect(error, text).toBeInstanceOf(ScenarioError);
      expect((error as Error).message, text).toMatch(expected);
    }
    const body = scenario("route.yaml", "routes:\n  whoami: { body: { address: no } }\n");
    await expect(startMock({ root: ROOT, model, protocol: "provider-integration", scenarioFile: body })).rejects.toThrow(/route\.yaml:2:\d+ \/routes\/whoami\/body not a Whoami: \/address/);
    const big = scenario("big.yaml", `key: ${"a".repeat(300 * 1024)}\n`);
    await expect(startMock({ root: ROOT, model, protocol: "agent-service", scenarioFile: big })).rejects.toThrow(/scenario-too-large/);
  });
});
