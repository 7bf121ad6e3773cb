// Issue 31 from a global install of the packed tarball (the one install cli-anywhere.test.ts makes):
// the installed CLI, run from an unrelated folder on hostile spec projects (the connector fixture
// with one hostile change each), must refuse each by name, exit non-zero, print no stack trace and
// change nothing outside the project. The in-process tests beside each module prove the same rules
// in detail; these prove the shipped bundle carries them.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { connectorFixture, REPO_ROOT } from "./fixture.js";

interface Install {
  prefix: string;
  work: string;
  elsewhere: string;
}

function run(install: Install, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(join(install.prefix, "bin", "agent-contracts"), args, { cwd: install.elsewhere, encoding: "utf8", timeout: 400_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at /m);

export function hostileFromTheInstall(setup: () => Install): void {
  it("generate refuses a directory link and a file link under generated/: both named, exit 1, nothing outside changed", () => {
    const install = setup();
    const outside = join(install.work, "hostile-outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "precious.txt"), "keep me");
    writeFileSync(join(outside, "bashrc"), "alias ls=ls");
    const project = connectorFixture();
    mkdirSync(join(project.root, "generated/ts"), { recursive: true });
    symlinkSync(outside, join(project.root, "generated/ts/evil"));
    symlinkSync(join(outside, "bashrc"), join(project.root, "generated/ts/README.md"));
    const r = run(install, ["generate", "--spec", project.root]);
    noStackTrace(r.err);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain(`generated/ts/README.md: symbolic link to ${join(outside, "bashrc")}: generation never writes through or removes into a link; remove it [output-link]`);
    expect(r.err).toContain(`generated/ts/evil: symbolic link to ${outside}:`);
    expect(readdirSync(outside).sort()).toEqual(["bashrc", "precious.txt"]);
    expect([readFileSync(join(outside, "precious.txt"), "utf8"), readFileSync(join(outside, "bashrc"), "utf8")]).toEqual(["keep me", "alias ls=ls"]);
    expect(readdirSync(join(project.root, "generated"))).toEqual(["ts"]);
  }, 400_000);

  it("generate refuses a spec file linked outside spec/, an oversize spec file and a 2^63 constant, each by name", () => {
    const install = setup();
    const secret = join(install.work, "hostile-secret.yaml");
    writeFileSync(secret, "title: secret-canary-0b1d\n");
    const project = connectorFixture();
    symlinkSync(secret, join(project.root, "spec/common/leak.yaml"));
    writeFileSync(join(project.root, "spec/common/big.yaml"), "");
    truncateSync(join(project.root, "spec/common/big.yaml"), 300 * 1024 * 1024);
    project.edit("spec/agent-connector/protocol.yaml", "      - { name: LOCAL_ECHO,", "      - { name: TWO_63, value: 9223372036854775808, description: x }\n      - { name: LOCAL_ECHO,");
    const r = run(install, ["generate", "--spec", project.root]);
    noStackTrace(r.err);
    expect(r.code, r.err).toBe(1);
    const lines = r.err.split("\n");
    expect(lines.filter((l) => l.endsWith("[spec-link]"))).toEqual([`spec/common/leak.yaml:1:1 / spec/common/leak.yaml is a symbolic link to ${secret}, which leads outside spec/ (to ${secret}); the loader never reads through it: copy the file into spec/ instead [spec-link]`]);
    expect(lines.filter((l) => l.endsWith("[spec-file-too-large]"))).toEqual(["spec/common/big.yaml:1:1 / 300.0 MiB: over the limit of 2.0 MiB for one spec file (not read) [spec-file-too-large]"]);
    expect(lines.filter((l) => l.endsWith("[number-exact]")).map((l) => l.split(" ")[0])).toEqual(["spec/agent-connector/protocol.yaml:24:32"]);
    expect(r.err).not.toContain("secret-canary-0b1d");
    expect(readdirSync(project.root)).toEqual(["spec"]);
  }, 400_000);

  it("conformance refuses a case path with CR/LF by file and pointer (exit 2, no stack trace)", () => {
    const install = setup();
    const project = connectorFixture();
    cpSync(join(REPO_ROOT, "spec/agent-connector/conformance"), join(project.root, "spec/agent-connector/conformance"), { recursive: true });
    project.edit("spec/agent-connector/conformance/endpoint.yaml", "path: ''", 'path: "/x\\r\\nHost: elsewhere"');
    const r = run(install, ["conformance", "agent-connector", "--url", "http://127.0.0.1:9", "--spec", project.root]);
    noStackTrace(r.err);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/^spec\/agent-connector\/conformance\/endpoint\.yaml:18:\d+ \/cases\/0\/steps\/0\/request\/path pattern: /m);
  });
}
