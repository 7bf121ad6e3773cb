// WIRE findings about member names, discriminated unions and union shape (wire.ts, the part from
// undeclaredName to short). Each expectation is worked out by hand from JSON Schema 2020-12 (and
// ECMA-262 for patterns, which 2020-12 evaluates with the u flag); every witness is re-checked
// with the fixture's own ajv.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { baseFiles, expectWitness, M, U, writeTree, type Files } from "./spec-fixture.js";

const K = "spec/p/messages/K.yaml";
const kid = "https://agent-contracts.dev/schemas/p/K.json";
const message = (body: object) => ({ $id: kid, title: "K", type: "object", ...body });

type Edit = (f: Files) => void;
function run(before: Edit, after: Edit): { findings: Finding[]; b: Files; a: Files } {
  const b = baseFiles();
  const a = baseFiles();
  before(b);
  after(a);
  const findings = compareRoots(writeTree(b), writeTree(a)).findings.filter((f) => f.status === "breaking");
  return { findings, b, a };
}
const list = (fs: Finding[]) => fs.map((f) => `${f.rule} ${f.at.file}#${f.at.pointer} ${f.direction}`).join("\n");

describe("closing an object: the witness's extra member has a name both versions admit and neither declares", () => {
  // Old: open (any undeclared member of any value). New: additionalProperties false. An instance
  // with one undeclared member whose name propertyNames admits is valid old and invalid new; a
  // declared name, or one propertyNames refuses, separates nothing.
  const cases: { why: string; properties?: object; propertyNames?: unknown; newPropertyNames?: unknown; extra?: object }[] = [
    { why: "the first fallback name zzUndeclared is declared", properties: { zzUndeclared: { type: "string" } } },
    { why: "zzUndeclared is declared and propertyNames is true (admits every name)", properties: { zzUndeclared: { type: "string" } }, propertyNames: true },
    { why: "propertyNames const ZZ_UNDECLARED admits one fixed name", propertyNames: { const: "ZZ_UNDECLARED" } },
    { why: "propertyNames const zz_undeclared admits one fixed name", propertyNames: { const: "zz_undeclared" } },
    { why: "propertyNames const zz-undeclared admits one fixed name", propertyNames: { const: "zz-undeclared" } },
    // A number in a propertyNames enum matches no name (names are strings): only QQ is one.
    { why: "propertyNames enum admits only its string QQ", propertyNames: { enum: [1, "QQ"] } },
    { why: "propertyNames pattern ^q+$ admits none of the fixed names", propertyNames: { pattern: "^q+$" } },
    // ab is too short, abcd too long: abc is the only name of the enum within both bounds.
    { why: "propertyNames length bounds leave abc of the enum", propertyNames: { enum: ["ab", "abcd", "abc"], minLength: 3, maxLength: 3 } },
    // \p{Ll} is a lowercase letter only under the u flag; without it, \p is a plain p.
    { why: "a propertyNames pattern read with the u flag admits abc", propertyNames: { enum: ["abc"], pattern: "^\\p{Ll}+$" } },
    // Only q-names pass the old propertyNames: a z-name the new one admits is refused by old readers too.
    { why: "the name must pass the old propertyNames as well as the new", propertyNames: { pattern: "^q+$" }, newPropertyNames: { pattern: "^[qz]" } },
    // The empty name is left out: here patternProperties ^$ claims it, so additionalProperties never applies to it.
    { why: "the empty name is not the extra member", propertyNames: { enum: ["", "QQ"] }, extra: { patternProperties: { "^$": {} } } },
  ];
  for (const c of cases) {
    it(c.why, () => {
      const body = (pn: unknown) => ({ ...(c.properties ? { properties: c.properties } : {}), ...(pn === undefined ? {} : { propertyNames: pn }), ...c.extra });
      const { findings, b, a } = run(
        (f) => void (f[K] = message(body(c.propertyNames))),
        (f) => void (f[K] = message({ ...body(c.newPropertyNames ?? c.propertyNames), additionalProperties: false })),
      );
      const f = findings.find((x) => x.rule === "WIRE_OBJECT_CLOSED");
      expect(f, list(findings)).toBeDefined();
      expect(f!.direction).toBe("old-writer-new-reader");
      expect(f!.at.file).toBe(K);
      expect(f!.at.pointer).toBe("/additionalProperties");
      expectWitness(f!, b, a);
    });
  }
});

const defs = (f: Files) => f[U].$defs;
const discriminatorFindings = (fs: Finding[]) => fs.filter((x) => x.rule === "WIRE_DISCRIMINATOR_CHANGED" && x.at.file === U);

