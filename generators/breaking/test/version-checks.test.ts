// `breaking --suggest-version`'s checks (issue 41): the project version and each touched protocol's
// wire version against what the changes call for. The table follows Semantic Versioning 2.0.0 (§4,
// §11) and the rule written in version.ts's header (a WIRE or LIFECYCLE break needs a new wire
// version in every protocol it touches; spec/common touches them all), worked out by hand. An enum
// value removed is two breaking findings: WIRE_ENUM_VALUE_REMOVED and SOURCE_ENUM_CASE_REMOVED.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { loadTree } from "../tree.js";
import { bumpVersion, compareSemver, parseSemver, requiredBump, versionChecks, versionLines } from "../version.js";
import { baseFiles, M, PROTOCOL, TYPES, writeTree, type Files } from "./spec-fixture.js";

const Q = "spec/q/protocol.yaml";
const withVersions = (project: string | undefined, wire: string | number | undefined, qWire?: string) => (f: Files) => {
  if (project !== undefined) f["spec/project.yaml"] = { project: { name: "fixture", version: project } };
  if (wire !== undefined) f[PROTOCOL].version = wire;
  if (qWire !== undefined) f[Q] = { id: "q", title: "Q", version: qWire };
};

function checks(edit: (f: Files) => void, before: (f: Files) => void, after: (f: Files) => void) {
  const b = baseFiles();
  before(b);
  const a = baseFiles();
  after(a);
  edit(a);
  const r = compareRoots(writeTree(b), writeTree(a));
  return versionChecks(r.oldTree, r.newTree, r.findings, r.changes);
}
const breakM = (f: Files) => void (f[M].properties.kind.enum = ["a"]);
const addState = (f: Files) => void (f["spec/p/lifecycles/m.machine.yaml"].states.d = { description: "D" });
const reword = (f: Files) => void (f[M].description = "Reworded.");

describe("the project version", () => {
  it.each([
    ["1.2.3", "2.0.0", breakM, "major", "2 breaking changes", "2.0.0", false],
    ["1.2.3", "1.9.9", breakM, "major", "2 breaking changes", "2.0.0", true],
    ["1.2.3", "2.0.0-rc.1", breakM, "major", "2 breaking changes", "2.0.0", true],
    ["1.2.3", "1.3.0", addState, "minor", "1 compatible change", "1.3.0", false],
    ["1.2.3", "1.2.9", addState, "minor", "1 compatible change", "1.3.0", true],
    ["1.2.3", "1.2.4", reword, "patch", "1 documentation change", "1.2.4", false],
    ["1.2.3", "1.2.3", reword, "patch", "1 documentation change", "1.2.4", true],
    ["1.2.3", "1.2.3", () => {}, "none", "no change", "1.2.3", false],
    ["0.1.1", "0.2.0", breakM, "major", "2 breaking changes", "0.2.0", false],
    ["0.1.1", "0.1.9", breakM, "major", "2 breaking changes", "0.2.0", true],
    ["0.1.1", "0.1.2", addState, "minor", "1 compatible change", "0.1.2", false],
    ["0.1.1", "not a version", reword, "patch", "1 documentation change", "0.1.2", true],
  ] as const)("from %s to %s", (from, now, edit, bump, why, suggested, tooLow) => {
    const [project] = checks(edit, withVersions(from, undefined), withVersions(now, undefined));
    expect(project).toEqual({ subject: "project", file: "spec/project.yaml", bump, why, from, suggested, current: now, tooLow });
  });
  it("a new spec without a project version: (none), too low; an old one without it (or not SemVer): no check", () => {
    expect(checks(reword, withVersions("1.0.0", undefined), () => {})[0]).toMatchObject({ current: "(none)", tooLow: true });
    expect(checks(reword, () => {}, withVersions("1.0.0", undefined))).toEqual([]);
    expect(checks(reword, withVersions("v1", undefined), withVersions("1.0.0", undefined))).toEqual([]);
  });
  it("a new project version written as a YAML number is no semantic version: (none), too low", () => {
    const numeric = (f: Files) => void (f["spec/project.yaml"] = { project: { name: "fixture", version: 2 } });
    expect(checks(reword, withVersions("1.0.0", undefined), numeric)[0]).toMatchObject({ current: "(none)", tooLow: true });
  });
});

