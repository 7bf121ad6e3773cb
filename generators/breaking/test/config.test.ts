// spec/breaking.yaml (issue 41): how `at` names a place, which status each finding gets when
// several entries apply, what a missing or partial file means, and the check stage's errors with
// their line and pointer. The expectations follow spec/meta/breaking.schema.json's descriptions
// (categories strictest first; `at` a file, a place in it or a folder ending in /; a reason of at
// least 10 characters) and are written by hand, not read from the code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createMetaAjv } from "../../check/meta.js";
import { applyConfig, checkConfigFile, DEFAULT_CONFIG, matches, readConfig, type BreakingConfig } from "../config.js";
import type { Finding, Position } from "../finding.js";
import { CATEGORIES, CATEGORY_PURPOSE, enforcedCategories, RULES, RULES_BY_ID } from "../rules.js";
import { writeTree } from "./spec-fixture.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const pos = (file: string, pointer = ""): Position => ({ file, pointer, line: 1, column: 1 });

describe("matches: where an `at` applies", () => {
  it.each([
    ["spec/p/messages/A.yaml", pos("spec/p/messages/A.yaml", "/properties/b"), true],
    ["spec/p/messages/A.yaml", pos("spec/p/messages/AB.yaml"), false],
    ["spec/p/messages/A.yaml#/properties/b", pos("spec/p/messages/A.yaml", "/properties/b"), true],
    ["spec/p/messages/A.yaml#/properties/b", pos("spec/p/messages/A.yaml", "/properties/b/maxLength"), true],
    ["spec/p/messages/A.yaml#/properties/b", pos("spec/p/messages/A.yaml", "/properties/bc"), false],
    ["spec/p/messages/A.yaml#/properties/b", pos("spec/p/messages/A.yaml", "/properties"), false],
    ["spec/p/messages/A.yaml#/properties/b", pos("spec/q/messages/A.yaml", "/properties/b"), false],
    ["spec/p/messages/A.yaml#", pos("spec/p/messages/A.yaml", "/x"), true],
    ["spec/p/", pos("spec/p/messages/A.yaml", "/x"), true],
    ["spec/p/", pos("spec/pq/messages/A.yaml"), false],
    ["spec/p", pos("spec/p/messages/A.yaml"), false],
    ["", pos("spec/p/messages/A.yaml"), false],
    ["", pos(""), false],
    ["spec/p/", undefined, false],
  ] as const)("%s at %o: %s", (at, p, want) => {
    expect(matches(at, p)).toBe(want);
  });
});

const F = "spec/p/messages/A.yaml";
const make = (rule: string, extra: Partial<Finding> = {}): Finding => ({
  rule,
  category: RULES_BY_ID.get(rule)!.category,
  at: pos(F, "/properties/b"),
  removed: false,
  message: rule,
  status: "breaking",
  ...extra,
});
const config = (c: Partial<BreakingConfig>): BreakingConfig => ({ ...DEFAULT_CONFIG, ...c });
const statuses = (findings: Finding[]) => findings.map((f) => [f.rule, f.status, f.reason]);

