// WIRE, beyond JSON Schema keywords: the x-rules cross-field rules of a message (a rule added or
// changed makes new readers reject old instances that break it; a rule removed, the reverse) and
// the values of protocol.yaml constants (header names, routes, limits, fixed texts), which both
// peers must agree on exactly as on a `const`.
import type { JsonValue } from "../model/types.js";
import { canonical, filePosition, finding, type Direction, type Finding } from "./finding.js";
import { synth } from "./synth.js";
import { isObj, type Located, type SchemaDoc, type SpecTree } from "./tree.js";
import { sets } from "./wire-report.js";

/** A rule's meaning: everything but its message text, which readers do not act on. */
const meaning = (rule: JsonValue): string => (isObj(rule) ? canonical({ ...rule, message: null }) : canonical(rule));

function rulesOf(doc: SchemaDoc): Map<string, { rule: JsonValue; index: number }> {
  const value = doc.file.value;
  const list = isObj(value) && Array.isArray(value["x-rules"]) ? value["x-rules"] : [];
  return new Map(list.map((rule, index) => [isObj(rule) ? String(rule.id) : String(index), { rule, index }]));
}

/** Instances the spec itself says break a rule (x-invalid-examples naming it), then valid ones. */
function instancesBreaking(tree: SpecTree, doc: SchemaDoc, id: string): JsonValue[] {
  const value = isObj(doc.file.value) ? doc.file.value : {};
  const invalid = Array.isArray(value["x-invalid-examples"]) ? value["x-invalid-examples"] : [];
  const named = invalid.filter((x) => isObj(x) && isObj(x.error) && x.error.rule === id).map((x) => (x as { instance: JsonValue }).instance);
  const examples = Array.isArray(value.examples) ? value.examples : [];
  const root: Located = { doc, pointer: "", schema: doc.file.value };
  return [...named, ...examples, ...synth(tree, root, 8)];
}

export function compareCrossFieldRules(oldTree: SpecTree, newTree: SpecTree, od: SchemaDoc, nd: SchemaDoc): Finding[] {
  const out: Finding[] = [];
  const or = rulesOf(od);
  const nr = rulesOf(nd);
  const oldRoot: Located = { doc: od, pointer: "", schema: od.file.value };
  const newRoot: Located = { doc: nd, pointer: "", schema: nd.file.value };
  const push = (id: string, message: string, direction: Direction, oldIndex: number | undefined, newIndex: number | undefined, candidates: JsonValue[]) => {
    const at = (file: SchemaDoc["file"], index: number | undefined) => filePosition(file, index === undefined ? "/x-rules" : `/x-rules/${index}`);
    out.push(
      finding("WIRE_RULE_CHANGED", at(nd.file, newIndex), `${nd.name}: x-rules ${id} ${message}`, {
        old: at(od.file, oldIndex),
        removed: newIndex === undefined,
        direction,
        witnessRequest: { oldRoot, newRoot, path: [], candidates: sets(candidates), direction },
        // A rule holds together with the schema, which may already refuse what it refuses (a
        // constraint moved from a pattern into a rule): as in an allOf, the change counts only
        // when a witness shows it on the whole message.
        maskable: true,
      }),
    );
  };
  for (const [id, o] of or) {
    const n = nr.get(id);
    if (n === undefined) push(id, "removed: old readers reject new instances that break it", "new-writer-old-reader", o.index, undefined, instancesBreaking(oldTree, od, id));
    else if (meaning(o.rule) !== meaning(n.rule)) push(id, "changed: the two versions refuse different instances", "either", o.index, n.index, [...instancesBreaking(oldTree, od, id), ...instancesBreaking(newTree, nd, id)]);
  }
  for (const [id, n] of nr) {
    if (!or.has(id)) push(id, "added: new readers reject old instances that break it", "old-writer-new-reader", undefined, n.index, instancesBreaking(newTree, nd, id));
  }
  return out;
}

/** Constant values by "group.NAME", with their pointers. */
function constantsOf(value: JsonValue): Map<string, { pointer: string; value: JsonValue | undefined }> {
  const m = new Map<string, { pointer: string; value: JsonValue | undefined }>();
  const groups = isObj(value) && Array.isArray(value.constants) ? value.constants : [];
  groups.forEach((g, gi) => {
    if (!isObj(g) || !Array.isArray(g.items)) return;
    g.items.forEach((item, ii) => {
      if (isObj(item)) m.set(`${String(g.group)}.${String(item.name)}`, { pointer: `/constants/${gi}/items/${ii}/value`, value: item.value });
    });
  });
  return m;
}

/**
 * A changed constant value. Its witness is the old value itself: the old peer sends (or expects)
 * exactly it, the new one does not, as with a changed `const`. A removed constant is
 * SOURCE_CONSTANT_REMOVED (source.ts).
 */
export function compareConstantValues(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  for (const [id, of] of oldTree.protocols) {
    const nf = newTree.protocols.get(id);
    if (!nf) continue;
    const nm = constantsOf(nf.value);
    for (const [name, o] of constantsOf(of.value)) {
      const n = nm.get(name);
      if (n === undefined || canonical(o.value) === canonical(n.value)) continue;
      out.push(
        finding("WIRE_CONSTANT_CHANGED", filePosition(nf, n.pointer), `constant ${id} ${name} changed from ${JSON.stringify(o.value)} to ${JSON.stringify(n.value)}: peers on the two versions send and expect different values`, {
          old: filePosition(of, o.pointer),
          direction: "either",
          ...(o.value === undefined ? {} : { witness: { instance: o.value, acceptedBy: "old" as const } }),
        }),
      );
    }
  }
  return out;
}
