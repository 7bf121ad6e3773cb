// The Kotlin, Swift and Rust areas of `make bench`: each builds its own bench project, runs it over
// the TypeScript bench's inputs and returns tables rendered like the TypeScript ones. Their pages,
// docs-site/bench/{kotlin,swift,rust}.md, sit beside latest.md on the docs' performance page.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { kotlinTables, runKotlinBench } from "./kotlin.js";
import type { MeasureOptions } from "./measure.js";
import { runRustBench, rustTables } from "./rust.js";
import { runSwiftBench, swiftTables } from "./swift.js";
import { renderArea, type AreaTable, type Verdict } from "./table.js";

export const NATIVE_AREAS = ["kotlin", "swift", "rust"] as const;
export type NativeAreaName = (typeof NATIVE_AREAS)[number];

export interface NativeArea {
  name: NativeAreaName;
  /** False when the toolchain is missing and the area printed why instead of measuring. */
  measured: boolean;
  markdown: string;
  verdicts: { area: string; row: string; goal: string; verdict: Verdict }[];
  toolchain: string;
}

function render(name: NativeAreaName, tables: AreaTable[], toolchain: string): NativeArea {
  const verdicts: NativeArea["verdicts"] = [];
  const parts: string[] = [];
  for (const table of tables) {
    const rendered = renderArea(table);
    parts.push(rendered.markdown);
    for (const v of rendered.verdicts) verdicts.push({ area: table.title, row: v.row, goal: v.goal, verdict: v.verdict });
  }
  return { name, measured: true, markdown: parts.join("\n"), verdicts, toolchain };
}

/** The first line a tool prints about its version (java prints it on stderr). */
function version(command: string, args: string[]): string {
  const run = spawnSync(command, args, { encoding: "utf8" });
  return `${run.stdout ?? ""}\n${run.stderr ?? ""}`.split("\n").find((line) => line.trim() !== "")?.trim() ?? command;
}

export async function nativeArea(name: NativeAreaName, options: MeasureOptions): Promise<NativeArea> {
  if (name === "kotlin") {
    return render(name, kotlinTables(runKotlinBench(options)), `${version("java", ["-version"])} (one JVM, C2, CPU time, subjects interleaved)`);
  }
  if (name === "rust") {
    const rust = runRustBench(options);
    if (rust.skipped !== undefined) return { name, measured: false, markdown: `### Rust\n\nNot measured: ${rust.skipped}\n`, verdicts: [], toolchain: "none" };
    return render(name, rustTables(rust.results), rust.toolchain);
  }
  const run = runSwiftBench(options);
  if (run.skipped !== undefined) return { name, measured: false, markdown: `### Swift\n\nNot measured: ${run.skipped}\n`, verdicts: [], toolchain: "none" };
  return render(name, swiftTables(run.results), run.toolchain);
}

export function nativeHeader(area: NativeArea, started: Date, loadStart: number | undefined, loadEnd: number | undefined): string {
  const cpu = cpus();
  const language = { kotlin: "Kotlin", swift: "Swift", rust: "Rust" }[area.name];
  return (
    `# ${language} benchmarks\n\n` +
    `Written by \`make bench\` (property-tests/bench/run.ts --only ${area.name}) on ${started.toISOString()}: the generated ${language} bindings on the same inputs as the TypeScript tables ` +
    `(property-tests/bench/fixtures.ts, written out by native-inputs.ts), against ${language}'s own anchors. ${area.toolchain}; ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}; ` +
    `load average ${loadStart?.toFixed(2)} at the start, ${loadEnd?.toFixed(2)} at the end. Cells and ratios read as in the TypeScript tables: median of the rounds ± half their spread; ` +
    `a ratio is formed round by round, then its median (min–max) is shown; a goal is borderline when the rounds fall on both sides of it.\n`
  );
}
