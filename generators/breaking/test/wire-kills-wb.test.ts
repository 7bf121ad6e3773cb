// WIRE comparison (wire.ts: conditionCandidates for dependentRequired, refusedMembers for
// propertyNames, TYPE_SAMPLES), one test per behaviour a user hits: a condition added to a member
// `p` of the open message Open, where only the instances built for that condition can show the
// break. Which names and instances each side accepts is worked out by hand from JSON Schema
// 2020-12 (propertyNames §10.3.2.4, dependentRequired §6.5.4, the string bounds §6.3); every
// witness is re-checked with the fixture's own ajv (expectWitness). witness.ts tries only the
// first 80 candidates, so where a test depends on that cut its fixture says how many come first.
import { describe, expect, it } from "vitest";
import { expectWitness, M, OPEN, where, wirePair, type Edit, type Files } from "./spec-fixture.js";

const P = "/properties/p";
const p = (schema: object): Edit => (f: Files) => void (f[OPEN].properties.p = structuredClone(schema));
const members = (instance: unknown) => Object.keys((instance as { p: object }).p);

/** The one WIRE finding, at `pointer` of Open in `direction`, with a witness that separates the versions. */
function one(old: object, now: object, pointer: string, direction: string) {
  const { wire, before, after } = wirePair(p(old), p(now));
  expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${OPEN}#${pointer} ${direction}`]);
  expectWitness(wire[0]!, before, after);
  return wire[0]!;
}

describe("dependentRequired added with many triggers: the one trigger that breaks old instances is found", () => {
  it("eight triggers, only the last names a member old writers may leave out", () => {
    // p may be a string, a boolean, null or an object that requires d. Triggers t1..t7 depend on
    // d, which every old object has: they refuse nothing old writers send. t8 depends on e, which
    // old writers may omit: {d, t8} is old-valid and new-invalid. Extra members must be non-empty
    // strings, so t8's value in the witness cannot be "" (and must be present, not undefined).
    // The tool builds one candidate per trigger and object instance (2 objects of 6 instances
    // per side): 28 come before t8's, well inside the 80 tried; one per instance of any type
    // would be 84.
    const old = {
      type: ["string", "boolean", "null", "object"],
      required: ["d"],
      properties: { d: { type: "string" }, e: { type: "string" } },
      additionalProperties: { type: "string", minLength: 1 },
    };
    const deps = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((i) => [`t${i}`, ["d"]]));
    const f = one(old, { ...old, dependentRequired: { ...deps, t8: ["e"] } }, `${P}/dependentRequired`, "old-writer-new-reader");
    const w = (f.witness!.instance as { p: Record<string, unknown> }).p;
    expect(w).toHaveProperty("t8");
    expect(w).not.toHaveProperty("e");
  });

  it("a dependentRequired member that is not a list (an old spec's draft-04 habit) does not stop the comparison", () => {
    // The tree loader checks no meta-schema (old commits may fail today's), so a malformed value
    // reaches the comparison; the other differences must still be reported.
    const { wire } = wirePair(
      () => {},
      (f) => {
        f[OPEN].dependentRequired = { t: { required: ["e"] } };
        f[M].properties.count.maximum = 5;
      },
    );
    expect(wire.map(where)).toContain(`WIRE_BOUND_TIGHTENED ${M}#/properties/count/maximum old-writer-new-reader`);
  });
});

