// The compiled CLI (dist/cli/, generators/cli/build.mjs) is never stale: in a copy of the checkout,
// editing a source makes bin/ rebuild before it runs, and the build is byte-for-byte repeatable.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./fixture.js";

const copy = mkdtempSync(join(tmpdir(), "cli-compiled-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
for (const entry of ["bin", "generators", "generated", "spec", "package.json"]) cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"), "dir");

const cli = (args: string[]) => spawnSync(process.execPath, [join(copy, "bin/agent-contracts.mjs"), ...args], { cwd: tmpdir(), encoding: "utf8", timeout: 120_000 });
const bundle = (): Record<string, string> => Object.fromEntries(readdirSync(join(copy, "dist/cli")).filter((n) => n.endsWith(".mjs")).sort().map((n) => [n, readFileSync(join(copy, "dist/cli", n), "utf8")]));

describe("the compiled CLI", () => {
  it("is built on first use, then reused without a rebuild", () => {
    const first = cli(["--version"]);
    expect(first.stderr).toBe("agent-contracts: compiling the CLI (missing)\n");
    const again = cli(["--version"]);
    expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: "" });
  }, 120_000);

  it("is rebuilt when a source it was built from changes, and runs the new code", () => {
    const main = join(copy, "generators/cli/main.ts");
    writeFileSync(main, readFileSync(main, "utf8").replace("agent-contracts — spec-first bindings for the agent protocols", "agent-contracts — EDITED"));
    const r = cli(["--help"]);
    expect(r.stderr).toBe("agent-contracts: compiling the CLI (changed: generators/cli/main.ts)\n");
    expect(r.stdout.split("\n")[0]).toBe("agent-contracts — EDITED");
  }, 120_000);

  it("a source touched without a change costs no rebuild", () => {
    const io = join(copy, "generators/cli/io.ts");
    writeFileSync(io, readFileSync(io));
    expect(cli(["--version"]).stderr).toBe("");
  }, 120_000);

  it("builds byte-for-byte the same twice", () => {
    const before = bundle();
    const r = spawnSync(process.execPath, [join(copy, "generators/cli/build.mjs")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(bundle()).toEqual(before);
  }, 120_000);
});
