// The case runner's request side (generators/conformance/case-run.ts): placeholders, captured
// variables, auth, content types and bodies, the step kinds, and the messages that name the step.
// A loopback server records every request it gets and answers with a fixed JSON body, so each test
// checks what was sent against the case format's documented meaning (spec/meta/conformance.schema.json
// and the placeholder list in case-run.ts), not against the runner's own output.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaseRun, type Bindings } from "../../generators/conformance/case-run.js";
import { DEFAULT_LIMITS, KitFailure } from "../../generators/conformance/failures.js";
import type { Case, Step } from "../../generators/conformance/types.js";

interface Seen {
  method: string;
  path: string;
  rawHeaders: string[];
  body: string;
}
const seen: Seen[] = [];
const ANSWER = { id: 7, name: "n-1", list: [1, 2], nested: { ok: true } };
let server: http.Server;
let base: URL;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString("utf8") });
      if (req.url === "/text") res.writeHead(200, { "content-type": "text/plain" }).end("plain words");
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
