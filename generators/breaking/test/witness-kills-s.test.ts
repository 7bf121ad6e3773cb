// Candidate instances (synth.ts) and the witness search (witness.ts), checked from outside: every
// instance synth offers for a schema is re-checked with the fixture's own ajv (JSON Schema 2020-12
// with formats), every string offered for a pattern with RegExp "u" (ECMA-262, as ajv compiles
// patterns), and every witness with expectWitness-style checks on both versions. The path table
// for apply is worked out by hand from what a finding's instance path means: a member or item to
// set (an index past the end appends) or to remove.
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/types.js";
import type { Candidate, Finding, PathToken, WitnessRequest } from "../finding.js";
import { stringsOfLength, synth } from "../synth.js";
import { loadTree } from "../tree.js";
import { apply, findWitness, Validators } from "../witness.js";
import { accepts, writeTree, type Files } from "./spec-fixture.js";
import { admits } from "./pattern-check.js";
import { expectSeparates, FILE, filesWith, locAt, request, versions } from "./witness-fixture.js";


// One schema per entry, each under $defs; the comment says what a correct instance needs.
const DEFS: Record<string, JsonValue> = {
  // Formats (ajv-formats): a plain "a" fails each of these.
  dateTime: { type: "string", format: "date-time" },
  date: { type: "string", format: "date" },
  time: { type: "string", format: "time" },
  uri: { type: "string", format: "uri" },
  url: { type: "string", format: "url" },
  email: { type: "string", format: "email" },
  uuid: { type: "string", format: "uuid" },
  ipv4: { type: "string", format: "ipv4" },
  ipv6: { type: "string", format: "ipv6" },
  hostname: { type: "string", format: "hostname" },
  uriRefNonEmpty: { type: "string", format: "uri-reference", minLength: 1 }, // "" is a uri-reference
  // Patterns: lengths from quantifiers, minLength above the walked sample, maxLength below the pool.
  hex64: { type: "string", pattern: "^[a-f0-9]{64}$" },
  xs: { type: "string", pattern: "^x{3,5}$", minLength: 4 },
  boundedAs: { type: "string", pattern: "^a+$", minLength: 3, maxLength: 4 },
  versioned: { type: "string", pattern: "^v[0-9]+$", minLength: 4 },
  versionedExact: { type: "string", pattern: "^v[0-9]+$", minLength: 4, maxLength: 4 },
  exactMax: { type: "string", pattern: "^(?<a>x){3}$", maxLength: 3 },
  unknownFormat: { type: "string", format: "regex" }, // a format synth has no sample for
  untypedString: { minLength: 2, not: { type: "array" } }, // no type: instances are inferred as strings
  versioned6: { type: "string", pattern: "^ver[0-9]+$", minLength: 6 }, // padded with the last character only
  exact3: { type: "string", minLength: 3, maxLength: 3 },
  letters: { type: "string", pattern: "^\\p{L}{2}$" },
  // A named group (which the walked sample does not follow): only repeated characters at the
  // lengths minLength and the quantifiers name can satisfy these.
  digits5: { type: "string", pattern: "^(?<d>[0-9])+$", minLength: 5, maxLength: 6 },
  xPairs: { type: "string", pattern: "^(?<a>xx){2,4}$" },
  hex8: { type: "string", pattern: "^(?<h>[a-f0-9]){8}$" },
  x12: { type: "string", pattern: "^(?<a>x){12}$" },
  xFives: { type: "string", pattern: "^(?<a>x{5}){2,10}$" },
  // One character each, two or three of it, where no pool string fits.
  ...Object.fromEntries(["a", "0", "f", "A", "x", "-", "_", " ", "\\."].map((c, i) => [`run${i}`, { type: "string", pattern: `^(?<c>${c})+$`, minLength: 2, maxLength: 3 }])),
  // Numbers: exclusive bounds are open; an integer bound between integers rounds inwards.
  intExclMin: { type: "integer", exclusiveMinimum: 5 },
  numOpenUnit: { type: "number", exclusiveMinimum: 5, exclusiveMaximum: 6 },
  intExclMax: { type: "integer", exclusiveMaximum: 0 },
  numNegMax: { type: "number", maximum: -3 },
  numExclMaxNeg: { type: "number", exclusiveMaximum: -2 },
  intFracMin: { type: "integer", minimum: 2.5 },
  intMinMax: { type: "integer", minimum: 7, maximum: 9 },
  // Arrays.
  uniqueThree: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 3, uniqueItems: true },
  noItemsAllowed: { type: "array", items: false },
  anyItems: { type: "array", minItems: 2 },
  someItem: { type: "array", items: { type: "integer" }, contains: { type: "integer" } },
  twoBig: { type: "array", items: { type: "integer", minimum: 5 }, minItems: 2 },
  // Objects.
  onlyRequired: { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "string" } }, maxProperties: 1 },
  paired: {
    type: "object",
    required: ["kind", "n"],
    properties: { kind: { enum: ["a", "b"] }, n: { enum: [1, 2] } },
    if: { properties: { kind: { const: "a" } } },
    then: { properties: { n: { const: 2 } } },
  },
  anyMember: { type: "object", required: ["t"], properties: { t: true } },
  oddNames: { type: "object", required: ["a/b", "c~d"], properties: { "a/b": { type: "integer", minimum: 3 }, "c~d": { const: 1 } }, additionalProperties: false },
  node: { type: "object", required: ["v"], properties: { v: { type: "integer", minimum: 1 }, child: { $ref: "#/$defs/node" } } },
  // Unions, intersections, values.
  union: { anyOf: [{ type: "integer", minimum: 10 }, { type: "boolean" }] },
  choice: { oneOf: [{ type: "null" }, { type: "string", format: "date" }] },
  firstOfAll: { allOf: [{ type: "integer", minimum: 3 }] },
  nullOrBool: { type: ["null", "boolean"] },
  fixed: { const: { k: [1] } },
  listed: { enum: [3, "x", null] },
  viaRef: { $ref: "#/$defs/intMinMax" },
  withExample: { type: "string", pattern: "^(?<q>q)+$", examples: ["qq"] }, // only the example fits
  allOfBesideProps: { type: "object", required: ["a"], properties: { a: { const: 1 } }, allOf: [{ type: "object" }] },
  notFalse: { type: "boolean", not: { const: false } },
};