describe("applyConfig: each finding's status", () => {
  it("enforce names the strictest category enforced: the stricter ones are reported, not enforced", () => {
    const all = ["SOURCE_FIELD_REMOVED", "WIRE_FIELD_REMOVED", "SECURITY_REPLAY_CHANGED", "LIFECYCLE_REMOVED"];
    expect(statuses(applyConfig(all.map((r) => make(r)), config({ enforce: "WIRE" })))).toEqual([
      ["SOURCE_FIELD_REMOVED", "not-enforced", "category SOURCE is not enforced (enforce: WIRE)"],
      ["WIRE_FIELD_REMOVED", "breaking", undefined],
      ["SECURITY_REPLAY_CHANGED", "breaking", undefined],
      ["LIFECYCLE_REMOVED", "breaking", undefined],
    ]);
    expect(applyConfig(all.map((r) => make(r)), DEFAULT_CONFIG).every((f) => f.status === "breaking")).toBe(true);
  });
  it("an exception applies to its rule only, at its place or (without at) everywhere", () => {
    const reason = "never sent by a released writer";
    const found = [make("WIRE_ENUM_VALUE_REMOVED"), make("WIRE_ENUM_VALUE_REMOVED", { at: pos("spec/p/messages/B.yaml") }), make("SOURCE_ENUM_CASE_REMOVED")];
    expect(statuses(applyConfig(found, config({ exceptions: [{ rule: "WIRE_ENUM_VALUE_REMOVED", at: F, reason }] })))).toEqual([
      ["WIRE_ENUM_VALUE_REMOVED", "excepted", reason],
      ["WIRE_ENUM_VALUE_REMOVED", "breaking", undefined],
      ["SOURCE_ENUM_CASE_REMOVED", "breaking", undefined],
    ]);
    const everywhere = [make("WIRE_ENUM_VALUE_REMOVED"), make("WIRE_ENUM_VALUE_REMOVED", { at: pos("spec/p/messages/B.yaml") })];
    expect(applyConfig(everywhere, config({ exceptions: [{ rule: "WIRE_ENUM_VALUE_REMOVED", at: "", reason }] })).map((f) => f.status)).toEqual(["excepted", "excepted"]);
  });
  it("an exception or an unstable item also applies through the finding's old position", () => {
    const removed = () => make("WIRE_MESSAGE_REMOVED", { at: pos("spec/p/protocol.yaml"), old: pos(F), removed: true });
    expect(applyConfig([removed()], config({ exceptions: [{ rule: "WIRE_MESSAGE_REMOVED", at: F, reason: "r" }] }))[0]!.status).toBe("excepted");
    expect(applyConfig([removed()], config({ unstable: [{ at: F, reason: "draft" }] }))[0]!.status).toBe("unstable");
  });
  it("unstable: from the new list or the old one (an item leaves the list as it is removed); an empty reason says marked unstable", () => {
    expect(statuses(applyConfig([make("WIRE_FIELD_REMOVED")], config({}), [{ at: F, reason: "" }]))).toEqual([["WIRE_FIELD_REMOVED", "unstable", "marked unstable"]]);
    expect(statuses(applyConfig([make("WIRE_FIELD_REMOVED")], config({ unstable: [{ at: F, reason: "still being designed" }] })))).toEqual([["WIRE_FIELD_REMOVED", "unstable", "still being designed"]]);
    expect(applyConfig([make("WIRE_FIELD_REMOVED")], config({}), [{ at: "spec/q/", reason: "other" }])[0]!.status).toBe("breaking");
  });
  it("a tolerant reader waives only what old readers would reject (new writer, old reader)", () => {
    const tolerant = config({ tolerantReaders: [{ at: F, reason: "readers ship first" }] });
    const found = [
      make("WIRE_ENUM_VALUE_ADDED", { direction: "new-writer-old-reader" }),
      make("WIRE_ENUM_VALUE_REMOVED", { direction: "old-writer-new-reader" }),
      make("WIRE_CONST_CHANGED", { direction: "either" }),
    ];
    expect(statuses(applyConfig(found, tolerant))).toEqual([
      ["WIRE_ENUM_VALUE_ADDED", "tolerant-reader", "readers ship first"],
      ["WIRE_ENUM_VALUE_REMOVED", "breaking", undefined],
      ["WIRE_CONST_CHANGED", "breaking", undefined],
    ]);
  });
  it("precedence when several apply: not enforced, then excepted, then unstable, then tolerant reader", () => {
    const f = () => make("WIRE_ENUM_VALUE_ADDED", { direction: "new-writer-old-reader" });
    const exceptions = [{ rule: "WIRE_ENUM_VALUE_ADDED", at: F, reason: "exception" }];
    const unstable = [{ at: F, reason: "unstable" }];
    const tolerantReaders = [{ at: F, reason: "tolerant" }];
    expect(applyConfig([f()], config({ enforce: "SECURITY", exceptions, unstable, tolerantReaders }))[0]!.status).toBe("not-enforced");
    expect(applyConfig([f()], config({ exceptions, unstable, tolerantReaders }))[0]!.reason).toBe("exception");
    expect(applyConfig([f()], config({ unstable, tolerantReaders }))[0]!.reason).toBe("unstable");
    expect(applyConfig([f()], config({ tolerantReaders }))[0]!.reason).toBe("tolerant");
  });
});

describe("readConfig", () => {
  it("no spec/breaking.yaml: the default, enforce SOURCE, no entries", () => {
    expect(readConfig(writeTree({}))).toEqual({ config: { enforce: "SOURCE", exceptions: [], unstable: [], tolerantReaders: [] }, errors: [] });
  });
  it("reads each list; entries that are not objects are skipped; missing members are empty text", () => {
    const root = writeTree({ "spec/breaking.yaml": { breaking: { enforce: "WIRE", exceptions: [{ rule: "WIRE_FIELD_REMOVED", reason: "r1" }, "x"], unstable: [{ at: "spec/p/", reason: "r2" }], tolerantReaders: [{ at: F }] } } });
    expect(readConfig(root)).toEqual({
      config: { enforce: "WIRE", exceptions: [{ at: "", reason: "r1", rule: "WIRE_FIELD_REMOVED" }], unstable: [{ at: "spec/p/", reason: "r2", rule: "" }], tolerantReaders: [{ at: F, reason: "", rule: "" }] },
      errors: [],
    });
  });
  it("a file without a breaking section, or with lists that are not lists, is the default", () => {
    expect(readConfig(writeTree({ "spec/breaking.yaml": { other: 1 } })).config).toEqual(DEFAULT_CONFIG);
    expect(readConfig(writeTree({ "spec/breaking.yaml": { breaking: { enforce: 3, exceptions: {}, unstable: "x" } } })).config).toEqual(DEFAULT_CONFIG);
  });
  it("a file that does not parse: the default with the parse error at its file", () => {
    const { config: c, errors } = readConfig(writeTree({ "spec/breaking.yaml": "breaking: [\n" }));
    expect(c).toEqual(DEFAULT_CONFIG);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.file).toBe("spec/breaking.yaml");
  });
});

