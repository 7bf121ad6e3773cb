// A bound added or removed in a `then` under an unchanged `if` (wire-bounds.ts): the only
// candidates that separate the versions lie just past the new bound, not 10 past it. Each
// expectation (who is hurt, and that some instance shows it) is worked out by hand from JSON
// Schema 2020-12; every witness is re-checked with the tests' own ajv (expectWitness).
import { describe, expect, it } from "vitest";
import { expectWitness, M, where, wirePair as pair, type Edit, type Files } from "./spec-fixture.js";

const props = (f: Files) => f[M].properties;

describe("then added or removed under an unchanged if", () => {
  // count is an integer 0..10; with if {minimum: 5}, then {maximum: 8} refuses 9 and 10.
  const count = (extra: object): Edit => (f) => void Object.assign(props(f).count, extra);
  const onlyIf = count({ if: { minimum: 5 } });
  const withThen = count({ if: { minimum: 5 }, then: { maximum: 8 } });
  it("then added: old writers' 9 and 10 are refused by new readers", () => {
    const { wire, before, after } = pair(onlyIf, withThen);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_TIGHTENED ${M}#/properties/count/then/maximum old-writer-new-reader`]);
    expectWitness(wire[0]!, before, after);
    expect([9, 10]).toContain((wire[0]!.witness!.instance as { count: number }).count);
  });
  it("then removed: new writers' 9 and 10 are refused by old readers", () => {
    const { wire, before, after } = pair(withThen, onlyIf);
    expect(wire.map(where)).toEqual([`WIRE_BOUND_LOOSENED ${M}#/properties/count/then/maximum new-writer-old-reader`]);
    expectWitness(wire[0]!, before, after);
  });
  it("a lower bound added in then: 5 and 6 are refused by new readers", () => {
    const { wire, before, after } = pair(onlyIf, count({ if: { minimum: 5 }, then: { minimum: 7 } }));
    expect(wire.map((f) => f.direction)).toEqual(["old-writer-new-reader"]);
    expectWitness(wire[0]!, before, after);
  });
});
