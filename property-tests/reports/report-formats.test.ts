// --format github|sarif|junit of lint, validate and conformance. What each document must be
// comes from outside this code: SARIF logs validate against the SARIF 2.1.0 schema
// (property-tests/vectors/sarif, with ajv-draft-04), JUnit XML is read back by junit2json (an
// npm JUnit reader), GitHub annotations are compared with hand-written lines in the workflow
// command syntax, and every finding must sit where the command's text output puts it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { parse as parseJunit } from "junit2json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../generators/cli/io.js";
import { main } from "../../generators/cli/main.js";
import { formatReport, githubAnnotations, junitXml } from "../../generators/cli/report-formats.js";
import { startAgentService, type RunningAgentService } from "../../generators/mock/agent-service.js";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "report-formats-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sarifSchema = JSON.parse(readFileSync(join(ROOT, "property-tests/vectors/sarif/sarif-2.1.0-rtm.5.json"), "utf8")) as object;
// unicodeRegExp off: the schema's language pattern ("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$") is
// valid only as a non-unicode ECMAScript regular expression. Formats (uri, uri-reference,
// date-time) are asserted with ajv-formats.
const sarifAjv = new (Ajv04 as unknown as typeof Ajv04.default)({ strict: false, allErrors: true, unicodeRegExp: false });
(addFormats as unknown as typeof addFormats.default)(sarifAjv as never);
const validateSarif = sarifAjv.compile(sarifSchema);

function run(args: string[], root = ROOT): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), root, readStdin: async () => Buffer.alloc(0) };
  return main(args, io).then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

type Sarif = { runs: { results: { ruleId: string; level: string; message: { text: string }; locations?: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] };

function expectValidSarif(text: string): Sarif {
  const log = JSON.parse(text) as Sarif;
  expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
  return log;
}

/** junit2json's reading of the XML: the test suites with their cases. */
async function readJunit(xml: string) {
  const parsed = (await parseJunit(xml)) as {
    tests?: number;
    failures?: number;
    skipped?: number;
    testsuite?: { name: string; tests?: number; failures?: number; testcase?: { name: string; classname?: string; failure?: { message?: string; type?: string; inner?: string }[]; skipped?: { message?: string }[] }[] }[];
  };
  expect(parsed, "junit2json read nothing").toBeTruthy();
  return parsed;
}

describe("lint", () => {
  let project: string;
  const clean = join(dir, "clean");
  beforeAll(async () => {
    project = join(dir, "proj");
    expect((await run(["init", project])).code).toBe(0);
    expect((await run(["init", clean])).code).toBe(0);
    // Two spec errors: a member of the wrong type and a keyword no runtime enforces.
    const file = join(project, "spec", findMessage(join(project, "spec")));
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^type: object$/m);
    writeFileSync(file, text.replace(/^type: object$/m, "type: object\nminProperties: yes\ndependentSchemas: { a: { $dynamicRef: '#x' } }"));
  });

  it("text, github, sarif and junit name the same findings at the same file:line:col, with the same exit code", async () => {
    const text = await run(["lint", "--spec", project]);
    expect(text.code).toBe(1);
    const lines = text.err.split("\n").filter((l) => /^\S+:\d+:\d+ /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    const expected = lines.map((l) => {
      const m = /^(\S+):(\d+):(\d+) \S+ .* \[([^\]]+)\]$/.exec(l)!;
      return { file: m[1]!, line: Number(m[2]), column: Number(m[3]), rule: m[4]! };
    });

    const sarif = await run(["lint", "--spec", project, "--format", "sarif"]);
    expect(sarif.code).toBe(1);
    const log = expectValidSarif(sarif.out);
    expect(
      log.runs[0]!.results.map((r) => ({ file: r.locations![0]!.physicalLocation.artifactLocation.uri, line: r.locations![0]!.physicalLocation.region.startLine, column: r.locations![0]!.physicalLocation.region.startColumn, rule: r.ruleId })),
    ).toEqual(expected);

    const github = await run(["lint", "--spec", project, "--format", "github"]);
    expect(github.code).toBe(1);
    expect(github.out.split("\n").map((l) => /^::error file=([^,]+),line=(\d+),col=(\d+),title=([^:]+)::/.exec(l)!.slice(1))).toEqual(expected.map((e) => [e.file, String(e.line), String(e.column), e.rule]));

    const junit = await run(["lint", "--spec", project, "--format", "junit"]);
    expect(junit.code).toBe(1);
    const read = await readJunit(junit.out);
    expect(read.failures).toBe(expected.length);
    expect(read.testsuite![0]!.testcase!.map((c) => c.failure![0]!.type)).toEqual(expected.map((e) => e.rule));
  });

  it("a clean spec: exit 0, an empty github report, a SARIF log without results, one passed JUnit case", async () => {
    expect((await run(["lint", "--spec", clean])).code).toBe(0);
    expect(await run(["lint", "--spec", clean, "--format", "github"])).toMatchObject({ code: 0, out: "" });
    const sarif = await run(["lint", "--spec", clean, "--format", "sarif"]);
    expect(sarif.code).toBe(0);
    expect(expectValidSarif(sarif.out).runs[0]!.results).toEqual([]);
    const junit = await readJunit((await run(["lint", "--spec", clean, "--format", "junit"])).out);
    expect([junit.tests, junit.failures]).toEqual([1, 0]);
  });

  it("an unknown format is a usage error", async () => {
    expect(await run(["lint", "--format", "xml"])).toMatchObject({ code: 2 });
  });
});

