// The case runner's request side (generators/conformance/case-run.ts): placeholders, captured
// variables, auth, content types and bodies, the step kinds, and the messages that name the step.
// A loopback server records every request it gets and answers with a fixed JSON body, so each test
// checks what was sent against the case format's documented meaning (spec/meta/conformance.schema.json
// and the placeholder list in case-run.ts), not against the runner's own output. Scripted answers
// (event streams framed as x-sse states, stalls, big bodies) drive the stream steps, the closing of
// each exchange (seen from the server side) and the kit's memory counters (CaseStats).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaseRun, type Bindings } from "../../generators/conformance/case-run.js";
import { DEFAULT_LIMITS, KitFailure } from "../../generators/conformance/failures.js";
import type { SseSpec } from "../../generators/conformance/sse.js";
import type { Case, FrameKind, Step } from "../../generators/conformance/types.js";

interface Seen {
  method: string;
  path: string;
  rawHeaders: string[];
  body: string;
}
const seen: Seen[] = [];
// Scripted answers by path (event streams, stalls, big bodies): each writes its own response, and
// `closed` says when the kit closed that connection.
const scripts = new Map<string, (res: http.ServerResponse) => void>();
const closed = new Map<string, Promise<void>>();
const ANSWER = { id: 7, name: "n-1", list: [1, 2], nested: { ok: true } };
let server: http.Server;
let base: URL;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString("utf8") });
      const script = scripts.get(req.url!);
      if (script) {
        closed.set(req.url!, new Promise((r) => res.on("close", () => r())));
        script(res);
      } else if (req.url === "/text") res.writeHead(200, { "content-type": "text/plain" }).end("plain words");
      else res.writeHead(200, { "content-type": "application/json", "x-answer": "yes" }).end(JSON.stringify(ANSWER));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => void (seen.length = 0));

const bindings: Bindings = { parseMessage: () => ({ ok: true, value: null }), listMessages: () => [] };
const limits = { ...DEFAULT_LIMITS, timeoutMs: 5_000 };

async function run(steps: Step[], key = "k-123"): Promise<KitFailure | undefined> {
  const c: Case = { id: "c", title: "c", description: "c", tags: [], steps };
  const r = new CaseRun("demo", base, key, bindings, undefined, limits);
  try {
    await r.execute(c);
    return undefined;
  } catch (e) {
    if (e instanceof KitFailure) return e;
    throw e;
  } finally {
    r.closeAll();
  }
}
const get = (path: string, extra: Partial<Step> = {}): Step => ({ request: { method: "GET", path }, ...extra });
const headersOf = (s: Seen): [string, string][] => s.rawHeaders.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), s.rawHeaders[i + 1]!] as [string, string]] : []));
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("placeholders", () => {
  it("${key}, ${repeat:unit:n}, ${uuid} fresh per use, ${uuid:name} fixed per name within the case", async () => {
    expect(await run([get("/a/${key}/${repeat:ab:3}/${uuid}/${uuid}/${uuid:x}/${uuid:y}/${uuid:x}")])).toBeUndefined();
    const [, , k, rep, u1, u2, x1, y, x2] = seen[0]!.path.split("/");
    expect([k, rep]).toEqual(["k-123", "ababab"]);
    for (const u of [u1, u2, x1, y]) expect(u).toMatch(UUID_V4);
    expect(u1).not.toBe(u2);
    expect(x1).toBe(x2);
    expect(x1).not.toBe(y);
  });

  it("a captured variable: inside a string as text, a whole-string placeholder in a JSON body keeps its JSON type", async () => {
    const failure = await run([
      get("/first", { capture: { ID: "/id", NESTED: "/nested", NAME: "/name" } }),
      { request: { method: "POST", path: "/second/${NAME}/${ID}", body: { id: "${ID}", nested: "${NESTED}", text: "id=${ID} nested=${NESTED}", list: ["${NAME}"] } } },
    ]);
    expect(failure).toBeUndefined();
    expect(seen[1]!.path).toBe("/second/n-1/7");
    expect(JSON.parse(seen[1]!.body)).toEqual({ id: 7, nested: { ok: true }, text: 'id=7 nested={"ok":true}', list: ["n-1"] });
  });

  it("an unknown placeholder and a variable never captured fail the step, named", async () => {
    expect((await run([get("/x/${nope}")]))?.message).toBe("step 1: unknown placeholder ${nope}");
    expect((await run([get("/x/${MISSING}")]))?.message).toBe("step 1: variable MISSING was never captured");
    expect((await run([{ request: { method: "POST", path: "/x", body: { v: "${MISSING}" } } }]))?.message).toBe("step 1: variable MISSING was never captured");
    expect(seen).toEqual([]);
  });

  it("headers are expanded; a header expectation is expanded too", async () => {
    const failure = await run([
      get("/first", { capture: { NAME: "/name" } }),
      { request: { method: "GET", path: "/h", headers: [["x-who", "${NAME}:${key}"]] }, expect: { headers: { "x-answer": "${ANSWER}" } } },
    ]);
    // ${ANSWER} was never captured: the expectation, not the request, fails.
    expect(failure?.message).toBe("step 2: variable ANSWER was never captured");
    expect(headersOf(seen[1]!)).toContainEqual(["x-who", "n-1:k-123"]);
  });
});

