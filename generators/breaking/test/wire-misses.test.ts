// Breaking changes the detector missed because no candidate could show them (found by the
// 2026-12-06 review of breaking-wire's survivors): a maxContains or a propertyNames length bound
// past the old build limit, dependentSchemas added, a propertyNames format. Each expectation is
// worked out by hand from JSON Schema 2020-12; every witness is re-checked with the fixture's ajv.
import { describe, expect, it } from "vitest";
import { expectWitness, OPEN, where, wirePair, type Edit, type Files } from "./spec-fixture.js";

const P = "/properties/p";
const p = (schema: object): Edit => (f: Files) => void (f[OPEN].properties.p = structuredClone(schema));

/** The one WIRE finding, at `pointer` of Open, old writers to new readers, with a witness. */
function broken(old: object, now: object, pointer: string) {
  const { wire, before, after } = wirePair(p(old), p(now));
  expect(wire.map(where)).toEqual([`WIRE_SCHEMA_CHANGED ${OPEN}#${P}/${pointer} old-writer-new-reader`]);
  expectWitness(wire[0]!, before, after);
  return wire[0]!.witness!.instance as { p: unknown };
}

describe("bounds past the old limit of built candidates", () => {
  it.each([64, 300])("maxContains %i added beside contains: one string more than that is refused", (n) => {
    // 2020-12 §10.3.1.3, §6.4.4: with contains {type: string}, maxContains n refuses n+1 strings.
    const old = { type: "array", items: { type: "string" }, contains: { type: "string" } };
    const w = broken(old, { ...old, maxContains: n }, "maxContains");
    expect((w.p as unknown[]).length).toBeGreaterThan(n);
  });
  it.each([256, 1000])("propertyNames maxLength %i added to a map: a longer name is refused", (n) => {
    // Old p is a map of strings with no members in its instances, so only a built name shows it.
    const map = { type: "object", additionalProperties: { type: "string" } };
    const w = broken(map, { ...map, propertyNames: { maxLength: n } }, "propertyNames");
    expect(Object.keys(w.p as object).some((k) => [...k].length > n)).toBe(true);
  });
});

describe("conditions that had no candidate", () => {
  it("propertyNames format uuid added to a map: an ordinary name is refused", () => {
    // ajv checks formats (the fixture's ajv has ajv-formats), so "a" is no uuid for new readers.
    const map = { type: "object", additionalProperties: { type: "string" } };
    broken(map, { ...map, propertyNames: { format: "uuid" } }, "propertyNames");
  });
  it("dependentSchemas added: a trigger without the member it now requires is refused", () => {
    // 2020-12 core §10.2.2.4: with a present, new readers require b; old writers may omit b.
    const obj = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
    const w = broken(obj, { ...obj, dependentSchemas: { a: { required: ["b"] } } }, "dependentSchemas");
    expect(w.p).toHaveProperty("a");
    expect(w.p).not.toHaveProperty("b");
  });
});
