// Issue 17, errors a person can act on: every expected line below is written by hand from the
// input shown beside it (positions counted by hand), not captured from the CLI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.js";
import type { Io } from "../cli/io.js";
import { connectorFixture, REPO_ROOT } from "./fixture.js";

const work = mkdtempSync(join(tmpdir(), "cli-errors-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], stdin = "", root = work): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.from(stdin) };
  return main(args, io).then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

// The first example of spec/agent-provider/messages/ActionProposal.yaml, laid out one member a line.
const PROPOSAL_LINES = [
  "{",
  '  "request_id": "11111111-1111-4111-8111-111111111111",',
  '  "provider_id": "provider",',
  '  "agent_id": "provider.agent",',
  '  "action_id": "provider.order.create",',
  '  "tool_name": "app_action_order_create",',
  '  "arguments": { "amount": 12.5 },',
  '  "user_intent_summary": "",',
  '  "created_at": "2026-05-26T00:00:00.000Z",',
  '  "expires_at": "2026-05-26T00:10:00.000Z",',
  '  "nonce": "22222222-2222-4222-8222-222222222222",',
  '  "idempotency_key": "11111111-1111-4111-8111-111111111111",',
  '  "callback": { "type": "napaxi_action_result", "request_id_required": true },',
  '  "risk": "high",',
  '  "confirmation_policy": "provider_required"',
  "}",
];

function proposalFile(name: string, edit: (lines: string[]) => void): string {
  const lines = [...PROPOSAL_LINES];
  edit(lines);
  const path = join(work, name);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

describe("validate: file:line:col pointer: message", () => {
  it("the valid example passes (so the failures below are the edits')", async () => {
    const r = await run(["validate", "agent-provider", "ActionProposal", proposalFile("ok.json", () => {})]);
    expect(r).toMatchObject({ code: 0, out: "valid agent-provider ActionProposal" });
  });
  it("an unknown member is named, at its name", async () => {
    const file = proposalFile("bogus.json", (l) => (l[12] = '  "callback": { "type": "napaxi_action_result", "bogus": 1 },'));
    const r = await run(["validate", "agent-provider", "ActionProposal", file]);
    expect(r.code).toBe(1);
    // Line 13; `"bogus"` starts after `  "callback": { "type": "napaxi_action_result", ` (48 characters).
    expect(r.err).toBe(`${file}:13:49 /callback: unknown member "bogus"`);
  });
  it("a bad value is reported at the value, with the schema's reason", async () => {
    const file = proposalFile("nonce.json", (l) => (l[10] = '  "nonce": " ",'));
    const r = await run(["validate", "agent-provider", "ActionProposal", file]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${file}:11:12 /nonce: must match pattern "^[^\\S\\n]*\\S[^\\n]*$"`);
  });
  it("a duplicate key names the key and its line:column (stdin is <stdin>)", async () => {
    const r = await run(["validate", "agent-connector", "HttpJsonResponse"], '{\n  "text": "a",\n  "text": "b"\n}');
    expect(r.code).toBe(1);
    expect(r.err).toBe('<stdin>:3:3 invalid JSON: duplicate member name "text" (at offset 19)');
  });
});

describe("names that do not exist", () => {
  const known = "known: agent-connector, agent-provider, agent-service, provider-integration";
  for (const args of [["validate", "nope", "X"], ["id", "nope", "X"], ["lifecycle", "nope", "trust"]]) {
    it(`${args[0]}: an unknown protocol lists the known ones`, async () => {
      const r = await run(args, "{}");
      expect(r.code).toBe(2);
      expect(r.err.split("\n")[0]).toBe(`agent-contracts ${args[0]}: unknown protocol nope; ${known}`);
    });
  }
});

describe("--version", () => {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
  for (const flag of ["--version", "-V"]) {
    it(`${flag} prints the package version`, async () => {
      expect(await run([flag])).toEqual({ code: 0, out: version, err: "" });
    });
  }
});

describe("id: one trailing newline, --assign", () => {
  // The reference package and its id, computed by the reference implementation (vectors README).
  const dir = join(REPO_ROOT, "property-tests/vectors/agent-connector/generated/valid");
  const canonical = readFileSync(join(dir, "local-echo-1.0.0.package.json"));
  const expectedId = "connector-package-f4908cee8fa7acf5d17a403b39bd58cb8d4a1dfec3fbfb43c62c5727ee793cd4";
  it("accepts the canonical bytes followed by exactly one LF", async () => {
    expect(await run(["id", "agent-connector", "ConnectorPackage"], canonical.toString("utf8") + "\n")).toMatchObject({ code: 0, out: expectedId });
  });
  it("refuses two LFs and a CRLF as not canonical", async () => {
    for (const tail of ["\n\n", "\r\n"]) {
      const r = await run(["id", "agent-connector", "ConnectorPackage"], canonical.toString("utf8") + tail);
      expect(r.code).toBe(1);
      expect(r.err).toBe("invalid: not-canonical: input bytes are not the record's canonical form");
    }
  });
  it("--help states the newline rule", async () => {
    expect((await run(["id", "--help"])).out).toContain("optionally followed by exactly one\nnewline (LF");
  });
  it("--assign computes the id of the record without its packageId (any layout)", async () => {
    const { packageId: _id, ...record } = JSON.parse(canonical.toString("utf8")) as Record<string, unknown>;
    const r = await run(["id", "agent-connector", "ConnectorPackage", "--assign"], JSON.stringify(record, null, 2));
    expect(r).toMatchObject({ code: 0, out: expectedId });
  });
  it("--assign refuses a record that already has an id", async () => {
    const r = await run(["id", "agent-connector", "ConnectorPackage", "--assign"], canonical.toString("utf8"));
    expect(r.code).toBe(1);
    expect(r.err).toBe("invalid: the record already has packageId: check it with id (without --assign)");
  });
});

describe("sign refuses a message that fails validation", () => {
  it("names the invalid value and prints no signature", async () => {
    // A real trigger (the vectors' rust_core_trigger_accept) without its signature, plus a member
    // the schema does not have: every signed field is present, so only validation can refuse it.
    const vectors = JSON.parse(readFileSync(join(REPO_ROOT, "property-tests/vectors/agent-provider/computed_signature_vectors.json"), "utf8")) as { vectors: { name: string; secret_utf8: string; signed_object: Record<string, unknown> }[] };
    const trigger = vectors.vectors.find((v) => v.name === "rust_core_trigger_accept")!;
    const { signature: _s, ...unsigned } = trigger.signed_object;
    const keyFile = join(work, "key");
    writeFileSync(keyFile, `${trigger.secret_utf8}\n`);
    const sign = (message: object) => run(["sign", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile], JSON.stringify(message));
    expect((await sign(unsigned)).code).toBe(0);
    const r = await sign({ ...unsigned, bogus: true });
    expect(r).toEqual({ code: 1, out: "", err: 'cannot sign: the message is invalid\n(root): unknown member "bogus"' });
  });
});

describe("spec errors are reported at the file that has them", () => {
  /** 1-based line of the first line of `text` that starts with `start`: counted here, not by the loader. */
  const lineOf = (text: string, start: string): number => text.split("\n").findIndex((l) => l.startsWith(start)) + 1;

  it("a schema error in a lifecycle file is not replaced by protocol.yaml reference errors", async () => {
    const fixture = connectorFixture();
    const rel = "spec/agent-connector/lifecycles/trust.machine.yaml";
    fixture.edit(rel, "  - id: installed-to-revoked", "  - idd: installed-to-revoked");
    const line = lineOf(fixture.read(rel), "  - idd: installed-to-revoked");
    const r = await run(["list"], "", fixture.root);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      [
        `${rel}:${line}:5 /x-divergences/0 must have required property 'id' [meta-schema]`,
        `${rel}:${line}:5 /x-divergences/0 must NOT have additional properties: "idd" [meta-schema]`,
      ].join("\n"),
    );
  });
  it("a duplicate key in spec YAML names the key and its pointer", async () => {
    const fixture = connectorFixture();
    const rel = "spec/agent-connector/messages/HttpJsonResponse.yaml";
    fixture.edit(rel, /\nproperties:\n/, "\nproperties:\n  text: { type: string }\n");
    const line = lineOf(fixture.read(rel), "  text: { type: string }");
    const r = await run(["list"], "", fixture.root);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${rel}:${line + 1}:3 /properties/text duplicate key "text": the value is given twice in this map [syntax]`);
  });
});

describe("every error when asked (--all-errors, validateMessageAllErrors)", () => {
  // Three mistakes in one proposal: risk removed, a blank nonce, an unknown callback member.
  const edit = (l: string[]): void => {
    l[10] = '  "nonce": " ",';
    l[12] = '  "callback": { "type": "napaxi_action_result", "bogus": 1 },';
    l[13] = '  "confirmation_policy": "provider_required"';
    l.splice(14, 1);
  };
  const expected = (file: string): string[] => [
    `${file}:1:1 (root): must have required property 'risk'`,
    `${file}:11:12 /nonce: must match pattern "^[^\\S\\n]*\\S[^\\n]*$"`,
    `${file}:13:49 /callback: unknown member "bogus"`,
  ];
  it("without the flag: the first error only", async () => {
    const file = proposalFile("three.json", edit);
    const r = await run(["validate", "agent-provider", "ActionProposal", file]);
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toHaveLength(1);
    expect(expected(file)).toContain(r.err);
  });
  it("--all-errors: all three", async () => {
    const file = proposalFile("three.json", edit);
    const r = await run(["validate", "agent-provider", "ActionProposal", "--all-errors", file]);
    expect(r.code).toBe(1);
    expect(r.err.split("\n").sort()).toEqual(expected(file).sort());
  });
  it("--max-errors 2 cuts the list and says so; 0 is a usage error", async () => {
    const file = proposalFile("three.json", edit);
    const r = await run(["validate", "agent-provider", "ActionProposal", "--all-errors", "--max-errors", "2", file]);
    expect(r.err.split("\n")).toHaveLength(3);
    expect(r.err.split("\n")[2]).toBe("more errors not shown (--max-errors 2)");
    expect((await run(["validate", "agent-provider", "ActionProposal", "--all-errors", "--max-errors", "0", file])).code).toBe(2);
    expect((await run(["validate", "agent-provider", "ActionProposal", "--max-errors", "2", file])).code).toBe(2);
  });
  it("the API: validateMessageAllErrors returns every error with truncated, and refuses maxErrors 0", async () => {
    const api = (await import(join(REPO_ROOT, "generated/ts/all-errors.js"))) as {
      validateMessageAllErrors(p: string, n: string, v: unknown, o?: { maxErrors?: number }): { ok: boolean; errors?: { instancePath: string; keyword: string }[]; truncated?: boolean };
    };
    const lines = [...PROPOSAL_LINES];
    edit(lines);
    const value = JSON.parse(lines.join("\n")) as unknown;
    const all = api.validateMessageAllErrors("agent-provider", "ActionProposal", value);
    expect(all.ok).toBe(false);
    expect(all.errors!.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([" required", "/callback additionalProperties", "/nonce pattern"]);
    expect(all.truncated).toBe(false);
    const one = api.validateMessageAllErrors("agent-provider", "ActionProposal", value, { maxErrors: 1 });
    expect({ n: one.errors!.length, truncated: one.truncated }).toEqual({ n: 1, truncated: true });
    expect(() => api.validateMessageAllErrors("agent-provider", "ActionProposal", value, { maxErrors: 0 })).toThrow(RangeError);
    const valid = JSON.parse(PROPOSAL_LINES.join("\n")) as unknown;
    expect(api.validateMessageAllErrors("agent-provider", "ActionProposal", valid).ok).toBe(true);
  });
});
