// The maintainer's loop of issue 39, played on a project `agent-contracts init` writes: release
// 1.0.0; add a message and a transition (compatible findings, a minor bump the gate asks for);
// release 1.1.0; remove an enum value (a breaking finding, a major bump); then the changelog lists
// both releases and the unreleased version, in every package `generate` writes and on the docs
// page. Expectations are the loop's own facts (what was edited), written here by hand.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initCommand } from "../../cli/init.js";
import type { Io } from "../../cli/io.js";
import { main } from "../../cli/main.js";
import { build, write, loadModel } from "../../pipeline.js";
import { collectInputs } from "../../targets/docs/build.js";
import { emitDocsSite } from "../../targets/docs/emit.js";

function io(root: string): Io & { out_: string[]; err_: string[] } {
  const out_: string[] = [];
  const err_: string[] = [];
  return { root, out: (t) => void out_.push(t), err: (t) => void err_.push(t), readStdin: () => Promise.resolve(Buffer.alloc(0)), out_, err_ };
}
async function cli(root: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const i = io(root);
  const code = await main(args, i);
  return { code, out: i.out_.join("\n"), err: i.err_.join("\n") };
}
const edit = (root: string, file: string, from: string, to: string) => {
  const text = readFileSync(join(root, file), "utf8");
  expect(text, `${file} holds ${from}`).toContain(from);
  writeFileSync(join(root, file), text.replace(from, to));
};
const setVersion = (root: string, from: string, to: string) => edit(root, "spec/project.yaml", `version: ${from}`, `version: ${to}`);

/** Records the spec as it is as release `version` (the README's steps: releases.json and the bundle). */
async function release(root: string, version: string, commit: string): Promise<void> {
  const file = join(root, "releases.json");
  const data = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { releases: object[] }) : { releases: [] };
  data.releases.push({ version, commit });
  writeFileSync(file, JSON.stringify(data, null, 2));
  const r = await cli(root, "breaking", "--against", "spec", "--write-bundle", `releases/${version}.spec.json`);
  expect(r.code, r.err).toBe(0);
}

interface Json {
  findings: { rule: string; severity: string; status: string }[];
  changes: { kind: string; severity: string }[];
  version: { subject: string; bump: string; suggested: string; tooLow: boolean }[];
}
async function breakingJson(root: string, against: string): Promise<{ code: number; json: Json }> {
  const r = await cli(root, "breaking", "--against", against, "--suggest-version", "--format", "json");
  return { code: r.code, json: JSON.parse(r.out) as Json };
}

async function generate(root: string): Promise<void> {
  const built = await build(root);
  if (!built.ok) throw new Error(built.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("\n"));
  write(root, built.rendered, built.owned);
}

