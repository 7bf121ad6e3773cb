// No suite is skipped on CI without failing it, and every skip elsewhere prints one line saying why.
// The Swift script is run for real on a machine where it must skip (no swift on PATH, provisioning
// off, no toolchain root); the test files' skips are checked in their source.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../signing/helpers.js";

const SCRIPT = join(ROOT, "generators/targets/swift/toolchain/swift-test.sh");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
// PATH without any folder holding `swift`, so the script takes its no-toolchain branch.
const pathWithoutSwift = (process.env["PATH"] ?? "").split(":").filter((d) => d !== "" && !executable(join(d, "swift"))).join(":");

function swiftTest(env: Record<string, string>): { status: number | null; out: string; err: string } {
  const scratch = mkdtempSync(join(tmpdir(), "agent-contracts-swift-skip-"));
  dirs.push(scratch);
  const r = spawnSync("bash", [SCRIPT, scratch], {
    encoding: "utf8",
    env: { PATH: pathWithoutSwift, HOME: scratch, SWIFT_PROVISION: "0", SWIFT_ROOT: join(scratch, "no-root"), SWIFT_CONSUMER: "0", ...env },
  });
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe("swift-test.sh without a toolchain", () => {
  it("skips with one line saying why, and succeeds", () => {
    const r = swiftTest({});
    expect(r.status).toBe(0);
    expect(r.out.split("\n")).toHaveLength(1);
    expect(r.out).toMatch(/^Swift suite skipped: no swift on PATH/);
  });
  it("with SWIFT_REQUIRE=1 fails instead, with the same reason", () => {
    const r = swiftTest({ SWIFT_REQUIRE: "1" });
    expect(r.status).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^Swift suite required \(SWIFT_REQUIRE=1\) but cannot run: no swift on PATH/);
  });
});

const CARGO_SCRIPT = join(ROOT, "generators/targets/rust/toolchain/cargo-test.sh");
// PATH without any folder holding `cargo`; HOME empty, so ~/.cargo/bin holds none either.
const pathWithoutCargo = (process.env["PATH"] ?? "").split(":").filter((d) => d !== "" && !executable(join(d, "cargo"))).join(":");

function cargoTest(env: Record<string, string>): { status: number | null; out: string; err: string } {
  const scratch = mkdtempSync(join(tmpdir(), "agent-contracts-rust-skip-"));
  dirs.push(scratch);
  const r = spawnSync("bash", [CARGO_SCRIPT, scratch], { encoding: "utf8", env: { PATH: pathWithoutCargo, HOME: scratch, ...env } });
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe("cargo-test.sh without cargo", () => {
  it("skips with one line saying why, and succeeds", () => {
    const r = cargoTest({});
    expect(r.status).toBe(0);
    expect(r.out).toBe("Rust suite skipped: no cargo on PATH or in ~/.cargo/bin");
  });

  it("with RUST_REQUIRE=1 fails instead, with the same reason", () => {
    const r = cargoTest({ RUST_REQUIRE: "1" });
    expect(r.status).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe("Rust suite required (RUST_REQUIRE=1) but cannot run: no cargo on PATH or in ~/.cargo/bin");
  });
});

describe("cargo-test.sh with cargo but without the fleet servers", () => {
  // A PATH of only the tools the script runs before it looks for the servers, cargo among them,
  // so `redis-server` is not found (whatever /usr/lib/postgresql holds).
  const cargo = [join(homedir(), ".cargo/bin/cargo"), ...(process.env["PATH"] ?? "").split(":").map((d) => join(d, "cargo"))].find(executable);
  it.runIf(cargo !== undefined)("under AGENT_CONTRACTS_REQUIRE_SERVERS=1 fails, naming what is missing, before building anything", () => {
    const scratch = mkdtempSync(join(tmpdir(), "agent-contracts-rust-servers-"));
    dirs.push(scratch);
    const bin = join(scratch, "bin");
    mkdirSync(bin);
    for (const tool of ["cargo", "dirname", "mkdir", "gunzip", "gzip", "ls"]) {
      const found = tool === "cargo" ? cargo : ["/usr/bin", "/bin"].map((d) => join(d, tool)).find(executable);
      if (found !== undefined) symlinkSync(found, join(bin, tool));
    }
    const r = spawnSync("/bin/bash", [CARGO_SCRIPT, scratch], { encoding: "utf8", env: { PATH: bin, HOME: scratch, CARGO_TARGET_DIR: join(scratch, "target"), AGENT_CONTRACTS_REQUIRE_SERVERS: "1" } });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout.trim()).toBe("");
    expect(r.stderr.trim()).toBe("Rust fleet store suite required (AGENT_CONTRACTS_REQUIRE_SERVERS=1) but cannot run: redis-server or PostgreSQL is not installed");
  });
  if (cargo === undefined) console.log(`cargo-test.sh servers branch skipped: no cargo on PATH or in ~/.cargo/bin`);
});

describe(".ci/run", () => {
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
  it.each(["AGENT_CONTRACTS_REQUIRE_SERVERS=1", "SWIFT_REQUIRE=1", "RUST_REQUIRE=1"])("exports %s before make test", (flag) => {
    const at = ci.indexOf(`export ${flag}\n`);
    expect(at, flag).toBeGreaterThan(0);
    expect(at).toBeLessThan(ci.indexOf("make test"));
  });
});

/** Every .test.ts file under `dir`. */
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name));
}
const all = [...testFiles("property-tests"), ...testFiles("generators"), ...testFiles("docs-site/test")];

describe("test files", () => {
  it("each one that looks for the fleet servers fails under AGENT_CONTRACTS_REQUIRE_SERVERS and prints its skip", () => {
    const users = all.filter((f) => /missingServers\(\)/.test(readFileSync(f, "utf8")));
    expect(users.length).toBeGreaterThanOrEqual(2);
    for (const f of users) {
      const text = readFileSync(f, "utf8");
      expect(text, f).toMatch(/if \(missing !== undefined && REQUIRE_SERVERS\) throw new Error\(/);
      expect(text, f).toMatch(/if \(missing !== undefined\) console\.log\(`[^`]*skipped: \$\{missing\}`\)/);
    }
  });
  it("each file with a conditional skip (skipIf, runIf, a .skip chosen at run time) prints why", () => {
    const silent = all.filter((f) => {
      const text = readFileSync(f, "utf8");
      return /\.(skipIf|runIf)\(|\? (describe|it) : (describe|it)\.skip\b/.test(text) && !/console\.log\(`[^`]*skipped/.test(text);
    });
    expect(silent.map((f) => f.slice(ROOT.length))).toEqual([]);
  });
});