describe("synth offers instances the schema accepts", () => {
  const files = filesWith({ type: "object", $defs: DEFS });
  const tree = loadTree(writeTree(files));
  it.each(Object.keys(DEFS))("%s", (name) => {
    const pointer = `/$defs/${name}`;
    const values = synth(tree, locAt(tree, pointer));
    expect(values.length, "at least one instance").toBeGreaterThan(0);
    const rejected = values.filter((v) => !accepts(files, FILE, pointer, v));
    // The object with maxProperties 1 and the if/then pair only need one accepted instance: their
    // other variants carry optional members or pairings the schema refuses. So does the recursive
    // node, whose deepest member synth leaves empty where it stops following the $ref.
    // An example is an instance the author wrote; synth's own guesses beside it may miss.
    if (["onlyRequired", "paired", "node", "withExample"].includes(name)) expect(rejected.length).toBeLessThan(values.length);
    else expect(rejected, JSON.stringify(values)).toEqual([]);
  });

  it("a union offers an instance of every branch", () => {
    const values = synth(tree, locAt(tree, "/$defs/union"));
    expect(values.some((v) => typeof v === "number")).toBe(true);
    expect(values.some((v) => typeof v === "boolean")).toBe(true);
    const choice = synth(tree, locAt(tree, "/$defs/choice"));
    expect(choice).toContain(null);
    expect(choice.some((v) => typeof v === "string")).toBe(true);
  });

  it("repeated branches do not crowd out a later one, and the limit holds", () => {
    const schema = { anyOf: [...Array.from({ length: 6 }, () => ({ const: 1 })), { const: 2 }] };
    const files = filesWith({ $defs: { u: schema } });
    const t = loadTree(writeTree(files));
    const values = synth(t, locAt(t, "/$defs/u"));
    expect(values).toContain(2);
    expect(new Set(values.map((x) => JSON.stringify(x))).size).toBe(values.length);
    expect(synth(t, locAt(t, "/$defs/u"), 1)).toHaveLength(1);
  });

  it("a type list offers each type", () => {
    const values = synth(tree, locAt(tree, "/$defs/nullOrBool"));
    expect(values).toContain(null);
    expect(values.some((v) => typeof v === "boolean")).toBe(true);
  });

  it("a schema of `true` offers some value", () => {
    expect(synth(tree, { ...locAt(tree, ""), schema: true }).length).toBeGreaterThan(0);
  });

  it("an invalid pattern (an old spec's) does not stop synth", () => {
    expect(() => synth(tree, { ...locAt(tree, ""), schema: { type: "string", pattern: "[" } })).not.toThrow();
  });

  it("a recursive schema finishes", () => {
    const values = synth(tree, locAt(tree, "/$defs/node"));
    expect(values.length).toBeGreaterThan(0);
  });

  it("an object offers an instance with only its required members", () => {
    // JSON Schema: optional members may be absent, and a change can hinge on their absence.
    const values = synth(tree, locAt(tree, "/$defs/onlyRequired"));
    expect(values).toContainEqual({ a: expect.any(String) });
  });
});

