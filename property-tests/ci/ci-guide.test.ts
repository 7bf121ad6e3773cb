// The CI guide's workflow (docs-site/ci/contracts.yml, shown in docs-site/guides/ci.md) run the
// way GitHub Actions would: a fixture project (agent-contracts init, generated, committed) is
// cloned at depth 1 from a file:// URL, and every `run:` step is run in order with bash -e in the
// clone. The `uses:` steps (checkout, setup-node, upload-sarif) are GitHub's own actions: the
// clone stands for the checkout, this Node for setup-node, and the SARIF file they would upload
// is checked instead. The project's devDependency on agent-contracts is stood in for by linking
// this checkout's CLI into node_modules/.bin after `npm ci`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = join(import.meta.dirname, "..", "..");
const WORKFLOW = join(ROOT, "docs-site/ci/contracts.yml");
const dir = mkdtempSync(join(tmpdir(), "ci-guide-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" } });

function cli(cwd: string, ...args: string[]): void {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/agent-contracts.mjs"), ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`agent-contracts ${args.join(" ")}: ${r.stderr}`);
}

describe("the CI guide's workflow", () => {
  const steps = (parse(readFileSync(WORKFLOW, "utf8")) as { jobs: Record<string, { steps: Step[] }> }).jobs["contracts"]!.steps;

  it("is the workflow the guide shows", () => {
    const guide = readFileSync(join(ROOT, "docs-site/guides/ci.md"), "utf8");
    expect(guide).toContain("```yaml\n" + readFileSync(WORKFLOW, "utf8") + "```");
  });

  it("runs every step on a depth-1 clone of a fixture project, and a spec error fails the lint step with an annotation", async () => {
    // The fixture: a project as `init` writes it, with its generated/ and a package.json, committed twice.
    const origin = join(dir, "origin");
    cli(dir, "init", origin);
    cli(origin, "generate");
    writeFileSync(join(origin, "package.json"), JSON.stringify({ name: "fixture", version: "1.0.0", private: true, devDependencies: {} }, null, 2) + "\n");
    writeFileSync(join(origin, "package-lock.json"), JSON.stringify({ name: "fixture", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "fixture", version: "1.0.0" } } }, null, 2) + "\n");
    writeFileSync(join(origin, ".gitignore"), "node_modules/\nsite/\nlint.sarif\n");
    git(origin, "init", "-q", "-b", "main");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "first");
    writeFileSync(join(origin, "README.md"), "fixture\n");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "second");

    const runSteps = (clone: string): { name: string; status: number | null; out: string }[] => {
      const results: { name: string; status: number | null; out: string }[] = [];
      let failed = false;
      for (const step of steps) {
        if (step.run === undefined) continue;
        // GitHub skips later steps after a failure unless they say `if: always()`.
        if (failed && step.if !== "always()") continue;
        const r = spawnSync("bash", ["-e", "-c", step.run], { cwd: clone, encoding: "utf8", env: { ...process.env, CI: "true", GITHUB_ACTIONS: "true" } });
        results.push({ name: step.name ?? step.run, status: r.status, out: `${r.stdout}${r.stderr}` });
        if (r.status !== 0) failed = true;
        if (step.run === "npm ci") {
          mkdirSync(join(clone, "node_modules/.bin"), { recursive: true });
          symlinkSync(join(ROOT, "bin/agent-contracts.mjs"), join(clone, "node_modules/.bin/agent-contracts"));
        }
      }
      return results;
    };

    const clone = join(dir, "clone");
    git(dir, "clone", "-q", "--depth", "1", `file://${origin}`, clone);
    expect(git(clone, "rev-list", "--count", "HEAD").trim()).toBe("1");
    const results = runSteps(clone);
    expect(results.map((r) => [r.name, r.status]), results.map((r) => r.out).join("\n")).toEqual(steps.filter((s) => s.run !== undefined).map((s) => [s.name ?? s.run, 0]));
    const sarif = JSON.parse(readFileSync(join(clone, "lint.sarif"), "utf8")) as { version: string; runs: { results: unknown[] }[] };
    expect([sarif.version, sarif.runs[0]!.results]).toEqual(["2.1.0", []]);
    expect(readFileSync(join(clone, "site/index.html"), "utf8")).toContain("<html");

    // A broken spec, committed: the lint step fails with an annotation at the file, and the
    // SARIF step (if: always()) still writes its log.
    const messages = git(origin, "ls-files", "spec").split("\n").filter((f) => /\/messages\/[^/]+\.yaml$/.test(f));
    expect(messages.length).toBeGreaterThan(0);
    const target = join(origin, messages[0]!);
    writeFileSync(target, readFileSync(target, "utf8").replace(/^type: object$/m, "type: object\nminProperties: yes"));
    git(origin, "commit", "-q", "-am", "break the spec");
    const broken = join(dir, "broken");
    git(dir, "clone", "-q", "--depth", "1", `file://${origin}`, broken);
    const failing = runSteps(broken);
    const lint = failing.find((r) => r.name.startsWith("Lint the spec (annotations"))!;
    expect(lint.status).toBe(1);
    expect(lint.out).toMatch(new RegExp(`^::error file=${messages[0]!.replace(/[.]/g, "\\.")},line=\\d+,col=\\d+,title=`, "m"));
    expect(failing.find((r) => r.name.startsWith("Lint the spec (SARIF"))!.status).toBe(1);
    expect((JSON.parse(readFileSync(join(broken, "lint.sarif"), "utf8")) as { runs: { results: unknown[] }[] }).runs[0]!.results.length).toBeGreaterThan(0);
    // Steps without `if: always()` after the failure did not run.
    expect(failing.some((r) => r.name.startsWith("generated/"))).toBe(false);
  }, 300_000);
});