describe("requests", () => {
  it("auth: true adds the key as a Bearer token; without a key nothing is added", async () => {
    await run([{ request: { method: "GET", path: "/a", auth: true } }]);
    await run([{ request: { method: "GET", path: "/b", auth: true } }], "");
    await run([{ request: { method: "GET", path: "/c" } }]);
    expect(headersOf(seen[0]!).filter(([n]) => n === "authorization")).toEqual([["authorization", "Bearer k-123"]]);
    expect(headersOf(seen[1]!).filter(([n]) => n === "authorization")).toEqual([]);
    expect(headersOf(seen[2]!).filter(([n]) => n === "authorization")).toEqual([]);
  });

  it("a body is sent as JSON with content-type application/json, unless the case names a content type", async () => {
    await run([{ request: { method: "POST", path: "/j", body: { a: [1, "b"] } } }]);
    await run([{ request: { method: "POST", path: "/t", headers: [["Content-Type", "text/plain"]], bodyText: "raw ${key}" } }]);
    await run([{ request: { method: "GET", path: "/none" } }]);
    expect(seen[0]!.body).toBe('{"a":[1,"b"]}');
    expect(headersOf(seen[0]!).filter(([n]) => n === "content-type")).toEqual([["content-type", "application/json"]]);
    expect(seen[1]!.body).toBe("raw k-123");
    expect(headersOf(seen[1]!).filter(([n]) => n === "content-type")).toEqual([["content-type", "text/plain"]]);
    expect(seen[2]!.body).toBe("");
    expect(headersOf(seen[2]!).filter(([n]) => n === "content-type")).toEqual([]);
  });

  it("bodyGen builds the body from its template", async () => {
    await run([{ request: { method: "POST", path: "/g", bodyGen: { template: { pad: "", who: "${key}" }, pointer: "/pad", unit: "xy", repeat: 3 } } }]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ pad: "xyxyxy", who: "k-123" });
    expect(headersOf(seen[0]!).filter(([n]) => n === "content-type")).toEqual([["content-type", "application/json"]]);
  });
});

