// The benchmark's arithmetic and its markdown: per-round ratios against anchors measured in the
// same run, medians and spreads across rounds, goal verdicts. No timing happens here, so all of
// it is unit-tested (table.test.ts).

/** One implementation measured in one case: its throughput in each round (ops/s). */
export interface Series {
  impl: string;
  opsPerSec: number[];
}

/**
 * How a goal compares ours with an anchor. `speedup` is ours ops/s ÷ anchor ops/s (bigger is
 * better for ours); `slowdown` is ours time ÷ anchor time, i.e. anchor ops/s ÷ ours ops/s
 * (smaller is better for ours).
 */
export type RatioKind = "speedup" | "slowdown";

export interface RatioColumn {
  /** Implementation compared; the area's `ours` when absent. */
  subject?: string;
  anchor: string;
  kind: RatioKind;
  /** Goal on the median ratio: speedup must be >= it, slowdown <= it. */
  goal?: number;
}

export interface CaseRow {
  label: string;
  series: Series[];
  /** Absolute throughput goals on this row, e.g. >= 1M check-and-record per second. */
  throughputGoals?: { impl: string; atLeastOpsPerSec: number }[];
  /** A goal on this row in place of its ratio column's, by anchor (one message may do more work). */
  ratioGoals?: Record<string, number>;
}

export interface AreaTable {
  title: string;
  /** The implementation every ratio is about. */
  ours: string;
  /** Implementations shown as ops/s columns, in order (ours first is usual). */
  impls: string[];
  ratios: RatioColumn[];
  rows: CaseRow[];
  notes?: string[];
}

export type Verdict = "met" | "missed" | "borderline";

export interface RatioStat {
  median: number;
  min: number;
  max: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Spread across rounds as ± half the min–max range, in percent of the median. */
/** Throughput of doing both operations once each, round by round: 1 / (time of one + time of the other). */
export function sumOfTimes(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`sumOfTimes: ${a.length} rounds against ${b.length}`);
  return a.map((opsA, i) => 1 / (1 / opsA + 1 / b[i]!));
}

export function spreadPercent(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = median(values);
  return m === 0 ? 0 : (50 * (Math.max(...values) - Math.min(...values))) / m;
}

/** Ratios are formed round by round (ours and anchor ran back to back), then summarised. */
export function ratioStat(ours: readonly number[], anchor: readonly number[], kind: RatioKind): RatioStat {
  if (ours.length !== anchor.length || ours.length === 0) throw new Error("ratio needs the same, non-zero number of rounds");
  const per = ours.map((o, i) => {
    const a = anchor[i] as number;
    if (!(o > 0) || !(a > 0)) throw new Error("ratio needs positive throughputs");
    return kind === "speedup" ? o / a : a / o;
  });
  return { median: median(per), min: Math.min(...per), max: Math.max(...per) };
}

/** Met or missed by the median; borderline when the rounds fall on both sides of the goal. */
export function verdict(stat: RatioStat, kind: RatioKind, goal: number): Verdict {
  const ok = (x: number): boolean => (kind === "speedup" ? x >= goal : x <= goal);
  const medianOk = ok(stat.median);
  if (ok(stat.min) === ok(stat.max)) return medianOk ? "met" : "missed";
  return "borderline";
}

/** Goal on an absolute measurement (seconds, entries/s): lower-is-better or higher-is-better. */
export function absoluteVerdict(values: readonly number[], goal: number, better: "lower" | "higher"): Verdict {
  const ok = (x: number): boolean => (better === "lower" ? x <= goal : x >= goal);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (ok(lo) === ok(hi)) return ok(median(values)) ? "met" : "missed";
  return "borderline";
}

/** 3 significant digits with k/M suffixes: 1234567 -> "1.23M". */
export function formatOps(ops: number): string {
  if (!Number.isFinite(ops)) return String(ops);
  const abs = Math.abs(ops);
  if (abs >= 1e9) return `${(ops / 1e9).toPrecision(3)}G`;
  if (abs >= 1e6) return `${(ops / 1e6).toPrecision(3)}M`;
  if (abs >= 1e3) return `${(ops / 1e3).toPrecision(3)}k`;
  return ops.toPrecision(3);
}

/** Time per operation with a fitting unit: 1.5e-6 s -> "1.50 µs". */
export function formatTime(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs >= 1) return `${seconds.toPrecision(3)} s`;
  if (abs >= 1e-3) return `${(seconds * 1e3).toPrecision(3)} ms`;
  if (abs >= 1e-6) return `${(seconds * 1e6).toPrecision(3)} µs`;
  return `${(seconds * 1e9).toPrecision(3)} ns`;
}

