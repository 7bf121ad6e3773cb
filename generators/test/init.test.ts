// `agent-contracts init` (issue 30): the project it writes generates on the first try, carries no
// copy of the meta-schemas, points an editor at the CLI's own, and its TS bindings work. The
// expected signature was computed outside this code (Python's hmac over the five signing lines,
// key "example-shared-secret-0123456789") and is written into the template's example.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { initCommand } from "../cli/init.js";
import { UsageError, type Io } from "../cli/io.js";
import { build, write } from "../pipeline.js";
import { REPO_ROOT } from "./fixture.js";

const SECRET = "example-shared-secret-0123456789";
const SIGNATURE = "kDeRw2wE4uNY5POxTQl9HRMMoq+W6U/ZZxzD+lDIGnQ";

function io(root: string): Io & { lines: string[] } {
  const lines: string[] = [];
  return { root, out: (t) => void lines.push(t), err: (t) => void lines.push(t), readStdin: () => Promise.resolve(Buffer.alloc(0)), lines };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

describe("agent-contracts init", () => {
  it("writes a project that generates, with names from its folder and the CLI's meta-schemas", async () => {
    const parent = mkdtempSync(join(tmpdir(), "agent-contracts-init-"));
    expect(await initCommand.run(["front-door"], io(parent))).toBe(0);
    const root = join(parent, "front-door");
    const files = walk(join(root, "spec")).map((p) => p.slice(root.length + 1)).sort();
    expect(files).toEqual([
      "spec/common/types.yaml",
      "spec/example/lifecycles/session.machine.yaml",
      "spec/example/messages/Command.yaml",
      "spec/example/messages/Note.yaml",
      "spec/example/protocol.yaml",
      "spec/project.yaml",
    ]);
    for (const file of files) {
      const first = readFileSync(join(root, file), "utf8").split("\n")[0]!;
      const schema = /^# yaml-language-server: \$schema=(.+)$/.exec(first)?.[1];
      expect(schema, file).toBeDefined();
      expect(schema!.startsWith(`${REPO_ROOT}/spec/meta/`), file).toBe(true);
      expect(existsSync(schema!), file).toBe(true);
    }
    expect(readFileSync(join(root, "spec/project.yaml"), "utf8")).toContain(
      "  name: front-door\n  version: 0.1.0\n  schemaBase: https://schemas.example.org/front-door/\n  packages:\n    npm: \"front-door\"\n    maven: { groupId: org.example.frontdoor, artifactId: front-door, package: org.example.frontdoor }\n    swift: { package: FrontDoor, module: FrontDoor }\n",
    );

    const result = await build(root);
    if (!result.ok) throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message} [${e.lint}]`).join("\n"));
    write(root, result.rendered, result.owned);
    expect(existsSync(join(root, "generated/kotlin/src/main/kotlin/org/example/frontdoor/runtime/CanonicalJson.kt"))).toBe(true);
    expect(existsSync(join(root, "generated/swift/Sources/FrontDoor/Example/ExampleMessages.swift"))).toBe(true);

    // The generated package resolves ajv from beside it, as an installed package would.
    symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
    const example = (await import(pathToFileURL(join(root, "generated/ts/example/index.js")).href)) as Record<string, (...a: unknown[]) => unknown> & { lifecycles: { session: { transition: (s: string, e: string) => { ok: boolean; state?: string } } } };
    expect((example.parseNote!('{"note_id":"n-1","text":"Buy milk."}') as { ok: boolean }).ok).toBe(true);
    expect((example.parseNote!('{"note_id":"n-1","text":"  "}') as { ok: boolean }).ok).toBe(false);
    const unsigned = { command_id: "cmd-1", sender_id: "client-1", action: "start", issued_at: "2026-05-30T00:00:00Z", expires_at: "2026-05-30T00:10:00Z" };
    const signed = example.signCommand!(unsigned, SECRET) as { signature: string };
    expect(signed.signature).toBe(SIGNATURE);
    expect((example.verifyCommand!(JSON.stringify(signed), SECRET) as { ok: boolean }).ok).toBe(true);
    expect((example.verifyCommand!(JSON.stringify({ ...signed, action: "stop" }), SECRET) as { ok: boolean }).ok).toBe(false);
    const runtime = (await import(pathToFileURL(join(root, "generated/ts/runtime/replay-guard.js")).href)) as { MemoryReplayStore: new () => unknown };
    const guard = example.createCommandReplayGuard!(new runtime.MemoryReplayStore(), () => Date.parse("2026-05-30T00:05:00Z")) as { admit(m: unknown): Promise<{ ok: boolean; error?: { code: string } }> };
    expect((await guard.admit(signed)).ok).toBe(true);
    expect(await guard.admit(signed)).toMatchObject({ ok: false, error: { code: "replayed" } });
    expect(example.lifecycles.session.transition("idle", "start")).toMatchObject({ ok: true, state: "running" });
  }, 180_000);

  it("refuses a folder that already has a spec/", async () => {
    const parent = mkdtempSync(join(tmpdir(), "agent-contracts-init-"));
    await initCommand.run(["p"], io(parent));
    await expect(initCommand.run(["p"], io(parent))).rejects.toThrow(UsageError);
  });
});
