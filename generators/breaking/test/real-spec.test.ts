// Random breaking edits to this repository's real schemas (fast-check, fixed seed): each yields its
// rule, and every WIRE finding has a witness a separate ajv confirms on both versions.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSpecText } from "../../load/spec-file.js";
import type { JsonValue } from "../../model/types.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { compareTrees } from "../compare.js";
import { isObj, loadTree, nodeAt, type SpecTree } from "../tree.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const base = loadTree(REPO_ROOT);

/** Every pointer in a message file whose node satisfies `test` (outside examples and x- keys). */
function pointers(value: JsonValue, test: (n: { [k: string]: JsonValue }) => boolean, at = "", out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => pointers(v, test, `${at}/${i}`, out));
  else if (isObj(value)) {
    if (test(value)) out.push(at);
    for (const [k, v] of Object.entries(value)) if (k !== "examples" && !k.startsWith("x-") && k !== "const" && k !== "enum" && k !== "default") pointers(v, test, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
  }
  return out;
}

interface Edit {
  rule: string;
  where: (n: { [k: string]: JsonValue }) => boolean;
  apply: (n: { [k: string]: JsonValue }) => void;
}
const EDITS: Edit[] = [
  { rule: "WIRE_ENUM_VALUE_REMOVED", where: (n) => Array.isArray(n.enum) && n.enum.length > 1, apply: (n) => void (n.enum as JsonValue[]).pop() },
  { rule: "WIRE_ENUM_VALUE_ADDED", where: (n) => Array.isArray(n.enum) && n.enum.every((v) => typeof v === "string"), apply: (n) => void (n.enum as JsonValue[]).push("zz-new-value") },
  { rule: "WIRE_BOUND_TIGHTENED", where: (n) => typeof n.maxLength === "number" && n.maxLength > 4, apply: (n) => void (n.maxLength = Math.floor((n.maxLength as number) / 2)) },
  // Loosened only where the new bound is still one every target holds (lint number-exact: integers within 2^53 - 1).
  { rule: "WIRE_BOUND_LOOSENED", where: (n) => typeof n.maximum === "number" && n.maximum + 7 <= Number.MAX_SAFE_INTEGER, apply: (n) => void (n.maximum = (n.maximum as number) + 7) },
  { rule: "WIRE_OBJECT_OPENED", where: (n) => n.additionalProperties === false && isObj(n.properties), apply: (n) => void delete n.additionalProperties },
  { rule: "WIRE_REQUIRED_REMOVED", where: (n) => Array.isArray(n.required) && n.required.length > 1 && isObj(n.properties), apply: (n) => void (n.required as JsonValue[]).pop() },
];

function withEdit(tree: SpecTree, docIndex: number, pointer: string, edit: Edit): { tree: SpecTree; value: JsonValue } {
  const doc = tree.schemas[docIndex]!;
  const value = structuredClone(doc.file.value);
  edit.apply(nodeAt(value, pointer) as { [k: string]: JsonValue });
  const parsed = parseSpecText(doc.file.file, JSON.stringify(value, null, 2));
  if (!parsed.ok) throw new Error("edited file does not parse");
  const schemas = tree.schemas.map((d, i) => (i === docIndex ? { ...d, file: parsed.spec } : d));
  return { tree: { ...tree, root: `${tree.root}/nonexistent`, schemas, byId: new Map(schemas.map((s) => [s.id, s])) }, value };
}

function ajvFor(tree: SpecTree): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, discriminator: true });
  addFormats(ajv);
  for (const s of tree.schemas) ajv.addSchema(s.file.value as object);
  return ajv;
}

describe("random breaking edits to the real spec", () => {
  // Edits under keywords outside the compared subset are WIRE_SCHEMA_CHANGED by design: left out.
  const outside = /\/(if|not|contains|propertyNames|dependentSchemas)(\/|$)/;
  const candidates = EDITS.flatMap((edit) => base.schemas.flatMap((d, i) => (d.kind === "message" ? pointers(d.file.value, edit.where).filter((p) => !outside.test(p)).map((p) => ({ edit, doc: i, pointer: p })) : [])));
  it("has places to edit", () => expect(candidates.length).toBeGreaterThan(50));
  it("yield their rule, each WIRE finding with a confirmed witness", () => {
    const oldAjv = ajvFor(base);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: candidates.length - 1 }), (k) => {
        const c = candidates[k]!;
        const { tree } = withEdit(base, c.doc, c.pointer, c.edit);
        const { findings } = compareTrees(base, tree, { config: { enforce: "SOURCE", exceptions: [], unstable: [], tolerantReaders: [] }, oldConfig: { enforce: "SOURCE", exceptions: [], unstable: [], tolerantReaders: [] } });
        const label = `${c.edit.rule} at ${base.schemas[c.doc]!.file.file}#${c.pointer}`;
        // Inside allOf/then/else a part's change may be masked by a sibling: then no finding is right.
        if (!/\/(allOf|then|else)\//.test(c.pointer)) expect(findings.map((f) => f.rule), label).toContain(c.edit.rule);
        const newAjv = ajvFor(tree);
        // The synthesizer builds strings from keywords (length, pattern, format), not from a
        // message's x-rules: where the root carries rules (an https URL, say), a witness may not be
        // found and `witness: null` is the documented answer. Everywhere else one must be.
        const rootRules = (base.schemas[c.doc]!.file.value as { "x-rules"?: unknown[] })["x-rules"] ?? [];
        for (const f of findings.filter((x) => x.category === "WIRE")) {
          if (f.witness === null && rootRules.length > 0) continue;
          expect(f.witness, `${label}: ${f.rule} ${f.message}`).toBeTruthy();
          const req = f.witnessRequest!;
          const check = (ajv: Ajv2020, root: typeof req.oldRoot) => (root ? (ajv.getSchema(root.pointer === "" ? root.doc.id : `${root.doc.id}#${root.pointer}`)!(f.witness!.instance) as boolean) : false);
          expect(check(oldAjv, req.oldRoot) !== check(newAjv, req.newRoot), label).toBe(true);
        }
      }),
      { numRuns: 25, seed: 1912 },
    );
  });
});
