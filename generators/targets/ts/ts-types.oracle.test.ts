// The shape-rendered TypeScript types (ts-types.ts) against an independent oracle: the types
// json-schema-to-typescript writes for the same schemas (jstt-oracle.ts, as generated/ts had them
// before issue 29). The TypeScript compiler checks, for every message of every protocol, that
//   - without the two widenings the shape model asks for (open enums take any string, open records
//     any member), the shape type and jstt's type are mutually assignable: the same set of values;
//   - with them (what generated/ts ships), jstt's type is assignable to the shape type: widening
//     only adds values, and only where the spec left an enum or an object open.
// Deliberate differences it sees are listed in DIFFERENCES with their reasons. Ones it does not see: jstt names every $defs title it meets
// where the shapes name only what a message reaches, jstt writes @minItems/@maxItems tags in doc
// comments (the validator holds those bounds), and jstt's index signatures read `unknown | undefined`.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import type { Model } from "../../model/types.js";
import { emitProtocolTypes } from "./jstt-oracle.js";
import { renderProtocolTypes } from "./ts-types.js";

/**
 * Checks that fail on purpose, each with why the shape type is the right one (the list is exact:
 * a new failure fails the test, and so does a listed one that passes again).
 */
const DIFFERENCES: { check: string; why: string }[] = [
  {
    check: "agent-service IntermediateStep shape to jstt",
    why: "payload.data.input and .output have no type in the spec (any JSON value, as their descriptions say): the shape types them unknown, jstt invents an object ({ [k: string]: unknown }), which would refuse the string or array a tool may take or return",
  },
];

interface Check {
  message: string;
  direction: string;
}

let model: Model;
let dir = "";
/** Every failed check, as `protocol Message direction: tsc's message`. */
let failures: string[] = [];
let checks = 0;

beforeAll(async () => {
  const loaded = loadModel(REPO_ROOT);
  if (!loaded.ok) throw new Error(loaded.errors.map(String).join("\n"));
  model = loaded.model;
  dir = mkdtempSync(join(tmpdir(), "agent-contracts-ts-oracle-"));
  const roots: string[] = [];
  const lines = new Map<string, Map<number, Check>>();
  for (const protocol of model.protocols) {
    const folder = join(dir, protocol.id);
    mkdirSync(folder);
    writeFileSync(join(folder, "jstt.d.ts"), await emitProtocolTypes(model, protocol));
    writeFileSync(join(folder, "exact.d.ts"), renderProtocolTypes(model, protocol, { widen: false }));
    writeFileSync(join(folder, "shipped.d.ts"), renderProtocolTypes(model, protocol));
    const check = ['import type * as J from "./jstt.js";', 'import type * as E from "./exact.js";', 'import type * as W from "./shipped.js";'];
    const at = new Map<number, Check>();
    for (const m of protocol.messages) {
      for (const [from, to, direction] of [["E", "J", "shape to jstt"], ["J", "E", "jstt to shape"], ["J", "W", "jstt to widened shape"]] as const) {
        at.set(check.length + 1, { message: m.name, direction });
        check.push(`export const ${from}${to}_${m.name}: ${to}.${m.name} = null as unknown as ${from}.${m.name};`);
        checks++;
      }
    }
    writeFileSync(join(folder, "check.ts"), check.join("\n") + "\n");
    roots.push(join(folder, "check.ts"));
    lines.set(join(folder, "check.ts"), at);
  }
  const program = ts.createProgram(roots, { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  failures = ts.getPreEmitDiagnostics(program).map((d) => {
    const file = d.file?.fileName ?? "";
    const line = d.file === undefined ? 0 : d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
    const found = lines.get(file)?.get(line);
    const where = found === undefined ? `${file.slice(dir.length + 1)}:${line}` : `${file.slice(dir.length + 1).split("/")[0]} ${found.message} ${found.direction}`;
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, " ").replaceAll(dir, "").slice(0, 2000)}`;
  });
}, 240_000);

afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

describe("shape-rendered TypeScript types against json-schema-to-typescript", () => {
  it("every message's types are mutually assignable, widenings aside, and widening only adds", () => {
    expect(checks).toBe(model.protocols.reduce((n, p) => n + p.messages.length, 0) * 3);
    const known = new Set(DIFFERENCES.map((d) => d.check));
    expect(failures.filter((f) => !known.has(f.slice(0, f.indexOf(":"))))).toEqual([]);
    expect(DIFFERENCES.filter((d) => !failures.some((f) => f.startsWith(`${d.check}:`))).map((d) => d.check)).toEqual([]);
  });
});