describe("the maintainer's loop on an init project", () => {
  it("release, add, bump minor, release, remove an enum value, bump major; the changelog lists it all, in the packages and on the docs site", async () => {
    const parent = mkdtempSync(join(tmpdir(), "agent-contracts-loop-"));
    expect(await initCommand.run(["door"], io(parent))).toBe(0);
    const root = join(parent, "door");
    setVersion(root, "0.1.0", "1.0.0");
    mkdirSync(join(root, "releases"));
    await release(root, "1.0.0", "0".repeat(40));

    // Edit: a message and a transition added.
    writeFileSync(
      join(root, "spec/example/messages/Ping.yaml"),
      readFileSync(join(root, "spec/example/messages/Note.yaml"), "utf8").replace(/Note\.json/, "Ping.json").replace(/^title: Note$/m, "title: Ping"),
    );
    appendFileSync(join(root, "spec/example/lifecycles/session.machine.yaml"), "  - { from: idle, event: stop, to: stopped }\n");
    let r = await breakingJson(root, "releases/1.0.0.spec.json");
    expect(r.json.findings.filter((f) => f.status === "breaking")).toEqual([]);
    expect(r.json.changes.filter((c) => c.severity === "compatible").map((c) => c.kind).sort()).toEqual(["MESSAGE_ADDED", "TRANSITION_ADDED"]);
    expect(r.json.version).toEqual([expect.objectContaining({ subject: "project", bump: "minor", suggested: "1.1.0", tooLow: true })]);
    expect(r.code).toBe(1); // the version is still 1.0.0: the gate asks for the bump
    setVersion(root, "1.0.0", "1.1.0");
    r = await breakingJson(root, "releases/1.0.0.spec.json");
    expect([r.code, r.json.version[0]!.tooLow]).toEqual([0, false]);
    await release(root, "1.1.0", "1".repeat(40));

    // Edit: an enum value removed.
    edit(root, "spec/example/messages/Command.yaml", "enum: [start, stop]", "enum: [start]");
    r = await breakingJson(root, "releases/1.1.0.spec.json");
    expect(r.json.findings.filter((f) => f.status === "breaking").map((f) => [f.rule, f.severity])).toEqual([
      ["SOURCE_ENUM_CASE_REMOVED", "breaking"],
      ["WIRE_ENUM_VALUE_REMOVED", "breaking"],
    ]);
    expect(r.json.version.map((v) => [v.subject, v.bump, v.suggested])).toEqual([
      ["project", "major", "2.0.0"],
      ["example", "major", "2"],
    ]);
    setVersion(root, "1.1.0", "2.0.0");
    edit(root, "spec/example/protocol.yaml", 'version: "1"', 'version: "2"');
    r = await breakingJson(root, "releases/1.1.0.spec.json");
    expect(r.json.version.map((v) => v.tooLow)).toEqual([false, false]);
    expect(r.code).toBe(1); // still a break: spec/breaking.yaml's exceptions are where a maintainer accepts it

    await generate(root);
    const changelog = readFileSync(join(root, "generated/ts/CHANGELOG.md"), "utf8");
    // The jar's copy sits in the project's package folder, beside the schemas (spec/project.yaml's maven package).
    const mavenPackage = /package: ([\w.]+) }/.exec(readFileSync(join(root, "spec/project.yaml"), "utf8"))![1]!;
    for (const file of ["generated/swift/CHANGELOG.md", `generated/kotlin/src/main/resources/${mavenPackage.replace(/\./g, "/")}/CHANGELOG.md`]) expect(readFileSync(join(root, file), "utf8"), file).toBe(changelog);
    const sections = changelog.split(/^## /m).slice(1).map((s) => s.split("\n")[0]);
    expect(sections).toEqual(["2.0.0 (unreleased)", "1.1.0", "1.0.0"]);
    const v2 = changelog.slice(changelog.indexOf("## 2.0.0"), changelog.indexOf("## 1.1.0"));
    expect(v2).toContain("Compared with 1.1.0: a major bump.");
    expect(v2).toMatch(/#### Breaking\n\n- `spec\/example\/messages\/Command\.yaml:\d+` .*\(SOURCE_ENUM_CASE_REMOVED\)/);
    expect(v2).toContain("(WIRE_ENUM_VALUE_REMOVED)");
    expect(v2).toMatch(/#### Removed\n\n- `spec\/example\/messages\/Command\.yaml:\d+`/);
    const v11 = changelog.slice(changelog.indexOf("## 1.1.0"), changelog.indexOf("## 1.0.0"));
    expect(v11).toContain("Compared with 1.0.0: a minor bump.");
    expect(v11).toMatch(/#### Added\n\n(- .*\n)*- `spec\/example\/lifecycles\/session\.machine\.yaml:\d+` example\/session: idle --stop--> stopped added \(TRANSITION_ADDED\)/);
    expect(v11).toMatch(/- `spec\/example\/messages\/Ping\.yaml:\d+` message example\/Ping added \(MESSAGE_ADDED\)/);
    expect(v11).not.toContain("#### Breaking");

    // The docs site renders the same changelog as a page, listed in the navigation.
    const loaded = loadModel(root);
    if (!loaded.ok) throw new Error("the loop's project does not load");
    const site = emitDocsSite(loaded.model, await collectInputs(root, loaded.model, {}));
    const page = site.find((f) => f.path === "changelog.html")!.contents;
    expect(page).toContain("2.0.0 (unreleased)");
    expect(page).toContain("idle --stop--&gt; stopped added");
    expect(site.find((f) => f.path === "index.html")!.contents).toContain('href="changelog.html"');
  }, 300_000);
});
