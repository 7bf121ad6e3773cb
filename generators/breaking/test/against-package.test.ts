// `breaking --against` where CI has it (issue 35): a depth-1 clone (the one ref fetched at depth 1),
// and a published package carrying its spec bundle: an npm tarball made by `npm pack`, an installed
// package folder, a jar made by the JDK's `jar`, a bundle file. The expected findings are the ones
// the edit must give (a removed enum value), written by hand.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Io } from "../../cli/io.js";
import { main } from "../../cli/main.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { bundleOf, jarBundlePath, serializeBundle } from "../bundle.js";
import { baseFiles, M, writeTree } from "./spec-fixture.js";

async function breaking(args: string[], root: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.alloc(0) };
  const code = await main(["breaking", ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
const commit = (cwd: string, message: string) => git(cwd, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", message);

/** The new version: M's kind enum narrowed to ["a"] (WIRE_ENUM_VALUE_REMOVED, SOURCE_ENUM_CASE_REMOVED). */
function narrowed(): string {
  const files = baseFiles();
  files[M].properties.kind.enum = ["a"];
  return writeTree(files);
}
const expectNarrowed = (r: { code: number; out: string }) => {
  expect(r.code, r.out).toBe(1);
  expect(r.out).toMatch(/^spec\/p\/messages\/M\.yaml:\d+:\d+ \/properties\/kind\/enum \[WIRE_ENUM_VALUE_REMOVED\] \(breaking\) /m);
  expect(r.out).toMatch(/\[SOURCE_ENUM_CASE_REMOVED\]/);
};

describe("--against a published package", () => {
  const old = writeTree(baseFiles());
  const bundle = serializeBundle(bundleOf(old, "1.0.0"));
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-against-package-"));

  it("an npm tarball made by npm pack", async () => {
    const pkg = join(work, "pkg");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "old-bindings", version: "1.0.0" }));
    writeFileSync(join(pkg, "spec-bundle.json"), bundle);
    const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: pkg, stdio: ["ignore", "pipe", "pipe"] }).toString().trim().split("\n").at(-1)!;
    expectNarrowed(await breaking(["--against", join(work, tgz), "--spec", narrowed()], REPO_ROOT));
  });
  it("an installed package folder (node_modules/<name>, a Swift package)", async () => {
    const installed = join(work, "node_modules", "old-bindings");
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, "spec-bundle.json"), bundle);
    expectNarrowed(await breaking(["--against", installed, "--spec", narrowed()], REPO_ROOT));
  });
  it("a jar made by the JDK's jar tool, the bundle in the project's package folder", async () => {
    const classes = join(work, "classes");
    mkdirSync(join(classes, "org", "example", "bell"), { recursive: true });
    writeFileSync(join(classes, jarBundlePath("org.example.bell")), bundle);
    writeFileSync(join(classes, "org", "example", "bell", "Other.txt"), "another resource");
    execFileSync("jar", ["cf", join(work, "old.jar"), "-C", classes, "org"]);
    expectNarrowed(await breaking(["--against", join(work, "old.jar"), "--spec", narrowed()], REPO_ROOT));
  });
  it("a bundle file, and the same spec against itself is exit 0", async () => {
    writeFileSync(join(work, "old.spec.json"), bundle);
    expectNarrowed(await breaking(["--against", join(work, "old.spec.json"), "--spec", narrowed()], REPO_ROOT));
    expect((await breaking(["--against", join(work, "old.spec.json"), "--spec", old], REPO_ROOT)).code).toBe(0);
  });
  it("a package without a bundle, or a bundle naming a path outside spec/, is a usage error naming the file", async () => {
    writeFileSync(join(work, "not-a-bundle.json"), "{}");
    const r = await breaking(["--against", join(work, "not-a-bundle.json"), "--spec", old], REPO_ROOT);
    expect([r.code, r.err]).toEqual([2, expect.stringContaining("not-a-bundle.json: not a spec bundle")]);
    writeFileSync(join(work, "escape.json"), JSON.stringify({ format: "agent-contracts-spec-bundle/1", files: { "spec/../../x.yaml": "a: 1" } }));
    const e = await breaking(["--against", join(work, "escape.json"), "--spec", old], REPO_ROOT);
    expect([e.code, e.err]).toEqual([2, expect.stringContaining("is not a spec file a bundle holds")]);
    const pkg = join(work, "bare");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "bare", version: "1.0.0" }));
    const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: pkg, stdio: ["ignore", "pipe", "pipe"] }).toString().trim().split("\n").at(-1)!;
    const t = await breaking(["--against", join(work, tgz), "--spec", old], REPO_ROOT);
    expect([t.code, t.err]).toEqual([2, expect.stringContaining("holds no package/spec-bundle.json")]);
  });
  it("this repository's generated packages carry the spec they were made from: each against the spec is no change", async () => {
    for (const dir of ["generated/ts", "generated/swift", "generated/kotlin/src/main/resources"]) {
      const r = await breaking(["--against", join(REPO_ROOT, dir), "--spec", REPO_ROOT], REPO_ROOT);
      expect([dir, r.code, r.out]).toEqual([dir, 0, "breaking: no breaking changes against " + join(REPO_ROOT, dir)]);
    }
    // npm's own list of what the package would publish carries both files.
    const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: join(REPO_ROOT, "generated/ts"), stdio: ["ignore", "pipe", "pipe"] }).toString()) as { files: { path: string }[] }[];
    expect(packed[0]!.files.map((f) => f.path).filter((p) => p === "CHANGELOG.md" || p === "spec-bundle.json").sort()).toEqual(["CHANGELOG.md", "spec-bundle.json"]);
    expect(readFileSync(join(REPO_ROOT, "generated/ts/spec-bundle.json"), "utf8")).toBe(serializeBundle(bundleOf(REPO_ROOT, JSON.parse(readFileSync(join(REPO_ROOT, "generated/ts/package.json"), "utf8")).version)));
  });
});

describe("--against a revision in a depth-1 clone", () => {
  /** An origin with the base fixture tagged v1, then the narrowed enum committed; a clone of it at depth 1. */
  function shallowClone(): { clone: string; first: string } {
    const origin = writeTree(baseFiles());
    git(origin, "init", "-q");
    git(origin, "add", "-A");
    commit(origin, "base");
    git(origin, "tag", "v1");
    const first = git(origin, "rev-parse", "HEAD");
    cpSync(join(narrowed(), M), join(origin, M));
    commit(origin, "narrow kind");
    const clone = join(mkdtempSync(join(tmpdir(), "agent-contracts-shallow-")), "clone");
    execFileSync("git", ["clone", "-q", "--depth", "1", `file://${origin}`, clone], { stdio: "ignore" });
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
    return { clone, first };
  }
  it("a tag the clone lacks is fetched at depth 1 (one line says the command) and compared", async () => {
    const { clone } = shallowClone();
    expect(() => git(clone, "rev-parse", "--verify", "v1^{commit}")).toThrow();
    const r = await breaking(["--against", "v1"], clone);
    expectNarrowed(r);
    expect(r.err).toBe("breaking: v1 is not in this shallow clone: git fetch --depth=1 origin v1");
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
  });
  it("a commit id the clone lacks is fetched the same way", async () => {
    const { clone, first } = shallowClone();
    expectNarrowed(await breaking(["--against", first], clone));
  });
  it("a ref origin does not have: exit 2 with the exact command that failed", async () => {
    const { clone } = shallowClone();
    const r = await breaking(["--against", "no-such-tag"], clone);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no-such-tag is not in this shallow clone and `git fetch --depth=1 origin no-such-tag` failed");
  });
});