describe("checkConfigFile: the check stage's errors", () => {
  const meta = () => createMetaAjv([JSON.parse(readFileSync(join(ROOT, "spec/meta/breaking.schema.json"), "utf8"))]);
  const known = new Set(RULES.map((r) => r.id));
  it("no file: nothing to check", () => {
    expect(checkConfigFile(writeTree({}), meta(), known)).toEqual([]);
  });
  it("a valid file with known rules: no error", () => {
    const root = writeTree({ "spec/breaking.yaml": { breaking: { enforce: "WIRE", exceptions: [{ rule: "WIRE_FIELD_REMOVED", at: F, reason: "a reason long enough" }] } } });
    expect(checkConfigFile(root, meta(), known)).toEqual([]);
    expect(checkConfigFile(writeTree({ "spec/breaking.yaml": { breaking: { enforce: "WIRE" } } }), meta(), known)).toEqual([]);
  });
  it("a file that does not parse: its parse errors, nothing checked against the meta-schema", () => {
    const errors = checkConfigFile(writeTree({ "spec/breaking.yaml": "breaking: [\n" }), meta(), known);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.file === "spec/breaking.yaml" && e.lint !== "breaking-config")).toBe(true);
  });
  it("an unknown rule: at its line and pointer", () => {
    const text = ["breaking:", "  exceptions:", "    - rule: WIRE_FIELD_REMOVED", "      reason: a reason long enough", "    - rule: WIRE_NO_SUCH_RULE", "      reason: a reason long enough", ""].join("\n");
    const errors = checkConfigFile(writeTree({ "spec/breaking.yaml": text }), meta(), known);
    // A member is located at its name, as every lint of the loader does: `rule` opens column 7.
    expect(errors).toEqual([{ file: "spec/breaking.yaml", line: 5, column: 7, pointer: "/breaking/exceptions/1/rule", message: "unknown rule WIRE_NO_SUCH_RULE", lint: "breaking-config" }]);
  });
  it("a shape error: the meta-schema's message at its pointer, and no rule check", () => {
    const text = ["breaking:", "  enforce: EVERYTHING", "  exceptions:", "    - rule: WIRE_NO_SUCH_RULE", "      reason: a reason long enough", ""].join("\n");
    const errors = checkConfigFile(writeTree({ "spec/breaking.yaml": text }), meta(), known);
    expect(errors.map((e) => [e.pointer, e.line, e.lint])).toEqual([["/breaking/enforce", 2, "breaking-config"]]);
    expect(errors[0]!.message).toMatch(/allowed values/);
  });
  it("a meta-schema set without the breaking schema: one error naming its id", () => {
    const root = writeTree({ "spec/breaking.yaml": { breaking: {} } });
    expect(checkConfigFile(root, createMetaAjv([]), known)).toEqual([{ file: "spec/breaking.yaml", line: 1, column: 1, pointer: "", message: "spec/meta has no https://agent-contracts.dev/meta/breaking.schema.json", lint: "breaking-config" }]);
  });
});

describe("rules.ts: the rule table", () => {
  it("categories run strictest first; enforcing one enforces it and every later one", () => {
    expect(CATEGORIES).toEqual(["SOURCE", "WIRE", "SECURITY", "LIFECYCLE"]);
    expect(enforcedCategories("SOURCE")).toEqual(["SOURCE", "WIRE", "SECURITY", "LIFECYCLE"]);
    expect(enforcedCategories("SECURITY")).toEqual(["SECURITY", "LIFECYCLE"]);
    expect(enforcedCategories("LIFECYCLE")).toEqual(["LIFECYCLE"]);
  });
  it("every rule's id starts with its category; ids are unique; the map finds each", () => {
    for (const r of RULES) {
      expect(r.id.startsWith(`${r.category}_`), r.id).toBe(true);
      expect(RULES_BY_ID.get(r.id)).toBe(r);
    }
    expect(RULES_BY_ID.size).toBe(RULES.length);
  });
  it("every rule and category has a purpose: a sentence `breaking --list-rules` and the docs print", () => {
    for (const r of RULES) expect(r.purpose, r.id).toMatch(/^[A-Z$a-z].{15,}\.$/);
    for (const c of CATEGORIES) expect(CATEGORY_PURPOSE[c], c).toMatch(/^[A-Z].{15,}\.$/);
    expect(new Set(RULES.map((r) => r.purpose)).size).toBe(RULES.length);
  });
  it("the table built afresh: a rule looked up by its id has that id and category", async () => {
    // A fresh module, so the table is built now and not only when this file was first imported.
    vi.resetModules();
    const fresh = await import("../rules.js");
    expect(fresh.RULES_BY_ID.get("LIFECYCLE_INITIAL_CHANGED")).toMatchObject({ id: "LIFECYCLE_INITIAL_CHANGED", category: "LIFECYCLE" });
    expect(fresh.RULES_BY_ID.get("SOURCE_TYPE_REMOVED")).toMatchObject({ id: "SOURCE_TYPE_REMOVED", category: "SOURCE" });
  });
});