describe("steps and their failures", () => {
  it("a failure names the step by number and note", async () => {
    const failure = await run([get("/ok"), get("/bad", { note: "the second", expect: { status: 404 } })]);
    expect([failure?.code, failure?.message]).toEqual(["expectation-failed", "step 2 (the second): status 200, expected 404"]);
  });

  it("capture needs a JSON body; a pointer it does not find fails", async () => {
    expect((await run([get("/text", { capture: { A: "/a" } })]))?.message).toBe("step 1: capture needs a JSON body");
    expect((await run([get("/json", { capture: { A: "/absent" } })]))?.message).toBe("step 1: capture A: /absent not found");
  });

  it("continue on a stream never opened fails; close of one is a no-op; a wait step returns", async () => {
    expect((await run([{ continue: "s" }]))?.message).toBe("step 1: stream s is not open");
    expect(await run([{ close: "s" }, { wait: 1 }, get("/after")])).toBeUndefined();
    expect(seen.map((s) => s.path)).toEqual(["/after"]);
  });

  it("an expected stream from a protocol without x-sse framing fails, named", async () => {
    const failure = await run([{ request: { method: "GET", path: "/s", read: "until-interaction", stream: "s" } }]);
    expect(failure?.message).toBe("step 1: demo has no x-sse framing");
  });

  it("when: the expectation applies only at the listed statuses", async () => {
    expect(await run([get("/w", { expect: { when: [404], body: { text: "never" }, headers: { "x-answer": "no" } } })])).toBeUndefined();
    expect((await run([get("/w", { expect: { when: [200], headers: { "x-answer": "no" } } })]))?.message).toMatch(/^step 1: header x-answer: /);
  });

  it("abort ends the case: the running wait returns and the case fails with the abort's reason", async () => {
    const c: Case = { id: "c", title: "c", description: "c", tags: [], steps: [{ wait: 60_000 }, get("/never")] };
    const r = new CaseRun("demo", base, "k", bindings, undefined, limits);
    const done = r.execute(c).then(() => undefined, (e: KitFailure) => e);
    r.abort(new KitFailure("deadline-exceeded", "the case took longer than 5 ms"));
    const failure = await done;
    expect([failure?.code, failure?.message]).toEqual(["deadline-exceeded", "step 1: the case took longer than 5 ms"]);
    expect(seen).toEqual([]);
  });
});

// The workflow-stream framing as x-sse states it (spec/agent-service/protocol.yaml): blocks end in
// "\n\n", classified by their first line; each payload is the JSON after the line's prefix.
const SSE: SseSpec = {
  blockTerminator: "\n\n",
  lineSeparator: "\n",
  frames: new Map<FrameKind, { prefix?: string; exact?: string; payload?: string }[]>([
    ["step", [{ prefix: "intermediate_data: ", payload: "IntermediateStep" }]],
    ["answer", [{ prefix: "data: ", payload: "AnswerChunk" }]],
    ["interaction", [{ exact: "event: interaction_required" }, { prefix: "data: ", payload: "InteractionRequired" }]],
  ]),
  classification: [
    { firstLineStartsWith: "intermediate_data: ", kind: "step" },
    { firstLineEquals: "event: interaction_required", kind: "interaction" },
    { firstLineStartsWith: "data: ", kind: "answer" },
  ],
};
const jsonBindings: Bindings = { parseMessage: (_p, _n, input) => ({ ok: true, value: JSON.parse(String(input)) }), listMessages: () => [] };
const STEP = (type: string): string => `intermediate_data: ${JSON.stringify({ type })}\n\n`;
const INTERACTION = `event: interaction_required\ndata: ${JSON.stringify({ execution_id: "e-1" })}\n\n`;
const EVENTS = { "content-type": "text/event-stream" };
const later = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** "closed" once the kit closed the scripted answer's connection, "open" if it has not after `ms`. */
const connection = (path: string, ms: number): Promise<string> => Promise.race([closed.get(path)!.then(() => "closed"), later(ms).then(() => "open")]);

interface Options {
  sse?: SseSpec;
  bindings?: Bindings;
  limits?: Partial<typeof limits>;
  base?: URL;
}
/** Runs a case without closing what it left open: the caller looks, then calls closeAll. */
async function start(steps: Step[], o: Options = {}): Promise<{ failure: KitFailure | undefined; r: CaseRun }> {
  const c: Case = { id: "c", title: "c", description: "c", tags: [], steps };
  const r = new CaseRun("demo", o.base ?? base, "k-123", o.bindings ?? jsonBindings, o.sse ?? SSE, { ...limits, ...o.limits });
  try {
    await r.execute(c);
    return { failure: undefined, r };
  } catch (e) {
    if (e instanceof KitFailure) return { failure: e, r };
    throw e;
  }
}
async function runSse(steps: Step[], o: Options = {}): Promise<KitFailure | undefined> {
  const { failure, r } = await start(steps, o);
  r.closeAll();
  return failure;
}
const keep = (path: string, extra: Partial<Step> = {}): Step => ({ request: { method: "GET", path, read: "until-interaction", stream: "s" }, ...extra });

