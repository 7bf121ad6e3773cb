// The SDK test the docs show (docs-site/guides/mock-server.md): start `agent-contracts mock` as a
// process, point a client at the URL it prints, stop it with SIGTERM. The client here is a
// small agent-service client written against the generated bindings (@agent-contracts/bindings);
// what it must see comes from the spec (the x-sse frame kinds, the message parsers).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentService } from "../../generated/ts/index.js";

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "bin", "agent-contracts.mjs");
const dir = mkdtempSync(join(tmpdir(), "mock-sdk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
}

/** Starts the mock and resolves once it printed "ready" (or rejects with what it printed). */
function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, "mock", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const stderr: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start: ${lines.join("\n")} ${stderr.join("")}`)), 60_000);
    child.stderr!.on("data", (d: Buffer) => stderr.push(d.toString()));
    child.stdout!.on("data", (d: Buffer) => {
      lines.push(...d.toString().split("\n").filter(Boolean));
      if (lines.includes("ready")) {
        clearTimeout(timer);
        resolve({ child, lines, stderr });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited ${code}: ${stderr.join("")}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "mock", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

/** The client under test: sends one chat turn, returns the answer text and the step types it saw. */
async function ask(baseUrl: string, key: string, text: string): Promise<{ status: number; answer: string; steps: string[] }> {
  const res = await fetch(`${baseUrl}/v1/workflow/full`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "x-authenticated-user-id": "sdk-test", "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: text }] }),
  });
  if (res.status !== 200) return { status: res.status, answer: "", steps: [] };
  let answer = "";
  const steps: string[] = [];
  for (const block of (await res.text()).split("\n\n").filter(Boolean)) {
    if (block.startsWith("intermediate_data: ")) {
      const step = agentService.parseIntermediateStep(block.slice("intermediate_data: ".length));
      if (!step.ok) throw new Error(`bad step frame: ${JSON.stringify(step.errors[0])}`);
      steps.push(step.value.type);
    } else if (block.startsWith("data: ")) {
      const chunk = agentService.parseAnswerChunk(block.slice("data: ".length));
      if (!chunk.ok) throw new Error(`bad answer frame: ${JSON.stringify(chunk.errors[0])}`);
      answer += chunk.value.value;
    }
  }
  return { status: 200, answer, steps };
}

describe("an SDK test against `agent-contracts mock agent-service`", () => {
  let mock: Started;
  let base: string;
  beforeAll(async () => {
    const scenario = join(dir, "scenario.yaml");
    writeFileSync(scenario, "key: sdk-test-key\nreplies:\n  - { match: hello, chunks: ['Hello ', 'from the mock.'] }\n");
    mock = await startCli(["agent-service", "--scenario", scenario]);
    base = /^mock agent-service: base (http:\/\/127\.0\.0\.1:\d+)$/.exec(mock.lines.find((l) => l.includes(": base "))!)![1]!;
  }, 90_000);
  afterAll(async () => {
    if (mock) expect(await stop(mock.child)).toBe(0);
  });

  it("the client reads the scripted answer and the workflow steps of the stream", async () => {
    const r = await ask(base, "sdk-test-key", "hello there");
    expect(r).toEqual({ status: 200, answer: "Hello from the mock.", steps: ["WORKFLOW_START", "FUNCTION_START", "FUNCTION_END", "FUNCTION_END", "WORKFLOW_END"] });
  });

  it("the client sees the contract's 401 for a wrong key", async () => {
    expect((await ask(base, "not-the-key", "hello")).status).toBe(401);
  });
});

describe("mock command line", () => {
  it("--help names the scenario format; usage errors exit 2; a bad scenario exits 1 at file:line:col", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("--scenario FILE");
    expect(await runCli([])).toMatchObject({ code: 2 });
    expect((await runCli(["agent-service", "--port", "70000"])).err).toContain("--port must be an integer from 0 to 65535");
    const unknown = await runCli(["no-such-protocol"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no protocol no-such-protocol; known: .*agent-service/);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    const busy = await runCli(["agent-service", "--port", String(port)]);
    taken.close();
    expect(busy.code).toBe(2);
    expect(busy.err).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "faults:\n  - match: { path: /version }\n    drop: { afterWrites: -1 }\n");
    const refused = await runCli(["agent-service", "--scenario", bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/bad\.yaml:3:\d+ \/faults\/0\/drop\/afterWrites must be >= 0/);
  }, 120_000);
});
