// A discriminated oneOf with a branch that is a $ref cycle (L1 -> L2 -> L1: it admits nothing and
// fixes no discriminator value), in a union that did change, so its branches are indexed: the
// indexing must stop at the cycle instead of recursing until the stack runs out, and the real
// change is still reported. (wire-kills-c's cycle case changes only a description, so the union is
// never indexed there.)
import { describe, expect, it } from "vitest";
import { U, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const cycle: Edit = (f: Files) => {
  f[U].$defs.L1 = { $ref: "#/$defs/L2" };
  f[U].$defs.L2 = { $ref: "#/$defs/L1" };
  f[U].oneOf.push({ $ref: "#/$defs/L1" });
};

describe("a $ref cycle among the branches of a changed discriminated oneOf", () => {
  it("a branch for type c added: reported as a new branch, the cycle indexed as nothing", () => {
    // New writers may send {type: c}, which no old branch selects.
    const { wire } = pair(cycle, (f) => {
      cycle(f);
      f[U].$defs.C = { title: "UC", type: "object", additionalProperties: false, required: ["type"], properties: { type: { const: "c" } } };
      f[U].oneOf.push({ $ref: "#/$defs/C" });
    });
    expect(wire.map(where)).toEqual([`WIRE_DISCRIMINATOR_CHANGED ${U}#/oneOf/3 new-writer-old-reader`]);
    // ajv cannot evaluate the union (an instance reaching it tries the cycle branch and overflows;
    // the check stage's ref-cycle lint refuses such a spec), so no witness is shown.
    expect(wire[0]!.witness ?? null).toBeNull();
  });
});
