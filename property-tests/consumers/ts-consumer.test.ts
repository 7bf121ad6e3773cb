// The TypeScript package as a new project adopts it (issue 17): `npm pack` of generated/ts, the
// consumer in ./ts (written only from the package README) copied to a temp dir outside the
// repository, installed from the tarball without the network, type-checked with tsc and run.
// Every expected value comes from spec/ vectors (themselves checked against real
// implementations' outputs and Python's hmac elsewhere) or from the trust machine's table, never
// from running the bindings.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../signing/helpers.js";

interface HmacCase { name: string; message_type: string; key_utf8: string; message: Record<string, unknown>; expected_signature?: string }
const hmac = JSON.parse(readFileSync(`${ROOT}/spec/agent-provider/vectors/hmac-sha256-v1.json`, "utf8")) as { cases: HmacCase[] };
const triggerVector = hmac.cases.find((c) => c.name === "rust_core_trigger_accept")!;
const proposalVector = hmac.cases.find((c) => c.name === "ios_provider_sdk_proposal")!;
const contentIds = JSON.parse(readFileSync(`${ROOT}/spec/agent-connector/vectors/content-ids.json`, "utf8")) as { cases: { name: string; expected_id: string; source?: string }[] };
const packageVector = contentIds.cases.find((c) => c.name === "local-echo-1.0.0.package.json")!;
// Meldwork's own record of the ids its parser gave the same files.
const meldworkIds = JSON.parse(readFileSync(`${ROOT}/property-tests/vectors/agent-connector/generated/valid/EXPECTED.json`, "utf8")) as Record<string, { packageId: string; manifestId: string }>;

const NPM_QUIET = ["--no-audit", "--no-fund", "--loglevel=error"];
let temp = "";
let project = "";
let packedFiles: string[] = [];

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", timeout: 180_000, stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), "ts-consumer-"));
  const packed = JSON.parse(run("npm", ["pack", `${ROOT}/generated/ts`, "--pack-destination", temp, "--json", ...NPM_QUIET], temp)) as { filename: string; files: { path: string }[] }[];
  packedFiles = packed[0]!.files.map((f) => f.path);
  project = join(temp, "project");
  cpSync(`${ROOT}/property-tests/consumers/ts`, project, { recursive: true, filter: (src) => !/\/(node_modules|dist)(\/|$)/.test(src) });
  renameSync(join(temp, packed[0]!.filename), join(project, "agent-contracts-bindings.tgz"));
  // Offline from the npm cache the repository's own install filled; install scripts off, so
  // better-sqlite3 gets the native addon the repository already built (same pinned version).
  const install = ["install", "--ignore-scripts", ...NPM_QUIET];
  try {
    run("npm", [...install, "--offline"], project);
  } catch {
    run("npm", [...install, "--prefer-offline"], project);
  }
  const ours = JSON.parse(readFileSync(`${ROOT}/node_modules/better-sqlite3/package.json`, "utf8")) as { version: string };
  const theirs = JSON.parse(readFileSync(join(project, "node_modules/better-sqlite3/package.json"), "utf8")) as { version: string };
  expect(theirs.version).toBe(ours.version);
  cpSync(`${ROOT}/node_modules/better-sqlite3/build`, join(project, "node_modules/better-sqlite3/build"), { recursive: true });
  writeFileSync(join(project, "proposal.json"), JSON.stringify(proposalVector.message));
  cpSync(`${ROOT}/${packageVector.source}`, join(project, "package-record.json"));
}, 300_000);

afterAll(() => {
  if (temp !== "") rmSync(temp, { recursive: true, force: true });
});

