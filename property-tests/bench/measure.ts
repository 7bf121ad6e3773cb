// Runs the implementations of one case side by side with tinybench, in several short rounds, so
// every ratio is formed from numbers taken seconds apart on the same (shared, noisy) machine.
import { Bench } from "tinybench";
import type { Series } from "./table.js";

export interface Subject {
  impl: string;
  /** Returns a promise for asynchronous work (then every call is awaited, batch by batch). */
  fn: () => unknown;
  async?: boolean;
}

export interface MeasureOptions {
  rounds: number;
  /** Measured time per subject per round, ms. */
  timeMs: number;
  warmupMs: number;
  /**
   * `cpu`: time is this process's CPU time (process.cpuUsage, all its threads, so GC helpers
   * count), which a busy shared machine distorts far less than the wall clock, since time spent
   * descheduled is not counted. `wall`: performance.now(), required when the work waits on I/O
   * (an fsync) that CPU time would not see.
   */
  clock?: "cpu" | "wall";
  /** Called before each round (and before calibration), e.g. to start from an empty store. */
  beforeRound?: () => void;
}

export const DEFAULT_OPTIONS: MeasureOptions = { rounds: 5, timeMs: 100, warmupMs: 30, clock: "cpu" };

/** Options from BENCH_ROUNDS / BENCH_TIME_MS, for a longer run on a quiet machine. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): MeasureOptions {
  const rounds = Number(env["BENCH_ROUNDS"] ?? DEFAULT_OPTIONS.rounds);
  const timeMs = Number(env["BENCH_TIME_MS"] ?? DEFAULT_OPTIONS.timeMs);
  return {
    rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : DEFAULT_OPTIONS.rounds,
    timeMs: timeMs > 0 ? timeMs : DEFAULT_OPTIONS.timeMs,
    warmupMs: DEFAULT_OPTIONS.warmupMs,
    clock: env["BENCH_CLOCK"] === "wall" ? "wall" : "cpu",
  };
}

/** Milliseconds of CPU time used by this process so far. */
export function cpuNowMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Sink so the optimiser cannot drop a call whose result is unused. */
export let sink: unknown;

/**
 * Calls per tinybench sample, so one sample lasts ~100 µs: tinybench times every call with
 * performance.now(), whose own cost (~30-60 ns) would otherwise distort sub-microsecond work.
 */
async function batchSize(fn: () => unknown, isAsync: boolean): Promise<number> {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 5) {
    sink = isAsync ? await fn() : fn();
    calls++;
    elapsed = performance.now() - start;
  }
  const perCallMs = elapsed / calls;
  // ~100 µs per sample also keeps the cost of reading the CPU clock (a syscall, ~1 µs) near 1%.
  return Math.max(1, Math.min(20_000, Math.round(0.1 / perCallMs)));
}

function batched(fn: () => unknown, n: number, isAsync: boolean): () => unknown {
  if (isAsync) {
    return async () => {
      let last: unknown;
      for (let i = 0; i < n; i++) last = await fn();
      return last;
    };
  }
  if (n === 1) return fn;
  // A fresh closure per subject keeps each call site monomorphic.
  return () => {
    let last: unknown;
    for (let i = 0; i < n; i++) last = fn();
    return last;
  };
}

/** ops/s of each subject in each round; subjects run in a rotated order each round. */
export async function measure(subjects: readonly Subject[], options: MeasureOptions): Promise<Series[]> {
  options.beforeRound?.();
  const batches: number[] = [];
  for (const s of subjects) batches.push(await batchSize(s.fn, s.async === true));
  const series: Series[] = subjects.map((s) => ({ impl: s.impl, opsPerSec: [] }));
  for (let round = 0; round < options.rounds; round++) {
    options.beforeRound?.();
    const bench = new Bench({
      time: options.timeMs,
      // A longer first warm-up lets the optimising compiler settle before anything is recorded.
      warmupTime: round === 0 ? Math.max(options.warmupMs, 100) : options.warmupMs,
      iterations: 8,
      warmupIterations: 4,
      throws: true,
      ...(options.clock === "cpu" ? { now: cpuNowMs } : {}),
    });
    const order = subjects.map((_, i) => (i + round) % subjects.length);
    for (const i of order) bench.add(String(i), batched((subjects[i] as Subject).fn, batches[i] as number, (subjects[i] as Subject).async === true));
    await bench.run();
    for (const task of bench.tasks) {
      const i = Number(task.name);
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${(subjects[i] as Subject).impl}: tinybench task ${result.state}`);
      (series[i] as Series).opsPerSec.push(((batches[i] as number) * 1000) / result.latency.mean);
    }
  }
  return series;
}
