// Every expectation kind of the conformance kit (generators/conformance/case-run.ts), run against
// the agent-service reference server twice: once written so the server's answer meets it (the case
// must pass) and once so it does not (the case must fail, with that expectation named). The
// server's answers are the protocol's (spec/agent-service/protocol.yaml: /health answers 200 "ok"
// as text/plain; /version without the key 401 {"error":"invalid or missing internal API key"};
// the workflow stream's frames), so a check that never fails, or always does, is caught here.
// Stream ordering needs a server that breaks it: the reference server's own frames, served reversed.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSuite } from "../../generators/conformance/load.js";
import { loadBindings, runSuite, type Bindings } from "../../generators/conformance/runner.js";
import type { Case, Expect, LoadedSuite, Step } from "../../generators/conformance/types.js";
import { startAgentService } from "../../generators/mock/agent-service.js";
import { listen, type Running } from "../../generators/mock/http-support.js";

const ROOT = join(import.meta.dirname, "..", "..");
const KEY_ERROR = "invalid or missing internal API key";
const health: Step["request"] = { method: "GET", path: "/health" };
const version: Step["request"] = { method: "GET", path: "/version" };
const admitted: [string, string][] = [["authorization", "Bearer ${key}"], ["x-authenticated-user-id", "support-rep-1"], ["x-request-id", "${uuid}"]];
// /version with the key: 200 and the provenance JSON (474 bytes from the reference server).
const provenance: Step["request"] = { method: "GET", path: "/version", headers: [["authorization", "Bearer ${key}"], ["x-authenticated-user-id", "support-rep-1"]] };
const stream: Step["request"] = { method: "POST", path: "/v1/workflow/full?filter_steps=WORKFLOW_START,WORKFLOW_END", headers: admitted, body: { messages: [{ role: "user", content: "Hello" }] } };
const approval: Step["request"] = { method: "POST", path: "/v1/workflow/full", headers: admitted, body: { messages: [{ role: "user", content: "Change TKT-1001 to high" }] }, read: "until-interaction", stream: "run" };
const START = { kind: "step" as const, type: "WORKFLOW_START" };
const END = { kind: "step" as const, type: "WORKFLOW_END" };

interface Kind {
  kind: string;
  pass: Step[];
  fail: Step[];
  /** The failure's detail (after "step N: "), or its code when it is not expectation-failed. */
  because: RegExp;
  code?: string;
  /** The longest failure detail allowed: a long answer is quoted in part, not whole. */
  maxDetail?: number;
}
const one = (request: Step["request"], expect: Expect, capture?: Record<string, string>): Step[] => [{ request, expect, ...(capture ? { capture } : {}) }];

