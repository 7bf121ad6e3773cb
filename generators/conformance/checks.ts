// The expectation checks that need no connection: JSON pointers with item selectors, one field
// against a FieldExpect, deep equality, and the x-sse ordering rules every run must keep.
import type { FieldExpect, Frame, FrameMatch, Json } from "./types.js";

export function lastInteraction(frames: Frame[]): Frame | undefined {
  return [...frames].reverse().find((f) => f.kind === "interaction");
}

export function describeMatch(m: FrameMatch): string {
  return JSON.stringify(m);
}

export function summarize(frames: Frame[]): string {
  const s = frames.map((f) => {
    const p = f.payload as { type?: string; name?: string };
    return f.kind === "step" ? `${p.type}:${p.name}` : f.kind;
  });
  return s.length > 24 ? `${s.slice(0, 24).join(" ")} …` : s.join(" ");
}

/** x-sse ordering rules that hold for every run, whatever the filter. */
export function checkOrdering(frames: Frame[], ended: boolean): string | undefined {
  const steps = frames.map((f, i) => ({ f, i, p: f.payload as { id?: string; type?: string; payload?: { metadata?: { provided_metadata?: { workflow_run_id?: string } } } } }));
  const starts = steps.filter((s) => s.f.kind === "step" && s.p.type === "WORKFLOW_START");
  const ends = steps.filter((s) => s.f.kind === "step" && s.p.type === "WORKFLOW_END");
  if (starts.length > 1) return `${starts.length} WORKFLOW_START frames`;
  if (ends.length > 1) return `${ends.length} WORKFLOW_END frames`;
  if (starts.length === 1 && starts[0]!.i !== 0) return "WORKFLOW_START is not the first frame";
  if (ends.length === 1) {
    if (ended && ends[0]!.i !== frames.length - 1) return "WORKFLOW_END is not the last frame";
    if (starts.length === 1 && ends[0]!.p.id !== starts[0]!.p.id) return "WORKFLOW_END does not reuse the WORKFLOW_START id";
  }
  const errors = frames.filter((f) => f.kind === "error");
  if (errors.length > 1) return `${errors.length} error frames (at most one)`;
  const interactions = frames.filter((f) => f.kind === "interaction").map((f) => f.payload as { execution_id: string; interaction_id: string });
  const runId = starts[0]?.p.payload?.metadata?.provided_metadata?.workflow_run_id;
  for (const x of interactions) {
    if (x.execution_id !== interactions[0]!.execution_id) return "interaction frames of one run carry different execution_ids";
    if (runId !== undefined && x.execution_id !== runId) return "interaction execution_id differs from workflow_run_id";
  }
  if (new Set(interactions.map((x) => x.interaction_id)).size !== interactions.length) return "an interaction_id is reused within the run";
  return undefined;
}

export function getPointer(value: Json, pointer: string): { found: boolean; value?: Json } {
  if (pointer === "") return { found: true, value };
  let cur: Json = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const sel = /^\[([^=^\]]+)(=|\^=)([^\]]*)\]$/.exec(token);
    if (sel) {
      if (!Array.isArray(cur)) return { found: false };
      const test = (v: Json | undefined): boolean => (sel[2] === "=" ? String(v) === sel[3] : typeof v === "string" && v.startsWith(sel[3]!));
      const hit: Json | undefined = cur.find((item) => item !== null && typeof item === "object" && !Array.isArray(item) && test((item as Record<string, Json>)[sel[1]!]));
      if (hit === undefined) return { found: false };
      cur = hit;
    } else if (Array.isArray(cur)) {
      const i = Number(token);
      if (!Number.isInteger(i) || i < 0 || i >= cur.length) return { found: false };
      cur = cur[i]!;
    } else if (cur !== null && typeof cur === "object") {
      if (!Object.prototype.hasOwnProperty.call(cur, token)) return { found: false };
      cur = (cur as Record<string, Json>)[token]!;
    } else return { found: false };
  }
  return { found: true, value: cur };
}

function typeOf(v: Json | undefined): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Why `value` does not meet `exp`, or undefined when it does. */
export function checkField(value: Json | undefined, found: boolean, exp: FieldExpect): string | undefined {
  const show = (v: Json | undefined): string => (v === undefined ? "absent" : JSON.stringify(v).slice(0, 160));
  if (exp === null || typeof exp !== "object") {
    return found && deepEqual(value!, exp) ? undefined : `${show(value)}, expected ${JSON.stringify(exp)}`;
  }
  if (exp.present !== undefined && exp.present !== found) return exp.present ? "absent" : `present (${show(value)})`;
  if (!found) {
    if (exp.present === false) return undefined;
    // "anything else" includes absence.
    if (Object.keys(exp).length === 1 && exp.notEquals !== undefined) return undefined;
    return "absent";
  }
  if (exp.equals !== undefined && !deepEqual(value!, exp.equals)) return `${show(value)}, expected ${JSON.stringify(exp.equals)}`;
  if (exp.notEquals !== undefined && deepEqual(value!, exp.notEquals)) return `${show(value)}, expected anything else`;
  if (exp.type !== undefined && typeOf(value) !== exp.type) return `${show(value)} is not of type ${exp.type}`;
  const needString = exp.startsWith !== undefined || exp.contains !== undefined || exp.notContains !== undefined || exp.pattern !== undefined;
  if (needString && typeof value !== "string") return `${show(value)} is not a string`;
  const s = value as string;
  if (exp.startsWith !== undefined && !s.startsWith(exp.startsWith)) return `${show(value)} does not start with ${JSON.stringify(exp.startsWith)}`;
  if (exp.contains !== undefined && !s.includes(exp.contains)) return `${show(value)} does not contain ${JSON.stringify(exp.contains)}`;
  if (exp.notContains !== undefined && exp.notContains !== "" && s.includes(exp.notContains)) return `${show(value)} contains ${JSON.stringify(exp.notContains)}`;
  if (exp.pattern !== undefined && !new RegExp(exp.pattern, "u").test(s)) return `${show(value)} does not match /${exp.pattern}/`;
  if (exp.length !== undefined) {
    const len = typeof value === "string" ? [...value].length : Array.isArray(value) ? value.length : -1;
    if (len !== exp.length) return `length ${len}, expected ${exp.length}`;
  }
  return undefined;
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as Json[]).length && a.every((x, i) => deepEqual(x, (b as Json[])[i]!));
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, Json>)[k]!, (b as Record<string, Json>)[k]!));
}

