// `agent-contracts breaking` in-process: exit codes, output formats, a git revision read without
// touching the working tree, a directory, and this repository's own history.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Io } from "../../cli/io.js";
import { main } from "../../cli/main.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { breakingPages, CHANGELOG_PAGE, RULES_PAGE, specChangelog } from "../../targets/docs/spec-changelog.js";
import { ensureHistory } from "../release.mjs";
import { RULES } from "../rules.js";
import { baseFiles, M, writeTree } from "./spec-fixture.js";

async function run(args: string[], root: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.alloc(0) };
  const code = await main(["breaking", ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "pipe", "pipe"] }).toString();

/** A repository with the base fixture committed, then M's kind enum narrowed in the working tree. */
function repo(): string {
  const root = writeTree(baseFiles());
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base");
  const edited = baseFiles();
  edited[M].properties.kind.enum = ["a"];
  writeFileSync(`${root}/${M}`, JSON.stringify(edited[M], null, 2) + "\n");
  return root;
}

describe("breaking", () => {
  it("--against a git revision reports file:line:col pointer [RULE] message, exit 1, working tree untouched", async () => {
    const root = repo();
    const before = readFileSync(`${root}/${M}`, "utf8");
    const r = await run(["--against", "HEAD"], root);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^spec\/p\/messages\/M\.yaml:\d+:\d+ \/properties\/kind\/enum \[WIRE_ENUM_VALUE_REMOVED\] /m);
    expect(r.out).toMatch(/\[SOURCE_ENUM_CASE_REMOVED\]/);
    expect(r.out.split("\n").at(-1)).toMatch(/^breaking: 2 breaking changes against HEAD \([0-9a-f]{12}\) \(SOURCE 1, WIRE 1\)$/);
    expect(readFileSync(`${root}/${M}`, "utf8")).toBe(before);
    expect(git(root, "status", "--porcelain")).toBe(` M ${M}\n`);
  });
  it("--witness prints an instance the old version accepts and the new one rejects", async () => {
    const r = await run(["--against", "HEAD", "--witness"], repo());
    expect(r.out).toMatch(/witness \(old accepts, new rejects\): \{.*"kind":"b"/);
  });
  it("--format json carries findings, old positions and witnesses", async () => {
    const r = await run(["--against", "HEAD", "--format", "json"], repo());
    const json = JSON.parse(r.out) as { summary: { breaking: number }; findings: { rule: string; at: { file: string; line: number }; witness?: { acceptedBy: string } }[] };
    expect(json.summary.breaking).toBe(2);
    const wire = json.findings.find((f) => f.rule === "WIRE_ENUM_VALUE_REMOVED")!;
    expect(wire.at.file).toBe(M);
    expect(wire.witness?.acceptedBy).toBe("old");
  });
  it("--against a directory; the same tree is exit 0", async () => {
    const a = writeTree(baseFiles());
    const b = writeTree(baseFiles());
    const r = await run(["--against", a, "--spec", b], REPO_ROOT);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^breaking: no breaking changes against /);
    const s = await run(["--against", `${a}/spec`, "--spec", b], REPO_ROOT);
    expect(s.code).toBe(0);
  });
  it("usage errors exit 2", async () => {
    expect((await run([], REPO_ROOT)).code).toBe(2);
    expect((await run(["--against", "no-such-revision-or-dir"], REPO_ROOT)).err).toContain("neither a directory, a package nor a git revision");
    expect((await run(["--against", "HEAD", "--format", "xml"], REPO_ROOT)).code).toBe(2);
  });
  it("--list-rules prints every rule with its category", async () => {
    const r = await run(["--list-rules"], REPO_ROOT);
    expect(r.code).toBe(0);
    for (const rule of RULES) expect(r.out).toContain(rule.id);
    expect(r.out).toMatch(/^SOURCE: /m);
  });
});

// A shallow clone is unshallowed first (one line); a fetch that fails fails this file. Only a tree
// that is no git checkout at all (an unpacked package) has no history: that skip says so.
const history = ensureHistory(REPO_ROOT);
if (!history.available) console.log(`breaking: repository-history test skipped: ${history.reason}`);
const hasHistory = history.available;

describe.skipIf(!hasHistory)("this repository's history", () => {
  it("every commit that changed spec/ compares with its parent; every WIRE finding has a witness", () => {
    const log = specChangelog(REPO_ROOT, 12);
    expect(log.available).toBe(true);
    if (!log.available) return;
    for (const entry of log.entries) expect(entry.error, entry.sha).toBeUndefined();
    const wire = log.entries.flatMap((e) => e.findings).filter((f) => f.category === "WIRE");
    // No exceptions: SingleLineId's ReDoS rewrite is proven to admit the same strings (no
    // finding), a removed `not` is reasoned about by direction with the excluded schema's
    // instances, and a bound under additionalProperties gets a member name propertyNames admits.
    for (const f of wire) expect(f.witness, `${f.rule} ${f.at.file}${f.at.pointer}`).toBeTruthy();
    const patterns = wire.filter((f) => f.rule === "WIRE_PATTERN_CHANGED").map((f) => `${f.at.file}${f.at.pointer}`);
    expect(patterns).not.toContain("spec/agent-provider/messages/ActionProposal.yaml/$defs/SingleLineId/pattern");
  });
});

describe("docs pages", () => {
  const templates = { layout: readFileSync(`${REPO_ROOT}/docs-site/templates/layout.hbs`, "utf8") };
  it("the rules page lists every rule with an anchor", () => {
    const rules = breakingPages(REPO_ROOT, templates, { available: false, reason: "x" }).find((p) => p.path === RULES_PAGE)!.contents;
    for (const r of RULES) expect(rules).toContain(`id="${r.id}"`);
    expect(rules.match(/<h1[\s>]/g)).toHaveLength(1);
  });
  it("without git history the changelog says so", () => {
    const page = breakingPages(REPO_ROOT, templates, specChangelog("/")).find((p) => p.path === CHANGELOG_PAGE)!.contents;
    expect(page).toMatch(/git history (is not available|has no commit)/);
  });
  it("a changelog entry shows its findings and witnesses", () => {
    const root = repo();
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "narrow kind");
    const log = specChangelog(root);
    expect(log.available && log.entries.map((e) => e.subject)).toEqual(["narrow kind", "base"]);
    const page = breakingPages(root, templates, log).find((p) => p.path === CHANGELOG_PAGE)!.contents;
    expect(page).toContain("2 breaking changes");
    expect(page).toContain("WIRE_ENUM_VALUE_REMOVED");
    expect(page).toMatch(/witness \(old accepts\)/);
  });
  it("a commit that only adds shows its additions, not just \"no breaking change\" (issue 39)", () => {
    const root = repo();
    git(root, "checkout", "-q", "--", M);
    writeFileSync(`${root}/spec/p/messages/New.yaml`, JSON.stringify({ $id: "https://agent-contracts.dev/schemas/p/New.json", title: "New", type: "string" }));
    git(root, "add", "-A");
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "add New");
    const page = breakingPages(root, templates, specChangelog(root)).find((p) => p.path === CHANGELOG_PAGE)!.contents;
    expect(page).toContain("no breaking change; 1 compatible, 0 documentation");
    expect(page).toMatch(/<code>MESSAGE_ADDED<\/code><\/td><td><code>spec\/p\/messages\/New\.yaml:1:1<\/code>/);
  });
});
