// Witnesses for WIRE findings: a whole instance that one side's root schema accepts and the
// other's rejects, both checked with ajv (the same validator family the bindings are tested
// against). A finding whose candidates yield no such instance keeps `witness: null`.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonValue } from "../model/types.js";
import type { Candidate, Finding, PathToken, Witness } from "./finding.js";
import { synth } from "./synth.js";
import { isObj, type Located, type SpecTree } from "./tree.js";
import { checkRules } from "../targets/ts/runtime/src/rules.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A root schema's verdict on an instance; undefined when ajv cannot reach one (a schema that refers
 * to itself without reaching into the instance, as `A: {allOf: [{$ref: A}]}`, overflows the stack). */
type Check = (v: JsonValue) => boolean | undefined;

export class Validators {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, Check | undefined>();
  constructor(readonly tree: SpecTree) {
    this.ajv = build(tree, true) ?? build(tree, false)!;
  }
  /** The validator of a root schema, or undefined when ajv cannot compile it. */
  of(loc: Located | null): Check | undefined {
    if (!loc) return () => false;
    const key = `${loc.doc.id}#${loc.pointer}`;
    if (!this.cache.has(key)) {
      let check: Check | undefined;
      try {
        const v = this.ajv.getSchema(loc.pointer === "" ? loc.doc.id : key);
        // A message root also refuses what its x-rules refuse, as the generated validators do.
        const root = loc.pointer === "" && isObj(loc.doc.file.value) ? loc.doc.file.value["x-rules"] : undefined;
        const rules = Array.isArray(root) ? root : [];
        check = v
          ? (x) => {
              try {
                return (v(x) as boolean) && (rules.length === 0 || crossFieldRulesHold(x, rules));
              } catch {
                return undefined;
              }
            }
          : undefined;
      } catch {
        check = undefined;
      }
      this.cache.set(key, check);
    }
    return this.cache.get(key);
  }
}

/** True when every rule holds; a rule of a kind this version does not know counts as holding. */
function crossFieldRulesHold(value: JsonValue, rules: JsonValue[]): boolean {
  try {
    return checkRules(value, rules as never).length === 0;
  } catch {
    return true;
  }
}

function build(tree: SpecTree, discriminator: boolean): Ajv2020 | undefined {
  try {
    const ajv = new Ajv2020({ strict: false, discriminator, allErrors: false, validateSchema: false });
    addFormats(ajv);
    for (const s of tree.schemas) if (isObj(s.file.value)) ajv.addSchema({ ...s.file.value, $id: s.id } as object);
    return ajv;
  } catch {
    return undefined;
  }
}

export function apply(base: JsonValue, path: PathToken[], c: Candidate): JsonValue | undefined {
  if (path.length === 0) return "set" in c ? c.set : undefined;
  const root = structuredClone(base);
  if (!isObj(root) && !Array.isArray(root)) return undefined;
  let cur: JsonValue = root;
  for (let i = 0; i < path.length; i++) {
    const token = path[i]!;
    const last = i === path.length - 1;
    const container = cur as { [k: string]: JsonValue } & JsonValue[];
    const key = typeof token === "number" && Array.isArray(cur) ? Math.min(token, cur.length) : token;
    if (last) {
      if ("set" in c) container[key as never] = c.set as never;
      else if (Array.isArray(cur)) cur.splice(Number(key), 1);
      else delete container[String(key)];
      break;
    }
    const next = path[i + 1]!;
    const existing = container[key as never] as JsonValue | undefined;
    const wantArray = typeof next === "number";
    if (wantArray ? !Array.isArray(existing) : !isObj(existing)) container[key as never] = (wantArray ? [] : {}) as never;
    cur = container[key as never] as JsonValue;
  }
  return root;
}

function basesOf(tree: SpecTree, root: Located | null): JsonValue[] {
  if (!root) return [];
  const examples = root.pointer === "" && isObj(root.schema) && Array.isArray(root.schema.examples) ? root.schema.examples : [];
  return [...examples, ...synth(tree, root, 8)];
}

export function findWitness(f: Finding, oldV: Validators, newV: Validators): Witness | null {
  const req = f.witnessRequest;
  if (!req) return null;
  const sides: ("old" | "new")[] = req.direction === "old-writer-new-reader" ? ["old"] : req.direction === "new-writer-old-reader" ? ["new"] : ["old", "new"];
  for (const side of sides) {
    const acceptRoot = side === "old" ? req.oldRoot : req.newRoot;
    const rejectRoot = side === "old" ? req.newRoot : req.oldRoot;
    const accept = (side === "old" ? oldV : newV).of(acceptRoot);
    const reject = (side === "old" ? newV : oldV).of(rejectRoot);
    if (!accept || !reject || !acceptRoot) continue;
    const bases = [...basesOf(side === "old" ? oldV.tree : newV.tree, acceptRoot), ...basesOf(side === "old" ? newV.tree : oldV.tree, rejectRoot)];
    for (const c of req.candidates.slice(0, 80)) {
      for (const base of bases.length > 0 ? bases : [{}]) {
        const instance = apply(base, req.path, c);
        if (instance === undefined) continue;
        if (accept(instance) === true && reject(instance) === false) return { instance, acceptedBy: side };
      }
    }
    // A whole base instance can be its own witness (e.g. an old message the new spec removed).
    for (const base of bases) if (accept(base) === true && reject(base) === false) return { instance: base, acceptedBy: side };
  }
  return null;
}
