// Issue 31: hostile case files. A case path or header value with CR/LF ("/x\r\nHost: elsewhere")
// was allowed by the case schema and crashed the run after the case before it (Node refuses the
// request when it is built; the kit's head timer then fired into a request that never existed):
// no summary line. Now the schema refuses such a case file by file and pointer, and a request the
// HTTP client refuses is that case's failure (request-error) while the other cases run.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generators/cli/main.js";
import type { Io } from "../../generators/cli/io.js";
import { loadSuite } from "../../generators/conformance/load.js";
import { loadBindings, runSuite, type Bindings } from "../../generators/conformance/runner.js";
import type { Case, LoadedSuite, Step } from "../../generators/conformance/types.js";
import { connectorFixture } from "../../generators/test/fixture.js";

const ROOT = join(import.meta.dirname, "..", "..");
let bindings: Bindings;
let base: LoadedSuite;
let server: http.Server;
let url = "";
const seen: string[] = [];

beforeAll(async () => {
  bindings = await loadBindings(ROOT);
  const r = loadSuite(ROOT, "agent-service", (x) => bindings.listMessages().filter((m) => m.protocol === x).map((m) => m.name));
  if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
  base = r.suite;
  server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const step = (path: string, headers: [string, string][] = []): Step => ({ request: { method: "GET", path, headers, auth: false }, expect: { status: 200 } });
const caseOf = (id: string, s: Step): Case & { group: string; file: string } => ({ id, title: id, description: "d", tags: ["auth"], steps: [s], group: "hostile", file: "hostile.yaml" });

describe("a request the HTTP client refuses", () => {
  it("is that case's failure (request-error); the cases after it run and the summary counts every case", async () => {
    const cases = [
      caseOf("first", step("/one")),
      caseOf("second", step("/two")),
      caseOf("crlf-path", step("/x\r\nHost: elsewhere")),
      caseOf("crlf-header", step("/four", [["x-note", "a\r\nHost: elsewhere"]])),
      caseOf("last", step("/five")),
    ];
    // A head timeout shorter than the run: the timer the refused request left behind used to fire into it.
    const summary = await runSuite({ ...base, cases, clientCases: [] }, { root: ROOT, url, bindings, timeoutMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(summary.results.map((r) => [r.id, r.status, r.code])).toEqual([
      ["first", "pass", undefined],
      ["second", "pass", undefined],
      ["crlf-path", "fail", "request-error"],
      ["crlf-header", "fail", "request-error"],
      ["last", "pass", undefined],
    ]);
    expect(summary.results[2]!.detail).toMatch(/^step 1: the request cannot be sent: /);
    expect({ passed: summary.passed, failed: summary.failed }).toEqual({ passed: 3, failed: 2 });
    expect(seen.filter((u) => u.includes("elsewhere") || u === "/x")).toEqual([]);
  });
});

describe("the case schema", () => {
  it("refuses control characters in a path, a header name or value, naming file and pointer; the CLI prints no stack trace", async () => {
    const fixture = connectorFixture();
    const { cpSync } = await import("node:fs");
    cpSync(join(ROOT, "spec/agent-connector/conformance"), join(fixture.root, "spec/agent-connector/conformance"), { recursive: true });
    fixture.write(
      "spec/agent-connector/conformance/endpoint.yaml",
      fixture
        .read("spec/agent-connector/conformance/endpoint.yaml")
        .replace("path: ''", 'path: "/x\\r\\nHost: elsewhere"')
        .replace(/(request:\s*\n(\s+)method: (\w+))/, `$1\n$2headers: [["x-a b", "ok"], ["x-b", "v\\u0000"]]`),
    );
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root: fixture.root, readStdin: async () => Buffer.alloc(0) };
    const code = await main(["conformance", "agent-connector", "--url", "http://127.0.0.1:9", "--spec", fixture.root], io);
    expect(code).toBe(2);
    const lines = err.join("\n").split("\n");
    expect(lines.some((l) => /^spec\/agent-connector\/conformance\/endpoint\.yaml:\d+:\d+ \/cases\/0\/steps\/0\/request\/path pattern: /.test(l)), lines.join("\n")).toBe(true);
    expect(lines.some((l) => /request\/headers\/0\/0 pattern: /.test(l)), lines.join("\n")).toBe(true);
    expect(lines.some((l) => /request\/headers\/1\/1 pattern: /.test(l)), lines.join("\n")).toBe(true);
    expect(err.join("\n")).not.toMatch(/^\s+at /m);
  });
});
