// `make bench`: every area side by side with its anchors, printed as markdown and written to
// docs-site/bench/latest.md. A measurement, never a test: it exits 0 whether goals are met or not
// (a failed sanity check, e.g. implementations disagreeing on an input, still exits 1).
//
//   node --expose-gc --import tsx property-tests/bench/run.ts [--only a,b] [--out file | --no-write] [--profile-dir dir]
//   BENCH_ROUNDS=5 BENCH_TIME_MS=500 ... for a longer, steadier run.
// The Kotlin, Swift and Rust areas (native.ts) write their own pages, docs-site/bench/{kotlin,swift,rust}.md,
// so `--only kotlin` leaves the TypeScript results in latest.md alone; the docs show all four.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { canonicalizationArea } from "./canonicalization.js";
import { ROOT } from "./fixtures.js";
import { generationArea } from "./generation.js";
import { optionsFromEnv } from "./measure.js";
import { parseArea } from "./parse.js";
import { fleetArea } from "./fleet.js";
import { replayArea, replayMemory } from "./replay.js";
import { startupArea } from "./startup.js";
import { renderArea, type AreaTable, type RenderedArea, type Verdict } from "./table.js";
import { verifyArea } from "./verify.js";
import { NATIVE_AREAS, nativeArea, nativeHeader, type NativeArea } from "./native.js";

const AREAS = ["validation", "canonicalization", "parse", "verify", "replay", "fleet", "generation", "docs", "startup", "sizes", ...NATIVE_AREAS] as const;
type Area = (typeof AREAS)[number];

function parseArgs(argv: readonly string[]): { only: Set<Area>; out: string | null; profileDir?: string } {
  let only = new Set<Area>(AREAS);
  let out: string | null = join(ROOT, "docs-site/bench/latest.md");
  let profileDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--only") {
      const names = (argv[++i] ?? "").split(",").filter(Boolean);
      for (const n of names) if (!(AREAS as readonly string[]).includes(n)) throw new Error(`unknown area ${n}; areas: ${AREAS.join(", ")}`);
      only = new Set(names as Area[]);
    } else if (arg === "--out") out = argv[++i] ?? out;
    else if (arg === "--no-write") out = null;
    else if (arg === "--profile-dir") profileDir = argv[++i];
    else throw new Error(`unknown argument ${arg}`);
  }
  return { only, out, profileDir };
}