export function formatRatio(stat: RatioStat): string {
  const f = (x: number): string => x.toFixed(2);
  return stat.min === stat.max ? `${f(stat.median)}×` : `${f(stat.median)}× (${f(stat.min)}–${f(stat.max)})`;
}

function verdictMark(v: Verdict): string {
  return v === "met" ? "met" : v === "missed" ? "**MISSED**" : "borderline";
}

function goalText(kind: RatioKind, goal: number): string {
  return kind === "speedup" ? `≥ ${goal}×` : `≤ ${goal}×`;
}

function ratioHeader(column: RatioColumn): string {
  const subject = column.subject ?? "ours";
  return column.kind === "speedup" ? `${subject} speed ÷ ${column.anchor}` : `${subject} time ÷ ${column.anchor}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  for (const row of rows) if (row.length !== header.length) throw new Error(`row has ${row.length} cells, header ${header.length}`);
  const line = (cells: readonly string[]): string => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export interface RenderedArea {
  markdown: string;
  /** Every goal verdict in the table, for the summary. */
  verdicts: { row: string; goal: string; verdict: Verdict; ratio: RatioStat }[];
}

/**
 * One table: a row per case; an ops/s column per implementation (median of the rounds, ± spread,
 * and time per op); a ratio column per anchor; a goal column when any ratio has a goal.
 */
export function renderArea(area: AreaTable): RenderedArea {
  const withGoals = [...area.ratios.filter((r) => r.goal !== undefined), ...area.rows.flatMap((r) => [...(r.throughputGoals ?? []), ...Object.keys(r.ratioGoals ?? {})])];
  const header = [
    "case",
    ...area.impls.map((impl) => `${impl} ops/s (time/op)`),
    ...area.ratios.map((r) => ratioHeader(r)),
    ...(withGoals.length > 0 ? ["goal"] : []),
  ];
  const verdicts: RenderedArea["verdicts"] = [];
  const rows = area.rows.map((row) => {
    const byImpl = new Map(row.series.map((s) => [s.impl, s.opsPerSec]));
    const cells = [row.label];
    for (const impl of area.impls) {
      const ops = byImpl.get(impl);
      if (ops === undefined) {
        cells.push("—");
        continue;
      }
      const m = median(ops);
      cells.push(`${formatOps(m)} ±${spreadPercent(ops).toFixed(0)}% (${formatTime(1 / m)})`);
    }
    const goalCells: string[] = [];
    for (const column of area.ratios) {
      const anchor = byImpl.get(column.anchor);
      const ours = byImpl.get(column.subject ?? area.ours);
      if (ours === undefined || anchor === undefined) {
        cells.push("—");
        continue;
      }
      const stat = ratioStat(ours, anchor, column.kind);
      cells.push(formatRatio(stat));
      // A row's goal replaces the goal of its column against that anchor; a column without a goal
      // (another subject against the same anchor) stays without one.
      const goalValue = column.goal === undefined ? undefined : (row.ratioGoals?.[column.anchor] ?? column.goal);
      if (goalValue !== undefined) {
        const v = verdict(stat, column.kind, goalValue);
        const goal = `${goalText(column.kind, goalValue)} ${column.anchor}`;
        verdicts.push({ row: row.label, goal, verdict: v, ratio: stat });
        goalCells.push(`${goal}: ${verdictMark(v)}`);
      }
    }
    for (const goal of row.throughputGoals ?? []) {
      const ops = byImpl.get(goal.impl);
      if (ops === undefined) throw new Error(`goal names ${goal.impl}, which ${row.label} did not measure`);
      const v = absoluteVerdict(ops, goal.atLeastOpsPerSec, "higher");
      const text = `${goal.impl} ≥ ${formatOps(goal.atLeastOpsPerSec)}/s`;
      const m = median(ops);
      verdicts.push({ row: row.label, goal: text, verdict: v, ratio: { median: m / goal.atLeastOpsPerSec, min: Math.min(...ops) / goal.atLeastOpsPerSec, max: Math.max(...ops) / goal.atLeastOpsPerSec } });
      goalCells.push(`${text}: ${verdictMark(v)}`);
    }
    if (withGoals.length > 0) cells.push(goalCells.join("; ") || "—");
    return cells;
  });
  const notes = (area.notes ?? []).map((n) => `\n${n}\n`).join("");
  return { markdown: `### ${area.title}\n\n${markdownTable(header, rows)}\n${notes}`, verdicts };
}
