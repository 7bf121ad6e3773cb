// Every rule, both ways: a before/after pair where it fires, and a similar compatible change
// where nothing breaks. Expectations are written by hand from the rule's purpose; for WIRE
// findings the witness is re-checked here with a separate ajv on both versions' schemas.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { RULES } from "../rules.js";
import { baseFiles, expectWitness, M, MACHINE, OPEN, PROTOCOL, S, TYPES, U, writeTree, type Files } from "./spec-fixture.js";

type Edit = (f: Files) => void;
interface Case {
  rule: string;
  fire: Edit;
  ok: Edit;
  /** What the compatible change is, in words. */
  okIs: string;
}

const props = (f: Files, file = M) => f[file].properties;
const cfg = (section: object): Edit => (f) => void (f["spec/breaking.yaml"] = { breaking: section });
const both = (...edits: Edit[]): Edit => (f) => edits.forEach((e) => e(f));
const describeEdit: Edit = (f) => void (f[M].description = "Reworded.");
const reorderProps: Edit = (f) => void (f[M].properties = Object.fromEntries(Object.entries(props(f)).reverse()));
const tolerant = (at: string) => cfg({ tolerantReaders: [{ at, reason: "readers of M ship before its writers" }] });

export const CASES: Case[] = [
  { rule: "SOURCE_TYPE_REMOVED", fire: (f) => void (f[U].$defs.B.title = "UB2"), ok: describeEdit, okIs: "a description edit" },
  { rule: "SOURCE_FIELD_REMOVED", fire: (f) => void delete props(f).count, ok: (f) => void (props(f, OPEN).b = { type: "string" }), okIs: "an optional field added to an open object" },
  { rule: "SOURCE_FIELD_TYPE_CHANGED", fire: (f) => void (props(f).count.type = "number"), ok: reorderProps, okIs: "properties reordered" },
  { rule: "SOURCE_FIELD_MADE_REQUIRED", fire: (f) => void f[M].required.push("count"), ok: (f) => void f[M].required.reverse(), okIs: "required reordered" },
  { rule: "SOURCE_ENUM_CASE_REMOVED", fire: (f) => void (props(f).kind.enum = ["a"]), ok: (f) => void props(f).kind.enum.reverse(), okIs: "enum values reordered" },
  { rule: "SOURCE_CONSTANT_REMOVED", fire: (f) => void f[PROTOCOL].constants[0].items.pop(), ok: (f) => void f[PROTOCOL].constants[0].items.push({ name: "C", value: "c" }), okIs: "a constant added" },
  { rule: "SOURCE_LIFECYCLE_REMOVED", fire: (f) => void delete f[MACHINE], ok: (f) => void (f[MACHINE].description = "Reworded."), okIs: "a description edit" },
  { rule: "SOURCE_STATE_REMOVED", fire: (f) => void (delete f[MACHINE].states.c, f[MACHINE].transitions.pop()), ok: (f) => void (f[MACHINE].states.d = { description: "D" }), okIs: "a state added" },
  { rule: "SOURCE_EVENT_REMOVED", fire: (f) => void (delete f[MACHINE].events.stop, f[MACHINE].transitions.pop()), ok: (f) => void (f[MACHINE].events.pause = { description: "p" }), okIs: "an event added" },
  { rule: "WIRE_MESSAGE_REMOVED", fire: (f) => void delete f[OPEN], ok: (f) => void (f["spec/p/messages/New.yaml"] = { $id: "https://agent-contracts.dev/schemas/p/New.json", title: "New", type: "string" }), okIs: "a message added" },
  { rule: "WIRE_FIELD_REMOVED", fire: (f) => void delete props(f).count, ok: both((f) => void delete props(f, OPEN).a, cfg({ enforce: "WIRE" })), okIs: "an optional field removed from an open object (WIRE only)" },
  { rule: "WIRE_PROPERTY_ADDED_CLOSED", fire: (f) => void (props(f).extra = { type: "string" }), ok: (f) => void (props(f, OPEN).extra = { type: "string" }), okIs: "an optional field added to an open object" },
  { rule: "WIRE_REQUIRED_ADDED", fire: (f) => void (f[OPEN].required = ["a"]), ok: (f) => void f[M].required.reverse(), okIs: "required reordered" },
  { rule: "WIRE_REQUIRED_REMOVED", fire: (f) => void (f[M].required = ["kind"]), ok: (f) => void (props(f).name.description = "The name."), okIs: "a description edit" },
  { rule: "WIRE_OBJECT_CLOSED", fire: (f) => void (f[OPEN].additionalProperties = false), ok: (f) => void (f[OPEN].additionalProperties = true), okIs: "additionalProperties: true written out (same as absent)" },
  { rule: "WIRE_OBJECT_OPENED", fire: (f) => void delete f[M].additionalProperties, ok: both((f) => void delete f[M].additionalProperties, tolerant(M)), okIs: "opened for a tolerant reader" },
  { rule: "WIRE_TYPE_CHANGED", fire: (f) => void (props(f).count.type = "string"), ok: (f) => void (props(f).count.type = ["integer"]), okIs: "the same type written as a list" },
  { rule: "WIRE_ENUM_VALUE_REMOVED", fire: (f) => void (props(f).kind.enum = ["a"]), ok: (f) => void props(f).kind.enum.reverse(), okIs: "enum values reordered" },
  { rule: "WIRE_ENUM_VALUE_ADDED", fire: (f) => void props(f).kind.enum.push("c"), ok: both((f) => void props(f).kind.enum.push("c"), tolerant(`${M}#/properties/kind`)), okIs: "a value added for a tolerant reader" },
  { rule: "WIRE_CONST_CHANGED", fire: (f) => void (props(f).fixed.const = "v2"), ok: both((f) => void (props(f).fixed = { enum: ["v1"] }), cfg({ enforce: "WIRE" })), okIs: "const v1 written as enum [v1] (WIRE only: the generated type changes)" },
  { rule: "WIRE_DISCRIMINATOR_CHANGED", fire: (f) => void (f[U].$defs.B.properties.type.const = "c"), ok: (f) => void f[U].oneOf.reverse(), okIs: "branches reordered" },
  { rule: "WIRE_PATTERN_CHANGED", fire: (f) => void (props(f).name.pattern = "^[a-z0-9]+$"), ok: both((f) => void (props(f).name.pattern = "^[a-z]+$|^[0-9]+$"), tolerant(M)), okIs: "a pattern loosened (old one kept as an alternative) for a tolerant reader" },
  { rule: "WIRE_FORMAT_CHANGED", fire: (f) => void (props(f).when.format = "date"), ok: (f) => void (props(f).when.description = "When."), okIs: "a description edit" },
  { rule: "WIRE_BOUND_TIGHTENED", fire: (f) => void (props(f).name.maxLength = 5), ok: both((f) => void (props(f).name.maxLength = 20), tolerant(M)), okIs: "a length loosened for a tolerant reader" },
  { rule: "WIRE_BOUND_LOOSENED", fire: (f) => void (props(f).count.maximum = 20), ok: both((f) => void (props(f).count.maximum = 20), tolerant(`${M}#/properties/count`)), okIs: "a range loosened for a tolerant reader" },
  { rule: "WIRE_REF_CHANGED", fire: (f) => void (props(f).ref.$ref = "../common/types.json#/$defs/Upper"), ok: both((f) => void (props(f).ref.$ref = "../common/types.json#/$defs/Id3"), cfg({ enforce: "WIRE" })), okIs: "a $ref to an equivalent schema (WIRE only: the type name changes)" },
  { rule: "WIRE_RULE_CHANGED", fire: (f) => void (f[M]["x-rules"] = [{ id: "name-is-kind", kind: "equal", left: "/name", right: "/kind", message: "name must equal kind" }]), ok: (f) => void (f[OPEN]["x-rules"][0].message = "Reworded: b agrees with a."), okIs: "a rule's message reworded" },
  { rule: "WIRE_CONSTANT_CHANGED", fire: (f) => void (f[PROTOCOL].constants[0].items[0].value = "a2"), ok: (f) => void (f[PROTOCOL].constants[0].items[0].description = "The A."), okIs: "a constant's description added" },
  { rule: "WIRE_SCHEMA_CHANGED", fire: (f) => void (props(f).count.multipleOf = 2), ok: (f) => void (props(f).count.$comment = "counted"), okIs: "a $comment added" },
  { rule: "SECURITY_SIGNATURE_CHANGED", fire: (f) => void f[S]["x-signature"].lines.reverse(), ok: (f) => void (f[S].description = "Signed."), okIs: "a description edit" },
  { rule: "SECURITY_CONTENT_ADDRESS_CHANGED", fire: (f) => void (f[S]["x-content-address"].prefix = "t-"), ok: (f) => void (f[S].description = "Addressed."), okIs: "a description edit" },
  { rule: "SECURITY_APPROVAL_TOKEN_CHANGED", fire: (f) => void f[S].required.push("sig"), ok: (f) => void (props(f, S).sub.description = "Subject."), okIs: "a claim's description edit" },
  { rule: "SECURITY_REPLAY_CHANGED", fire: (f) => void (f[S]["x-replay"].scopeFields = []), ok: (f) => void (f[S].properties = Object.fromEntries(Object.entries(props(f, S)).reverse())), okIs: "claims reordered" },
  { rule: "LIFECYCLE_REMOVED", fire: (f) => void delete f[MACHINE], ok: (f) => void (f["spec/p/lifecycles/n.machine.yaml"] = { ...f[MACHINE], name: "n" }), okIs: "a machine added" },
  { rule: "LIFECYCLE_STATE_REMOVED", fire: (f) => void (delete f[MACHINE].states.c, f[MACHINE].transitions.pop()), ok: (f) => void (f[MACHINE].states.d = { description: "D" }), okIs: "a state added" },
  { rule: "LIFECYCLE_TRANSITION_REMOVED", fire: (f) => void f[MACHINE].transitions.shift(), ok: (f) => void f[MACHINE].transitions.push({ from: "a", event: "stop", to: "c" }), okIs: "a transition added" },
  { rule: "LIFECYCLE_GUARD_ADDED", fire: (f) => void (f[MACHINE].transitions[0].guard = "h"), ok: (f) => void delete f[MACHINE].transitions[1].guard, okIs: "a guard removed" },
  { rule: "LIFECYCLE_TERMINAL_CHANGED", fire: (f) => void (f[MACHINE].states.c.terminal = false), ok: (f) => void (f[MACHINE].states.b.terminal = false), okIs: "terminal: false written out" },
  { rule: "LIFECYCLE_INITIAL_CHANGED", fire: (f) => void (f[MACHINE].initial = "b"), ok: (f) => void (f[MACHINE].states = Object.fromEntries(Object.entries(f[MACHINE].states).reverse())), okIs: "states reordered" },
];

