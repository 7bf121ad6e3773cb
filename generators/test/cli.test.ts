// The CLI in-process: help, exit codes, drift detection naming the edited spec file.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
const require = createRequire(import.meta.url);
import { main } from "../cli/main.js";
import { MAX_INPUT_BYTES, type Io } from "../cli/io.js";
import { commands } from "../cli/commands.js";
import { connectorFixture, REPO_ROOT } from "./fixture.js";

function run(args: string[], root = REPO_ROOT, stdin = ""): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.from(stdin) };
  return main(args, io).then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

describe("help and usage", () => {
  it("prints the command list with --help and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const name of Object.keys(commands)) expect(r.out).toContain(name);
  });
  for (const name of Object.keys(commands)) {
    it(`${name} --help prints its usage`, async () => {
      const r = await run([name, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: agent-contracts ${commands[name]!.usage}`);
    });
  }
  it("an unknown command is a usage error (exit 2)", async () => {
    const r = await run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown command "frobnicate"');
  });
  it("an unknown option is a usage error (exit 2)", async () => {
    const r = await run(["list", "--yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown option --yaml");
  });
});

describe("validate", () => {
  const valid = JSON.stringify({ text: "hello" });
  it("exits 0 for a valid message read from stdin", async () => {
    const r = await run(["validate", "agent-connector", "HttpJsonResponse", "-"], REPO_ROOT, valid);
    expect(r).toMatchObject({ code: 0 });
  });
  it("exits 1 and names the field for an invalid message", async () => {
    const r = await run(["validate", "agent-connector", "HttpJsonResponse"], REPO_ROOT, JSON.stringify({ text: "a", sessionRef: null }));
    expect(r.code).toBe(1);
    expect(r.err).toBe("<stdin>:1:26 /sessionRef: must be string");
  });
  it("exits 1 for duplicate keys (strict parse)", async () => {
    const r = await run(["validate", "agent-connector", "HttpJsonResponse"], REPO_ROOT, '{"text":"a","text":"b"}');
    expect(r.code).toBe(1);
    expect(r.err).toBe('<stdin>:1:13 invalid JSON: duplicate member name "text" (at offset 12)');
  });
  it("exits 2 for an unknown message and an unreadable file", async () => {
    expect((await run(["validate", "agent-connector", "Nope"], REPO_ROOT, valid)).code).toBe(2);
    const r = await run(["validate", "agent-connector", "HttpJsonResponse", "/nonexistent/file.json"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("cannot read /nonexistent/file.json: ENOENT");
  });
});

describe("generate --check", () => {
  it("passes after generate, then names an edited spec file and the stale outputs", async () => {
    const fixture = connectorFixture({ withGenerators: true });
    expect((await run(["generate"], fixture.root)).code).toBe(0);
    expect((await run(["generate", "--check"], fixture.root)).code).toBe(0);
    const again = await run(["generate"], fixture.root);
    expect(again.out).toBe("generated/ is up to date (no input changed)");

    fixture.edit("spec/agent-connector/messages/HttpJsonResponse.yaml", "maxLength: 8192", "maxLength: 4096");
    const r = await run(["generate", "--check"], fixture.root);
    expect(r.code).toBe(1);
    expect(r.err).toContain("changed since the last generation: spec/agent-connector/messages/HttpJsonResponse.yaml");
    expect(r.err).toContain("out of date: generated/ts/agent-connector/validators.js");
  }, 60_000);
  it("names a file edited by hand in generated/ and a stray file", async () => {
    const fixture = connectorFixture({ withGenerators: true });
    expect((await run(["generate"], fixture.root)).code).toBe(0);
    fixture.edit("generated/ts/agent-connector/messages.js", "export const messages", "export  const messages");
    fixture.write("generated/ts/agent-connector/extra.js", "// stray\n");
    const r = await run(["generate", "--check"], fixture.root);
    expect(r.code).toBe(1);
    expect(r.err).toContain("out of date: generated/ts/agent-connector/messages.js");
    expect(r.err).toContain("no longer generated: generated/ts/agent-connector/extra.js");
  }, 60_000);
  it("reports spec errors as file:line:col and exits 1", async () => {
    const fixture = connectorFixture({ withGenerators: true });
    fixture.edit("spec/agent-connector/messages/HttpJsonResponse.yaml", "maxLength: 8192", "maxLength: -3");
    const r = await run(["generate"], fixture.root);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^spec\/agent-connector\/messages\/HttpJsonResponse\.yaml:\d+:\d+ \/properties\/sessionRef\/maxLength /m);
  }, 60_000);
});

describe("canonicalize, sign, verify, id", () => {
  const vectors = JSON.parse(require("node:fs").readFileSync(`${REPO_ROOT}/property-tests/vectors/agent-provider/computed_signature_vectors.json`, "utf8")) as { vectors: { name: string; kind: string; secret_utf8: string; signed_object: Record<string, unknown> }[] };
  const trigger = vectors.vectors.find((v) => v.name === "rust_core_trigger_accept")!;
  const keyFile = `${require("node:os").tmpdir()}/agent-contracts-key-${process.pid}`;
  require("node:fs").writeFileSync(keyFile, `${trigger.secret_utf8}\n`);

  it("verify exits 0 for a real signed trigger and 1 with the reason for a tampered one", async () => {
    const ok = await run(["verify", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile], REPO_ROOT, JSON.stringify(trigger.signed_object));
    expect(ok.code).toBe(0);
    const bad = await run(["verify", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile], REPO_ROOT, JSON.stringify({ ...trigger.signed_object, message: "Door opened." }));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("signature-mismatch");
    expect(bad.err).not.toContain(trigger.secret_utf8);
  });
  it("sign reproduces the real signature", async () => {
    const { signature: _s, ...unsigned } = trigger.signed_object;
    const r = await run(["sign", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile], REPO_ROOT, JSON.stringify(unsigned));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).signature).toBe(trigger.signed_object["signature"]);
  });
  it("sign without --key-file is a usage error", async () => {
    expect((await run(["sign", "agent-provider", "AgentTriggerRequest"], REPO_ROOT, "{}")).code).toBe(2);
  });
  it("id prints the reference packageId and refuses non-canonical bytes", async () => {
    const dir = `${REPO_ROOT}/property-tests/vectors/agent-connector/generated`;
    const ok = await run(["id", "agent-connector", "ConnectorPackage", `${dir}/valid/local-echo-1.0.0.package.json`]);
    expect(ok.out).toBe("connector-package-f4908cee8fa7acf5d17a403b39bd58cb8d4a1dfec3fbfb43c62c5727ee793cd4");
    const bad = await run(["id", "agent-connector", "ConnectorPackage", `${dir}/invalid/pretty-printed.package.json`]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("not-canonical");
  });
  it("canonicalize refuses duplicate keys with exit 1", async () => {
    const r = await run(["canonicalize"], REPO_ROOT, '{"a":1,"a":2}');
    expect(r.code).toBe(1);
    expect(r.err).toContain("duplicate-key");
  });
});

describe("list and lifecycle", () => {
  it("list --json names all four protocols with their messages and lifecycles", async () => {
    const r = await run(["list", "--json"]);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.out) as { protocols: { id: string; messages: string[]; lifecycles: string[] }[] };
    expect(listed.protocols.map((p) => p.id)).toEqual(["agent-connector", "agent-provider", "agent-service", "provider-integration"]);
    const connector = listed.protocols[0]!;
    expect(connector.messages).toContain("ConnectorPackage");
    expect(connector.lifecycles).toEqual(["trust"]);
  });
  it("lifecycle --json prints the trust machine as the document draws it (no installed -> revoked)", async () => {
    const r = await run(["lifecycle", "agent-connector", "trust", "--json"]);
    expect(r.code).toBe(0);
    const machine = JSON.parse(r.out) as { initial: string; states: { name: string }[]; transitions: { from: string; event: string; to: string }[] };
    expect(machine.initial).toBe("imported");
    expect(machine.states.map((s) => s.name).sort()).toEqual(["approved", "disabled", "imported", "installed", "removed", "revoked"]);
    expect(machine.transitions.some((t) => t.from === "installed" && t.to === "revoked")).toBe(false);
    expect(machine.transitions.some((t) => t.from === "imported" && t.event === "approve" && t.to === "approved")).toBe(true);
  });
  it("an unknown lifecycle is a usage error naming the ones that exist", async () => {
    const r = await run(["lifecycle", "agent-connector", "nope"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("agent-connector has trust");
  });
});

describe("input size", () => {
  // The limit is the strict parser's (4 MiB); an input one byte over it is refused without
  // reading the rest. Expectations: exit 1 and the parser's own code, too-large.
  it("stdin through a pipe: too-large, and the CLI stops reading (the writer gets EPIPE before all is written)", async () => {
    const total = 64 * 1024 * 1024;
    const child = spawn(process.execPath, ["bin/agent-contracts.mjs", "validate", "agent-connector", "HttpJsonResponse", "-"], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.stdout.resume();
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    let writeError: NodeJS.ErrnoException | undefined;
    child.stdin.on("error", (e) => (writeError = e));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let handed = 0;
    while (handed < total && !writeError && !child.stdin.destroyed) {
      const ok = child.stdin.write(chunk);
      handed += chunk.length;
      if (!ok) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            child.stdin.off("drain", done);
            child.stdin.off("close", done);
            resolve();
          };
          child.stdin.on("drain", done);
          child.stdin.on("close", done);
        });
      }
    }
    if (!child.stdin.destroyed) child.stdin.end();
    const code = await exited;
    // The pipe closed while most of the input was still unwritten.
    expect(writeError?.code).toBe("EPIPE");
    expect(handed).toBeLessThan(total / 2);
    expect(code).toBe(1);
    expect(stderr).toContain(`too-large: input is larger than ${MAX_INPUT_BYTES} bytes`);
  });

  it("a file (even an endless one like /dev/zero) is read only up to the limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-size-"));
    try {
      const over = join(dir, "over.json");
      writeFileSync(over, Buffer.alloc(MAX_INPUT_BYTES + 1, 0x20));
      const at = join(dir, "at.json");
      writeFileSync(at, Buffer.concat([Buffer.from('{"text":"hi"}'), Buffer.alloc(MAX_INPUT_BYTES - 13, 0x20)]));
      for (const args of [["validate", "agent-connector", "HttpJsonResponse", over], ["canonicalize", over], ["validate", "agent-connector", "HttpJsonResponse", "/dev/zero"]]) {
        const r = await run(args);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.err).toContain("too-large");
      }
      expect((await run(["validate", "agent-connector", "HttpJsonResponse", at])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stdin given in-process is held to the same limit", async () => {
    const r = await run(["canonicalize", "-"], REPO_ROOT, " ".repeat(MAX_INPUT_BYTES + 1));
    expect(r.code).toBe(1);
    expect(r.err).toContain("too-large");
  });
});
