// One message schema T in a one-file spec, both versions loaded, and the witness checks the
// witness tests share: a witness must be JSON and separate the versions by the fixture's ajv.
import { expect } from "vitest";
import type { Candidate, Finding, PathToken, WitnessRequest } from "../finding.js";
import { loadTree, nodeAt, type Located, type SpecTree } from "../tree.js";
import { findWitness, Validators } from "../witness.js";
import { accepts, writeTree, type Files } from "./spec-fixture.js";

export const ID = "https://agent-contracts.dev/schemas/p/T.json";
export const FILE = "spec/p/messages/T.yaml";
export const filesWith = (root: object): Files => ({ "spec/p/protocol.yaml": { id: "p" }, [FILE]: { $id: ID, title: "T", ...root } });

export function locAt(tree: SpecTree, pointer: string): Located {
  const doc = tree.byId.get(ID)!;
  const schema = nodeAt(doc.file.value, pointer);
  if (schema === undefined) throw new Error(`no node at ${pointer}`);
  return { doc, pointer, schema };
}

export function request(oldRoot: Located | null, newRoot: Located | null, path: PathToken[], candidates: Candidate[], direction: WitnessRequest["direction"]): Finding {
  return { rule: "WIRE_SCHEMA_CHANGED", witnessRequest: { oldRoot, newRoot, path, candidates, direction } } as unknown as Finding;
}

export function versions(before: object, after: object) {
  const b = filesWith(before);
  const a = filesWith(after);
  const ot = loadTree(writeTree(b));
  const nt = loadTree(writeTree(a));
  return { b, a, ot, nt, ov: new Validators(ot), nv: new Validators(nt), oldRoot: locAt(ot, ""), newRoot: locAt(nt, "") };
}

/** The witness is JSON and separates the versions by the fixture's ajv, on the side it names. */
export function expectSeparates(w: ReturnType<typeof findWitness>, b: Files, a: Files) {
  expect(w).toBeTruthy();
  expect(JSON.parse(JSON.stringify(w!.instance)), "the witness is JSON").toStrictEqual(w!.instance);
  const inOld = accepts(b, FILE, "", w!.instance);
  const inNew = accepts(a, FILE, "", w!.instance);
  expect(inOld !== inNew, JSON.stringify(w!.instance)).toBe(true);
  expect(w!.acceptedBy).toBe(inOld ? "old" : "new");
}
