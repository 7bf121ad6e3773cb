// compare.ts's own decisions (issue 41): a message removed (its message, place and witness), the
// $defs of a file compared entry by entry, one finding per rule and place, a difference inside an
// intersection kept only with a witness, the order findings come in, and witnesses skipped on
// request. Expectations are written by hand from the fixture (spec-fixture.ts); witnesses are
// re-checked with an ajv of the test's own.
import { describe, expect, it } from "vitest";
import { compareRoots, underIntersection } from "../compare.js";
import { baseFiles, expectWitness, M, MACHINE, OPEN, PROTOCOL, S, TYPES, writeTree, type Files } from "./spec-fixture.js";

function compare(edit: (f: Files) => void, base: (f: Files) => void = () => {}, options?: { witnesses?: boolean }) {
  const before = baseFiles();
  base(before);
  const after = baseFiles();
  base(after);
  edit(after);
  return { ...compareRoots(writeTree(before), writeTree(after), options), before, after };
}

describe("a message removed", () => {
  it("WIRE_MESSAGE_REMOVED at its protocol file, the old message as the old position, with a witness only the old version accepts", () => {
    const { findings, before, after } = compare((f) => void delete f[OPEN]);
    const hit = findings.filter((f) => f.rule === "WIRE_MESSAGE_REMOVED");
    expect(hit.map((f) => [f.message, f.at.file, f.at.pointer, f.old?.file, f.old?.pointer, f.removed, f.direction])).toEqual([
      ["message p/Open was removed: new readers reject every instance of it", PROTOCOL, "", OPEN, "", true, "old-writer-new-reader"],
    ]);
    expectWitness(hit[0]!, before, after);
    expect(hit[0]!.witness!.acceptedBy).toBe("old");
  });
  it("a common schema file removed is a SOURCE finding, not a message removed", () => {
    const { findings } = compare((f) => void delete f[TYPES].$defs.Upper);
    expect(findings.map((f) => f.rule)).not.toContain("WIRE_MESSAGE_REMOVED");
    const gone = compare((f) => {
      delete f[TYPES];
      f[M].properties.ref = { type: "string" };
      f[M].properties.ref.pattern = "^[a-z0-9-]+$";
    });
    expect(gone.findings.map((f) => f.rule)).not.toContain("WIRE_MESSAGE_REMOVED");
  });
});

describe("$defs", () => {
  it("each entry compared at its own pointer, / and ~ in its name escaped (RFC 6901)", () => {
    const odd = (max: number) => (f: Files) => void (f[TYPES].$defs["a/b~c"] = { title: "Odd", type: "string", maxLength: max });
    const { findings, before, after } = compare(odd(5), odd(10));
    const hit = findings.filter((f) => f.rule === "WIRE_BOUND_TIGHTENED");
    expect(hit.map((f) => [f.at.file, f.at.pointer])).toEqual([[TYPES, "/$defs/a~1b~0c/maxLength"]]);
    void before;
    void after;
  });
  it("a file that drops its $defs keyword altogether: the entries nothing references change no instance", () => {
    const { findings } = compare((f) => void delete f[OPEN].$defs, (f) => void (f[OPEN].$defs = { X: { type: "string" } }));
    expect(findings.filter((f) => f.category === "WIRE")).toEqual([]);
  });
  it("an entry only the old version has is compared no further (its removal is SOURCE_TYPE_REMOVED)", () => {
    const { findings } = compare((f) => void delete f[TYPES].$defs.Upper);
    expect(findings.filter((f) => f.category === "WIRE")).toEqual([]);
    expect(findings.map((f) => f.rule)).toEqual(["SOURCE_TYPE_REMOVED"]);
  });
});

