// The conformance kit against hostile servers (all on 127.0.0.1, port 0): every run must finish by
// itself (the vitest timeout is the guard, nothing is timed), report the typed failure code, keep
// what it buffered under the configured cap (the kit's own counters), close the connection (the
// server sees its socket closed) and never print a credential the server echoes back.
import net from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generators/cli/main.js";
import { runClientCases } from "../../generators/conformance/client-runner.js";
import { loadSuite } from "../../generators/conformance/load.js";
import { formatResult, loadBindings, redact, runSuite, type Bindings, type RunOptions } from "../../generators/conformance/runner.js";
import { SseReader, type SseSpec } from "../../generators/conformance/sse.js";
import type { Case, CaseResult, LoadedSuite, Step } from "../../generators/conformance/types.js";
import { echoCredentials, endlessBody, endlessDone, endlessSseComments, trickle, unterminatedBlock, wrongStatusEndlessBody, type Hostile } from "./hostile-servers.js";

const ROOT = join(import.meta.dirname, "..", "..");
let bindings: Bindings;
let base: LoadedSuite;

beforeAll(async () => {
  bindings = await loadBindings(ROOT);
  const r = loadSuite(ROOT, "agent-service", (x) => bindings.listMessages().filter((m) => m.protocol === x).map((m) => m.name));
  if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
  base = r.suite;
});

function suiteOf(...steps: Step[]): LoadedSuite {
  const c: Case & { group: string; file: string } = { id: "hostile", title: "hostile", description: "d", tags: ["auth"], steps, group: "hostile", file: "hostile.yaml" };
  return { ...base, cases: [c], clientCases: [] };
}

const jsonStep: Step = { request: { method: "GET", path: "/v1/x" }, expect: { status: 200, body: { json: true } } };
const streamStep: Step = { request: { method: "POST", path: "/v1/workflow/full", body: { messages: [] } }, expect: { status: 200, sse: { ended: true } } };

async function against(server: Hostile, steps: Step[], options: Partial<RunOptions>, connects = true): Promise<CaseResult> {
  try {
    const s = await runSuite(suiteOf(...steps), { root: ROOT, url: server.url, bindings, timeoutMs: 10_000, ...options });
    expect(s.results).toHaveLength(1);
    // The kit closed the connection: the server saw its socket close (no timeout here: vitest's is the guard).
    if (connects) await server.closed;
    else expect(server.written()).toBe(0);
    return s.results[0]!;
  } finally {
    await server.close();
  }
}