describe("propertyNames added to a map that took any name: the probe names each reach a refusal", () => {
  // Old p is {} (its instances have no members), so only the probe names can show the break. Each
  // pattern refuses exactly one of the probes; the witness must carry that name.
  const rows: [string, string, string][] = [
    ["no member named 0", "^[^0]*$", "0"],
    ["no dash", "^[^-]*$", "-"],
    ["no empty name", "^.+$", ""],
    ["no capital A", "^[^A]*$", "A"],
    ["no underscore", "^[^_]*$", "_"],
    ["no space", "^[^ ]*$", " "],
    // The sampler walks the first alternative ("!"), so the probe is "!!": neither a lone ! nor
    // free of !, it is refused, while "!" and every other probe pass.
    ["a lone ! or a name without !", "^(!|[^!]*)$", "!!"],
    // A named group the sampler cannot walk: the probe is "!" alone, the one name refused.
    ["anything but a lone !", "^(?<h>[^!]|.{2,}|)$", "!"],
  ];
  it.each(rows)("%s (%s): refused %j", (_why, pattern, name) => {
    const f = one({}, { propertyNames: { pattern } }, `${P}/propertyNames`, "old-writer-new-reader");
    expect(members(f.witness!.instance)).toEqual([name]);
  });

  it("a pattern refusing only names with z: zzUndeclared, the eighth probe, is still tried", () => {
    // Five object instances (2 old, 3 new with its example) make 10 candidates per probe: the
    // eighth probe's are candidates 70-79, the last the witness search tries.
    const old = { type: "object", properties: { q: { const: 1 } } };
    const f = one(old, { ...old, examples: [{ q: 1, s: "t" }], propertyNames: { pattern: "^[^z]*$" } }, `${P}/propertyNames`, "old-writer-new-reader");
    expect(members(f.witness!.instance)).toContain("zzUndeclared");
  });

  it("propertyNames {not: ...} whose excluded schema also holds numbers: the excluded string name is tried first", () => {
    // Names are strings (§10.3.2.4): the numbers 1-4 match no name. Twelve object instances (6
    // per side: two examples and four variants) make 24 candidates per name; four number names
    // ahead of "secret" would push it to 96, past the 80 tried.
    const old = { type: "object", properties: { q: { enum: [1, 2, 3, 4] } }, examples: [{ q: 2 }, { q: 4, r: 1 }] };
    const not = { anyOf: [{ const: 1 }, { const: 2 }, { const: 3 }, { const: 4 }, { const: "secret" }] };
    const f = one(old, { ...old, propertyNames: { not } }, `${P}/propertyNames`, "old-writer-new-reader");
    expect(members(f.witness!.instance)).toContain("secret");
  });
});

describe("propertyNames length bounds: a name one character past the bound", () => {
  const rows: [string, object, string][] = [
    ["maxLength 0: only the empty name is allowed", { maxLength: 0 }, "a"],
    ["minLength 2", { minLength: 2 }, "a"],
    ["minLength 256", { minLength: 256 }, "a".repeat(255)],
    ["const: one fixed name", { const: "k" }, "zzUndeclared"],
  ];
  it.each(rows)("%s", (_why, pn, name) => {
    const f = one({}, { propertyNames: pn }, `${P}/propertyNames`, "old-writer-new-reader");
    expect(members(f.witness!.instance)).toEqual([name]);
  });

  it("minLength 1 -> 3: a 2-character name, which old readers take and new ones refuse", () => {
    // The old bound's own probe (the empty name) is refused by old readers too: it shows nothing.
    const f = one({ propertyNames: { minLength: 1 } }, { propertyNames: { minLength: 3 } }, `${P}/propertyNames`, "either");
    expect(f.witness!.acceptedBy).toBe("old");
    expect(members(f.witness!.instance)).toEqual(["aa"]);
  });

  // Bounds no probe should spell out (0, and a billion characters, past any string the runtime
  // can build): the pattern alone must show the break, and the comparison must not fail.
  const far: [string, object][] = [
    ["minLength 0, maxLength 1e9", { pattern: "^[a-z]*$", minLength: 0, maxLength: 1e9 }],
    ["minLength 1e9", { pattern: "^[a-z]*$", minLength: 1e9 }],
  ];
  it.each(far)("pattern ^[a-z]*$ beside %s", (_why, pn) => {
    one({}, { propertyNames: pn }, `${P}/propertyNames`, "old-writer-new-reader");
  });
});

describe("type narrowed: the lost type's own sample is tried", () => {
  it("integer dropped from object|integer, where six object instances fill the old side's samples", () => {
    // Old p synthesizes its two examples and four object variants before any integer (6 kept), so
    // only the integer sample shows that an old writer's 1 is refused.
    const old = { type: ["object", "integer"], properties: { q: { enum: [1, 2, 3, 4] } }, examples: [{ q: 2 }, { q: 4, r: 1 }] };
    const { wire, before, after } = wirePair(p(old), p({ ...old, type: ["object"] }));
    expect(wire.map(where)).toEqual([`WIRE_TYPE_CHANGED ${OPEN}#${P}/type old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
    expect((wire[0]!.witness!.instance as { p: unknown }).p).toBe(1);
  });
});
