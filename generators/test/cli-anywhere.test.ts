// Issue 17, "the CLI works from anywhere": every command run as a real process from a folder
// outside the repository, first through this checkout's bin/, then through a global install of
// the packed tarball (npm pack once, npm install -g --prefix <tmp>, offline-first from npm's cache)
// and through npx. Expectations are the reference vectors' ids and verdicts and hand-written text;
// for generate from the install, the files this checkout generates from the same spec; for docs
// from the install, docs-anywhere.ts; for hostile spec projects (issue 31), hostile-anywhere.ts.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsFromTheInstall } from "./docs-anywhere.js";
import { connectorFixture, REPO_ROOT } from "./fixture.js";
import { hostileFromTheInstall } from "./hostile-anywhere.js";

const work = mkdtempSync(join(tmpdir(), "cli-anywhere-"));
const elsewhere = join(work, "elsewhere", "deeper");
mkdirSync(elsewhere, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const PACKAGE = join(REPO_ROOT, "property-tests/vectors/agent-connector/generated/valid/local-echo-1.0.0.package.json");
const PACKAGE_ID = "connector-package-f4908cee8fa7acf5d17a403b39bd58cb8d4a1dfec3fbfb43c62c5727ee793cd4";
const vectors = JSON.parse(readFileSync(join(REPO_ROOT, "property-tests/vectors/agent-provider/computed_signature_vectors.json"), "utf8")) as { vectors: { name: string; secret_utf8: string; signed_object: Record<string, unknown> }[] };
const trigger = vectors.vectors.find((v) => v.name === "rust_core_trigger_accept")!;
const keyFile = join(work, "key");
const triggerFile = join(work, "trigger.json");
const unsignedFile = join(work, "unsigned.json");
writeFileSync(keyFile, `${trigger.secret_utf8}\n`);
writeFileSync(triggerFile, JSON.stringify(trigger.signed_object));
const { signature: _signature, ...unsigned } = trigger.signed_object;
writeFileSync(unsignedFile, JSON.stringify(unsigned));

/** Every file under root/dir, as root-relative paths. */
function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

type Cli = (args: string[]) => { code: number | null; out: string; err: string };

function nodeCli(bin: string): Cli {
  return (args) => {
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: elsewhere, encoding: "utf8", timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
}

/** The commands that read no generator sources, each with its expected exit code and a line it must print. */
function everyCommand(cli: () => Cli): void {
  const cases: [string, string[], number, RegExp][] = [
    ["--help", ["--help"], 0, /^Usage: agent-contracts <command> \[options\]$/m],
    ["--version", ["--version"], 0, new RegExp(`^${VERSION.replace(/\./g, "\\.")}\n$`)],
    ["-V", ["-V"], 0, new RegExp(`^${VERSION.replace(/\./g, "\\.")}\n$`)],
    ["list", ["list"], 0, /^agent-connector \(Agent Connector SDK, version 1\)$/m],
    ["lifecycle", ["lifecycle", "agent-connector", "trust"], 0, /^ {2}imported --approve--> approved$/m],
    ["validate", ["validate", "agent-connector", "ConnectorPackage", PACKAGE], 0, /^valid agent-connector ConnectorPackage$/m],
    ["canonicalize", ["canonicalize", PACKAGE], 0, /^\{"/],
    ["id", ["id", "agent-connector", "ConnectorPackage", PACKAGE], 0, new RegExp(`^${PACKAGE_ID}$`, "m")],
    ["verify", ["verify", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile, triggerFile], 0, /^valid signature: agent-provider AgentTriggerRequest$/m],
    ["sign", ["sign", "agent-provider", "AgentTriggerRequest", "--key-file", keyFile, unsignedFile], 0, new RegExp(`"signature": "${String(trigger.signed_object["signature"]).replace(/[+/]/g, "\\$&")}"`)],
    ["conformance --list", ["conformance", "agent-service", "--list"], 0, /^server states: approvals-on \(default\), approvals-off$/m],
    ["breaking", ["breaking", "--against", join(REPO_ROOT, "spec"), "--spec", join(REPO_ROOT, "spec")], 0, /^breaking: no breaking changes against /m],
  ];
  for (const [name, args, code, line] of cases) {
    it(name, () => {
      const r = cli()(args);
      expect(r.err, name).not.toMatch(/^\s+at /m); // no stack trace
      expect({ code: r.code, matches: line.test(r.out) }, `${r.out}\n${r.err}`).toEqual({ code, matches: true });
    });
  }
  it("an unknown protocol lists the known ones", () => {
    const r = cli()(["validate", "nope", "X", PACKAGE]);
    expect(r.code).toBe(2);
    expect(r.err.split("\n")[0]).toBe("agent-contracts validate: unknown protocol nope; known: agent-connector, agent-provider, agent-service, provider-integration");
  });
}

describe("this checkout's bin/, run from an unrelated folder", () => {
  const cli = nodeCli(join(REPO_ROOT, "bin/agent-contracts.mjs"));
  // Compile first if a source changed, so no case below sees bin/'s "compiling the CLI" note.
  beforeAll(() => {
    expect(spawnSync(process.execPath, [join(REPO_ROOT, "generators/cli/build.mjs"), "--if-stale"]).status).toBe(0);
  }, 120_000);
  everyCommand(() => cli);

  it("list --spec reads another project's spec; a bad --spec is a usage error", () => {
    const fixture = connectorFixture();
    const r = cli(["list", "--spec", join(fixture.root, "spec")]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n").filter((l) => !l.startsWith(" "))).toEqual(["agent-connector (Agent Connector SDK, version 1)", ""]);
    const bad = cli(["list", "--spec", work]);
    expect(bad.code).toBe(2);
    expect(bad.err.split("\n")[0]).toBe(`agent-contracts list: --spec ${work}: neither a spec/ folder (with project.yaml or meta/) nor a folder holding one`);
  });

  it("walks up from a subfolder of a project to its spec", () => {
    const fixture = connectorFixture();
    const sub = join(fixture.root, "spec", "agent-connector", "messages");
    const r = spawnSync(process.execPath, [join(REPO_ROOT, "bin/agent-contracts.mjs"), "list", "--json"], { cwd: sub, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { protocols: { id: string }[] }).protocols.map((p) => p.id)).toEqual(["agent-connector"]);
  });

  it("generate --spec generates a checkout from elsewhere", () => {
    const fixture = connectorFixture({ withGenerators: true });
    const r = cli(["generate", "--spec", fixture.root]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^[1-9]\d* file\(s\) written, 0 removed, \d+ unchanged\n$/);
    expect(readdirSync(join(fixture.root, "generated/ts/agent-connector"))).toContain("validators.js");
  }, 180_000);

  it("list | head -1 ends quietly (EPIPE): one line out, nothing on stderr, exit 0", async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, "bin/agent-contracts.mjs"), "list", "--targets"], { cwd: elsewhere, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // The reader takes one chunk and closes the pipe, as head -1 does.
    const first = await new Promise<string>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString())));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(first.length).toBeGreaterThan(0);
    expect({ code, err }).toEqual({ code: 0, err: "" });
  });
});

