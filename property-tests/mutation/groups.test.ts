// The mutation groups cover the whole hand-written runtime of TS and Kotlin, each file once (or it
// is listed in not-mutated.md with a reason), and every committed result describes the sources in
// this checkout: a runtime change without a rerun of its group (`make mutation`) fails here.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, groupStamp, loadGroups, mutateRange, readResult } from "./results.mjs";

const RUNTIMES = [
  { dir: "generators/targets/ts/runtime/src", ext: ".ts" },
  { dir: "generators/targets/kotlin/runtime", ext: ".kt" },
];
const runtimeFiles = RUNTIMES.flatMap(({ dir, ext }) =>
  readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(ext) && !f.endsWith(`.test${ext}`)).map((f) => `${dir}/${f}`),
);
const NOT_MUTATED_ENTRY = /^- (\S+) — (.{10,})$/;
const notMutated = readFileSync(join(ROOT, "property-tests/mutation/not-mutated.md"), "utf8")
  .split("\n").filter((l) => l.startsWith("- ")).map((l) => {
    const m = NOT_MUTATED_ENTRY.exec(l);
    if (!m) throw new Error(`not-mutated.md: "${l}" is not "- <path> — <reason>"`);
    return m[1]!;
  });
const groups = loadGroups();

describe("mutation groups", () => {
  it("a mutate entry names a whole file or, as Stryker's mutation range path:from-to, some of its lines", () => {
    expect(mutateRange("generators/conformance/case-run.ts")).toEqual({ path: "generators/conformance/case-run.ts", from: 1, to: Infinity });
    expect(mutateRange("generators/conformance/case-run.ts:279-386")).toEqual({ path: "generators/conformance/case-run.ts", from: 279, to: 386 });
    expect(mutateRange("c:/x.ts:1-2:3")).toEqual({ path: "c:/x.ts:1-2:3", from: 1, to: Infinity });
  });
  it("mutate every runtime file exactly once, or not-mutated.md says why not", () => {
    const owners = new Map<string, string[]>();
    for (const g of groups) for (const f of g.files) owners.set(f, [...(owners.get(f) ?? []), g.name]);
    // A file split by line ranges may be in several groups, each line in one.
    const twice: string[] = [];
    const entries = groups.flatMap((g) => g.ranges.map((r) => ({ ...r, group: g.name })));
    for (const [i, a] of entries.entries()) {
      for (const b of entries.slice(i + 1)) if (a.path === b.path && a.from <= b.to && b.from <= a.to) twice.push(`${a.path}: ${a.group} (${a.from}-${a.to}), ${b.group} (${b.from}-${b.to})`);
    }
    expect(twice, "lines mutated by two groups").toEqual([]);
    const missing = runtimeFiles.filter((f) => !owners.has(f) && !notMutated.includes(f));
    expect(missing, "runtime files no group mutates").toEqual([]);
    const both = notMutated.filter((f) => owners.has(f));
    expect(both, "files both mutated and listed as not mutated").toEqual([]);
  });
  it.each(groups.map((g) => [g.name, g] as const))("%s has a result computed from the sources in this checkout", (name, group) => {
    const result = readResult(name);
    expect(result, `no result: run node property-tests/mutation/run.mjs ${name}`).toBeDefined();
    expect(result!.sources, `stale result: run node property-tests/mutation/run.mjs ${name}`).toEqual(groupStamp(group).sources);
    const outside = result!.mutants.filter((m) => !group.ranges.some((r) => r.path === m.file && m.line >= r.from && m.line <= r.to)).map((m) => `${m.file}:${m.line}`);
    expect([...new Set(outside)], "mutants of files or lines the group does not name").toEqual([]);
    expect(result!.mutants.length, "a result without mutants").toBeGreaterThan(0);
  });
});