describe("a protocol's wire version", () => {
  const wire = (list: ReturnType<typeof checks>) => list.filter((c) => c.subject !== "project");
  it("a WIRE break in p calls for p's next integer version; q, untouched, for none", () => {
    expect(wire(checks(breakM, withVersions(undefined, "1", "7"), withVersions(undefined, "1", "7")))).toEqual([
      { subject: "p", file: "spec/p/protocol.yaml", bump: "major", why: "1 WIRE/LIFECYCLE break", from: "1", suggested: "2", current: "1", tooLow: true },
    ]);
    expect(wire(checks(breakM, withVersions(undefined, "1"), withVersions(undefined, 2)))[0]).toMatchObject({ from: "1", suggested: "2", current: "2", tooLow: false });
    expect(wire(checks(breakM, withVersions(undefined, "9"), withVersions(undefined, "10")))[0]).toMatchObject({ suggested: "10", tooLow: false });
  });
  it("a semantic wire version is bumped major (below 1.0.0, minor); another text, which has no order, must become the suggested text", () => {
    expect(wire(checks(breakM, withVersions(undefined, "1.4.0"), withVersions(undefined, "1.5.0")))[0]).toMatchObject({ suggested: "2.0.0", tooLow: true });
    expect(wire(checks(breakM, withVersions(undefined, "0.3.1"), withVersions(undefined, "0.4.0")))[0]).toMatchObject({ suggested: "0.4.0", tooLow: false });
    expect(wire(checks(breakM, withVersions(undefined, "v1"), withVersions(undefined, "v1")))[0]).toMatchObject({ suggested: "v1+1", tooLow: true });
    expect(wire(checks(breakM, withVersions(undefined, "v1"), withVersions(undefined, "v1+1")))[0]).toMatchObject({ suggested: "v1+1", tooLow: false });
    expect(wire(checks(breakM, withVersions(undefined, "v1"), withVersions(undefined, "v2")))[0]).toMatchObject({ suggested: "v1+1", tooLow: true });
  });
  it("integers compare as numbers; a text that is neither an integer nor SemVer must equal the suggestion", () => {
    const table: [string, string, string, boolean][] = [
      // [old wire version, new one, suggested, too low]
      ["10", "10", "11", true],
      ["9", "12", "10", false],
      ["1", "5", "2", false],
      ["1", "2.0", "2", true],
      ["1", "2x", "2", true],
      ["v1", "5", "v1+1", true],
      ["1.4.0", "3", "2.0.0", true],
      ["1.4.0", "v9", "2.0.0", true],
      ["1.4.0", "3.0.0", "2.0.0", false],
    ];
    for (const [was, now, suggested, tooLow] of table) {
      expect(wire(checks(breakM, withVersions(undefined, was), withVersions(undefined, now)))[0], `${was} -> ${now}`).toMatchObject({ from: was, suggested, current: now, tooLow });
    }
  });
  it("a protocol new in this version has no wire version to bump, even when spec/common touches it", () => {
    const common = (f: Files) => void (f[TYPES].$defs.Id.pattern = "^[a-z]+$");
    expect(wire(checks(common, withVersions(undefined, "1"), withVersions(undefined, "1", "1"))).map((c) => c.subject)).toEqual(["p"]);
  });
  it("a break without an old position touches the protocol of its position", () => {
    // Finding.old is optional: a hand-made WIRE break that has only `at`.
    const files = baseFiles();
    withVersions(undefined, "1", "4")(files);
    const tree = loadTree(writeTree(files));
    const at = { file: M, pointer: "/properties/name", line: 1, column: 1 };
    const f: Finding = { rule: "WIRE_FIELD_REMOVED", category: "WIRE", at, removed: true, message: "name was removed", status: "breaking" };
    expect(versionChecks(tree, tree, [f], []).map((c) => [c.subject, c.suggested])).toEqual([["p", "2"]]);
  });
  it("a change in spec/common touches every protocol; a compatible or waived change touches none", () => {
    const common = (f: Files) => void (f[TYPES].$defs.Id.pattern = "^[a-z]+$");
    expect(wire(checks(common, withVersions(undefined, "1", "3"), withVersions(undefined, "1", "3"))).map((c) => [c.subject, c.suggested])).toEqual([["p", "2"], ["q", "4"]]);
    expect(wire(checks(addState, withVersions(undefined, "1"), withVersions(undefined, "1")))).toEqual([]);
    const waived = (f: Files) => void (f["spec/breaking.yaml"] = { breaking: { exceptions: [{ rule: "WIRE_ENUM_VALUE_REMOVED", reason: "never sent" }, { rule: "SOURCE_ENUM_CASE_REMOVED", reason: "never sent" }] } });
    expect(wire(checks(breakM, withVersions(undefined, "1"), (f) => (withVersions(undefined, "1")(f), waived(f))))).toEqual([]);
  });
  it("a SOURCE or SECURITY break alone needs no new wire version; a protocol without one has no check", () => {
    expect(wire(checks((f) => void f["spec/p/messages/S.yaml"]["x-replay"].keyFields.push("exp"), withVersions(undefined, "1"), withVersions(undefined, "1")))).toEqual([]);
    expect(wire(checks(breakM, () => {}, withVersions(undefined, "2")))).toEqual([]);
    expect(wire(checks(breakM, withVersions(undefined, "1"), () => {}))[0]).toMatchObject({ current: "(none)", tooLow: true });
  });
  it("a LIFECYCLE break counts, and several are counted in the reason", () => {
    const twice = (f: Files) => {
      f["spec/p/lifecycles/m.machine.yaml"].initial = "b";
      f["spec/p/lifecycles/m.machine.yaml"].states.c.terminal = false;
    };
    expect(wire(checks(twice, withVersions(undefined, "1"), withVersions(undefined, "1")))[0]).toMatchObject({ why: "2 WIRE/LIFECYCLE breaks" });
  });
});

