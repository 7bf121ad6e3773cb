// Runs role: client cases: for each case a scripted endpoint on 127.0.0.1 (port 0) answers once,
// a second local server stands for any other host (it must never be contacted), the client under
// test is called with the declared origin resolved to the scripted endpoint, and its outcome and
// the request the endpoint received are checked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpJsonClient } from "./http-json-client.js";
import { generateBody } from "./body-gen.js";
import { checkField } from "./checks.js";
import { DEFAULT_LIMITS, KitFailure } from "./failures.js";
import type { Bindings, RunSummary } from "./runner.js";
import type { CaseResult, ClientCase, Json, LoadedSuite } from "./types.js";

interface Received {
  method: string;
  headers: Record<string, string>;
  body: Buffer;
}

async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function runClientCases(
  suite: LoadedSuite,
  client: HttpJsonClient,
  options: { bindings: Bindings; tags?: string[]; onResult?: (r: CaseResult) => void; deadlineMs?: number; maxBodyBytes?: number },
): Promise<RunSummary> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const results: CaseResult[] = [];
  for (const c of suite.clientCases.filter((x) => !options.tags || x.tags.some((t) => options.tags!.includes(t)))) {
    const started = Date.now();
    let detail: string | undefined;
    let code: CaseResult["code"] = "expectation-failed";
    try {
      detail = await runOne(suite.protocol, c, client, options.bindings, { deadlineMs, maxBodyBytes });
    } catch (error) {
      code = error instanceof KitFailure ? error.code : "internal-error";
      detail = error instanceof KitFailure ? error.message : `error: ${(error as Error).message}`;
    }
    const r: CaseResult = { id: c.id, title: c.title, group: c.group, tags: c.tags, status: detail ? "fail" : "pass", ...(detail ? { code, detail } : {}), ms: Date.now() - started };
    results.push(r);
    options.onResult?.(r);
  }
  return { results, passed: results.filter((r) => r.status === "pass").length, failed: results.filter((r) => r.status === "fail").length, skipped: 0 };
}

async function runOne(protocol: string, c: ClientCase, client: HttpJsonClient, bindings: Bindings, limits: { deadlineMs: number; maxBodyBytes: number }): Promise<string | undefined> {
  const { deadlineMs, maxBodyBytes } = limits;
  let otherHits = 0;
  const other = await serve((req, res) => {
    otherHits++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"text":"from the other host"}');
  });
  const received: Received[] = [];
  const endpoint = await serve((req, res) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (d: Buffer) => {
      size += d.length;
      // A client sending an endless body is cut off, not buffered.
      if (size > maxBodyBytes) req.destroy();
      else parts.push(d);
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)])), body: Buffer.concat(parts) });
      const s = c.serve;
      let body: Buffer | undefined;
      if (s.body !== undefined) body = Buffer.from(JSON.stringify(s.body), "utf8");
      else if (s.bodyText !== undefined) body = Buffer.from(s.bodyText, "utf8");
      else if (s.bodyGen) body = generateBody(s.bodyGen.template, s.bodyGen);
      const headers: Record<string, string> = {};
      for (const [k, v] of s.headers ?? []) headers[k.toLowerCase()] = v.replace("${other}", other.url);
      if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
      if (body !== undefined && s.status !== 204 && s.status !== 304) headers["content-length"] = String(body.length);
      res.writeHead(s.status, headers);
      res.end(s.status === 204 || s.status === 304 ? undefined : body);
    });
  });
  try {
    let timer: NodeJS.Timeout | undefined;
    // A client under test that never returns must not hang the run: the case ends at the deadline
    // and the finally below closes both endpoints.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KitFailure("deadline-exceeded", `the client did not finish within ${deadlineMs} ms`)), deadlineMs);
    });
    const call = client({ ...c.call, resolve: () => endpoint.url, timeoutMs: 10_000 });
    call.catch(() => undefined);
    const outcome = await Promise.race([call, deadline]).finally(() => clearTimeout(timer));
    const e = c.expect;
    if (outcome.outcome !== e.outcome) return `outcome ${outcome.outcome}${"reason" in outcome ? ` (${outcome.reason})` : ""}, expected ${e.outcome}`;
    if (e.code !== undefined && "code" in outcome && outcome.code !== e.code) return `code ${outcome.code} (${outcome.reason}), expected ${e.code}`;
    if (e.retryable !== undefined && outcome.outcome === "failed" && outcome.retryable !== e.retryable) return `retryable ${outcome.retryable}, expected ${e.retryable}`;
    if (e.text !== undefined && outcome.outcome === "completed" && outcome.text !== e.text) return `text ${JSON.stringify(outcome.text.slice(0, 80))}, expected ${JSON.stringify(e.text)}`;
    if (e.sessionRef !== undefined && outcome.outcome === "completed" && outcome.sessionRef !== e.sessionRef) return `sessionRef ${JSON.stringify(outcome.sessionRef)}, expected ${JSON.stringify(e.sessionRef)}`;
    if (e.outcome === "not-sent" && received.length > 0) return "the client contacted the endpoint";
    if (e.outcome !== "not-sent" && received.length !== 1) return `the endpoint received ${received.length} requests, expected 1`;
    if (otherHits > 0) return `the client contacted another host (${otherHits} requests)`;
    const r = e.request;
    if (r && received[0]) {
      const got = received[0];
      if (r.method !== undefined && got.method !== r.method) return `method ${got.method}, expected ${r.method}`;
      for (const [name, exp] of Object.entries(r.headers ?? {})) {
        const v = got.headers[name.toLowerCase()];
        const problem = checkField(v as Json | undefined, v !== undefined, exp);
        if (problem) return `request header ${name}: ${problem}`;
      }
      if (r.message) {
        const p = bindings.parseMessage(protocol, r.message, got.body);
        if (!p.ok) return `request body is not a valid ${r.message}: ${JSON.stringify(p.errors[0])}`;
      }
    }
    return undefined;
  } finally {
    await endpoint.close();
    await other.close();
  }
}
