// WIRE comparison of one schema pair (wire.ts, cmp and compareNot): boolean schemas, keywords
// beside a $ref, a $ref on one side only or on both, items, if/then/else, not, and the keywords
// the comparison does not reason about. Each expectation (rule, direction, place) is worked out by
// hand from JSON Schema 2020-12 for the edit in question; every witness is re-checked with the
// tests' own ajv (expectWitness), never taken from the detector.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { baseFiles, expectWitness, M, OPEN, TYPES, U, writeTree, type Files } from "./spec-fixture.js";

type Edit = (f: Files) => void;
const props = (f: Files, file = M) => f[file].properties;

/** Both versions start from the base fixture; `common` goes into both, `old`/`now` into one each. */
function pair(old: Edit, now: Edit, common: Edit = () => {}) {
  const before = baseFiles();
  const after = baseFiles();
  common(before);
  common(after);
  old(before);
  now(after);
  const { findings } = compareRoots(writeTree(before), writeTree(after));
  return { wire: findings.filter((f) => f.category === "WIRE"), before, after };
}
const where = (f: Finding) => `${f.rule} ${f.at.file}#${f.at.pointer} ${f.direction}`;
const none: Edit = () => {};

describe("boolean schemas", () => {
  it("items {type: string} made false: new readers reject every non-empty tags array", () => {
    const { wire, before, after } = pair(none, (f) => void (props(f).tags.items = false));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/tags/items either`]);
    // The message names both schemas: that is what tells the reader what changed.
    expect(wire[0]!.message).toBe('schema changed from {"type":"string"} to false');
    expectWitness(wire[0]!, before, after);
  });
  it("a property schema false made true admits the member: a candidate value is the witness", () => {
    // No example or generated instance carries `flag`, so only a candidate value separates.
    const { wire, before, after } = pair((f) => void (props(f).flag = false), (f) => void (props(f).flag = true));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/flag either`]);
    expectWitness(wire[0]!, before, after);
    expect(wire[0]!.witness!.acceptedBy).toBe("new");
  });
  it("a false branch of an item union made true: a candidate item is the witness", () => {
    // Generated arrays hold only the union's first branch (a string), which both versions accept;
    // only a candidate value at the item (1, not a string) separates.
    const items = (b: boolean): Edit => (f) => void (props(f).tags.items = { anyOf: [{ type: "string" }, b] });
    const { wire, before, after } = pair(items(false), items(true));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/tags/items/anyOf/1 either`]);
    expect(wire[0]!.message).toBe("schema changed from false to true");
    expectWitness(wire[0]!, before, after);
  });
  it("the same boolean schema on both sides is no finding", () => {
    const { wire } = pair(none, none, (f) => void ((props(f).flag = true), (props(f).tags.items = true)));
    expect(wire).toEqual([]);
  });
});

describe("keywords beside a $ref", () => {
  it("maxLength added beside a $ref narrows it: new readers reject longer ids", () => {
    const { wire, before, after } = pair(none, (f) => void (props(f).ref.maxLength = 5));
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/ref/maxLength old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("a $ref with a maxLength beside it inlined without the bound: old readers reject longer ids", () => {
    const withBound: Edit = (f) => void (props(f).ref = { $ref: "../common/types.json#/$defs/Id", maxLength: 5 });
    const inlined: Edit = (f) => void (props(f).ref = { type: "string", pattern: "^[a-z0-9-]+$" });
    const { wire, before, after } = pair(withBound, inlined);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/ref/maxLength new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
    const back = pair(inlined, withBound);
    expect(back.wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/ref/maxLength old-writer-new-reader`]);
    expectWitness(back.wire[0]!, back.before, back.after);
  });
  it("maxLength beside a $ref dropped: old readers reject longer ids", () => {
    const { wire, before, after } = pair((f) => void (props(f).ref.maxLength = 5), none);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/ref/maxLength new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("a bound beside a $ref dropped where the target keeps a tighter one is no finding (no instance separates)", () => {
    const capped: Edit = (f) => void (f[TYPES].$defs.Id3.maxLength = 10);
    const { wire } = pair((f) => void (props(f).ref = { $ref: "../common/types.json#/$defs/Id3", maxLength: 20 }), (f) => void (props(f).ref = { $ref: "../common/types.json#/$defs/Id3" }), capped);
    expect(wire).toEqual([]);
  });
});