describe("the kit against hostile servers", { timeout: 30_000 }, () => {
  it("a wrong status then an endless body: fails on the status and closes at once", async () => {
    const r = await against(await wrongStatusEndlessBody(), [jsonStep], { maxBodyBytes: 1 << 20 });
    expect(r.status).toBe("fail");
    expect(r.code).toBe("expectation-failed");
    expect(r.detail).toMatch(/status 500, expected 200/);
    expect(r.stats!.bodyBytesMax).toBeLessThanOrEqual(1 << 20);
  });

  it("the right status then an endless body: body-too-large at the cap", async () => {
    const cap = 256 * 1024;
    const r = await against(await endlessBody(), [jsonStep], { maxBodyBytes: cap });
    expect(r.code).toBe("body-too-large");
    expect(r.stats!.bodyBytesMax).toBeLessThanOrEqual(cap);
    expect(r.stats!.bodyBytesMax).toBeGreaterThan(0);
  });

  it("an endless stream of SSE comments: body-too-large at the cap", async () => {
    const cap = 256 * 1024;
    const r = await against(await endlessSseComments(), [streamStep], { maxBodyBytes: cap });
    expect(r.code).toBe("body-too-large");
    expect(r.stats!.bodyBytesMax).toBeLessThanOrEqual(cap);
  });

  it("an endless stream of [DONE] frames, each gap under the idle timeout: deadline-exceeded", async () => {
    const cap = 64 << 20;
    const r = await against(await endlessDone(), [streamStep], { deadlineMs: 1000, maxBodyBytes: cap });
    expect(r.code).toBe("deadline-exceeded");
    expect(r.stats!.bodyBytesMax).toBeLessThanOrEqual(cap);
  });

  it("a body trickled at one byte per 500 ms: deadline-exceeded, not a hang", async () => {
    const r = await against(await trickle(), [streamStep], { deadlineMs: 1200, timeoutMs: 30_000 });
    expect(r.code).toBe("deadline-exceeded");
  });

  it("a deadline also ends a wait step, and no later step starts", async () => {
    const r = await against(await trickle(), [{ wait: 60_000 }, streamStep], { deadlineMs: 300 }, false);
    expect(r.code).toBe("deadline-exceeded");
  });

  it("an SSE block that never ends: sse-event-too-large, the reader never holds more than the cap", async () => {
    const eventCap = 64 * 1024;
    const r = await against(await unterminatedBlock(), [streamStep], { maxEventBytes: eventCap, maxBodyBytes: 64 << 20 });
    expect(r.code).toBe("sse-event-too-large");
    expect(r.stats!.sseRetainedBytesMax).toBeLessThanOrEqual(eventCap);
    expect(r.stats!.sseRetainedBytesMax).toBeGreaterThan(0);
    expect(r.stats!.bodyBytesMax).toBeLessThan(64 << 20);
  });

  it("a server that accepts the connection and never answers: idle-timeout", async () => {
    const sockets = new Set<net.Socket>();
    let markClosed!: () => void;
    const closed = new Promise<void>((r) => (markClosed = r));
    const server = net.createServer((s) => {
      sockets.add(s);
      s.on("close", () => markClosed());
      s.resume();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const s = await runSuite(suiteOf(jsonStep), { root: ROOT, url, bindings, timeoutMs: 200 });
      expect(s.results[0]!.code).toBe("idle-timeout");
      await closed;
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it("a refused connection: connection-error", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((r) => server.close(r));
    const s = await runSuite(suiteOf(jsonStep), { root: ROOT, url: `http://127.0.0.1:${port}`, bindings, timeoutMs: 5000 });
    expect(s.results[0]!.code).toBe("connection-error");
  });

  it("failure lines never carry the credential a server echoes back", async () => {
    const key = "sk-live-0123456789abcdef-key-file";
    const steps: Step[] = [
      { request: { method: "GET", path: "/v1/x", auth: true, headers: [["cookie", "session=s3cr3t-cookie-value"]] }, expect: { status: 401, body: { equals: { nothing: true } } } },
    ];
    const lines: string[] = [];
    for (const expectation of [
      steps,
      [{ ...steps[0]!, expect: { status: 401, headers: { "x-echo": "something else" } } }],
      [{ ...steps[0]!, expect: { status: 401, headers: { "set-cookie": "something else" } } }],
      [{ ...steps[0]!, expect: { status: 401, body: { notContains: ["session="] } } }],
    ] as Step[][]) {
      const server = await echoCredentials();
      try {
        const s = await runSuite(suiteOf(...expectation), { root: ROOT, url: server.url, bindings, key, timeoutMs: 5000 });
        lines.push(formatResult(s.results[0]!));
        expect(s.results[0]!.status).toBe("fail");
      } finally {
        await server.close();
      }
    }
    const out = lines.join("\n");
    expect(out).not.toContain(key);
    expect(out).not.toContain(key.slice(0, 12));
    expect(out).not.toContain("s3cr3t");
    expect(out).toContain("[redacted]");
  });

  it("redaction covers header lines, JSON-escaped bodies and key prefixes cut by truncation", () => {
    const key = "k3y-from-the-key-file";
    const cases: [string, string][] = [
      ["Authorization: Bearer abc.def", "Authorization: [redacted]"],
      ["cookie: a=b; c=d", "cookie: [redacted]"],
      [JSON.stringify(JSON.stringify({ authorization: "Basic dXNlcjpwYXNz" })), '"{\\"authorization\\":\\"[redacted]\\"}"'],
      [`token ${key.slice(0, 10)}`, "token [redacted]"],
      [`x=${key}`, "x=[redacted]"],
    ];
    for (const [input, want] of cases) expect(redact(input, [key])).toBe(want);
  });

  it("a client under test that never returns: deadline-exceeded, its endpoints closed", async () => {
    const r = loadSuite(ROOT, "agent-connector", (x) => bindings.listMessages().filter((m) => m.protocol === x).map((m) => m.name));
    if (!r.ok) throw new Error("agent-connector suite");
    const one = { ...r.suite, clientCases: r.suite.clientCases.slice(0, 2) };
    const s = await runClientCases(one, () => new Promise(() => undefined), { bindings, deadlineMs: 200 });
    expect(s.results.map((x) => x.code)).toEqual(["deadline-exceeded", "deadline-exceeded"]);
  });

  it("the CLI states the deadline and the caps with their defaults, and refuses a bad value", async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), root: ROOT, readStdin: async () => Buffer.alloc(0) };
    expect(await main(["conformance", "--help"], io)).toBe(0);
    const help = out.join("\n");
    expect(help).toMatch(/--deadline MS .*default 60000/);
    expect(help).toMatch(/--max-body-bytes N .*default 8388608/);
    expect(help).toMatch(/--max-event-bytes N .*default 4194304/);
    for (const flag of ["--deadline", "--max-body-bytes", "--max-event-bytes"]) {
      expect(await main(["conformance", "agent-service", "--url", "http://127.0.0.1:9/", flag, "0"], io)).toBe(2);
    }
  });
});