describe("a TS project outside the repository, installed from the npm pack tarball", () => {
  it("the tarball ships its README, LICENSE and declarations", () => {
    expect(packedFiles).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json", "index.d.ts", "runtime/replay-sqlite.js"]));
    expect(project.startsWith(ROOT)).toBe(false);
  });

  it("type-checks with tsc", () => {
    run("node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"], project);
    expect(existsSync(join(project, "dist/main.js"))).toBe(true);
  }, 120_000);

  it("every TypeScript example in the package README type-checks against the installed package", () => {
    // Each fenced ts block becomes one module; the names a block leaves to the reader (the input
    // text, a secret, a verified message, ...) are declared before it with the types it implies.
    const readme = readFileSync(join(project, "node_modules/@agent-contracts/bindings/README.md"), "utf8");
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const B = 'import("@agent-contracts/bindings")';
    const free: Record<string, string> = {
      text: "string",
      secret: "string",
      bytes: "Uint8Array",
      record: `${B}.agentConnector.ConnectorPackage`,
      verified: `{ ok: true; message: ${B}.agentProvider.AgentTriggerRequest }`,
    };
    const files = blocks.map((code, i) => {
      const prelude = Object.entries(free).filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`const ${name}\\b`).test(code));
      const file = `readme-${i}.ts`;
      writeFileSync(join(project, "src", file), `${prelude.map(([n, t]) => `declare const ${n}: ${t};`).join("\n")}\n${code}\nexport {};\n`);
      return file;
    });
    try {
      run("node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"], project);
    } catch (error) {
      throw new Error(`README examples do not compile: ${String((error as { stdout?: unknown }).stdout)}`);
    } finally {
      for (const file of files) rmSync(join(project, "src", file));
    }
  }, 120_000);

  it("parses, signs, verifies, steps the trust lifecycle and computes a package id", () => {
    const out = JSON.parse(run("node", ["dist/main.js", "check", "proposal.json", "package-record.json"], project)) as Record<string, unknown>;
    expect(out.proposalRisk).toBe(proposalVector.message["risk"]);
    expect(out.proposalByName).toBe(proposalVector.message["request_id"]);
    expect(out.invalidProposal).toEqual([":required"]);
    expect(triggerVector.key_utf8).toBe("secret-1");
    expect(out.signature).toBe(triggerVector.expected_signature);
    expect(out.algorithm).toBe("hmac-sha256-v1");
    expect(out.verified).toBe("trigger-1");
    expect(out.tampered).toBe("signature-mismatch");
    expect(out.wrongKey).toBe("signature-mismatch");
    expect(out.emptyKey).toBe("key-missing");
    // spec/agent-connector/lifecycles/trust.machine.yaml, by hand: revoke is refused in installed.
    expect(out.trust).toEqual([
      ["approve", "approved", ["auditApproved"]],
      ["install", "installed", ["auditInstalled"]],
      ["revoke", "refused", "event_not_allowed"],
      ["disable", "disabled", ["auditDisabled"]],
      ["remove", "removed", ["auditRemoved"]],
    ]);
    expect(out.removedIsTerminal).toBe(true);
    expect(out.packageId).toBe(packageVector.expected_id);
    expect(out.packageId).toBe(meldworkIds["local-echo-1.0.0.package.json"]!.packageId);
    expect(out.computedId).toBe(packageVector.expected_id);
    expect(out.manifestId).toBe(meldworkIds["local-echo-1.0.0.package.json"]!.manifestId);
    expect(out.forged).toBe("id-mismatch");
  }, 60_000);

  it("refuses the replay of a trigger after the process that admitted it was killed", async () => {
    const first = spawn("node", ["dist/main.js", "admit", "replay.db", "--hold"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((resolve) => first.once("exit", resolve));
    let line: string;
    try {
      line = await new Promise<string>((resolve, reject) => {
        let text = "";
        first.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          if (text.includes("\n")) resolve(text.trim());
        });
        first.on("exit", (code) => reject(new Error(`admit exited ${code} before answering`)));
        setTimeout(() => reject(new Error("admit did not answer")), 30_000).unref();
      });
    } finally {
      // Killed as a crash would end it (no close, no checkpoint); also when it never answered.
      first.kill("SIGKILL");
      await exited;
    }
    expect(JSON.parse(line)).toEqual({ admitted: true });
    const second = JSON.parse(run("node", ["dist/main.js", "admit", "replay.db"], project));
    expect(second).toEqual({ admitted: false, code: "replayed" });
    const fresh = JSON.parse(run("node", ["dist/main.js", "admit", "other.db"], project));
    expect(fresh).toEqual({ admitted: true });
  }, 60_000);

  it("names better-sqlite3 when it is not installed", () => {
    renameSync(join(project, "node_modules/better-sqlite3"), join(project, "node_modules/better-sqlite3.away"));
    try {
      let stderr = "";
      try {
        run("node", ["dist/main.js", "admit", "third.db"], project);
      } catch (error) {
        stderr = String((error as { stderr?: unknown }).stderr);
      }
      expect(stderr).toContain('MissingPeerError: a SQLite replay store needs the npm package "better-sqlite3": npm install better-sqlite3');
    } finally {
      renameSync(join(project, "node_modules/better-sqlite3.away"), join(project, "node_modules/better-sqlite3"));
    }
  }, 60_000);
});
