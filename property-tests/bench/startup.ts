// CLI start-up: how long a command that does not generate takes as a whole process, run from an
// unrelated temporary folder, against the anchor `node -e 0` (node itself). Issue 17's goal:
// <= 0.3 s on the wall clock. Whole processes are timed (tinybench adds nothing for 0.1 s runs),
// with each child's CPU time reported by cpu-report.cjs beside the wall clock.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./fixtures.js";
import { absoluteVerdict, markdownTable, median, type Verdict } from "./table.js";

const CPU_REPORT = join(ROOT, "property-tests/bench/cpu-report.cjs");
const CLI = join(ROOT, "bin/agent-contracts.mjs");
const GOAL_SECONDS = 0.3;

interface Timed {
  seconds: number;
  cpuSeconds: number;
}

function run(cwd: string, args: string[], okCodes: readonly number[] = [0]): Timed {
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--require", CPU_REPORT, ...args], { cwd, encoding: "utf8" });
  const seconds = (performance.now() - start) / 1000;
  if (!okCodes.includes(child.status ?? -1)) throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  const cpu = [...child.stderr.matchAll(/BENCH_CPU_US (\d+)/g)].pop();
  return { seconds, cpuSeconds: cpu === undefined ? Number.NaN : Number(cpu[1]) / 1e6 };
}

export function startupArea(runs = 7): { markdown: string; verdicts: { row: string; goal: string; verdict: Verdict }[] } {
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-startup-"));
  try {
    const proposal = join(work, "package.json");
    writeFileSync(proposal, readFileSync(join(ROOT, "property-tests/vectors/agent-connector/generated/valid/local-echo-1.0.0.package.json")));
    const vectors = JSON.parse(readFileSync(join(ROOT, "property-tests/vectors/agent-provider/computed_signature_vectors.json"), "utf8")) as { vectors: { name: string; secret_utf8: string; signed_object: object }[] };
    const trigger = vectors.vectors.find((v) => v.name === "rust_core_trigger_accept")!;
    writeFileSync(join(work, "key"), trigger.secret_utf8);
    writeFileSync(join(work, "trigger.json"), JSON.stringify(trigger.signed_object));
    // One run first so a stale compiled CLI is rebuilt outside the measurement.
    run(work, [CLI, "--version"]);
    const commands: [string, string[]][] = [
      ["--help", ["--help"]],
      ["--version", ["--version"]],
      ["list", ["list"]],
      ["validate agent-connector ConnectorPackage", ["validate", "agent-connector", "ConnectorPackage", proposal]],
      ["id agent-connector ConnectorPackage", ["id", "agent-connector", "ConnectorPackage", proposal]],
      ["verify agent-provider AgentTriggerRequest", ["verify", "agent-provider", "AgentTriggerRequest", "--key-file", join(work, "key"), join(work, "trigger.json")]],
    ];
    const times = (args: string[]): Timed[] => Array.from({ length: runs }, () => run(work, args));
    const anchor = times(["-e", "0"]);
    const fmt = (v: number[]): string => `${median(v).toFixed(3)} s (${Math.min(...v).toFixed(3)}–${Math.max(...v).toFixed(3)})`;
    const rows: string[][] = [["anchor: `node -e 0`", fmt(anchor.map((t) => t.seconds)), fmt(anchor.map((t) => t.cpuSeconds)), "1.0×", "—"]];
    const verdicts: { row: string; goal: string; verdict: Verdict }[] = [];
    for (const [label, args] of commands) {
      const timed = times([CLI, ...args]);
      const wall = timed.map((t) => t.seconds);
      const v = absoluteVerdict(wall, GOAL_SECONDS, "lower");
      verdicts.push({ row: `agent-contracts ${label}`, goal: `≤ ${GOAL_SECONDS} s`, verdict: v });
      const ratio = median(wall) / median(anchor.map((t) => t.seconds));
      const mark = (x: Verdict): string => (x === "met" ? "met" : x === "missed" ? "**MISSED**" : "borderline");
      const onCpu = absoluteVerdict(timed.map((t) => t.cpuSeconds), GOAL_SECONDS, "lower");
      rows.push([`agent-contracts ${label}`, fmt(wall), fmt(timed.map((t) => t.cpuSeconds)), `${ratio.toFixed(1)}×`, `≤ ${GOAL_SECONDS} s: ${mark(v)} (on CPU time: ${mark(onCpu)})`]);
    }
    const table = markdownTable(["command (from an unrelated folder)", `wall time, median of ${runs} (min–max)`, "CPU time, user+sys", "time ÷ anchor", "goal"], rows);
    return {
      markdown: `### CLI start-up\n\n${table}\n\nWhole \`node bin/agent-contracts.mjs …\` processes (the compiled CLI, dist/cli/), each started in a temporary folder outside the repository. The goal is on the wall clock; on a loaded machine the CPU time (user+sys of the child) is the better estimate of an idle run.\n`,
      verdicts,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