export function run(edit: Edit): { findings: Finding[]; before: Files; after: Files } {
  const before = baseFiles();
  const after = baseFiles();
  edit(after);
  return { ...compareRoots(writeTree(before), writeTree(after)), before, after };
}

describe("every rule has a fixture pair", () => {
  it("the table covers every rule exactly once", () => {
    expect(CASES.map((c) => c.rule).sort()).toEqual(RULES.map((r) => r.id).sort());
  });
  it("the unchanged fixture has no findings", () => {
    expect(run(() => {}).findings).toEqual([]);
  });
});

describe.each(CASES)("$rule", (c) => {
  it("fires on the breaking change", () => {
    const { findings, before, after } = run(c.fire);
    const hit = findings.filter((f) => f.rule === c.rule);
    expect(hit.length, findings.map((f) => f.rule).join(", ")).toBeGreaterThan(0);
    expect(hit.every((f) => f.status === "breaking")).toBe(true);
    for (const f of findings.filter((x) => x.category === "WIRE")) expectWitness(f, before, after);
  });
  it(`does not fire on a compatible change: ${c.okIs}`, () => {
    const { findings } = run(c.ok);
    expect(findings.filter((f) => f.status === "breaking").map((f) => `${f.rule} ${f.message}`)).toEqual([]);
  });
});