describe("a discriminated oneOf compared branch by discriminator value", () => {
  it("a value that no longer selects a branch, and the value that now does, are reported each way", () => {
    // UB's type b becomes c: an old {type: b} matches no new branch, a new {type: c} no old one.
    const { findings, b, a } = run(() => {}, (f) => void (defs(f).B.properties.type.const = "c"));
    const gone = discriminatorFindings(findings).find((x) => x.direction === "old-writer-new-reader");
    expect(gone, list(findings)).toBeDefined();
    expect(gone!.at.pointer).toBe("/oneOf");
    expect(gone!.old!.pointer).toBe("/oneOf/1");
    expect(gone!.removed).toBe(true);
    // The value is what the user has to look for in their writers.
    expect(gone!.message).toBe('type "b" no longer selects a branch: new readers reject it from old writers');
    expectWitness(gone!, b, a);
    const added = discriminatorFindings(findings).find((x) => x.direction === "new-writer-old-reader");
    expect(added, list(findings)).toBeDefined();
    expect(added!.at.pointer).toBe("/oneOf/1");
    expect(added!.old!.pointer).toBe("/oneOf");
    expect(added!.message).toBe('type "c" is a new branch: old readers reject it from new writers');
    expectWitness(added!, b, a);
  });
  it("a branch whose discriminator is an enum is indexed by each value: one added is a new branch", () => {
    const { findings, b, a } = run(
      (f) => void (defs(f).B.properties.type = { enum: ["b"] }),
      (f) => void (defs(f).B.properties.type = { enum: ["b", "b2"] }),
    );
    const added = discriminatorFindings(findings);
    expect(added.map((x) => `${x.at.pointer} ${x.direction} ${x.message}`), list(findings)).toEqual(['/oneOf/1 new-writer-old-reader type "b2" is a new branch: old readers reject it from new writers']);
    expectWitness(added[0]!, b, a);
  });
  it("a branch five $refs away is still indexed", () => {
    // /oneOf/1 -> H1 -> H2 -> H3 -> H4 -> B: B is five references away from the branch.
    const chain = (f: Files) => {
      defs(f).H1 = { $ref: "#/$defs/H2" };
      defs(f).H2 = { $ref: "#/$defs/H3" };
      defs(f).H3 = { $ref: "#/$defs/H4" };
      defs(f).H4 = { $ref: "#/$defs/B" };
      f[U].oneOf[1] = { $ref: "#/$defs/H1" };
    };
    const { findings, b, a } = run(chain, (f) => {
      chain(f);
      defs(f).B.properties.type.const = "c";
    });
    const gone = discriminatorFindings(findings).find((x) => x.direction === "old-writer-new-reader");
    expect(gone, list(findings)).toBeDefined();
    expect(gone!.message).toBe('type "b" no longer selects a branch: new readers reject it from old writers');
    expectWitness(gone!, b, a);
  });
  it("beside anyOf the discriminator pairs nothing: a changed const is reported where it is", () => {
    // Branches of an anyOf are compared by position. One branch: nothing else can admit what it
    // stops admitting, so no witness is needed (none is possible: ajv's discriminator needs oneOf).
    const branch = (v: string) => ({ type: "object", required: ["type"], properties: { type: { const: v } } });
    const x = (v: string) => (f: Files) => void (f[K] = message({ properties: { x: { type: "object", discriminator: { propertyName: "type" }, anyOf: [branch(v)] } } }));
    const { findings } = run(x("b"), x("c"));
    expect(findings.filter((y) => y.at.file === K).map((y) => `${y.rule} ${y.at.pointer}`)).toEqual(["WIRE_CONST_CHANGED /properties/x/anyOf/0/properties/type/const"]);
  });
  it("a $ref cycle among the branches ends the comparison instead of recursing forever", () => {
    const cycle = (f: Files) => {
      defs(f).L1 = { $ref: "#/$defs/L2" };
      defs(f).L2 = { $ref: "#/$defs/L1" };
      f[U].oneOf.push({ $ref: "#/$defs/L1" });
    };
    const { findings } = run(cycle, (f) => {
      cycle(f);
      f[U].description = "Reworded.";
    });
    expect(findings.filter((x) => x.category === "WIRE")).toEqual([]);
  });
  it("a branch that does not declare the discriminator property is left out, not a crash", () => {
    const extra = (f: Files) => void f[U].oneOf.push({ type: "object", properties: { z: { type: "string" } } });
    const { findings } = run(extra, (f) => {
      extra(f);
      f[U].description = "Reworded.";
    });
    expect(findings.filter((x) => x.category === "WIRE")).toEqual([]);
  });
});

