// Issue 30: `conformance --spec <project>` validates the frames a server answers against that
// project's own schemas, for each spec project of examples/ (which ship no conformance cases and
// no spec/meta: the meta-schemas are the CLI's). A suite is written into a copy of the project:
// per message with examples, one case whose server answers the message's first example (must
// pass) and one whose server answers its first x-invalid-examples instance (must fail, naming the
// pointer and keyword the example's own `error` declares). Expectations come from the example
// specs' data, not from the kit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "../../generators/cli/main.js";
import type { Io } from "../../generators/cli/io.js";

const ROOT = join(import.meta.dirname, "..", "..");
const EXAMPLES = readdirSync(join(ROOT, "examples")).sort();

interface MessageData {
  name: string;
  valid: unknown;
  invalid: { instance: unknown; error: { instancePath: string; keyword: string } };
}

/** The example project's protocol and its messages that carry both an example and an invalid example. */
function messagesOf(project: string): { protocol: string; messages: MessageData[] } {
  const spec = join(ROOT, "examples", project, "spec");
  const protocols = readdirSync(spec).filter((d) => d !== "common" && d !== "meta" && !d.includes("."));
  expect(protocols).toHaveLength(1);
  const protocol = protocols[0]!;
  const dir = join(spec, protocol, "messages");
  const messages = readdirSync(dir)
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), "utf8")) as { title: string; examples?: unknown[]; "x-invalid-examples"?: MessageData["invalid"][] })
    .filter((m) => (m.examples?.length ?? 0) > 0 && (m["x-invalid-examples"]?.length ?? 0) > 0)
    .map((m) => ({ name: m.title, valid: m.examples![0], invalid: m["x-invalid-examples"]![0]! }));
  return { protocol, messages };
}

/** Case ids are lower-case words joined by "-" (the case schema's pattern). */
const caseId = (kind: string, message: string): string => `${kind}${message.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

let server: http.Server;
let url = "";
/** What the server answers per path: "/valid/<Message>" or "/invalid/<Message>" of the project under test. */
let answers = new Map<string, unknown>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = answers.get(req.url ?? "");
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each(EXAMPLES)("conformance --spec examples/%s", (project) => {
  it("passes a frame valid for the project's schema and fails one that violates it, at the schema's pointer", async () => {
    const { protocol, messages } = messagesOf(project);
    expect(messages.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), `agent-contracts-conformance-${project}-`));
    try {
      cpSync(join(ROOT, "examples", project), dir, { recursive: true });
      const conformance = join(dir, "spec", protocol, "conformance");
      mkdirSync(conformance);
      writeFileSync(
        join(conformance, "suite.yaml"),
        [
          "suite:",
          `  protocol: ${protocol}`,
          "  title: frames against the project's schemas",
          "  description: Each case reads one answer and checks it is the message it names.",
          "  target: A test server on loopback.",
          "  credential: { description: none, default: unused }",
          "  tags: { frames: The answer is the named message. }",
          "  serverStates: { ready: The server answers. }",
          "  defaultServerState: ready",
          "",
        ].join("\n"),
      );
      const caseOf = (kind: "valid" | "invalid", name: string): string =>
        [
          `  - id: ${caseId(kind, name)}`,
          `    title: a ${kind} ${name}`,
          `    description: The server answers a ${kind} ${name}.`,
          "    tags: [frames]",
          `    source: ['message:${name}']`,
          "    steps:",
          `      - request: { method: GET, path: '/${kind}/${name}' }`,
          `        expect: { status: 200, body: { message: ${name} } }`,
        ].join("\n");
      writeFileSync(
        join(conformance, "frames.yaml"),
        [`protocol: ${protocol}`, "group: frames", "title: Frames", "description: Valid and invalid frames of each message.", "cases:", ...messages.flatMap((m) => [caseOf("valid", m.name), caseOf("invalid", m.name)]), ""].join("\n"),
      );
      answers = new Map(messages.flatMap((m) => [[`/valid/${m.name}`, m.valid], [`/invalid/${m.name}`, m.invalid.instance]] as const));
      const out: string[] = [];
      const err: string[] = [];
      const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root: dir, readStdin: async () => Buffer.alloc(0) };
      const code = await main(["conformance", protocol, "--url", url, "--spec", dir], io);
      expect(err.join("\n")).toBe("");
      const lines = out.join("\n").split("\n");
      for (const m of messages) {
        expect(lines, lines.join("\n")).toContain(`pass ${caseId("valid", m.name)} — a valid ${m.name}`);
        const failed = lines.find((l) => l.startsWith(`FAIL ${caseId("invalid", m.name)} `));
        expect(failed, lines.join("\n")).toBeDefined();
        // The first error the example declares: its pointer ("/" for the root) and keyword.
        expect(failed).toContain(`${m.invalid.error.instancePath || "/"} ${m.invalid.error.keyword}`);
      }
      expect(lines.at(-1)).toBe(`${messages.length} passed, ${messages.length} failed`);
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
