// The lifecycles stage: reads spec/<protocol>/lifecycles/*.machine.yaml, checks each file against
// spec/meta/lifecycle.schema.json, builds the Lifecycle IR and runs the lints.
import { existsSync, readdirSync } from "node:fs";
import { createMetaAjv, META_IDS } from "../check/meta.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { joinPointer, readSpecFile, type SpecFile } from "../load/spec-file.js";
import { resolveInsideSpec, specReadBudget, type SpecReadBudget } from "../load/spec-guard.js";
import type { Divergence, DocumentRef, JsonValue, SpecError } from "../model/types.js";
import type { GuardLiteral, Lifecycle, LifecycleTransition } from "../model/lifecycle.js";
import { literalText } from "../model/lifecycle.js";

export const MACHINE_SUFFIX = ".machine.yaml";
export const PATHS_SUFFIX = ".paths.json";

export interface LoadLifecyclesOptions {
  /**
   * Message names of the protocol (titles of spec/<protocol>/messages/*.yaml). When given, every
   * event's `message` must be one of them (lint `message-ref`).
   */
  messageNames?: ReadonlySet<string>;
}

export interface LoadLifecyclesResult {
  lifecycles: Lifecycle[];
  errors: SpecError[];
}

const META_SCHEMA_PATH = "spec/meta/lifecycle.schema.json";

/** `door` for `spec/<protocol>/lifecycles/door.machine.yaml`. */
export function lifecycleName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1, -MACHINE_SUFFIX.length);
}

/**
 * The load stage's part: the machine files of one protocol, sorted by name, and a file-name error
 * for anything else in the folder (a paths file is expected beside its machine).
 */
export function readLifecycleFiles(root: string, protocolId: string, budget: SpecReadBudget = specReadBudget()): { files: SpecFile[]; errors: SpecError[] } {
  const dir = `spec/${protocolId}/lifecycles`;
  const files: SpecFile[] = [];
  const errors: SpecError[] = [];
  if (!existsSync(`${root}/${dir}`)) return { files, errors };
  const where = resolveInsideSpec(root, dir);
  if (!where.ok) return { files, errors: [where.error] };
  const names = readdirSync(where.real).sort();
  for (const fileName of names) {
    const rel = `${dir}/${fileName}`;
    if (fileName.endsWith(PATHS_SUFFIX) && names.includes(fileName.slice(0, -PATHS_SUFFIX.length) + MACHINE_SUFFIX)) continue;
    if (!fileName.endsWith(MACHINE_SUFFIX)) {
      errors.push({ file: rel, line: 1, column: 1, pointer: "", message: `unexpected file: a lifecycles folder holds <name>${MACHINE_SUFFIX} and its <name>${PATHS_SUFFIX}`, lint: "file-name" });
      continue;
    }
    const read = readSpecFile(root, rel, budget);
    if (read.ok) files.push(read.spec);
    else errors.push(...read.errors);
  }
  return { files, errors };
}

/**
 * Load and check of one protocol's lifecycles on their own, for the lifecycle tests and fixtures
 * (which have no protocol.yaml): the same read, the same meta ajv and the same checks the
 * pipeline's load and check stages run. Falls back to the repository's meta-schemas when the root has none.
 */
export function loadLifecycles(root: string, protocolId: string, options: LoadLifecyclesOptions = {}): LoadLifecyclesResult {
  const { files, errors } = readLifecycleFiles(root, protocolId);
  const lifecycles: Lifecycle[] = [];
  if (files.length === 0) return { lifecycles, errors };
  const validate = lifecycleMetaValidator(root);
  for (const file of files) {
    const result = checkLifecycleFile(file, protocolId, lifecycleName(file.file), validate, options);
    errors.push(...result.errors);
    if (result.lifecycle) lifecycles.push(result.lifecycle);
  }
  return { lifecycles, errors };
}

const validators = new Map<string, ValidateFunction>();

