// `breaking --format github|sarif`: the forms are GitHub's workflow-command syntax and SARIF 2.1.0's
// result object, written here from their documents; the places are the ones the text format prints
// for the same comparison. Exit codes stay the command's own.
import { describe, expect, it } from "vitest";
import type { Io } from "../../cli/io.js";
import { main } from "../../cli/main.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { githubLines } from "../ci-formats.js";
import type { Finding } from "../finding.js";
import { baseFiles, M, MACHINE, writeTree } from "./spec-fixture.js";

async function breaking(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root: REPO_ROOT, readStdin: async () => Buffer.alloc(0) };
  const code = await main(["breaking", ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Old: the base fixture. New: M's kind enum narrowed (breaking) and a state added (compatible). */
const old = writeTree(baseFiles());
const edited = baseFiles();
edited[M].properties.kind.enum = ["a"];
edited[MACHINE].states.d = { description: "D" };
const now = writeTree(edited);

/** "file:line:col pointer [ID] (severity) ..." lines of the text format, as [ID, file, line, col]. */
async function textPlaces(): Promise<string[][]> {
  const r = await breaking(["--against", old, "--spec", now]);
  return r.out.split("\n").flatMap((l) => {
    const m = /^(\S+):(\d+):(\d+) \S+ \[(\w+)\] \((\w+)\)/.exec(l);
    return m ? [[m[4]!, m[1]!, m[2]!, m[3]!, m[5]!]] : [];
  });
}

describe("--format github", () => {
  it("one workflow command per change: ::error for a breaking finding, ::notice for the rest, at the text format's places; exit 1", async () => {
    const r = await breaking(["--against", old, "--spec", now, "--format", "github"]);
    expect(r.code).toBe(1);
    const expected = (await textPlaces()).map(([id, file, line, col, severity]) => `::${severity === "breaking" ? "error" : "notice"} file=${file},line=${line},col=${col},title=${id}::`);
    expect(expected.map((e) => e.split(" ")[0])).toEqual(["::error", "::error", "::notice"]);
    const lines = r.out.split("\n");
    expect(lines).toHaveLength(3);
    lines.forEach((l, i) => expect(l.startsWith(expected[i]!), l).toBe(true));
  });
  it("escapes %, CR and LF in the message, and also : and , in properties", () => {
    const f = { rule: "WIRE_TYPE_CHANGED", category: "WIRE", at: { file: "spec/a:b,c.yaml", line: 3, column: 4, pointer: "/x" }, removed: false, message: "100% of\r\nthem", status: "breaking" } as Finding;
    expect(githubLines([f], [])).toEqual(["::error file=spec/a%3Ab%2Cc.yaml,line=3,col=4,title=WIRE_TYPE_CHANGED::100%25 of%0D%0Athem"]);
  });
});

describe("--format sarif", () => {
  it("a SARIF 2.1.0 log: one result per change at its region, error for breaking and note otherwise, each ruleIndex naming its rule", async () => {
    const r = await breaking(["--against", old, "--spec", now, "--format", "sarif"]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out) as {
      version: string;
      runs: { tool: { driver: { name: string; rules: { id: string; shortDescription: { text: string } }[] } }; results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[];
    };
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe("agent-contracts breaking");
    const places = await textPlaces();
    expect(run.results.map((x) => [x.ruleId, x.locations[0]!.physicalLocation.artifactLocation.uri, String(x.locations[0]!.physicalLocation.region.startLine), String(x.locations[0]!.physicalLocation.region.startColumn), x.level])).toEqual(
      places.map(([id, file, line, col, severity]) => [id, file, line, col, severity === "breaking" ? "error" : "note"]),
    );
    for (const x of run.results) expect(run.tool.driver.rules[x.ruleIndex]!.id).toBe(x.ruleId);
    expect(run.tool.driver.rules.every((rule) => rule.shortDescription.text.length > 10)).toBe(true);
  });
  it("no change: exit 0 and a log with no results", async () => {
    const r = await breaking(["--against", old, "--spec", old, "--format", "sarif"]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { runs: { results: unknown[] }[] }).runs[0]!.results).toEqual([]);
  });
});
