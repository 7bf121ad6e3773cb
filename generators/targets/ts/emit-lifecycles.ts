// TypeScript target for lifecycles: one plain ESM module and its declarations per machine, plus a
// per-protocol index. The module holds the machine's tables and calls the hand-written runtime
// (runtime/lifecycle-runner.ts) for the meaning of `transition`, so the tables are all that varies.
//
//   generated/ts/<protocol>/lifecycles/<name>.js      defineMachine({...}) + transition/allowedEvents/isTerminal
//   generated/ts/<protocol>/lifecycles/<name>.d.ts    typed state, event, guard and effect names
//   generated/ts/<protocol>/lifecycles/index.js/.d.ts `export * as <camelName> from "./<name>.js"`
import { runtimeSymbol } from "../../emit/runtime-contract.js";
import type { OutputFile } from "../../model/types.js";
import type { Lifecycle } from "../../model/lifecycle.js";
import { lifecycleNamespace, lifecycleTypePrefix } from "./naming.js";
import { jsdocBlock } from "./ts-doc.js";

export interface LifecycleProtocolInput {
  id: string;
  lifecycles: Lifecycle[];
}

/** Import path of the runtime from `<protocol>/lifecycles/<name>.js`. */
/** The runtime's lifecycle runner (generators/emit/runtime-contract.ts) and the module generated machines import it from. */
const MACHINE = runtimeSymbol("ts", "lifecycleMachine");
export const LIFECYCLE_RUNTIME_IMPORT = `../../runtime/${MACHINE.file.replace(/\.ts$/, ".js")}`;

/** The namer's spellings under the names the lifecycle tests import. */
export { lifecycleNamespace as camelName, lifecycleTypePrefix as pascalName } from "./naming.js";