function lifecycleMetaValidator(root: string): ValidateFunction {
  const metaRoot = existsSync(`${root}/${META_SCHEMA_PATH}`) ? root : new URL("../..", import.meta.url).pathname;
  let validate = validators.get(metaRoot);
  if (validate === undefined) {
    const dir = `${metaRoot}/spec/meta`;
    const schemas = readdirSync(dir)
      .filter((n) => n.endsWith(".schema.json"))
      .sort()
      .map((n) => {
        const read = readSpecFile(metaRoot, `spec/meta/${n}`);
        if (!read.ok) throw new Error(read.errors.map((e) => `${e.file}: ${e.message}`).join("; "));
        return read.spec.value;
      });
    validate = createMetaAjv(schemas).getSchema(META_IDS.lifecycle);
    if (validate === undefined) throw new Error(`${dir}: no lifecycle.schema.json`);
    validators.set(metaRoot, validate);
  }
  return validate;
}

type Obj = { [key: string]: JsonValue };

function asObj(v: JsonValue | undefined): Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
}

function asList(v: JsonValue | undefined): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string");
}

function parseLiteral(text: string): GuardLiteral {
  return text.startsWith("not ") ? { guard: text.slice(4), negated: true } : { guard: text, negated: false };
}

/** Checks one parsed machine file. Exported for tests; `loadLifecycles` is the stage entry point. */
export function checkLifecycleFile(
  spec: SpecFile,
  protocolId: string,
  expectedName: string,
  validate: ValidateFunction,
  options: LoadLifecyclesOptions = {},
): { lifecycle?: Lifecycle; errors: SpecError[] } {
  const errors: SpecError[] = [];
  const at = (pointer: string, message: string, lint: string): void => {
    const { line, column } = spec.locate(pointer);
    errors.push({ file: spec.file, line, column, pointer, message, lint });
  };
  const loc = (pointer: string) => ({ file: spec.file, pointer, ...spec.locate(pointer) });

  if (!validate(spec.value)) {
    for (const e of (validate.errors ?? []) as ErrorObject[]) at(e.instancePath, `${e.message ?? "invalid"}${paramsText(e)}`, "meta-schema");
    return { errors };
  }
  const doc = asObj(spec.value);
  const name = doc.name as string;
  if (name !== expectedName) at("/name", `name "${name}" must equal the file name "${expectedName}"`, "name-matches-file");

  const states = Object.entries(asObj(doc.states)).map(([stateName, raw]) => {
    const s = asObj(raw);
    return {
      name: stateName,
      description: s.description as string,
      terminal: s.terminal === true,
      longLived: s.longLived === true,
      location: loc(joinPointer("/states", stateName)),
    };
  });
  const events = Object.entries(asObj(doc.events)).map(([eventName, raw]) => {
    const e = asObj(raw);
    return {
      name: eventName,
      description: e.description as string,
      ...(typeof e.message === "string" ? { message: e.message } : {}),
      location: loc(joinPointer("/events", eventName)),
    };
  });
  const guards = Object.entries(asObj(doc.guards)).map(([guardName, raw]) => ({
    name: guardName,
    description: asObj(raw).description as string,
    location: loc(joinPointer("/guards", guardName)),
  }));
  const effects = Object.entries(asObj(doc.effects)).map(([effectName, raw]) => ({
    name: effectName,
    description: asObj(raw).description as string,
    location: loc(joinPointer("/effects", effectName)),
  }));
  const mutuallyExclusive = (Array.isArray(doc.mutuallyExclusive) ? doc.mutuallyExclusive : []).map((g) => asList(g));

  const stateSet = new Set(states.map((s) => s.name));
  const eventSet = new Set(events.map((e) => e.name));
  const guardSet = new Set(guards.map((g) => g.name));
  const effectSet = new Set(effects.map((e) => e.name));
  const refErrorsBefore = errors.length;

  if (!stateSet.has(doc.initial as string)) at("/initial", `initial state "${String(doc.initial)}" is not declared in states`, "lifecycle-ref");
  mutuallyExclusive.forEach((group, i) =>
    group.forEach((g, j) => {
      if (!guardSet.has(g)) at(`/mutuallyExclusive/${i}/${j}`, `guard "${g}" is not declared in guards`, "lifecycle-ref");
    }),
  );
  for (const event of events) {
    if (event.message !== undefined && options.messageNames && !options.messageNames.has(event.message)) {
      at(joinPointer("/events", event.name, "message"), `message "${event.message}" is not a message of protocol ${protocolId}`, "message-ref");
    }
  }

  const transitions: LifecycleTransition[] = [];
  const rawTransitions = Array.isArray(doc.transitions) ? doc.transitions : [];
  rawTransitions.forEach((raw, i) => {
    const t = asObj(raw);
    const base = `/transitions/${i}`;
    const froms = asList(t.from);
    const fromPointer = (k: number): string => (Array.isArray(t.from) ? `${base}/from/${k}` : `${base}/from`);
    froms.forEach((f, k) => {
      if (!stateSet.has(f)) at(fromPointer(k), `state "${f}" is not declared in states`, "lifecycle-ref");
    });
    if (!stateSet.has(t.to as string)) at(`${base}/to`, `state "${String(t.to)}" is not declared in states`, "lifecycle-ref");
    if (!eventSet.has(t.event as string)) at(`${base}/event`, `event "${String(t.event)}" is not declared in events`, "lifecycle-ref");
    const literals = asList(t.guard).map(parseLiteral);
    literals.forEach((l, k) => {
      if (!guardSet.has(l.guard)) at(Array.isArray(t.guard) ? `${base}/guard/${k}` : `${base}/guard`, `guard "${l.guard}" is not declared in guards`, "lifecycle-ref");
    });
    const seen = new Set<string>();
    literals.forEach((l, k) => {
      if (seen.has(l.guard)) at(`${base}/guard/${k}`, `guard "${l.guard}" appears twice in one transition`, "lifecycle-ref");
      seen.add(l.guard);
    });
    const fx = asList(t.effects);
    fx.forEach((e, k) => {
      if (!effectSet.has(e)) at(`${base}/effects/${k}`, `effect "${e}" is not declared in effects`, "lifecycle-ref");
    });
    froms.forEach((from, k) =>
      transitions.push({
        from,
        event: t.event as string,
        to: t.to as string,
        guards: literals,
        effects: fx,
        ...(typeof t.description === "string" ? { description: t.description } : {}),
        location: loc(Array.isArray(t.from) ? fromPointer(k) : base),
      }),
    );
  });

  const lifecycle: Lifecycle = {
    kind: "lifecycle",
    protocol: protocolId,
    name,
    title: doc.title as string,
    description: doc.description as string,
    role: doc.role as string,
    initial: doc.initial as string,
    states,
    events,
    guards,
    effects,
    mutuallyExclusive,
    transitions,
    divergences: (Array.isArray(doc["x-divergences"]) ? doc["x-divergences"] : []) as unknown as Divergence[],
    sources: (doc["x-source"] ?? []) as unknown as DocumentRef[],
    location: loc(""),
  };

  // Graph lints need resolved references.
  if (errors.length > refErrorsBefore) return { errors };
  errors.push(...lintLifecycle(lifecycle, spec));
  return errors.length > 0 ? { errors } : { lifecycle, errors };
}

