// The witness search's size bounds, each filled by an input: how many strings per length, enum
// values, examples, $ref levels, pattern-class members and candidates it tries. Each bound keeps
// the search's work fixed whatever the spec holds; the tests show each one holds at its limit.
import { describe, expect, it } from "vitest";
import { sampleForPattern } from "../regex-sample.js";
import { stringsOfLength, synth } from "../synth.js";
import type { Candidate, Finding } from "../finding.js";
import { loadTree, nodeAt, type Located, type SpecTree } from "../tree.js";
import { findWitness, Validators } from "../witness.js";
import { writeTree, type Files } from "./spec-fixture.js";

const ID = "https://agent-contracts.dev/schemas/p/B.json";
const FILE = "spec/p/messages/B.yaml";
const treeOf = (root: object): SpecTree => loadTree(writeTree({ "spec/p/protocol.yaml": { id: "p" }, [FILE]: { $id: ID, title: "B", ...root } } as Files));
function rootOf(tree: SpecTree): Located {
  const doc = tree.byId.get(ID)!;
  return { doc, pointer: "", schema: nodeAt(doc.file.value, "")! };
}

describe("witness search bounds", () => {
  it("at most two strings of one length, each that long", () => {
    const out = stringsOfLength(3);
    expect(out.length).toBeLessThanOrEqual(2);
    expect(out.length).toBeGreaterThan(0);
    for (const s of out) expect([...s]).toHaveLength(3);
  });
  it("at most six seeds are grown to a length: a pattern whose only growable seed is the eighth gets none", () => {
    // No one-character fill of length 5 matches; the pool's short matches come in the order
    // a, x, A, 0, 1, a1, ...: only "a1" grows into a match ("a1aaa"), past the first six seeds.
    const p = "^(?:[a-zA-Z0-9 !._-]{1,3}|a1aaa)$";
    expect(stringsOfLength(5, p)).toEqual([]);
    expect(new RegExp(p, "u").test("a1aaa")).toBe(true);
  });
  it("at most four values of a long enum, all from it", () => {
    const tree = treeOf({ enum: [1, 2, 3, 4, 5, 6, 7] });
    const out = synth(tree, rootOf(tree), 20);
    expect(out.length).toBeLessThanOrEqual(4);
    for (const v of out) expect([1, 2, 3, 4, 5, 6, 7]).toContain(v);
  });
  it("at most two of a schema's examples", () => {
    const tree = treeOf({ type: "string", examples: ["first-example", "second-example", "third-example"] });
    const out = synth(tree, rootOf(tree), 20);
    expect(out).toContain("first-example");
    expect(out).not.toContain("third-example");
  });
  it("a $ref chain is followed to its end however long: a reference adds no level to the instance", () => {
    const chain = (n: number) => ({ $ref: "#/$defs/d0", $defs: Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, i === n - 1 ? { const: "end" } : { $ref: `#/$defs/d${i + 1}` }])) });
    for (const n of [5, 10, 11, 40]) {
      const tree = treeOf(chain(n));
      expect(synth(tree, rootOf(tree)), `${n} definitions`).toEqual(["end"]);
    }
  });
  it("a $ref cycle yields nothing instead of following it forever", () => {
    const tree = treeOf({ $ref: "#/$defs/d0", $defs: { d0: { $ref: "#/$defs/d1" }, d1: { $ref: "#/$defs/d0" } } });
    expect(synth(tree, rootOf(tree))).toEqual([]);
  });
  it("objects are nested no deeper than eleven levels, however deep the schema goes", () => {
    // d0 is {c: d1}, d1 is {c: d2}, ...: the instance {c: {c: ... "end"}} nests n objects.
    const nested = (n: number) => ({ $ref: "#/$defs/d0", $defs: Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`d${i}`, i === n ? { const: "end" } : { type: "object", required: ["c"], properties: { c: { $ref: `#/$defs/d${i + 1}` } } }])) });
    const depthOf = (v: unknown): number => (v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    const endAt = (v: unknown, n: number): boolean => (n === 0 ? v === "end" : v !== null && typeof v === "object" && endAt((v as { c?: unknown }).c, n - 1));
    const shallow = treeOf(nested(5));
    expect(synth(shallow, rootOf(shallow)).some((v) => endAt(v, 5))).toBe(true);
    const deep = treeOf(nested(40));
    for (const v of synth(deep, rootOf(deep))) expect(depthOf(v), JSON.stringify(v)).toBeLessThanOrEqual(11);
  });
  it("a class of 20,902 members is enumerated no further than its first 200", () => {
    const p = "^[\u4e00-\u9fa5]$";
    expect(new RegExp(p, "u").test(sampleForPattern(p, 199)!)).toBe(true);
    // Variant 200 wraps to the first member: the walk stopped at 200.
    expect(sampleForPattern(p, 200)).toBe(sampleForPattern(p, 0));
    expect(sampleForPattern(p, 199)).not.toBe(sampleForPattern(p, 0));
  });
  it("at most three strings for a pattern, each admitted by it", () => {
    // {3} and the pool give many fitting strings ("aaa", "bbb", ... and pool words of three letters).
    const tree = treeOf({ type: "string", pattern: "^[a-z]{3}$" });
    const out = synth(tree, rootOf(tree), 50);
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThanOrEqual(3);
    for (const v of out) expect(typeof v === "string" && /^[a-z]{3}$/u.test(v)).toBe(true);
  });
  it("at most 80 candidates are tried: a separating 81st is never reached, the 80th is", () => {
    const before = treeOf({ type: "object", properties: { n: { type: "integer" } } });
    const after = treeOf({ type: "object", properties: { n: { type: "number" } } });
    const [ov, nv] = [new Validators(before), new Validators(after)];
    // Integers pass both versions; only 1.5 is new-only (2020-12: an integer is a number).
    const candidates = (at: number): Candidate[] => Array.from({ length: 100 }, (_, i) => ({ set: i === at ? 1.5 : i }));
    const request = (at: number) => ({ rule: "WIRE_TYPE_CHANGED", witnessRequest: { oldRoot: rootOf(before), newRoot: rootOf(after), path: ["n"], candidates: candidates(at), direction: "new-writer-old-reader" } }) as unknown as Finding;
    expect(findWitness(request(79), ov, nv)?.instance).toEqual({ n: 1.5 });
    expect(findWitness(request(80), ov, nv)).toBeNull();
  });
});