describe("a discriminated union below the root, in an optional member", () => {
  // K.u is optional, so K's own sample instances need not carry a u of the branch in question:
  // the witness has to come from the branch's instances placed at /u.
  const nested = (f: Files) =>
    void (f[K] = message({ properties: { u: { type: "object", required: ["type"], discriminator: { propertyName: "type" }, oneOf: [{ $ref: "U.json#/$defs/A" }, { $ref: "U.json#/$defs/B" }] } } }));
  it("a value that no longer selects a branch has a witness at /u", () => {
    const { findings, b, a } = run(nested, (f) => {
      nested(f);
      defs(f).B.properties.type.const = "c";
    });
    const inK = findings.filter((x) => x.rule === "WIRE_DISCRIMINATOR_CHANGED" && x.at.file === K);
    expect(inK.map((x) => `${x.at.pointer} ${x.direction}`).sort(), list(findings)).toEqual(["/properties/u/oneOf old-writer-new-reader", "/properties/u/oneOf/1 new-writer-old-reader"]);
    for (const x of inK) expectWitness(x, b, a);
  });
  it("the discriminator renamed has a witness at /u", () => {
    const { findings, b, a } = run(nested, (f) => {
      nested(f);
      f[K].properties.u.discriminator.propertyName = "kind";
      f[K].properties.u.required = ["kind"];
      // U's own union uses the same branches: renamed there too, so that U still compiles.
      f[U].discriminator.propertyName = "kind";
      f[U].required = ["kind"];
      for (const [name, v] of [["A", "a"], ["B", "b"]] as const) {
        const d = defs(f)[name];
        const { type: _type, ...rest } = d.properties;
        d.properties = { kind: { const: v }, ...rest };
        d.required = ["kind"];
      }
    });
    const f = findings.find((x) => x.rule === "WIRE_DISCRIMINATOR_CHANGED" && x.at.file === K && x.at.pointer === "/properties/u/discriminator");
    expect(f, list(findings)).toBeDefined();
    expectWitness(f!, b, a);
  });
});

describe("the discriminator property itself changed", () => {
  // Branches keyed by kind instead of type: an old {type: a} lacks the now required kind.
  const byKind = (f: Files, discriminator: boolean) => {
    if (discriminator) f[U].discriminator = { propertyName: "kind" };
    else delete f[U].discriminator;
    f[U].required = ["kind"];
    for (const [name, v] of [["A", "a"], ["B", "b"]] as const) {
      const d = defs(f)[name];
      const { type: _type, ...rest } = d.properties;
      d.properties = { kind: { const: v }, ...rest };
      d.required = ["kind"];
    }
  };
  const cases: { from: string; to: string; before: Edit; after: Edit }[] = [
    { from: "type", to: "kind", before: () => {}, after: (f) => byKind(f, true) },
    { from: "none", to: "kind", before: (f) => void delete f[U].discriminator, after: (f) => byKind(f, true) },
    { from: "type", to: "none", before: () => {}, after: (f) => byKind(f, false) },
  ];
  for (const c of cases) {
    it(`from ${c.from} to ${c.to}`, () => {
      const { findings, b, a } = run(c.before, c.after);
      const f = discriminatorFindings(findings);
      // One change, one finding, at the discriminator; the message names both properties (or none).
      expect(f.map((x) => x.at.pointer), list(findings)).toEqual(["/discriminator"]);
      expect(f[0]!.direction).toBe("either");
      expect(f[0]!.message).toBe(`discriminator property changed from ${c.from} to ${c.to}`);
      expectWitness(f[0]!, b, a);
    });
  }
});