describe("x-rules", () => {
  // x-rules is a message file's keyword (spec/meta/message.schema.json): validators apply a
  // message's rules at its root, so only a message's rules are compared.
  const rule = { id: "name-is-kind", kind: "equal", left: "/name", right: "/kind", message: "name must equal kind" };
  it("a rule added to a message is WIRE_RULE_CHANGED, shown by M's own example (name abc, kind a)", () => {
    const { findings, before, after } = compare((f) => void (f[M]["x-rules"] = [rule]));
    const hit = findings.filter((f) => f.rule === "WIRE_RULE_CHANGED");
    expect(hit.map((f) => [f.at.file, f.at.pointer])).toEqual([[M, "/x-rules/0"]]);
    expectWitness(hit[0]!, before, after);
  });
  it("x-rules written in a common schema file are no message's rules: nothing to report", () => {
    // Even with an example there that the rule would refuse.
    const example = (f: Files) => void (f[TYPES].examples = [{ name: "abc", kind: "a" }]);
    expect(compare((f) => void (f[TYPES]["x-rules"] = [rule]), example).findings).toEqual([]);
  });
});

describe("settling the findings", () => {
  it("findings come sorted by file, then line, then column, then rule id", () => {
    const { findings } = compare((f) => {
      delete f[M].properties.count;
      f[M].properties.kind.enum = ["a"];
      f[PROTOCOL].constants[0].items[0].value = "a2";
    });
    const keys = findings.map((f) => [f.at.file, f.at.line, f.at.column, f.rule] as const);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0)));
    expect(keys).toEqual(sorted);
    expect(new Set(keys.map((k) => k[0])).size).toBeGreaterThan(1);
    // Two rules at one place (M's kind enum): the rule ids in order.
    const atKind = findings.filter((f) => f.at.file === M && f.at.pointer === "/properties/kind/enum").map((f) => f.rule);
    expect(atKind).toEqual([...atKind].sort());
    expect(atKind.length).toBeGreaterThan(1);
  });
  it("every source's findings in file, line, column, rule order (rules at one place: LIFECYCLE < SECURITY < SOURCE < WIRE)", () => {
    // The sources run SOURCE, WIRE, SECURITY, LIFECYCLE in turn: this edit gives each of them a
    // finding that sorts before one an earlier source found.
    const { findings } = compare((f) => {
      delete f[MACHINE].states.b;
      delete f[M].properties.count;
      f[M].properties.kind.enum = ["a"];
      delete f[S].properties.sig;
      f[S]["x-replay"].skewSeconds = 10;
      f[PROTOCOL].constants[0].items[0].value = "a2";
    });
    // Positions follow the fixture written as JSON, two spaces a level: M's /properties opens on
    // line 11, its kind enum on line 13; S's /properties on line 10, its x-replay on line 49.
    expect(findings.map((f) => [f.at.file, f.at.pointer, f.rule])).toEqual([
      [MACHINE, "/states", "LIFECYCLE_STATE_REMOVED"],
      [MACHINE, "/states", "SOURCE_STATE_REMOVED"],
      [M, "/properties", "SOURCE_FIELD_REMOVED"],
      [M, "/properties", "WIRE_FIELD_REMOVED"],
      [M, "/properties/kind/enum", "SOURCE_ENUM_CASE_REMOVED"],
      [M, "/properties/kind/enum", "WIRE_ENUM_VALUE_REMOVED"],
      [S, "/properties", "SECURITY_APPROVAL_TOKEN_CHANGED"],
      [S, "/properties", "SOURCE_FIELD_REMOVED"],
      [S, "/properties", "WIRE_FIELD_REMOVED"],
      [S, "/x-replay", "SECURITY_REPLAY_CHANGED"],
      [PROTOCOL, "/constants/0/items/0/value", "WIRE_CONSTANT_CHANGED"],
    ]);
  });
  it("findings of one rule at one place keep the order they were found in (the sort is stable): count before tags", () => {
    const { findings } = compare((f) => void (delete f[M].properties.count, delete f[M].properties.tags));
    expect(findings.map((f) => [f.rule, f.message.match(/count|tags/)?.[0]])).toEqual([
      ["SOURCE_FIELD_REMOVED", "count"],
      ["SOURCE_FIELD_REMOVED", "tags"],
      ["WIRE_FIELD_REMOVED", "count"],
      ["WIRE_FIELD_REMOVED", "tags"],
    ]);
  });
  it("a witness is searched for WIRE findings only, and a constant keeps its old value as its witness", () => {
    const { findings } = compare((f) => {
      delete f[M].properties.count;
      delete f[MACHINE].states.b;
      f[PROTOCOL].constants[0].items[0].value = "a2";
    });
    const others = findings.filter((f) => f.category !== "WIRE");
    expect(others.map((f) => f.category).sort()).toEqual(["LIFECYCLE", "SOURCE", "SOURCE"]);
    for (const f of others) expect(f).not.toHaveProperty("witness");
    const constant = findings.find((f) => f.rule === "WIRE_CONSTANT_CHANGED");
    // Peers on the old version send "a", which the new one no longer expects.
    expect(constant?.witness).toEqual({ instance: "a", acceptedBy: "old" });
  });
  it("a branch added to an allOf counts only with a witness: one its siblings imply is dropped", () => {
    const allOf = (...parts: object[]) => (f: Files) => void (f[OPEN].properties.a = { allOf: parts });
    const base = allOf({ type: "string", maxLength: 5 });
    // maxLength 8 beside maxLength 5 admits the same strings.
    expect(compare(allOf({ type: "string", maxLength: 5 }, { type: "string", maxLength: 8 }), base).findings).toEqual([]);
    const { findings, before, after } = compare(allOf({ type: "string", maxLength: 5 }, { type: "string", maxLength: 3 }), base);
    expect(findings.map((f) => [f.rule, f.at.pointer])).toEqual([["WIRE_SCHEMA_CHANGED", "/properties/a/allOf"]]);
    expectWitness(findings[0]!, before, after);
  });
  it("a condition added beside others counts only with a witness: propertyNames on the closed M", () => {
    // M's property names are at most 5 characters long: a limit of 20 refuses none of its instances.
    expect(compare((f) => void (f[M].propertyNames = { maxLength: 20 })).findings).toEqual([]);
    const { findings, before, after } = compare((f) => void (f[M].propertyNames = { maxLength: 4 }));
    expect(findings.map((f) => [f.rule, f.at.pointer])).toEqual([["WIRE_SCHEMA_CHANGED", "/propertyNames"]]);
    expectWitness(findings[0]!, before, after);
  });
  it("only WIRE findings need a witness: a SOURCE finding on a field named then stays", () => {
    const field = (type: string) => (f: Files) => void (f[OPEN].properties.then = { type });
    const { findings } = compare(field("integer"), field("string"));
    expect(findings.filter((f) => f.category === "SOURCE").map((f) => [f.rule, f.at.pointer])).toEqual([["SOURCE_FIELD_TYPE_CHANGED", "/properties/then"]]);
  });
  it("outside an intersection a difference stays even when no witness is found", () => {
    // A key of 101 characters tells the versions apart; the witness search does not try one.
    const { findings } = compare((f) => void (f[OPEN].propertyNames = { maxLength: 101 }), (f) => void (f[OPEN].propertyNames = { maxLength: 100 }));
    expect(findings.map((f) => [f.rule, f.at.pointer])).toEqual([["WIRE_SCHEMA_CHANGED", "/propertyNames"]]);
  });
  it("a property named then, else or allOf is no intersection: its difference stays without a witness", () => {
    // The same unwitnessed change as the propertyNames one above, under a property of each name.
    for (const name of ["then", "else", "allOf"]) {
      const names = (maxLength: number) => (f: Files) => void (f[OPEN].properties[name] = { type: "object", propertyNames: { maxLength } });
      const { findings } = compare(names(101), names(100));
      expect(findings.map((f) => [f.rule, f.at.pointer]), name).toEqual([["WIRE_SCHEMA_CHANGED", `/properties/${name}/propertyNames`]]);
    }
  });
  it("underIntersection reads the pointer as keywords and names, from the root", () => {
    const table: [string, boolean][] = [
      ["/allOf/0/properties/a", true],
      ["/then/maxLength", true],
      ["/properties/a/else", true],
      ["/properties/then/maxLength", false],
      ["/$defs/allOf/properties/else", false],
      ["/$defs/allOf/allOf/1", true],
      ["/anyOf/0/then", true],
      ["/anyOf/then", false],
      ["/properties/a/const/then", false],
      ["/x-rules/0/then", false],
      ["", false],
    ];
    for (const [pointer, expected] of table) expect(underIntersection(pointer), pointer).toBe(expected);
  });
  it("no finding twice: the same rule, places and message are reported once", () => {
    const { findings } = compare((f) => void (f[M].properties.kind.enum = ["a"]));
    const keys = findings.map((f) => `${f.rule} ${f.at.file} ${f.at.pointer} ${f.old?.pointer} ${f.message}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it("findings alike but for their old place are not one: both copies of a duplicated transition removed", () => {
    const { findings } = compare(
      (f) => void f[MACHINE].transitions.splice(0, 2),
      (f) => void f[MACHINE].transitions.unshift({ from: "a", event: "go", to: "b" }),
    );
    expect(findings.filter((f) => f.rule === "LIFECYCLE_TRANSITION_REMOVED").map((f) => [f.at.pointer, f.old?.pointer])).toEqual([
      ["/transitions", "/transitions/0"],
      ["/transitions", "/transitions/1"],
    ]);
  });
  it("a difference inside allOf that no instance shows is dropped; one an instance shows stays, with it", () => {
    const inAllOf = (extra: object) => (f: Files) => void (f[OPEN].properties.a = { allOf: [{ type: "string", maxLength: 5 }, { type: "string", ...extra }] });
    // maxLength 8 under a sibling's maxLength 5: no string tells the versions apart.
    expect(compare(inAllOf({ maxLength: 8 }), inAllOf({})).findings).toEqual([]);
    const { findings, before, after } = compare(inAllOf({ maxLength: 3 }), inAllOf({}));
    const hit = findings.filter((f) => f.category === "WIRE");
    expect(hit.map((f) => [f.rule, f.at.pointer])).toEqual([["WIRE_BOUND_TIGHTENED", "/properties/a/allOf/1/maxLength"]]);
    expectWitness(hit[0]!, before, after);
    expect(hit[0]).not.toHaveProperty("maskable");
  });
  it("witnesses: false leaves every finding without a witness (and keeps what only a witness would drop)", () => {
    const { findings } = compare((f) => void delete f[M].properties.count, () => {}, { witnesses: false });
    expect(findings.filter((f) => f.category === "WIRE").length).toBeGreaterThan(0);
    expect(findings.every((f) => f.witness === undefined)).toBe(true);
    const inAllOf = (extra: object) => (f: Files) => void (f[OPEN].properties.a = { allOf: [{ type: "string", maxLength: 5 }, { type: "string", ...extra }] });
    expect(compare(inAllOf({ maxLength: 8 }), inAllOf({}), { witnesses: false }).findings.map((f) => f.rule)).toEqual(["WIRE_BOUND_TIGHTENED"]);
  });
  it("a tree that does not load reports its errors, the new tree's first", () => {
    const before = baseFiles();
    before[OPEN] = "title: [\n";
    const after = baseFiles();
    after[M] = "title: [\n";
    const { errors } = compareRoots(writeTree(before), writeTree(after));
    expect(errors.map((e) => e.file)).toEqual([M, OPEN]);
  });
  it("the config of the new tree decides the status; the old tree's unstable list counts too", () => {
    const unstable = (f: Files) => void (f["spec/breaking.yaml"] = { breaking: { unstable: [{ at: OPEN, reason: "being designed" }] } });
    const { findings } = compare((f) => {
      delete f[OPEN];
      delete f["spec/breaking.yaml"];
    }, unstable);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.status === "unstable")).toBe(true);
    const enforce = compare((f) => {
      delete f[OPEN];
      f["spec/breaking.yaml"] = { breaking: { enforce: "LIFECYCLE" } };
    });
    expect(enforce.findings.every((f) => f.status === "not-enforced")).toBe(true);
  });
});
