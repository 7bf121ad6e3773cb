// The generated TypeScript machines against the spec: every paths file replays, the tables agree
// with the IR, random (state, event, guards) agree with the semantics, the declarations type-check,
// and the modules import under plain Node ESM.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { pathsFilePath, renderPaths } from "../../generators/lifecycles/paths.js";
import { allowedEvents, evaluate } from "../../generators/lifecycles/semantics.js";
import type { Lifecycle } from "../../generators/model/lifecycle.js";
import { camelName, emitLifecyclesTs, pascalName } from "../../generators/targets/ts/emit-lifecycles.js";
import { ROOT, importMachine, loadAllLifecycles, materialize, type GeneratedMachineModule } from "./support.js";

const protocols = loadAllLifecycles();
const all: Lifecycle[] = protocols.flatMap((p) => p.lifecycles);

interface Step {
  event: string;
  guards: Record<string, boolean>;
  expect: { ok: boolean; state: string; effects?: string[]; refusal?: string; guard?: string };
}
interface Case {
  id: string;
  state: string;
  event: string;
  steps: Step[];
}

function observed(out: ReturnType<GeneratedMachineModule["transition"]>): Step["expect"] {
  if (out.ok) return { ok: true, state: out.state, effects: [...(out.effects ?? [])] };
  return out.guard === undefined ? { ok: false, state: out.state, refusal: out.refusal } : { ok: false, state: out.state, refusal: out.refusal, guard: out.guard };
}

let dir = "";
const modules = new Map<string, GeneratedMachineModule>();
beforeAll(async () => {
  dir = materialize(protocols);
  for (const l of all) modules.set(`${l.protocol}/${l.name}`, await importMachine(dir, l.protocol, l.name));
});

it("every protocol folder with machines is loaded, and there are the issue's eleven machines", () => {
  expect(all.map((l) => `${l.protocol}/${l.name}`).sort()).toEqual([
    "agent-connector/trust",
    "agent-provider/install-handshake",
    "agent-provider/proposal-record",
    "agent-provider/provider-proposal-handling",
    "agent-provider/trigger-handling",
    "agent-service/approval-token",
    "agent-service/execution",
    "agent-service/pending-interaction",
    "agent-service/request-admission",
    "provider-integration/connection",
    "provider-integration/inbox-handling",
  ]);
});

