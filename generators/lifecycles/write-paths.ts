// Writes spec/<protocol>/lifecycles/<name>.paths.json for every machine, or with --check reports
// the ones that differ from what buildPaths gives (exit 1). Deterministic: same spec, same bytes.
// A paths file whose machine is gone is reported by loadLifecycles (lint file-name).
//   npx tsx generators/lifecycles/write-paths.ts [--check] [root]
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SpecError } from "../model/types.js";
import { loadLifecycles } from "./load.js";
import { pathsFiles } from "./paths.js";
import type { Lifecycle } from "../model/lifecycle.js";

/** Protocol folders under spec/ that may hold lifecycles (everything but meta and common). */
export function protocolIds(root: string): string[] {
  return readdirSync(`${root}/spec`, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "meta" && d.name !== "common")
    .map((d) => d.name)
    .sort();
}

function main(argv: string[]): number {
  const check = argv.includes("--check");
  const root = argv.find((a) => !a.startsWith("--")) ?? fileURLToPath(new URL("../..", import.meta.url));
  const errors: SpecError[] = [];
  const lifecycles: Lifecycle[] = [];
  for (const id of protocolIds(root)) {
    const result = loadLifecycles(root, id);
    errors.push(...result.errors);
    lifecycles.push(...result.lifecycles);
  }
  for (const e of errors) process.stderr.write(`${e.file}:${e.line}:${e.column} ${e.pointer} ${e.message} [${e.lint}]\n`);
  if (errors.length > 0) return 1;
  let drift = 0;
  for (const file of pathsFiles(lifecycles)) {
    const target = `${root}/${file.path}`;
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    if (current === file.contents) continue;
    if (check) {
      process.stderr.write(`${file.path}: out of date (run generators/lifecycles/write-paths.ts)\n`);
      drift++;
    } else {
      writeFileSync(target, file.contents);
      process.stdout.write(`wrote ${file.path}\n`);
    }
  }
  return drift > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
