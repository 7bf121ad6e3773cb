// LIFECYCLE (and the SOURCE rules about generated state and event types): machines are read as
// plain data, so an old commit's machine compares even if today's lifecycle lints refuse it.
import type { SpecFile } from "../load/spec-file.js";
import { filePosition, finding, type Finding } from "./finding.js";
import { isObj, type SpecTree } from "./tree.js";

interface Machine {
  file: SpecFile;
  initial: string | undefined;
  states: Map<string, { terminal: boolean; pointer: string }>;
  events: Map<string, string>;
  /** "from event to" -> guard literals and pointer. */
  transitions: Map<string, { guards: string[]; pointer: string; from: string; event: string; to: string }>;
}

const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
const list = (v: unknown): string[] => (v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string"));

function read(file: SpecFile): Machine {
  const doc = isObj(file.value) ? file.value : {};
  const states = new Map<string, { terminal: boolean; pointer: string }>();
  for (const [name, s] of Object.entries(isObj(doc.states) ? doc.states : {})) states.set(name, { terminal: isObj(s) && s.terminal === true, pointer: `/states/${esc(name)}` });
  const events = new Map<string, string>();
  for (const name of Object.keys(isObj(doc.events) ? doc.events : {})) events.set(name, `/events/${esc(name)}`);
  const transitions: Machine["transitions"] = new Map();
  (Array.isArray(doc.transitions) ? doc.transitions : []).forEach((t, i) => {
    if (!isObj(t)) return;
    for (const from of list(t.from)) {
      const event = String(t.event);
      const to = String(t.to);
      transitions.set(`${from} ${event} ${to}`, { guards: list(t.guard), pointer: `/transitions/${i}`, from, event, to });
    }
  });
  return { file, initial: typeof doc.initial === "string" ? doc.initial : undefined, states, events, transitions };
}

export function compareLifecycles(oldTree: SpecTree, newTree: SpecTree): Finding[] {
  const out: Finding[] = [];
  for (const om of oldTree.machines) {
    const nm = newTree.machines.find((m) => m.protocol === om.protocol && m.name === om.name);
    const label = `${om.protocol}/${om.name}`;
    if (!nm) {
      const near = newTree.protocols.get(om.protocol);
      const at = near ? filePosition(near, "") : filePosition(om.file, "");
      out.push(finding("SOURCE_LIFECYCLE_REMOVED", at, `lifecycle ${label} was removed`, { old: filePosition(om.file, ""), removed: true }));
      out.push(finding("LIFECYCLE_REMOVED", at, `lifecycle ${label} was removed`, { old: filePosition(om.file, ""), removed: true }));
      continue;
    }
    const o = read(om.file);
    const n = read(nm.file);
    const pos = (m: Machine, p: string) => filePosition(m.file, p);
    if (o.initial !== n.initial) out.push(finding("LIFECYCLE_INITIAL_CHANGED", pos(n, "/initial"), `${label}: initial state ${o.initial ?? "unset"} -> ${n.initial ?? "unset"}`, { old: pos(o, "/initial") }));
    for (const [name, s] of o.states) {
      const ns = n.states.get(name);
      if (!ns) {
        out.push(finding("SOURCE_STATE_REMOVED", pos(n, "/states"), `${label}: state ${name} was removed or renamed`, { old: pos(o, s.pointer), removed: true }));
        out.push(finding("LIFECYCLE_STATE_REMOVED", pos(n, "/states"), `${label}: state ${name} was removed or renamed`, { old: pos(o, s.pointer), removed: true }));
      } else if (ns.terminal !== s.terminal) {
        out.push(finding("LIFECYCLE_TERMINAL_CHANGED", pos(n, ns.pointer), `${label}: state ${name} ${s.terminal ? "is no longer terminal" : "became terminal"}`, { old: pos(o, s.pointer) }));
      }
    }
    for (const [name, p] of o.events) {
      if (!n.events.has(name)) out.push(finding("SOURCE_EVENT_REMOVED", pos(n, "/events"), `${label}: event ${name} was removed or renamed`, { old: pos(o, p), removed: true }));
    }
    for (const [key, t] of o.transitions) {
      const nt = n.transitions.get(key);
      if (!nt) {
        const moved = [...n.transitions.values()].find((x) => x.from === t.from && x.event === t.event);
        const what = moved ? `now leads to ${moved.to}` : "was removed";
        out.push(finding("LIFECYCLE_TRANSITION_REMOVED", moved ? pos(n, moved.pointer) : pos(n, "/transitions"), `${label}: ${t.from} --${t.event}--> ${t.to} ${what}`, { old: pos(o, t.pointer), removed: !moved }));
        continue;
      }
      const added = nt.guards.filter((g) => !t.guards.includes(g));
      if (added.length > 0) out.push(finding("LIFECYCLE_GUARD_ADDED", pos(n, nt.pointer), `${label}: ${t.from} --${t.event}--> ${t.to} gained guard ${added.join(" and ")}`, { old: pos(o, t.pointer) }));
    }
  }
  return out;
}
