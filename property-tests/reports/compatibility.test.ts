// `conformance --report FILE` and the docs site's Compatibility page: two implementations are
// run by the CLI (the mock, and a server that checks the identity before the key), each writes
// its result file, and the site built from a project holding both shows them side by side, with
// the counts the kit printed for each run.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../generators/cli/io.js";
import { main } from "../../generators/cli/main.js";
import { readReportFile, ReportFileError } from "../../generators/conformance/report.js";
import { startAgentService, type RunningAgentService } from "../../generators/mock/agent-service.js";
import { startMock, type RunningMock } from "../../generators/mock/server.js";
import { loadModel } from "../../generators/pipeline.js";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "compatibility-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], root = ROOT): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.alloc(0) };
  return main(args, io).then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

/** The kit's own text lines, counted per case file (the group is the case id's file, from --list). */
function countsFromText(out: string): { passed: number; failed: number } {
  const m = /^(\d+) passed, (\d+) failed/m.exec(out)!;
  return { passed: Number(m[1]), failed: Number(m[2]) };
}

describe("conformance --report and the Compatibility page", () => {
  let mock: RunningMock;
  let variant: RunningAgentService;
  const project = join(dir, "project");
  const results = join(project, "docs-site", "compatibility");
  const kit: Record<string, { passed: number; failed: number }> = {};

  beforeAll(async () => {
    const loaded = loadModel(ROOT);
    if (!loaded.ok) throw new Error("spec");
    mock = await startMock({ root: ROOT, model: loaded.model, protocol: "agent-service" });
    variant = await startAgentService({ variant: { identityBeforeKey: true } });
    mkdirSync(results, { recursive: true });
    cpSync(join(ROOT, "spec"), join(project, "spec"), { recursive: true });
    const a = await run(["conformance", "agent-service", "--url", mock.url, "--report", join(results, "mock.json"), "--implementation", "agent-contracts mock", "--implementation-version", "0.1.0"]);
    expect(a.code).toBe(0);
    kit["mock"] = countsFromText(a.out);
    const b = await run(["conformance", "agent-service", "--url", variant.url, "--report", join(results, "identity-first.json"), "--implementation", "identity-first", "--implementation-version", "2.0"]);
    expect(b.code).toBe(1);
    kit["identity-first"] = countsFromText(b.out);
  }, 180_000);
  afterAll(async () => {
    await mock?.close();
    await variant?.close();
  });

  it("each result file holds the kit's counts, per category summing to the totals", () => {
    for (const [name, counts] of Object.entries(kit)) {
      const report = readReportFile(join(results, `${name}.json`));
      expect(report.totals.passed, name).toBe(counts.passed);
      expect(report.totals.failed, name).toBe(counts.failed);
      expect(Object.keys(report.categories).sort()).toEqual(["auth", "interactions", "limits", "request-id", "stream", "workflow"]);
    }
    expect(kit["identity-first"]!.failed).toBeGreaterThan(0);
    expect(kit["mock"]!.failed).toBe(0);
  });

  it("the docs site built from the project shows both side by side, per category, and lists the page in the navigation", async () => {
    const site = join(dir, "site");
    const built = await run(["docs", "--spec", project, "--out", site]);
    expect(built.code, built.err).toBe(0);
    const html = readFileSync(join(site, "guides", "compatibility.html"), "utf8");
    const header = /<thead>([\s\S]*?)<\/thead>/.exec(html)![1]!;
    expect(header).toMatch(/agent-contracts mock 0\.1\.0[\s\S]*identity-first 2\.0/);
    const rows = [...html.matchAll(/<tr>\s*<td>(.*?)<\/td>\s*<td>(.*?)<\/td>\s*<td>(.*?)<\/td>\s*<\/tr>/g)].map((m) => m.slice(1, 4));
    const reports = { mock: readReportFile(join(results, "mock.json")), variant: readReportFile(join(results, "identity-first.json")) };
    for (const category of ["auth", "interactions", "limits", "request-id", "stream", "workflow"]) {
      const row = rows.find((r) => r[0] === category);
      expect(row, category).toBeDefined();
      const cell = (c: { passed: number; failed: number; skipped: number }) => `${c.passed} / ${c.failed} / ${c.skipped}`;
      expect(row!.slice(1)).toEqual([cell(reports.mock.categories[category]!), cell(reports.variant.categories[category]!)]);
    }
    const total = rows.find((r) => r[0].includes("total"))!;
    expect(total[1]).toContain(`${kit["mock"]!.passed} / 0 / `);
    expect(total[2]).toContain(`${kit["identity-first"]!.passed} / ${kit["identity-first"]!.failed} / `);
    // Registered like every guide: the home page's navigation links to it.
    expect(readFileSync(join(site, "index.html"), "utf8")).toContain('href="guides/compatibility.html"');
  }, 180_000);

  it("a result file that is not a report stops the build, naming the file and the pointer", async () => {
    const bad = join(dir, "bad-project");
    cpSync(project, bad, { recursive: true });
    const file = join(bad, "docs-site", "compatibility", "mock.json");
    const report = JSON.parse(readFileSync(file, "utf8")) as { totals: { passed: unknown } };
    report.totals.passed = "many";
    writeFileSync(file, JSON.stringify(report));
    expect(() => readReportFile(file, "mock.json")).toThrow(ReportFileError);
    const built = await run(["docs", "--spec", bad, "--out", join(dir, "bad-site")]);
    expect(built.code).toBe(2);
    expect(built.err).toContain("docs-site/compatibility/mock.json /totals/passed not a conformance report: must be integer");
  }, 180_000);
});
