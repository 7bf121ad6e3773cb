// Issue 31: the loader reads no file through a link leaving spec/, and enforces its stated limits
// before the work they limit. Fixtures are the real connector spec with one hostile change each;
// expectations are hand-written (the error's file, lint and the names it must carry), and the
// secret a link points at must appear in no output.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.js";
import type { Io } from "../cli/io.js";
import { loadModel } from "../pipeline.js";
import { connectorFixture, REPO_ROOT } from "../test/fixture.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_FILE_BYTES, specReadBudget } from "./spec-guard.js";
import { readSpecFile } from "./spec-file.js";

const outside = mkdtempSync(join(tmpdir(), "spec-guard-outside-"));
afterAll(() => rmSync(outside, { recursive: true, force: true }));
const SECRET = "secret-canary-7f3a9c";
writeFileSync(join(outside, "config"), `$schema: https://json-schema.org/draft/2020-12/schema\n$id: https://example.invalid/leak\ntitle: Leak\ndescription: ${SECRET}\ntype: string\n`);
mkdirSync(join(outside, "proto"));
writeFileSync(join(outside, "proto", "protocol.yaml"), `id: ${SECRET}\n`);

const errorsOf = (root: string) => {
  const result = loadModel(root);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors;
};

async function generate(root: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.alloc(0) };
  const code = await main(["generate", "--spec", root], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("links in a spec project", () => {
  it("a spec file linked to a file outside spec/ is refused, naming the link and its target; the content reaches nothing", async () => {
    const fixture = connectorFixture({ withGenerators: true });
    symlinkSync(join(outside, "config"), join(fixture.root, "spec/common/leak.yaml"));
    const errors = errorsOf(fixture.root);
    expect(errors.map((e) => [e.file, e.lint])).toEqual([["spec/common/leak.yaml", "spec-link"]]);
    expect(errors[0]!.message).toBe(`spec/common/leak.yaml is a symbolic link to ${join(outside, "config")}, which leads outside spec/ (to ${join(outside, "config")}); the loader never reads through it: copy the file into spec/ instead`);
    const run = await generate(fixture.root);
    expect(run.code).toBe(1);
    expect(run.err).toContain("spec/common/leak.yaml:1:1 / spec/common/leak.yaml is a symbolic link to");
    expect(`${run.out}${run.err}`).not.toContain(SECRET);
    expect(spawnSync("grep", ["-r", "-l", "--exclude-dir=generators", "--exclude-dir=node_modules", SECRET, fixture.root]).stdout.toString()).toBe("");
  }, 60_000);

  it("a protocol folder linked outside spec/ is refused by the link's name", () => {
    const fixture = connectorFixture();
    symlinkSync(join(outside, "proto"), join(fixture.root, "spec/evil"));
    const errors = errorsOf(fixture.root);
    expect(errors.map((e) => [e.file, e.lint])).toEqual([["spec/evil/protocol.yaml", "spec-link"]]);
    expect(errors[0]!.message).toMatch(/^spec\/evil is a symbolic link to .*proto, which leads outside spec\//);
    expect(JSON.stringify(errors)).not.toContain(SECRET);
  });

  it("a link inside spec/ to a file inside it stays, read resolved", () => {
    const fixture = connectorFixture();
    renameSync(join(fixture.root, "spec/common/types.yaml"), join(fixture.root, "spec/meta/types-stash.yaml"));
    symlinkSync("../meta/types-stash.yaml", join(fixture.root, "spec/common/types.yaml"));
    const result = loadModel(fixture.root);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});

describe("limits on spec files", () => {
  it("an oversize file is refused from its size alone (a sparse 300 MiB file: never read, heap stays flat)", () => {
    const fixture = connectorFixture();
    const big = join(fixture.root, "spec/common/big.yaml");
    writeFileSync(big, "");
    truncateSync(big, 300 * 1024 * 1024);
    // In a child process, so its memory is its own: it reports the errors and how much its heap grew.
    const script = `
      const { loadModel } = await import(${JSON.stringify(join(REPO_ROOT, "generators/pipeline.ts"))});
      const before = process.memoryUsage().heapUsed;
      const result = loadModel(${JSON.stringify(fixture.root)});
      console.log(JSON.stringify({ errors: result.ok ? [] : result.errors, heapGrowth: process.memoryUsage().heapUsed - before }));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8", timeout: 120_000 });
    expect(child.stderr).toBe("");
    const { errors, heapGrowth } = JSON.parse(child.stdout) as { errors: { file: string; lint: string; message: string }[]; heapGrowth: number };
    expect(errors).toEqual([{ file: "spec/common/big.yaml", line: 1, column: 1, pointer: "", lint: "spec-file-too-large", message: `300.0 MiB: over the limit of ${MAX_SPEC_FILE_BYTES / 1024 / 1024}.0 MiB for one spec file (not read)` }]);
    expect(heapGrowth).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  it("a pipe where a spec file should be is refused, not read (a read would wait forever)", () => {
    const fixture = connectorFixture();
    expect(spawnSync("mkfifo", [join(fixture.root, "spec/common/pipe.yaml")]).status).toBe(0);
    expect(errorsOf(fixture.root).map((e) => [e.file, e.lint])).toEqual([["spec/common/pipe.yaml", "spec-file-type"]]);
  });

  it("nesting deeper than the limit is refused at the line where it crosses it, before the document is built", () => {
    const fixture = connectorFixture();
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}\n`;
    fixture.write("spec/common/ok-deep.yaml", `x:\n  ${deep(MAX_SPEC_DEPTH - 1)}`);
    fixture.write("spec/common/too-deep.yaml", `x:\n  ${deep(MAX_SPEC_DEPTH)}`);
    // Block style nests two levels per "- "; a hundred thousand of them crashed the YAML library (out of memory).
    fixture.write("spec/common/very-deep.yaml", `${"- ".repeat(100_000)}x\n`);
    const errors = errorsOf(fixture.root).filter((e) => e.lint === "spec-too-deep");
    expect(errors.map((e) => [e.file, e.line, e.column])).toEqual([
      ["spec/common/too-deep.yaml", 2, 2 + MAX_SPEC_DEPTH],
      ["spec/common/very-deep.yaml", 1, 1 + 2 * MAX_SPEC_DEPTH],
    ]);
    expect(errors[0]!.message).toBe(`objects and arrays nested more than ${MAX_SPEC_DEPTH} deep (the limit for a spec file)`);
  });

  it("the number of files and their total size are counted across one load's reads", () => {
    const fixture = connectorFixture();
    for (const name of ["a", "b", "c"]) fixture.write(`spec/common/${name}.yaml`, "x: 1234567890\n"); // 14 bytes each
    const byCount = specReadBudget(2, 1000);
    expect(["a", "b", "c"].map((n) => readSpecFile(fixture.root, `spec/common/${n}.yaml`, byCount)).map((r) => (r.ok ? "read" : r.errors[0]!.lint))).toEqual(["read", "read", "spec-too-many-files"]);
    const bySize = specReadBudget(10, 30);
    const third = ["a", "b", "c"].map((n) => readSpecFile(fixture.root, `spec/common/${n}.yaml`, bySize));
    expect(third.map((r) => (r.ok ? "read" : r.errors[0]!.lint))).toEqual(["read", "read", "spec-total-too-large"]);
    expect(third[2]!.ok ? "" : third[2]!.errors[0]!.message).toBe("spec files together over the limit of 30 bytes (42 bytes with this one; not read)");
  });
});