function findMessage(specDir: string): string {
  for (const p of readdirSync(specDir, { withFileTypes: true })) {
    if (!p.isDirectory() || p.name === "common" || p.name === "meta") continue;
    const messages = join(specDir, p.name, "messages");
    const first = readdirSync(messages).sort()[0]!;
    return join(p.name, "messages", first);
  }
  throw new Error("no message in the init project");
}

describe("validate", () => {
  it("an invalid message: every error at its line:col in github and sarif, one failed case in junit; exit 1 each", async () => {
    const file = join(dir, "version.json");
    writeFileSync(file, '{\n  "available": "yes",\n  "model": 3\n}\n');
    const text = await run(["validate", "agent-service", "VersionInfo", "--all-errors", file]);
    expect(text.code).toBe(1);
    const expected = text.err.split("\n").filter((l) => l.startsWith(file)).map((l) => /^.+?:(\d+):(\d+) /.exec(l)!.slice(1).map(Number));
    expect(expected.length).toBeGreaterThan(1);

    const sarif = await run(["validate", "agent-service", "VersionInfo", "--all-errors", "--format", "sarif", file]);
    expect(sarif.code).toBe(1);
    expect(expectValidSarif(sarif.out).runs[0]!.results.map((r) => [r.locations![0]!.physicalLocation.region.startLine, r.locations![0]!.physicalLocation.region.startColumn])).toEqual(expected);

    const github = await run(["validate", "agent-service", "VersionInfo", "--all-errors", "--format", "github", file]);
    expect(github.code).toBe(1);
    expect(github.out.split("\n").length).toBe(expected.length);

    const junit = await run(["validate", "agent-service", "VersionInfo", "--all-errors", "--format", "junit", file]);
    expect(junit.code).toBe(1);
    const read = await readJunit(junit.out);
    expect([read.tests, read.failures]).toEqual([1, 1]);
    expect(read.testsuite![0]!.testcase![0]!.failure![0]!.inner).toContain(`${file}:${expected[0]![0]}:${expected[0]![1]}`);
  });

  it("a valid message: exit 0 and one passed case", async () => {
    const file = join(ROOT, "spec/agent-service/messages/VersionInfo.yaml");
    const example = JSON.stringify(((await import("yaml")).parse(readFileSync(file, "utf8")) as { examples: unknown[] }).examples[0]);
    const path = join(dir, "valid.json");
    writeFileSync(path, example);
    const junit = await run(["validate", "agent-service", "VersionInfo", "--format", "junit", path]);
    expect(junit.code).toBe(0);
    expect([(await readJunit(junit.out)).tests, (await readJunit(junit.out)).failures]).toEqual([1, 0]);
  });
});

describe("conformance", () => {
  let failing: RunningAgentService;
  beforeAll(async () => {
    failing = await startAgentService({ variant: { identityBeforeKey: true } });
  });
  afterAll(() => failing.close());

  it("junit: one test case per case, the failed ones with their failure code; sarif validates; exit 1 as in text", async () => {
    const text = await run(["conformance", "agent-service", "--url", failing.url, "--tags", "auth,identity"]);
    expect(text.code).toBe(1);
    const failedIds = text.out.split("\n").filter((l) => l.startsWith("FAIL ")).map((l) => l.split(" ")[1]!).sort();
    const passedIds = text.out.split("\n").filter((l) => l.startsWith("pass ")).map((l) => l.split(" ")[1]!).sort();
    expect(failedIds.length).toBeGreaterThan(0);

    const junit = await run(["conformance", "agent-service", "--url", failing.url, "--tags", "auth,identity", "--format", "junit"]);
    expect(junit.code).toBe(1);
    expect(junit.err).toContain("passed,");
    const read = await readJunit(junit.out);
    const cases = read.testsuite!.flatMap((s) => s.testcase ?? []);
    expect(cases.filter((c) => c.failure).map((c) => c.name).sort()).toEqual(failedIds);
    expect(cases.filter((c) => !c.failure && !c.skipped).map((c) => c.name).sort()).toEqual(passedIds);
    expect(new Set(cases.filter((c) => c.failure).map((c) => c.failure![0]!.type))).toEqual(new Set(["expectation-failed"]));

    const sarif = await run(["conformance", "agent-service", "--url", failing.url, "--tags", "auth,identity", "--format", "sarif"]);
    expect(sarif.code).toBe(1);
    const log = expectValidSarif(sarif.out);
    expect(log.runs[0]!.results.length).toBe(failedIds.length);
    expect(log.runs[0]!.results.every((r) => r.locations![0]!.physicalLocation.artifactLocation.uri.startsWith("spec/agent-service/conformance/"))).toBe(true);

    const github = await run(["conformance", "agent-service", "--url", failing.url, "--tags", "auth,identity", "--format", "github"]);
    expect(github.code).toBe(1);
    const annotations = github.out.split("\n").filter((l) => l.startsWith("::error "));
    expect(annotations.length).toBe(failedIds.length);
    // Each at the line of its case in its case file.
    for (const a of annotations) {
      const m = /^::error file=([^,]+),line=(\d+),col=1,title=[^:]+::([a-z0-9-]+): /.exec(a)!;
      expect(readFileSync(join(ROOT, m[1]!), "utf8").split("\n")[Number(m[2]) - 1], a).toMatch(new RegExp(`^\\s*- id: ${m[3]}$`));
    }
  }, 120_000);
});

