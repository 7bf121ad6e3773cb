// The benchmark's arithmetic and table rendering (no timing here: timings are never asserted).
import { describe, expect, it } from "vitest";
import {
  absoluteVerdict,
  sumOfTimes,
  formatOps,
  formatRatio,
  formatTime,
  markdownTable,
  median,
  ratioStat,
  renderArea,
  spreadPercent,
  verdict,
  type AreaTable,
} from "./table.js";

describe("median and spread", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });
  it("reports half the min-max range as a percentage of the median", () => {
    expect(spreadPercent([90, 100, 110])).toBeCloseTo(10);
    expect(spreadPercent([100])).toBe(0);
  });
});

describe("ratios are formed round by round", () => {
  it("speedup is ours ÷ anchor throughput; slowdown is its inverse (time ÷ time)", () => {
    expect(ratioStat([200, 300, 400], [100, 100, 100], "speedup")).toEqual({ median: 3, min: 2, max: 4 });
    expect(ratioStat([100, 100, 100], [200, 300, 400], "slowdown")).toEqual({ median: 3, min: 2, max: 4 });
  });
  it("pairs each round with the same round, not medians with medians", () => {
    // Medians would give 1.0; round by round ours is twice as fast every time.
    expect(ratioStat([10, 40, 160], [5, 20, 80], "speedup")).toEqual({ median: 2, min: 2, max: 2 });
  });
  it("refuses mismatched rounds and non-positive throughputs", () => {
    expect(() => ratioStat([1, 2], [1], "speedup")).toThrow();
    expect(() => ratioStat([0], [1], "speedup")).toThrow();
  });
});

describe("verdicts", () => {
  it("speedup goals are minimums, slowdown goals maximums", () => {
    expect(verdict({ median: 1.6, min: 1.55, max: 1.7 }, "speedup", 1.5)).toBe("met");
    expect(verdict({ median: 1.2, min: 1.1, max: 1.3 }, "speedup", 1.5)).toBe("missed");
    expect(verdict({ median: 1.2, min: 1.1, max: 1.25 }, "slowdown", 1.3)).toBe("met");
    expect(verdict({ median: 3.7, min: 3.6, max: 3.9 }, "slowdown", 1.3)).toBe("missed");
  });
  it("is borderline when the rounds fall on both sides of the goal", () => {
    expect(verdict({ median: 1.02, min: 0.97, max: 1.05 }, "speedup", 1.0)).toBe("borderline");
    expect(verdict({ median: 1.0, min: 1.0, max: 1.0 }, "speedup", 1.0)).toBe("met");
  });
  it("absolute goals: seconds are lower-is-better, throughput higher-is-better", () => {
    expect(absoluteVerdict([3.4, 3.6], 5, "lower")).toBe("met");
    expect(absoluteVerdict([0.4, 0.6], 0.5, "lower")).toBe("borderline");
    expect(absoluteVerdict([7000, 8000], 20_000, "higher")).toBe("missed");
  });
});

describe("formatting", () => {
  it("formats throughput with 3 significant digits and k/M suffixes", () => {
    expect(formatOps(1_234_567)).toBe("1.23M");
    expect(formatOps(94_400)).toBe("94.4k");
    expect(formatOps(49.6)).toBe("49.6");
  });
  it("formats time per op with a fitting unit", () => {
    expect(formatTime(2.5)).toBe("2.50 s");
    expect(formatTime(0.0201)).toBe("20.1 ms");
    expect(formatTime(1 / 2_390_000)).toBe("418 ns");
    expect(formatTime(8.09e-6)).toBe("8.09 µs");
  });
  it("shows the median and the round range of a ratio", () => {
    expect(formatRatio({ median: 1.024, min: 1.01, max: 1.03 })).toBe("1.02× (1.01–1.03)");
    expect(formatRatio({ median: 2, min: 2, max: 2 })).toBe("2.00×");
  });
  it("writes a markdown table, escaping pipes, and refuses ragged rows", () => {
    expect(markdownTable(["a", "b"], [["x|y", "z"]])).toBe("| a | b |\n| --- | --- |\n| x\\|y | z |");
    expect(() => markdownTable(["a", "b"], [["only one"]])).toThrow();
  });
});

