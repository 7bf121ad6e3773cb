// The changes that break no one, reported beside the breaking findings so release notes and the
// version suggestion see every change (issue 39): what was added (messages, fields, enum values,
// definitions, constants, lifecycles, states, events, transitions), a guard dropped, and
// documentation edited. A change some finding already describes (an enum value added where old
// readers reject it, a field added to a closed object) is left to that finding.
import type { JsonValue } from "../model/types.js";
import type { SpecFile } from "../load/spec-file.js";
import { canonical, filePosition, type Finding, type Position } from "./finding.js";
import { addedTransitions, edge, matchTransitions, readMachine } from "./lifecycle.js";
import { isObj, nodeAt, type SpecTree } from "./tree.js";

export type ChangeSeverity = "compatible" | "documentation";

export const CHANGE_KINDS = {
  MESSAGE_ADDED: "A message schema was added.",
  DEFINITION_ADDED: "A common schema file or a $defs entry was added.",
  FIELD_ADDED: "An optional property was added to an open object (a required one, or one in a closed object, is a breaking finding).",
  ENUM_VALUE_ADDED: "An enum value was added where no reader rejects it (otherwise WIRE_ENUM_VALUE_ADDED).",
  CONSTANT_ADDED: "A protocol.yaml constant was added.",
  LIFECYCLE_ADDED: "A lifecycle machine was added.",
  STATE_ADDED: "A lifecycle state was added.",
  EVENT_ADDED: "A lifecycle event was added.",
  TRANSITION_ADDED: "A lifecycle transition was added: a move the old machine never makes.",
  GUARD_REMOVED: "A guard was dropped from a transition: the new machine allows what the old one allowed, and more.",
  DOCUMENTATION_CHANGED: "A description, $comment, x-source, example or other documentation text changed.",
} as const;
export type ChangeKind = keyof typeof CHANGE_KINDS;

export interface Change {
  kind: ChangeKind;
  severity: ChangeSeverity;
  at: Position;
  message: string;
}

/** Keys whose values are documentation only: no generated code or validator reads them. */
const DOC_KEYS = new Set(["description", "$comment", "x-source", "examples", "x-invalid-examples", "x-divergences", "x-document", "summary"]);
const SKIP = new Set(["examples", "x-invalid-examples", "default", "const", "enum"]);
const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
const compatible = (kind: ChangeKind, at: Position, message: string): Change => ({ kind, severity: "compatible", at, message });

/** Schema nodes (objects) of a file, keywords under x- and value lists skipped. */
function walkSchema(value: JsonValue, pointer: string, visit: (node: { [k: string]: JsonValue }, pointer: string) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => walkSchema(v, `${pointer}/${i}`, visit));
  else if (isObj(value)) {
    visit(value, pointer);
    for (const [k, v] of Object.entries(value)) if (!SKIP.has(k) && !k.startsWith("x-")) walkSchema(v, `${pointer}/${esc(k)}`, visit);
  }
}

/** Every documentation value of a file by "pointer of its node" + key. */
function docValues(value: JsonValue, pointer = "", out = new Map<string, { pointer: string; value: string }>()): Map<string, { pointer: string; value: string }> {
  if (Array.isArray(value)) value.forEach((v, i) => docValues(v, `${pointer}/${i}`, out));
  else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      const p = `${pointer}/${esc(k)}`;
      if (DOC_KEYS.has(k)) out.set(p, { pointer: p, value: canonical(v) });
      else docValues(v, p, out);
    }
  }
  return out;
}

function compareDocs(oldFile: SpecFile, newFile: SpecFile, out: Change[]): void {
  const before = docValues(oldFile.value);
  const after = docValues(newFile.value);
  for (const [key, n] of after) {
    const o = before.get(key);
    if (o?.value === n.value) continue;
    // Written with a node that is new: the node's addition is the change.
    if (!o && nodeAt(oldFile.value, n.pointer.slice(0, n.pointer.lastIndexOf("/"))) === undefined) continue;
    out.push({ kind: "DOCUMENTATION_CHANGED", severity: "documentation", at: filePosition(newFile, n.pointer), message: `${lastToken(n.pointer)} ${o ? "changed" : "added"}` });
  }
  for (const [key, o] of before) {
    if (after.has(key)) continue;
    const parent = o.pointer.slice(0, o.pointer.lastIndexOf("/"));
    // Removed with its node: the node's own removal is reported (or breaks) on its own.
    if (nodeAt(newFile.value, parent) === undefined) continue;
    out.push({ kind: "DOCUMENTATION_CHANGED", severity: "documentation", at: filePosition(newFile, parent), message: `${lastToken(o.pointer)} removed` });
  }
}