describe("stringsOfLength", () => {
  // [length, pattern]: each result must have exactly the length and match the pattern.
  const CASES: [number, string | undefined][] = [
    [0, undefined],
    [3, undefined],
    [4, "^[a-z]+$"],
    [5, "^ab+$"], // no single repeated character matches: grown from a walked sample
    [6, "^v[0-9]+$"],
    [3, "^\\p{L}+$"], // a property escape means something only under the u flag
    [4, "^ab-{0,5}$"], // grown at the end of the walked sample "ab"
  ];
  it.each(CASES)("length %i, pattern %s", (length, pattern) => {
    const out = stringsOfLength(length, pattern);
    expect(out.length, "at least one string").toBeGreaterThan(0);
    for (const s of out) {
      expect([...s].length, s).toBe(length);
      if (pattern !== undefined) expect(admits(pattern, s), s).toBe(true);
    }
  });

  it("a pattern nothing here can fill gives no string rather than a wrong one", () => {
    for (const s of stringsOfLength(3, "^(?<q>q)+$")) expect([s.length, admits("^(?<q>q)+$", s)]).toEqual([3, true]);
  });

  it("a negative length gives the empty string", () => {
    expect(stringsOfLength(-2)).toContain("");
    expect(stringsOfLength(-2).every((s) => s === "")).toBe(true);
  });

  it("an invalid pattern does not throw: strings of the length are still offered", () => {
    const out = stringsOfLength(2, "[");
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((s) => s.length === 2)).toBe(true);
  });

  it("a string offered without a pattern varies in character (two, so a pattern change shows)", () => {
    expect(new Set(stringsOfLength(3)).size).toBeGreaterThan(1);
  });
});

describe("apply puts a candidate at an instance path", () => {
  // [base, path, candidate, expected]
  const TABLE: [JsonValue, PathToken[], Candidate, JsonValue | undefined][] = [
    [{ a: 1 }, ["b"], { set: 2 }, { a: 1, b: 2 }],
    [{ a: 1 }, ["a"], { remove: true }, {}],
    [{ a: [1, 2] }, ["a", 5], { set: 3 }, { a: [1, 2, 3] }], // past the end: appended
    [{ a: [1, 2] }, ["a", 0], { set: 9 }, { a: [9, 2] }],
    [{ a: [1, 2, 3] }, ["a", 1], { remove: true }, { a: [1, 3] }],
    [{}, ["a", "b", 0], { set: 1 }, { a: { b: [1] } }],
    [{ a: 5 }, ["a", "b"], { set: 1 }, { a: { b: 1 } }], // a scalar in the way becomes an object
    [{ a: { x: 1 } }, ["a", 0], { set: 1 }, { a: [1] }], // an object in the way of an index becomes an array
    [{ a: [1] }, ["a", "x"], { set: 1 }, { a: { x: 1 } }],
    [[{ n: 1 }], [0, "n"], { set: 2 }, [{ n: 2 }]],
    ["s", ["a"], { set: 1 }, undefined], // a scalar has no members
    [{ a: 1 }, [], { set: 5 }, 5],
    [{ a: 1 }, [], { remove: true }, undefined],
  ];
  it.each(TABLE)("%j at %j with %j", (base, path, c, expected) => {
    const before = structuredClone(base);
    expect(apply(base, path, c)).toStrictEqual(expected);
    expect(base, "the base is not changed").toEqual(before);
  });
});