/** Paths (relative to generated/ts/) and contents of every lifecycle file, sorted by path. */
export function emitLifecyclesTs(protocols: LifecycleProtocolInput[]): OutputFile[] {
  const files: OutputFile[] = [];
  for (const protocol of protocols) {
    if (protocol.lifecycles.length === 0) continue;
    const lifecycles = [...protocol.lifecycles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dir = `${protocol.id}/lifecycles`;
    for (const lifecycle of lifecycles) {
      const sources = [lifecycle.location.file];
      files.push({ path: `${dir}/${lifecycle.name}.js`, contents: emitModule(lifecycle), sources });
      files.push({ path: `${dir}/${lifecycle.name}.d.ts`, contents: emitDeclarations(lifecycle), sources });
    }
    const sources = lifecycles.map((l) => l.location.file);
    const index = lifecycles.map((l) => `export * as ${lifecycleNamespace(l.name)} from "./${l.name}.js";\n`).join("");
    const header = `// The lifecycles of ${protocol.id}, one namespace per machine.\n`;
    files.push({ path: `${dir}/index.js`, contents: header + index, sources });
    files.push({ path: `${dir}/index.d.ts`, contents: header + index, sources });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const q = (value: string): string => JSON.stringify(value);

function list(values: string[]): string {
  return `[${values.map(q).join(", ")}]`;
}

function emitModule(l: Lifecycle): string {
  const machine = `${lifecycleNamespace(l.name)}Machine`;
  const transitions = l.transitions
    .map((t) => {
      const guards = `[${t.guards.map((g) => `{ guard: ${q(g.guard)}, negated: ${g.negated} }`).join(", ")}]`;
      return `    { from: ${q(t.from)}, event: ${q(t.event)}, to: ${q(t.to)}, guards: ${guards}, effects: ${list(t.effects)} },\n`;
    })
    .join("");
  return (
    `// ${l.protocol} lifecycle "${l.name}": ${l.title}.\n` +
    `import { ${MACHINE.name} } from ${q(LIFECYCLE_RUNTIME_IMPORT)};\n\n` +
    jsdocBlock(l.description) +
    `export const ${machine} = ${MACHINE.name}({\n` +
    `  protocol: ${q(l.protocol)},\n` +
    `  name: ${q(l.name)},\n` +
    `  initial: ${q(l.initial)},\n` +
    `  states: ${list(l.states.map((s) => s.name))},\n` +
    `  terminal: ${list(l.states.filter((s) => s.terminal).map((s) => s.name))},\n` +
    `  events: ${list(l.events.map((e) => e.name))},\n` +
    `  guards: ${list(l.guards.map((g) => g.name))},\n` +
    `  effects: ${list(l.effects.map((e) => e.name))},\n` +
    `  transitions: [\n${transitions}  ],\n` +
    `});\n\n` +
    `export const initialState = ${machine}.definition.initial;\n` +
    `export const states = ${machine}.definition.states;\n` +
    `export const events = ${machine}.definition.events;\n\n` +
    `/** The next state and its effects, or a typed refusal; the state is unchanged on refusal. */\n` +
    `export function transition(state, event, guards) {\n  return ${machine}.transition(state, event, guards);\n}\n\n` +
    `/** Events with a transition from \`state\` (guards aside). */\n` +
    `export function allowedEvents(state) {\n  return ${machine}.allowedEvents(state);\n}\n\n` +
    `export function isTerminal(state) {\n  return ${machine}.isTerminal(state);\n}\n`
  );
}

function union(items: { name: string; doc: string }[]): string {
  if (items.length === 0) return " never;\n";
  return "\n" + items.map((i) => jsdocBlock(i.doc, "  ") + `  | ${q(i.name)}`).join("\n") + ";\n";
}

function emitDeclarations(l: Lifecycle): string {
  const P = lifecycleTypePrefix(l.name);
  const machine = `${lifecycleNamespace(l.name)}Machine`;
  const stateDoc = (s: Lifecycle["states"][number]): string =>
    `${s.description}${s.terminal ? " Terminal." : ""}${s.longLived ? " Long-lived." : ""}`;
  const eventDoc = (e: Lifecycle["events"][number]): string => `${e.description}${e.message ? ` Carried by ${e.message}.` : ""}`;
  return (
    `// ${l.protocol} lifecycle "${l.name}": ${l.title}.\n` +
    `import type { GuardValues, Machine, TransitionOutcome } from ${q(LIFECYCLE_RUNTIME_IMPORT)};\n\n` +
    `/** A state of ${l.name}. */\n` +
    `export type ${P}State =${union(l.states.map((s) => ({ name: s.name, doc: stateDoc(s) })))}\n` +
    `/** An event ${l.name} reacts to. */\n` +
    `export type ${P}Event =${union(l.events.map((e) => ({ name: e.name, doc: eventDoc(e) })))}\n` +
    `/** A guard the caller evaluates when it applies an event. */\n` +
    `export type ${P}Guard =${union(l.guards.map((g) => ({ name: g.name, doc: g.description })))}\n` +
    `/** A side effect a transition must have. */\n` +
    `export type ${P}Effect =${union(l.effects.map((e) => ({ name: e.name, doc: e.description })))}\n` +
    `export type ${P}Guards = GuardValues<${P}Guard>;\n` +
    `export type ${P}Outcome = TransitionOutcome<${P}State, ${P}Event, ${P}Effect>;\n\n` +
    jsdocBlock(l.description) +
    `export declare const ${machine}: Machine<${P}State, ${P}Event, ${P}Guard, ${P}Effect>;\n\n` +
    // The union, not the literal: \`let s = initialState; s = outcome.state\` must compile.
    `/** The state every instance starts in: ${q(l.initial)}. Typed as ${P}State so a variable holding it can take any later state. */\n` +
    `export declare const initialState: ${P}State;\n` +
    `export declare const states: readonly ${P}State[];\n` +
    `export declare const events: readonly ${P}Event[];\n\n` +
    `/** The next state and its effects, or a typed refusal; the state is unchanged on refusal. */\n` +
    `export declare function transition(state: ${P}State, event: ${P}Event, guards?: ${P}Guards): ${P}Outcome;\n` +
    `/** Events with a transition from \`state\` (guards aside). */\n` +
    `export declare function allowedEvents(state: ${P}State): readonly ${P}Event[];\n` +
    `export declare function isTerminal(state: ${P}State): boolean;\n`
  );
}
