// The spec projects under examples/ (made with `agent-contracts init`, then edited; other domains
// than this repository's protocols): each generates into a temporary folder, its TypeScript output
// typechecks and accepts and refuses each message's examples as the spec declares, and no output
// names this repository unless the project does. Kotlin and Swift of each run by `make examples`. (examples.test.ts is another test: the examples inside this repository's spec.)
import { cpSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { build, loadModel, write } from "../pipeline.js";
import { REPO_ROOT } from "./fixture.js";
import { ourNamesIn } from "./our-names.js";

const EXAMPLES = readdirSync(join(REPO_ROOT, "examples"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describe("examples/", () => {
  it("holds the two example projects", () => {
    expect(EXAMPLES).toEqual(["clinic-queue", "parcel-lockers"]);
  });
  for (const name of EXAMPLES) {
    it(`${name}: generates, its TS typechecks and keeps the spec's verdicts, and names only itself`, async () => {
      const root = mkdtempSync(join(tmpdir(), `agent-contracts-example-${name}-`));
      cpSync(join(REPO_ROOT, "examples", name, "spec"), join(root, "spec"), { recursive: true });
      const result = await build(root);
      if (!result.ok) throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message} [${e.lint}]`).join("\n"));
      expect(ourNamesIn(result.rendered)).toEqual([]);
      write(root, result.rendered, result.owned);
      symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));

      const program = ts.createProgram([join(root, "generated/ts/index.d.ts")], { noEmit: true, strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);

      const model = loadModel(root);
      if (!model.ok) throw new Error("the model did not load a second time");
      const bindings = (await import(pathToFileURL(join(root, "generated/ts/index.js")).href)) as { validateMessage(p: string, n: string, v: unknown): { ok: boolean; errors?: { instancePath: string; keyword: string }[] } };
      let checked = 0;
      for (const protocol of model.model.protocols) {
        for (const message of protocol.messages) {
          for (const example of message.examples) expect(bindings.validateMessage(protocol.id, message.name, example).ok, `${message.name} example`).toBe(true);
          for (const invalid of message.invalidExamples) {
            const verdict = bindings.validateMessage(protocol.id, message.name, invalid.instance);
            expect(verdict.ok, invalid.description).toBe(false);
            expect(verdict.errors?.[0], invalid.description).toMatchObject({ instancePath: invalid.error.instancePath, keyword: invalid.error.keyword });
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    }, 180_000);
  }
});