async function main(): Promise<void> {
  const { only, out, profileDir } = parseArgs(process.argv.slice(2));
  const options = optionsFromEnv();
  const started = new Date();
  const loadBefore = loadavg();
  const sections: string[] = [];
  const summary: { area: string; row: string; goal: string; verdict: Verdict }[] = [];
  const emit = (markdown: string): void => {
    process.stdout.write(`${markdown}\n`);
    sections.push(markdown);
  };
  const table = async (name: Area, build: () => Promise<AreaTable>): Promise<void> => {
    if (!only.has(name)) return;
    const t0 = performance.now();
    const area = await build();
    const rendered: RenderedArea = renderArea(area);
    emit(`${rendered.markdown}\n_${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s of benchmarking._\n`);
    for (const v of rendered.verdicts) summary.push({ area: area.title, row: v.row, goal: v.goal, verdict: v.verdict });
  };

  await table("validation", () => validationAreaLazy(options));
  await table("canonicalization", () => canonicalizationArea(options));
  await table("parse", () => parseArea(options));
  await table("verify", () => verifyArea(options));
  await table("replay", () => replayArea(options));
  if (only.has("replay")) {
    const memory = await replayMemory();
    emit(memory.markdown);
    summary.push({ area: "Replay guard memory", row: "1M live records", goal: "≤ 120 B per record", verdict: memory.verdict });
  }
  if (only.has("fleet")) {
    const fleet = await fleetArea();
    emit(fleet.markdown);
    for (const v of fleet.verdicts) summary.push({ area: "Fleet stores", ...v });
  }
  if (only.has("generation")) {
    const generation = generationArea({ coldRuns: 4, noopRuns: 5, profileDir });
    emit(generation.markdown);
    for (const v of generation.verdicts) summary.push({ area: "Generation", ...v });
  }

  if (only.has("docs")) {
    const { docsBuildArea } = await import("./docs-build.js");
    const docs = docsBuildArea();
    emit(docs.markdown);
    for (const v of docs.verdicts) summary.push({ area: "Docs site", ...v });
  }

  if (only.has("startup")) {
    const startup = startupArea();
    emit(startup.markdown);
    for (const v of startup.verdicts) summary.push({ area: "CLI start-up", ...v });
  }

  if (only.has("sizes")) {
    const { bundleSizesArea } = await import("./bundle-sizes.js");
    const sizes = await bundleSizesArea();
    emit(sizes.markdown);
    for (const v of sizes.verdicts) summary.push({ area: "Bundle sizes", ...v });
  }

  const tsRan = summary.length > 0 || sections.length > 0;
  const nativeDone: NativeArea[] = [];
  for (const name of NATIVE_AREAS) {
    if (!only.has(name)) continue;
    const t0 = performance.now();
    const area = await nativeArea(name, options);
    area.markdown += `\n_${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s, build included._\n\n${goalsMarkdown(area.verdicts)}`;
    process.stdout.write(`${area.markdown}\n`);
    nativeDone.push(area);
  }

  const loadAfter = loadavg();
  if (tsRan) emit(goalsMarkdown(summary));

  const cpu = cpus();
  const header =
    `# Benchmarks\n\n` +
    `Written by \`make bench\` (property-tests/bench/run.ts) on ${started.toISOString()}. ` +
    `Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}; load average ${loadBefore[0]?.toFixed(2)} at the start, ${loadAfter[0]?.toFixed(2)} at the end. ` +
    `Each cell is the median of ${options.rounds} rounds of ${options.timeMs} ms (tinybench, batched calls) ± half the spread between rounds, timed on ${options.clock === "cpu" ? "this process's CPU time (process.cpuUsage; a shared machine distorts it far less than the wall clock) except where a table says otherwise" : "the wall clock"}; ` +
    `every ratio is formed round by round from measurements taken back to back, then the median (min–max) is shown. ` +
    `"Speed ÷ anchor" above 1 means ours is faster; "time ÷ anchor" above 1 means ours is slower. ` +
    `A goal is borderline when the rounds fall on both sides of it. ` +
    `Ratios move more between runs than within one (each process's JIT makes its own inlining decisions; identical code, the generated schema function and ajv's, has measured 0.63–1.18× of itself across runs): ` +
    `compare several runs before acting on a difference under ~20%.\n`;
  for (const area of nativeDone) {
    if (out === null || !area.measured) continue;
    mkdirSync(dirname(out), { recursive: true });
    const page = join(dirname(out), `${area.name}.md`);
    // Like limits.md for TypeScript: the written reasons behind the misses, kept by hand.
    const limitsPath = join(ROOT, `property-tests/bench/limits-${area.name}.md`);
    const limits = existsSync(limitsPath) ? `\n${readFileSync(limitsPath, "utf8")}` : "";
    writeFileSync(page, `${nativeHeader(area, started, loadBefore[0], loadAfter[0])}\n${area.markdown}${limits}`);
    process.stdout.write(`wrote ${page}\n`);
  }
  if (out !== null && tsRan) {
    mkdirSync(dirname(out), { recursive: true });
    // The profiles behind the misses are analysis, not measurement: kept by hand beside the bench.
    const limits = readFileSync(join(ROOT, "property-tests/bench/limits.md"), "utf8");
    writeFileSync(out, [header, ...sections, limits].join("\n"));
    process.stdout.write(`wrote ${out}\n`);
  }
}

function goalsMarkdown(summary: readonly { area: string; row: string; goal: string; verdict: Verdict }[]): string {
  const missed = summary.filter((s) => s.verdict !== "met");
  return (
    `### Goals\n\n${summary.filter((s) => s.verdict === "met").length} of ${summary.length} goal checks met.` +
    (missed.length === 0 ? "\n" : `\n\n${missed.map((s) => `- ${s.verdict === "missed" ? "**missed**" : "borderline"}: ${s.area}, ${s.row}: ${s.goal}`).join("\n")}\n`)
  );
}

// Validation loads the spec model (YAML, checks) only when its area runs.
async function validationAreaLazy(options: ReturnType<typeof optionsFromEnv>): Promise<AreaTable> {
  const { validationArea } = await import("./validation.js");
  return validationArea(options);
}

await main();