describe.each(all.map((l) => [`${l.protocol}/${l.name}`, l] as const))("%s", (_label, lifecycle) => {
  const pathsText = readFileSync(join(ROOT, pathsFilePath(lifecycle)), "utf8");
  const paths = JSON.parse(pathsText) as { coverage: { pairs: number; covered: number }; cases: Case[] };

  it("paths file is up to date (run generators/lifecycles/write-paths.ts)", () => {
    expect(pathsText).toBe(renderPaths(lifecycle));
  });

  it("paths cover 100% of (state, event) pairs", () => {
    const pairs = new Set(paths.cases.map((c) => `${c.state}\u0000${c.event}`));
    expect(pairs.size).toBe(lifecycle.states.length * lifecycle.events.length);
    expect(paths.coverage.covered).toBe(paths.coverage.pairs);
    // Every transition is taken by some case's last step, and every refusal kind the machine can give shows up.
    for (const t of lifecycle.transitions) {
      expect(paths.cases.some((c) => c.state === t.from && c.event === t.event && c.steps.at(-1)!.expect.ok && c.steps.at(-1)!.expect.state === t.to)).toBe(true);
    }
  });

  it("the generated machine replays every case", () => {
    const m = modules.get(`${lifecycle.protocol}/${lifecycle.name}`)!;
    for (const c of paths.cases) {
      let state = m.initialState;
      c.steps.forEach((step, i) => {
        const out = m.transition(state, step.event, step.guards);
        expect(observed(out), `${c.id} step ${i}`).toEqual(step.expect);
        state = out.state;
      });
      expect(state, c.id).toBe(c.steps.at(-1)!.expect.state);
    }
  });

  it("tables agree with the spec: states, events, allowedEvents, isTerminal", () => {
    const m = modules.get(`${lifecycle.protocol}/${lifecycle.name}`)!;
    expect(m.initialState).toBe(lifecycle.initial);
    expect([...m.states]).toEqual(lifecycle.states.map((s) => s.name));
    expect([...m.events]).toEqual(lifecycle.events.map((e) => e.name));
    for (const s of lifecycle.states) {
      expect([...m.allowedEvents(s.name)]).toEqual(allowedEvents(lifecycle, s.name));
      expect(m.isTerminal(s.name)).toBe(s.terminal);
    }
  });

  it("random (state, event, guards) agree with the semantics", () => {
    const m = modules.get(`${lifecycle.protocol}/${lifecycle.name}`)!;
    const guardValues = fc.record(Object.fromEntries(lifecycle.guards.map((g) => [g.name, fc.boolean()])), { requiredKeys: [] });
    fc.assert(
      fc.property(
        fc.constantFrom(...lifecycle.states.map((s) => s.name)),
        fc.constantFrom(...lifecycle.events.map((e) => e.name)),
        guardValues,
        (state, event, guards) => {
          const want = evaluate(lifecycle, state, event, guards as Record<string, boolean>);
          const got = observed(m.transition(state, event, guards as Record<string, boolean>));
          const expected = want.ok
            ? { ok: true, state: want.state, effects: want.effects }
            : want.guard === undefined
              ? { ok: false, state: want.state, refusal: want.refusal }
              : { ok: false, state: want.state, refusal: want.refusal, guard: want.guard };
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// Determinism across processes (seeds, locales, time zones) is property-tests/determinism.
it("the emitter lists its files in sorted order", () => {
  const paths = emitLifecyclesTs(protocols).map((f) => f.path);
  expect(paths).toEqual([...paths].sort());
  expect(paths).toContain("agent-connector/lifecycles/trust.js");
  expect(paths).toContain("agent-connector/lifecycles/trust.d.ts");
  expect(paths).toContain("agent-connector/lifecycles/index.js");
});

it("unknown names throw, refusals leave the state, outcomes are frozen tables", async () => {
  const m = modules.get("agent-connector/trust")!;
  expect(() => m.transition("nope", "approve")).toThrow(/unknown state/);
  expect(() => m.transition("imported", "nope")).toThrow(/unknown event/);
  const out = m.transition("installed", "revoke");
  expect(out).toEqual({ ok: false, from: "installed", event: "revoke", state: "installed", refusal: "event_not_allowed" });
  const ok = m.transition("imported", "approve");
  expect(Object.isFrozen(ok.effects)).toBe(true);
});

it("the declarations type-check against a consumer, and reject wrong names", () => {
  const lines: string[] = [];
  for (const l of all) {
    const ns = `${camelName(l.protocol)}_${camelName(l.name)}`;
    const P = pascalName(l.name);
    lines.push(`import * as ${ns} from "./${l.protocol}/lifecycles/${l.name}.js";`);
    lines.push(`{ const s: ${ns}.${P}State = ${ns}.initialState; const e: ${ns}.${P}Event = ${JSON.stringify(l.events[0]!.name)};`);
    lines.push(`  const out: ${ns}.${P}Outcome = ${ns}.transition(s, e, {});`);
    lines.push(`  if (out.ok) { const next: ${ns}.${P}State = out.state; const fx: readonly ${ns}.${P}Effect[] = out.effects; void next; void fx; }`);
    lines.push(`  else { const r: "terminal" | "event_not_allowed" | "guard_missing" | "guard_failed" | "guards_conflict" = out.refusal; void r; }`);
    lines.push(`  const allowed: readonly ${ns}.${P}Event[] = ${ns}.allowedEvents(s); void allowed; const t: boolean = ${ns}.isTerminal(s); void t; }`);
  }
  lines.push(`import * as connector from "./agent-connector/lifecycles/index.js";`);
  lines.push(`// @ts-expect-error not a state`);
  lines.push(`connector.trust.transition("bogus", "approve");`);
  lines.push(`// @ts-expect-error not a guard`);
  lines.push(`connector.trust.transition("approved", "upgrade", { bogus: true });`);
  writeFileSync(join(dir, "consumer.ts"), lines.join("\n") + "\n");
  const program = ts.createProgram([join(dir, "consumer.ts")], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: false,
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics).toEqual([]);
});

it("the generated modules import under plain Node ESM", () => {
  const urls = protocols.map((p) => pathToFileURL(join(dir, p.id, "lifecycles", "index.js")).href);
  const script = `const ms = await Promise.all(${JSON.stringify(urls)}.map((u) => import(u)));
console.log(JSON.stringify(ms.map((m) => Object.keys(m).sort())));
const t = ms[0].trust; console.log(JSON.stringify(t.transition("imported", "approve")));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim().split("\n");
  expect(JSON.parse(out[0]!)).toEqual(protocols.map((p) => p.lifecycles.map((l) => camelName(l.name)).sort()));
  expect(JSON.parse(out[1]!)).toEqual({ ok: true, from: "imported", event: "approve", state: "approved", effects: ["auditApproved"] });
});
