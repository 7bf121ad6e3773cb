// The documentation site's build (issue 34): `agent-contracts docs --out <tmp>` of this repository,
// whole processes timed on the wall clock (the goal's terms: the reader waits for the wall clock)
// and on their CPU time (user + system, which a loaded shared machine distorts far less), with the
// phases the build itself reports (model, typedoc, inputs including the playground bundles, render
// including the spec changelog's git walk, write). A measurement, never a test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./fixtures.js";
import { absoluteVerdict, markdownTable, median, type Verdict } from "./table.js";

/** Issue 34's goal for this repository's site on the 2-core machine, wall clock. */
const WALL_GOAL_S = 20;
const CPU_REPORT = join(ROOT, "property-tests/bench/cpu-report.cjs");

export interface DocsBuildResult {
  markdown: string;
  verdicts: { row: string; goal: string; verdict: Verdict }[];
}

interface Run {
  wall: number;
  cpu: number;
  phases: Record<string, number>;
  load: number;
}

function buildOnce(out: string): Run {
  const load = loadavg()[0] ?? 0;
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--require", CPU_REPORT, join(ROOT, "bin/agent-contracts.mjs"), "docs", "--out", out], { cwd: ROOT, encoding: "utf8" });
  const wall = (performance.now() - start) / 1000;
  if (child.status !== 0) throw new Error(`agent-contracts docs exited ${child.status}: ${child.stderr}`);
  const cpu = [...child.stderr.matchAll(/BENCH_CPU_US (\d+)/g)].pop();
  if (cpu === undefined) throw new Error("agent-contracts docs did not report its CPU time");
  // "docs: N files and M API reference files in DIR (15.0 s: model 1106 ms, typedoc 2961 ms, …)"
  const phases: Record<string, number> = {};
  for (const m of child.stdout.matchAll(/(\w+) (\d+) ms/g)) phases[m[1]!] = Number(m[2]) / 1000;
  return { wall, cpu: Number(cpu[1]) / 1e6, phases, load };
}

export function docsBuildArea(runs = 3): DocsBuildResult {
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-docs-bench-"));
  try {
    const results = Array.from({ length: runs }, (_, i) => buildOnce(join(work, `site-${i}`)));
    const s = (xs: number[]) => `${median(xs).toFixed(1)} s (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
    const wall = results.map((r) => r.wall);
    const cpu = results.map((r) => r.cpu);
    const verdict = absoluteVerdict(wall, WALL_GOAL_S, "lower");
    const phaseNames = Object.keys(results[0]!.phases);
    const rows = [
      ["wall clock", s(wall), `≤ ${WALL_GOAL_S} s`, verdict],
      ["CPU (user + system)", s(cpu), "", ""],
      ...phaseNames.map((name) => [`phase: ${name} (wall)`, s(results.map((r) => r.phases[name] ?? 0)), "", ""]),
    ];
    const loads = results.map((r) => r.load.toFixed(1)).join(", ");
    const markdown = `## Documentation site build\n\n\`agent-contracts docs\` of this repository (typedoc, diagrams, search index, playground bundles), ${runs} whole builds; median (min–max). Load average at each start: ${loads}.\n\n${markdownTable(["", "time", "goal", "verdict"], rows)}\n`;
    return { markdown, verdicts: [{ row: "docs build, wall clock", goal: `≤ ${WALL_GOAL_S} s`, verdict }] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