function paramsText(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (typeof p.additionalProperty === "string") return `: "${p.additionalProperty}"`;
  if (Array.isArray(p.allowedValues)) return `: ${p.allowedValues.map(String).join(", ")}`;
  return "";
}

/** Two transitions' guards can never both hold. */
export function guardsExclusive(a: GuardLiteral[], b: GuardLiteral[], groups: string[][]): boolean {
  for (const x of a) {
    for (const y of b) {
      if (x.guard === y.guard && x.negated !== y.negated) return true;
      if (!x.negated && !y.negated && x.guard !== y.guard && groups.some((g) => g.includes(x.guard) && g.includes(y.guard))) return true;
    }
  }
  return false;
}

/** States reachable from `start` (ignoring guards: every guarded edge may be taken). */
export function reachableFrom(lifecycle: Lifecycle, start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const t of lifecycle.transitions) {
      if (t.from === s && !seen.has(t.to)) {
        seen.add(t.to);
        queue.push(t.to);
      }
    }
  }
  return seen;
}

/** The graph lints. Assumes every reference resolves. */
export function lintLifecycle(lifecycle: Lifecycle, spec: { file: string; locate(pointer: string): { line: number; column: number } }): SpecError[] {
  const errors: SpecError[] = [];
  const at = (pointer: string, message: string, lint: string): void => {
    const { line, column } = spec.locate(pointer);
    errors.push({ file: spec.file, line, column, pointer, message, lint });
  };
  const terminal = new Set(lifecycle.states.filter((s) => s.terminal).map((s) => s.name));

  // reachable: every state reachable from the initial state.
  const reachable = reachableFrom(lifecycle, lifecycle.initial);
  for (const s of lifecycle.states) {
    if (!reachable.has(s.name)) at(s.location.pointer, `state "${s.name}" is not reachable from the initial state "${lifecycle.initial}"`, "reachable");
  }

  // terminal-no-exit: terminal states have no outgoing transitions.
  for (const t of lifecycle.transitions) {
    if (terminal.has(t.from)) at(t.location.pointer, `terminal state "${t.from}" has an outgoing transition on "${t.event}"`, "terminal-no-exit");
  }

  // reaches-terminal: every non-terminal state reaches a terminal one, or is declared long-lived.
  for (const s of lifecycle.states) {
    if (s.terminal && s.longLived) at(joinPointer(s.location.pointer, "longLived"), `terminal state "${s.name}" cannot be long-lived`, "reaches-terminal");
    if (s.terminal || s.longLived) continue;
    const from = reachableFrom(lifecycle, s.name);
    if (![...from].some((r) => terminal.has(r))) {
      at(s.location.pointer, `state "${s.name}" cannot reach a terminal state; make one reachable or declare it longLived: true`, "reaches-terminal");
    }
  }

  // deterministic: two transitions on the same (state, event) need mutually exclusive guards.
  const byPair = new Map<string, LifecycleTransition[]>();
  for (const t of lifecycle.transitions) {
    const key = `${t.from}\u0000${t.event}`;
    const list = byPair.get(key) ?? [];
    for (const other of list) {
      if (!guardsExclusive(other.guards, t.guards, lifecycle.mutuallyExclusive)) {
        const shown = (g: GuardLiteral[]): string => (g.length === 0 ? "no guard" : `guard [${g.map(literalText).join(", ")}]`);
        at(
          t.location.pointer,
          `two transitions from "${t.from}" on "${t.event}" (${shown(other.guards)} at ${other.location.pointer}, ${shown(t.guards)}) are not declared mutually exclusive`,
          "deterministic",
        );
      }
    }
    list.push(t);
    byPair.set(key, list);
  }

  // event-used / guard-used / effect-used.
  const usedEvents = new Set(lifecycle.transitions.map((t) => t.event));
  for (const e of lifecycle.events) if (!usedEvents.has(e.name)) at(e.location.pointer, `event "${e.name}" is used by no transition`, "event-used");
  const usedGuards = new Set(lifecycle.transitions.flatMap((t) => t.guards.map((g) => g.guard)));
  for (const g of lifecycle.guards) if (!usedGuards.has(g.name)) at(g.location.pointer, `guard "${g.name}" is used by no transition`, "guard-used");
  const usedEffects = new Set(lifecycle.transitions.flatMap((t) => t.effects));
  for (const e of lifecycle.effects) if (!usedEffects.has(e.name)) at(e.location.pointer, `effect "${e.name}" is used by no transition`, "effect-used");
  return errors;
}
