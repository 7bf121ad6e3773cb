// A project whose recorded releases cannot be read (a bundle missing or not a bundle, releases.json
// malformed) gets a spec error naming the file to fix from `generate`, and nothing is written:
// never an internal error.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initCommand } from "../../cli/init.js";
import { build } from "../../pipeline.js";

async function project(): Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), "agent-contracts-releases-"));
  const io = { root: parent, out: () => {}, err: () => {}, readStdin: () => Promise.resolve(Buffer.alloc(0)) };
  expect(await initCommand.run(["bell"], io)).toBe(0);
  return join(parent, "bell");
}
const errorsOf = async (root: string) => {
  const r = await build(root);
  return r.ok ? [] : r.errors.map((e) => [e.file, e.line, e.column, e.lint, e.message]);
};

describe("generate with unreadable releases", () => {
  it("a release without its bundle: the bundle's path, and the command that writes it", async () => {
    const root = await project();
    writeFileSync(join(root, "releases.json"), JSON.stringify({ releases: [{ version: "0.1.0", commit: "a".repeat(40) }] }));
    expect(await errorsOf(root)).toEqual([["releases/0.1.0.spec.json", 1, 1, "releases", `missing: release 0.1.0 (releases.json) records its spec there (agent-contracts breaking --against ${"a".repeat(40)} --write-bundle releases/0.1.0.spec.json)`]]);
  });
  it("a bundle that is not one: its path and what is wrong", async () => {
    const root = await project();
    writeFileSync(join(root, "releases.json"), JSON.stringify({ releases: [{ version: "0.1.0", commit: "a".repeat(40) }] }));
    mkdirSync(join(root, "releases"));
    writeFileSync(join(root, "releases/0.1.0.spec.json"), "{}");
    expect(await errorsOf(root)).toEqual([["releases/0.1.0.spec.json", 1, 1, "releases", 'not a spec bundle (/format must be "agent-contracts-spec-bundle/1")']]);
  });
  it("releases.json without a version: releases.json and the pointer", async () => {
    const root = await project();
    writeFileSync(join(root, "releases.json"), JSON.stringify({ releases: [{ commit: "a".repeat(40) }] }));
    expect(await errorsOf(root)).toEqual([["releases.json", 1, 1, "releases", "/releases/0/version must be a semantic version"]]);
  });
});
