// SwiftPM compiles every source file of a target into one module and names each object file after
// the source's base name, so two files called Messages.swift in different folders of one target
// fail the build ("multiple producers"). Resources are exempt: `.copy("Resources")` keeps folders.
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { emitSwift } from "./emit.js";
import { readSwiftCases, readSwiftRuntime } from "./inputs.js";

/** Base names used more than once within one target (Sources/<T>/..., Tests/<T>/...), with their paths. */
function clashingBaseNames(paths: readonly string[]): string[] {
  const byTarget = new Map<string, Map<string, string[]>>();
  for (const path of paths) {
    const m = /^(Sources|Tests)\/([^/]+)\/(.+)$/.exec(path);
    if (m === null || m[3]!.startsWith("Resources/")) continue;
    const target = `${m[1]}/${m[2]}`;
    const base = m[3]!.replace(/^.*\//, "");
    const names = byTarget.get(target) ?? new Map<string, string[]>();
    byTarget.set(target, names);
    names.set(base, [...(names.get(base) ?? []), path]);
  }
  return [...byTarget.entries()].flatMap(([target, names]) =>
    [...names.entries()].filter(([, list]) => list.length > 1).map(([base, list]) => `${target}: ${base} (${list.join(", ")})`),
  );
}

describe("SwiftPM file layout", () => {
  it("finds clashes within a target, not across targets or in resources", () => {
    expect(clashingBaseNames(["Sources/A/X/Messages.swift", "Sources/A/Y/Messages.swift"])).toEqual(["Sources/A: Messages.swift (Sources/A/X/Messages.swift, Sources/A/Y/Messages.swift)"]);
    expect(clashingBaseNames(["Sources/A/Messages.swift", "Tests/ATests/Messages.swift", "Sources/B/Messages.swift"])).toEqual([]);
    expect(clashingBaseNames(["Tests/T/Resources/a/x.json", "Tests/T/Resources/b/x.json"])).toEqual([]);
  });

  it("gives every source file of a target its own base name", () => {
    const result = loadModel(REPO_ROOT);
    if (!result.ok) throw new Error("spec has errors");
    const files = emitSwift(result.model, readSwiftRuntime(REPO_ROOT), readSwiftCases(REPO_ROOT, result.model));
    const paths = files.map((f) => f.path);
    expect(paths.filter((p) => p.startsWith("Sources/AgentContracts/")).length).toBeGreaterThan(20);
    expect(paths.filter((p) => /^Tests\/AgentContractsTests\/[^/]+\.swift$/.test(p)).length).toBeGreaterThan(5);
    expect(clashingBaseNames(paths)).toEqual([]);
  });
});