describe("the SSE reader's bound", () => {
  const spec = (blockTerminator: string): SseSpec => ({
    blockTerminator,
    lineSeparator: "\n",
    frames: new Map([["step", [{ prefix: "data: ", payload: "M" }]]]),
    classification: [{ firstLineStartsWith: "data: ", kind: "step" }],
  });
  const parse = (_: string, text: string): { ok: true; value: unknown } => ({ ok: true, value: text });

  it("gives the same frames and tail wherever the chunks split", () => {
    const body = "data: a\n\n: c\n\ndata: bb\n\ndata: ccc\n\n\n\ndata: d";
    for (let i = 0; i <= body.length; i++) {
      for (let j = i; j <= body.length; j++) {
        const r = new SseReader(spec("\n\n"), parse);
        for (const piece of [body.slice(0, i), body.slice(i, j), body.slice(j)]) r.push(piece);
        expect(r.frames.map((f) => f.payload)).toEqual(["a", "bb", "ccc"]);
        expect(r.rest).toBe("data: d");
      }
    }
    const crlf = new SseReader(spec("\r\n\r\n"), parse);
    for (const ch of "data: a\r\n\r\ndata: b\r\n\r\n") crlf.push(ch);
    expect(crlf.frames.map((f) => f.payload)).toEqual(["a", "b"]);
  });

  it("keeps a block of exactly the cap (in UTF-8 bytes) and refuses one byte more", () => {
    const cap = 64;
    const exact = "data: " + "é".repeat((cap - 6) / 2); // 6 + 58 bytes
    const ok = new SseReader(spec("\n\n"), parse, cap);
    for (const ch of exact) ok.push(ch);
    expect(ok.tooLarge).toBe(false);
    expect(ok.peakPendingBytes).toBe(cap);
    ok.push("\n\n");
    expect(ok.frames).toHaveLength(1);
    const over = new SseReader(spec("\n\n"), parse, cap);
    for (const ch of exact + "x") over.push(ch);
    expect(over.tooLarge).toBe(true);
    expect(over.peakPendingBytes).toBe(cap);
    const oneChunk = new SseReader(spec("\n\n"), parse, cap);
    oneChunk.push(exact + "x\n\n");
    expect(oneChunk.tooLarge).toBe(true);
  });
});