const KINDS: Kind[] = [
  { kind: "status", pass: one(health, { status: 200 }), fail: one(health, { status: 201 }), because: /status 200, expected 201/ },
  { kind: "statusIn", pass: one(health, { statusIn: [204, 200] }), fail: one(health, { statusIn: [201, 204] }), because: /status 200, expected one of 201, 204$/ },
  { kind: "statusNot", pass: one(health, { statusNot: [404, 500] }), fail: one(health, { statusNot: [500, 200] }), because: /status 200, expected none of 500, 200$/ },
  { kind: "statusRange (bounds inclusive)", pass: one(health, { statusRange: [200, 200] }), fail: one(health, { statusRange: [300, 399] }), because: /status 200, expected 300-399/ },
  { kind: "statusRange (above the upper bound)", pass: one(health, { statusRange: [100, 299] }), fail: one(health, { statusRange: [100, 199] }), because: /status 200, expected 100-199$/ },
  { kind: "statusRange (below the lower bound)", pass: one(version, { statusRange: [400, 499] }), fail: one(version, { statusRange: [402, 499] }), because: /status 401, expected 402-499/ },
  { kind: "when", pass: one(health, { when: [500], body: { text: "nope" } }), fail: one(health, { when: [500, 200], body: { text: "nope" } }), because: /body "ok", expected "nope"/ },
  { kind: "headers", pass: one(version, { headers: { "www-authenticate": "Bearer", "content-type": { startsWith: "application/json" } } }), fail: one(health, { headers: { "content-type": { startsWith: "application/json" } } }), because: /header content-type: .* does not start with "application\/json"/ },
  { kind: "headers (absent)", pass: one(health, { headers: { "www-authenticate": { present: false } } }), fail: one(health, { headers: { "x-not-sent": "v" } }), because: /header x-not-sent: absent/ },
  { kind: "body.text", pass: one(health, { body: { text: "ok" } }), fail: one(health, { body: { text: "okay" } }), because: /body "ok", expected "okay"/ },
  { kind: "body.json", pass: one(version, { body: { json: true } }), fail: one(health, { body: { json: true } }), because: /body is not JSON/ },
  { kind: "body.message", pass: one(version, { body: { message: "ErrorBody" } }), fail: one(version, { body: { message: "AnswerChunk" } }), because: /body is not a valid AnswerChunk/ },
  { kind: "body.equals", pass: one(version, { body: { equals: { error: KEY_ERROR } } }), fail: one(version, { body: { equals: { error: "not found" } } }), because: /body \{"error":"invalid or missing internal API key"\}, expected \{"error":"not found"\}$/ },
  { kind: "body.fields", pass: one(version, { body: { fields: { "/error": { startsWith: "invalid" } } } }), fail: one(version, { body: { fields: { "/error": { type: "number" } } } }), because: /body \/error: .* is not of type number/ },
  { kind: "body.notContains", pass: one(version, { body: { notContains: ["secret"] } }), fail: one(version, { body: { notContains: ["API key"] } }), because: /body contains "API key"/ },
  { kind: "body.maxBytes", pass: one(version, { body: { maxBytes: 200 } }), fail: one(version, { body: { maxBytes: 10 } }), because: /body is larger than 10 bytes/, code: "body-too-large" },
  {
    kind: "body.empty",
    pass: [
      { request: approval, expect: { status: 200 }, capture: { E: "/execution_id", I: "/interaction_id", CHANGE: "/prompt/options/[label^=Change to]" } },
      { request: { method: "POST", path: "/executions/${E}/interactions/${I}/response", headers: admitted, body: { response: { type: "radio", selected_option: "${CHANGE}" } } }, expect: { status: 204, body: { empty: true } } },
    ],
    fail: one(health, { body: { empty: true } }),
    because: /expected an empty body, got "ok"/,
  },
  { kind: "capture", pass: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { equals: { error: "${WHY}" } } })), fail: one(version, { status: 401 }, { WHY: "/reason" }), because: /capture WHY: \/reason not found/ },
  { kind: "sse.stepTypes", pass: one(stream, { sse: { stepTypes: ["WORKFLOW_START", "WORKFLOW_END"] } }), fail: one(stream, { sse: { stepTypes: ["WORKFLOW_START"] } }), because: /step types \["WORKFLOW_START","WORKFLOW_END"\], expected \["WORKFLOW_START"\]/ },
  { kind: "sse.contains", pass: one(stream, { sse: { contains: [START, { kind: "answer" }, END] } }), fail: one(stream, { sse: { contains: [{ kind: "step", type: "TOOL_START" }] } }), because: /no frame \{"kind":"step","type":"TOOL_START"\} \(frames: / },
  { kind: "sse.contains (in order)", pass: one(stream, { sse: { contains: [START, END] } }), fail: one(stream, { sse: { contains: [END, START] } }), because: /no frame .*WORKFLOW_START.* after the previous match/ },
  { kind: "sse.absent", pass: one(stream, { sse: { absent: [{ kind: "error" }, { kind: "interaction" }] } }), fail: one(stream, { sse: { absent: [END] } }), because: /unexpected frame .*WORKFLOW_END/, maxDetail: 300 },
  { kind: "sse.count n", pass: one(stream, { sse: { count: [{ match: START, n: 1 }] } }), fail: one(stream, { sse: { count: [{ match: START, n: 2 }] } }), because: /1 frames .* expected 2/ },
  { kind: "sse.count min", pass: one(stream, { sse: { count: [{ match: END, min: 1 }] } }), fail: one(stream, { sse: { count: [{ match: END, min: 2 }] } }), because: /1 frames .* expected at least 2/ },
  { kind: "sse.count max", pass: one(stream, { sse: { count: [{ match: { kind: "error" }, max: 0 }] } }), fail: one(stream, { sse: { count: [{ match: START, max: 0 }] } }), because: /1 frames .* expected at most 0/ },
  { kind: "sse.answer", pass: one(stream, { sse: { answer: { pattern: "\\S" } } }), fail: one(stream, { sse: { answer: { equals: "not the answer" } } }), because: /answer: .*expected "not the answer"/ },
  { kind: "sse.ended", pass: one(stream, { sse: { ended: true } }), fail: one(stream, { sse: { ended: false } }), because: /the stream ended/ },
  {
    kind: "sse.interaction",
    pass: one(approval, { status: 200, sse: { interaction: { "/execution_id": { type: "string" }, "/prompt/options": { type: "array" } } } }),
    fail: one(approval, { status: 200, sse: { interaction: { "/execution_id": { type: "number" } } } }),
    because: /interaction \/execution_id: .* is not of type number/,
  },
  // Issue 41: the edges of each check (case-run.ts's checkHeaders, expandExpect, checkBody,
  // checkFields, checkSse and frame matching), each against the same reference server.
  { kind: "headers (a name in any case)", pass: one(version, { headers: { "WWW-Authenticate": "Bearer" } }), fail: one(version, { headers: { "WWW-Authenticate": "Basic" } }), because: /header WWW-Authenticate: "Bearer", expected "Basic"/ },
  { kind: "body.fields (a plain value)", pass: one(version, { body: { fields: { "/error": KEY_ERROR } } }), fail: one(version, { body: { fields: { "/error": 401 } } }), because: /body \/error: "invalid or missing internal API key", expected 401$/ },
  { kind: "body.fields (the root pointer)", pass: one(version, { body: { fields: { "": { type: "object" } } } }), fail: one(version, { body: { fields: { "": { type: "array" } } } }), because: /body \/: .* is not of type array$/ },
  {
    kind: "body.fields (placeholders in an expectation)",
    pass: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { fields: { "/error": "${WHY}" } } }), one(version, { body: { fields: { "/error": { equals: "${WHY}" } } } })),
    fail: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { fields: { "/error": { startsWith: "not ${WHY}" } } } })),
    because: /body \/error: .* does not start with "not invalid or missing internal API key"$/,
  },
  {
    kind: "body.fields (a placeholder as the whole expectation)",
    pass: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { fields: { "/error": "${WHY}" } } })),
    fail: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { fields: { "/error": "${WHY}." } } })),
    because: /body \/error: "invalid or missing internal API key", expected "invalid or missing internal API key\."$/,
  },
  { kind: "body.maxBytes (the bound inclusive)", pass: one(version, { body: { maxBytes: 47 } }), fail: one(version, { body: { maxBytes: 46 } }), because: /body is larger than 46 bytes/, code: "body-too-large" },
  {
    kind: "body.notContains (an empty needle, placeholders)",
    pass: one(version, { body: { notContains: ["", "${key}"] } }),
    fail: one(version, { status: 401 }, { WHY: "/error" }).concat(one(version, { body: { notContains: ["${WHY}"] } })),
    because: /body contains "\$\{WHY\}"$/,
  },
  { kind: "sse.ended (a stream kept open)", pass: one(approval, { status: 200, sse: { ended: false } }), fail: one(approval, { status: 200, sse: { ended: true } }), because: /the stream did not end$/ },
  {
    kind: "sse.contains (by name, name prefix and fields)",
    pass: one(stream, { sse: { contains: [{ kind: "step", name: "support-tickets-agent.invoke", fields: { "/type": "WORKFLOW_START" } }, { namePrefix: "support-", type: "WORKFLOW_END" }] } }),
    fail: one(stream, { sse: { contains: [{ kind: "step", name: "support-tickets-agent" }] } }),
    because: /no frame .*"name":"support-tickets-agent"/,
  },
  { kind: "sse.contains (a name prefix no frame has)", pass: one(stream, { sse: { absent: [{ namePrefix: "guardrail" }] } }), fail: one(stream, { sse: { contains: [{ namePrefix: "guardrail" }] } }), because: /no frame .*"namePrefix":"guardrail"/ },
  { kind: "sse.contains (a field no frame has)", pass: one(stream, { sse: { absent: [{ kind: "step", fields: { "/type": "TOOL_END" } }] } }), fail: one(stream, { sse: { contains: [{ kind: "step", fields: { "/type": "TOOL_END" } }] } }), because: /no frame .*TOOL_END/ },
  // Long answers are quoted in part (120 characters of a body, 160 of a body refused as a message
  // or of a frame, 200 of a JSON body): a failure detail stays short whatever the server sends.
  { kind: "body.empty (a long body quoted in part)", pass: one(version, { body: { empty: false } }), fail: one(stream, { body: { empty: true } }), because: /expected an empty body, got "intermediate_data: /, maxDetail: 300 },
  { kind: "body.text (a long body quoted in part)", pass: one(health, { body: { text: "ok" } }), fail: one(stream, { body: { text: "x" } }), because: /body "intermediate_data: .*", expected "x"$/, maxDetail: 300 },
  { kind: "body.json (a long body quoted in part)", pass: one(version, { body: { json: true } }), fail: one(stream, { body: { json: true } }), because: /body is not JSON: "intermediate_data: /, maxDetail: 300 },
  { kind: "body.message (a long body quoted in part)", pass: one(version, { body: { message: "ErrorBody" } }), fail: one(provenance, { body: { message: "ErrorBody" } }), because: /body is not a valid ErrorBody: .*; body "\{/, maxDetail: 400 },
  { kind: "body.equals (a long body quoted in part)", pass: one(version, { body: { equals: { error: KEY_ERROR } } }), fail: one(provenance, { body: { equals: {} } }), because: /body \{"available":true,.*, expected \{\}$/, maxDetail: 300 },
  { kind: "body.fields (null)", pass: one(stream, { sse: { contains: [{ ...START, fields: { "/parent_id": null } }] } }), fail: one(version, { body: { fields: { "/error": null } } }), because: /body \/error: "invalid or missing internal API key", expected null$/ },
  { kind: "sse.answer (the chunks joined in order)", pass: one(stream, { sse: { answer: "Hello." } }), fail: one(stream, { sse: { answer: "Hello" } }), because: /answer: "Hello\.", expected "Hello"$/ },
  { kind: "sse.contains (each frame matched once)", pass: one(stream, { sse: { contains: [{ kind: "answer" }, { kind: "answer" }] } }), fail: one(stream, { sse: { contains: [{ kind: "answer" }, { kind: "answer" }, { kind: "answer" }] } }), because: /no frame \{"kind":"answer"\} after the previous match/ },
  {
    kind: "continue (a kept stream read to its end, no expectations)",
    pass: [
      { request: approval, expect: { status: 200 }, capture: { E: "/execution_id", I: "/interaction_id", CHANGE: "/prompt/options/[label^=Change to]" } },
      { request: { method: "POST", path: "/executions/${E}/interactions/${I}/response", headers: admitted, body: { response: { type: "radio", selected_option: "${CHANGE}" } } }, expect: { status: 204 } },
      { continue: "run" },
    ],
    fail: [{ continue: "run" }],
    because: /stream run is not open$/,
  },
  { kind: "sse.interaction (none)", pass: one(stream, { sse: { ended: true } }), fail: one(stream, { sse: { interaction: { "/execution_id": { present: true } } } }), because: /no interaction frame/ },
];

let bindings: Bindings;
let suite: LoadedSuite;
let server: Running;
beforeAll(async () => {
  bindings = await loadBindings(ROOT);
  const loaded = loadSuite(ROOT, "agent-service", (p) => bindings.listMessages().filter((m) => m.protocol === p).map((m) => m.name));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors.slice(0, 3)));
  suite = loaded.suite;
  server = await startAgentService({ approvals: true });
});
afterAll(() => server?.close());

function caseOf(id: string, steps: Step[]): Case & { group: string; file: string } {
  return { id, title: id, description: id, tags: ["expectations"], steps, group: "expectations", file: "expectations.test.ts" };
}
async function runCases(url: string, cases: (Case & { group: string; file: string })[]) {
  return runSuite({ ...suite, files: [], cases, clientCases: [] }, { root: ROOT, url, bindings, serverState: "approvals-on", timeoutMs: 10_000 });
}

describe.each(KINDS)("$kind", (k) => {
  it("passes when the reference server's answer meets it, fails with its message when not", async () => {
    const s = await runCases(server.url, [caseOf("pass", k.pass), caseOf("fail", k.fail)]);
    const [pass, fail] = s.results;
    expect([pass!.status, pass!.detail]).toEqual(["pass", undefined]);
    expect(fail!.status).toBe("fail");
    expect(fail!.code).toBe(k.code ?? "expectation-failed");
    expect(fail!.detail).toMatch(new RegExp(`^step ${k.fail.length}: ${k.because.source}`));
    if (k.maxDetail !== undefined) expect(fail!.detail!.length).toBeLessThanOrEqual(k.maxDetail);
  });
});

describe("sse.ordering", () => {
  let reversed: Running;
  beforeAll(async () => {
    // The reference server's own stream for this request, its frames served in reverse order.
    const r = await fetch(`${server.url}${stream!.path}`, { method: "POST", headers: { authorization: "Bearer test-gateway-key", "x-authenticated-user-id": "u", "content-type": "application/json" }, body: JSON.stringify(stream!.body) });
    const blocks = (await r.text()).split("\n\n").filter((b) => b.trim() !== "");
    expect(blocks.filter((b) => b.startsWith("intermediate_data: "))).toHaveLength(2);
    const text = `${blocks.reverse().join("\n\n")}\n\n`;
    reversed = await listen((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": r.headers.get("content-type")! }).end(text));
    });
  });
  afterAll(() => reversed?.close());
  it("a case that asks no ordering passes on the frames reversed", async () => {
    const unordered = caseOf("unordered", one(stream, { sse: { ended: true, contains: [END, START] } }));
    expect((await runCases(reversed.url, [unordered])).results[0]).toMatchObject({ status: "pass" });
  });
  it("passes on the reference server, fails on its frames reversed", async () => {
    const ordered = caseOf("ordered", one(stream, { sse: { ordering: true } }));
    expect((await runCases(server.url, [ordered])).results[0]).toMatchObject({ status: "pass" });
    const [fail] = (await runCases(reversed.url, [ordered])).results;
    expect([fail!.status, fail!.code, fail!.detail]).toEqual(["fail", "expectation-failed", "step 1: WORKFLOW_START is not the first frame"]);
  });
});

describe("a stream without frames", () => {
  let empty: Running;
  beforeAll(async () => {
    empty = await listen((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "text/event-stream" }).end());
    });
  });
  afterAll(() => empty?.close());
  it("meets expectations that name no frame, and fails one that names a frame", async () => {
    const none = caseOf("none", one(stream, { sse: { ended: true, stepTypes: [], count: [{ match: { kind: "answer" }, n: 0 }] } }));
    const some = caseOf("some", one(stream, { sse: { contains: [{ kind: "answer" }] } }));
    const [pass, fail] = (await runCases(empty.url, [none, some])).results;
    expect([pass!.status, pass!.detail]).toEqual(["pass", undefined]);
    expect([fail!.status, fail!.detail]).toEqual(["fail", 'step 1: no frame {"kind":"answer"} (frames: )']);
  });
});

it("every expectation kind of the case format is exercised here", () => {
  const kinds = new Set(KINDS.map((k) => k.kind.split(" ")[0]!));
  kinds.add("sse.ordering");
  const format: Required<Expect> = { status: 0, statusIn: [], statusNot: [], statusRange: [0, 0], headers: {}, body: {}, sse: {}, when: [] };
  const body: Required<NonNullable<Expect["body"]>> = { empty: true, text: "", json: true, message: "", equals: null, fields: {}, notContains: [], maxBytes: 0 };
  const sse: Required<NonNullable<Expect["sse"]>> = { ordering: true, stepTypes: [], contains: [], absent: [], count: [], answer: "", interaction: {}, ended: true };
  const all = [...Object.keys(format).filter((k) => k !== "body" && k !== "sse"), ...Object.keys(body).map((k) => `body.${k}`), ...Object.keys(sse).map((k) => `sse.${k}`)];
  expect(all.filter((k) => !kinds.has(k))).toEqual([]);
});
