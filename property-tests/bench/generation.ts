// Generation: `agent-contracts generate` from cold and as a no-op, run in a throw-away copy of the
// repository (spec/, generators/, generated/, bin/, dist/, property-tests/, releases and a link to
// node_modules) so the bench never writes into the working tree. Cold = every output the manifest
// lists deleted, the manifest too, and an empty tsx transpile cache (a fresh TMPDIR). Whole
// processes are timed on the wall clock (tinybench adds nothing for multi-second runs); then an
// in-process run splits a full regeneration into phases (generation-phases.ts).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./fixtures.js";
import { removeOutputs } from "./outputs.js";
import { absoluteVerdict, markdownTable, median, type Verdict } from "./table.js";

/** Goals of issue 20, on CPU time (user + sys) of the generate process. */
const COLD_GOAL_S = 3;
const NOOP_GOAL_S = 0.2;

export interface GenerationOptions {
  coldRuns: number;
  noopRuns: number;
  /** Also write a CPU profile of one no-op run (node --cpu-prof) into this directory. */
  profileDir?: string;
}

export interface GenerationResult {
  markdown: string;
  verdicts: { row: string; goal: string; verdict: Verdict }[];
}

const CPU_REPORT = join(ROOT, "property-tests/bench/cpu-report.cjs");

interface Timed {
  /** Wall clock, s. */
  seconds: number;
  /** The child's CPU time (user + system, all threads), s. */
  cpuSeconds: number;
  /** Of which system (kernel) time, s. */
  sysSeconds: number;
  stdout: string;
}

/** The CPU time of creating a cold run's files and nothing else (write-floor.ts). */
interface Floor {
  files: number;
  cpuSeconds: number;
  sysSeconds: number;
}

const WRITE_FLOOR = join(ROOT, "property-tests/bench/write-floor.ts");

function writeFloor(repo: string, env: NodeJS.ProcessEnv): Floor {
  const child = spawnSync(process.execPath, ["--import", "tsx", WRITE_FLOOR, repo], { env, encoding: "utf8" });
  const m = /BENCH_FLOOR (\d+) (\d+) (\d+)/.exec(child.stdout);
  if (child.status !== 0 || m === null) throw new Error(`write-floor.ts exited ${child.status}: ${child.stderr}`);
  return { files: Number(m[1]), cpuSeconds: (Number(m[2]) + Number(m[3])) / 1e6, sysSeconds: Number(m[3]) / 1e6 };
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv): Timed {
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--require", CPU_REPORT, ...args], { cwd, env, encoding: "utf8" });
  const seconds = (performance.now() - start) / 1000;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  const cpu = [...child.stderr.matchAll(/BENCH_CPU_US (\d+) BENCH_SYS_US (\d+)/g)].pop();
  if (cpu === undefined) throw new Error(`node ${args.join(" ")} did not report its CPU time`);
  return { seconds, cpuSeconds: Number(cpu[1]) / 1e6, sysSeconds: Number(cpu[2]) / 1e6, stdout: child.stdout.trim() };
}

