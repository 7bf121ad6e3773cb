// Reading JMH's JSON results into per-round series (no timing here).
import { describe, expect, it } from "vitest";
import { readJmh } from "./kotlin.js";

const result = (benchmark: string, rawData: number[][], input?: string, scoreUnit = "ops/s") => ({
  benchmark: `dev.agentcontracts.bench.${benchmark}`,
  ...(input === undefined ? {} : { params: { input } }),
  primaryMetric: { scoreUnit, rawData },
});

describe("readJmh", () => {
  it("gives each benchmark's measurement iterations, by method and @Param input", () => {
    const jmh = readJmh([result("ParseBench.strictParse", [[10, 20, 30]], "small"), result("ParseBench.strictParse", [[1, 2, 3]], "large"), result("ReplayBench.store", [[5, 6]])]);
    expect(jmh("ParseBench.strictParse", "small")).toEqual([10, 20, 30]);
    expect(jmh("ParseBench.strictParse", "large")).toEqual([1, 2, 3]);
    expect(jmh("ReplayBench.store")).toEqual([5, 6]);
  });
  it("refuses a missing benchmark and a unit other than ops/s", () => {
    const jmh = readJmh([result("ReplayBench.store", [[5]])]);
    expect(() => jmh("ReplayBench.hashMap")).toThrow(/no result for ReplayBench.hashMap/);
    expect(() => readJmh([result("ReplayBench.store", [[5]], undefined, "s/op")])).toThrow(/unit s\/op/);
  });
});
