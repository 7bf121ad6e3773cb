// Every spec machine against an expectation written by hand from its protocol document and research
// notes (property-tests/lifecycles/expectations/<protocol>/<lifecycle>.yaml), never from the machine
// file. The machines are the TS modules the emitter produces in-process from the current spec — what
// users import — not the committed generated/ files, so a wrong edge in a machine cannot re-baseline
// its own test.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import type { Lifecycle } from "../../generators/model/lifecycle.js";
import { camelName } from "../../generators/targets/ts/emit-lifecycles.js";
import { ROOT, importMachine, loadAllLifecycles, materialize, type GeneratedMachineModule } from "./support.js";

interface Edge {
  from: string;
  event: string;
  to: string;
  guard?: string | string[];
}
interface Expectation {
  source: string;
  initial: string;
  terminal: string[];
  allowed: Edge[];
  refused: { from: string; event: string }[];
  /** Set when the file lists only the edges its sources state: why the rest is not checked. */
  partial?: string;
}
interface Definition {
  states: readonly string[];
  events: readonly string[];
  guards: readonly string[];
  transitions: readonly { from: string; event: string; to: string; guards: readonly { guard: string; negated: boolean }[] }[];
}

const EXPECTATIONS = join(ROOT, "property-tests/lifecycles/expectations");
const DOCUMENTS = join(ROOT, "property-tests/vectors/protocols");

/**
 * Where the document allows an edge the machine deliberately does not have: each names the
 * x-divergences entry of the machine that records the rule made and why. Nothing else may differ.
 */
const DIVERGENT_EDGES: Record<string, { edge: string; divergence: string }[]> = {
  "agent-provider/provider-proposal-handling": [{ edge: "schema_valid --confirm--> confirmed []", divergence: "basic-validation-only-confirm" }],
};

const protocols = loadAllLifecycles();
const all: Lifecycle[] = protocols.flatMap((p) => p.lifecycles);

function literals(guard: Edge["guard"]): string[] {
  const list = guard === undefined ? [] : Array.isArray(guard) ? guard : [guard];
  return list.map((g) => g.trim().replace(/\s+/g, " ")).sort();
}
function edgeKey(e: { from: string; event: string; to: string }, lits: string[]): string {
  return `${e.from} --${e.event}--> ${e.to} [${lits.join(", ")}]`;
}
function machineEdges(d: Definition): string[] {
  return d.transitions.map((t) => edgeKey(t, t.guards.map((l) => (l.negated ? `not ${l.guard}` : l.guard)).sort()));
}

/** Every assignment of the machine's guards extending `fixed`. */
function* assignments(names: readonly string[], fixed: Record<string, boolean>): Generator<Record<string, boolean>> {
  const free = names.filter((n) => !(n in fixed));
  for (let mask = 0; mask < 1 << free.length; mask++) {
    const values = { ...fixed };
    free.forEach((n, i) => (values[n] = (mask & (1 << i)) !== 0));
    yield values;
  }
}

function loadExpectation(path: string): Expectation {
  const doc = YAML.parse(readFileSync(path, "utf8"), { uniqueKeys: true }) as Expectation;
  return doc;
}

function expectationFiles(): string[] {
  return readdirSync(EXPECTATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(EXPECTATIONS, d.name)).filter((f) => f.endsWith(".yaml")).map((f) => `${d.name}/${f.replace(/\.yaml$/, "")}`))
    .sort();
}

let dir = "";
const modules = new Map<string, GeneratedMachineModule & Record<string, unknown>>();
beforeAll(async () => {
  dir = materialize(protocols);
  for (const l of all) modules.set(`${l.protocol}/${l.name}`, (await importMachine(dir, l.protocol, l.name)) as GeneratedMachineModule & Record<string, unknown>);
});

it("every expectation file names a spec machine, and every machine has one", () => {
  const machines = all.map((l) => `${l.protocol}/${l.name}`).sort();
  const files = expectationFiles();
  for (const f of files) expect(machines, `${f}.yaml names no machine`).toContain(f);
  for (const m of machines) expect(files, `missing expectations/${m}.yaml`).toContain(m);
});

const withFiles = all.filter((l) => existsSync(join(EXPECTATIONS, l.protocol, `${l.name}.yaml`)));