describe("requiredBump's reasons", () => {
  const f = (status: Finding["status"]) => ({ status }) as Finding;
  it("counts in words, with the waived findings named", () => {
    expect(requiredBump([f("breaking"), f("breaking"), f("excepted")], [])).toEqual({ bump: "major", why: "2 breaking changes" });
    expect(requiredBump([f("breaking")], [])).toEqual({ bump: "major", why: "1 breaking change" });
    expect(requiredBump([f("excepted")], [])).toEqual({ bump: "minor", why: "1 compatible change (1 of them waived findings)" });
    expect(requiredBump([f("excepted"), f("unstable")], [{ severity: "compatible" } as never])).toEqual({ bump: "minor", why: "3 compatible changes (2 of them waived findings)" });
    expect(requiredBump([], [{ severity: "compatible" } as never, { severity: "compatible" } as never])).toEqual({ bump: "minor", why: "2 compatible changes" });
    expect(requiredBump([], [{ severity: "documentation" } as never, { severity: "documentation" } as never])).toEqual({ bump: "patch", why: "2 documentation changes" });
  });
});

describe("versionLines", () => {
  it("one line per check, as `breaking --suggest-version` prints it", () => {
    const base = { file: "spec/project.yaml", why: "1 breaking change", from: "1.2.3", suggested: "2.0.0" };
    expect(versionLines([
      { ...base, subject: "project", bump: "major", current: "1.9.0", tooLow: true },
      { ...base, subject: "project", bump: "none", why: "no change", suggested: "1.2.3", current: "1.2.3", tooLow: false },
      { subject: "p", file: "spec/p/protocol.yaml", bump: "major", why: "1 WIRE/LIFECYCLE break", from: "1", suggested: "2", current: "2", tooLow: false },
    ])).toEqual([
      "version: major bump (1 breaking change) from 1.2.3: at least 2.0.0; spec/project.yaml has 1.9.0: lower than 2.0.0, raise it",
      "version: no bump (no change) from 1.2.3: at least 1.2.3; spec/project.yaml has 1.2.3: ok",
      "wire version of p: major bump (1 WIRE/LIFECYCLE break) from 1: at least 2; spec/p/protocol.yaml has 2: ok",
    ]);
  });
});

describe("SemVer parsing and precedence edges (§2, §9, §10, §11)", () => {
  it.each(["01.0.0", "1.02.0", "1.0.03", "1.0", "1.0.0-", "1.0.0+", "v1.0.0", " 1.0.0", "1.0.0-a b"])("%s is not a version", (v) => {
    expect(parseSemver(v)).toBeUndefined();
    expect(() => compareSemver(v, "1.0.0")).toThrow(`not a semantic version: ${v}`);
    expect(() => compareSemver("1.0.0", v)).toThrow(`not a semantic version: ${v}`);
  });
  it("parses each part", () => {
    expect(parseSemver("10.20.30-rc.1+build.7")).toEqual({ major: 10, minor: 20, patch: 30, pre: "rc.1" });
    expect(parseSemver("0.0.0")).toEqual({ major: 0, minor: 0, patch: 0, pre: undefined });
  });
  it("orders by major, then minor, then patch, numerically", () => {
    expect(compareSemver("2.0.0", "10.0.0")).toBe(-1);
    expect(compareSemver("1.10.0", "1.9.0")).toBe(1);
    expect(compareSemver("1.0.10", "1.0.9")).toBe(1);
    expect(compareSemver("1.0.0-rc.1", "1.0.0-rc.1+b")).toBe(0);
    expect(compareSemver("1.0.0-alpha.10", "1.0.0-alpha.9")).toBe(1);
    expect(compareSemver("1.0.0-alpha", "1.0.0-1")).toBe(1);
    expect(compareSemver("1.0.0-beta", "1.0.0-alpha.1")).toBe(1);
  });
  it.each([
    // §11.4.1: numeric identifiers compare as numbers, whatever their length.
    ["1.0.0-alpha.99", "1.0.0-alpha.100", -1],
    // §9, §11.4.3: an identifier with a letter anywhere is alphanumeric, above every numeric one.
    ["1.0.0-rc.a1", "1.0.0-rc.2", 1],
    ["1.0.0-rc.1a", "1.0.0-rc.2", 1],
    // ... even when it sorts below the digits in ASCII, as a leading hyphen does.
    ["1.0.0--x", "1.0.0-1", 1],
  ] as const)("%s against %s: %d, and the reverse", (a, b, want) => {
    expect(compareSemver(a, b)).toBe(want);
    expect(compareSemver(b, a)).toBe(-want);
  });
  it("bumpVersion refuses what is not a version, naming it", () => {
    expect(() => bumpVersion("v1", "major")).toThrow("not a semantic version: v1");
  });
});