describe("configuration", () => {
  it("an exception with a reason waives exactly its rule and place", () => {
    const { findings } = run(both((f) => void (props(f).kind.enum = ["a"]), cfg({ exceptions: [{ rule: "WIRE_ENUM_VALUE_REMOVED", at: `${M}#/properties/kind`, reason: "b was never sent by any released writer" }] })));
    expect(findings.find((f) => f.rule === "WIRE_ENUM_VALUE_REMOVED")?.status).toBe("excepted");
    expect(findings.find((f) => f.rule === "SOURCE_ENUM_CASE_REMOVED")?.status).toBe("breaking");
  });
  it("an unstable item reports but never breaks", () => {
    const { findings } = run(both((f) => void delete f[OPEN], cfg({ unstable: [{ at: OPEN, reason: "still being designed" }] })));
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.status === "unstable")).toBe(true);
  });
  it("enforce: LIFECYCLE leaves SOURCE and WIRE findings unenforced", () => {
    const { findings } = run(both((f) => void (props(f).count.type = "string"), cfg({ enforce: "LIFECYCLE" })));
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.status === "not-enforced")).toBe(true);
  });
  it("a narrowed pattern is proven tightened, with the separating string", () => {
    const { findings, before, after } = run((f) => void (props(f).name.pattern = "^[a-y]+$"));
    const f = findings.find((x) => x.rule === "WIRE_PATTERN_CHANGED")!;
    expect(f.direction).toBe("old-writer-new-reader");
    expect(f.message).toContain('tightened: new readers reject some old strings, such as "z"');
    expectWitness(f, before, after);
  });
  it("a pattern rewritten to admit the same strings is no finding (SingleLineId's ReDoS fix)", () => {
    const single = (pattern: string) => (f: Files) => void (props(f).name = { type: "string", maxLength: 10, pattern });
    const before = baseFiles();
    const after = baseFiles();
    single("^[^\\n]*\\S[^\\n]*$")(before);
    single("^[^\\S\\n]*\\S[^\\n]*$")(after);
    expect(compareRoots(writeTree(before), writeTree(after)).findings).toEqual([]);
  });
  it("a pattern outside the decided subset (a lookahead) is not provably included: the message says so", () => {
    const { findings } = run((f) => void (props(f).name.pattern = "^(?!x)[a-z]+$"));
    const f = findings.find((x) => x.rule === "WIRE_PATTERN_CHANGED")!;
    expect(f.message).toContain("not provably included");
  });
  it("a loosened pattern without a tolerant reader still breaks old readers", () => {
    const { findings, before, after } = run((f) => void (props(f).name.pattern = "^[a-z]+$|^[0-9]+$"));
    const f = findings.find((x) => x.rule === "WIRE_PATTERN_CHANGED")!;
    expect(f.direction).toBe("new-writer-old-reader");
    expectWitness(f, before, after);
  });
});