describe("streams", () => {
  beforeEach(() => {
    scripts.clear();
    closed.clear();
    // A step frame and an interaction frame in one chunk, then the stream stays open.
    scripts.set("/held", (res) => res.writeHead(200, EVENTS).write(STEP("A") + INTERACTION));
    // The same, then (150 ms later, so in another chunk) one more step frame and the end.
    scripts.set("/two-part", (res) => {
      res.writeHead(200, { ...EVENTS, "x-answer": "yes" }).write(STEP("A") + INTERACTION);
      setTimeout(() => res.end(STEP("B")), 150);
    });
    scripts.set("/steps-only", (res) => res.writeHead(200, EVENTS).end(STEP("A")));
  });

  it("read: until-interaction stops at the interaction frame of a chunk and keeps the stream open until close", async () => {
    const { failure, r } = await start([keep("/held", { capture: { E: "/execution_id" } }), get("/after/${E}")]);
    expect(failure).toBeUndefined();
    expect(seen.map((s) => s.path)).toEqual(["/held", "/after/e-1"]);
    // Kept open past the case's steps: only closeAll (the case's end) closes it.
    expect(await connection("/held", 100)).toBe("open");
    r.closeAll();
    // Well inside the 5 s idle timeout, so only closeAll can have closed it.
    expect(await connection("/held", 1_000)).toBe("closed");
  });

  it("close: drops the stream at once, before the case ends", async () => {
    const { failure, r } = await start([keep("/held"), { close: "s" }, { continue: "s" }]);
    expect(failure?.message).toBe("step 3: stream s is not open");
    expect(await connection("/held", 1_000)).toBe("closed");
    r.closeAll();
  });

  it("a step that fails on its status closes its socket at once, not at the case's end", async () => {
    scripts.set("/stall", (res) => res.writeHead(200, { "content-type": "application/json" }).write("{"));
    const { failure, r } = await start([get("/stall", { expect: { status: 201 } })]);
    expect(failure?.message).toBe("step 1: status 200, expected 201");
    expect(await connection("/stall", 1_000)).toBe("closed");
    r.closeAll();
  });

  it("continue: reads the rest of a kept stream to its end, where there is no interaction frame", async () => {
    const failure = await runSse([keep("/two-part"), { continue: "s", expect: { sse: { stepTypes: ["B"], ended: true } } }]);
    expect(failure).toBeUndefined();
  });

  it("a stream name without read: until-interaction keeps nothing open", async () => {
    // The schema: `stream` names the stream kept open by read: until-interaction.
    const failure = await runSse([{ request: { method: "GET", path: "/steps-only", stream: "s" }, expect: { sse: { ended: true } } }, { continue: "s" }]);
    expect(failure?.message).toBe("step 2: stream s is not open");
  });

  it("a kept stream that ends without an interaction frame fails, unless the case expects it to end", async () => {
    expect((await runSse([keep("/steps-only")]))?.message).toBe("step 1: the stream ended without an interaction_required frame");
    expect((await runSse([keep("/steps-only", { expect: { status: 200 } })]))?.message).toBe("step 1: the stream ended without an interaction_required frame");
    expect(await runSse([keep("/steps-only", { expect: { sse: { ended: true, stepTypes: ["A"] } } })])).toBeUndefined();
    expect((await runSse([keep("/steps-only", { expect: { sse: { ended: true } }, capture: { E: "/execution_id" } })]))?.message).toBe(
      "step 1: nothing to capture from (no interaction frame or JSON body)",
    );
  });

  it("an event stream is known by a content type that starts with text/event-stream (parameters allowed)", async () => {
    scripts.set("/charset", (res) => res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" }).write(INTERACTION));
    expect(await runSse([keep("/charset", { capture: { E: "/execution_id" } }), get("/${E}")])).toBeUndefined();
    expect(seen[1]!.path).toBe("/e-1");
  });

  it("read: until-interaction on an answer that is not an event stream fails, naming what came", async () => {
    scripts.set("/bare", (res) => res.writeHead(200).end("x"));
    expect((await runSse([keep("/json")]))?.message).toBe("step 1: expected a text/event-stream answer, got 200 application/json");
    expect((await runSse([keep("/bare")]))?.message).toBe("step 1: expected a text/event-stream answer, got 200 (no content-type)");
  });

  it("sse expectations that apply fail on an answer that is not an event stream; under when, another status reads the body", async () => {
    // SseExpect is "checks on the frames read by this step": a JSON answer has no frames to pass them.
    const frames = { sse: { stepTypes: ["A"] } };
    expect((await runSse([get("/json", { expect: frames })]))?.message).toBe("step 1: expected a text/event-stream answer, got 200 application/json");
    expect((await runSse([get("/json", { expect: { ...frames, when: [200] } })]))?.message).toBe("step 1: expected a text/event-stream answer, got 200 application/json");
    expect(await runSse([get("/json", { expect: { ...frames, when: [401] } })])).toBeUndefined();
    expect(await runSse([get("/steps-only", { expect: { sse: { stepTypes: ["A"], ended: true } } })])).toBeUndefined();
  });

  it("when: on a stream, headers and sse expectations apply only at the listed statuses", async () => {
    const wrong = { headers: { "x-answer": "no" }, sse: { stepTypes: ["nope"] } };
    expect(await runSse([keep("/two-part", { expect: { when: [404], ...wrong } })])).toBeUndefined();
    expect((await runSse([keep("/two-part", { expect: { when: [200], headers: { "x-answer": "no" } } })]))?.message).toMatch(/^step 1: header x-answer: /);
    expect((await runSse([keep("/two-part", { expect: { when: [200], sse: { stepTypes: ["nope"] } } })]))?.message).toBe('step 1: step types ["A"], expected ["nope"]');
  });

  it("the first frame problem fails the step at once, the stream still open; the binding's first error is named", async () => {
    scripts.set("/one-step", (res) => res.writeHead(200, EVENTS).write(STEP("A")));
    const refusing = (errors: { instancePath: string; message?: string; keyword: string }[]): Bindings => ({ parseMessage: () => ({ ok: false, errors }), listMessages: () => [] });
    // What the kit says of a payload the binding refuses: the first error's pointer ("/" for the
    // root), keyword and message; "invalid" when the binding gives no error. The stream stays open,
    // so a kit that read on would fail with idle-timeout instead.
    const table: [Parameters<typeof refusing>[0], string][] = [
      [[{ instancePath: "/type", keyword: "enum", message: "must be equal to one of the allowed values" }, { instancePath: "/x", keyword: "type", message: "second" }], "/type enum must be equal to one of the allowed values"],
      [[{ instancePath: "", keyword: "required", message: "must have required property 'type'" }], "/ required must have required property 'type'"],
      [[{ instancePath: "/type", keyword: "enum" }], "/type enum"],
      [[], "invalid"],
    ];
    for (const [errors, said] of table) {
      const failure = await runSse([{ request: { method: "GET", path: "/one-step" }, expect: { sse: { ended: true } } }], { bindings: refusing(errors), limits: { timeoutMs: 3_000 } });
      expect([failure?.code, failure?.message]).toEqual(["expectation-failed", `step 1: a step frame is not a valid IntermediateStep: ${said} in ${JSON.stringify('{"type":"A"}')}`]);
    }
  });

  it("an exception inside the kit (here the binding's) is an internal-error naming the step", async () => {
    const throwing: Bindings = {
      parseMessage: () => {
        throw new Error("the binding broke");
      },
      listMessages: () => [],
    };
    const failure = await runSse([keep("/held", { note: "open" })], { bindings: throwing });
    expect([failure?.code, failure?.message]).toEqual(["internal-error", "step 1 (open): the binding broke"]);
  });

  it("the stream must be UTF-8; a character split across chunks is still one character", async () => {
    scripts.set("/latin1", (res) => res.writeHead(200, EVENTS).end(Buffer.from([...Buffer.from('data: {"value":"'), 0xe9, ...Buffer.from('"}\n\n')])));
    scripts.set("/split", (res) => {
      const e = Buffer.from("é", "utf8");
      res.writeHead(200, EVENTS).write(Buffer.concat([Buffer.from('data: {"value":"'), e.subarray(0, 1)]));
      setTimeout(() => res.end(Buffer.concat([e.subarray(1), Buffer.from('"}\n\n')])), 150);
    });
    const sse = { expect: { sse: { ended: true, answer: "é" } } };
    expect((await runSse([{ request: { method: "GET", path: "/latin1" }, ...sse }]))?.message).toBe("step 1: the stream is not UTF-8");
    expect(await runSse([{ request: { method: "GET", path: "/split" }, ...sse }])).toBeUndefined();
  });

  it("a stream that ends inside a block fails, the block quoted (its first 120 characters); a trailing blank line is no block", async () => {
    const tail = `data: ${"x".repeat(200)}`;
    scripts.set("/unterminated", (res) => res.writeHead(200, EVENTS).end(STEP("A") + tail));
    scripts.set("/blank-tail", (res) => res.writeHead(200, EVENTS).end(`${STEP("A")}\n`));
    const read = (path: string): Step => ({ request: { method: "GET", path }, expect: { sse: { ended: true } } });
    expect((await runSse([read("/unterminated")]))?.message).toBe(`step 1: the stream ended inside an unterminated block: "data: ${"x".repeat(114)}"`);
    expect(await runSse([read("/blank-tail")])).toBeUndefined();
  });

  it("an SSE block larger than the event cap fails with sse-event-too-large, naming the cap", async () => {
    scripts.set("/big-event", (res) => res.writeHead(200, EVENTS).end(`data: ${JSON.stringify({ value: "x".repeat(200) })}\n\n`));
    const failure = await runSse([{ request: { method: "GET", path: "/big-event" }, expect: { sse: { ended: true } } }], { limits: { maxEventBytes: 64 } });
    expect([failure?.code, failure?.message]).toEqual(["sse-event-too-large", "step 1: an SSE event is larger than 64 bytes"]);
  });

  it("a silent body or stream fails with idle-timeout, saying which read it was", async () => {
    scripts.set("/stall", (res) => res.writeHead(200, { "content-type": "application/json" }).write("{"));
    scripts.set("/stall-stream", (res) => res.writeHead(200, EVENTS).write(STEP("A")));
    const body = await runSse([get("/stall")], { limits: { timeoutMs: 200 } });
    expect([body?.code, body?.message]).toEqual(["idle-timeout", expect.stringMatching(/^step 1: reading the body: /)]);
    const stream = await runSse([{ request: { method: "GET", path: "/stall-stream" }, expect: { sse: { ended: true } } }], { limits: { timeoutMs: 200 } });
    expect([stream?.code, stream?.message]).toEqual(["idle-timeout", expect.stringMatching(/^step 1: reading the stream: /)]);
  });

  it("no answer at all (connection refused) is a connection-error, said to be before any response", async () => {
    const gone = http.createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((r) => gone.close(() => r()));
    const failure = await runSse([get("/x")], { base: new URL(`http://127.0.0.1:${port}`) });
    expect([failure?.code, failure?.message]).toEqual(["connection-error", expect.stringMatching(/^step 1: no response: .*ECONNREFUSED/)]);
  });
});

describe("what a case holds (CaseStats)", () => {
  beforeEach(() => {
    scripts.clear();
    closed.clear();
  });

  it("bodyBytesMax is the largest body of one request; sseRetainedBytesMax the largest unterminated block between chunks", async () => {
    scripts.set("/thousand", (res) => res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(1000)));
    const first = 'intermediate_data: {"type":"A"'; // 30 bytes, held until the rest of its block comes
    scripts.set("/trickle", (res) => {
      res.writeHead(200, EVENTS).write(first);
      setTimeout(() => res.end("}\n\n"), 150);
    });
    const { failure, r } = await start([get("/thousand"), get("/first"), { request: { method: "GET", path: "/trickle" }, expect: { sse: { stepTypes: ["A"] } } }]);
    r.closeAll();
    expect(failure).toBeUndefined();
    expect(r.stats).toEqual({ bodyBytesMax: 1000, sseRetainedBytesMax: 30 });
  });

  it("a body past the case's body.maxBytes is not read on to the end", async () => {
    const mib = 1024 * 1024;
    scripts.set("/mib", (res) => res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(mib)));
    const { failure, r } = await start([get("/mib", { expect: { body: { maxBytes: 10 } } })]);
    r.closeAll();
    expect([failure?.code, failure?.message]).toEqual(["body-too-large", "step 1: body is larger than 10 bytes"]);
    // The read stops at the first chunk past 10 bytes (a socket read is at most 64 KiB).
    expect(r.stats.bodyBytesMax).toBeLessThan(mib / 4);
  });
});