describe("a union's branches", () => {
  const x = (schema: object) => (f: Files) => void (f[K] = message({ properties: { x: schema } }));
  const cases: { name: string; before: object; after: object; message: string; at: string }[] = [
    // Strings of four or more that do not start with a are old values the new anyOf refuses.
    { name: "an anyOf added where there was none", before: { type: "string" }, after: { type: "string", anyOf: [{ maxLength: 3 }, { pattern: "^a" }] }, message: "anyOf changed from 0 to 2 branches; not provably compatible", at: "/properties/x/anyOf" },
    { name: "an anyOf removed", before: { type: "string", anyOf: [{ maxLength: 3 }, { pattern: "^a" }] }, after: { type: "string" }, message: "anyOf changed from 2 to 0 branches; not provably compatible", at: "/properties/x/anyOf" },
    // No discriminator: the branches are not paired by value, only counted.
    // Old writers' {type: b} objects: only instances of the dropped branch show it.
    { name: "a oneOf with a branch fewer", before: { oneOf: [{ $ref: "U.json#/$defs/A" }, { $ref: "U.json#/$defs/B" }] }, after: { oneOf: [{ $ref: "U.json#/$defs/A" }] }, message: "oneOf changed from 2 to 1 branches; not provably compatible", at: "/properties/x/oneOf" },
    { name: "a oneOf with a branch more", before: { oneOf: [{ type: "string" }, { type: "integer" }] }, after: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] }, message: "oneOf changed from 2 to 3 branches; not provably compatible", at: "/properties/x/oneOf" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { findings, b, a } = run(x(c.before), x(c.after));
      const f = findings.find((y) => y.rule === "WIRE_SCHEMA_CHANGED" && y.at.file === K);
      expect(f, list(findings)).toBeDefined();
      expect(f!.at.pointer).toBe(c.at);
      expect(f!.direction).toBe("either");
      // The counts tell the user whether the union appeared, went, or grew.
      expect(f!.message).toBe(c.message);
      expectWitness(f!, b, a);
    });
  }
  it("a bound loosened behind $refs in an allOf branch, still capped by a sibling branch, is no finding", () => {
    // p stays at most 5 long in both versions (allOf/1), so nothing separates them; the loosened
    // bound is reported between $defs X and Y, outside the allOf pointer, so only the branch's own
    // intersection context can hold it back.
    const cap = { properties: { p: { maxLength: 5 } } };
    const { findings } = run(
      (f) => void (f[K] = message({ allOf: [{ $ref: "#/$defs/X" }, cap], $defs: { X: { properties: { p: { type: "string", maxLength: 5 } } } } })),
      (f) => void (f[K] = message({ allOf: [{ properties: { p: { $ref: "#/$defs/Y" } } }, cap], $defs: { Y: { type: "string", maxLength: 10 } } })),
    );
    expect(findings.filter((y) => y.at.file === K), list(findings)).toEqual([]);
  });
  it("anyOf branches of equal count are compared pairwise, old and new positions both inside the branch", () => {
    const { findings, b, a } = run(x({ anyOf: [{ type: "string" }, { type: "integer" }] }), x({ anyOf: [{ type: "string" }, { type: "boolean" }] }));
    const f = findings.filter((y) => y.rule === "WIRE_TYPE_CHANGED" && y.at.pointer === "/properties/x/anyOf/1/type");
    expect(f.map((y) => y.direction).sort(), list(findings)).toEqual(["new-writer-old-reader", "old-writer-new-reader"]);
    for (const y of f) {
      expect(y.old!.pointer).toBe("/properties/x/anyOf/1/type");
      expectWitness(y, b, a);
    }
  });
});

describe("values shown in a message", () => {
  // The message is how the user sees what the schema was and became.
  it("a schema replaced by false shows the old one, cut to 57 characters and ... past 60", () => {
    const { findings, b, a } = run(() => {}, (f) => void (f[M].properties.name = false));
    const f = findings.find((y) => y.rule === "WIRE_SCHEMA_CHANGED" && y.at.pointer === "/properties/name");
    expect(f, list(findings)).toBeDefined();
    expect(f!.message).toBe('schema changed from {"type":"string","minLength":1,"maxLength":10,"pattern":"... to false');
    expectWitness(f!, b, a);
  });
  it("a schema of exactly 60 characters is shown whole", () => {
    const x = { type: "string", description: "The name the caller picked" };
    const { findings } = run((f) => void (f[K] = message({ properties: { x } })), (f) => void (f[K] = message({ properties: { x: false } })));
    const f = findings.find((y) => y.rule === "WIRE_SCHEMA_CHANGED" && y.at.file === K);
    expect(f, list(findings)).toBeDefined();
    expect(f!.message).toBe(`schema changed from ${JSON.stringify(x)} to false`);
  });
  it("a keyword removed shows nothing as its new value", () => {
    const cond = { if: { required: ["x"] }, then: { properties: { x: { maxLength: 3 } } } };
    const { findings } = run((f) => void (f[K] = message(cond)), (f) => void (f[K] = message({})));
    const messages = findings.filter((y) => y.at.file === K).map((y) => y.message);
    expect(messages, list(findings)).toContain('if changed from {"required":["x"]} to nothing; not provably compatible');
  });
});