describe("renderArea", () => {
  const area: AreaTable = {
    title: "Canonicalization",
    ours: "ours",
    impls: ["ours", "npm", "stringify"],
    ratios: [
      { anchor: "npm", kind: "speedup", goal: 1.5 },
      { anchor: "stringify", kind: "slowdown", goal: 2 },
    ],
    rows: [
      {
        label: "small",
        series: [
          { impl: "ours", opsPerSec: [400, 400, 400] },
          { impl: "npm", opsPerSec: [200, 200, 200] },
          { impl: "stringify", opsPerSec: [1000, 1000, 1000] },
        ],
      },
    ],
    notes: ["A note."],
  };

  it("has one ops/s column per implementation, one ratio column per anchor and a goal column", () => {
    const { markdown, verdicts } = renderArea(area);
    const lines = markdown.split("\n");
    expect(lines[0]).toBe("### Canonicalization");
    expect(lines[2]).toBe("| case | ours ops/s (time/op) | npm ops/s (time/op) | stringify ops/s (time/op) | ours speed ÷ npm | ours time ÷ stringify | goal |");
    expect(lines[4]).toBe("| small | 400 ±0% (2.50 ms) | 200 ±0% (5.00 ms) | 1.00k ±0% (1.00 ms) | 2.00× | 2.50× | ≥ 1.5× npm: met; ≤ 2× stringify: **MISSED** |");
    expect(markdown).toContain("\nA note.\n");
    expect(verdicts.map((v) => v.verdict)).toEqual(["met", "missed"]);
  });

  it("judges absolute throughput goals on the named implementation", () => {
    const replay: AreaTable = {
      title: "Replay",
      ours: "store",
      impls: ["store", "anchor"],
      ratios: [{ anchor: "anchor", kind: "speedup" }],
      rows: [
        {
          label: "memory",
          series: [
            { impl: "store", opsPerSec: [1.2e6, 1.3e6, 1.1e6] },
            { impl: "anchor", opsPerSec: [2e6, 2e6, 2e6] },
          ],
          throughputGoals: [{ impl: "store", atLeastOpsPerSec: 1e6 }],
        },
      ],
    };
    const { markdown, verdicts } = renderArea(replay);
    expect(markdown).toContain("| memory | 1.20M ±8% (833 ns) | 2.00M ±0% (500 ns) | 0.60× (0.55–0.65) | store ≥ 1.00M/s: met |");
    expect(verdicts).toHaveLength(1);
  });

  it("a row's own goal replaces its column's for that anchor only", () => {
    const rows = [
      { label: "plain", series: [{ impl: "ours", opsPerSec: [90, 90, 90] }, { impl: "npm", opsPerSec: [100, 100, 100] }, { impl: "stringify", opsPerSec: [100, 100, 100] }] },
      { ...{ label: "rules", series: [{ impl: "ours", opsPerSec: [90, 90, 90] }, { impl: "npm", opsPerSec: [100, 100, 100] }, { impl: "stringify", opsPerSec: [100, 100, 100] }] }, ratioGoals: { npm: 0.8 } },
    ];
    const { markdown, verdicts } = renderArea({ ...area, rows });
    // 0.9x npm misses the column's 1.5x but meets the row's 0.8x; stringify keeps its 2x goal.
    expect(markdown).toContain("| plain | 90.0 ±0% (11.1 ms) | 100 ±0% (10.0 ms) | 100 ±0% (10.0 ms) | 0.90× | 1.11× | ≥ 1.5× npm: **MISSED**; ≤ 2× stringify: met |");
    expect(markdown).toContain("| rules | 90.0 ±0% (11.1 ms) | 100 ±0% (10.0 ms) | 100 ±0% (10.0 ms) | 0.90× | 1.11× | ≥ 0.8× npm: met; ≤ 2× stringify: met |");
    expect(verdicts.map((v) => `${v.row} ${v.goal} ${v.verdict}`)).toEqual(["plain ≥ 1.5× npm missed", "plain ≤ 2× stringify met", "rules ≥ 0.8× npm met", "rules ≤ 2× stringify met"]);
  });

  it("a row's own goal does not give a goal to another subject's column against the same anchor", () => {
    // The validation table: ours against ajv has a goal, the schema function alone against ajv has none.
    const twoSubjects: AreaTable = {
      title: "Validation",
      ours: "ours",
      impls: ["ours", "schema", "ajv"],
      ratios: [
        { anchor: "ajv", kind: "speedup", goal: 1 },
        { subject: "schema", anchor: "ajv", kind: "speedup" },
      ],
      rows: [{ label: "rules", series: [{ impl: "ours", opsPerSec: [90, 90, 90] }, { impl: "schema", opsPerSec: [200, 200, 200] }, { impl: "ajv", opsPerSec: [100, 100, 100] }], ratioGoals: { ajv: 0.8 } }],
    };
    const { markdown, verdicts } = renderArea(twoSubjects);
    expect(markdown).toContain("| 0.90× | 2.00× | ≥ 0.8× ajv: met |");
    expect(verdicts.map((v) => `${v.row} ${v.goal} ${v.verdict}`)).toEqual(["rules ≥ 0.8× ajv met"]);
  });

  it("fails loudly when a goal names an implementation the row did not measure", () => {
    const broken: AreaTable = { ...area, rows: [{ label: "x", series: [{ impl: "ours", opsPerSec: [1] }], throughputGoals: [{ impl: "nope", atLeastOpsPerSec: 1 }] }] };
    expect(() => renderArea(broken)).toThrow(/nope/);
  });
});

describe("sumOfTimes", () => {
  it("adds the two operations' times round by round (hand-computed)", () => {
    // 2/s and 2/s: 0.5 s + 0.5 s = 1 s per pair; 1M/s and 1M/3 s: 1 µs + 3 µs = 4 µs, 250k/s.
    expect(sumOfTimes([2, 1e6], [2, 1e6 / 3])).toEqual([1, 250_000]);
    expect(() => sumOfTimes([1, 2], [1])).toThrow(/2 rounds against 1/);
  });
});
