// TypeScript target for lifecycles: one TypeScript module per machine (ts-file.ts), shipped as
// its .js and .d.ts, plus a per-protocol index. The module holds the machine's tables and calls
// the hand-written runtime (runtime/lifecycle-runner.ts) for the meaning of `transition`, so the
// tables are all that varies.
//
//   <protocol>/lifecycles/<name>.ts    typed state, event, guard and effect names; lifecycleMachine({...})
//                                      + transition/allowedEvents/isTerminal
//   <protocol>/lifecycles/index.ts     `export * as <camelName> from "./<name>.js"`
import { runtimeSymbol } from "../../emit/runtime-contract.js";
import type { OutputFile } from "../../model/types.js";
import type { Lifecycle } from "../../model/lifecycle.js";
import { lifecycleNamespace, lifecycleTypePrefix } from "./naming.js";
import { jsdocBlock } from "./ts-doc.js";
import { shipModules, TsFile } from "./ts-file.js";

export interface LifecycleProtocolInput {
  id: string;
  lifecycles: Lifecycle[];
}

/** The runtime's lifecycle runner (generators/emit/runtime-contract.ts), package-root relative. */
const RUNNER = `runtime/${runtimeSymbol("ts", "lifecycleMachine").file.replace(/\.ts$/, ".js")}`;

/** The namer's spellings under the names the lifecycle tests import. */
export { lifecycleNamespace as camelName, lifecycleTypePrefix as pascalName } from "./naming.js";

/** Paths (relative to generated/ts/) and contents of every lifecycle file (.js and .d.ts), sorted by path. */
export function emitLifecyclesTs(protocols: LifecycleProtocolInput[]): OutputFile[] {
  return shipModules(lifecycleModules(protocols)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every lifecycle module and each protocol's lifecycles/index.ts. */
export function lifecycleModules(protocols: LifecycleProtocolInput[]): TsFile[] {
  const files: TsFile[] = [];
  for (const protocol of protocols) {
    if (protocol.lifecycles.length === 0) continue;
    const lifecycles = [...protocol.lifecycles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dir = `${protocol.id}/lifecycles`;
    for (const lifecycle of lifecycles) files.push(lifecycleModule(`${dir}/${lifecycle.name}.ts`, lifecycle));
    const index = new TsFile(`${dir}/index.ts`, lifecycles.map((l) => l.location.file));
    index.comment(`The lifecycles of ${protocol.id}, one namespace per machine.`);
    index.print(...lifecycles.map((l) => `export * as ${lifecycleNamespace(l.name)} from "./${l.name}.js";`));
    files.push(index);
  }
  return files;
}

const q = (value: string): string => JSON.stringify(value);

function list(values: string[]): string {
  return `[${values.map(q).join(", ")}]`;
}

function union(items: { name: string; doc: string }[]): string {
  if (items.length === 0) return " never;";
  return "\n" + items.map((i) => jsdocBlock(i.doc, "  ") + `  | ${q(i.name)}`).join("\n") + ";";
}

function lifecycleModule(path: string, l: Lifecycle): TsFile {
  const f = new TsFile(path, [l.location.file]);
  f.comment(`${l.protocol} lifecycle "${l.name}": ${l.title}.`);
  const P = lifecycleTypePrefix(l.name);
  const machine = `${lifecycleNamespace(l.name)}Machine`;
  const stateDoc = (s: Lifecycle["states"][number]): string => `${s.description}${s.terminal ? " Terminal." : ""}${s.longLived ? " Long-lived." : ""}`;
  const eventDoc = (e: Lifecycle["events"][number]): string => `${e.description}${e.message ? ` Carried by ${e.message}.` : ""}`;
  const transitions = l.transitions.map((t) => {
    const guards = `[${t.guards.map((g) => `{ guard: ${q(g.guard)}, negated: ${g.negated} }`).join(", ")}]`;
    return `    { from: ${q(t.from)}, event: ${q(t.event)}, to: ${q(t.to)}, guards: ${guards}, effects: ${list(t.effects)} },`;
  });
  const types = `${P}State, ${P}Event, ${P}Guard, ${P}Effect`;
  f.print(
    `/** A state of ${l.name}. */`,
    `export type ${P}State =${union(l.states.map((s) => ({ name: s.name, doc: stateDoc(s) })))}`,
    `/** An event ${l.name} reacts to. */`,
    `export type ${P}Event =${union(l.events.map((e) => ({ name: e.name, doc: eventDoc(e) })))}`,
    "/** A guard the caller evaluates when it applies an event. */",
    `export type ${P}Guard =${union(l.guards.map((g) => ({ name: g.name, doc: g.description })))}`,
    "/** A side effect a transition must have. */",
    `export type ${P}Effect =${union(l.effects.map((e) => ({ name: e.name, doc: e.description })))}`,
    `export type ${P}Guards = ${f.importType("GuardValues", RUNNER)}<${P}Guard>;`,
    `export type ${P}Outcome = ${f.importType("TransitionOutcome", RUNNER)}<${P}State, ${P}Event, ${P}Effect>;`,
    "",
    jsdocBlock(l.description) + `export const ${machine}: ${f.importType("Machine", RUNNER)}<${types}> = ${f.runtime("lifecycleMachine")}<${types}>({`,
    `  protocol: ${q(l.protocol)},`,
    `  name: ${q(l.name)},`,
    `  initial: ${q(l.initial)},`,
    `  states: ${list(l.states.map((s) => s.name))},`,
    `  terminal: ${list(l.states.filter((s) => s.terminal).map((s) => s.name))},`,
    `  events: ${list(l.events.map((e) => e.name))},`,
    `  guards: ${list(l.guards.map((g) => g.name))},`,
    `  effects: ${list(l.effects.map((e) => e.name))},`,
    "  transitions: [",
    ...transitions,
    "  ],",
    "});",
    "",
    // The union, not the literal: `let s = initialState; s = outcome.state` must compile.
    `/** The state every instance starts in: ${q(l.initial)}. Typed as ${P}State so a variable holding it can take any later state. */`,
    `export const initialState: ${P}State = ${machine}.definition.initial;`,
    `export const states: readonly ${P}State[] = ${machine}.definition.states;`,
    `export const events: readonly ${P}Event[] = ${machine}.definition.events;`,
    "",
    "/** The next state and its effects, or a typed refusal; the state is unchanged on refusal. */",
    `export function transition(state: ${P}State, event: ${P}Event, guards?: ${P}Guards): ${P}Outcome {`,
    `  return ${machine}.transition(state, event, guards);`,
    "}",
    "",
    "/** Events with a transition from `state` (guards aside). */",
    `export function allowedEvents(state: ${P}State): readonly ${P}Event[] {`,
    `  return ${machine}.allowedEvents(state);`,
    "}",
    "",
    "/** Whether `state` is one of the machine's terminal states. */",
    `export function isTerminal(state: ${P}State): boolean {`,
    `  return ${machine}.isTerminal(state);`,
    "}",
  );
  return f;
}