describe("abort, placeholders and bodies (edges)", () => {
  it("abort before the first step: no request is sent and the case fails with the abort's reason", async () => {
    const r = new CaseRun("demo", base, "k", bindings, undefined, limits);
    r.abort(new KitFailure("deadline-exceeded", "the case took longer than 5 ms"));
    const failure = await r.execute({ id: "c", title: "c", description: "c", tags: [], steps: [get("/never")] }).then(() => undefined, (e: KitFailure) => e);
    r.closeAll();
    expect([failure?.code, failure?.message]).toEqual(["deadline-exceeded", "step 1: the case took longer than 5 ms"]);
    expect(seen).toEqual([]);
  });

  it("a placeholder is recognised only whole: near misses are unknown; a repeat count takes every digit", async () => {
    for (const p of ["xrepeat:ab:2", "repeat:ab:3x", "aB", "Ab"]) expect((await run([get(`/x/\${${p}}`)]))?.message).toBe(`step 1: unknown placeholder \${${p}}`);
    expect(seen).toEqual([]);
    expect(await run([get("/r/${repeat:a:12}")])).toBeUndefined();
    expect(seen[0]!.path).toBe(`/r/${"a".repeat(12)}`);
  });

  it("a whole-string placeholder in a header or bodyText sends the captured value's JSON text", async () => {
    const failure = await run([
      get("/first", { capture: { ID: "/id", NESTED: "/nested" } }),
      { request: { method: "POST", path: "/t", headers: [["x-id", "${ID}"], ["content-type", "text/plain"]], bodyText: "${NESTED}" } },
    ]);
    expect(failure).toBeUndefined();
    expect(seen[1]!.body).toBe('{"ok":true}');
    expect(headersOf(seen[1]!)).toContainEqual(["x-id", "7"]);
  });

  it("a body with null values is sent as written; a body beside other headers still gets application/json", async () => {
    await run([{ request: { method: "POST", path: "/n", headers: [["x-who", "me"]], body: { a: null, b: [null, 1], c: "${key}" } } }]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ a: null, b: [null, 1], c: "k-123" });
    expect(headersOf(seen[0]!).filter(([n]) => n === "content-type")).toEqual([["content-type", "application/json"]]);
  });

  it("a request without headers sends none beyond HTTP's own", async () => {
    await run([get("/plain")]);
    expect(headersOf(seen[0]!).map(([n]) => n).filter((n) => n !== "host" && n !== "connection")).toEqual([]);
  });
});
