// compare.ts's own decisions (issue 41): a message removed (its message, place and witness), the
// $defs of a file compared entry by entry, one finding per rule and place, a difference inside an
// intersection kept only with a witness, the order findings come in, and witnesses skipped on
// request. Expectations are written by hand from the fixture (spec-fixture.ts); witnesses are
// re-checked with an ajv of the test's own.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { baseFiles, expectWitness, M, OPEN, PROTOCOL, TYPES, writeTree, type Files } from "./spec-fixture.js";

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
  it("an entry only the old version has is compared no further (its removal is SOURCE_TYPE_REMOVED)", () => {
    const { findings } = compare((f) => void delete f[TYPES].$defs.Upper);
    expect(findings.filter((f) => f.category === "WIRE")).toEqual([]);
    expect(findings.map((f) => f.rule)).toEqual(["SOURCE_TYPE_REMOVED"]);
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
  it("no finding twice: the same rule, places and message are reported once", () => {
    const { findings } = compare((f) => void (f[M].properties.kind.enum = ["a"]));
    const keys = findings.map((f) => `${f.rule} ${f.at.file} ${f.at.pointer} ${f.old?.pointer} ${f.message}`);
    expect(new Set(keys).size).toBe(keys.length);
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
