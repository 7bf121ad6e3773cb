// The emitted .d.ts as a user's TypeScript sees them: the declarations the pipeline renders
// in-process from the current spec are written to a temp dir (with expect-type beside them), and a
// consumer file placed there is compiled strictly. Rendering once per test file keeps it bounded.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { build } from "../../generators/pipeline.js";
import { ROOT } from "../signing/helpers.js";

/** Renders generated/ts into a fresh temp dir and returns it. */
export async function renderDeclarations(): Promise<string> {
  const result = await build(ROOT);
  if (!result.ok) throw new Error("spec has errors");
  const dir = mkdtempSync(join(tmpdir(), "dts-"));
  for (const [path, contents] of result.rendered) {
    if (!path.startsWith("generated/ts/")) continue;
    const target = join(dir, path.slice("generated/ts/".length));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules/expect-type"), join(dir, "node_modules/expect-type"));
  return dir;
}

/** Every diagnostic of `source` compiled as `consumer.ts` in `dir` (strict, NodeNext). */
export function diagnosticsIn(dir: string, source: string): string[] {
  writeFileSync(join(dir, "consumer.ts"), source);
  const program = ts.createProgram([join(dir, "consumer.ts")], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.start ?? ""} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}
