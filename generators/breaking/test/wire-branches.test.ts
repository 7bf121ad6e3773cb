// A discriminated oneOf is compared branch by discriminator value, so every branch has to be
// indexed, however many $refs lead to the schema that fixes its value. Expectations are worked
// out by hand from JSON Schema 2020-12 (a $ref is its target); every witness is re-checked with the
// fixture's own ajv.
import { describe, expect, it } from "vitest";
import { expectWitness, U, where, wirePair, type Edit, type Files } from "./spec-fixture.js";

const defs = (f: Files) => f[U].$defs;

/** /oneOf/1 -> H1 -> ... -> Hn -> B: B is n+1 references away from the branch. */
const chainOf = (n: number): Edit => (f) => {
  for (let i = 1; i <= n; i++) defs(f)[`H${i}`] = { $ref: i === n ? "#/$defs/B" : `#/$defs/H${i + 1}` };
  f[U].oneOf[1] = { $ref: "#/$defs/H1" };
};

describe("a branch behind a long $ref chain is still indexed by its discriminator value", () => {
  it.each([6, 12, 40])("UB's type b -> c through %i references: old {type: b} selects no new branch", (n) => {
    const chain = chainOf(n - 1);
    const { wire, before, after } = wirePair(chain, (f) => {
      chain(f);
      defs(f).B.properties.type.const = "c";
    });
    const inU = wire.filter((x) => x.at.file === U);
    // B itself is a definition: its const changed is a finding of its own, wherever it is used.
    expect(inU.map(where).sort()).toEqual([
      `WIRE_CONST_CHANGED ${U}#/$defs/B/properties/type/const either`,
      `WIRE_DISCRIMINATOR_CHANGED ${U}#/oneOf old-writer-new-reader`,
      `WIRE_DISCRIMINATOR_CHANGED ${U}#/oneOf/1 new-writer-old-reader`,
    ]);
    for (const x of inU) expectWitness(x, before, after);
  });

  it("an unchanged chain of 40 references is no finding", () => {
    const chain = chainOf(39);
    const { wire } = wirePair(chain, (f) => {
      chain(f);
      f[U].description = "Reworded.";
    });
    expect(wire).toEqual([]);
  });
});