const lastToken = (pointer: string) => pointer.slice(pointer.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");

function schemaChanges(oldTree: SpecTree, newTree: SpecTree, out: Change[]): void {
  for (const nd of newTree.schemas) {
    const od = oldTree.byId.get(nd.id);
    if (!od) {
      out.push(compatible(nd.kind === "message" ? "MESSAGE_ADDED" : "DEFINITION_ADDED", filePosition(nd.file, ""), `${nd.kind === "message" ? "message" : "schema file"} ${nd.owner}/${nd.name} added`));
      continue;
    }
    compareDocs(od.file, nd.file, out);
    walkSchema(nd.file.value, "", (node, pointer) => {
      const old = nodeAt(od.file.value, pointer);
      if (!isObj(old)) return;
      for (const [kw, kind] of [["properties", "FIELD_ADDED"], ["$defs", "DEFINITION_ADDED"]] as const) {
        // A node that had no such keyword had none of its entries: each one now there is added.
        if (!isObj(node[kw])) continue;
        const was = isObj(old[kw]) ? (old[kw] as object) : {};
        for (const name of Object.keys(node[kw] as object)) {
          if (!(name in was)) out.push(compatible(kind, filePosition(nd.file, `${pointer}/${kw}/${esc(name)}`), `${kind === "FIELD_ADDED" ? "field" : "definition"} ${name} added${pointer === "" ? "" : ` at ${pointer}`} in ${nd.owner}/${nd.name}`));
        }
      }
      if (Array.isArray(node.enum) && Array.isArray(old.enum)) {
        const had = new Set(old.enum.map(canonical));
        const gained = node.enum.filter((v) => !had.has(canonical(v)));
        if (gained.length > 0) out.push(compatible("ENUM_VALUE_ADDED", filePosition(nd.file, `${pointer}/enum`), `enum value${gained.length === 1 ? "" : "s"} ${gained.map((v) => JSON.stringify(v)).join(", ")} added in ${nd.owner}/${nd.name}`));
      }
    });
  }
}

function constantNames(file: SpecFile): Map<string, string> {
  const m = new Map<string, string>();
  const groups = isObj(file.value) && Array.isArray(file.value.constants) ? file.value.constants : [];
  groups.forEach((g, gi) => {
    if (isObj(g) && Array.isArray(g.items)) g.items.forEach((item, ii) => isObj(item) && m.set(`${String(g.group)}.${String(item.name)}`, `/constants/${gi}/items/${ii}`));
  });
  return m;
}

function protocolChanges(oldTree: SpecTree, newTree: SpecTree, out: Change[]): void {
  for (const [id, nf] of newTree.protocols) {
    const of = oldTree.protocols.get(id);
    if (!of) continue;
    compareDocs(of, nf, out);
    const had = constantNames(of);
    for (const [name, pointer] of constantNames(nf)) if (!had.has(name)) out.push(compatible("CONSTANT_ADDED", filePosition(nf, pointer), `constant ${id} ${name} added`));
  }
}

function lifecycleChanges(oldTree: SpecTree, newTree: SpecTree, out: Change[]): void {
  for (const nm of newTree.machines) {
    const label = `${nm.protocol}/${nm.name}`;
    const om = oldTree.machines.find((m) => m.protocol === nm.protocol && m.name === nm.name);
    if (!om) {
      out.push(compatible("LIFECYCLE_ADDED", filePosition(nm.file, ""), `lifecycle ${label} added`));
      continue;
    }
    compareDocs(om.file, nm.file, out);
    const o = readMachine(om.file);
    const n = readMachine(nm.file);
    for (const [name, s] of n.states) if (!o.states.has(name)) out.push(compatible("STATE_ADDED", filePosition(nm.file, s.pointer), `${label}: state ${name} added`));
    for (const [name, p] of n.events) if (!o.events.has(name)) out.push(compatible("EVENT_ADDED", filePosition(nm.file, p), `${label}: event ${name} added`));
    for (const t of addedTransitions(o.transitions, n.transitions)) out.push(compatible("TRANSITION_ADDED", filePosition(nm.file, t.pointer), `${label}: ${edge(t)} added`));
    for (const m of matchTransitions(o.transitions, n.transitions)) {
      if (m.kind !== "kept") continue;
      const dropped = m.old.guards.filter((g) => !m.now.guards.includes(g));
      if (dropped.length > 0) out.push(compatible("GUARD_REMOVED", filePosition(nm.file, m.now.pointer), `${label}: ${edge(m.old)} lost guard ${dropped.join(" and ")}`));
    }
  }
}

/** Does a finding (in its new or old place) describe the change already? */
function covered(c: Change, findings: Finding[]): boolean {
  const under = (p: Position | undefined) => p !== undefined && p.file === c.at.file && (p.pointer === c.at.pointer || p.pointer.startsWith(`${c.at.pointer}/`));
  return findings.some((f) => under(f.at) || under(f.old));
}

/** Every compatible and documentation change from `oldTree` to `newTree`, in file and line order. */
export function compareCompatible(oldTree: SpecTree, newTree: SpecTree, findings: Finding[]): Change[] {
  const out: Change[] = [];
  schemaChanges(oldTree, newTree, out);
  protocolChanges(oldTree, newTree, out);
  lifecycleChanges(oldTree, newTree, out);
  if (oldTree.project && newTree.project) compareDocs(oldTree.project, newTree.project, out);
  // Each file is compared once and each change names its own key or entry, so none repeats (two
  // documentation keys removed from one node share the node's place, not their message).
  return out
    .filter((c) => !covered(c, findings))
    .sort((a, b) => (a.at.file < b.at.file ? -1 : a.at.file > b.at.file ? 1 : a.at.line - b.at.line || a.at.column - b.at.column || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)));
}
