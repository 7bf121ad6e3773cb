// validate, sign, verify and id read the messages of the spec of --spec DIR or of the project
// found from the current folder (issue 30), compiled when the command runs; before, they used only
// the CLI's own bindings ("unknown protocol example" although `list` showed it). The signature is
// the one computed outside this code for the init template (init.test.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../cli/commands.js";
import { UsageError, type Io } from "../cli/io.js";

const SIGNATURE = "kDeRw2wE4uNY5POxTQl9HRMMoq+W6U/ZZxzD+lDIGnQ";

function io(root: string): Io & { out: (t: string) => void; text: () => string } {
  const lines: string[] = [];
  return { root, out: (t) => void lines.push(t), err: (t) => void lines.push(t), readStdin: () => Promise.resolve(Buffer.alloc(0)), text: () => lines.join("\n") };
}

async function project(): Promise<{ root: string; elsewhere: string; file(name: string, text: string): string }> {
  const parent = mkdtempSync(join(tmpdir(), "agent-contracts-spec-commands-"));
  await commands["init"]!.run(["door"], io(parent));
  const elsewhere = mkdtempSync(join(tmpdir(), "agent-contracts-elsewhere-"));
  return {
    root: join(parent, "door"),
    elsewhere,
    file(name, text) {
      writeFileSync(join(elsewhere, name), text);
      return join(elsewhere, name);
    },
  };
}

describe("message commands on a project's own spec", () => {
  it("validate, sign, verify from inside the project and with --spec from elsewhere", async () => {
    const p = await project();
    const note = p.file("note.json", '{"note_id":"n-1","text":"  "}');
    const inside = io(p.root);
    expect(await commands["validate"]!.run(["example", "Note", note], inside)).toBe(1);
    expect(inside.text()).toBe(`${note}:1:25 /text: must match pattern "\\S"`);

    const key = p.file("key", "example-shared-secret-0123456789\n");
    const unsigned = p.file("cmd.json", '{"command_id":"cmd-1","sender_id":"client-1","action":"start","issued_at":"2026-05-30T00:00:00Z","expires_at":"2026-05-30T00:10:00Z"}');
    const signing = io(p.elsewhere);
    expect(await commands["sign"]!.run(["example", "Command", "--key-file", key, "--spec", p.root, unsigned], signing)).toBe(0);
    const signed = JSON.parse(signing.text()) as { signature: string };
    expect(signed.signature).toBe(SIGNATURE);
    const signedFile = p.file("signed.json", JSON.stringify(signed));
    const verifying = io(p.elsewhere);
    expect(await commands["verify"]!.run(["example", "Command", "--key-file", key, "--spec", join(p.root, "spec"), signedFile], verifying)).toBe(0);
    expect(verifying.text()).toBe("valid signature: example Command");
    const forged = p.file("forged.json", JSON.stringify({ ...signed, action: "stop" }));
    const refusing = io(p.elsewhere);
    expect(await commands["verify"]!.run(["example", "Command", "--key-file", key, "--spec", p.root, forged], refusing)).toBe(1);
    expect(refusing.text()).toMatch(/^invalid: signature-mismatch: /);
    const all = io(p.root);
    expect(await commands["validate"]!.run(["example", "Note", "--all-errors", p.file("bad.json", '{"note_id":"","text":" "}')], all)).toBe(1);
    expect(all.text().split("\n")).toHaveLength(3);
  }, 120_000);

  it("names the project's protocols when one is unknown, and the CLI's own outside any project", async () => {
    const p = await project();
    const message = p.file("m.json", "{}");
    await expect(commands["validate"]!.run(["agent-provider", "ActionProposal", message], io(p.root))).rejects.toThrow(new UsageError(`unknown protocol agent-provider in the spec at ${p.root}; known: example`));
    await expect(commands["validate"]!.run(["example", "Note", message], io(p.elsewhere))).rejects.toThrow(/^unknown protocol example; known: agent-connector, agent-provider, agent-service, provider-integration$/);
  }, 120_000);
});
