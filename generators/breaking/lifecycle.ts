// LIFECYCLE (and the SOURCE rules about generated state and event types): machines are read as
// plain data, so an old commit's machine compares even if today's lifecycle lints refuse it.
import type { SpecFile } from "../load/spec-file.js";
import { filePosition, finding, type Finding } from "./finding.js";
import { isObj, type SpecTree } from "./tree.js";

export interface Machine {
  file: SpecFile;
  initial: string | undefined;
  states: Map<string, { terminal: boolean; pointer: string }>;
  events: Map<string, string>;
  /** One entry per (from, event, to, guards): a transition with several `from` states is several. */
  transitions: Transition[];
}

export interface Transition {
  /** Guard literals as written ("late", "not late"), spaces collapsed, sorted: order does not matter. */
  guards: string[];
  pointer: string;
  from: string;
  event: string;
  to: string;
}

const esc = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
const list = (v: unknown): string[] => (v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string"));

export function readMachine(file: SpecFile): Machine {
  const doc = isObj(file.value) ? file.value : {};
  const states = new Map<string, { terminal: boolean; pointer: string }>();
  for (const [name, s] of Object.entries(isObj(doc.states) ? doc.states : {})) states.set(name, { terminal: isObj(s) && s.terminal === true, pointer: `/states/${esc(name)}` });
  const events = new Map<string, string>();
  for (const name of Object.keys(isObj(doc.events) ? doc.events : {})) events.set(name, `/events/${esc(name)}`);
  const transitions: Transition[] = [];
  (Array.isArray(doc.transitions) ? doc.transitions : []).forEach((t, i) => {
    if (!isObj(t)) return;
    const guards = list(t.guard).map((g) => g.trim().replace(/\s+/g, " ")).sort();
    for (const from of list(t.from)) transitions.push({ guards, pointer: `/transitions/${i}`, from, event: String(t.event), to: String(t.to) });
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
    const o = readMachine(om.file);
    const n = readMachine(nm.file);
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
    for (const m of matchTransitions(o.transitions, n.transitions)) {
      const t = m.old;
      if (m.kind === "removed") {
        out.push(finding("LIFECYCLE_TRANSITION_REMOVED", pos(n, "/transitions"), `${label}: ${edge(t)} was removed`, { old: pos(o, t.pointer), removed: true }));
      } else if (m.kind === "retargeted") {
        out.push(finding("LIFECYCLE_TRANSITION_REMOVED", pos(n, m.now.pointer), `${label}: ${edge(t)} now leads to ${m.now.to}`, { old: pos(o, t.pointer) }));
      } else {
        const added = m.now.guards.filter((g) => !t.guards.includes(g));
        if (added.length > 0) out.push(finding("LIFECYCLE_GUARD_ADDED", pos(n, m.now.pointer), `${label}: ${edge(t)} gained guard ${added.join(" and ")}`, { old: pos(o, t.pointer) }));
      }
    }
  }
  return out;
}

/** "a --go [g, not h]--> b": the guards name which of several transitions on a state and event it is. */
export const edge = (t: Transition) => `${t.from} --${t.event}${t.guards.length > 0 ? ` [${t.guards.join(", ")}]` : ""}--> ${t.to}`;

const sameGuards = (a: Transition, b: Transition) => a.guards.join("\0") === b.guards.join("\0");
const sameMove = (a: Transition, b: Transition) => a.from === b.from && a.event === b.event;

export type TransitionMatch =
  | { kind: "kept"; old: Transition; now: Transition }
  | { kind: "retargeted"; old: Transition; now: Transition }
  | { kind: "removed"; old: Transition };

/**
 * Pairs each old transition with the new one it became, in three passes so one transition is never
 * matched twice: the same edge and guards; then the same edge with other guards (a guard added or
 * dropped); then the same state, event and guards with another target (the move now leads elsewhere).
 * What is left was removed. Several guarded transitions on one state and event stay distinct.
 */
export function matchTransitions(oldList: Transition[], newList: Transition[]): TransitionMatch[] {
  const free = new Set(newList);
  const take = (t: Transition, fits: (x: Transition) => boolean) => {
    const hit = [...free].find(fits);
    if (hit) free.delete(hit);
    return hit;
  };
  const out = new Map<Transition, TransitionMatch>();
  for (const t of oldList) {
    const now = take(t, (x) => sameMove(x, t) && x.to === t.to && sameGuards(x, t));
    if (now) out.set(t, { kind: "kept", old: t, now });
  }
  for (const t of oldList.filter((x) => !out.has(x))) {
    const now = take(t, (x) => sameMove(x, t) && x.to === t.to);
    if (now) out.set(t, { kind: "kept", old: t, now });
  }
  for (const t of oldList.filter((x) => !out.has(x))) {
    const now = take(t, (x) => sameMove(x, t) && sameGuards(x, t));
    out.set(t, now ? { kind: "retargeted", old: t, now } : { kind: "removed", old: t });
  }
  return oldList.map((t) => out.get(t)!);
}

/** New transitions no old one became: added (compatible: the old machine never makes that move). */
export function addedTransitions(oldList: Transition[], newList: Transition[]): Transition[] {
  const used = new Set(matchTransitions(oldList, newList).flatMap((m) => (m.kind === "removed" ? [] : [m.now])));
  return newList.filter((t) => !used.has(t));
}