describe("witnesses under constrained member names", () => {
  it("a bound added under additionalProperties of a map whose names have a pattern has a witness", () => {
    const map = (extra: object) => (f: Files) => void (props(f, OPEN).counts = { type: "object", propertyNames: { pattern: "^[A-Z][A-Z0-9_]*$" }, additionalProperties: { type: "integer", minimum: 1, ...extra } });
    const before = baseFiles();
    const after = baseFiles();
    map({})(before);
    map({ maximum: 100 })(after);
    const { findings } = compareRoots(writeTree(before), writeTree(after));
    const f = findings.find((x) => x.rule === "WIRE_BOUND_TIGHTENED")!;
    expect(f.at.pointer).toBe("/properties/counts/additionalProperties/maximum");
    expectWitness(f, before, after);
    expect(Object.keys((f.witness!.instance as { counts: object }).counts)[0]).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
});

describe("not", () => {
  const guarded = (f: Files) => void (props(f, OPEN).a = { type: "string", not: { pattern: "(?:[Bb]earer\\s+\\S)|(?:\\bsk-[A-Za-z0-9_-]{8,})" } });
  for (const [what, before, after, direction] of [
    ["removed: old readers reject what it excluded", guarded, () => {}, "new-writer-old-reader"],
    ["added: new readers reject what it excludes", () => {}, guarded, "old-writer-new-reader"],
  ] as const) {
    it(`a not ${what}, with a witness`, () => {
      const b = baseFiles();
      const a = baseFiles();
      before(b);
      after(a);
      const { findings } = compareRoots(writeTree(b), writeTree(a));
      const f = findings.find((x) => x.rule === "WIRE_SCHEMA_CHANGED")!;
      expect(f.direction).toBe(direction);
      expectWitness(f, b, a);
    });
  }
});

describe("keywords that only add a condition", () => {
  it("multipleOf added restricts new readers (direction and witness); removed, old readers", () => {
    const tightened = run((f) => void (props(f).count.multipleOf = 2));
    const t = tightened.findings.find((x) => x.rule === "WIRE_SCHEMA_CHANGED")!;
    expect(t.direction).toBe("old-writer-new-reader");
    expectWitness(t, tightened.before, tightened.after);
    const before = baseFiles();
    props(before).count.multipleOf = 2;
    const after = baseFiles();
    const { findings } = compareRoots(writeTree(before), writeTree(after));
    const l = findings.find((x) => x.rule === "WIRE_SCHEMA_CHANGED")!;
    expect(l.direction).toBe("new-writer-old-reader");
    expectWitness(l, before, after);
  });
  it("propertyNames added to an open object: the witness carries a member name it refuses", () => {
    const { findings, before, after } = run((f) => void (f[OPEN].propertyNames = { not: { enum: ["secret", "token"] } }));
    const f = findings.find((x) => x.rule === "WIRE_SCHEMA_CHANGED")!;
    expect(f.direction).toBe("old-writer-new-reader");
    expectWitness(f, before, after);
  });
  it("propertyNames added as a closed object opens is no condition old writers can break: no finding for it", () => {
    const before = baseFiles();
    before[OPEN].additionalProperties = false;
    const after = baseFiles();
    after[OPEN].propertyNames = { not: { enum: ["secret"] } };
    const { findings } = compareRoots(writeTree(before), writeTree(after));
    expect(findings.map((x) => x.rule)).toEqual(["WIRE_OBJECT_OPENED"]);
  });
});

describe("positions", () => {
  it("a removed field points at the old location too", () => {
    const { findings } = run((f) => void delete props(f).count);
    const f = findings.find((x) => x.rule === "SOURCE_FIELD_REMOVED")!;
    expect(f.removed).toBe(true);
    expect(f.old).toMatchObject({ file: M, pointer: "/properties/count" });
    expect(f.old!.line).toBeGreaterThan(1);
  });
});
void TYPES;

// A SECURITY declaration dropped (or added) while its message stays: existing signatures, ids,
// tokens or replay records lose their meaning as surely as when the declaration is edited.
describe.each([
  ["x-signature", "SECURITY_SIGNATURE_CHANGED"],
  ["x-content-address", "SECURITY_CONTENT_ADDRESS_CHANGED"],
  ["x-approval-token", "SECURITY_APPROVAL_TOKEN_CHANGED"],
  ["x-replay", "SECURITY_REPLAY_CHANGED"],
])("%s dropped or added while the message stays", (key, rule) => {
  const drop: Edit = (f) => void delete f[S][key];
  it(`dropped: ${rule}, breaking, at the message and the old declaration`, () => {
    const { findings } = run(drop);
    const hit = findings.filter((f) => f.rule === rule);
    expect(hit.map((f) => [f.status, f.message]), findings.map((f) => f.rule).join(", ")).toEqual([["breaking", `S: ${key} declaration removed`]]);
    expect(hit[0]!.at.pointer).toBe("");
    expect(hit[0]!.old?.pointer).toBe(`/${key}`);
  });
  it(`added to a message that had none: ${rule}`, () => {
    const before = baseFiles();
    delete before[S][key];
    const { findings } = compareRoots(writeTree(before), writeTree(baseFiles()));
    expect(findings.filter((f) => f.rule === rule).map((f) => [f.status, f.message])).toEqual([["breaking", `S: ${key} declaration added`]]);
  });
  it("kept as it was while the message's other declarations are dropped: no finding for it", () => {
    const { findings } = run((f) => {
      for (const other of ["x-signature", "x-content-address", "x-approval-token", "x-replay"]) if (other !== key) delete f[S][other];
    });
    expect(findings.filter((f) => f.rule === rule)).toEqual([]);
  });
});