describe("a global install of the packed tarball, and npx", () => {
  let prefix = "";
  let tarball = "";
  beforeAll(() => {
    const npm = (args: string[], cwd: string): string => {
      const r = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd, encoding: "utf8", timeout: 240_000 });
      if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed: ${r.stderr}`);
      return r.stdout;
    };
    npm(["pack", "--pack-destination", work], REPO_ROOT);
    tarball = join(work, readdirSync(work).find((n) => n.endsWith(".tgz"))!);
    prefix = join(work, "prefix");
    npm(["install", "-g", "--prefix", prefix, tarball], work);
  }, 300_000);

  // A guard against a hang, not a speed check: a whole generation of the spec took over 60 s here at load average 25.
  const installed: Cli = (args) => {
    const r = spawnSync(join(prefix, "bin", "agent-contracts"), args, { cwd: elsewhere, encoding: "utf8", timeout: 200_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  everyCommand(() => installed);

  // A user's own spec project: the repository's spec/ copied to a folder with no generators/,
  // without the *.paths.json suites generation writes back into spec/. What a checkout generates
  // from the same spec (the committed generated/, listed by its manifest) is the expectation:
  // every file byte for byte, generated/manifest.json included (its input hashes are the spec's
  // and, recorded at pack time, the generator's), and no file more. No output depends on where
  // the project sits, so nothing is excepted.
  const userProject = join(work, "user-project");
  const generatedHere = (): string[] => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "generated/manifest.json"), "utf8")) as { outputs: Record<string, string> };
    return [...Object.keys(manifest.outputs), "generated/manifest.json"].sort();
  };
  /** The files generation wrote under `dir` that are not the copied spec, and those whose bytes differ from this checkout's. */
  const compareWithCheckout = (dir: string, expected: string[]) => {
    const written = [...(existsSync(join(dir, "generated")) ? filesUnder(dir, "generated") : []), ...(existsSync(join(dir, "spec")) ? filesUnder(dir, "spec").filter((p) => p.endsWith(".paths.json")) : [])].sort();
    expect(written).toEqual(expected);
    expect(expected.filter((path) => !readFileSync(join(dir, path)).equals(readFileSync(join(REPO_ROOT, path))))).toEqual([]);
  };

  // The recorded releases are the project's too: the changelog every package ships is made from them.
  const copyReleases = (dest: string) => {
    cpSync(join(REPO_ROOT, "releases.json"), join(dest, "releases.json"));
    cpSync(join(REPO_ROOT, "releases"), join(dest, "releases"), { recursive: true });
  };

  it("generate --spec writes what this checkout generates, byte for byte; a second run from inside the project is a no-op", () => {
    cpSync(join(REPO_ROOT, "spec"), join(userProject, "spec"), { recursive: true, filter: (src) => !src.endsWith(".paths.json") });
    copyReleases(userProject);
    const r = installed(["generate", "--spec", join(userProject, "spec")]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const expected = generatedHere();
    expect(r.out).toBe(`${expected.length} file(s) written, 0 removed, 0 unchanged\n`);
    compareWithCheckout(userProject, expected);
    const again = spawnSync(join(prefix, "bin", "agent-contracts"), ["generate"], { cwd: join(userProject, "spec", "agent-connector"), encoding: "utf8", timeout: 60_000 });
    expect({ code: again.status, out: again.stdout, err: again.stderr }).toEqual({ code: 0, out: "generated/ is up to date (no input changed)\n", err: "" });
  }, 240_000);

  it("generate --out writes the same files into another folder, relative to the current one; a file is refused", () => {
    const fresh = join(work, "user-spec-only");
    cpSync(join(REPO_ROOT, "spec"), join(fresh, "spec"), { recursive: true, filter: (src) => !src.endsWith(".paths.json") });
    copyReleases(fresh);
    const r = installed(["generate", "--spec", join(fresh, "spec"), "--out", "out"]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    compareWithCheckout(join(elsewhere, "out"), generatedHere());
    expect(filesUnder(fresh, "spec").filter((p) => p.endsWith(".paths.json"))).toEqual([]);
    const notDir = installed(["generate", "--spec", join(fresh, "spec"), "--out", keyFile]);
    expect({ code: notDir.code, first: notDir.err.split("\n")[0] }).toEqual({ code: 2, first: `agent-contracts generate: --out ${keyFile}: not a folder` });
  }, 240_000);

  it("generate with no spec project at or above the current folder is a usage error (it writes nothing into the package)", () => {
    const r = installed(["generate"]);
    expect({ code: r.code, out: r.out, first: r.err.split("\n")[0] }).toEqual({ code: 2, out: "", first: `agent-contracts generate: no spec project at or above ${elsewhere} (a folder whose spec/ has project.yaml or meta/): pass --spec DIR, or make one with agent-contracts init` });
    expect(existsSync(join(prefix, "lib", "node_modules", "agent-contracts", "generated", "manifest.json"))).toBe(false);
  });

  it("docs with no spec project at or above the current folder is a usage error (it writes nothing into the package)", () => {
    const r = installed(["docs"]);
    expect({ code: r.code, out: r.out, first: r.err.split("\n")[0] }).toEqual({ code: 2, out: "", first: `agent-contracts docs: no spec project at or above ${elsewhere} (a folder whose spec/ has project.yaml or meta/): pass --spec DIR, or make one with agent-contracts init` });
    expect(existsSync(join(prefix, "lib", "node_modules", "agent-contracts", "docs-site", "dist"))).toBe(false);
  });

  docsFromTheInstall(() => ({ prefix, work, elsewhere }));

  hostileFromTheInstall(() => ({ prefix, work, elsewhere }));

  // Issue 30: a new user's first steps with the installed CLI, from an empty folder. The signature
  // was computed outside this code (init.test.ts says how).
  it("init, edit, generate, validate --spec, sign and verify the signed example, docs", () => {
    const project = join(work, "first-project");
    const init = installed(["init", project]);
    expect({ code: init.code, err: init.err }).toEqual({ code: 0, err: "" });
    const schemaLine = readFileSync(join(project, "spec/project.yaml"), "utf8").split("\n")[0]!;
    expect(schemaLine).toBe(`# yaml-language-server: $schema=${join(prefix, "lib/node_modules/agent-contracts/spec/meta")}/project.schema.json`);
    expect(existsSync(schemaLine.slice(schemaLine.indexOf("=") + 1))).toBe(true);
    expect(existsSync(join(project, "spec/meta"))).toBe(false);
    // The edit: Note gains an author, which the generated validator must then accept.
    const notePath = join(project, "spec/example/messages/Note.yaml");
    writeFileSync(notePath, readFileSync(notePath, "utf8").replace("  priority:\n", "  author:\n    description: Who wrote it.\n    type: string\n    maxLength: 100\n  priority:\n"));
    const generate = installed(["generate", "--spec", project]);
    expect({ code: generate.code, err: generate.err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(readFileSync(join(project, "generated/ts/package.json"), "utf8"))).toMatchObject({ name: "first-project", version: "0.1.0" });
    const note = join(work, "note.json");
    writeFileSync(note, '{"note_id":"n-1","text":"Hi.","author":"Ada"}');
    const validate = installed(["validate", "example", "Note", "--spec", project, note]);
    expect({ code: validate.code, out: validate.out, err: validate.err }).toEqual({ code: 0, out: "valid example Note\n", err: "" });
    const key = join(work, "first-project.key");
    writeFileSync(key, "example-shared-secret-0123456789\n");
    const command = join(work, "command.json");
    writeFileSync(command, '{"command_id":"cmd-1","sender_id":"client-1","action":"start","issued_at":"2026-05-30T00:00:00Z","expires_at":"2026-05-30T00:10:00Z"}');
    const sign = installed(["sign", "example", "Command", "--key-file", key, "--spec", project, command]);
    expect({ code: sign.code, err: sign.err }).toEqual({ code: 0, err: "" });
    expect((JSON.parse(sign.out) as { signature: string }).signature).toBe("kDeRw2wE4uNY5POxTQl9HRMMoq+W6U/ZZxzD+lDIGnQ");
    const signed = join(work, "command.signed.json");
    writeFileSync(signed, sign.out);
    const verify = installed(["verify", "example", "Command", "--key-file", key, "--spec", project, signed]);
    expect({ code: verify.code, out: verify.out }).toEqual({ code: 0, out: "valid signature: example Command\n" });
    const docs = installed(["docs", "--spec", project, "--out", "first-project-site"]);
    expect(docs.code, docs.err).toBe(0);
    const home = readFileSync(join(elsewhere, "first-project-site/index.html"), "utf8");
    expect(home).toContain('<h1 id="top">first-project</h1>');
    expect(home).toContain("<code>first-project</code>");
  }, 300_000);

  it("list --targets (the generator's registry) works", () => {
    const r = installed(["list", "--targets"]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(r.out).toMatch(/^ts +generated\/ts +TypeScript package: /m);
  });

  it("npx runs the tarball's bin", () => {
    const r = spawnSync("npx", ["--yes", "--prefer-offline", "--package", tarball, "--", "agent-contracts", "--version"], { cwd: elsewhere, encoding: "utf8", timeout: 240_000 });
    expect(r.stdout, r.stderr).toBe(`${VERSION}\n`);
  }, 240_000);
});