describe("$ref on both sides", () => {
  it("a target changed is reported once, where it is defined, not again at each $ref to it", () => {
    const { wire, before, after } = pair(none, (f) => void (f[TYPES].$defs.Id.pattern = "^[a-z-]+$"));
    expect(wire.map(where)).toEqual([`WIRE_PATTERN_CHANGED ${TYPES}#/$defs/Id/pattern old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("two $refs retargeted in one message: each is a WIRE_REF_CHANGED at its own $ref", () => {
    const common: Edit = (f) => void (props(f).ref2 = { $ref: "../common/types.json#/$defs/Id3" });
    const { wire, before, after } = pair(none, (f) => void ((props(f).ref.$ref = "../common/types.json#/$defs/Upper"), (props(f).ref2.$ref = "../common/types.json#/$defs/Upper")), common);
    expect(wire.map(where).sort()).toEqual([
      `WIRE_REF_CHANGED ${M}#/properties/ref/$ref either`,
      `WIRE_REF_CHANGED ${M}#/properties/ref2/$ref either`,
    ]);
    for (const f of wire) {
      expect(f.old?.pointer).toBe(f.at.pointer);
      expectWitness(f, before, after);
    }
    // The message names both targets: the reader needs to know which $ref moved where.
    expect(wire.find((f) => f.at.pointer === "/properties/ref/$ref")!.message).toMatch(/^\$ref \.\.\/common\/types\.json#\/\$defs\/Id became \.\.\/common\/types\.json#\/\$defs\/Upper, which differs: /);
  });
  it("a $ref from one recursive type to another ends, with a finding at the $ref", () => {
    const lists: Edit = (f) => {
      f[TYPES].$defs.ListA = { type: "object", properties: { v: { type: "string" }, next: { $ref: "#/$defs/ListA" } } };
      f[TYPES].$defs.ListB = { type: "object", properties: { v: { type: "integer" }, next: { $ref: "#/$defs/ListB" } } };
      props(f).list = { $ref: "../common/types.json#/$defs/ListA" };
    };
    const { wire, before, after } = pair(none, (f) => void (props(f).list.$ref = "../common/types.json#/$defs/ListB"), lists);
    expect(wire.map((f) => `${f.rule} ${f.at.file}#${f.at.pointer}`)).toEqual([`WIRE_REF_CHANGED ${M}#/properties/list/$ref`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("$ref on one side only", () => {
  const inline: Edit = (f) => void (props(f).ref = { type: "string", pattern: "^[a-z]+$" });
  // The pattern comparison of the target against the inline schema is what the reader needs: its
  // message names both patterns. (Other findings beside it come from comparing keywords beside a
  // $ref; they are not what these tests are about.)
  it("a $ref replaced by a narrower inline schema: new readers reject old ids with digits", () => {
    const { wire, before, after } = pair(none, inline);
    const f = wire.find((x) => x.rule === "WIRE_PATTERN_CHANGED" && x.message.includes('"^[a-z0-9-]+$" -> "^[a-z]+$"'));
    expect(f && where(f), wire.map(where).join(", ")).toBe(`WIRE_PATTERN_CHANGED ${M}#/properties/ref/pattern old-writer-new-reader`);
    expect(f!.old?.pointer).toBe("/$defs/Id/pattern");
    expectWitness(f!, before, after);
  });
  it("an inline schema replaced by a wider $ref: old readers reject new ids with digits", () => {
    const { wire, before, after } = pair(inline, none);
    const f = wire.find((x) => x.rule === "WIRE_PATTERN_CHANGED" && x.message.includes('"^[a-z]+$" -> "^[a-z0-9-]+$"'));
    expect(f && where(f), wire.map(where).join(", ")).toBe(`WIRE_PATTERN_CHANGED ${TYPES}#/$defs/Id/pattern new-writer-old-reader`);
    expect(f!.old).toMatchObject({ file: M, pointer: "/properties/ref/pattern" });
    expectWitness(f!, before, after);
  });
  // A $ref that resolves nowhere is ref-resolves' finding; WIRE does not guess what it meant (a
  // type read as "any" there would claim a change no instance shows: the tree cannot be compiled).
  const nowhere = { $ref: "../common/types.json#/$defs/Nowhere", type: "string" };
  it("an unresolvable $ref on the old side is not compared", () => {
    const { wire } = pair((f) => void (props(f).ref = nowhere), (f) => void (props(f).ref = { type: "integer" }));
    expect(wire.filter((f) => f.at.pointer.startsWith("/properties/ref")).map(where)).toEqual([]);
  });
  it("an unresolvable $ref on the new side is not compared", () => {
    const { wire } = pair((f) => void (props(f).ref = { type: "integer" }), (f) => void (props(f).ref = nowhere));
    expect(wire.filter((f) => f.at.pointer.startsWith("/properties/ref")).map(where)).toEqual([]);
  });
});

describe("items", () => {
  it("items dropped: old readers reject arrays of non-strings", () => {
    const { wire, before, after } = pair(none, (f) => void delete props(f).tags.items);
    expect(wire.map(where)).toEqual([`WIRE_TYPE_CHANGED ${M}#/properties/tags/items/type new-writer-old-reader`]);
    expect(wire[0]!.old?.pointer).toBe("/properties/tags/items/type");
    expectWitness(wire[0]!, before, after);
  });
  it("items added: new readers reject arrays of non-strings", () => {
    const { wire, before, after } = pair((f) => void delete props(f).tags.items, none);
    expect(wire.map(where)).toEqual([`WIRE_TYPE_CHANGED ${M}#/properties/tags/items/type old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("if/then/else", () => {
  const count = (extra: object): Edit => (f) => void Object.assign(props(f).count, extra);
  it("with the same if, then and else compare pairwise: each tightened bound at its place, no catch-all", () => {
    const { wire, before, after } = pair(count({ if: { minimum: 5 }, then: { maximum: 8 }, else: { minimum: 1 } }), count({ if: { minimum: 5 }, then: { maximum: 7 }, else: { minimum: 2 } }));
    expect(wire.map(where).sort()).toEqual([
      `WIRE_BOUND_TIGHTENED ${M}#/properties/count/else/minimum old-writer-new-reader`,
      `WIRE_BOUND_TIGHTENED ${M}#/properties/count/then/maximum old-writer-new-reader`,
    ]);
    for (const f of wire) {
      expect(f.old?.pointer).toBe(f.at.pointer);
      expectWitness(f, before, after);
    }
  });
  it("with the same if, a then added restricts new readers; removed, old readers", () => {
    // if count <= 1 then count is 0: count 1 is what the then refuses.
    const constAt = (wire: Finding[]) => wire.filter((f) => f.rule === "WIRE_CONST_CHANGED");
    const added = pair(count({ if: { maximum: 1 } }), count({ if: { maximum: 1 }, then: { const: 0 } }));
    expect(constAt(added.wire).map(where), added.wire.map(where).join(", ")).toEqual([`WIRE_CONST_CHANGED ${M}#/properties/count/then/const old-writer-new-reader`]);
    expectWitness(constAt(added.wire)[0]!, added.before, added.after);
    const removed = pair(count({ if: { maximum: 1 }, then: { const: 0 } }), count({ if: { maximum: 1 } }));
    expect(constAt(removed.wire).map(where), removed.wire.map(where).join(", ")).toEqual([`WIRE_CONST_CHANGED ${M}#/properties/count/then/const new-writer-old-reader`]);
    expectWitness(constAt(removed.wire)[0]!, removed.before, removed.after);
  });
  it("a changed if is not compared as if it were the same: WIRE_SCHEMA_CHANGED at the if", () => {
    // Old: 5..10 fall under then: false, so old admits 0..4; new admits only 0. 1 separates.
    const { wire, before, after } = pair(count({ if: { minimum: 5 }, then: false }), count({ if: { minimum: 1 }, then: false }));
    const f = wire.find((x) => x.at.pointer === "/properties/count/if");
    expect(f && where(f), wire.map(where).join(", ")).toBe(`WIRE_SCHEMA_CHANGED ${M}#/properties/count/if either`);
    expectWitness(f!, before, after);
  });
  it("with a different if, then is not compared pairwise: a count of 5 takes then in old, not in new", () => {
    const { wire } = pair(count({ if: { minimum: 5 }, then: { maximum: 8 } }), count({ if: { minimum: 6 }, then: { maximum: 7 } }));
    expect(wire.filter((f) => f.at.pointer.startsWith("/properties/count/then/")).map(where)).toEqual([]);
    expect(wire.filter((f) => f.at.pointer === "/properties/count/if").map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/if either`]);
  });
  it("an if and then added where there were none: WIRE_SCHEMA_CHANGED at the if", () => {
    const { wire } = pair(none, count({ if: { minimum: 5 }, then: false }));
    expect(wire.filter((x) => x.at.pointer === "/properties/count/if").map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/if either`]);
  });
  it("with the same if, another keyword added beside it is still reported", () => {
    const { wire, before, after } = pair(count({ if: { minimum: 5 }, then: { maximum: 8 } }), count({ if: { minimum: 5 }, then: { maximum: 8 }, multipleOf: 2 }));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/multipleOf old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("not", () => {
  // name needs 3..10 lowercase letters; the excluded strings start with "ba" (or "ca"). Only a
  // doubled pattern sample ("baba") is long enough: no pool string and no generated name starts so.
  const long: Edit = (f) => void (props(f).name.minLength = 3);
  const not = (pattern: string): Edit => (f) => void (props(f).name.not = { pattern });
  it("a not added: one finding, new readers reject old names it matches", () => {
    const { wire, before, after } = pair(none, not("^ba"), long);
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/name/not old-writer-new-reader`]);
    // Which schema is excluded and who is hurt, in the words the reader acts on.
    expect(wire[0]!.message).toBe('not {"pattern":"^ba"} added: new readers reject old instances it matches');
    expectWitness(wire[0]!, before, after);
  });
  it("a not removed: old readers reject new names it matched", () => {
    const { wire, before, after } = pair(not("^ba"), none, long);
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/name/not new-writer-old-reader`]);
    expect(wire[0]!.message).toBe('not {"pattern":"^ba"} removed: old readers reject new instances it matches');
    expectWitness(wire[0]!, before, after);
  });
  it("a not changed: either side may reject the other's names", () => {
    const { wire, before, after } = pair(not("^ba"), not("^ca"), long);
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/name/not either`]);
    expect(wire[0]!.message).toBe('not changed from {"pattern":"^ba"} to {"pattern":"^ca"}; not provably compatible');
    expectWitness(wire[0]!, before, after);
  });
  it("a not without a pattern added: new readers reject the old name it names", () => {
    // The fixture's example has name "abc": an old instance the new not refuses.
    const { wire, before, after } = pair(none, (f) => void (props(f).name.not = { const: "abc" }));
    expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/name/not old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("the same not on both sides is no finding", () => {
    expect(pair(none, none, (f) => void (not("^ba")(f), long(f))).wire).toEqual([]);
  });
});

describe("the undeclared member of a witness", () => {
  it("an object closed whose propertyNames admit only 12-character names: the witness member has 12", () => {
    // zzUndeclared is 12 characters; the other stock names are 13.
    const named: Edit = (f) => void (f[OPEN].propertyNames = { minLength: 12, maxLength: 12 });
    const { wire, before, after } = pair(none, (f) => void (f[OPEN].additionalProperties = false), named);
    expect(wire.map(where)).toEqual([`WIRE_OBJECT_CLOSED ${OPEN}#/additionalProperties old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
  });
});

describe("keywords the comparison does not reason about", () => {
  it("multipleOf: 1 dropped from an integer admits nothing new: no finding", () => {
    expect(pair((f) => void (props(f).count.multipleOf = 1), none).wire).toEqual([]);
  });
  it("multipleOf added and changed: the messages say who is hurt", () => {
    const added = pair(none, (f) => void (props(f).count.multipleOf = 2));
    expect(added.wire.map((f) => f.message)).toEqual(["multipleOf 2 added: new readers may reject some old instances (not reasoned about further)"]);
    // An example with count 2 (a multiple of 2, not of 3) gives the witness search an instance.
    const two: Edit = (f) => void f[M].examples.push({ kind: "a", name: "abc", count: 2 });
    const removed = pair((f) => void (props(f).count.multipleOf = 2), none, two);
    expect(removed.wire.map((f) => f.message)).toEqual(["multipleOf 2 removed: old readers may reject some new instances (not reasoned about further)"]);
    const changed = pair((f) => void (props(f).count.multipleOf = 2), (f) => void (props(f).count.multipleOf = 3), two);
    expect(changed.wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${M}#/properties/count/multipleOf either`]);
    expect(changed.wire[0]!.message).toBe("multipleOf changed from 2 to 3; not provably compatible");
    expectWitness(changed.wire[0]!, changed.before, changed.after);
  });

  // A keyword that only adds a condition, added on one side: new readers are the ones hurt. An
  // example with a repeated tag and no ref is an old instance the added condition refuses.
  const ex: Edit = (f) => void f[M].examples.push({ kind: "a", name: "abc", count: 1, tags: ["x", "x"] });
  const restricting: [string, Edit, Edit, string][] = [
    ["uniqueItems", ex, (f) => void (props(f).tags.uniqueItems = true), "/properties/tags/uniqueItems"],
    ["contains", none, (f) => void (props(f).tags.contains = { const: "y" }), "/properties/tags/contains"],
    ["minContains", (f) => void (props(f).tags.contains = { type: "string" }), (f) => void (props(f).tags.minContains = 2), "/properties/tags/minContains"],
    ["maxContains", (f) => void (ex(f), (props(f).tags.contains = { type: "string" })), (f) => void (props(f).tags.maxContains = 1), "/properties/tags/maxContains"],
    ["dependentRequired", ex, (f) => void (f[M].dependentRequired = { count: ["ref"] }), "/dependentRequired"],
    ["dependentSchemas", ex, (f) => void (f[M].dependentSchemas = { count: { required: ["ref"] } }), "/dependentSchemas"],
    ["patternProperties", none, (f) => void (f[OPEN].patternProperties = { "^a$": { minLength: 2 } }), "/patternProperties"],
    ["prefixItems", none, (f) => void (props(f).tags.prefixItems = [{ const: "y" }]), "/properties/tags/prefixItems"],
    ["unevaluatedProperties", (f) => void (f[OPEN].examples = [{ a: "x", z: 1 }]), (f) => void (f[OPEN].unevaluatedProperties = false), "/unevaluatedProperties"],
    ["unevaluatedItems", (f) => void ((props(f).list = { type: "array" }), (f[M].examples[0].list = [1])), (f) => void (props(f).list.unevaluatedItems = false), "/properties/list/unevaluatedItems"],
  ];
  it.each(restricting)("%s added restricts new readers", (_key, common, add, pointer) => {
    const { wire, before, after } = pair(none, add, common);
    const f = wire.find((x) => x.at.pointer === pointer);
    expect(f && f.direction, wire.map(where).join(", ")).toBe("old-writer-new-reader");
    expectWitness(f!, before, after);
  });

  // A keyword compared by its own rule is not also reported as an unexplained schema change.
  const handled: [string, Edit, string][] = [
    ["$ref", (f) => void (props(f).ref.$ref = "../common/types.json#/$defs/Upper"), "WIRE_REF_CHANGED"],
    ["items", (f) => void (props(f).tags.items = { type: "integer" }), "WIRE_TYPE_CHANGED"],
    ["format", (f) => void (props(f).when.format = "date"), "WIRE_FORMAT_CHANGED"],
    ["anyOf", (f) => void (props(f).u = { anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] }), "WIRE_BOUND_TIGHTENED"],
    ["discriminator", (f) => void (f[U].discriminator.propertyName = "kind"), "WIRE_DISCRIMINATOR_CHANGED"],
    ["minLength", (f) => void (props(f).name.minLength = 2), "WIRE_BOUND_TIGHTENED"],
    ["minItems", (f) => void (props(f).tags.minItems = 1), "WIRE_BOUND_TIGHTENED"],
    ["maxItems", (f) => void (props(f).tags.maxItems = 3), "WIRE_BOUND_TIGHTENED"],
    ["minProperties", (f) => void (f[OPEN].minProperties = 1), "WIRE_BOUND_TIGHTENED"],
    ["maxProperties", (f) => void (f[OPEN].maxProperties = 3), "WIRE_BOUND_TIGHTENED"],
    ["minimum", (f) => void (props(f).count.minimum = 1), "WIRE_BOUND_TIGHTENED"],
    ["exclusiveMinimum", (f) => void (props(f).count.exclusiveMinimum = 0), "WIRE_BOUND_TIGHTENED"],
    ["exclusiveMaximum", (f) => void (props(f).count.exclusiveMaximum = 10), "WIRE_BOUND_TIGHTENED"],
  ];
  it.each(handled)("%s changed: its own rule, no WIRE_SCHEMA_CHANGED", (key, edit, rule) => {
    const common: Edit = key === "anyOf" ? (f) => void (props(f).u = { anyOf: [{ type: "string" }, { type: "integer" }] }) : none;
    const { wire } = pair(none, edit, common);
    expect(wire.map((f) => f.rule), wire.map(where).join(", ")).toContain(rule);
    expect(wire.filter((f) => f.rule === "WIRE_SCHEMA_CHANGED").map(where)).toEqual([]);
  });
});