describe("the writers, on hand-written inputs", () => {
  const tool = { name: "agent-contracts", version: "0.0.0-test" };
  it("github: workflow command syntax, with %, CR, LF escaped in the message and : , in properties", () => {
    expect(
      githubAnnotations({ kind: "findings", subject: "lint", findings: [{ file: "spec/a,b:c.yaml", line: 3, column: 7, ruleId: "x-source", level: "error", message: "100% wrong\nsecond line\r" }] }),
    ).toEqual(["::error file=spec/a%2Cb%3Ac.yaml,line=3,col=7,title=x-source::100%25 wrong%0Asecond line%0D"]);
    expect(githubAnnotations({ kind: "findings", subject: "lint", findings: [{ file: "f", line: 1, column: 1, ruleId: "r", level: "warning", message: "m" }] })).toEqual(["::warning file=f,line=1,col=1,title=r::m"]);
  });

  it("junit: markup escaped and characters XML 1.0 cannot carry written out, still read back whole", async () => {
    const xml = junitXml({ kind: "tests", subject: "s", tests: [{ suite: "g<1>", name: 'a "b" & c', status: "fail", code: "expectation-failed", message: "got \u0001 <tag> & \ud800 ]]>" }, { suite: "g<1>", name: "d", status: "skip", message: "needs state x" }] });
    const read = await readJunit(xml);
    expect([read.tests, read.failures, read.skipped]).toEqual([2, 1, 1]);
    const c = read.testsuite![0]!.testcase![0]!;
    expect(c.name).toBe('a "b" & c');
    expect(c.failure![0]!.inner).toBe("got \\u0001 <tag> & \\ud800 ]]>");
    expect(read.testsuite![0]!.name).toBe("g<1>");
  });

  it("the SARIF schema refuses what is not SARIF 2.1.0 (the check can fail)", () => {
    const log = JSON.parse(formatReport("sarif", { kind: "findings", subject: "lint", findings: [{ file: "f", line: 1, column: 1, ruleId: "r", level: "error", message: "m" }] }, tool)) as Record<string, unknown>;
    expect(validateSarif(log)).toBe(true);
    expect(validateSarif({ ...log, version: "2.0.0" })).toBe(false);
    const runs = log["runs"] as { results: { level: string }[] }[];
    expect(validateSarif({ ...log, runs: [{ ...runs[0], results: [{ ...runs[0]!.results[0], level: "fatal" }] }] })).toBe(false);
  });

  it("sarif: a path with spaces and non-ASCII is a valid relative URI", () => {
    const log = expectValidSarif(formatReport("sarif", { kind: "findings", subject: "lint", findings: [{ file: "spec/my dir/Zoë.yaml", line: 2, column: 1, ruleId: "r", level: "error", message: "m" }] }, tool));
    expect(log.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation.uri).toBe("spec/my%20dir/Zo%C3%AB.yaml");
  });
});

describe("breaking", () => {
  it("sarif validates against the SARIF 2.1.0 schema, with one result per change at the github report's places; exit 1 on a break", async () => {
    const { baseFiles, M, MACHINE, writeTree } = await import("../../generators/breaking/test/spec-fixture.js");
    const old = writeTree(baseFiles());
    const edited = baseFiles();
    edited[M].properties.kind.enum = ["a"]; // breaking: an enum value removed
    edited[MACHINE].states.d = { description: "D" }; // compatible: a state added
    const now = writeTree(edited);
    const sarif = await run(["breaking", "--against", old, "--spec", now, "--format", "sarif"]);
    expect(sarif.code).toBe(1);
    const log = expectValidSarif(sarif.out);
    const github = await run(["breaking", "--against", old, "--spec", now, "--format", "github"]);
    expect(github.code).toBe(1);
    const places = github.out.split("\n").map((l) => /^::(error|notice) file=([^,]+),line=(\d+),col=(\d+),title=([^:]+)::/.exec(l)!.slice(1));
    expect(log.runs[0]!.results.map((r) => [r.level === "error" ? "error" : "notice", r.locations![0]!.physicalLocation.artifactLocation.uri, String(r.locations![0]!.physicalLocation.region.startLine), String(r.locations![0]!.physicalLocation.region.startColumn), r.ruleId])).toEqual(places);
    expect(places.map((p) => p[0])).toEqual(["error", "error", "notice"]);
  });
});
