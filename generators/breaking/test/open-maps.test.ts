// A map (an object whose additionalProperties is a schema) takes members of any name, so its old
// writers did send names a later version declares. Each expectation is worked out by hand from
// JSON Schema 2020-12: a declared name is checked against `properties`, any other against
// `additionalProperties`; every WIRE finding's witness is re-checked with a separate ajv.
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import { baseFiles, expectWitness, OPEN, writeTree, type Files } from "./spec-fixture.js";

const LABELS = "spec/p/messages/Labels.yaml";
const map = (extra: object = {}) => ({
  $id: "https://agent-contracts.dev/schemas/p/Labels.json",
  title: "Labels",
  type: "object",
  additionalProperties: { type: "string" },
  ...extra,
});

function compare(before: object, after: object) {
  const b: Files = { ...baseFiles(), [LABELS]: before };
  const a: Files = { ...baseFiles(), [LABELS]: after };
  const findings = compareRoots(writeTree(b), writeTree(a)).findings.filter((f) => f.status === "breaking");
  return { findings, b, a };
}

describe("declaring or dropping a member name of a map", () => {
  it("a declared name narrower than the map's values breaks old writers (n: 'abcd' was valid)", () => {
    const { findings, b, a } = compare(map(), map({ properties: { n: { type: "string", maxLength: 3 } } }));
    const f = findings.find((x) => x.rule === "WIRE_BOUND_TIGHTENED");
    expect(f, findings.map((x) => x.rule).join(", ")).toBeDefined();
    expect(f!.direction).toBe("old-writer-new-reader");
    expectWitness(f!, b, a);
  });
  it("a declared name of another type breaks both ways", () => {
    const { findings, b, a } = compare(map(), map({ properties: { n: { type: "integer" } } }));
    const directions = findings.filter((x) => x.rule === "WIRE_TYPE_CHANGED").map((x) => x.direction).sort();
    expect(directions).toEqual(["new-writer-old-reader", "old-writer-new-reader"]);
    for (const f of findings) expectWitness(f, b, a);
  });
  it("a declared name with the map's own value schema is no finding", () => {
    expect(compare(map(), map({ properties: { n: { type: "string" } } })).findings).toEqual([]);
  });
  it("an undeclared name whose old declaration was wider than the map's values breaks new readers", () => {
    const { findings, b, a } = compare(map({ properties: { n: { type: ["string", "integer"] } } }), map());
    const f = findings.find((x) => x.rule === "WIRE_TYPE_CHANGED");
    expect(f?.direction).toBe("old-writer-new-reader");
    expectWitness(f!, b, a);
  });
  it("an open object without a value schema keeps the documented assumption: a new optional name is compatible", () => {
    const b = baseFiles();
    const a = baseFiles();
    a[OPEN].properties.n = { type: "string", maxLength: 3 };
    expect(compareRoots(writeTree(b), writeTree(a)).findings.filter((f) => f.status === "breaking")).toEqual([]);
  });
  it("with patternProperties beside the map, the difference counts only with a witness", () => {
    // ^n$ claims the name in both versions, so additionalProperties never applies to it.
    const pp = { patternProperties: { "^n$": { type: "string", maxLength: 3 } } };
    expect(compare(map(pp), map({ ...pp, properties: { n: { type: "string", maxLength: 3 } } })).findings).toEqual([]);
  });
});