describe.each(withFiles.map((l) => [`${l.protocol}/${l.name}`, l] as const))("%s", (label, lifecycle) => {
  const exp = loadExpectation(join(EXPECTATIONS, lifecycle.protocol, `${lifecycle.name}.yaml`));
  // Every failure names both files: a maintainer who changed the machine edits the expectation
  // (from the protocol document, never by copying the machine), or fixes the machine.
  const expectationFile = `property-tests/lifecycles/expectations/${label}.yaml`;
  const machineFile = `spec/${lifecycle.protocol}/lifecycles/${lifecycle.name}.machine.yaml`;
  const module = () => modules.get(label)!;
  const definition = (): Definition => (module()[`${camelName(lifecycle.name)}Machine`] as { definition: Definition }).definition;

  it("the expectation file is well formed and cites documents that exist", () => {
    expect(Object.keys(exp).filter((k) => k !== "partial").sort()).toEqual(["allowed", "initial", "refused", "source", "terminal"]);
    if (exp.partial !== undefined) expect(exp.partial.trim().length, "a partial expectation says why").toBeGreaterThan(20);
    const files = [...exp.source.matchAll(/([\w./-]+\.(?:txt|md)) §/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThanOrEqual(1);
    // The documents are copied into the repository; the research notes are not, so only their names are checked.
    for (const f of files) {
      if (f.startsWith("research/")) expect(f).toMatch(/^research\/[a-z-]+\.md$/);
      else expect(existsSync(join(DOCUMENTS, f)), f).toBe(true);
    }
    // At least every event from every terminal state is listed as refused.
    const events = new Set([...exp.allowed, ...exp.refused].map((e) => e.event));
    const refused = new Set(exp.refused.map((r) => `${r.from}/${r.event}`));
    if (exp.partial === undefined) for (const t of exp.terminal) for (const e of events) expect(refused.has(`${t}/${e}`), `${t}/${e} not listed as refused`).toBe(true);
    for (const r of exp.refused) expect(exp.allowed.some((a) => a.from === r.from && a.event === r.event), `${r.from}/${r.event} both allowed and refused`).toBe(false);
  });

  it("initial and terminal states match", () => {
    const m = module();
    expect(m.initialState, `initial: ${machineFile} against ${expectationFile}`).toBe(exp.initial);
    expect(m.states.filter((s) => m.isTerminal(s)).sort(), `terminal states: ${machineFile} against ${expectationFile}`).toEqual([...exp.terminal].sort());
  });

  it("every allowed edge exists with that target and exactly that guard, and fires", () => {
    const m = module();
    const d = definition();
    const have = new Set(machineEdges(d));
    const divergent = new Set((DIVERGENT_EDGES[label] ?? []).map((x) => x.edge));
    for (const e of exp.allowed) {
      const key = edgeKey(e, literals(e.guard));
      if (divergent.has(key)) {
        expect(have.has(key), `${key} is listed as divergent but the machine has it`).toBe(false);
        continue;
      }
      expect(have.has(key), `${machineFile} lacks ${key}, which ${expectationFile} allows: restore it, or edit the expectation if the document says otherwise`).toBe(true);
      const fixed = Object.fromEntries(literals(e.guard).map((l) => (l.startsWith("not ") ? [l.slice(4), false] : [l, true])));
      let fired = false;
      for (const guards of assignments(d.guards, fixed)) {
        const out = m.transition(e.from, e.event, guards);
        if (out.ok && out.state === e.to) fired = true;
      }
      expect(fired, `${key} never fires`).toBe(true);
    }
  });

  // A partial expectation lists the edges its sources state and leaves the rest unchecked (it says why).
  if (exp.partial !== undefined) console.log(`${label}: "no edge the document does not allow" skipped: the expectation is partial (${exp.partial.trim()})`);
  it.skipIf(exp.partial !== undefined)("the machine has no edge the document does not allow", () => {
    const allowed = new Set(exp.allowed.map((e) => edgeKey(e, literals(e.guard))));
    const extra = machineEdges(definition()).filter((k) => !allowed.has(k));
    expect(extra, `${machineFile} has edges ${expectationFile} does not allow: add each to its allowed list (with the document section that allows it), or remove it from the machine`).toEqual([]);
  });

  it("every refused pair is refused under every guard assignment", () => {
    const m = module();
    const d = definition();
    for (const r of exp.refused) {
      expect(m.states, r.from).toContain(r.from);
      expect(m.events, r.event).toContain(r.event);
      for (const guards of assignments(d.guards, {})) {
        const out = m.transition(r.from, r.event, guards);
        expect(out.ok, `${r.from}/${r.event} with ${JSON.stringify(guards)}: ${expectationFile} refuses it, ${machineFile} allows it`).toBe(false);
        expect(out.state).toBe(r.from);
      }
      if (exp.terminal.includes(r.from)) expect(m.transition(r.from, r.event, {}).refusal).toBe("terminal");
    }
  });

  it("each divergent edge is recorded in the machine's x-divergences", () => {
    const ids = lifecycle.divergences.map((x) => x.id);
    for (const x of DIVERGENT_EDGES[label] ?? []) expect(ids).toContain(x.divergence);
  });
});