describe("findWitness", () => {
  // n: integer in the old version, number in the new one; 1.5 is new-only, nothing is old-only.
  const loosened = () => versions({ type: "object", properties: { n: { type: "integer" } } }, { type: "object", properties: { n: { type: "number" } } });
  const cands: Candidate[] = [{ set: 1 }, { set: 1.5 }];

  it("a request without a witness request has none", () => {
    const v = loosened();
    expect(findWitness({ rule: "X" } as unknown as Finding, v.ov, v.nv)).toBeNull();
  });

  it("new-writer-old-reader: the new version accepts the witness", () => {
    const v = loosened();
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "new-writer-old-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
    expect(w!.acceptedBy).toBe("new");
  });

  it("old-writer-new-reader looks only for instances the old version accepts", () => {
    const v = loosened();
    expect(findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "old-writer-new-reader"), v.ov, v.nv)).toBeNull();
  });

  it("new-writer-old-reader looks only for instances the new version accepts", () => {
    // The reverse change: 1.5 is old-only.
    const v = versions({ type: "object", properties: { n: { type: "number" } } }, { type: "object", properties: { n: { type: "integer" } } });
    expect(findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "new-writer-old-reader"), v.ov, v.nv)).toBeNull();
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "old-writer-new-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("a both-ways request finds the side that has a witness", () => {
    const v = loosened();
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "both" as WitnessRequest["direction"]), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("a both-ways request finds a witness only the old version accepts", () => {
    const v = versions({ type: "object", properties: { n: { type: "number" } } }, { type: "object", properties: { n: { type: "integer" } } });
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "both" as WitnessRequest["direction"]), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
    expect(w!.acceptedBy).toBe("old");
  });

  it("a removed message: a whole old instance is the witness, with no candidate at all", () => {
    const v = versions({ type: "object", required: ["k"], properties: { k: { const: "m" } }, examples: [{ k: "m" }] }, { type: "object" });
    const w = findWitness(request(v.oldRoot, null, [], [], "old-writer-new-reader"), v.ov, v.nv);
    expect(w).toEqual({ instance: { k: "m" }, acceptedBy: "old" });
  });

  it("an instance built on the other version's synthesized base", () => {
    // The new pattern (a named group) defeats synth, so only the old version's instances carry an
    // `a` both accept; b: 1.5 then separates them.
    const v = versions(
      { type: "object", required: ["a"], properties: { a: { type: "string", pattern: "^q+$" }, b: { type: "integer" } } },
      { type: "object", required: ["a"], properties: { a: { type: "string", pattern: "^(?<q>q)+$" }, b: { type: "number" } } },
    );
    const w = findWitness(request(v.oldRoot, v.newRoot, ["b"], [{ set: 1.5 }], "new-writer-old-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("a format change: the validators check formats", () => {
    const v = versions({ type: "object", properties: { when: { type: "string", format: "date-time" } } }, { type: "object", properties: { when: { type: "string", format: "date" } } });
    const w = findWitness(request(v.oldRoot, v.newRoot, ["when"], [{ set: "2024-01-01T00:00:00Z" }, { set: "2024-01-01" }], "old-writer-new-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("a version ajv cannot compile gives no witness, and no crash", () => {
    const bad = { type: "object", discriminator: { propertyName: "t" }, oneOf: [{ properties: { t: { const: "a" } } }] }; // t not required
    const v = versions({ type: "object", properties: { n: { type: "integer" } } }, bad);
    expect(findWitness(request(v.oldRoot, v.newRoot, ["n"], cands, "both" as WitnessRequest["direction"]), v.ov, v.nv)).toBeNull();
  });

  it("an object schema without `type` still gets object bases", () => {
    // Without `type` a string is valid too, but a member can only be set on an object.
    const v = versions({ required: ["k"], properties: { k: { const: 1 }, n: { type: "integer" } } }, { required: ["k"], properties: { k: { const: 1 }, n: { type: "number" } } });
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], [{ set: 1.5 }], "new-writer-old-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });

  it("an array schema without `type` still gets array bases", () => {
    const v = versions({ items: { type: "integer" }, minItems: 1 }, { items: { type: "number" }, minItems: 1 });
    const w = findWitness(request(v.oldRoot, v.newRoot, [0], [{ set: 1.5 }], "new-writer-old-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
    expect(Array.isArray(w!.instance)).toBe(true);
  });

  it("a root synth cannot instantiate still gets a witness on an empty object", () => {
    // allOf nested deeper than synth goes (each allOf is a level): the old root gives no base
    // instance, so the candidate goes into {}, which every level's type: object admits.
    const nestedAllOf = (k: number): object => (k === 0 ? { type: "object" } : { allOf: [nestedAllOf(k - 1)] });
    const v = versions({ type: "object", allOf: [nestedAllOf(12)] }, { type: "object", properties: { n: { type: "string" } }, allOf: [nestedAllOf(12)] });
    expect(synth(v.ot, v.oldRoot)).toEqual([]);
    const w = findWitness(request(v.oldRoot, v.newRoot, ["n"], [{ set: 1 }], "old-writer-new-reader"), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
  });
});

describe("findWitness builds each version's bases with that version's own $refs", () => {
  // Id admits the same strings (q, qq, ...) in both versions, but synth can only walk the plain
  // pattern, not the named group: a base with a valid id comes only from the version whose Id is
  // plain, resolved in that version's tree. b's type change then separates the versions.
  const TYPES_FILE = "spec/common/types.yaml";
  const typesWith = (pattern: string) => ({ $id: "https://agent-contracts.dev/schemas/common/types.json", title: "Common", $defs: { Id: { type: "string", pattern } } });
  const root = (b: string) => ({ type: "object", required: ["id"], properties: { id: { $ref: "../common/types.json#/$defs/Id" }, b: { type: b } } });
  const PLAIN = "^q+$";
  const GROUP = "^(?<q>q)+$";
  it.each([
    ["old", PLAIN, GROUP],
    ["old", GROUP, PLAIN],
    ["new", PLAIN, GROUP],
    ["new", GROUP, PLAIN],
  ] as const)("accepted by %s; old Id %s, new Id %s", (side, oldId, newId) => {
    const [oldB, newB] = side === "old" ? ["number", "integer"] : ["integer", "number"];
    const b: Files = { ...filesWith(root(oldB)), [TYPES_FILE]: typesWith(oldId) };
    const a: Files = { ...filesWith(root(newB)), [TYPES_FILE]: typesWith(newId) };
    const ot = loadTree(writeTree(b));
    const nt = loadTree(writeTree(a));
    const direction = side === "old" ? "old-writer-new-reader" : "new-writer-old-reader";
    const w = findWitness(request(locAt(ot, ""), locAt(nt, ""), ["b"], [{ set: 1.5 }], direction), new Validators(ot), new Validators(nt));
    expectSeparates(w, b, a);
    expect(w!.acceptedBy).toBe(side);
  });
});

describe("findWitness builds each version's bases from that version's own root", () => {
  // As above, with the pattern written in the root itself: a valid id comes only from the version
  // whose pattern synth can walk.
  const root = (b: string, pattern: string) => ({ type: "object", required: ["id"], properties: { id: { type: "string", pattern }, b: { type: b } } });
  it.each([
    ["old", "^q+$", "^(?<q>q)+$"],
    ["old", "^(?<q>q)+$", "^q+$"],
    ["new", "^q+$", "^(?<q>q)+$"],
    ["new", "^(?<q>q)+$", "^q+$"],
  ] as const)("accepted by %s; old id %s, new id %s", (side, oldId, newId) => {
    const [oldB, newB] = side === "old" ? ["number", "integer"] : ["integer", "number"];
    const v = versions(root(oldB, oldId), root(newB, newId));
    const direction = side === "old" ? "old-writer-new-reader" : "new-writer-old-reader";
    const w = findWitness(request(v.oldRoot, v.newRoot, ["b"], [{ set: 1.5 }], direction), v.ov, v.nv);
    expectSeparates(w, v.b, v.a);
    expect(w!.acceptedBy).toBe(side);
  });
});

describe("Validators agree with JSON Schema 2020-12 (the fixture's ajv)", () => {
  it("a removed root rejects everything", () => {
    const v = versions({ type: "object" }, { type: "object" });
    expect(v.ov.of(null)!({})).toBe(false);
  });

  it("a discriminator selects the branch by its tag, as the fixture's ajv does", () => {
    const schema = {
      type: "object",
      required: ["type"],
      discriminator: { propertyName: "type" },
      oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }],
      $defs: {
        A: { type: "object", properties: { type: { const: "a" }, x: { type: "string" } } },
        B: { type: "object", required: ["y"], properties: { type: { const: "b" }, y: { type: "integer" } } },
      },
    };
    const v = versions(schema, schema);
    const check = v.ov.of(v.oldRoot)!;
    for (const inst of [{ x: "s" }, { type: "a", x: "s" }, { type: "b", y: 1 }, { type: "b" }, { type: "c" }] as JsonValue[]) expect(check(inst), JSON.stringify(inst)).toBe(accepts(v.b, FILE, "", inst));
  });

  it("a discriminator ajv refuses (its tag not required) gives no validator, rather than plain oneOf's", () => {
    // Under plain oneOf {x: "s"} would pass (only A matches); the validators the bindings are
    // tested against refuse to compile the schema at all, so nothing can be proven with it.
    const schema = {
      type: "object",
      discriminator: { propertyName: "type" },
      oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }],
      $defs: {
        A: { type: "object", properties: { type: { const: "a" }, x: { type: "string" } } },
        B: { type: "object", required: ["y"], properties: { type: { const: "b" }, y: { type: "integer" } } },
      },
    };
    const v = versions(schema, schema);
    expect(() => accepts(v.b, FILE, "", { x: "s" })).toThrow(/must be required/);
    expect(v.ov.of(v.oldRoot)).toBeUndefined();
  });

  it("a root's x-rules refuse what they refuse; a rule of a kind this version does not know holds", () => {
    const v = versions(
      { type: "object", "x-rules": [{ id: "eq", kind: "equal", left: "/b", right: "/a", message: "b equals a" }] },
      { type: "object", "x-rules": [{ id: "new", kind: "fromTheFuture", message: "?" }] },
    );
    expect(v.ov.of(v.oldRoot)!({ a: 1, b: 2 })).toBe(false);
    expect(v.ov.of(v.oldRoot)!({ a: 1, b: 1 })).toBe(true);
    expect(v.nv.of(v.newRoot)!({ a: 1, b: 2 })).toBe(true);
  });

  it("a rule the evaluator cannot read (no pointers) counts as holding", () => {
    const v = versions({ type: "object", "x-rules": [{ id: "broken", kind: "equal", message: "left and right missing" }] }, { type: "object" });
    expect(v.ov.of(v.oldRoot)!({ a: 1 })).toBe(true);
  });

  it("a schema the meta-schema refuses (an old commit's spec) still compiles", () => {
    const schema = { type: "object", deprecated: "yes", properties: { n: { type: "integer" } } };
    const v = versions(schema, schema);
    const check = v.ov.of(v.oldRoot);
    expect(check).toBeDefined();
    expect(check!({ n: 1 })).toBe(true);
    expect(check!({ n: "x" })).toBe(false);
  });

  it("a sub-schema's validator is its own node's, without the root's x-rules", () => {
    const schema = { type: "object", required: ["k"], "x-rules": [{ id: "eq", kind: "equal", left: "/b", right: "/a", message: "b equals a" }], $defs: { n: { type: "integer" }, o: { type: "object" } } };
    const v = versions(schema, schema);
    const root = v.ov.of(v.oldRoot)!;
    const n = v.ov.of(locAt(v.ot, "/$defs/n"))!;
    const o = v.ov.of(locAt(v.ot, "/$defs/o"))!;
    expect([root({ k: 1 }), root(1), root({ k: 1, a: 1, b: 2 })]).toEqual([true, false, false]);
    expect([n(1), n("x"), n({ k: 1 })]).toEqual([true, false, false]);
    expect(o({ a: 1, b: 2 }), "the root's rule is not the sub-schema's").toBe(true);
    expect(accepts(v.b, FILE, "/$defs/o", { a: 1, b: 2 })).toBe(true);
  });
});