function fmt(values: readonly number[]): string {
  const m = median(values);
  return values.length === 1 ? `${m.toFixed(2)} s` : `${m.toFixed(2)} s (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
}

/** Why the copy's compiled CLI is not current (generators/cli/build.mjs staleness), or undefined when it is. */
function compiledCliState(repo: string): string | undefined {
  const script = `const b = await import(${JSON.stringify(pathToFileURL(join(repo, "generators/cli/build.mjs")).href)}); process.stdout.write((await b.staleness()) ?? "");`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`checking the compiled CLI failed: ${child.stderr}`);
  return child.stdout === "" ? undefined : child.stdout;
}

export function generationArea(options: GenerationOptions): GenerationResult {
  const work = mkdtempSync(join(tmpdir(), "agent-contracts-gen-"));
  const repo = join(work, "repo");
  try {
    mkdirSync(repo);
    // property-tests/: generation reads data from it (vectors, the JSON-Schema-Test-Suite, the IDNA table).
    // releases.json and releases/: the changelogs generate writes are drawn from them.
    for (const entry of ["spec", "generators", "generated", "bin", "dist", "property-tests", "package.json", "package-lock.json", "tsconfig.json", "releases.json", "releases"]) {
      if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(repo, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"), "dir");
    const cli = ["bin/agent-contracts.mjs", "generate"];
    const envWith = (tmp: string): NodeJS.ProcessEnv => ({ ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp });
    const bundle = join(repo, "dist/cli/agent-contracts.mjs");
    // The first rows time what `make generate` runs: bin/ with the compiled CLI current (make
    // builds it first). A stale or missing bundle would send bin/ through tsx instead.
    const bundleState = compiledCliState(repo);
    if (bundleState !== undefined) throw new Error(`the compiled CLI is not current (${bundleState}): run make cli before the generation bench`);

    const cold: Timed[] = [];
    // After each cold run, its files deleted and created again as it did, and nothing else: what
    // the file system charges for them (ext4 here: its inode allocator searches past recently
    // deleted inodes, which every cold run's set-up leaves in these folders).
    const floors: Floor[] = [];
    let warmTmp = "";
    for (let i = 0; i < options.coldRuns; i++) {
      removeOutputs(repo);
      warmTmp = join(work, `tmp-${i}`);
      mkdirSync(warmTmp);
      const r = run(repo, cli, envWith(warmTmp));
      if (!/written/.test(r.stdout)) throw new Error(`the cold run wrote nothing: ${r.stdout}`);
      cold.push(r);
      floors.push(writeFloor(repo, envWith(warmTmp)));
    }
    // The same cold run through the compiled CLI's main(), as an installed package runs generate.
    const bundled: Timed[] = [];
    for (let i = 0; i < options.coldRuns; i++) {
      removeOutputs(repo);
      const r = run(repo, ["--input-type=module", "-e", `const cli = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.exitCode = await cli.main(["generate"]);`], envWith(warmTmp));
      if (!/written/.test(r.stdout)) throw new Error(`the cold run of the compiled CLI wrote nothing: ${r.stdout}`);
      bundled.push(r);
    }
    // bin/ without a compiled CLI (dist/ set aside): the generator's TypeScript through tsx, each
    // run with an empty tsx cache; what editing a generator source costs until make cli runs.
    const fromSources: Timed[] = [];
    renameSync(join(repo, "dist"), join(work, "dist-aside"));
    try {
      for (let i = 0; i < options.coldRuns; i++) {
        removeOutputs(repo);
        const tmp = join(work, `tmp-tsx-${i}`);
        mkdirSync(tmp);
        const r = run(repo, cli, envWith(tmp));
        if (!/written/.test(r.stdout)) throw new Error(`the cold run through tsx wrote nothing: ${r.stdout}`);
        fromSources.push(r);
      }
    } finally {
      renameSync(join(work, "dist-aside"), join(repo, "dist"));
    }
    const noopRun = (): Timed => {
      const r = run(repo, cli, envWith(warmTmp));
      if (!/up to date|^0 file\(s\) written, 0 removed/.test(r.stdout)) throw new Error(`the no-op run wrote files: ${r.stdout}`);
      return r;
    };
    // Right after the cold runs: the files they wrote are too recent for the no-op check's stat
    // cache (generators/write/stat-cache.mjs records a file only two seconds after it changed), so
    // every output is read and hashed again.
    const noop: Timed[] = Array.from({ length: options.noopRuns }, noopRun);
    // Later, as a `make` with nothing to do usually runs: once the outputs are older than that, one
    // no-op records them, and the next ones find every file by its stat.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
    noopRun();
    const noopLater: Timed[] = Array.from({ length: options.noopRuns }, noopRun);
    // Floors: node itself, and the CLI's start-up (the compiled CLI) doing no work.
    const nodeOnly = [0, 1].map(() => run(repo, ["-e", "0"], envWith(warmTmp)));
    const help = [0, 1].map(() => run(repo, ["bin/agent-contracts.mjs", "--help"], envWith(warmTmp)));
    const phases = JSON.parse(run(repo, ["--import", "tsx", join(ROOT, "property-tests/bench/generation-phases.ts"), repo], envWith(warmTmp)).stdout) as Record<string, number>;
    if (options.profileDir !== undefined) {
      mkdirSync(options.profileDir, { recursive: true });
      run(repo, ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`, ...cli], envWith(warmTmp));
    }

    const wall = (runs: Timed[]): number[] => runs.map((r) => r.seconds);
    const cpu = (runs: readonly { cpuSeconds: number }[]): number[] => runs.map((r) => r.cpuSeconds);
    const sys = (runs: readonly { sysSeconds: number }[]): string => fmt(runs.map((r) => r.sysSeconds));
    // The goals (issue 20) are on CPU time, which a loaded shared machine distorts far less than
    // the wall clock; the wall-clock verdict is shown beside it.
    const coldVerdict = absoluteVerdict(cpu(cold), COLD_GOAL_S, "lower");
    const noopVerdict = absoluteVerdict(cpu(noop), NOOP_GOAL_S, "lower");
    const noopLaterVerdict = absoluteVerdict(cpu(noopLater), NOOP_GOAL_S, "lower");
    const bundledVerdict = absoluteVerdict(cpu(bundled), COLD_GOAL_S, "lower");
    const mark = (v: Verdict): string => (v === "met" ? "met" : v === "missed" ? "**MISSED**" : "borderline");
    const goalCell = (runs: Timed[], goal: number, v: Verdict): string => `≤ ${goal} s CPU: ${mark(v)} (on the wall clock: ${mark(absoluteVerdict(wall(runs), goal, "lower"))})`;
    const table = markdownTable(
      ["run", "wall time, median (min–max)", "CPU time, user+sys (min–max)", "of which sys (kernel)", "goal"],
      [
        [`cold, as \`make generate\` runs it: no generated outputs but the TS runtime; bin/agent-contracts.mjs with the compiled CLI current (${cold.length} runs)`, fmt(wall(cold)), fmt(cpu(cold)), sys(cold), goalCell(cold, COLD_GOAL_S, coldVerdict)],
        [`cold, the compiled CLI's main() as an installed package runs it (${bundled.length} runs)`, fmt(wall(bundled)), fmt(cpu(bundled)), sys(bundled), goalCell(bundled, COLD_GOAL_S, bundledVerdict)],
        [`cold, bin/agent-contracts.mjs with no compiled CLI: the generator's TypeScript through tsx, empty tsx cache (${fromSources.length} runs)`, fmt(wall(fromSources)), fmt(cpu(fromSources)), sys(fromSources), "— (taken only after a generator source changed and before make cli)"],
        [`floor: creating the cold run's ${floors[0]?.files ?? 0} files and nothing else (write-floor.ts: deleted and created again in place, after each cold run)`, "—", fmt(cpu(floors)), sys(floors), "—"],
        [`no-op regeneration right after the cold runs: every output written in the last 2 s is read and hashed again (${noop.length} runs)`, fmt(wall(noop)), fmt(cpu(noop)), sys(noop), goalCell(noop, NOOP_GOAL_S, noopVerdict)],
        [`no-op regeneration 2 s or more after the last write, once one no-op recorded the outputs: every file known by its stat (${noopLater.length} runs)`, fmt(wall(noopLater)), fmt(cpu(noopLater)), sys(noopLater), goalCell(noopLater, NOOP_GOAL_S, noopLaterVerdict)],
        ["floor: `node -e 0`", fmt(wall(nodeOnly)), fmt(cpu(nodeOnly)), sys(nodeOnly), "—"],
        ["floor: CLI start-up only (`agent-contracts --help`: the compiled CLI)", fmt(wall(help)), fmt(cpu(help)), sys(help), "—"],
      ],
    );
    const phaseRows = Object.entries(phases).map(([name, seconds]) => [name, `${seconds.toFixed(2)} s`]);
    const phaseTable = markdownTable(["phase of a full regeneration (in process, one run, warm tsx cache)", "time"], phaseRows);
    const markdown =
      `### Generation\n\n${table}\n\n` +
      `\`node bin/agent-contracts.mjs generate\` in a temporary copy of the repository (node_modules linked). In a checkout, bin/ runs the compiled CLI when it was built from the sources as they are (make generate builds it first), so the first row is what \`make generate\` costs; the second row calls the compiled CLI's \`main([\"generate\"])\` directly, as an installed package does; the third sets dist/ aside, so bin/ runs the generator's TypeScript through tsx, transpiling every module (an empty tsx cache). ` +
      `A no-op run must write nothing. It hashes every input and output as the manifest recorded them, reusing the hash of a file whose size, times and inode are what they were when it was hashed, and never for a file changed in the two seconds before (generators/write/stat-cache.mjs, git's rule for its index); hence the two no-op rows. The phases below are what a run costs when an input did change (and what the no-op skips).\n\n${phaseTable}\n`;
    return {
      markdown,
      verdicts: [
        { row: "generate, cold", goal: `≤ ${COLD_GOAL_S} s CPU`, verdict: coldVerdict },
        { row: "generate, cold, compiled CLI", goal: `≤ ${COLD_GOAL_S} s CPU`, verdict: bundledVerdict },
        { row: "generate, no-op right after a generation", goal: `≤ ${NOOP_GOAL_S} s CPU`, verdict: noopVerdict },
        { row: "generate, no-op", goal: `≤ ${NOOP_GOAL_S} s CPU`, verdict: noopLaterVerdict },
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
